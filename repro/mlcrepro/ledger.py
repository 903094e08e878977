"""The reproduction ledger: what the paper says, what we get, and whether they agree.

Each chapter builds one :class:`Ledger`, adds a row per checkable claim, shows it
as its last table, saves it under ``book/_ledgers/`` and calls :meth:`Ledger.check`.
No row is given its status: the status is *derived by a rule* from the evidence
the row stores, and :meth:`Ledger.check` derives it again, so a status can never
drift from the numbers behind it.

Claim kinds and their rules
---------------------------
:meth:`Ledger.number`
    A number against the paper's printed value: *reproduced* if
    ``|paper - ours|`` is at most half a unit of the paper's last printed digit
    (or an explicit, justified ``tol``), else *differs*.
:meth:`Ledger.spread`
    A number the paper reports with a spread (``mean ± std``): *reproduced* as
    above; *within spread* if ``|paper - ours| <= spread`` (plus half a printed
    unit); else *differs*.
:meth:`Ledger.exact`
    A count, a sign pattern or a text: *reproduced* if equal, else *differs*.
:meth:`Ledger.ordering`
    An ordering or a trend with a stated rule, evaluated on our results
    (``holds``) and with its robustness (``hits`` of ``trials`` folds or
    resamples on which it holds): *reproduced* if it holds, else *differs*.
:meth:`Ledger.qualitative`
    A reading of a claim that no rule decides, with the evidence that supports
    it: *qualitative* if the evidence agrees, else *differs*.

Claim ids
---------
Every adder takes ``claim_id``: the id (``"HU012"``) or ids of the claims of the
papers' inventories (``book/_claims``, :mod:`mlcrepro.claims`) that the row checks.
The inventory finds its rows by these ids, never by the row's wording, so a claim text
can be reworded freely.  A row that checks no claim of a paper (a second check, an
observation of ours) carries the id of its line in ``book/_claims/extra.csv``.

Causes
------
A row that differs carries its cause (:class:`Cause`): :func:`paper_error` (with
the proof), :func:`underspecified` (naming what the paper omits), :func:`tested`
(pointing at the computation that tested it) or :func:`unknown` (said plainly,
with what was tried).  A cause shared by many rows is made once and passed to
each; the rendered ledger prints its text once, below the table.
"""

from __future__ import annotations

import io
import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from html import escape
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from mlcbook.files import atomic_write, read_csv_exact, remove_stale_temporaries
from mlcbook.validation import Int, Real, check_name, validate_params
from mlcrepro._paths import project_root
from mlcrepro.display import BADGES, math_html, printed_decimals

__all__ = [
    "Ledger",
    "Entry",
    "Cause",
    "STATUSES",
    "KINDS",
    "CAUSE_KINDS",
    "derive_status",
    "paper_error",
    "underspecified",
    "tested",
    "unknown",
    "material_unavailable",
    "SPREAD_OF",
    "ORDERING_ROBUSTNESS",
    "load_ledgers",
    "recheck_statuses",
    "row_anchor",
    "within_tolerance",
    "check_claim_ids",
    "BADGES",
]

#: the form of a claim id: two or three capitals and three or four digits (``HU012``)
CLAIM_ID = re.compile(r"^[A-Z]{2,3}[0-9]{3,4}$")


def check_claim_ids(claim_id: Any) -> tuple[str, ...]:
    """``claim_id`` as a tuple of ids: one id, a sequence of ids, or ``""`` for none.

    >>> check_claim_ids("HU012")
    ('HU012',)
    >>> check_claim_ids(["WZ115", "WZ116"])
    ('WZ115', 'WZ116')
    >>> check_claim_ids("")
    ()
    """
    if isinstance(claim_id, str):
        ids: tuple[Any, ...] = tuple(claim_id.split()) if claim_id.strip() else ()
    elif isinstance(claim_id, (list, tuple)):
        ids = tuple(claim_id)
    else:
        raise TypeError(
            f"claim_id must be an id string or a list of them, got {type(claim_id).__name__}"
        )
    for i in ids:
        if not isinstance(i, str) or not CLAIM_ID.match(i):
            raise ValueError(f"claim_id must be ids such as 'HU012', got {i!r}")
    if len(set(ids)) != len(ids):
        raise ValueError(f"claim_id names an id twice: {list(ids)}")
    return ids


