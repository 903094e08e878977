"""The quick tier: a declared sample of every table's cells, recomputed and judged.

``mlcrepro reproduce --quick`` (``make reproduce-quick``) recomputes, for each committed
table, the cells its :class:`~mlcrepro.experiment.Experiment` declares as its sample
(``quick``: one dataset, one seed, fold, split or replication -- whichever axes the table
has -- and every value of its other axes), through the same cell functions as the full
run, into a fresh temporary cache (nothing is served from an earlier run).  A sampled
cell is the very cell of the full run, with the paper's configuration: the tier
computes fewer cells, never smaller ones.

Each recomputed cell's rows are set beside the committed rows with the same keys
(:meth:`~mlcrepro.experiment.Experiment.key_columns`) and compared within the table's
tolerance (:func:`mlcrepro.reproduce.compare_tables`); a recomputed row that has no
committed row (a discrete outcome changed) fails the table.  A table made of no cells
of its own (assembled from other committed tables, or from the authors' Octave runs)
is named, with no verdict.
"""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from mlcrepro.experiment import Cells, Experiment
from mlcrepro.rebuild_findings import outside_section
from mlcrepro.recheck import splice
from mlcrepro.reproduce import (
    Comparison,
    cluster,
    compare_tables,
    compute_cells,
    environment,
    local_workers,
)
from mlcrepro.results import committed_table
from mlcrepro.runner import Cell, Spec, cell_path, cells, load
from mlcrepro.timing import cpu_seconds, wall_seconds

__all__ = ["QuickVerdict", "compare_sample", "quick", "quick_markdown", "sample_text"]


@dataclass(frozen=True)
class QuickVerdict:
    """One table of the quick tier: its sample, what it cost, and how it compares.

    ``comparison`` is None for a table with no cells of its own (``note`` says so);
    ``not_compared`` names the table's columns that its cells do not return (added when
    the table is assembled), which the sample cannot check.
    """

    name: str
    sample: str
    cells: int
    rows: int
    cpu_seconds: float
    wall_seconds: float
    comparison: Comparison | None
    note: str = ""
    not_compared: tuple[str, ...] = ()


def sample_text(where: Mapping[str, Any]) -> str:
    """The sample in words: ``axis = value`` for each axis it fixes.

    >>> sample_text({"dataset": "flags", "split": 0})
    'dataset = flags, split = 0'
    >>> sample_text({})
    'every cell'
    """
    if not where:
        return "every cell"
    return ", ".join(
        f"{axis} = {'/'.join(map(str, v)) if isinstance(v, tuple) else v}"
        for axis, v in where.items()
    )


def compare_sample(
    committed: pd.DataFrame, frames: Sequence[pd.DataFrame], experiment: Experiment
) -> tuple[Comparison, int]:
    """Compare recomputed cells' rows with the committed rows that have their keys.

    Returns the comparison and how many committed rows were compared.  Only the columns
    a cell returns are compared (a column the table adds when it is assembled is not in
    a cell); a recomputed row with no committed row, or a cell without a column the
    table's rows are told apart by, is refused.

    Examples
    --------
    >>> exp = Experiment("t", load=pd.DataFrame, tolerance=0.01, keys=("d",))
    >>> table = pd.DataFrame({"d": ["x", "y", "z"], "v": [0.5, 0.25, 0.125]})
    >>> c, rows = compare_sample(table, [pd.DataFrame({"d": ["y"], "v": [0.255]})], exp)
    >>> rows, round(c.largest, 6), c.within
    (1, 0.005, True)
    >>> moved, _ = compare_sample(table, [pd.DataFrame({"d": ["w"], "v": [0.0]})], exp)
    >>> moved.within, moved.problem[:46]
    (False, "t: the recomputed row {'d': 'w'} has no commit")
    """
    keys = experiment.key_columns(committed)
    if not frames:
        return Comparison.refused(experiment.name, 0, "no cell was recomputed"), 0
    try:
        wanted = pd.concat([f[keys] for f in frames], ignore_index=True)
    except KeyError as err:
        problem = f"a recomputed cell lacks a key column ({err})"
        return Comparison.refused(experiment.name, 0, problem), 0
    index = {k: i for i, k in enumerate(committed[keys].itertuples(index=False, name=None))}
    rows = []
    for key in wanted.itertuples(index=False, name=None):
        if key not in index:
            problem = (
                f"{experiment.name}: the recomputed row {dict(zip(keys, key))} has no "
                "committed row with the same keys (a discrete outcome changed)"
            )
            return Comparison.refused(experiment.name, len(wanted), problem), 0
        rows.append(index[key])
    mine = committed.iloc[rows].reset_index(drop=True)
    try:
        recomputed = splice(mine, frames, experiment)
    except ValueError as err:
        return Comparison.refused(experiment.name, len(mine), str(err)), 0
    return compare_tables(mine, recomputed, experiment), len(mine)


@contextlib.contextmanager
def _folder(cache_dir: str | Path | None) -> Iterator[Path]:
    if cache_dir is not None:
        yield Path(cache_dir)
        return
    with tempfile.TemporaryDirectory(prefix="mlcrepro-quick-") as tmp:
        yield Path(tmp)


