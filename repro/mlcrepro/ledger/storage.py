"""The ledger's storage: the committed CSV of each chapter's ledger, read and written.

A ledger is saved as one CSV (``book/_ledgers/<chapter>.csv``, the folder passed in),
written atomically (:func:`write_ledger`: a temporary file renamed into place, so a
killed save leaves nothing half-written).  Reading refuses a malformed file, naming its
row and column (:func:`check_columns`, :func:`check_rows`).  :func:`ledger_differences`
compares a ledger's frame with a saved file: statuses and texts exactly, numbers to a
relative 1e-9 (their last bits may differ between CPUs).
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from mlcbook.files import atomic_write, read_csv_exact, remove_stale_temporaries
from mlcbook.validation import check_name
from mlcrepro._paths import project_root
from mlcrepro.ledger.rules import (
    CAUSE_KINDS,
    KINDS,
    SPREAD_OF,
    STATUSES,
    Cause,
    Entry,
    check_claim_ids,
)

__all__ = [
    "NUMERIC_COLUMNS",
    "SAVED_COLUMNS",
    "ROW_COLUMNS",
    "FILE_COLUMNS",
    "committed_folder",
    "entries_frame",
    "entries_from_frame",
    "file_frame",
    "write_ledger",
    "read_ledger",
    "ledger_differences",
    "check_columns",
    "check_rows",
    "load_ledgers",
]

#: the numeric columns of a saved ledger (empty where a row has no such number)
NUMERIC_COLUMNS = ("tol", "spread", "paper_value", "ours_value", "hits", "trials")
#: the columns of a ledger's frame (:func:`entries_frame`), in order
SAVED_COLUMNS = (
    "claim_ids",
    "claim",
    "source",
    "paper",
    "ours",
    "status",
    "kind",
    "cause",
    "cause_ref",
    "note",
    *NUMERIC_COLUMNS,
    "holds",
    "spread_of",
)
#: the columns a row of a ledger frame needs (:func:`entries_from_frame`)
ROW_COLUMNS = ("claim", "source", "paper", "ours", "status", "kind")
#: the columns of a saved ledger file (``claim_ids`` and ``spread_of`` are left out
#: when no row has one)
FILE_COLUMNS = (
    *(c for c in SAVED_COLUMNS if c not in ("claim_ids", "spread_of")),
    "chapter",
    "paper_ref",
)


def committed_folder() -> Path:
    """The folder of the committed ledgers, ``book/_ledgers`` of the project."""
    return project_root() / "book" / "_ledgers"


def _missing(x: Any) -> bool:
    """An empty cell: None, NaN, pandas' NA or the empty string."""
    if isinstance(x, str):
        return x == ""
    return x is None or x is pd.NA or (isinstance(x, (float, np.floating)) and math.isnan(x))


def _text(x: Any) -> str:
    """A cell of a saved table as text: empty for a missing value (None, NaN, NA)."""
    return "" if _missing(x) else str(x)


def entries_frame(entries: Sequence[Entry]) -> pd.DataFrame:
    """The rows as a table, one row per entry, in the columns :data:`SAVED_COLUMNS`."""
    rows = [
        {
            "claim_ids": " ".join(e.claim_ids),
            "claim": e.claim,
            "source": e.source,
            "paper": e.paper,
            "ours": e.ours,
            "status": e.status,
            "kind": e.kind,
            "cause": e.cause.kind if e.cause else "",
            "cause_ref": e.cause.ref if e.cause else "",
            "note": e.cause.text if e.cause else e.note,
            "tol": e.tol,
            "spread": e.spread,
            "paper_value": e.paper_value,
            "ours_value": e.ours_value,
            "hits": e.hits,
            "trials": e.trials,
            "holds": "" if e.holds is None else str(bool(e.holds)),
            "spread_of": e.spread_of if e.kind == "spread" else "",
        }
        for e in entries
    ]
    frame = pd.DataFrame(rows, columns=list(SAVED_COLUMNS))
    # every column its own dtype whatever the entries hold: a numeric column whose
    # entries are all None would otherwise be 'object', and concatenating ledgers
    # would then infer dtypes from empty columns (deprecated in pandas 2.x)
    for col in ("tol", "spread", "paper_value", "ours_value"):
        frame[col] = frame[col].astype("float64")
    for col in ("hits", "trials"):
        frame[col] = frame[col].astype("Int64")
    return frame