#: the statuses a row can have, best first: *within spread* is within the spread the
#: paper (or the authors' released results) report; *within our spread* within the
#: spread of our own folds or seeds; *fragile* an ordering that holds on our main result
#: but on fewer than :data:`ORDERING_ROBUSTNESS` of its resamples
STATUSES = (
    "reproduced",
    "within spread",
    "within our spread",
    "qualitative",
    "fragile",
    "differs",
)
#: statuses a rendered count leaves out when no row has them
_RARE_STATUSES = ("within our spread", "fragile")
#: the claim kinds; each has its rule (see the module docstring)
KINDS = ("number", "spread", "exact", "ordering", "qualitative")
#: the classes of cause a row that differs names
CAUSE_KINDS = ("paper error", "underspecified", "material unavailable", "tested", "unknown")
#: whose spread a spread row is judged by: the paper's (reported ± std, or the authors'
#: released results) or ours (fold-to-fold or seed-to-seed spread of our runs)
SPREAD_OF = ("paper", "ours")
#: the share of resamples (folds, bootstrap draws) on which an ordering must hold, besides
#: holding on the main result, to count as reproduced: a finding that a fifth of the
#: resamples reverse is one the data do not settle
ORDERING_ROBUSTNESS = 0.8


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


@dataclass(frozen=True)
class Cause:
    """Why a row differs from the paper: one of :data:`CAUSE_KINDS`, its text, where tested.

    Make causes with :func:`paper_error`, :func:`underspecified`, :func:`tested` or
    :func:`unknown`.  One cause may be passed to many rows; it is then printed once.
    """

    kind: str
    text: str
    ref: str = ""

    def __post_init__(self) -> None:
        if self.kind not in CAUSE_KINDS:
            raise ValueError(f"kind must be one of {CAUSE_KINDS}, got {self.kind!r}")
        if not isinstance(self.text, str) or not self.text.strip():
            raise ValueError("a cause needs its text: what was found, proved or omitted")
        if not isinstance(self.ref, str):
            raise TypeError(f"ref must be a string, got {type(self.ref).__name__}")
        if self.kind == "tested" and not self.ref.strip():
            raise ValueError(
                "a tested cause must point at the computation that tested it (ref=...: "
                "a test, a committed table or a chapter section)"
            )

    def describe(self) -> str:
        """One line: ``kind: text (ref)``."""
        ref = f" ({self.ref})" if self.ref else ""
        return f"{self.kind}: {self.text}{ref}"


def paper_error(proof: str, ref: str = "") -> Cause:
    """The paper is wrong here; ``proof`` says why (a recomputation, a counter-example)."""
    return Cause("paper error", proof, ref)


def underspecified(what: str, ref: str = "") -> Cause:
    """The paper omits what the number depends on; ``what`` names the missing detail."""
    return Cause("underspecified", what, ref)


def tested(finding: str, ref: str) -> Cause:
    """A cause established by a computation; ``ref`` points at it (test, table, section)."""
    return Cause("tested", finding, ref)


tested.__test__ = False  # type: ignore[attr-defined]  # a cause, not a test for pytest


def material_unavailable(what: str, ref: str = "") -> Cause:
    """What the number needs is not available to us: a figure missing from our copy of
    the paper, a dataset, a split or a file the authors did not release; ``what`` names it.

    Not the paper's silence (that is :func:`underspecified`).
    """
    return Cause("material unavailable", what, ref)


def unknown(why: str, ref: str = "") -> Cause:
    """The cause is not known; ``why`` says so plainly and what was ruled out."""
    return Cause("unknown", why, ref)


def _finite(x: float | None) -> bool:
    return x is not None and math.isfinite(x)


def derive_status(
    kind: str,
    *,
    paper: str = "",
    ours: str = "",
    paper_value: float | None = None,
    ours_value: float | None = None,
    tol: float | None = None,
    spread: float | None = None,
    holds: bool | None = None,
    spread_of: str = "paper",
    hits: int | None = None,
    trials: int | None = None,
) -> str:
    """The status of a row of kind ``kind`` given its evidence (the rules of the module).

    >>> derive_status("number", paper_value=0.43, ours_value=3 / 7, tol=0.005)
    'reproduced'
    >>> derive_status("spread", paper_value=0.217, ours_value=0.226, tol=5e-4, spread=0.012)
    'within spread'
    >>> derive_status("spread", paper_value=0.217, ours_value=0.226, tol=5e-4, spread=0.012,
    ...               spread_of="ours")
    'within our spread'
    >>> derive_status("exact", paper="1, 0, 1", ours="1, 0, 1")
    'reproduced'
    >>> derive_status("ordering", holds=True, hits=57, trials=200)
    'fragile'
    """
    if kind in ("number", "spread"):
        if not (_finite(paper_value) and tol is not None and _finite(tol)):
            raise ValueError(f"a {kind} row needs a finite paper value and tolerance")
        if not _finite(ours_value):
            return "differs"  # NaN or infinite: never reproduced
        assert paper_value is not None and ours_value is not None
        if within_tolerance(paper_value, ours_value, tol):
            return "reproduced"
        if kind == "spread":
            if not (_finite(spread) and spread is not None and spread >= 0):
                raise ValueError("a spread row needs a finite, non-negative spread")
            if spread_of not in SPREAD_OF:
                raise ValueError(f"spread_of must be one of {SPREAD_OF}, got {spread_of!r}")
            if within_tolerance(paper_value, ours_value, spread + tol):
                return "within spread" if spread_of == "paper" else "within our spread"
        return "differs"
    if kind == "exact":
        return "reproduced" if str(paper).strip() == str(ours).strip() else "differs"
    if kind == "ordering":
        if not holds:
            return "differs"
        if trials and hits is not None and hits < ORDERING_ROBUSTNESS * trials:
            return "fragile"
        return "reproduced"
    if kind == "qualitative":
        return "qualitative" if holds else "differs"
    raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")


