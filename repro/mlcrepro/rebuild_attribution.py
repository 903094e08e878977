"""Which rebuilt table a changed ledger row follows, shown by rebuilding one at a time.

A rebuild (:func:`mlcrepro.reproduce.reproduce`) replaces every table at once, and
:func:`mlcrepro.rebuild_report.ledger_changes` lists every ledger row that changed.  To
say *why* a row changed, :func:`attribute` rebuilds the ledgers once per table whose
rebuilt rows differ from the committed ones, in a folder of the committed tables with
that one table rebuilt: a change that this makes, to the same rebuilt text, follows that
table.  Each such ledger build runs in a fresh process (the papers' evidence is computed
once per process).  A change that no single table makes is left to a judgement of its
own (:data:`mlcrepro.rebuild_findings.ROWS`).
"""

from __future__ import annotations

import multiprocessing
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from mlcrepro._paths import results_dir
from mlcrepro.rebuild_report import LedgerChange, ledger_changes

__all__ = ["attribute", "differing_tables"]

#: one change of a ledger row: (claim ids, field, rebuilt text)
Change = tuple[str, str, str]


def differing_tables(staging: str | Path, committed: str | Path | None = None) -> list[str]:
    """The tables whose rebuilt rows in ``staging`` differ, byte for byte, from the
    committed ones (``committed``, default ``data/results``), by name.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
    ...     for folder, text in ((a, "x\\n1\\n"), (b, "x\\n2\\n")):
    ...         _ = (Path(folder) / "t.csv").write_text(text)
    ...         _ = (Path(folder) / "u.csv").write_text("y\\n0\\n")
    ...     differing_tables(a, b)
    ['t']
    """
    old = Path(committed) if committed is not None else results_dir()
    return sorted(
        p.stem
        for p in Path(staging).glob("*.csv")
        if not (old / p.name).exists() or (old / p.name).read_bytes() != p.read_bytes()
    )


def _changes_with_one(
    table: str, staging: str, committed: str, ledgers: str | None
) -> set[Change]:
    """Every ledger change when only ``table`` is rebuilt (run in a fresh process)."""
    with tempfile.TemporaryDirectory(prefix="mlcrepro-attribute-") as tmp:
        for p in Path(committed).iterdir():
            if p.suffix in (".csv", ".json"):
                shutil.copy2(p, tmp)
        for suffix in (".csv", ".json"):
            rebuilt = Path(staging) / f"{table}{suffix}"
            if rebuilt.exists():
                shutil.copy2(rebuilt, tmp)
        return {
            (c.claim_ids, c.field, c.rebuilt)
            for led in ledger_changes(tmp, ledgers)
            for c in led.changes
        }


def attribute(
    staging: str | Path,
    changes: Sequence[LedgerChange],
    *,
    committed: str | Path | None = None,
    ledgers: str | Path | None = None,
    workers: int = 2,
) -> dict[tuple[str, str], tuple[str, ...]]:
    """``(claim ids, field) -> the tables whose rebuild alone makes that change``.

    ``changes`` are the rebuild's (:func:`mlcrepro.rebuild_report.ledger_changes` of
    ``staging``); the ledgers are rebuilt once per table of :func:`differing_tables`,
    ``workers`` fresh processes at a time (``0``: one after another in this process,
    where the papers' evidence, computed once per process, would be stale), and compared
    with the saved ones (``ledgers``, default the book's).  A change made by no single
    table maps to ``()``.
    """
    wanted = [(c.claim_ids, c.field, c.rebuilt) for led in changes for c in led.changes]
    if not wanted:
        return {}
    old = str(committed if committed is not None else results_dir())
    tables = differing_tables(staging, old)
    args = (
        tables,
        [str(staging)] * len(tables),
        [old] * len(tables),
        [None if ledgers is None else str(ledgers)] * len(tables),
    )
    if workers == 0:
        made: Mapping[str, set[Change]] = dict(zip(tables, map(_changes_with_one, *args)))
    else:
        spawn = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(workers, mp_context=spawn, max_tasks_per_child=1) as pool:
            made = dict(zip(tables, pool.map(_changes_with_one, *args)))
    return {
        (claim, field): tuple(t for t in tables if (claim, field, text) in made[t])
        for claim, field, text in wanted
    }
