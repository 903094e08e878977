"""The measures ledger: every row, from the evidence, with the ids of the claims it checks.

:func:`ledgers` is the only place this folder adds rows.  The ledger judges what four
sources say about the standard measures: Park & Read's Table 1 (its printed values come
with their ids from ``book/_claims/park_read2018.printed.csv``), Wu & Zhou's Table 1
and Sec. 2, and Zhang & Zhou's Sec. 2.2.2; Hivemall's rows are built in Hivemall's own
folder and come in as a guest (``guests``).  No status is written here: each row goes
through a claim kind of :class:`mlcrepro.ledger.Ledger`.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from mlcrepro.evidence_common import IDENTITY_TOL, identity_gap
from mlcrepro.ledger import Ledger, within_tolerance
from mlcrepro.printed_numbers import printed
from mlcrepro.summary import verdict_table
from mlcrepro.zhang_zhou2014.collect import DRAWS, Evidence
from mlcrepro.zhang_zhou2014.measurements import DEFINITIONS

__all__ = [
    "ledgers",
    "verdicts",
    "compared",
    "against_sklearn",
    "GROUPS",
    "PAPERS",
    "TABLE1_IDS",
    "ZZ_IDS",
    "SKLEARN_TOL",
]

#: the sources the ledger's rows are about (each row's source starts with its authors)
PAPERS = "Zhang & Zhou (2014); Wu & Zhou (2017); Park & Read (2018); Hivemall"
#: Wu & Zhou's Table 1 definitions checked against scikit-learn in one row (all but one-error)
TABLE1_IDS = [f"WZ{k:03d}" for k in (4, 5, 6, 8, 9, 10, 11, 12, 13, 14)]
#: the inventory ids (``book/_claims/zhang_zhou2014.csv``) of Zhang & Zhou's definitions
ZZ_IDS = dict(zip(DEFINITIONS, ("ZZ001", "ZZ002", "ZZ003", "ZZ004", "ZZ005")))
#: the verdict table's groups: label -> pattern of the rows' sources (first match wins)
GROUPS = {
    "Park & Read, Table 1": r"^Park & Read",
    "Hivemall, F-measure": r"^Hivemall",
    "Zhang & Zhou, Sec. 2.2.2": r"^Zhang & Zhou",
    "Wu & Zhou, Table 1": r"^Wu & Zhou, Table 1",
    "Wu & Zhou, Sec. 2, Thm 1": r"^Wu & Zhou",
}
ZZ_SOURCE = "Zhang & Zhou, Sec. 2.2.2"
#: tolerance of mlcbook against scikit-learn: the two sum the same terms in another order
SKLEARN_TOL = 1e-12


def _park_read_rows(led: Ledger, table: pd.DataFrame) -> None:
    for r in printed("park_read2018", "Table 1").itertuples():
        add = led.number if "." in r.value else led.exact  # "0"/"1": an indicator
        add(
            f"{r.column} similarity of {r.row}",
            "Park & Read, Table 1",
            paper=r.value,
            ours=table.loc[r.row, r.column],
            claim_id=r.id,
        )
    for r in printed("park_read2018", "Table 1 caption").itertuples():
        led.number(
            f"average {r.column} similarity",
            "Park & Read, Table 1 caption",
            paper=r.value,
            ours=table.loc["mean", r.column],
            claim_id=r.id,
        )


def _convention_rows(led: Ledger, ev: Evidence) -> None:
    led.number(
        "Table 1's definitions: largest |mlcbook - scikit-learn| (and all_measures)",
        "Wu & Zhou, Table 1 (definitions)",
        paper="0",
        ours=ev.all_measures_gap,
        tol=SKLEARN_TOL,
        digits=1,
        note=f"{ev.measures_compared} measures; tol 1e-12: summation order only. One-error "
        "has no scikit-learn counterpart (unit tests: brute force)",
        claim_id=TABLE1_IDS,
    )
    const = ev.constant_scorer
    led.exact(
        "constant F gets instance-AUC 1 under the literal definitions",
        "Wu & Zhou, Sec. 2",
        paper=1,
        ours=const["literal"],
        note=f"ties counted as half (scikit-learn, ours): {const['ours']:.1f}",
        claim_id="WZ001",
    )
    one = ev.single_label
    led.number(
        "one label per instance: Hamming loss = 2/q x error rate (the claim's value on our data)",
        ZZ_SOURCE,
        paper=f"{one['claimed']:.6f}",
        ours=one["hamming_loss"],
        claim_id="ZZ007",
    )
    eff = ev.effective_coverage
    led.number(
        "label-wise effective F: coverage = mean(|Y_i+| - 1) (the theorem's value on our data)",
        "Wu & Zhou, Theorem 1(c)",
        paper=f"{eff['theorem']:.6f}",
        ours=eff["coverage"],
        claim_id="WZ048",
    )


def _definition_rows(led: Ledger, ev: Evidence) -> None:
    for name, call in DEFINITIONS.items():
        led.number(
            f"Zhang & Zhou's {name} is scikit-learn's {call} "
            f"(largest |difference|, {DRAWS} random pairs)",
            f"{ZZ_SOURCE}, {name}",
            paper="0",
            ours=identity_gap(ev.definition_gaps[name]),
            tol=IDENTITY_TOL,
            digits=12,
            claim_id=ZZ_IDS[name],
        )
    fb = ev.f_beta_combination
    led.number(
        "F^beta_exam = (1+b^2) P R / (b^2 P + R) of the averaged Precision_exam and "
        "Recall_exam (largest |difference|, b = 0.5, 1, 2)",
        ZZ_SOURCE + ", F^beta_exam",
        paper="0",
        ours=identity_gap(fb["gap"]),
        tol=IDENTITY_TOL,
        digits=12,
        claim_id="ZZ006",
    )
    led.number(
        "F^1_exam is the harmonic mean of Precision_exam and Recall_exam (|difference|)",
        ZZ_SOURCE + ", F^beta_exam",
        paper="0",
        ours=identity_gap(fb["harmonic"]),
        tol=IDENTITY_TOL,
        digits=12,
        note=f"the mean of per-instance F1 is another quantity: {fb['other']:.4f} away "
        "on the same pair",
        claim_id="ZZ006",
    )


def _strictness_row(led: Ledger, ev: Evidence) -> None:
    s = ev.strictness
    shown = ", ".join(f"q={q}: {a:.3f}" for q, a in zip(s.qs, s.subset_accuracy))
    led.ordering(
        "subset accuracy is overly strict when q is large (falls with q at a fixed "
        "per-label accuracy)",
        ZZ_SOURCE + ", Subset Accuracy",
        paper="tends to be overly strict especially when q is large",
        rule=f"per-label accuracy {s.accuracy:g}, n = {s.n}: subset accuracy falls "
        f"strictly as q grows ({shown}; expected {s.accuracy:g}^q) while the Hamming loss "
        f"stays {min(s.hamming_loss):.3f}-{max(s.hamming_loss):.3f}",
        holds=s.holds,
        robustness=(s.hits, s.resamples),
        over="seeded samples",
        claim_id="ZZ008",
    )


def _one_error_row(led: Ledger, ev: Evidence) -> None:
    led.number(
        f"one-error as defined in Table 1 equals a brute-force count (largest "
        f"|difference|, {DRAWS} random pairs)",
        "Wu & Zhou, Table 1",
        paper="0",
        ours=identity_gap(ev.one_error_gap),
        tol=IDENTITY_TOL,
        digits=12,
        claim_id="WZ007",
    )


def ledgers(evidence: Evidence, *, guests: Sequence[Ledger]) -> dict[str, Ledger]:
    """The page's one ledger, ``{"measures": Ledger}``, every row with its claim ids.

    In order: Park & Read's Table 1 (every entry and the three means); the guests' rows
    (Hivemall's, built by :func:`mlcrepro.hivemall.rows`); the agreement of every
    measure with scikit-learn; the constant scorer; Zhang & Zhou's single-label remark;
    Wu & Zhou's Theorem 1(c); Zhang & Zhou's definitions, F-combination and the
    strictness of subset accuracy; Wu & Zhou's one-error.

    Parameters
    ----------
    evidence : Evidence
        :func:`mlcrepro.zhang_zhou2014.evidence`.
    guests : sequence of Ledger
        The rows of the other sources this page reproduces, built in their own folders
        (required: without them the ledger would silently lack their rows).

    Raises
    ------
    TypeError
        If ``evidence`` is not an :class:`Evidence` or a guest not a Ledger.
    """
    if not isinstance(evidence, Evidence):
        raise TypeError(
            f"evidence must be mlcrepro.zhang_zhou2014's Evidence, got {type(evidence).__name__}"
        )
    if isinstance(guests, Ledger) or not all(isinstance(g, Ledger) for g in guests):
        raise TypeError("guests must be a sequence of mlcrepro.ledger.Ledger")
    led = Ledger("measures", PAPERS)
    _park_read_rows(led, evidence.park_read_table1)
    for guest in guests:  # rows already judged by their own folder's ledger
        led.entries.extend(guest.entries)
    _convention_rows(led, evidence)
    _definition_rows(led, evidence)
    _strictness_row(led, evidence)
    _one_error_row(led, evidence)
    return {"measures": led}


def verdicts(ledger: Ledger) -> pd.DataFrame:
    """The ledger in one line per source and group of claims (:data:`GROUPS`)."""
    return verdict_table(ledger.to_frame(), GROUPS)


def compared(ledger: Ledger, group: str) -> pd.DataFrame:
    """The rows of one group of :data:`GROUPS` as claim / ours / paper / status.

    The shape :func:`mlcrepro.display.comparison_table` reads: ``claim`` (the row's
    claim), ``ours`` and ``paper`` (numbers; an exact row's text read as a number, NaN
    for an ordering), ``status``, and ``claim_id`` and ``cause`` (the row's first claim
    id and its cause's kind, linked from a verdict that does not agree).  The tolerances
    (half a unit of the paper's last printed digit; 1e-12 for an identity) are left to
    the caption: a column of them would print 1e-12 as twelve decimals.

    Raises
    ------
    ValueError
        If ``group`` is not a key of :data:`GROUPS`.
    """
    if group not in GROUPS:
        raise ValueError(f"group must be one of {list(GROUPS)}, got {group!r}")
    frame = ledger.to_frame()
    rows = frame[frame["source"].str.contains(GROUPS[group])]
    for earlier in list(GROUPS)[: list(GROUPS).index(group)]:  # first match wins
        rows = rows[~rows["source"].str.contains(GROUPS[earlier])]
    return pd.DataFrame(
        {
            "claim": rows["claim"],
            "ours": _as_number(rows["ours_value"], rows["ours"]),
            "paper": _as_number(rows["paper_value"], rows["paper"]),
            "status": rows["status"],
            "claim_id": rows["claim_ids"].str.split().str[0],
            "cause": rows["cause"].fillna(""),
        }
    ).reset_index(drop=True)


def _as_number(value: pd.Series, text: pd.Series) -> pd.Series:
    """A row's number: its stored value, else its text read as a number (NaN for text
    that is no number, such as an ordering).  Each column keeps its own dtype: the text
    is read as numbers before it fills the gaps of the float column."""
    return pd.to_numeric(value, errors="coerce").combine_first(
        pd.to_numeric(text, errors="coerce")
    )


def against_sklearn(evidence: Evidence) -> pd.DataFrame:
    """Each measure beside scikit-learn's, judged by the rule of its ledger row.

    The rows of ``evidence.sklearn_comparison`` that have a scikit-learn counterpart
    (one-error has none), as ``measure``, ``ours``, ``scikit-learn`` and ``status``
    (``reproduced`` where :func:`mlcrepro.ledger.within_tolerance` holds with
    :data:`SKLEARN_TOL`, else ``differs``), the shape
    :func:`mlcrepro.display.comparison_table` reads with ``theirs="scikit-learn"``.
    """
    if not isinstance(evidence, Evidence):
        raise TypeError(
            f"evidence must be mlcrepro.zhang_zhou2014's Evidence, got {type(evidence).__name__}"
        )
    both = evidence.sklearn_comparison.dropna()
    ok = [
        within_tolerance(t, o, SKLEARN_TOL) for o, t in zip(both["mlcbook"], both["scikit-learn"])
    ]
    return pd.DataFrame(
        {
            "measure": both.index,
            "ours": both["mlcbook"].to_numpy(),
            "scikit-learn": both["scikit-learn"].to_numpy(),
            "status": ["reproduced" if k else "differs" for k in ok],
        }
    )