@dataclass
class Entry:
    """One row of a ledger: the claim, the evidence, and the status derived from it."""

    claim: str
    source: str
    paper: str
    ours: str
    status: str
    kind: str = "number"
    cause: Cause | None = None
    note: str = ""
    tol: float | None = None
    spread: float | None = None
    paper_value: float | None = field(default=None, repr=False)
    ours_value: float | None = field(default=None, repr=False)
    holds: bool | None = field(default=None, repr=False)
    hits: int | None = field(default=None, repr=False)
    trials: int | None = field(default=None, repr=False)
    claim_ids: tuple[str, ...] = field(default=(), repr=False)
    spread_of: str = field(default="paper", repr=False)

    def derived_status(self) -> str:
        """The status the row's evidence gives under the rule of its kind."""
        return derive_status(
            self.kind,
            paper=self.paper,
            ours=self.ours,
            paper_value=self.paper_value,
            ours_value=self.ours_value,
            tol=self.tol,
            spread=self.spread,
            holds=self.holds,
            spread_of=self.spread_of,
            hits=self.hits,
            trials=self.trials,
        )

    def within_tolerance(self) -> bool | None:
        """True/False for numeric rows with a tolerance, None otherwise."""
        if self.tol is None or self.paper_value is None or self.ours_value is None:
            return None
        return within_tolerance(self.paper_value, self.ours_value, self.tol)

    @property
    def explanation(self) -> str:
        """The note shown for the row: its cause (class, text, reference) or remark."""
        return self.cause.describe() if self.cause is not None else self.note


def _paper_number(paper: Any, name: str = "paper") -> tuple[str, float, int | None]:
    """The paper's value as printed: its text, its value and its number of decimals."""
    if isinstance(paper, str):
        dec = printed_decimals(paper)
        if dec is None:
            raise ValueError(f"{name} must be a number as printed (e.g. '0.43'), got {paper!r}")
        return paper.strip(), float(Decimal(paper.strip())), dec
    if _is_number(paper):
        return repr(paper), float(paper), None
    raise TypeError(f"{name} must be the printed number as a string, got {paper!r}")


