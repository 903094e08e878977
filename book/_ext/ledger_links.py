"""Sphinx extension: a link to a ledger row opens the toggle that holds it.

The ledgers page shows each chapter's ledger inside a closed ``<details>`` element (short
on a phone); a link such as ``ledgers.html#ledger-losses-3`` must open that element and
scroll to the row, in every browser and on every later change of the address's fragment.
"""

from __future__ import annotations

_OPEN_TARGET = """
(function () {
  function openTarget() {
    var id = decodeURIComponent(window.location.hash.slice(1));
    var el = id && document.getElementById(id);
    if (!el) { return; }
    for (var d = el.closest('details'); d; d = d.parentElement.closest('details')) {
      d.open = true;
    }
    el.scrollIntoView();
  }
  window.addEventListener('hashchange', openTarget);
  document.addEventListener('DOMContentLoaded', openTarget);
})();
"""


def setup(app):
    app.setup_extension("collapsed_sections")  # the summary lines of the collapsed sections
    app.add_js_file(None, body=_OPEN_TARGET)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
