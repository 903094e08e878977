"""The sittings of a reproduction: each ``mlcrepro reproduce`` run that worked on one cache.

A cold rebuild of every table takes hours, and a run may be stopped and resumed (the
cells already computed stay in the cache).  Each run appends a line to the cache
folder's :data:`SITTINGS` log when it starts (when, the tables it was asked for) and
another when it ends (with its wall seconds), so that the report can give the wall
time of the whole rebuild since the cache was last emptied (``--fresh``), not only of
the last sitting, and say how many sittings were stopped before their end (their end
is not known; their finished cells and those cells' seconds are kept).  A sitting with
no end logged is counted up to the last cell it saved (:func:`with_last_saved`: the
latest cell file of its tables written before a later sitting of those tables
started), a lower bound of its wall time.
"""

from __future__ import annotations

import json
import math
import textwrap
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

__all__ = [
    "SITTINGS",
    "counted_seconds",
    "covered_seconds",
    "read_sittings",
    "record_sitting",
    "sittings_text",
    "unended_text",
    "with_last_saved",
]

#: the log of sittings, one JSON object a line, in the reproduction's cache folder
SITTINGS = "sittings.jsonl"


def record_sitting(
    cache: str | Path,
    *,
    started: str,
    tables: Sequence[str],
    wall_seconds: float | None = None,
    fresh: bool = False,
    stopped: bool = False,
) -> None:
    """Log a sitting of ``cache`` (the folder is created if missing): its start
    (``wall_seconds=None``) or its end; ``fresh``: the sitting emptied the cache first;
    ``stopped``: it ended by a signal or an interrupt, its wall time up to then.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     record_sitting(d, started="2026-12-02T09:00:00", tables=["t"])
    ...     record_sitting(d, started="2026-12-02T09:00:00", tables=["t"], wall_seconds=60.0)
    ...     record_sitting(d, started="2026-12-02T10:00:00", tables=["t"])
    ...     [s["wall_seconds"] for s in read_sittings(d)]
    [60.0, None]
    """
    if wall_seconds is not None and (
        isinstance(wall_seconds, bool)
        or not isinstance(wall_seconds, (int, float))
        or wall_seconds < 0
    ):
        raise ValueError(f"wall_seconds must be None or a number >= 0, got {wall_seconds!r}")
    folder = Path(cache)
    folder.mkdir(parents=True, exist_ok=True)
    line = json.dumps(
        {
            "started": str(started),
            "wall_seconds": None if wall_seconds is None else round(float(wall_seconds), 3),
            "tables": list(tables),
            "fresh": bool(fresh),
            "stopped": bool(stopped),
        }
    )
    path = folder / SITTINGS
    # a line cut short by a killed run is closed first, so that this one stays whole
    cut = path.exists() and path.stat().st_size > 0 and not path.read_bytes().endswith(b"\n")
    with open(path, "a", encoding="utf-8") as f:
        f.write(("\n" if cut else "") + line + "\n")


