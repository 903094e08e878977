"""Print the whole book to one PDF with Debian's Chromium (``make pdf``).

Usage: ``python book/_ext/print_pdf.py SINGLEHTML_DIR OUT.pdf``

``SINGLEHTML_DIR`` is the output of ``jupyter-book build . --builder singlehtml``: every
chapter on one page. The page is served on 127.0.0.1, opened in headless Chromium through
Playwright (the browser of the Debian package, no download), MathJax is awaited, every
``<details>`` toggle (the chapters' ledgers, hidden solutions) is opened so that print shows
its content, and the page is printed with the print style sheet of ``_static/mlcbook.css``.
"""

from __future__ import annotations

import functools
import http.server
import shutil
import sys
import threading
from pathlib import Path

FOOTER = (
    "<div style='font-size:8px; width:100%; text-align:center; color:#555;'>"
    "mlcbook · <span class='pageNumber'></span> / <span class='totalPages'></span></div>"
)


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def _chromium() -> str:
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    raise SystemExit("Debian's chromium is needed: make chromium")


def print_book(site: Path, out: Path) -> None:
    from playwright.sync_api import sync_playwright

    page_file = site / "book" / "intro.html"
    if not page_file.exists():
        raise SystemExit(f"{page_file} is missing: build the singlehtml book first")
    # singlehtml writes the root document to book/intro.html with links relative to the
    # build's root (_static/, _images/): serve a copy at the root so they resolve
    (site / "print.html").write_bytes(page_file.read_bytes())
    handler = functools.partial(_Quiet, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/print.html"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=_chromium(), headless=True,
                                        args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport={"width": 1100, "height": 1400})
            page.goto(url, wait_until="load", timeout=120_000)
            page.wait_for_function("window.MathJax && MathJax.startup && MathJax.startup.promise",
                                   timeout=60_000)
            page.evaluate("MathJax.startup.promise")
            page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
            page.emulate_media(media="print")
            out.parent.mkdir(parents=True, exist_ok=True)
            tmp = out.with_suffix(".pdf.tmp")
            page.pdf(path=str(tmp), format="A4", print_background=True,
                     margin={"top": "16mm", "bottom": "16mm", "left": "14mm", "right": "14mm"},
                     display_header_footer=True, header_template="<div></div>",
                     footer_template=FOOTER)
            tmp.replace(out)
            browser.close()
    finally:
        server.shutdown()
        server.server_close()


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit("usage: print_pdf.py SINGLEHTML_DIR OUT.pdf")
    print_book(Path(sys.argv[1]), Path(sys.argv[2]))
    print(f"wrote {sys.argv[2]}")
