"""Heights of the built site's pages, as a reader's browser lays them out.

    .venv/bin/python tools/page_heights.py [PAGE ...]     (default: every page of _toc.yml)

Serves ``_build/html`` on 127.0.0.1, opens each page in Debian's Chromium (through
Playwright, no browser download) at 1280 and 390 px wide, with every collapsed section
left closed, and prints ``page  height@1280  height@390`` in px (MathJax settled).
"""

from __future__ import annotations

import functools
import http.server
import shutil
import sys
import threading
from pathlib import Path

import yaml
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "_build" / "html"
WIDTHS = (1280, 390)


def toc_pages() -> list[str]:
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    pages = [toc["root"]]
    for part in toc.get("parts", []):
        if part.get("caption") == "API reference":
            continue
        pages += [c["file"] for c in part["chapters"]]
    return pages


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def main(argv: list[str]) -> None:
    pages = argv or toc_pages()
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Quiet, directory=str(SITE))
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    exe = shutil.which("chromium") or "chromium"
    args = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync"]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=exe, headless=True, args=args)
        print(f"{'page':40s} {'1280 px':>9s} {'390 px':>9s}")
        for page in pages:
            page = page.removesuffix(".html").removesuffix(".md")
            heights = []
            for width in WIDTHS:
                tab = browser.new_page(viewport={"width": width, "height": 900})
                tab.goto(f"{url}/{page}.html", wait_until="load")
                tab.wait_for_timeout(1500)  # MathJax typesets after load
                heights.append(tab.evaluate("document.documentElement.scrollHeight"))
                tab.close()
            print(f"{page:40s} {heights[0]:9,d} {heights[1]:9,d}")
        browser.close()
    server.shutdown()


if __name__ == "__main__":
    main(sys.argv[1:])