def _our_number(ours: Any, name: str = "ours") -> float:
    if isinstance(ours, (bool, np.bool_)) or not (
        isinstance(ours, (int, float, np.number))
        or (hasattr(ours, "dtype") and getattr(ours, "ndim", 1) == 0)
    ):
        raise TypeError(f"{name} must be a number, got {type(ours).__name__}")
    return float(ours)


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
    >>> led.number("mean loss", "Table 1", paper="0.43", ours=3 / 7).status
    'reproduced'
    >>> c = tested("the paper's grid stops at 1e-2", ref="the grid section")
    >>> led.number("best loss", "Table 2", paper="0.30", ours=0.35, cause=c).status
    'differs'
    >>> led.check()
    """

    def __init__(self, chapter: str, paper: str = "") -> None:
        # the chapter names the saved file: a plain name, never a path such as '../x'
        # ('' only for a ledger rebuilt from a table, which cannot be saved)
        self.chapter = "" if chapter == "" else check_name(chapter, "chapter")
        self.paper = str(paper)
        self.entries: list[Entry] = []

    # ------------------------------------------------------------------ adding
    def _add(
        self,
        kind: str,
        claim: Any,
        source: Any,
        paper: str,
        ours: str,
        cause: Cause | None,
        note: Any,
        claim_id: Any,
        **evidence: Any,
    ) -> Entry:
        """Build the row every adder makes (``evidence``: the fields of its kind) and append it."""
        entry = Entry(
            claim=str(claim),
            source=str(source),
            paper=paper,
            ours=ours,
            status="",
            kind=kind,
            note=str(note),
            **evidence,
        )
        return self._append(entry, cause, claim_id)

    def _append(self, entry: Entry, cause: Cause | None, claim_id: Any = "") -> Entry:
        entry.claim_ids = check_claim_ids(claim_id)
        if cause is not None and not isinstance(cause, Cause):
            raise TypeError(
                "cause must be made by paper_error(), underspecified(), tested() or "
                f"unknown(), got {type(cause).__name__}"
            )
        entry.cause = cause
        entry.status = entry.derived_status()
        if entry.status == "differs" and cause is None:
            raise ValueError(
                f"row {entry.claim!r} differs (paper {entry.paper or '-'}, ours {entry.ours}):"
                " give its cause (paper_error, underspecified, tested or unknown)"
            )
        self.entries.append(entry)
        return entry

    @validate_params(tol=Real(low=0.0, allow_none=True), digits=Int(0, 17, allow_none=True))
    def number(
        self,
        claim: str,
        source: str,
        *,
        paper: str,
        ours: Any,
        tol: float | None = None,
        digits: int | None = None,
        cause: Cause | None = None,
        note: str = "",
        claim_id: str | list[str] = "",
    ) -> Entry:
        """A number against the paper's printed value.

        Parameters
        ----------
        claim, source : str
            What is reproduced, in words, and where the paper states it.
        paper : str
            The paper's value exactly as printed (``"0.43"``); the tolerance is half a
            unit of its last digit unless ``tol`` is given.
        ours : float
            Our value.
        tol : float, optional
            An absolute tolerance, justified in ``note`` (e.g. the spread of an optimiser).
        digits : int, optional
            Decimals used to print ``ours``; default: the paper's decimals + 2.
        cause : Cause, optional
            Required when the row differs.
        note : str
            A remark (for rows that agree; a difference's explanation is its cause).
        claim_id : str or list of str
            The inventory id(s) of the claim(s) the row checks (``"HU012"``).
        """
        return self._numeric(
            "number", claim, source, paper, ours, tol, None, digits, cause, note, claim_id
        )

    @validate_params(tol=Real(low=0.0, allow_none=True), digits=Int(0, 17, allow_none=True))
    def spread(
        self,
        claim: str,
        source: str,
        *,
        paper: str,
        spread: str | float,
        ours: Any,
        tol: float | None = None,
        digits: int | None = None,
        cause: Cause | None = None,
        note: str = "",
        claim_id: str | list[str] = "",
        spread_of: str = "paper",
    ) -> Entry:
        """A number judged against a spread: the paper's (``paper ± spread``) or ours.

        *reproduced* within the printed precision; else, if ``|paper - ours| <=
        spread + tol``, *within spread* when the spread is the paper's (its reported std,
        or the authors' released results) and *within our spread* when it is ours (the
        fold-to-fold or seed-to-seed spread of our runs); else *differs*.  Parameters as
        for :meth:`number`; ``spread`` as printed (``"0.012"``) or a number;
        ``spread_of`` is ``"paper"`` or ``"ours"``.  The ``paper`` column shows only the
        paper's numbers: ``"0.145 ± 0.003"`` for its own spread, ``"0.145"`` for ours
        (ours is kept in the ``spread`` column).
        """
        if spread_of not in SPREAD_OF:
            raise ValueError(f"spread_of must be one of {SPREAD_OF}, got {spread_of!r}")
        if isinstance(spread, str):
            spread_value = _paper_number(spread, "spread")[1]
        else:
            spread_value = _our_number(spread, "spread")
        if not (math.isfinite(spread_value) and spread_value >= 0):
            raise ValueError(f"spread must be a finite number >= 0, got {spread!r}")
        return self._numeric(
            "spread",
            claim,
            source,
            paper,
            ours,
            tol,
            spread_value,
            digits,
            cause,
            note,
            claim_id,
            spread_of,
        )

    def _numeric(
        self,
        kind,
        claim,
        source,
        paper,
        ours,
        tol,
        spread,
        digits,
        cause,
        note,
        claim_id,
        spread_of="paper",
    ):
        paper_text, paper_value, dec = _paper_number(paper)
        ours_value = _our_number(ours)
        if tol is None:
            if dec is None:
                raise ValueError(
                    f"row {claim!r}: give the paper's value as printed (a string) or tol="
                )
            tol = 0.5 * 10.0 ** (-dec)
        nd = digits if digits is not None else ((dec + 2) if dec is not None else 4)
        ours_text = f"{ours_value:.{nd}f}" if math.isfinite(ours_value) else str(ours_value)
        if spread is not None and spread_of == "paper":
            paper_text = f"{paper_text} ± {spread:g}"
        return self._add(
            kind,
            claim,
            source,
            paper_text,
            ours_text,
            cause,
            note,
            claim_id,
            tol=float(tol),
            spread=spread,
            paper_value=paper_value,
            ours_value=ours_value,
            spread_of=spread_of,
        )

    def exact(
        self,
        claim: str,
        source: str,
        *,
        paper: Any,
        ours: Any,
        cause: Cause | None = None,
        note: str = "",
        claim_id: str | list[str] = "",
    ) -> Entry:
        """A count, sign pattern or text that must be equal: *reproduced* or *differs*.

        Integers are compared as integers (``paper=1, ours=np.int64(1)`` agree).
        """

        def text(x: Any) -> str:
            if isinstance(x, (bool, np.bool_)):
                return str(bool(x))
            if isinstance(x, (int, np.integer)):
                return str(int(x))
            if isinstance(x, (float, np.floating)) and float(x).is_integer():
                return str(int(x))
            return str(x)

        return self._add("exact", claim, source, text(paper), text(ours), cause, note, claim_id)

    def ordering(
        self,
        claim: str,
        source: str,
        *,
        paper: str,
        rule: str,
        holds: bool,
        robustness: tuple[int, int] | None = None,
        over: str = "folds",
        cause: Cause | None = None,
        note: str = "",
        claim_id: str | list[str] = "",
    ) -> Entry:
        """An ordering or trend, decided by ``rule`` on our results.

        Parameters
        ----------
        paper : str
            The claim as the paper states it.
        rule : str
            The rule evaluated, in words (``"mean Hamming of BR < LP on >= 5 of 6
            datasets"``).
        holds : bool
            Whether the rule holds on our main result.
        robustness : (int, int), optional
            ``(hits, trials)``: on how many of ``trials`` folds or resamples the rule
            holds too.
        over : str
            What the trials are (``"folds"``, ``"bootstrap resamples"``).
        """
        if not isinstance(holds, (bool, np.bool_)):
            raise TypeError(f"holds must be a bool, got {type(holds).__name__}")
        hits = trials = None
        ours = f"{'holds' if holds else 'does not hold'}: {rule}"
        if robustness is not None:
            hits, trials = (int(v) for v in robustness)
            if not 0 <= hits <= trials or trials == 0:
                raise ValueError(
                    f"robustness must be (hits, trials), 0 <= hits <= trials, "
                    f"trials > 0; got {robustness!r}"
                )
            ours += f" (on {hits} of {trials} {over})"
        return self._add(
            "ordering",
            claim,
            source,
            str(paper),
            ours,
            cause,
            note,
            claim_id,
            holds=bool(holds),
            hits=hits,
            trials=trials,
        )

    def qualitative(
        self,
        claim: str,
        source: str,
        *,
        paper: str,
        evidence: str,
        agrees: bool,
        cause: Cause | None = None,
        note: str = "",
        claim_id: str | list[str] = "",
    ) -> Entry:
        """A reading no rule decides: *qualitative* if ``evidence`` supports it, else differs."""
        if not isinstance(agrees, (bool, np.bool_)):
            raise TypeError(f"agrees must be a bool, got {type(agrees).__name__}")
        if not str(evidence).strip():
            raise ValueError(f"row {claim!r}: a qualitative row needs its evidence")
        return self._add(
            "qualitative",
            claim,
            source,
            str(paper),
            str(evidence),
            cause,
            note,
            claim_id,
            holds=bool(agrees),
        )

    # ------------------------------------------------------------------ reading
    _NUMERIC = ("tol", "spread", "paper_value", "ours_value", "hits", "trials")
    _COLUMNS_SAVED = (
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
        *_NUMERIC,
        "holds",
        "spread_of",
    )

    @classmethod
    def from_frame(cls, frame: pd.DataFrame, chapter: str = "", paper: str = "") -> Ledger:
        """Rebuild a ledger from :meth:`to_frame` output (e.g. a saved CSV read back).

        Raises
        ------
        ValueError
            A column the rows need is missing, or a cell is malformed (a status or kind
            that does not exist, a claim that is not text, a number that is not one):
            the message names the row and the column.  The statuses are not re-derived
            here; :meth:`check` does that.
        """
        if not isinstance(frame, pd.DataFrame):
            raise TypeError(f"frame must be a pandas DataFrame, got {type(frame).__name__}")
        _check_columns(frame, _ROW_COLUMNS, "frame")
        _check_rows(frame, "frame")

        def num(x: Any) -> float | None:
            return None if _missing(x) else float(x)

        led = cls(chapter, paper)
        for row in frame.to_dict("records"):
            kind = str(row.get("kind") or "")
            cause_kind = _text(row.get("cause"))
            cause = (
                Cause(cause_kind, str(row.get("note", "")), str(row.get("cause_ref") or ""))
                if cause_kind
                else None
            )
            holds = _text(row.get("holds"))
            hits, trials = num(row.get("hits")), num(row.get("trials"))
            led.entries.append(
                Entry(
                    claim=str(row["claim"]),
                    source=str(row["source"]),
                    paper=str(row["paper"]),
                    ours=str(row["ours"]),
                    status=str(row["status"]),
                    kind=kind,
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
        return led

    # ---------------------------------------------------------------- checking
    def problems(self) -> list[str]:
        """Rows whose status is not the one their evidence gives, as readable strings.

        Every row's status is derived again from its stored evidence (there are no
        literal statuses); a row that differs must carry a cause; NaN or infinite
        values never pass.
        """
        out = []
        for i, e in enumerate(self.entries, 1):
            where = f"row {i} {e.claim!r}"
            try:
                status = e.derived_status()
            except ValueError as err:
                out.append(f"{where}: {err}")
                continue
            if status != e.status:
                out.append(
                    f"{where}: status {e.status!r} but its evidence gives "
                    f"{status!r} (paper {e.paper}, ours {e.ours}, tol={e.tol})"
                )
            if e.status == "differs" and e.cause is None:
                out.append(f"{where}: differs without a cause")
            if e.status != "differs" and any(
                _is_non_finite(v)
                for v in (e.ours, e.paper, e.ours_value, e.paper_value)
                if v is not None
            ):
                out.append(
                    f"{where}: marked {e.status} with a NaN or infinite value "
                    f"(paper {e.paper}, ours {e.ours})"
                )
        return out

    def check(self) -> None:
        """Raise AssertionError if any row's status is not the one its evidence gives."""
        probs = self.problems()
        if probs:
            raise AssertionError("ledger inconsistent:\n" + "\n".join(probs))

    def counts(self) -> dict[str, int]:
        """Number of rows per status."""
        return {s: sum(e.status == s for e in self.entries) for s in STATUSES}

    def cause_counts(self) -> dict[str, int]:
        """Rows that differ, per class of cause (:data:`CAUSE_KINDS`)."""
        out = dict.fromkeys(CAUSE_KINDS, 0)
        for e in self.entries:
            if e.status == "differs" and e.cause is not None:
                out[e.cause.kind] += 1
        return out

    # --------------------------------------------------------------- rendering
    def to_frame(self) -> pd.DataFrame:
        """The ledger as a table (one row per entry)."""
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
            for e in self.entries
        ]
        frame = pd.DataFrame(rows, columns=list(self._COLUMNS_SAVED))
        # every column its own dtype whatever the entries hold: a numeric column whose
        # entries are all None would otherwise be 'object', and concatenating ledgers
        # would then infer dtypes from empty columns (deprecated in pandas 2.x)
        for col in ("tol", "spread", "paper_value", "ours_value"):
            frame[col] = frame[col].astype("float64")
        for col in ("hits", "trials"):
            frame[col] = frame[col].astype("Int64")
        return frame

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

        check_name(self.chapter, "chapter")
        frame = self.to_frame().assign(chapter=self.chapter, paper_ref=self.paper)
        if (frame["claim_ids"] == "").all():
            frame = frame.drop(columns="claim_ids")  # a ledger whose rows name no claim ids
        if not (frame["spread_of"] == "ours").any():
            frame = frame.drop(columns="spread_of")  # every spread is the paper's
        committed = folder is None
        folder = Path(folder) if folder is not None else project_root() / "book" / "_ledgers"
        target = folder / f"{self.chapter}.csv"
        remove_stale_temporaries(folder, recursive=False)  # what a killed save left
        if committed and os.environ.get("MLCBOOK_WRITE_OUTPUTS") != "1":
            self._compare_with(target, frame)
            return target
        with atomic_write(target, "w", newline="") as fh:  # unique temp, removed on any exit
            frame.to_csv(fh, index=False, float_format="%.17g")
        return target

    @classmethod
    def _compare_with(cls, target: Path, frame: pd.DataFrame) -> None:
        how = (
            f"re-execute the chapter with `make chapter NB=book/{target.stem}.md` "
            "and commit book/_ledgers/"
        )
        if not target.exists():
            raise AssertionError(f"no committed ledger {target}; {how}")
        saved = read_csv_exact(target, keep_default_na=False)
        mine = read_csv_exact(
            io.StringIO(frame.to_csv(index=False, float_format="%.17g")), keep_default_na=False
        )
        problems = []
        if list(saved.columns) != list(mine.columns) or len(saved) != len(mine):
            problems.append(f"shape {mine.shape} vs committed {saved.shape}")
        else:
            for col in mine.columns:
                a, b = mine[col], saved[col]
                if col in cls._NUMERIC:
                    x = pd.to_numeric(a, errors="coerce").to_numpy(dtype=float)
                    y = pd.to_numeric(b, errors="coerce").to_numpy(dtype=float)
                    # numbers from floating-point evaluation: last bits differ between CPUs
                    ok = np.isclose(x, y, rtol=1e-9, atol=0.0) | (np.isnan(x) & np.isnan(y))
                else:
                    ok = (a.astype(str) == b.astype(str)).to_numpy()
                for i in np.flatnonzero(~ok)[:5]:
                    problems.append(f"row {i + 1} {col}: {a.iloc[i]!r} vs committed {b.iloc[i]!r}")
        if problems:
            raise AssertionError(
                f"the ledger differs from the committed {target}:\n  "
                + "\n  ".join(problems)
                + f"\n{how}"
            )

    _BADGE: ClassVar[Mapping[str, str]] = BADGES

    _COLUMNS = ("#", "claim", "source", "paper", "ours", "status", "note")

    def shared_causes(self) -> dict[Cause, str]:
        """Causes given to two or more rows, labelled ``A``, ``B``, ... in order of use."""
        uses: dict[Cause, int] = {}
        for e in self.entries:
            if e.cause is not None:
                uses[e.cause] = uses.get(e.cause, 0) + 1
        shared = [c for c, n in uses.items() if n > 1]
        return {c: _label(i) for i, c in enumerate(shared)}

    def _repr_html_(self) -> str:
        # each row has an id (row_anchor) for links from the summaries, and each cell names
        # its column (data-label) so that a narrow screen can stack a row's cells; a cause
        # shared by several rows is printed once, below the table, and referenced by label
        shared = self.shared_causes()
        head = "".join(f"<th>{h}</th>" for h in self._COLUMNS)
        body = []
        for i, e in enumerate(self.entries, 1):
            if e.cause is not None and e.cause in shared:
                note = (
                    f"{escape(e.cause.kind)} — <a href='#{self._note_id(shared[e.cause])}'>"
                    f"note {shared[e.cause]}</a>"
                )
            else:
                note = math_html(e.explanation)
            cells = (
                str(i),
                math_html(e.claim),
                escape(e.source),
                math_html(e.paper),
                math_html(e.ours),
                self._BADGE[e.status],
                note,
            )
            classes = ("", "", "", "", "", f" class='ledger-{e.status.replace(' ', '-')}'", "")
            body.append(
                f'<tr id="{row_anchor(self.chapter, i)}">'
                + "".join(
                    f"<td data-label='{h}'{c}>{v}</td>"
                    for h, c, v in zip(self._COLUMNS, classes, cells)
                )
                + "</tr>"
            )
        summary = ", ".join(
            f"{v} {k}"
            for k, v in self.counts().items()
            if v or k not in ("within spread", *_RARE_STATUSES)
        )
        notes = "".join(
            f'<li id="{self._note_id(label)}"><b>Note {label}</b> ({escape(c.kind)}): '
            f"{math_html(c.text)}"
            + (
                f" <i>{'Tested in' if c.kind == 'tested' else 'See'}</i> {escape(c.ref)}."
                if c.ref
                else ""
            )
            + "</li>"
            for c, label in shared.items()
        )
        return (
            f"<table class='ledger'><caption>Reproduction ledger: {escape(self.paper)} "
            f"({summary})</caption><thead><tr>{head}</tr></thead>"
            f"<tbody>{''.join(body)}</tbody></table>"
            + (f"<ol class='ledger-notes'>{notes}</ol>" if notes else "")
        )

    def collapsed(self, title: str = "The full reproduction ledger") -> _Collapsed:
        """The ledger behind a toggle: a reader opens it by its title (and its counts).

        >>> led = Ledger("demo", "A. Author (2020)")
        >>> _ = led.exact("count", "Sec. 2", paper=1, ours=1)
        >>> led.collapsed()._repr_html_().startswith("<details class='ledger-chapter'>")
        True
        """
        if not isinstance(title, str) or not title.strip():
            raise ValueError("title must be a non-empty string")
        counts = ", ".join(f"{v} {k}" for k, v in self.counts().items() if v)
        return _Collapsed(self, f"{title} ({len(self.entries)} rows: {counts})")

    def _note_id(self, label: str) -> str:
        return f"ledger-{self.chapter}-note-{label}"

    def __repr__(self) -> str:
        counts = {k: v for k, v in self.counts().items() if v or k not in _RARE_STATUSES}
        lines = [f"Ledger {self.chapter!r} ({self.paper}): {counts}"]
        for i, e in enumerate(self.entries, 1):
            lines.append(
                f"{i:3d}. [{e.status}] {e.claim} ({e.source}): "
                f"paper {e.paper or '-'}, ours {e.ours}"
            )
        return "\n".join(lines)


