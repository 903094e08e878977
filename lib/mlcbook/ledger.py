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

import math
from dataclasses import asdict, dataclass, field
from decimal import Decimal, InvalidOperation
from html import escape
from pathlib import Path
from typing import Any

import pandas as pd

__all__ = [
    "Ledger", "Entry", "STATUSES", "load_ledgers", "within_tolerance", "row_anchor",
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
        self.chapter = str(chapter)
        self.paper = str(paper)
        self.entries: list[Entry] = []

    # ------------------------------------------------------------------ adding
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
        book's summary page collects every chapter's ledger.
        """
        from ._paths import project_root

        folder = Path(folder) if folder is not None else project_root() / "book" / "_ledgers"
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / f"{self.chapter}.csv"
        tmp = target.with_suffix(".csv.tmp")
        self.to_frame().assign(chapter=self.chapter, paper_ref=self.paper).to_csv(
            tmp, index=False, float_format="%.17g"
        )
        tmp.replace(target)
        return target

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
    frames = [pd.read_csv(p, keep_default_na=False, float_precision="round_trip") for p in sorted(folder.glob("*.csv"))]
    if not frames:
        return pd.DataFrame(columns=["chapter", "claim", "source", "paper", "ours", "status", "note"])
    return pd.concat(frames, ignore_index=True)
