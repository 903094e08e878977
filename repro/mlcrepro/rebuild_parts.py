"""A cold rebuild in parts: each part's run recorded, the report assembled from them.

A cold rebuild of every committed table takes longer than a machine may live (about
five hours of wall on two cores), and the cells' cache does not outlive its machine.
So the rebuild may go paper by paper: each part recomputes one paper's tables from an
emptied cache (``mlcrepro reproduce --paper KEY --fresh --write --record ...``), replaces
them, rebuilds every ledger from them, and writes its **record**: a JSON file in
:data:`RECORDS` with, per table, its cells, CPU and wall seconds and its comparison with
the table it replaced, every ledger row that changed and the tables whose rebuild alone
makes each change, the sittings and the machine.  :func:`assembled_markdown` writes the
report of the whole rebuild, ``data/results/REPRODUCE.md``, from every record, and names
each committed table that no record covers yet.  A run of every table (``make reproduce
COLD=1``) is one part, ``all``.

Each part's ledger changes are counted against the ledgers committed when it ran,
which include the earlier parts' changes: a row changed by two parts shows both steps.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from mlcbook.files import atomic_write_text
from mlcrepro.rebuild_report import LedgerChange, RowChange, changed_claims, report_markdown
from mlcrepro.reproduce import Comparison, TableReport
from mlcrepro.sittings import counted_seconds, covered_seconds, unended_text

__all__ = [
    "RECORDS",
    "assembled_markdown",
    "read_records",
    "run_record",
    "superseded",
    "write_record",
]

#: the records of the rebuild's parts, one ``PART.json`` each, beside the tables
RECORDS = "rebuild"


def run_record(
    part: str,
    reports: Sequence[TableReport],
    *,
    machine: str,
    ledgers: Sequence[LedgerChange] = (),
    follows: Mapping[tuple[str, str], Sequence[str]] | None = None,
    sittings: Sequence[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """The record of one part's run, ready for JSON: what :func:`assembled_markdown` reads.

    ``reports`` come from :func:`mlcrepro.reproduce.reproduce`, ``ledgers`` from
    :func:`mlcrepro.rebuild_report.ledger_changes`, ``follows`` from
    :func:`mlcrepro.rebuild_attribution.attribute`, ``sittings`` from
    :func:`mlcrepro.sittings.read_sittings`.

    >>> c = Comparison("t", 2, 0.0, "v", 0.01, True)
    >>> rec = run_record("p", [TableReport("t", 2, 3.0, c, 0.1, 4.0)], machine="toy")
    >>> rec["part"], [t["name"] for t in rec["tables"]], rec["tables"][0]["comparison"]["bound"]
    ('p', ['t'], 0.01)
    """
    if not part or "/" in part or part.startswith("."):
        raise ValueError(f"part must be a plain name such as 'park_read2018', got {part!r}")
    return {
        "part": part,
        "machine": machine,
        "sittings": [dict(s) for s in sittings],
        "tables": [_jsonable(dataclasses.asdict(r)) for r in reports],
        "ledgers": [_jsonable(dataclasses.asdict(led)) for led in ledgers],
        "follows": [
            {"claim_ids": claim, "field": fld, "tables": list(names)}
            for (claim, fld), names in sorted((follows or {}).items())
        ],
    }


def _jsonable(value: Any) -> Any:
    """``value`` with tuples as lists and an infinite float as the string ``"inf"``."""
    if isinstance(value, Mapping):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, float) and value == float("inf"):
        return "inf"
    return value


def superseded(folder: str | Path, tables: Sequence[str]) -> list[Path]:
    """The records in ``folder`` that cover one of ``tables``: a new part's run replaces
    them (its tables were rebuilt again)."""
    return [
        path
        for path, rec in _records(folder)
        if set(tables) & {str(t["name"]) for t in rec["tables"]}
    ]


def write_record(folder: str | Path, record: Mapping[str, Any]) -> Path:
    """Write ``record`` to ``folder/PART.json`` atomically (a temporary file renamed), after
    removing the records it supersedes (:func:`superseded`); returns its path."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for old in superseded(folder, [str(t["name"]) for t in record["tables"]]):
        old.unlink()
    path = folder / f"{record['part']}.json"
    atomic_write_text(path, json.dumps(record, indent=1, sort_keys=True) + "\n")
    return path


def _records(folder: str | Path) -> list[tuple[Path, dict[str, Any]]]:
    return [
        (path, json.loads(path.read_text(encoding="utf-8")))
        for path in sorted(Path(folder).glob("*.json"))
    ]


def read_records(folder: str | Path) -> list[dict[str, Any]]:
    """The parts' records in ``folder``, in the order their first sittings started; a
    table covered by two records is refused (one part's run supersedes the other's)."""
    records = [rec for _, rec in _records(folder)]
    records.sort(key=lambda r: min((str(s["started"]) for s in r["sittings"]), default=""))
    seen: dict[str, str] = {}
    for rec in records:
        for t in rec["tables"]:
            if t["name"] in seen:
                raise ValueError(
                    f"table {t['name']!r} is in the records of two parts, "
                    f"{seen[t['name']]!r} and {rec['part']!r}: rebuild one of them again"
                )
            seen[t["name"]] = rec["part"]
    return records


