"""Doctest settings: every docstring example of ``lib/mlcbook`` and ``repro/mlcrepro``
runs (``make unit``: ``--doctest-modules``) in a sandbox, never in the repository.

Each example runs with the working directory and the library's data home in a fresh
temporary folder (datasets are read from the mirror, ``MLCBOOK_DATA_MIRROR`` or
``../shared/datasets``, and parsed into that folder), and with the reproduction's cache
and results redirected there too.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from _pytest.doctest import DoctestItem

_MIRROR = Path(__file__).resolve().parent.parent / "shared" / "datasets"


@pytest.fixture(autouse=True)
def _doctest_sandbox(request, tmp_path, monkeypatch):
    """A doctest writes nothing into the checkout (other tests are left alone)."""
    if not isinstance(request.node, DoctestItem):
        yield
        return
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MLCBOOK_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("MLCBOOK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("MLCBOOK_PROGRESS", "0")
    if "MLCBOOK_DATA_MIRROR" not in os.environ and _MIRROR.is_dir():
        monkeypatch.setenv("MLCBOOK_DATA_MIRROR", str(_MIRROR))
    yield


_REPRODUCTION_TESTS = Path(__file__).resolve().parent / "tests" / "mlcrepro"


def pytest_collection_modifyitems(config, items):
    """A chapter's nbval cells compare its committed outputs, as the recompute tests compare
    committed tables: both carry the ``recompute`` marker.  Every test of the reproduction
    (``tests/mlcrepro``) compares with committed material too -- tables, ledgers, the
    authors' numbers -- and many recompute a cell of their own.  All of these carry the
    ``portable`` marker, so that ``make test``'s ``portable-tests`` and
    ``portable-notebooks`` stages run them on the emulated CPU (``-m portable``), and no
    recompute-style test is left to the native CPU alone by a missing marker."""
    for item in items:
        if item.path.suffix == ".ipynb":
            item.add_marker(pytest.mark.recompute)
        if item.get_closest_marker("recompute") is not None or (
            _REPRODUCTION_TESTS in item.path.parents
        ):
            item.add_marker(pytest.mark.portable)
