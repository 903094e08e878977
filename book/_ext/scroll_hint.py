"""Sphinx extension: a table or output wider than its column says that it scrolls sideways,
and no number in a table breaks across lines.

A results table (a pandas output, a wide markdown table, long display maths) wider than
the text column scrolls inside its own box, which a reader cannot tell from a table that
simply ends -- on a phone and on a desktop alike. Every such box that is wider than its
visible part gets the class ``mlcbook-scrolls``: its right edge fades out while more lies
to the right (``mlcbook-scrolls-more``), and a line above it says "scroll sideways", at
every width (styles in ``_static/mlcbook.css``). Re-checked on resize.

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
  var BOXES = TABLES + ', div.math-wrapper, div.highlight pre';
  function mark(box) {
    var wide = box.scrollWidth > box.clientWidth + 2;
    box.classList.toggle('mlcbook-scrolls', wide);
    box.classList.toggle('mlcbook-scrolls-more',
                         wide && box.scrollLeft + box.clientWidth < box.scrollWidth - 2);
    var hint = box.previousElementSibling;
    var has = hint && hint.classList && hint.classList.contains('mlcbook-scroll-hint');
    if (wide && !has && box.matches(TABLES)) {
      hint = document.createElement('div');
      hint.className = 'mlcbook-scroll-hint';
      hint.setAttribute('aria-hidden', 'true');
      hint.textContent = 'wider than the column: scroll sideways \u21c6';
      box.parentNode.insertBefore(hint, box);
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
  document.addEventListener('DOMContentLoaded', function () {
    markNumbers();
    markAll();
    document.querySelectorAll(BOXES).forEach(function (box) {
      box.addEventListener('scroll', function () { mark(box); }, {passive: true});
    });
  });
  window.addEventListener('load', function () {
    markAll();
    // maths typeset after load, fonts and images change widths: mark again when the
    // content of a box changes size
    if (window.ResizeObserver) {
      var again = new ResizeObserver(function () { markAll(); });
      document.querySelectorAll(BOXES).forEach(function (box) {
        if (box.firstElementChild) { again.observe(box.firstElementChild); }
      });
    }
    if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
      MathJax.startup.promise.then(markAll);
    }
  });
  window.addEventListener('resize', markAll);
})();
"""


def setup(app):
    app.add_js_file(None, body=_HINT)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
