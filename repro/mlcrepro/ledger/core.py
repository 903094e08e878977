"""The :class:`Ledger`: a chapter's rows, added by the rule of their kind, and checked.

The rules (:mod:`mlcrepro.ledger.rules`) derive each row's status and decide its cause;
the storage (:mod:`mlcrepro.ledger.storage`) writes and reads its file and compares it
with the committed one; :mod:`mlcrepro.ledger.html` renders it.  This module only
gathers the rows.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from decimal import Decimal
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from mlcbook.validation import Int, Real, check_name, validate_params
from mlcrepro.display import printed_decimals
from mlcrepro.ledger import html, storage
from mlcrepro.ledger.about import row_about
from mlcrepro.ledger.rules import (
    CAUSE_KINDS,
    SPREAD_OF,
    STATUSES,
    Cause,
    CauseGiven,
    Entry,
    cause_where_differs,
    check_claim_ids,
    row_problems,
)

__all__ = ["Ledger"]


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


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
    >>> from mlcrepro.ledger import tested
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
        cause: CauseGiven | None,
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

    def _append(self, entry: Entry, cause: CauseGiven | None, claim_id: Any = "") -> Entry:
        entry.claim_ids = check_claim_ids(claim_id)
        entry.status = entry.derived_status()
        entry.cause = cause_where_differs(
            entry.status,
            cause,
            f"row {entry.claim!r} (paper {entry.paper or '-'}, ours {entry.ours})",
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
        cause: CauseGiven | None = None,
        note: str = "",
        claim_id: str | list[str] = "",
        about: Mapping[str, Any] | None = None,
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
        cause : Cause or a function making one, optional
            Required when the row differs; kept only then (a function is called only
            then), by the rule :func:`cause_where_differs`.
        note : str
            A remark (for rows that agree; a difference's explanation is its cause).
        claim_id : str or list of str
            The inventory id(s) of the claim(s) the row checks (``"HU012"``).
        about : mapping of str to str, number or tuple of them, optional
            What the row is about, as data (:func:`row_about`): the keys the pages'
            tables and ``mlcrepro check --recompute`` select rows by, so that no code
            reads them back from the claim's wording.
        """
        return self._numeric(
            "number",
            claim,
            source,
            paper,
            ours,
            tol,
            None,
            digits,
            cause,
            note,
            claim_id,
            about=about,
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
        cause: CauseGiven | None = None,
        note: str = "",
        claim_id: str | list[str] = "",
        spread_of: str = "paper",
        about: Mapping[str, Any] | None = None,
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
            about=about,
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
        about=None,
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
            about=row_about(about),
        )

    def exact(
        self,
        claim: str,
        source: str,
        *,
        paper: Any,
        ours: Any,
        cause: CauseGiven | None = None,
        note: str = "",
        claim_id: str | list[str] = "",
        about: Mapping[str, Any] | None = None,
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

        return self._add(
            "exact",
            claim,
            source,
            text(paper),
            text(ours),
            cause,
            note,
            claim_id,
            about=row_about(about),
        )

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
        cause: CauseGiven | None = None,
        note: str = "",
        claim_id: str | list[str] = "",
        about: Mapping[str, Any] | None = None,
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
            about=row_about(about),
        )

    def qualitative(
        self,
        claim: str,
        source: str,
        *,
        paper: str,
        evidence: str,
        agrees: bool,
        cause: CauseGiven | None = None,
        note: str = "",
        claim_id: str | list[str] = "",
        about: Mapping[str, Any] | None = None,
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
            about=row_about(about),
        )

    # ------------------------------------------------------------------ reading
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
        entries = storage.entries_from_frame(frame)
        led = cls(chapter, paper)
        led.entries.extend(entries)
        return led

    # --------------------------------------------------------------- selecting
    def where(self, **about: Any) -> list[Entry]:
        """The rows about what ``about`` names (every given key equal), in ledger order.

        Examples
        --------
        >>> led = Ledger("demo", "A. Author (2020)")
        >>> _ = led.number("Hamming loss of BR on emotions", "Table 3", paper="0.20",
        ...                ours=0.2, about={"learner": "BR", "dataset": "emotions"})
        >>> [e.claim for e in led.where(learner="BR")]
        ['Hamming loss of BR on emotions']
        >>> led.where(learner="LP")
        []
        """
        wanted = row_about(about)
        return [
            e
            for e in self.entries
            if all(k in e.about and e.about[k] == v for k, v in wanted.items())
        ]

    # ---------------------------------------------------------------- checking
    def problems(self) -> list[str]:
        """Rows whose status is not the one their evidence gives, as readable strings.

        Every row's status is derived again from its stored evidence (there are no
        literal statuses); a row that differs must carry a cause, and only such a row
        (:func:`cause_where_differs`); NaN or infinite values
        never pass.
        """
        return [
            f"row {i} {e.claim!r}: {p}"
            for i, e in enumerate(self.entries, 1)
            for p in row_problems(e)
        ]

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

    # ----------------------------------------------------------------- storage
    def to_frame(self) -> pd.DataFrame:
        """The ledger as a table (one row per entry)."""
        return storage.entries_frame(self.entries)

    def file_frame(self) -> pd.DataFrame:
        """The table its file holds: :meth:`to_frame` with its chapter and paper."""
        check_name(self.chapter, "chapter")
        return storage.file_frame(self.entries, self.chapter, self.paper)

    def save(self, folder: str | Path | None = None) -> Path:
        """Write the ledger as CSV to ``folder/<chapter>.csv``, atomically; its path.

        ``make chapter`` writes the committed ledgers (``book/_ledgers``) so, through
        ``mlcrepro ledgers --write``.  Without ``folder`` nothing is written: the call
        is :meth:`check_against_committed` (the committed file's path is returned), as
        pages executed before that method was named call it.
        """
        if folder is None:
            self.check_against_committed()
            return storage.committed_folder() / f"{self.chapter}.csv"
        return storage.write_ledger(self.file_frame(), folder, self.chapter)

    def differences(self, folder: str | Path | None = None) -> list[str]:
        """How the ledger differs from its saved file in ``folder`` (``[]``: it does not).

        The default folder is the committed one (``book/_ledgers``).  Statuses and texts
        are compared exactly, numbers to a relative 1e-9 (their last bits may differ
        between CPUs); each difference names its row, claim and column.
        """
        folder = Path(folder) if folder is not None else storage.committed_folder()
        return storage.ledger_differences(self.file_frame(), folder / f"{self.chapter}.csv")

    def check_against_committed(self, folder: str | Path | None = None) -> None:
        """Raise AssertionError naming the rows that differ from the saved ledger.

        A page calls it after building its ledger: what the page computes must be what
        is committed (``book/_ledgers``, or ``folder``); a stale file fails loudly and
        says how to write it again.  Nothing is written.
        """
        folder = Path(folder) if folder is not None else storage.committed_folder()
        problems = self.differences(folder)
        if problems:
            raise AssertionError(
                f"the ledger differs from the saved {folder / f'{self.chapter}.csv'}:\n  "
                + "\n  ".join(problems)
                + "\nwrite it again with `make chapter NB=book/<its page>.md` (or "
                "`mlcrepro ledgers --write`) and commit it"
            )

    # --------------------------------------------------------------- rendering
    def shared_causes(self) -> dict[Cause, str]:
        """Causes given to two or more rows, labelled ``A``, ``B``, ... in order of use."""
        return html.shared_causes(self.entries)

    def _repr_html_(self) -> str:
        return html.ledger_html(self)

    def collapsed(self, title: str = "Ledger") -> html.Collapsed:
        """The ledger behind a toggle whose summary line says what it holds and how much.

        The line is the title, the number of rows and the rows by status, counted from
        the ledger (``"Ledger: 1 row (1 reproduced)"``).

        >>> led = Ledger("demo", "A. Author (2020)")
        >>> _ = led.exact("count", "Sec. 2", paper=1, ours=1)
        >>> led.collapsed().summary
        'Ledger: 1 row (1 reproduced)'
        >>> led.collapsed()._repr_html_().startswith("<details class='ledger-chapter")
        True
        """
        if not isinstance(title, str) or not title.strip():
            raise ValueError("title must be a non-empty string")
        counts = ", ".join(f"{v} {k}" for k, v in self.counts().items() if v)
        n = len(self.entries)
        return html.Collapsed(self, f"{title}: {n} row{'' if n == 1 else 's'} ({counts})")

    def __repr__(self) -> str:
        return html.ledger_text(self)
