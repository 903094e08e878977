"""The reproduction ledger: what the paper says, what we get, and whether they agree.

Each chapter builds one :class:`Ledger`, adds a row per reproduced number or
claim, shows it as its last table, saves it under ``book/_ledgers/`` and calls
:meth:`Ledger.check`, so that a row marked *reproduced* can never drift away
from the value the code computes.

Statuses
--------
``reproduced``
    A number: ``|paper - ours| <= tol``.  A claim: the evidence supports it.
``qualitative``
    The shape of the result agrees (ordering, trend), the numbers need not.
``differs``
    Our value disagrees; the ``note`` must say why (what we found).
"""

from __future__ import annotations

import io
import math
import os
from dataclasses import asdict, dataclass, field
from decimal import Decimal, InvalidOperation
from html import escape
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ._io import atomic_write, read_csv_exact
from ._validation import Int, Real, check_name, validate_params

__all__ = [
    "Ledger", "Entry", "STATUSES", "load_ledgers", "recheck_statuses", "row_anchor",
    "within_tolerance",
]

STATUSES = ("reproduced", "qualitative", "differs")


def _decimals(text: str) -> int | None:
    """Number of decimals written in a numeric string, or None if not numeric."""
    try:
        d = Decimal(text.strip())
    except (InvalidOperation, AttributeError):
        return None
    if not d.is_finite():
        return None
    exp = d.as_tuple().exponent
    return max(0, -int(exp))


def within_tolerance(paper: float, ours: float, tol: float) -> bool:
    """``|paper - ours| <= tol``, forgiving the last bits of floating-point rounding."""
    return abs(paper - ours) <= tol * (1 + 1e-9) + 1e-15


def row_anchor(chapter: str, row: int) -> str:
    """HTML id of row ``row`` (1-based, as numbered in the table) of a chapter's ledger.

    >>> row_anchor("losses", 3)
    'ledger-losses-3'
    """
    return f"ledger-{chapter}-{int(row)}"


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def _is_non_finite(x: Any) -> bool:
    """NaN or an infinity, as a number (Python or NumPy) or as text ("nan", "-inf")."""
    if isinstance(x, (bool, np.bool_)):
        return False
    if isinstance(x, str):
        try:
            return not Decimal(x.strip()).is_finite()
        except InvalidOperation:
            return False
    if isinstance(x, (int, float, np.number)) or (
        hasattr(x, "dtype") and getattr(x, "ndim", 1) == 0
    ):
        try:
            return not math.isfinite(float(x))
        except (TypeError, ValueError):
            return False
    return False


@dataclass
class Entry:
    """One row of a ledger."""

    claim: str
    source: str
    paper: str
    ours: str
    status: str
    tol: float | None = None
    note: str = ""
    paper_value: float | None = field(default=None, repr=False)
    ours_value: float | None = field(default=None, repr=False)

    def within_tolerance(self) -> bool | None:
        """True/False for numeric rows with a tolerance, None otherwise."""
        if self.tol is None or self.paper_value is None or self.ours_value is None:
            return None
        return within_tolerance(self.paper_value, self.ours_value, self.tol)