def read_sittings(cache: str | Path) -> list[dict[str, Any]]:
    """The sittings logged in ``cache``, oldest first (none if there is no log); a
    sitting with no end logged (killed, or still running) has ``wall_seconds`` None.  A
    line cut short by a killed run is skipped.
    """
    path = Path(cache) / SITTINGS
    if not path.exists():
        return []
    by_start: dict[str, dict[str, Any]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            continue
        # the end replaces the start; a line written before ``fresh`` was logged says
        # nothing of it (False)
        by_start[entry["started"]] = {"fresh": False, "stopped": False, **entry}
    return list(by_start.values())


def _timestamp(started: object) -> float:
    return datetime.fromisoformat(str(started)).timestamp()


def counted_seconds(sitting: Mapping[str, Any]) -> float | None:
    """The wall seconds a sitting counts: those logged at its end, else (no end logged)
    those up to the last cell it saved (``saved_seconds``, :func:`with_last_saved`),
    else None.

    >>> counted_seconds({"wall_seconds": None, "saved_seconds": 120.0})
    120.0
    """
    if sitting["wall_seconds"] is not None:
        return float(sitting["wall_seconds"])
    saved = sitting.get("saved_seconds")
    return None if saved is None else float(saved)


def covered_seconds(sittings: Sequence[Mapping[str, Any]]) -> float:
    """The seconds of the day the sittings cover (each up to :func:`counted_seconds`; one
    that counts none is left out): two sittings that overlap (run side by side on one
    cache) count their common time once.

    >>> covered_seconds([{"started": "2026-12-02T09:00:00", "wall_seconds": 3600.0},
    ...           {"started": "2026-12-02T09:30:00", "wall_seconds": 3600.0},
    ...           {"started": "2026-12-02T12:00:00", "wall_seconds": 60.0},
    ...           {"started": "2026-12-02T13:00:00", "wall_seconds": None}])
    5460.0
    """
    spans = sorted(
        (start, start + seconds)
        for s in sittings
        if (seconds := counted_seconds(s)) is not None
        for start in [_timestamp(s["started"])]
    )
    total, reach = 0.0, -math.inf
    for a, b in spans:
        total += max(0.0, b - max(a, reach))
        reach = max(reach, b)
    return total


def with_last_saved(
    sittings: Sequence[Mapping[str, Any]],
    cell_files: Callable[[Sequence[str]], Iterable[Path]],
    now: float,
) -> list[dict[str, Any]]:
    """The sittings, each with no end logged given ``saved_seconds``: the seconds from
    its start to the last cell it saved, None if it saved none.

    A cell it saved is a file of ``cell_files(tables)`` (the cached cells of its tables)
    last written after it started and before the next sitting of any of its tables
    started (else before ``now``, a POSIX timestamp): a later sitting's cells are not
    its own.  The figure is a lower bound of the sitting's wall time (what it did after
    its last saved cell is not known).

    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     cell = Path(d) / "cell.npz"
    ...     cell.touch()
    ...     os.utime(cell, (0, _timestamp("2026-12-02T09:30:00+00:00")))
    ...     killed = {"started": "2026-12-02T09:00:00+00:00", "wall_seconds": None,
    ...               "tables": ["t"]}
    ...     (s,) = with_last_saved([killed], lambda tables: [cell], now=cell.stat().st_mtime + 1)
    >>> s["saved_seconds"]
    1800.0
    """
    written: dict[tuple[str, ...], list[float]] = {}  # tables -> their cells' mtimes
    out = []
    for s in sittings:
        s = dict(s)
        if s["wall_seconds"] is None:
            start = _timestamp(s["started"])
            later = [
                _timestamp(t["started"])
                for t in sittings
                if _timestamp(t["started"]) > start and set(t["tables"]) & set(s["tables"])
            ]
            end = min(later, default=now)
            tables = tuple(s["tables"])
            if tables not in written:
                written[tables] = [f.stat().st_mtime for f in cell_files(tables)]
            saved = [m for m in written[tables] if start <= m < end]
            s["saved_seconds"] = round(max(saved) - start, 3) if saved else None
        out.append(s)
    return out


def sittings_text(sittings: Sequence[Mapping[str, Any]]) -> str:
    """One sentence on the sittings: how many, since when, the wall time they cover
    (overlapping sittings count their common time once).

    >>> print(sittings_text([{"started": "2026-12-02T09:00:00", "wall_seconds": 5400.0},
    ...                      {"started": "2026-12-02T11:00:00", "wall_seconds": None},
    ...                      {"started": "2026-12-03T08:00:00", "wall_seconds": 1800.0}]))
    Wall time of the whole rebuild: 2.00 h in 3 sittings since the cache was emptied (the
    first on 2026-12-02); 1 of them has no end logged (killed, or still running), and its
    wall time is not counted.
    >>> print(sittings_text([{"started": "2026-12-02T09:00:00", "wall_seconds": 900.0,
    ...                       "stopped": True}]))
    Wall time of the whole rebuild: 0.25 h in 1 sitting since the cache was emptied (the
    first on 2026-12-02); 1 was interrupted (a signal) and counted up to the interruption.
    """
    if not sittings:
        return ""
    ended = [s for s in sittings if s["wall_seconds"] is not None]
    n, stopped = len(sittings), len(sittings) - len(ended)
    text = (
        f"Wall time of the whole rebuild: {covered_seconds(sittings) / 3600:.2f} h in {n} "
        f"sitting{'s' if n != 1 else ''} since the cache was emptied "
        f"(the first on {str(sittings[0]['started'])[:10]})"
    )
    if stopped:
        them = "it has" if n == 1 else f"{stopped} of them {'has' if stopped == 1 else 'have'}"
        text += f"; {them} no end logged (killed, or still running), and {unended_text(sittings)}"
    interrupted = sum(1 for s in ended if s.get("stopped"))
    if interrupted:
        text += (
            f"; {interrupted} {'was' if interrupted == 1 else 'were'} interrupted (a signal) "
            "and counted up to the interruption"
        )
    return textwrap.fill(text + ".", 88)


def unended_text(sittings: Sequence[Mapping[str, Any]]) -> str:
    """How the sittings with no end logged are counted: up to the last cell each saved
    (:func:`with_last_saved`), or not at all.

    >>> unended_text([{"wall_seconds": None, "saved_seconds": 60.0},
    ...               {"wall_seconds": None}])
    '1 is counted up to the last cell it saved (a lower bound of its wall time), 1 not at all'
    """
    unended = [s for s in sittings if s["wall_seconds"] is None]
    saved = sum(1 for s in unended if s.get("saved_seconds") is not None)
    if not saved:
        return f"{'its' if len(unended) == 1 else 'their'} wall time is not counted"
    if saved == len(unended):
        one = len(unended) == 1
        return (
            f"{'it is' if one else 'they are'} counted up to the last cell "
            f"{'it' if one else 'each'} saved (a lower bound of {'its' if one else 'their'} "
            "wall time)"
        )
    return (
        f"{saved} {'is' if saved == 1 else 'are'} counted up to the last cell "
        f"{'it' if saved == 1 else 'each'} saved (a lower bound of "
        f"{'its' if saved == 1 else 'their'} wall time), {len(unended) - saved} not at all"
    )
