"""Sphinx extension: a table, output or display equation wider than its column says that
it scrolls sideways, a table's verdict column stays in view, and no number in a table
breaks across lines.

A results table (a pandas output, a wide markdown table) or a long display equation wider
than the text column scrolls inside its own box, which a reader cannot tell from a table
or an equation that simply ends -- on a phone and on a desktop alike. Every such box that
is wider than its visible part gets the class ``mlcbook-scrolls``: its right edge fades
out while more lies to the right (``mlcbook-scrolls-more``), and a line above it says
"scroll sideways", at every width (styles in ``_static/mlcbook.css``). A display equation
(MathJax's ``mjx-container``, typeset after the page loaded) is marked once MathJax has
finished. Re-checked on resize, on every scroll of a box and when a collapsed section opens.

A table with a column headed "verdict" (the paper-against-ours tables) keeps that column
in view while the rest scrolls: its cells get the class ``mlcbook-verdict`` and stick to
the right edge of the box (the box then does not fade out: the verdict is what a reader
looks for at its right edge).

Every cell of a table in the article that holds one number (with its sign, decimals,
thousands separator, exponent, a percent sign or a mark such as ✔ or ±) gets the class
``mlcbook-num``: it does not wrap, so that ``2.420e-02`` or ``−0.010`` is never split at
its minus sign, and its figures line up.
"""

from __future__ import annotations

_HINT = r"""
(function () {
  var TABLES = 'div.cell_output > div.output, div.cell_output, .pst-scrollable-table-container, ' +
               '.bd-article .table-wrapper, .bd-article div.output.text_html';
  var MATHS = 'mjx-container[display="true"]';
  var BOXES = TABLES + ', ' + MATHS + ', div.math-wrapper, div.highlight pre';
  function mark(box) {
    var wide = box.scrollWidth > box.clientWidth + 2;
    box.classList.toggle('mlcbook-scrolls', wide);
    box.classList.toggle('mlcbook-scrolls-more',
                         wide && box.scrollLeft + box.clientWidth < box.scrollWidth - 2);
    // an equation's line goes above its numbered block (the theme lays out the equation and
    // its number side by side: a line inside would squeeze the equation)
    var maths = box.matches(MATHS);
    var at = maths && box.parentElement.matches('div.math') ? box.parentElement : box;
    var hint = at.previousElementSibling;
    var has = hint && hint.classList && hint.classList.contains('mlcbook-scroll-hint');
    if (wide && !has && (maths || box.matches(TABLES))) {
      hint = document.createElement('div');
      hint.className = 'mlcbook-scroll-hint';
      hint.setAttribute('aria-hidden', 'true');
      hint.textContent = maths ? 'equation wider than the column: scroll sideways \u21c6'
                               : 'wider than the column: scroll sideways \u21c6';
      at.parentNode.insertBefore(hint, at);
    } else if (!wide && has) {
      hint.remove();
    }
  }
  function markAll() { document.querySelectorAll(BOXES).forEach(mark); }
  // numbers only: digits, signs, separators, exponents, ± and brackets, marks (✔ ✘ ≈)
  var NUMBER = /^(?=.*\d)[\s\d.,\u2009\u202f\u2212+\-\u00b1()\/%\u2013\u00d7\u2070-\u2079\u00b9\u00b2\u00b3\u207beE\u2714\u2718\u2248~<>=\u2264\u2265]+$/;
  function markNumbers() {
    document.querySelectorAll('.bd-article td, .bd-article th').forEach(function (cell) {
      var text = cell.textContent.trim();
      if (text.length && text.length <= 24 && NUMBER.test(text)) {
        cell.classList.add('mlcbook-num');
      }
    });
  }
  // the column headed "verdict" of a table: the cells of every row at that column (the
  // header row's position counted with colspans; rows with a cell spanning it are left)
  function column(row, at) {
    var x = 0;
    for (var i = 0; i < row.cells.length; i++) {
      var span = row.cells[i].colSpan || 1;
      if (x === at && span === 1) { return row.cells[i]; }
      x += span;
      if (x > at) { return null; }
    }
    return null;
  }
  function markVerdicts() {
    document.querySelectorAll('.bd-article table').forEach(function (table) {
      var head = table.tHead ? table.tHead.rows : [];
      for (var r = head.length - 1; r >= 0; r--) {
        var x = 0, at = -1;
        for (var i = 0; i < head[r].cells.length; i++) {
          var c = head[r].cells[i];
          if (c.textContent.trim().toLowerCase() === 'verdict') { at = x; break; }
          x += c.colSpan || 1;
        }
        if (at < 0) { continue; }
        table.classList.add('mlcbook-has-verdict');
        for (var k = 0; k < table.rows.length; k++) {
          var cell = column(table.rows[k], at);
          if (cell) { cell.classList.add('mlcbook-verdict'); }
        }
        return;
      }
    });
  }
  function whenMaths(tries) {
    // MathJax (loaded after the page) typesets the display equations: mark their boxes
    if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
      MathJax.startup.promise.then(markAll);
    } else if (tries < 100) {
      setTimeout(function () { whenMaths(tries + 1); }, 100);
    }
  }
  document.addEventListener('DOMContentLoaded', function () {
    markNumbers();
    markVerdicts();
    markAll();
  });
  // a box scrolled by the reader: its fade goes when its right end is reached (scroll
  // events do not bubble; one listener on the document in the capture phase sees them all)
  document.addEventListener('scroll', function (e) {
    var box = e.target;
    if (box && box.matches && box.matches(BOXES)) { mark(box); }
  }, {capture: true, passive: true});
  window.addEventListener('load', function () {
    markAll();
    // fonts and images change widths: mark again when the content of a box changes size
    if (window.ResizeObserver) {
      var again = new ResizeObserver(function () { markAll(); });
      document.querySelectorAll(BOXES).forEach(function (box) {
        if (box.firstElementChild) { again.observe(box.firstElementChild); }
      });
    }
    if (document.querySelector('.math')) { whenMaths(0); }
  });
  window.addEventListener('resize', markAll);
  // a collapsed section opened: the boxes in it have a width only now ('toggle' does not
  // bubble; a capture listener on the document sees every section's)
  document.addEventListener('toggle', markAll, true);
})();
"""


def setup(app):
    app.add_js_file(None, body=_HINT)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
