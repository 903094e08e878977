"""The sittings of a reproduction: each ``mlcrepro reproduce`` run that worked on one cache.

A cold rebuild of every table takes hours, and a run may be stopped and resumed (the
cells already computed stay in the cache).  Each run appends a line to the cache
folder's :data:`SITTINGS` log when it starts (when, the tables it was asked for) and
another when it ends (with its wall seconds), so that the report can give the wall
time of the whole rebuild since the cache was last emptied (``--fresh``), not only of
the last sitting, and say how many sittings were stopped before their end (their wall
time is not known; their finished cells and those cells' seconds are kept).
"""

from __future__ import annotations

import json
import math
import textwrap
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

__all__ = ["SITTINGS", "covered_seconds", "read_sittings", "record_sitting", "sittings_text"]

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


def covered_seconds(ended: Sequence[Mapping[str, Any]]) -> float:
    """The seconds of the day the ended sittings cover: two sittings that overlap
    (run side by side on one cache) count their common time once.

    >>> covered_seconds([{"started": "2026-12-02T09:00:00", "wall_seconds": 3600.0},
    ...           {"started": "2026-12-02T09:30:00", "wall_seconds": 3600.0},
    ...           {"started": "2026-12-02T12:00:00", "wall_seconds": 60.0}])
    5460.0
    """
    spans = sorted(
        (start, start + float(s["wall_seconds"]))
        for s in ended
        for start in [datetime.fromisoformat(str(s["started"])).timestamp()]
    )
    total, reach = 0.0, -math.inf
    for a, b in spans:
        total += max(0.0, b - max(a, reach))
        reach = max(reach, b)
    return total


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
        f"Wall time of the whole rebuild: {covered_seconds(ended) / 3600:.2f} h in {n} sitting"
        f"{'s' if n != 1 else ''} since the cache was emptied "
        f"(the first on {str(sittings[0]['started'])[:10]})"
    )
    if stopped:
        them = "it has" if n == 1 else f"{stopped} of them {'has' if stopped == 1 else 'have'}"
        text += (
            f"; {them} no end logged (killed, or still running), and "
            f"{'its' if stopped == 1 else 'their'} wall time is not counted"
        )
    interrupted = sum(1 for s in ended if s.get("stopped"))
    if interrupted:
        text += (
            f"; {interrupted} {'was' if interrupted == 1 else 'were'} interrupted (a signal) "
            "and counted up to the interruption"
        )
    return textwrap.fill(text + ".", 88)
