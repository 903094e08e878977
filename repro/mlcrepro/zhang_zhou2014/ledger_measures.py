"""The reproduction ledger of the measures chapter, and its verdict table.

:func:`measures_ledger` builds every row of ``book/measures.md``'s ledger from the
evidence of :mod:`.measures_evidence` and the definition checks of
:mod:`mlcrepro.zhang_zhou2014.evidence` (Zhang & Zhou) and
:mod:`mlcrepro.wu_zhou2017.evidence`, each row carrying the id(s) of the claim(s) it
checks in the inventories of Zhang & Zhou (2014),
Wu & Zhou (2017), Park & Read (2018) and Hivemall (``book/_claims``).  The printed
values of Park & Read's Table 1 and of Hivemall's guide come with their ids from
``book/_claims/<paper>.printed.csv`` (:func:`mlcrepro.claims.printed`).  No status is
written here: each row goes through a claim kind of :class:`mlcrepro.ledger.Ledger`.
"""

from __future__ import annotations

import pandas as pd

from mlcrepro.claims import printed
from mlcrepro.ledger import Ledger
from mlcrepro.summary import verdict_table
from mlcrepro.wu_zhou2017 import evidence as wz
from mlcrepro.zhang_zhou2014 import evidence as ev
from mlcrepro.zhang_zhou2014 import measures_evidence as E

__all__ = ["measures_ledger", "measures_verdicts", "GROUPS", "PAPERS", "DEFINITION_IDS"]

#: the papers the chapter's rows are about (each row's source starts with its authors)
PAPERS = "Zhang & Zhou (2014); Wu & Zhou (2017); Park & Read (2018); Hivemall"
#: Wu & Zhou's Table 1 definitions checked against scikit-learn in one row (all but one-error)
DEFINITION_IDS = [
    "WZ004",
    "WZ005",
    "WZ006",
    "WZ008",
    "WZ009",
    "WZ010",
    "WZ011",
    "WZ012",
    "WZ013",
    "WZ014",
]
#: the verdict table's groups: label -> pattern of the rows' sources (first match wins)
GROUPS = {
    "Park & Read, Table 1": r"^Park & Read",
    "Hivemall, F-measure": r"^Hivemall",
    "Zhang & Zhou, Sec. 2.2.2": r"^Zhang & Zhou",
    "Wu & Zhou, Table 1": r"^Wu & Zhou, Table 1",
    "Wu & Zhou, Sec. 2, Thm 1": r"^Wu & Zhou",
}


def _park_read_rows(led: Ledger) -> None:
    table = E.park_read_table1()
    for r in printed("park-read-2018", "Table 1").itertuples():
        add = led.number if "." in r.value else led.exact  # "0"/"1": an indicator
        add(
            f"{r.column} similarity of {r.row}",
            "Park & Read, Table 1",
            paper=r.value,
            ours=table.loc[r.row, r.column],
            claim_id=r.id,
        )
    for r in printed("park-read-2018", "Table 1 caption").itertuples():
        led.number(
            f"average {r.column} similarity",
            "Park & Read, Table 1 caption",
            paper=r.value,
            ours=table.loc["mean", r.column],
            claim_id=r.id,
        )


def _hivemall_rows(led: Ledger) -> None:
    hm, src = E.hivemall(), "Hivemall guide, fmeasure"
    (f1, id1), (f2, id2) = ((r.value, r.id) for r in printed("hivemall").itertuples())
    led.number(
        "micro F1 of the cat/dog/bird example",
        src,
        paper=f1,
        ours=hm["f1"],
        digits=16,
        claim_id=id1,
    )
    led.number(
        "micro F2 of the cat/dog/bird example",
        src + " -beta 2",
        paper=f2,
        ours=hm["f2"],
        digits=16,
        claim_id=id2,
    )
    led.exact(
        "scikit-learn's micro F2 prints Hivemall's value to the last digit",
        src + ", equations",
        paper=f2,
        ours=repr(hm["sk_f2"]),
        note="beta^2 (tp + fn) + tp + fp = (1 + beta^2) tp + beta^2 fn + fp",
        claim_id="HM003",
    )
    led.ordering(
        "F_beta -> micro recall (beta large), micro precision (beta small)",
        "Hivemall guide, F-measure",
        paper="large beta: recall; small beta: precision",
        rule="|F_1000 - micro recall| < 1e-5 and |F_0.001 - micro precision| < 1e-5",
        holds=abs(hm["f_big"] - hm["recall"]) < 1e-5
        and abs(hm["f_tiny"] - hm["precision"]) < 1e-5,
        claim_id="HM004",
    )


def _convention_rows(led: Ledger) -> None:
    gap, n_compared = E.all_measures_gap()
    led.number(
        "Table 1's definitions: largest |mlcbook - scikit-learn| (and all_measures)",
        "Wu & Zhou, Table 1 (definitions)",
        paper="0",
        ours=gap,
        tol=1e-12,
        digits=1,
        note=f"{n_compared} measures; tol 1e-12: summation order only. One-error has no "
        "scikit-learn counterpart (unit tests: brute force)",
        claim_id=DEFINITION_IDS,
    )
    const = E.constant_scorer()
    led.exact(
        "constant F gets instance-AUC 1 under the literal definitions",
        "Wu & Zhou, Sec. 2",
        paper=1,
        ours=const["literal"],
        note=f"ties counted as half (scikit-learn, ours): {const['ours']:.1f}",
        claim_id="WZ001",
    )
    one = E.single_label()
    led.number(
        "one label per instance: Hamming loss = 2/q x error rate (the claim's value on our data)",
        "Zhang & Zhou, Sec. 2.2.2",
        paper=f"{one['claimed']:.6f}",
        ours=one["hamming_loss"],
        claim_id="ZZ007",
    )
    eff = E.effective_coverage()
    led.number(
        "label-wise effective F: coverage = mean(|Y_i+| - 1) (the theorem's value on our data)",
        "Wu & Zhou, Theorem 1(c)",
        paper=f"{eff['theorem']:.6f}",
        ours=eff["coverage"],
        claim_id="WZ048",
    )


def measures_ledger() -> Ledger:
    """Every row of the measures chapter's ledger, in the chapter's order, with claim ids.

    Park & Read's Table 1 (every entry and the three means); Hivemall's two printed
    values, scikit-learn's agreement and the limits in beta; the agreement of every
    measure with scikit-learn; the constant scorer; Zhang & Zhou's single-label remark;
    Wu & Zhou's Theorem 1(c); then Zhang & Zhou's definitions
    (:mod:`mlcrepro.zhang_zhou2014.evidence`) and
    Wu & Zhou's one-error (:func:`mlcrepro.wu_zhou2017.evidence.add_one_error_definition`).
    """
    led = Ledger("measures", PAPERS)
    _park_read_rows(led)
    _hivemall_rows(led)
    _convention_rows(led)
    ev.add_example_based_definitions(led)
    ev.add_f_beta_combination(led)
    ev.add_subset_accuracy_strictness(led)
    wz.add_one_error_definition(led)
    return led


def measures_verdicts(led: Ledger) -> pd.DataFrame:
    """The ledger in one line per source and group of claims (:data:`GROUPS`)."""
    return verdict_table(led.to_frame(), GROUPS)
