"""The report of a rebuild (``data/results/REPRODUCE.md``): its tables, and its ledgers.

:func:`ledger_changes` rebuilds every paper's ledgers from the recomputed tables and
compares them with the saved ones row by row (:func:`row_changes`);
:func:`report_markdown` writes what :func:`mlcrepro.reproduce.reproduce` found per table
and those changes, each difference beside its judgement
(:func:`mlcrepro.rebuild_findings.judgement`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from mlcrepro.ledger import Ledger, load_ledgers
from mlcrepro.papers import PAPERS, build_ledgers
from mlcrepro.rebuild_findings import NOT_JUDGED, judgement, outside_section
from mlcrepro.reproduce import TableReport, environment
from mlcrepro.sittings import sittings_text

__all__ = [
    "LedgerChange",
    "changed_claims",
    "RowChange",
    "ledger_change",
    "ledger_changes",
    "report_markdown",
    "row_changes",
]


@dataclass(frozen=True)
class RowChange:
    """One field of one ledger row, committed and rebuilt (``field``: ``status``,
    ``ours``, ``cause`` or ``note``)."""

    claim_ids: str
    field: str
    committed: str
    rebuilt: str


@dataclass(frozen=True)
class LedgerChange:
    """A ledger rebuilt from recomputed tables, beside the committed one: its row count,
    how many statuses, values and causes (kind or text) changed, and every change."""

    ledger: str
    rows: int
    statuses_changed: int
    values_changed: int
    causes_changed: int
    changes: tuple[RowChange, ...] = ()
    problem: str = ""


#: the fields of a ledger row the rebuild compares, in the order a row's changes are listed
_COMPARED = ("status", "ours", "cause", "note")


def _text(value: Any) -> str:
    """A ledger field as text: a missing value (NaN, None, pd.NA) is the empty string."""
    return "" if value is None or (not isinstance(value, str) and pd.isna(value)) else str(value)


def row_changes(committed: pd.DataFrame, rebuilt: pd.DataFrame) -> tuple[RowChange, ...]:
    """Every compared field (status, ours, cause and note) that differs between two
    ledgers with the same rows in the same order.

    >>> old = pd.DataFrame({"claim_ids": ["A1", "A2"], "status": ["agrees", "differs"],
    ...                     "ours": ["0.5", "0.7"], "cause": ["", "unknown"],
    ...                     "note": ["", "x"]})
    >>> new = old.assign(status=["agrees", "agrees"], cause=["", None], note=["", ""])
    >>> for c in row_changes(old, new):
    ...     print(c.claim_ids, c.field, repr(c.committed), repr(c.rebuilt))
    A2 status 'differs' 'agrees'
    A2 cause 'unknown' ''
    A2 note 'x' ''
    """
    out = []
    for i in range(len(rebuilt)):
        for f in _COMPARED:
            a, b = _text(committed[f].iloc[i]), _text(rebuilt[f].iloc[i])
            if a != b:
                out.append(RowChange(str(rebuilt["claim_ids"].iloc[i]), f, a, b))
    return tuple(out)


def ledger_change(name: str, ledger: Ledger, saved: pd.DataFrame) -> LedgerChange:
    """One ledger built afresh (``ledger``, the chapter ``name``) beside its saved rows
    (``saved``: :func:`mlcrepro.ledger.load_ledgers`): the counts and every change."""
    new = ledger.to_frame()
    old = saved[saved["chapter"] == name].reset_index(drop=True)
    if len(new) != len(old) or list(new["claim_ids"]) != list(old["claim_ids"]):
        return LedgerChange(name, len(new), 0, 0, 0, (), "its rows differ")
    changes = row_changes(old, new)
    return LedgerChange(name, len(new), *changed_claims(changes), changes)


def changed_claims(changes: Sequence[RowChange]) -> tuple[int, int, int]:
    """How many claims (rows) of ``changes`` changed their status, their value of ours,
    and their cause (kind or text): each claim counted once per kind.

    >>> changed_claims([RowChange("A1", "status", "x", "y"), RowChange("A1", "note", "", "z"),
    ...                 RowChange("A1", "cause", "", "u")])
    (1, 0, 1)
    """

    def claims(*fields: str) -> int:
        return len({c.claim_ids for c in changes if c.field in fields})

    return claims("status"), claims("ours"), claims("cause", "note")


def ledger_changes(staging: str | Path, ledgers: str | Path | None = None) -> list[LedgerChange]:
    """Every paper's ledgers rebuilt from the tables in ``staging``, beside the saved ones.

    Each paper's evidence is computed from the staged tables (its folder's contract,
    :func:`mlcrepro.papers.build_ledgers`) and each row compared with the saved row in
    the same place (:func:`ledger_change`): every status, value of ours, cause kind and
    cause text that changed (the goal: none, or each judged in
    :mod:`mlcrepro.rebuild_findings`).
    """
    saved = load_ledgers(ledgers)
    with environment(MLCBOOK_RESULTS_DIR=str(staging), MLCBOOK_PROGRESS="0"):
        return [
            ledger_change(name, ledger, saved)
            for paper in PAPERS
            if paper.ledgers
            for name, ledger in build_ledgers(paper.key).items()
        ]


def _cell_text(text: str) -> str:
    """``text`` fit for a cell of a Markdown table (one line, no bare ``|``)."""
    return " ".join(text.split()).replace("|", "\\|") or "(empty)"


def _why(
    change: RowChange,
    follows: Mapping[tuple[str, str], Sequence[str]],
    tables: Mapping[str, TableReport],
) -> str:
    """Why a row changed: its own judgement, else the tables whose rebuild alone makes
    the change (:mod:`mlcrepro.rebuild_attribution`) with their verdicts, else
    :data:`~mlcrepro.rebuild_findings.NOT_JUDGED`."""
    own = judgement("row", change.claim_ids)
    names = follows.get((change.claim_ids, change.field), ())
    if own != NOT_JUDGED or not names:
        return own
    parts = []
    for name in names:
        c = tables[name].comparison if name in tables else None
        verdict = (
            "its table was not rebuilt in this run"
            if c is None
            else f"within its tolerance, largest abs. difference {c.largest:.3g} in {c.column}"
            if c.within
            else "outside its tolerance, judged above"
        )
        parts.append(f"{name} ({verdict})")
    return (
        "follows the rebuilt table "
        + " and, alone as well, ".join(parts)
        + ": the ledger rebuilt with only that table rebuilt makes this change"
    )


def _ledger_lines(
    ledgers: Sequence[LedgerChange],
    follows: Mapping[tuple[str, str], Sequence[str]],
    tables: Mapping[str, TableReport],
) -> list[str]:
    """The report's part on the rebuilt ledgers: counts per ledger, then every change."""
    lines: list[str] = []
    lines += [
        "",
        "## The ledgers rebuilt from these tables",
        "",
        "| ledger | rows | statuses changed | our values changed | causes changed |",
        "|---|---:|---:|---:|---:|",
    ]
    for led in ledgers:
        lines.append(
            f"| {led.ledger} | {led.rows} | "
            + (
                f"{led.problem} | | |"
                if led.problem
                else f"{led.statuses_changed} | {led.values_changed} | {led.causes_changed} |"
            )
        )
    changed = [(led.ledger, c) for led in ledgers for c in led.changes]
    if changed:
        lines += [
            "",
            "Every change, row by row, and why:",
            "",
            "| ledger | row | field | committed | rebuilt | why |",
            "|---|---|---|---|---|---|",
        ]
        for name, c in changed:
            lines.append(
                f"| {name} | {c.claim_ids} | {c.field} | {_cell_text(c.committed)} "
                f"| {_cell_text(c.rebuilt)} | {_why(c, follows, tables)} |"
            )
    return lines


