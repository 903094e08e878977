"""Sphinx extension: a table or output wider than the screen says that it scrolls sideways.

On a phone a results table (a pandas output, a wide markdown table, long display maths)
scrolls inside its own box, which a reader cannot tell from a table that simply ends. Every
such box that is wider than its visible part gets the class ``mlcbook-scrolls``: its right
edge fades out while more lies to the right (``mlcbook-scrolls-more``), and a line above it
says "scroll sideways" (styles in ``_static/mlcbook.css``). Re-checked on resize.
"""

from __future__ import annotations

_HINT = """
(function () {
  var TABLES = 'div.cell_output > div.output, div.cell_output, .pst-scrollable-table-container, ' +
               '.bd-article .table-wrapper';
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
      hint.textContent = 'wider than the screen: scroll sideways \\u21c6';
      box.parentNode.insertBefore(hint, box);
    } else if (!wide && has) {
      hint.remove();
    }
  }
  function markAll() { document.querySelectorAll(BOXES).forEach(mark); }
  document.addEventListener('DOMContentLoaded', function () {
    markAll();
    document.querySelectorAll(BOXES).forEach(function (box) {
      box.addEventListener('scroll', function () { mark(box); }, {passive: true});
    });
  });
  window.addEventListener('load', markAll);
  window.addEventListener('resize', markAll);
})();
"""


def setup(app):
    app.add_js_file(None, body=_HINT)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
