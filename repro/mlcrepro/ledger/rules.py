"""The ledger's rules: how a row's status and its cause follow from the row's evidence.

No row is given its status: :func:`derive_status` derives it from what the row stores
(the paper's value, ours, the tolerance, the spread, whether an ordering holds), under
the rule of the row's claim kind (:data:`KINDS`; the rules are listed in
:mod:`mlcrepro.ledger`).  :func:`cause_where_differs` is the one rule for causes: a row
keeps the cause it was given only where its status is *differs*, and a row that differs
must have one.  :func:`row_problems` applies both rules again to a stored row.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

import numpy as np
import pandas as pd

from mlcrepro.vocabulary import WORDS

__all__ = [
    "CLAIM_ID",
    "STATUSES",
    "RARE_STATUSES",
    "KINDS",
    "CAUSE_KINDS",
    "WORDS",
    "SPREAD_OF",
    "ORDERING_ROBUSTNESS",
    "check_claim_ids",
    "within_tolerance",
    "Cause",
    "paper_error",
    "underspecified",
    "tested",
    "material_unavailable",
    "unknown",
    "section",
    "section_refs",
    "derive_status",
    "cause_where_differs",
    "CauseGiven",
    "Entry",
    "row_problems",
    "recheck_statuses",
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
RARE_STATUSES = ("within our spread", "fragile")
#: the claim kinds; each has its rule (see the module docstring)
KINDS = ("number", "spread", "exact", "ordering", "qualitative")
#: the classes of cause a row that differs names
CAUSE_KINDS = ("paper error", "underspecified", "material unavailable", "tested", "unknown")
assert set(WORDS) == {*STATUSES, *CAUSE_KINDS}, "every status and cause has its word"
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


#: one part of a cause's reference that names a section of a page of the book
SECTION_REF = re.compile(r"(?P<page>[^;“”]+?), section “(?P<heading>[^“”]+)”")


def section(page: str, heading: str) -> str:
    """A cause's reference to a section of the book: the page's title and the heading.

    A reader finds it by the page's title in the contents and the heading on the page;
    the book's tests check that the page has a section of that heading.  Several
    references are joined by ``"; "``.

    >>> section("Reproducing Park & Read (2018)", "Hypotheses for what differs")
    'Reproducing Park & Read (2018), section “Hypotheses for what differs”'
    """
    for name, text in (("page", page), ("heading", heading)):
        if not isinstance(text, str) or not text.strip() or any(c in text for c in ";“”"):
            raise ValueError(
                f"{name} must be a non-empty title without ';', '“' or '”', got {text!r}"
            )
    return f"{page.strip()}, section “{heading.strip()}”"


def section_refs(ref: str) -> list[tuple[str, str]]:
    """The (page, heading) pairs a cause's reference names (:func:`section`).

    >>> section_refs("mlcbook.margins.table2_check; " + section("A page", "Its part"))
    [('A page', 'Its part')]
    """
    if not isinstance(ref, str):
        raise TypeError(f"ref must be a string, got {type(ref).__name__}")
    return [
        (m["page"], m["heading"])
        for part in ref.split("; ")
        if (m := SECTION_REF.fullmatch(part.strip()))
    ]


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
    #: what the row is about, as data (``{"table": "Table 3", "dataset": "emotions",
    #: "learner": "BR", "measure": "hamming_loss"}``): read by the pages' tables and by
    #: ``mlcrepro check --recompute``, never parsed back from ``claim``; not saved
    about: dict[str, Any] = field(default_factory=dict, repr=False)

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


#: what a row is given as its cause: a :class:`Cause`, or a function of no argument
#: making one, called only if the row differs (a cause whose text is computed from what
#: failed, meaningless where nothing did)
CauseGiven = Cause | Callable[[], Cause]


def cause_where_differs(
    status: str, cause: CauseGiven | None, row: str = "the row"
) -> Cause | None:
    """The cause a row of status ``status`` keeps: ``cause`` where it differs, else none.

    The one rule for causes.  A cause is passed to a row as its explanation should it
    differ; the row keeps it only where its derived status is *differs* (so that a cause
    shared by many rows is not printed beside those that agree), and a row that differs
    without a cause is refused.  A function given as the cause is called only for a row
    that differs.

    Parameters
    ----------
    status : str
        The row's derived status (:func:`derive_status`).
    cause : Cause, function returning a Cause, or None
        The cause given to the row.
    row : str
        The row as the error names it (its claim and values).

    Raises
    ------
    ValueError
        The row differs and ``cause`` is None.
    TypeError
        ``cause`` is neither a :class:`Cause` nor a function making one.

    Examples
    --------
    >>> c = unknown("the paper's seed is not given")
    >>> cause_where_differs("differs", c) is c
    True
    >>> cause_where_differs("reproduced", c) is None
    True
    >>> cause_where_differs("reproduced", lambda: 1 / 0) is None  # never made
    True
    """
    if cause is not None and not (isinstance(cause, Cause) or callable(cause)):
        raise TypeError(
            "cause must be made by paper_error(), underspecified(), tested() or "
            f"unknown(), or be a function making one, got {type(cause).__name__}"
        )
    if status not in STATUSES:
        raise ValueError(f"status must be one of {STATUSES}, got {status!r}")
    if status != "differs":
        return None
    if cause is None:
        raise ValueError(
            f"{row} differs: give its cause (paper_error, underspecified, tested or unknown)"
        )
    made = cause if isinstance(cause, Cause) else cause()
    if not isinstance(made, Cause):
        raise TypeError(f"the function given as {row}'s cause returned {made!r}, not a Cause")
    return made


def row_problems(entry: Entry) -> list[str]:
    """What is wrong with a stored row under the rules, as readable strings (none: ``[]``).

    Its status is derived again from its evidence and must be the stored one; a row
    that differs must carry a cause and a row that does not must carry none
    (:func:`cause_where_differs`); a NaN or infinite value never passes.
    """
    try:
        status = entry.derived_status()
    except ValueError as err:
        return [str(err)]
    out = []
    if status != entry.status:
        out.append(
            f"status {entry.status!r} but its evidence gives {status!r} (paper "
            f"{entry.paper}, ours {entry.ours}, tol={entry.tol})"
        )
    if entry.status == "differs" and entry.cause is None:
        out.append("differs without a cause")
    if entry.status != "differs" and entry.cause is not None:
        out.append(f"{entry.status} but carries a cause ({entry.cause.kind})")
    if entry.status != "differs" and any(
        _is_non_finite(v)
        for v in (entry.ours, entry.paper, entry.ours_value, entry.paper_value)
        if v is not None
    ):
        out.append(
            f"marked {entry.status} with a NaN or infinite value (paper {entry.paper}, "
            f"ours {entry.ours})"
        )
    return out


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