#: the least share of a table's CPU seconds, spent in Weka's JVM server, that gets the
#: table a note: the server stays alive in a worker between cells, and its own threads
#: tick a hundredth of a CPU-s or two during cells that never call it (the kNN tables of
#: the learner study's part: 0.01-0.02 of 7-19 CPU-s); 0.5 % is the least share the
#: note's whole per cent shows
_HELPER_SHARE_NOTED = 0.005


def _helper_lines(reports: Sequence[TableReport]) -> list[str]:
    """A note on each table whose cells ran J48 in Weka's JVM server: how much of its CPU
    time the server spent, and whether some cells leave the server out."""
    lines = [
        f"{r.name}: {r.helper_cpu_seconds:,.1f} of its {r.cpu_seconds:,.1f} CPU-s "
        f"({r.helper_cpu_seconds / r.cpu_seconds:.0%}) were spent in Weka's JVM server, "
        "fitting and applying J48 (Weka's code, not ours)."
        for r in reports
        if r.cpu_seconds > 0 and r.helper_cpu_seconds >= _HELPER_SHARE_NOTED * r.cpu_seconds
    ]
    lines += [
        f"{r.name}: {r.helper_not_logged} of its {r.cells} cells were logged before the CPU "
        "time of Weka's JVM server (a helper process that runs the J48 fits) was counted: "
        "their CPU seconds leave the server out, so the table's CPU seconds, and the total, "
        "are lower bounds; its wall seconds count the waits for the server."
        for r in reports
        if r.helper_not_logged
    ]
    return [""] + lines if lines else []