class Ledger:
    """A chapter's reproduction ledger.

    Parameters
    ----------
    chapter : str
        Short identifier of the chapter (used as file name when saving).
    paper : str
        The paper the chapter reproduces, e.g. ``"Hüllermeier et al. (2022)"``.

    Examples
    --------
    >>> led = Ledger("demo", "A. Author (2020)")
    >>> e = led.add("mean loss", "Table 1", paper="0.43", ours=3 / 7)
    >>> e.status
    'reproduced'
    >>> led.check()
    """

    def __init__(self, chapter: str, paper: str = "") -> None:
        # the chapter names the saved file: a plain name, never a path such as '../x'
        # ('' only for a ledger rebuilt from a table, which cannot be saved)
        self.chapter = "" if chapter == "" else check_name(chapter, "chapter")
        self.paper = str(paper)
        self.entries: list[Entry] = []

    # ------------------------------------------------------------------ adding
    @validate_params(
        tol=Real(low=0.0, allow_none=True), digits=Int(0, 17, allow_none=True)
    )
    def add(
        self,
        claim: str,
        source: str,
        paper: Any,
        ours: Any,
        *,
        tol: float | None = None,
        status: str | None = None,
        note: str = "",
        digits: int | None = None,
    ) -> Entry:
        """Add one row.

        Parameters
        ----------
        claim : str
            What is being reproduced, in words.
        source : str
            Where the paper states it (``"Table 1"``, ``"Sec. 4.2, p. 9"``).
        paper : str, float or None
            The paper's value.  Give numbers as strings exactly as printed
            (``"0.43"``): the tolerance then defaults to half a unit of the
            last printed digit.  ``None`` when the paper gives no value.
        ours : float or str
            Our value (a number), or a sentence stating our evidence.
        tol : float, optional
            Absolute tolerance; defaults from the paper's printed precision.
        status : {'reproduced', 'qualitative', 'differs'}, optional
            Required for non-numeric rows.  For numeric rows it is derived
            from the tolerance when omitted; if given as ``'reproduced'`` it
            must agree with the tolerance (checked by :meth:`check`).
        note : str
            Explanation; required when the status is ``'differs'``.
        digits : int, optional
            Decimals used to print ``ours``; default: the paper's decimals + 2.
        """
        if status is not None and status not in STATUSES:
            raise ValueError(f"status must be one of {STATUSES}, got {status!r}")
        for arg, value in (("ours", ours), ("paper", paper)):
            if _is_non_finite(value) and status != "differs":
                raise ValueError(
                    f"row {claim!r}: {arg} is {value!r}, not a finite number; a NaN or "
                    "infinite value is never reproduced (give status='differs' and a "
                    "note "
                    "saying why there is no finite value)"
                )
        paper_text = "" if paper is None else str(paper)
        paper_value: float | None = None
        dec = None
        if paper is not None:
            if _is_number(paper):
                paper_value = float(paper)
                dec = _decimals(repr(paper))
            else:
                dec = _decimals(paper_text)
                if dec is not None:
                    paper_value = float(Decimal(paper_text.strip()))
        ours_value: float | None = None
        if _is_number(ours) or (hasattr(ours, "dtype") and getattr(ours, "ndim", 1) == 0):
            ours_value = float(ours)
            nd = digits if digits is not None else ((dec + 2) if dec is not None else 4)
            ours_text = f"{ours_value:.{nd}f}"
        else:
            ours_text = str(ours)
        if tol is None and paper_value is not None and dec is not None and isinstance(paper, str):
            tol = 0.5 * 10.0 ** (-dec)
        if status is None:
            if paper_value is None or ours_value is None or tol is None:
                raise ValueError(
                    f"status is required for the non-numeric row {claim!r}"
                )
            ok = within_tolerance(paper_value, ours_value, tol)
            status = "reproduced" if ok else "differs"
            if not ok and not note:
                raise ValueError(
                    f"row {claim!r}: paper {paper_text} vs ours {ours_text} is outside "
                    f"tol={tol:g}; give a note saying why it differs"
                )
        if status == "differs" and not note:
            raise ValueError(f"row {claim!r} differs: a note must say why")
        entry = Entry(
            claim=str(claim),
            source=str(source),
            paper=paper_text,
            ours=ours_text,
            status=status,
            tol=tol,
            note=str(note),
            paper_value=paper_value,
            ours_value=ours_value,
        )
        self.entries.append(entry)
        return entry

    @classmethod
    def from_frame(cls, frame: pd.DataFrame, chapter: str = "", paper: str = "") -> "Ledger":
        """Rebuild a ledger from :meth:`to_frame` output (e.g. a saved CSV read back)."""

        def num(x):
            return None if x is None or x == "" or (isinstance(x, float) and math.isnan(x)) else float(x)

        led = cls(chapter, paper)
        for row in frame.to_dict("records"):
            led.entries.append(
                Entry(
                    claim=str(row["claim"]), source=str(row["source"]), paper=str(row["paper"]),
                    ours=str(row["ours"]), status=str(row["status"]), tol=num(row.get("tol")),
                    note=str(row.get("note", "")), paper_value=num(row.get("paper_value")),
                    ours_value=num(row.get("ours_value")),
                )
            )
        return led

    # ---------------------------------------------------------------- checking
    def problems(self) -> list[str]:
        """Rows whose status contradicts their numbers, as readable strings."""
        out = []
        for i, e in enumerate(self.entries):
            w = e.within_tolerance()
            if e.status == "reproduced" and w is False:
                out.append(
                    f"row {i} {e.claim!r}: marked reproduced but paper {e.paper} vs ours "
                    f"{e.ours} exceeds tol={e.tol:g}"
                )
            if e.status == "differs" and not e.note:
                out.append(f"row {i} {e.claim!r}: differs without a note")
            if e.status != "differs" and any(
                _is_non_finite(v)
                for v in (e.ours, e.paper, e.ours_value, e.paper_value)
                if v is not None
            ):
                out.append(
                    f"row {i} {e.claim!r}: marked {e.status} with a NaN or infinite "
                    f"value (paper {e.paper}, ours {e.ours})"
                )
        return out

    def check(self) -> None:
        """Raise AssertionError if any row's status contradicts its numbers."""
        probs = self.problems()
        if probs:
            raise AssertionError("ledger inconsistent:\n" + "\n".join(probs))

    def counts(self) -> dict[str, int]:
        """Number of rows per status."""
        return {s: sum(e.status == s for e in self.entries) for s in STATUSES}

    # --------------------------------------------------------------- rendering
    def to_frame(self) -> pd.DataFrame:
        """The ledger as a table (one row per entry)."""
        rows = [
            {
                "claim": e.claim,
                "source": e.source,
                "paper": e.paper,
                "ours": e.ours,
                "status": e.status,
                "note": e.note,
                "tol": e.tol,
                "paper_value": e.paper_value,
                "ours_value": e.ours_value,
            }
            for e in self.entries
        ]
        return pd.DataFrame(
            rows,
            columns=["claim", "source", "paper", "ours", "status", "note", "tol",
                     "paper_value", "ours_value"],
        )

    def save(self, folder: str | Path | None = None) -> Path:
        """Write the ledger as CSV to ``folder/<chapter>.csv`` (atomically).

        The default folder is ``book/_ledgers`` of the project, from which the
        book's summary page collects every chapter's ledger.  That folder is
        committed: it is written only when a chapter is executed to update its
        outputs (``make chapter``/``make reproduce`` set ``MLCBOOK_WRITE_OUTPUTS=1``).
        Otherwise (tests, nbval) the ledger is compared with the committed one
        instead — statuses and texts exactly, numbers to a relative 1e-9 (their
        last bits may differ between CPUs) — and a difference raises, so no check
        writes into the repository.
        """
        from ._paths import project_root

        check_name(self.chapter, "chapter")
        frame = self.to_frame().assign(chapter=self.chapter, paper_ref=self.paper)
        committed = folder is None
        folder = Path(folder) if folder is not None else project_root() / "book" / "_ledgers"
        target = folder / f"{self.chapter}.csv"
        if committed and os.environ.get("MLCBOOK_WRITE_OUTPUTS") != "1":
            self._compare_with(target, frame)
            return target
        with atomic_write(target, "w", newline="") as fh:  # unique temp, removed on any exit
            frame.to_csv(fh, index=False, float_format="%.17g")
        return target

    @staticmethod
    def _compare_with(target: Path, frame: pd.DataFrame) -> None:
        how = (f"re-execute the chapter with `make chapter NB=book/{target.stem}.md` "
               "and commit book/_ledgers/")
        if not target.exists():
            raise AssertionError(f"no committed ledger {target}; {how}")
        saved = read_csv_exact(target, keep_default_na=False)
        mine = read_csv_exact(io.StringIO(frame.to_csv(index=False, float_format="%.17g")),
                              keep_default_na=False)
        problems = []
        if list(saved.columns) != list(mine.columns) or len(saved) != len(mine):
            problems.append(f"shape {mine.shape} vs committed {saved.shape}")
        else:
            for col in mine.columns:
                a, b = mine[col], saved[col]
                if col in ("tol", "paper_value", "ours_value"):
                    x = pd.to_numeric(a, errors="coerce").to_numpy(dtype=float)
                    y = pd.to_numeric(b, errors="coerce").to_numpy(dtype=float)
                    # numbers from floating-point evaluation: last bits differ between CPUs
                    ok = np.isclose(x, y, rtol=1e-9, atol=0.0) | (np.isnan(x) & np.isnan(y))
                else:
                    ok = (a.astype(str) == b.astype(str)).to_numpy()
                for i in np.flatnonzero(~ok)[:5]:
                    problems.append(f"row {i + 1} {col}: {a.iloc[i]!r} vs committed {b.iloc[i]!r}")
        if problems:
            raise AssertionError(f"the ledger differs from the committed {target}:\n  "
                                 + "\n  ".join(problems) + f"\n{how}")

    _BADGE = {"reproduced": "✔ reproduced", "qualitative": "≈ qualitative", "differs": "✘ differs"}

    _COLUMNS = ("#", "claim", "source", "paper", "ours", "status", "note")

    def _repr_html_(self) -> str:
        # each row has an id (row_anchor) for links from the summaries, and each cell names
        # its column (data-label) so that a narrow screen can stack a row's cells
        head = "".join(f"<th>{h}</th>" for h in self._COLUMNS)
        body = []
        for i, e in enumerate(self.entries, 1):
            cells = (str(i), escape(e.claim), escape(e.source), escape(e.paper),
                     escape(e.ours), self._BADGE[e.status], escape(e.note))
            classes = ("", "", "", "", "", f" class='ledger-{e.status}'", "")
            body.append(
                f'<tr id="{row_anchor(self.chapter, i)}">'
                + "".join(f"<td data-label='{h}'{c}>{v}</td>"
                          for h, c, v in zip(self._COLUMNS, classes, cells))
                + "</tr>"
            )
        c = self.counts()
        summary = ", ".join(f"{v} {k}" for k, v in c.items())
        return (
            f"<table class='ledger'><caption>Reproduction ledger: {escape(self.paper)} "
            f"({summary})</caption><thead><tr>{head}</tr></thead>"
            f"<tbody>{''.join(body)}</tbody></table>"
        )

    def __repr__(self) -> str:
        lines = [f"Ledger {self.chapter!r} ({self.paper}): {self.counts()}"]
        for i, e in enumerate(self.entries, 1):
            lines.append(f"{i:3d}. [{e.status}] {e.claim} ({e.source}): paper {e.paper or '-'}, ours {e.ours}")
        return "\n".join(lines)


