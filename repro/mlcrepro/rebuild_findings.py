"""Why a rebuilt table or ledger row differs from the committed one, as judged.

``mlcrepro reproduce`` rebuilds every committed table from its cells and every ledger
from the rebuilt tables, and its report (``data/results/REPRODUCE.md``) lists each
table outside its tolerance and each ledger row whose status, value or cause changed.
Each such difference is judged once, here, with the evidence that judges it (a command
that shows it); the report prints the judgement beside the difference, and marks one
that has none "**not judged**".  A tolerance is never widened to hide a difference.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["ROWS", "TABLES", "judgement"]

#: table -> why its rebuilt rows lie outside its tolerance of the committed ones
TABLES: Mapping[str, str] = {}

#: claim id -> why its ledger row changes when rebuilt from the recomputed tables
ROWS: Mapping[str, str] = {}

#: what the report prints for a difference nobody has judged
NOT_JUDGED = "**not judged**"


def judgement(kind: str, key: str) -> str:
    """The judgement of a table (``kind="table"``) or a ledger row (``"row"``) that
    differs, or :data:`NOT_JUDGED`.

    >>> judgement("table", "no_such_table")
    '**not judged**'
    >>> judgement("cell", "x")
    Traceback (most recent call last):
    ...
    ValueError: kind must be 'table' or 'row', got 'cell'
    """
    if kind not in ("table", "row"):
        raise ValueError(f"kind must be 'table' or 'row', got {kind!r}")
    return (TABLES if kind == "table" else ROWS).get(key, NOT_JUDGED)