def _software_lines(reports: Sequence[TableReport]) -> list[str]:
    """A note on each table whose cells run others' software: its CPU seconds by the
    software that did the cells' work (``Experiment.software``)."""
    lines = [
        f"{r.name}, CPU seconds by the software that did the cells' work: "
        + "; ".join(
            f"{name}, {seconds:,.1f} ({seconds / r.cpu_seconds:.0%})"
            for name, seconds in r.cpu_by_software
        )
        + "."
        for r in reports
        if r.cpu_by_software and r.cpu_seconds > 0
    ]
    return [""] + lines if lines else []


def _outside_lines(reports: Sequence[TableReport]) -> list[str]:
    """A note on each table whose numbers come from work outside the runner's cells."""
    outside = [r for r in reports if r.outside]
    if not outside:
        return []
    return [""] + [
        f"{r.name}: its rows come from {r.outside}, outside the cells: "
        f"{r.outside_cpu_seconds:,.1f} CPU-s and {r.outside_wall_seconds:,.1f} s of wall "
        "in those runs' own records (not in the cells' totals)."
        for r in outside
    ]


def report_markdown(
    reports: Sequence[TableReport],
    *,
    wall_seconds: float,
    machine: str,
    ledgers: Sequence[LedgerChange] = (),
    sittings: Sequence[Mapping[str, Any]] = (),
    follows: Mapping[tuple[str, str], Sequence[str]] | None = None,
) -> str:
    """The report of a reproduction as a Markdown table (what ``make reproduce`` commits).

    Per table: its cells, their CPU and wall seconds (summed over the cells, as written
    into the table's provenance; "not measured" where a cell's wall time was not
    recorded), and its comparison with the committed table; each table outside its
    tolerance with its judgement, and each ledger rebuilt from the tables with every row
    that changed and its judgement (:func:`mlcrepro.rebuild_findings.judgement`).  ``sittings``
    (:func:`mlcrepro.sittings.read_sittings`) adds the wall time of every sitting since
    the cache was emptied, for a rebuild that was stopped and resumed.  ``follows``
    (:func:`mlcrepro.rebuild_attribution.attribute`) names, per changed row and field,
    the tables whose rebuild alone makes the change: the reason given for a change that
    has no judgement of its own.

    >>> from mlcrepro.reproduce import Comparison
    >>> c = Comparison("t", 2, 0.0, "v", 0.01, True)
    >>> text = report_markdown(
    ...     [TableReport("t", 2, 3.0, c, 0.1, 4.0), TableReport("u", 1, 1.0, c, 0.1)],
    ...     wall_seconds=3600.0,
    ...     machine="toy",
    ... )
    >>> for line in text.splitlines()[-2:]:
    ...     print(line)
    | t | 2 | 3.0 | 4.0 | 0 | v | 0.01 | within tolerance |
    | u | 1 | 1.0 | not measured | 0 | v | 0.01 | within tolerance |
    >>> short = TableReport("j", 3, 2.0, c, 0.1, 5.0, helper_not_logged=2)
    >>> text = report_markdown([short], wall_seconds=3600.0, machine="toy")
    >>> "CPU time of the cells: at least 0.00 h" in text
    True
    >>> print(text.splitlines()[-1][:62])
    j: 2 of its 3 cells were logged before the CPU time of Weka's
    >>> weka = TableReport("w", 3, 20.0, c, 0.1, 25.0, helper_cpu_seconds=15.0)
    >>> text = report_markdown([weka], wall_seconds=3600.0, machine="toy")
    >>> "CPU time of the cells: 0.01 h, of which 0.00 h in Weka's JVM server (J48)." in text
    True
    >>> print(text.splitlines()[-1][:63])
    w: 15.0 of its 20.0 CPU-s (75%) were spent in Weka's JVM server
    >>> idle = TableReport("k", 3, 7.5, c, 0.1, 8.0, helper_cpu_seconds=0.01)
    >>> "k: " in report_markdown([idle], wall_seconds=3600.0, machine="toy")
    False
    >>> study = TableReport("s", 3, 8.0, c, 0.1, 9.0,
    ...                     cpu_by_software=(("J48", 6.0), ("BOOMER", 2.0)))
    >>> text = report_markdown([study], wall_seconds=3600.0, machine="toy")
    >>> print(text.splitlines()[-1])
    s, CPU seconds by the software that did the cells' work: J48, 6.0 (75%); BOOMER, 2.0 (25%).
    >>> octave = TableReport("o", 0, 0.0, c, 0.1, 0.0, outside="2 runs",
    ...                      outside_cpu_seconds=7200.0)
    >>> text = report_markdown([octave], wall_seconds=3600.0, machine="toy")
    >>> "CPU time outside the cells: 2.00 h." in text
    True
    >>> print(text.splitlines()[-1][:58])
    o: its rows come from 2 runs, outside the cells: 7,200.0 C
    """
    short = [r for r in reports if r.helper_not_logged]
    lines = [
        "# Reproducing the committed result tables",
        "",
        f"Machine: {machine}. Wall time: {wall_seconds / 3600:.2f} h. "
        f"CPU time of the cells: {'at least ' if short else ''}"
        f"{sum(r.cpu_seconds for r in reports) / 3600:.2f} h"
        + (
            f", of which {helper / 3600:.2f} h in Weka's JVM server (J48)."
            if (helper := sum(r.helper_cpu_seconds for r in reports))
            else "."
        )
        + (
            f" CPU time outside the cells: {outside / 3600:.2f} h."
            if (outside := sum(r.outside_cpu_seconds for r in reports))
            else ""
        )
        + (f" {sittings_text(sittings)}" if sittings else ""),
        "",
        "| table | cells | CPU s | wall s | largest abs. difference | column | tolerance "
        "| verdict |",
        "|---|---:|---:|---:|---:|---|---:|---|",
    ]
    for r in reports:
        c = r.comparison
        verdict = (
            "new: nothing committed to compare with"
            if c.new
            else "within tolerance"
            if c.within
            else f"**outside** ({c.problem or 'above'})"
        )
        wall = "not measured" if r.cell_wall_seconds is None else f"{r.cell_wall_seconds:,.1f}"
        lines.append(
            f"| {r.name} | {r.cells} | {r.cpu_seconds:,.1f} | {wall} "
            f"| {c.largest:.3g} | {c.column} | {c.bound:g} | {verdict} |"
        )
    lines += _helper_lines(reports)
    lines += _software_lines(reports)
    lines += _outside_lines(reports)
    lines += outside_section(
        [r.name for r in reports if not r.comparison.new and not r.comparison.within]
    )
    if ledgers:
        lines += _ledger_lines(ledgers, follows or {}, {r.name: r for r in reports})
    return "\n".join(lines) + "\n"