class _Collapsed:
    """A ledger shown inside ``<details>``; its text form is the ledger's own."""

    def __init__(self, ledger: Ledger, summary: str) -> None:
        self.ledger, self.summary = ledger, summary

    def _repr_html_(self) -> str:
        return (
            f"<details class='ledger-chapter'><summary><b>{escape(self.summary)}</b>"
            f"</summary>{self.ledger._repr_html_()}</details>"
        )

    def __repr__(self) -> str:
        return f"{self.summary}\n{self.ledger!r}"


def _missing(x: Any) -> bool:
    """An empty cell: None, NaN, pandas' NA or the empty string."""
    if isinstance(x, str):
        return x == ""
    return x is None or x is pd.NA or (isinstance(x, (float, np.floating)) and math.isnan(x))


def _text(x: Any) -> str:
    """A cell of a saved table as text: empty for a missing value (None, NaN, NA)."""
    return "" if _missing(x) else str(x)


#: the columns a row of a ledger frame needs (:meth:`Ledger.from_frame`)
_ROW_COLUMNS = ("claim", "source", "paper", "ours", "status", "kind")
#: the columns of a saved ledger file (``claim_ids`` and ``spread_of`` are left out
#: when no row has one)
_FILE_COLUMNS = (
    *(c for c in Ledger._COLUMNS_SAVED if c not in ("claim_ids", "spread_of")),
    "chapter",
    "paper_ref",
)


