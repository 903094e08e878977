"""Serve the built site on 127.0.0.1 and drive Debian's Chromium with Playwright (no browser download)."""

from __future__ import annotations

import dataclasses
import fcntl
import functools
import http.server
import json
import os
import shutil
import threading
from pathlib import Path

import pytest

from mlcrepro._paths import project_root

from .visit import Phone, Visit, visit

SITE = project_root() / "_build" / "html"


def chromium_path() -> str:
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    raise RuntimeError("Debian's chromium is needed for the browser check: apt-get install chromium")


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep pytest output clean
        pass


@pytest.fixture(scope="session")
def site_url():
    if not (SITE / "index.html").exists():
        raise RuntimeError(f"{SITE} is not built: run `make site` first")
    handler = functools.partial(_QuietHandler, directory=str(SITE))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=chromium_path(),
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield b
        b.close()


HEIGHTS = SITE.parent / "browser" / "page_heights.json"


def report_height(page: str, width: int, height: int) -> None:
    """Page heights (px at 390 and 1280 px wide) go to _build/browser/page_heights.json
    (under a lock: the two workers of the browser stage write it in turn)."""
    HEIGHTS.parent.mkdir(parents=True, exist_ok=True)
    with open(HEIGHTS.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        data = json.loads(HEIGHTS.read_text()) if HEIGHTS.exists() else {}
        data.setdefault(page, {})[str(width)] = height
        HEIGHTS.write_text(json.dumps(data, indent=1, sort_keys=True))


PHONE_FACTS = SITE.parent / "browser" / "phone.json"


def report_phone(page: str, facts: dict) -> None:
    """What a page shows at 390 px, counted (wide display equations and those without a
    cue, cells breaking a word, verdict columns in and out of view, the smallest figure
    text in px), to _build/browser/phone.json for the stage's summary (locked as above)."""
    PHONE_FACTS.parent.mkdir(parents=True, exist_ok=True)
    with open(PHONE_FACTS.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        data = json.loads(PHONE_FACTS.read_text()) if PHONE_FACTS.exists() else {}
        data[page] = facts
        PHONE_FACTS.write_text(json.dumps(data, indent=1, sort_keys=True))


@pytest.fixture(scope="session")
def page_visit(browser, site_url, tmp_path_factory):
    """``page_visit(page)``: the facts of the one visit of ``page`` in this test run, at
    1280 px and narrowed to 390 px (visit.py), loaded on the first call and shared by every
    check that reads them.

    On the two workers of ``make browser`` (``-n 2 --dist load``: the checks are dealt out
    one by one, so both workers load pages) the first worker to ask for a page loads it and
    leaves its facts in the folder the run's workers share (xdist's base temporary folder
    of the run); the other reads them there, waiting while it is being loaded.
    """
    seen: dict[str, Visit] = {}
    shared = (tmp_path_factory.getbasetemp().parent / "page_visits"
              if os.environ.get("PYTEST_XDIST_WORKER") else None)

    def get(page: str) -> Visit:
        if page not in seen:
            seen[page] = (visit(browser, site_url, page) if shared is None
                          else _shared_visit(shared, browser, site_url, page))
        return seen[page]

    return get


def _shared_visit(folder: Path, browser, site_url: str, page: str) -> Visit:
    """The visit of ``page`` from ``folder``, or loaded and left there (under a lock per
    page: the other worker waits for it rather than load the page a second time)."""
    folder.mkdir(exist_ok=True)
    facts = folder / (page.replace("/", "__") + ".json")
    with open(facts.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if facts.exists():
            data = json.loads(facts.read_text())
            return Visit(**{**data, "phone": Phone(**data["phone"])})
        v = visit(browser, site_url, page)
        written = facts.with_suffix(".part")
        written.write_text(json.dumps(dataclasses.asdict(v)))
        written.replace(facts)
        return v


def pytest_terminal_summary(terminalreporter):
    """The heights of the book's pages (not the API reference) at 1280 and 390 px, as the
    checks measured them (collapsed sections closed), and what each shows at 390 px."""
    _phone_summary(terminalreporter)
    if not HEIGHTS.exists():
        return
    data = json.loads(HEIGHTS.read_text())
    rows = [(p, h) for p, h in data.items() if p.startswith("book/") and "/api/" not in p]
    if not rows:
        return
    terminalreporter.section("page heights (px)")
    terminalreporter.write_line(f"{'page':42s} {'1280 px':>9s} {'390 px':>9s}")
    for page, h in sorted(rows):
        wide, narrow = (format(h[w], ",") if w in h else "-" for w in ("1280", "390"))
        terminalreporter.write_line(f"{page:42s} {wide:>9} {narrow:>9}")


def _phone_summary(terminalreporter) -> None:
    if not PHONE_FACTS.exists():
        return
    data = json.loads(PHONE_FACTS.read_text())
    rows = [(p, f) for p, f in data.items() if p.startswith("book/") and "/api/" not in p]
    if not rows:
        return
    terminalreporter.section("at 390 px (a phone)")
    terminalreporter.write_line(
        f"{'page':42s} {'wide eq.':>8s} {'no cue':>6s} {'broken':>6s} {'verdicts':>9s} "
        f"{'fig. px':>7s}")
    for page, f in sorted(rows):
        fig = "-" if f["figure_px"] is None else format(f["figure_px"], ".1f")
        terminalreporter.write_line(
            f"{page:42s} {f['wide_equations']:>8d} {f['equations_without_cue']:>6d} "
            f"{f['broken_cells']:>6d} {f['verdicts_hidden']:>4d}/{f['verdict_tables']:<4d} "
            f"{fig:>7s}")
