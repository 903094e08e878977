"""The reproduction ledger: what the paper says, what we get, and whether they agree.

Each chapter builds one :class:`Ledger`, adds a row per checkable claim, shows it
as its last table, calls :meth:`Ledger.check` and :meth:`Ledger.check_against_committed`
(what the page computes must be the ledger saved under ``book/_ledgers/``; ``make
chapter`` writes it there first, with :meth:`Ledger.save`).
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
A row that differs carries its cause (:class:`Cause`), and only such a row: a cause
given to a row that agrees is not kept (:func:`cause_where_differs`, the one rule
for causes).  A cause is :func:`paper_error` (with
the proof), :func:`underspecified` (naming what the paper omits), :func:`tested`
(pointing at the computation that tested it) or :func:`unknown` (said plainly,
with what was tried).  A cause shared by many rows is made once and passed to
each; the rendered ledger prints its text once, below the table.

The package in three parts
--------------------------
``mlcrepro.ledger.rules``
    the statuses, the claim kinds' rules, the causes and the rule that keeps a cause
    only where a row differs;
``mlcrepro.ledger.storage``
    the saved CSV: written atomically, read back checked column by column, compared
    with a ledger (:meth:`Ledger.save`, :meth:`Ledger.check_against_committed`);
``mlcrepro.ledger.html``
    the rendered table;

and ``mlcrepro.ledger.core``, the :class:`Ledger` that gathers the rows.
"""

from mlcrepro.ledger.about import ABOUT_KEYS, row_about
from mlcrepro.ledger.core import Ledger
from mlcrepro.ledger.html import BADGES, row_anchor
from mlcrepro.ledger.rules import (
    CAUSE_KINDS,
    CLAIM_ID,
    KINDS,
    ORDERING_ROBUSTNESS,
    SPREAD_OF,
    STATUSES,
    WORDS,
    Cause,
    CauseGiven,
    Entry,
    cause_where_differs,
    check_claim_ids,
    derive_status,
    material_unavailable,
    paper_error,
    recheck_statuses,
    section,
    section_refs,
    tested,
    underspecified,
    unknown,
    within_tolerance,
)
from mlcrepro.ledger.settle import cause_families, settle_by, settler
from mlcrepro.ledger.storage import load_ledgers

__all__ = [
    "Ledger",
    "row_about",
    "ABOUT_KEYS",
    "Entry",
    "Cause",
    "STATUSES",
    "KINDS",
    "CAUSE_KINDS",
    "WORDS",
    "CLAIM_ID",
    "derive_status",
    "cause_where_differs",
    "CauseGiven",
    "paper_error",
    "underspecified",
    "tested",
    "unknown",
    "material_unavailable",
    "SPREAD_OF",
    "ORDERING_ROBUSTNESS",
    "load_ledgers",
    "recheck_statuses",
    "section",
    "section_refs",
    "row_anchor",
    "within_tolerance",
    "check_claim_ids",
    "BADGES",
    "settle_by",
    "settler",
    "cause_families",
]