def load_ledgers(folder: str | Path | None = None) -> pd.DataFrame:
    """Read every saved ledger (``book/_ledgers/*.csv``) into one table."""
    from ._paths import project_root

    folder = Path(folder) if folder is not None else project_root() / "book" / "_ledgers"
    frames = [read_csv_exact(p, keep_default_na=False) for p in sorted(folder.glob("*.csv"))]
    if not frames:
        return pd.DataFrame(columns=["chapter", "claim", "source", "paper", "ours", "status", "note"])
    return pd.concat(frames, ignore_index=True)


def recheck_statuses(
    ledger: pd.DataFrame, committed: Any, recomputed: Any, *, match_rtol: float = 1e-12
) -> pd.DataFrame:
    """Re-derive the status of every ledger row whose number comes from a recomputed value.

    A recompute test recomputes a slice of a committed table (``committed`` and
    ``recomputed``: aligned 1-D arrays of the numbers the chapter derives its
    ledger from).  A ledger row is *matched* when its ``ours_value`` equals
    exactly one committed number (within ``match_rtol``, a float-formatting
    margin); its status is then derived again with the recomputed number under
    the row's own tolerance: ``reproduced`` when within it, otherwise the row's
    non-reproduced status.

    Parameters
    ----------
    ledger : DataFrame
        A saved ledger (:func:`load_ledgers` or ``Ledger.to_frame``).
    committed, recomputed : array-like of float, same length

    Returns
    -------
    DataFrame
        The matched rows: ``claim, status, committed, recomputed, status_recomputed``.
    """
    old = np.asarray(committed, dtype=float).ravel()
    new = np.asarray(recomputed, dtype=float).ravel()
    if old.shape != new.shape:
        raise ValueError(f"committed and recomputed must align, got {old.shape} and {new.shape}")
    rows = []
    for _, r in ledger.iterrows():
        ours, paper, tol = (float(pd.to_numeric(r.get(c), errors="coerce"))
                            for c in ("ours_value", "paper_value", "tol"))
        if not (np.isfinite(ours) and np.isfinite(paper) and np.isfinite(tol)):
            continue
        hit = np.flatnonzero(np.isclose(old, ours, rtol=match_rtol, atol=0.0))
        if len(hit) != 1:
            continue
        value = float(new[hit[0]])
        inside = within_tolerance(float(paper), value, float(tol))
        status = "reproduced" if inside else (
            r["status"] if r["status"] != "reproduced" else "differs")
        rows.append({"claim": r["claim"], "status": r["status"], "committed": float(ours),
                     "recomputed": value, "status_recomputed": status})
    return pd.DataFrame(rows, columns=["claim", "status", "committed", "recomputed",
                                       "status_recomputed"])
