"""``mlcrepro check ID --recompute``: rerun the cells behind one ledger row, judge it again.

For each ledger row that carries the claim id:

1. its paper's folder names the committed tables' cells the row rests on
   (``row_cells(row)`` in the folder's ``experiments``; a row computed from the library
   alone rests on none);
2. those cells alone are computed afresh, through the runner's cell functions, into a
   temporary cache (never the committed cache: nothing is served from an earlier run);
3. the committed tables are copied to a temporary results folder, and each recomputed
   cell's rows take the place of the committed rows with the same keys
   (:meth:`mlcrepro.experiment.Experiment.key_columns`) -- the provenance keeps the
   committed configuration, so the evidence reads them as it reads the committed ones;
4. the row's ledger is rebuilt from that folder by its paper's contract
   (:func:`mlcrepro.papers.build_ledger`), and the row in the same place is set beside
   the saved one: our value and the status the ledger's rule now derives.

Nothing in the checkout is written.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import shutil
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from mlcrepro._paths import results_dir
from mlcrepro.check import rows_of
from mlcrepro.experiment import Cells, Experiment
from mlcrepro.papers import build_ledger, cells_behind, experiments
from mlcrepro.reproduce import compute_cells, environment
from mlcrepro.results import StaleResultError, committed_table, config_hash, load_or_compute
from mlcrepro.runner import Cell, Spec, cell_path, cells, load

__all__ = ["Recheck", "recheck", "splice"]


@dataclass(frozen=True)
class Recheck:
    """One ledger row judged again from recomputed cells."""

    claim_id: str
    ledger: str
    row: int
    tables: tuple[str, ...]
    cells: int
    cpu_seconds: float
    wall_seconds: float
    ours_before: str
    ours_after: str
    status_before: str
    status_after: str

    @property
    def unchanged(self) -> bool:
        """Whether the row's status is what the saved ledger says."""
        return self.status_before == self.status_after


def splice(
    committed: pd.DataFrame, frames: Sequence[pd.DataFrame], exp: Experiment
) -> pd.DataFrame:
    """``committed`` with the rows of the recomputed cells' ``frames`` in place of the rows
    with the same keys.

    Raises
    ------
    ValueError
        If a recomputed row has no committed row with its keys, or several (a discrete
        outcome such as a chosen penalty changed: the row cannot be put in place).
    """
    keys = exp.key_columns(committed)
    out = committed.copy()
    where = {k: i for i, k in enumerate(out[keys].itertuples(index=False, name=None))}
    if len(where) != len(out):
        raise ValueError(f"{exp.name}: its keys {keys} do not tell its rows apart")
    for frame in frames:
        if not isinstance(frame, pd.DataFrame):
            raise TypeError(f"{exp.name}: a cell returned {type(frame).__name__}, not a table")
        missing = [c for c in keys if c not in frame.columns]
        if missing:
            raise ValueError(f"{exp.name}: a recomputed cell lacks the key columns {missing}")
        values = [c for c in out.columns if c not in keys and c in frame.columns]
        rows = zip(
            frame[keys].itertuples(index=False, name=None),
            frame[values].itertuples(index=False, name=None),
        )
        for key, new in rows:
            if key not in where:
                raise ValueError(
                    f"{exp.name}: the recomputed row {dict(zip(keys, key))} has no committed "
                    "row with the same keys (a discrete outcome changed)"
                )
            i = where[key]
            for col, value in zip(values, new):
                out.iat[i, out.columns.get_loc(col)] = value
    return out.astype(committed.dtypes.to_dict())


def _stage(name: str, table: pd.DataFrame, folder: Path) -> None:
    """Write ``table`` as the committed table ``name`` of ``folder``, under the committed
    configuration (so that the evidence, which asks for that configuration, reads it)."""
    record = json.loads((results_dir() / f"{name}.json").read_text(encoding="utf-8"))
    config = record["config"]
    if config_hash(config) != record["config_hash"]:
        raise StaleResultError(f"the provenance of {name} does not reproduce its own key")
    with environment(MLCBOOK_RECOMPUTE=name, MLCBOOK_RESULTS_DIR=str(folder)):
        load_or_compute(name, lambda: table, config)


def _recompute_tables(
    selectors: Sequence[Cells], cache: Path, staged: Path, n_jobs: int
) -> tuple[int, float]:
    exps = {e.name: e for e in experiments()}
    by_table: dict[str, list[Cells]] = {}
    for sel in selectors:
        by_table.setdefault(sel.table, []).append(sel)
    n_cells, cpu = 0, 0.0
    for name, sels in by_table.items():
        exp = exps[name]
        specs = list(exp.specs())

        def chosen(spec: Spec, cell: Cell, sels: list[Cells] = sels) -> bool:
            return any(s.selects(cell) for s in sels)

        spent = compute_cells(specs, cache, n_jobs=n_jobs, desc=name, select=chosen)
        frames = [load(cell_path(s, c, cache)) for s in specs for c in cells(s) if chosen(s, c)]
        n_cells += len(frames)
        cpu += float(sum(spent.values()))
        _stage(name, splice(committed_table(name), frames, exp), staged)
    return n_cells, cpu


def _rebuilt_rows(ledger: str, staged: str) -> list[dict]:
    """The ledger ``ledger`` rebuilt from the tables in ``staged`` (run in a fresh
    interpreter: no evidence computed earlier in this process is served)."""
    os.environ["MLCBOOK_RESULTS_DIR"] = staged
    os.environ["MLCBOOK_PROGRESS"] = "0"
    return build_ledger(ledger).to_frame().to_dict("records")


def recheck(claim_id: str, *, n_jobs: int = -1) -> list[Recheck]:
    """Rerun the cells behind every ledger row that carries ``claim_id``; judge it again.

    Returns
    -------
    list of Recheck
        One per row, in the order of the saved ledgers.
    """
    rows = rows_of(claim_id)
    out = []
    for _, row in rows.iterrows():
        start = time.perf_counter()
        selectors = cells_behind(row)
        with tempfile.TemporaryDirectory(prefix="mlcrepro-check-") as tmp:
            cache, staged = Path(tmp) / "cells", Path(tmp) / "results"
            staged.mkdir()
            for path in results_dir().glob("*"):
                if path.suffix in (".csv", ".json"):
                    shutil.copy2(path, staged / path.name)
            n_cells, cpu = _recompute_tables(selectors, cache, staged, n_jobs)
            spawn = multiprocessing.get_context("spawn")
            with ProcessPoolExecutor(1, mp_context=spawn) as pool:
                rebuilt = pool.submit(_rebuilt_rows, str(row["chapter"]), str(staged)).result()
        new = rebuilt[int(row["row"]) - 1]
        if new["claim_ids"] != row["claim_ids"]:
            raise RuntimeError(
                f"the rebuilt ledger {row['chapter']} has {new['claim_ids']!r} at row "
                f"{row['row']}, the saved one {row['claim_ids']!r}"
            )
        out.append(
            Recheck(
                claim_id=claim_id,
                ledger=str(row["chapter"]),
                row=int(row["row"]),
                tables=tuple(dict.fromkeys(s.table for s in selectors)),
                cells=n_cells,
                cpu_seconds=cpu,
                wall_seconds=time.perf_counter() - start,
                ours_before=str(row["ours"]),
                ours_after=str(new["ours"]),
                status_before=str(row["status"]),
                status_after=str(new["status"]),
            )
        )
    return out