def _sampled(experiment: Experiment, spec: Spec, cell: Cell) -> bool:
    return experiment.quick is not None and Cells(experiment.name, experiment.quick).selects(cell)


def quick(
    experiments: Sequence[Experiment],
    *,
    cache_dir: str | Path | None = None,
    scheduler: str | None = None,
    n_workers: int | None = None,
) -> list[QuickVerdict]:
    """Recompute each table's declared sample of cells and judge it against the committed rows.

    Parameters
    ----------
    experiments : sequence of Experiment
        Each table with cells of its own declares its sample (``quick``); one that does
        not is refused before any work.
    cache_dir : path, optional
        Where the sampled cells are computed (default: a temporary folder, removed at
        the end: every sampled cell is computed afresh).
    scheduler, n_workers
        The dask.distributed cluster, as for :func:`mlcrepro.reproduce.reproduce`.

    Returns
    -------
    list of QuickVerdict, in the order given.
    """
    specs = {e.name: list(e.specs()) for e in experiments}
    undeclared = [e.name for e in experiments if specs[e.name] and e.quick is None]
    if undeclared:
        raise ValueError(f"the tables {undeclared} declare no sample for the quick tier (quick=)")
    with _folder(cache_dir) as cache:
        chosen = {
            (e.name, cell_path(s, c, cache))
            for e in experiments
            for s in specs[e.name]
            for c in cells(s)
            if _sampled(e, s, c)
        }
        paths = {p for _, p in chosen}
        everything = [s for e in experiments for s in specs[e.name]]

        def select(spec: Spec, cell: Cell) -> bool:
            return cell_path(spec, cell, cache) in paths

        with environment(MLCBOOK_PROGRESS="1"):
            compute_cells(
                everything,
                cache,
                desc="quick: sampled cells",
                select=select,
                workers=lambda left: cluster(scheduler, local_workers(n_workers, left)),
            )
        return [_verdict(e, specs[e.name], cache) for e in experiments]


def _verdict(e: Experiment, specs: Sequence[Spec], cache: Path) -> QuickVerdict:
    if not specs:
        note = "no cells of its own: assembled from other tables or runs"
        return QuickVerdict(e.name, "", 0, 0, 0.0, 0.0, None, note)
    where = dict(e.quick or {})
    picked = [(s, c) for s in specs for c in cells(s) if _sampled(e, s, c)]
    frames = []
    for s, c in picked:
        frame = load(cell_path(s, c, cache))
        if not isinstance(frame, pd.DataFrame):
            raise RuntimeError(f"{e.name}: the sampled cell {c} gave no table in {cache}")
        frames.append(frame)

    def mine(spec: Spec, cell: Cell) -> bool:
        return _sampled(e, spec, cell)

    cpu = cpu_seconds(cache, specs, mine)
    wall = wall_seconds(cache, specs, mine)
    committed = committed_table(e.name)
    comparison, rows = compare_sample(committed, frames, e)
    returned = set.intersection(*(set(f.columns) for f in frames)) if frames else set()
    skipped = [c for c in committed.columns if c not in returned and c not in e.volatile]
    return QuickVerdict(
        e.name,
        sample_text(where),
        len(picked),
        rows,
        float(sum(cpu.values())),
        float(sum(wall.values())),
        comparison,
        not_compared=tuple(map(str, skipped)),
    )


def quick_markdown(verdicts: Sequence[QuickVerdict], *, wall_seconds: float, machine: str) -> str:
    """The quick tier's report: per table its sample, cells, rows compared, their CPU
    and wall seconds, the largest difference from the committed rows and the verdict;
    then each table outside its tolerance with its judgement
    (:func:`mlcrepro.rebuild_findings.judgement`)."""
    sampled = [v for v in verdicts if v.comparison is not None]
    within = sum(v.comparison.within for v in sampled if v.comparison is not None)
    lines = [
        "# The quick tier: a sample of every table's cells",
        "",
        f"Machine: {machine}. Wall time: {wall_seconds / 60:.1f} min. CPU time of the "
        f"sampled cells: {sum(v.cpu_seconds for v in verdicts) / 60:.1f} min. "
        f"{within} of {len(sampled)} sampled tables within tolerance.",
        "",
        "| table | sample | cells | rows compared | CPU s | wall s "
        "| largest abs. difference | column | tolerance | verdict |",
        "|---|---|---:|---:|---:|---:|---:|---|---:|---|",
    ]
    for v in verdicts:
        c = v.comparison
        if c is None:
            lines.append(f"| {v.name} | - | 0 | 0 | - | - | - | - | - | {v.note} |")
            continue
        verdict = "within tolerance" if c.within else f"**outside** ({c.problem or 'above'})"
        if v.not_compared:
            verdict += f"; not in the cells, not compared: {', '.join(v.not_compared)}"
        lines.append(
            f"| {v.name} | {v.sample} | {v.cells} | {v.rows} | {v.cpu_seconds:,.1f} "
            f"| {v.wall_seconds:,.1f} | {c.largest:.3g} | {c.column} | {c.bound:g} | {verdict} |"
        )
    outside = [v.name for v in sampled if v.comparison is not None and not v.comparison.within]
    lines += outside_section(outside)
    return "\n".join(lines) + "\n"