def _table_report(t: Mapping[str, Any]) -> TableReport:
    c = dict(t["comparison"])
    c["largest"] = float(c["largest"])
    c["volatile"] = tuple(c.get("volatile", ()))
    software = tuple((str(n), float(v)) for n, v in t.get("cpu_by_software", ()))
    return TableReport(**{**t, "comparison": Comparison(**c), "cpu_by_software": software})


def _ledger_change(led: Mapping[str, Any]) -> LedgerChange:
    return LedgerChange(**{**led, "changes": tuple(RowChange(**c) for c in led["changes"])})


def _merged(ledgers: Sequence[LedgerChange]) -> list[LedgerChange]:
    """One change per ledger from the parts' (their rows' changes one after another,
    each count recounted over the claims it covers)."""
    by_name: dict[str, list[LedgerChange]] = {}
    for led in ledgers:
        by_name.setdefault(led.ledger, []).append(led)
    out = []
    for name, parts in by_name.items():
        changes = tuple(c for led in parts for c in led.changes)
        problem = "; ".join(led.problem for led in parts if led.problem)
        out.append(LedgerChange(name, parts[-1].rows, *changed_claims(changes), changes, problem))
    return out


def _part_line(rec: Mapping[str, Any]) -> str:
    sittings = rec["sittings"]
    ended = [s for s in sittings if s["wall_seconds"] is not None]
    n, tables = len(sittings), len(rec["tables"])
    killed, interrupted = n - len(ended), sum(1 for s in ended if s.get("stopped"))
    first = str(sittings[0]["started"])[:10] if sittings else "an unknown day"
    notes = [
        *(
            [
                f"{killed} with no end logged (killed, or still running when the part was "
                f"recorded): {unended_text(sittings)}"
            ]
            if killed
            else []
        ),
        *([f"{interrupted} interrupted, counted up to the interruption"] if interrupted else []),
    ]
    return (
        f"- {rec['part']}: {tables} table{'s' if tables != 1 else ''}, from a cache emptied "
        f"on {first}, {covered_seconds(sittings) / 3600:.2f} h of wall in {n} "
        f"sitting{'s' if n != 1 else ''}" + (f" ({'; '.join(notes)})" if notes else "") + "."
    )


def _reach(sitting: Mapping[str, Any]) -> float:
    """A sitting's counted seconds (:func:`~mlcrepro.sittings.counted_seconds`), -1 for
    none: which of two records' copies of a shared sitting says more."""
    seconds = counted_seconds(sitting)
    return -1.0 if seconds is None else seconds


def assembled_markdown(records: Sequence[Mapping[str, Any]], committed: Sequence[str]) -> str:
    """The report of the whole rebuild from its parts' ``records`` (:func:`read_records`):
    every table the parts rebuilt, every ledger change, the parts with their wall time,
    and each of the ``committed`` tables that no part has rebuilt yet.

    >>> c = Comparison("t", 2, 0.0, "v", 0.01, True)
    >>> rec = run_record("p", [TableReport("t", 2, 3.0, c, 0.1, 4.0)], machine="toy",
    ...                  sittings=[{"started": "2026-12-02T09:00:00", "wall_seconds": 7200.0}])
    >>> text = assembled_markdown([rec], ["t", "u"])
    >>> print(text.splitlines()[2])
    Machine: toy. Wall time: 2.00 h. CPU time of the cells: 0.00 h.
    >>> print(text.splitlines()[-1])
    - u
    """
    reports = [_table_report(t) for rec in records for t in rec["tables"]]
    follows: dict[tuple[str, str], list[str]] = {}
    for rec in records:
        for f in rec["follows"]:
            follows.setdefault((f["claim_ids"], f["field"]), []).extend(f["tables"])
    machines = list(dict.fromkeys(str(rec["machine"]) for rec in records))
    # parts rebuilt from one cache share its sittings: each sitting counts once, with its
    # end where a later part's record has it (it was still running when an earlier one
    # was), else with the most it saved in any record
    sittings: dict[str, Mapping[str, Any]] = {}
    for s in (s for rec in records for s in rec["sittings"]):
        seen = sittings.get(str(s["started"]))
        if seen is None or (seen["wall_seconds"] is None and _reach(s) > _reach(seen)):
            sittings[str(s["started"])] = s
    wall = covered_seconds(list(sittings.values()))
    text = report_markdown(
        reports,
        wall_seconds=wall,
        machine="; ".join(machines) or "none yet",
        ledgers=_merged([_ledger_change(led) for rec in records for led in rec["ledgers"]]),
        follows=follows,
    )
    lines = text.rstrip("\n").split("\n")
    parts = [
        "",
        f"Rebuilt in {len(records)} part{'s' if len(records) != 1 else ''}, each from an "
        "emptied cache of cells; the wall time is that of their sittings, each counted "
        "once (parts rebuilt from one cache share its sittings).  Machine of each part: "
        + "; ".join(f"{rec['part']}, {rec['machine']}" for rec in records)
        + ".",
        "",
        *(_part_line(rec) for rec in records),
    ]
    lines[3:3] = parts
    done = {r.name for r in reports}
    missing = [name for name in committed if name not in done]
    if missing:
        lines += [
            "",
            "## Tables not yet rebuilt from an emptied cache",
            "",
            *(f"- {name}" for name in missing),
        ]
    return "\n".join(lines) + "\n"