def entries_from_frame(frame: pd.DataFrame) -> list[Entry]:
    """The rows of a ledger frame (:func:`entries_frame`, or a saved file read back).

    Raises
    ------
    ValueError
        A column the rows need is missing, or a cell is malformed (a status or kind
        that does not exist, a claim that is not text, a number that is not one): the
        message names the row and the column.  The statuses are not derived again here
        (:func:`mlcrepro.ledger.rules.row_problems` does that).
    """
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"frame must be a pandas DataFrame, got {type(frame).__name__}")
    check_columns(frame, ROW_COLUMNS, "frame")
    check_rows(frame, "frame")

    def num(x: Any) -> float | None:
        return None if _missing(x) else float(x)

    entries = []
    for row in frame.to_dict("records"):
        cause_kind = _text(row.get("cause"))
        cause = (
            Cause(cause_kind, str(row.get("note", "")), str(row.get("cause_ref") or ""))
            if cause_kind
            else None
        )
        holds = _text(row.get("holds"))
        hits, trials = num(row.get("hits")), num(row.get("trials"))
        entries.append(
            Entry(
                claim=str(row["claim"]),
                source=str(row["source"]),
                paper=str(row["paper"]),
                ours=str(row["ours"]),
                status=str(row["status"]),
                kind=str(row.get("kind") or ""),
                cause=cause,
                note="" if cause else _text(row.get("note")),
                tol=num(row.get("tol")),
                spread=num(row.get("spread")),
                paper_value=num(row.get("paper_value")),
                ours_value=num(row.get("ours_value")),
                holds=None if holds == "" else holds == "True",
                hits=None if hits is None else int(hits),
                trials=None if trials is None else int(trials),
                claim_ids=check_claim_ids(_text(row.get("claim_ids"))),
                spread_of=_text(row.get("spread_of")) or "paper",
            )
        )
    return entries


def file_frame(entries: Sequence[Entry], chapter: str, paper: str) -> pd.DataFrame:
    """The table a ledger's file holds: its rows, its ``chapter`` and ``paper_ref``.

    ``claim_ids`` is left out when no row names a claim id, ``spread_of`` when every
    spread is the paper's.
    """
    frame = entries_frame(entries).assign(chapter=chapter, paper_ref=paper)
    if (frame["claim_ids"] == "").all():
        frame = frame.drop(columns="claim_ids")  # a ledger whose rows name no claim ids
    if not (frame["spread_of"] == "ours").any():
        frame = frame.drop(columns="spread_of")  # every spread is the paper's
    return frame


#: every float to 17 significant digits: read back, it is the same double
_FLOAT_FORMAT = "%.17g"


def _csv_text(frame: pd.DataFrame) -> str:
    return frame.to_csv(index=False, float_format=_FLOAT_FORMAT)


def write_ledger(frame: pd.DataFrame, folder: str | Path, chapter: str) -> Path:
    """Write ``frame`` (:func:`file_frame`) as ``folder/<chapter>.csv``, atomically.

    The file is written to a temporary file beside it and renamed into place, so a
    save killed half-way leaves the previous file whole; temporaries a killed save left
    are removed first.

    >>> import tempfile
    >>> from mlcrepro.ledger.rules import Entry
    >>> e = Entry("count", "Sec. 2", "1", "1", "reproduced", kind="exact")
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = write_ledger(file_frame([e], "demo", "A. Author"), d, "demo")
    ...     read_ledger(path)["status"].tolist()
    ['reproduced']
    """
    check_name(chapter, "chapter")
    folder = Path(folder)
    target = folder / f"{chapter}.csv"
    remove_stale_temporaries(folder, recursive=False)  # what a killed save left
    with atomic_write(target, "w", newline="") as fh:  # unique temp, removed on any exit
        frame.to_csv(fh, index=False, float_format=_FLOAT_FORMAT)
    return target


def read_ledger(path: str | Path) -> pd.DataFrame:
    """A saved ledger file, checked: every column of the layout, every cell well formed.

    Raises
    ------
    ValueError
        A column of the saved layout is missing or a cell is malformed; the message
        names the file, the row and the column.
    """
    frame = read_csv_exact(path, keep_default_na=False)
    check_columns(frame, FILE_COLUMNS, str(path))
    check_rows(frame, str(path))
    return frame