def _check_columns(frame: pd.DataFrame, needed: tuple[str, ...], where: str) -> None:
    missing = [c for c in needed if c not in frame.columns]
    if missing:
        raise ValueError(
            f"{where} lacks the column{'s' if len(missing) > 1 else ''} "
            f"{', '.join(map(repr, missing))} of a saved ledger"
        )


def _check_rows(frame: pd.DataFrame, where: str) -> None:
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
        for col in Ledger._NUMERIC:
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


def _label(i: int) -> str:
    """A, B, ..., Z, AA, AB, ... for i = 0, 1, ..."""
    out = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        out = chr(65 + r) + out
    return out


def load_ledgers(folder: str | Path | None = None) -> pd.DataFrame:
    """Read every saved ledger (``book/_ledgers/*.csv``) into one table.

    Raises
    ------
    ValueError
        A file lacks a column of the saved layout, or one of its cells is malformed (a
        status or kind that does not exist, an empty claim, a number that is not one):
        the message names the file, the row and the column.
    """

    folder = Path(folder) if folder is not None else project_root() / "book" / "_ledgers"
    if not folder.is_dir():
        raise FileNotFoundError(f"folder must be a folder of saved ledgers, got {folder}")
    frames = []
    for path in sorted(folder.glob("*.csv")):
        frame = read_csv_exact(path, keep_default_na=False)
        _check_columns(frame, _FILE_COLUMNS, str(path))
        _check_rows(frame, str(path))
        frames.append(frame)
    if not frames:
        return pd.DataFrame(
            columns=["chapter", "claim", "source", "paper", "ours", "status", "note"]
        )
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
        ours, paper, tol = (
            float(pd.to_numeric(r.get(c), errors="coerce"))
            for c in ("ours_value", "paper_value", "tol")
        )
        if not (np.isfinite(ours) and np.isfinite(paper) and np.isfinite(tol)):
            continue
        hit = np.flatnonzero(np.isclose(old, ours, rtol=match_rtol, atol=0.0))
        if len(hit) != 1:
            continue
        value = float(new[hit[0]])
        inside = within_tolerance(float(paper), value, float(tol))
        status = (
            "reproduced" if inside else (r["status"] if r["status"] != "reproduced" else "differs")
        )
        rows.append(
            {
                "claim": r["claim"],
                "status": r["status"],
                "committed": float(ours),
                "recomputed": value,
                "status_recomputed": status,
            }
        )
    return pd.DataFrame(
        rows, columns=["claim", "status", "committed", "recomputed", "status_recomputed"]
    )