def ledger_differences(frame: pd.DataFrame, path: str | Path, limit: int = 5) -> list[str]:
    """How ``frame`` (:func:`file_frame`) differs from the saved file ``path`` (``[]``: not).

    Statuses and texts are compared exactly, numbers to a relative 1e-9 (their last bits
    may differ between CPUs); at most ``limit`` cells are listed per column.
    """
    path = Path(path)
    if not path.exists():
        return [f"no saved ledger {path}"]
    saved = read_csv_exact(path, keep_default_na=False)
    mine = read_csv_exact(io.StringIO(_csv_text(frame)), keep_default_na=False)
    if list(saved.columns) != list(mine.columns) or len(saved) != len(mine):
        return [f"shape {mine.shape} vs saved {saved.shape}"]
    problems = []
    for col in mine.columns:
        a, b = mine[col], saved[col]
        if col in NUMERIC_COLUMNS:
            x = pd.to_numeric(a, errors="coerce").to_numpy(dtype=float)
            y = pd.to_numeric(b, errors="coerce").to_numpy(dtype=float)
            # numbers from floating-point evaluation: last bits differ between CPUs
            ok = np.isclose(x, y, rtol=1e-9, atol=0.0) | (np.isnan(x) & np.isnan(y))
        else:
            ok = (a.astype(str) == b.astype(str)).to_numpy()
        for i in np.flatnonzero(~ok)[:limit]:
            claim = mine["claim"].iloc[i] if "claim" in mine.columns else ""
            problems.append(f"row {i + 1} ({claim!r}) {col}: {a.iloc[i]!r} vs saved {b.iloc[i]!r}")
    return problems


def check_columns(frame: pd.DataFrame, needed: tuple[str, ...], where: str) -> None:
    """Refuse a frame that lacks a column of ``needed``, naming the columns it lacks."""
    missing = [c for c in needed if c not in frame.columns]
    if missing:
        raise ValueError(
            f"{where} lacks the column{'s' if len(missing) > 1 else ''} "
            f"{', '.join(map(repr, missing))} of a saved ledger"
        )


def check_rows(frame: pd.DataFrame, where: str) -> None:
    """Every cell a ledger reads is well formed; the first that is not is named."""

    def bad(i: int, row: Mapping[str, Any], col: str, what: str) -> ValueError:
        claim = row.get("claim")
        label = f" ({claim!r})" if isinstance(claim, str) and claim else ""
        return ValueError(
            f"{where}, row {i + 1}{label}: column {col!r} must be {what}, got {row.get(col)!r}"
        )

    def is_number(x: Any) -> bool:
        if isinstance(x, (bool, np.bool_)):
            return False
        try:
            float(x)  # NaN and infinities are numbers here; check() judges them
        except (TypeError, ValueError):
            return False
        return True

    for i, row in enumerate(frame.to_dict("records")):
        claim = row.get("claim")
        if not isinstance(claim, str) or not claim.strip():
            raise bad(i, row, "claim", "the claim's text")
        for col in ("source", "paper", "ours"):
            if not (_missing(row.get(col)) or isinstance(row.get(col), (str, int, float))):
                raise bad(i, row, col, "text")
        if row.get("status") not in STATUSES:
            raise bad(i, row, "status", f"one of {STATUSES}")
        if row.get("kind") not in KINDS:
            raise bad(i, row, "kind", f"one of {KINDS}")
        if not _missing(row.get("cause")) and row.get("cause") not in CAUSE_KINDS:
            raise bad(i, row, "cause", f"empty or one of {CAUSE_KINDS}")
        for col in NUMERIC_COLUMNS:
            x = row.get(col)
            if _missing(x):
                continue
            if not is_number(x):
                raise bad(i, row, col, "a number or empty")
            if col in ("hits", "trials") and (float(x) < 0 or float(x) != int(float(x))):
                raise bad(i, row, col, "a non-negative integer or empty")
        if _text(row.get("holds")) not in ("", "True", "False"):
            raise bad(i, row, "holds", "True, False or empty")
        if _text(row.get("spread_of")) not in ("", *SPREAD_OF):
            raise bad(i, row, "spread_of", f"empty or one of {SPREAD_OF}")


def load_ledgers(folder: str | Path | None = None) -> pd.DataFrame:
    """Read every saved ledger (``book/_ledgers/*.csv``) into one table.

    Raises
    ------
    ValueError
        A file lacks a column of the saved layout, or one of its cells is malformed (a
        status or kind that does not exist, an empty claim, a number that is not one):
        the message names the file, the row and the column.
    """

    folder = Path(folder) if folder is not None else committed_folder()
    if not folder.is_dir():
        raise FileNotFoundError(f"folder must be a folder of saved ledgers, got {folder}")
    frames = []
    for path in sorted(folder.glob("*.csv")):
        frames.append(read_ledger(path))
    if not frames:
        return pd.DataFrame(
            columns=["chapter", "claim", "source", "paper", "ours", "status", "note"]
        )
    return pd.concat(frames, ignore_index=True)
