"""The reproduction ledger of the LIMO chapter (Wu & Zhou 2017), and its verdict table.

:func:`limo_ledger` builds every row of ``book/limo.md``'s ledger from the evidence of
:mod:`.limo_evidence`, each row carrying the id(s) of the claim(s) of the inventory
``book/_claims/wu-zhou-2017.csv`` it checks; the printed values and their ids come from
``book/_claims/wu-zhou-2017.printed.csv`` (:func:`mlcrepro.claims.printed`).  No status
is written here: each row goes through a claim kind of :class:`mlcrepro.ledger.Ledger`.
:func:`limo_verdicts` condenses the ledger to one line per group of claims.
"""

from __future__ import annotations

import pandas as pd

from mlcrepro.ledger import Cause, Ledger
from mlcrepro.summary import verdict_table
from mlcrepro.wu_zhou2017 import evidence as EV
from mlcrepro.wu_zhou2017 import limo_evidence as E
from mlcrepro.wu_zhou2017 import report as R

__all__ = ["limo_ledger", "limo_verdicts", "GROUPS", "BOUND_IDS", "SYNTHETIC_IDS", "FIG4"]

#: Theorems 4 and 5's bounds: (theorem, measure) -> claim id
BOUND_IDS = {
    ("Thm 4", "instance-F1"): "WZ051",
    ("Thm 4", "Hamming loss"): "WZ052",
    ("Thm 5", "macro-F1"): "WZ053",
    ("Thm 5", "Hamming loss"): "WZ054",
}
#: Sec. 5.1's readings, in the order of :func:`.report.synthetic_claims`: claim ids
SYNTHETIC_IDS = ("WZ057", "WZ058", "WZ059", "WZ061", "WZ062", "WZ060")
#: Fig. 4's readings: key of :func:`.report.rank_rule` -> (claim text, out of, claim id)
FIG4 = {
    "inst_macro": (
        "LIMO-inst ahead of LIMO-label on macro-F1 and macro-AUC (avg. rank)",
        2,
        "WZ112",
    ),
    "label_other": (
        "LIMO-label ahead of LIMO-inst on the other nine measures (avg. rank)",
        9,
        "WZ113",
    ),
    "limo_top2": ("LIMO among the top two average ranks", 11, "WZ114"),
}
#: the verdict table's groups: label -> pattern of the rows' sources (first match wins)
GROUPS = {
    "Table 2: margins vs measures": r"^Table 2",
    "Thms 3-5: bounds, proofs": r"^(Thm|Theorem)",
    "Sec. 2.2: constant F": r"^Sec\. 2\.2",
    "Sec. 4.2: unbiased SGD": r"^Sec\. 4\.2",
    "Sec. 5.1: synthetic readings": r"^Sec\. 5\.1",
    "Tables B.1-B.2: synthetic": r"^Table B\.[12]",
    "Fig. 4: average ranks": r"^Fig\. 4",
    "Sec. 5.2: datasets, rank": r"^Sec\. 5\.2",
    "Table B.3: benchmarks": r"^Table B\.3",
}


def _table2_rows(led: Ledger, causes: dict[str, Cause]) -> None:
    t2, growth = E.table2(), E.micro_auc_growth()["mean micro-AUC"]
    _, ids = R.paper_table2()
    for k, r in t2.iterrows():
        claim, src = f"Table 2 row: {R.NAMES[k]}", "Table 2, Thms 1-5"
        if k == "micro_auc":  # Theorem 3 claims a limit as m grows, not equality
            ev = (
                f"{r.ours}; mean micro-AUC of double effective F {growth.iloc[0]:.3f} ->"
                f" {growth.iloc[-1]:.4f} for m = 20 -> 2000"
            )
            agrees = bool(growth.is_monotonic_increasing and growth.iloc[-1] > 0.99)
            led.qualitative(claim, src, paper=r.paper, evidence=ev, agrees=agrees, claim_id=ids[k])
        else:
            cause = causes["table2_micro"] if r.ours != r.paper else None
            led.exact(claim, src, paper=r.paper, ours=r.ours, cause=cause, claim_id=ids[k])


def _bound_rows(led: Ledger, causes: dict[str, Cause]) -> None:
    for (thm, meas), d in E.bound_draws().groupby(["theorem", "measure"]):
        if meas == "micro-F1":
            continue  # not bounded: the counter-example, in the micro = instance row
        side, bound = ("<=", "upper") if meas == "Hamming loss" else (">=", "lower")
        led.ordering(
            f"Theorem {thm[-1]}: {meas} {bound} bound",
            f"{thm}, App. A",
            paper="holds for every threshold error",
            rule=f"{meas} {side} bound on {len(d)} random effective F (ε = 1, 2, 3)",
            holds=bool(d.holds.all()),
            over="cases",
            robustness=(int(d.holds.sum()), len(d)),
            cause=None if d.holds.all() else causes["limo_other"],
            claim_id=BOUND_IDS[(thm, meas)],
        )


def _inequality_row(led: Ledger) -> None:
    iq, mc = E.inequality2_grid(), E.inequality2_mc()
    ok = iq.p_c_gt_b >= iq.paper_rhs
    led.ordering(
        "Theorem 3 proof: inequality (2)",
        "Thm 3 proof, Eq. (2)",
        paper="Pr[C > B] >= (1 - a/2)[1 - (1 - a)^n]",
        over="(a, n)",
        rule="exact probabilities on a grid of (a, n)",
        holds=bool(ok.all()),
        robustness=(int(ok.sum()), len(ok)),
        note=f"its middle equality is wrong: at a = 0.1, n = 10 the event has "
        f"probability {mc['p_event']:.3f} (Monte Carlo), not {mc['paper_rhs']:.3f}",
        claim_id="WZ049",
    )


def _constant_rows(led: Ledger) -> None:
    const = E.constant()
    for k, paper_v, cid in (("one_error", "0", "WZ002"), ("coverage", "0", "WZ003")):
        lenient, strict = const.loc[k].iloc[1], const.loc[k].iloc[0]
        led.qualitative(
            f"constant F: {R.NAMES[k]} {paper_v} under the literal definition",
            "Sec. 2.2",
            paper=paper_v,
            agrees=bool(lenient == float(paper_v)),
            evidence=f"{lenient:g} with ties in F's favour, {strict:.3f}"
            " with mlcbook.metrics' ties",
            claim_id=cid,
        )


def _synthetic_rows(led: Ledger, causes: dict[str, Cause]) -> None:
    led.qualitative(
        "synthetic data regions",
        "Sec. 5.1, Fig. 1",
        agrees=False,
        paper="Figure 1 (missing from our copy)",
        evidence="our four-quadrant design, label sets {A}, {A,B,C}, {A,C}, {B,C,D}",
        cause=causes["fig1"],
        claim_id="WZ056",
    )
    for (text, holds, hits, n), cid in zip(R.synthetic_claims(E.synthetic()), SYNTHETIC_IDS):
        led.ordering(
            text,
            "Sec. 5.1, Figs 2-3",
            paper="holds",
            rule="on the mean of 10 replications",
            holds=holds,
            robustness=(hits, n),
            over="replications",
            cause=None if holds else causes["fig1"],
            claim_id=cid,
        )
    tables = E.synthetic_tables()
    for src, k in (("Table B.1", "b1"), ("Table B.2", "b2")):
        R.add_synthetic_table(led, src, tables[k], causes["fig1"])
    for src, cols, cid in (
        ("Table B.1", R.VARIANTS, "WZ084"),
        ("Table B.2", R.B2_COLUMNS, "WZ109"),
    ):
        EV.add_rescaling_consistency(led, R.paper_pairs(src)[0], cols, src, claim_id=cid)


def _rank_rows(led: Ledger, causes: dict[str, Cause]) -> None:
    bench, (mean, _) = E.benchmark(), E.benchmark_means()
    paper = R.paper_b3()
    pp = paper[paper.dataset.isin(R.DS_PAPER.values())]
    avg_paper = pp.pivot_table(
        index="measure", columns="method", values="rank", aggfunc="mean"
    ).loc[R.B3_ORDER, R.METHODS]
    ours_c, paper_c = R.rank_rule(R.average_ranks(mean)), R.rank_rule(avg_paper)
    for key, (text, of, cid) in FIG4.items():
        holds = ours_c[key] >= paper_c[key]
        led.ordering(
            text,
            "Fig. 4",
            paper=f"{paper_c[key]} of {of}",
            rule=f"ours {ours_c[key]} >= {paper_c[key]} of {of} (paper's ranks, 4 sets)",
            holds=holds,
            robustness=R.rank_rule_robustness(bench, key, paper_c[key]),
            over="single splits",
            cause=None if holds else causes["limo_other"],
            claim_id=cid,
        )
    lr = paper[(paper.method == "LIMO") & (paper.measure == "ranking_loss")]
    led.number(
        "worked average rank of LIMO on ranking loss",
        "Sec. 5.2",
        paper="1.4",
        ours=lr["rank"].mean(),
        note="from the paper's Table B.3 ranks",
        claim_id="WZ111",
    )
    ours_r = [R.average_ranks(mean.loc[[d]]).loc["ranking_loss", "LIMO"] for d in R.DS_PAPER]
    led.exact(
        "corel5k",
        "Sec. 5.2",
        paper="5 benchmarks",
        ours=f"{len(ours_r)} run",
        cause=causes["corel5k"],
        claim_id="WZ110",
    )


def _side_rows(led: Ledger, causes: dict[str, Cause]) -> None:
    bench, cex = E.benchmark(), E.counterexample()
    limo_rows = bench[bench.method.isin(["LIMO-label", "LIMO"])]
    diff = (limo_rows["micro_f1"] - limo_rows["instance_f1"]).abs()
    led.qualitative(
        "micro-F1 = instance-F1 (label-wise effective F, i.i.d. instances)",
        "Thm 4, App. A.1",
        paper="equal",
        agrees=False,
        evidence=f"median |difference| {diff.median():.3f} on our LIMO runs; micro-F1 "
        f"{cex['micro_f1']:.3f} < Theorem 4's bound {cex['bound']:.3f} (counter-example)",
        cause=causes["micro_eq"],
        claim_id="WZ050",
    )
    objective = E.objective().objective
    led.qualitative(
        "Algorithm 1 is unbiased SGD for Eq. (3)",
        "Sec. 4.2, App. A.3",
        paper="unbiased",
        agrees=bool(objective.iloc[-1] < objective.iloc[0]),
        evidence="shrinkage applied only to violated pairs (the proof assumes it always "
        "is); the objective still falls (see 'LIMO')",
        claim_id="WZ055",
    )


def limo_ledger() -> Ledger:
    """Every row of the LIMO chapter's ledger, in the chapter's order, with claim ids.

    Table 2 by construction; Theorems 4-5's bounds and inequality (2) of Theorem 3's
    proof; Sec. 2.2's constant predictor; the synthetic experiment (Sec. 5.1, Tables
    B.1-B.2 and their rescaling); Fig. 4's readings and Sec. 5.2's worked rank; every
    cell of Table B.3 of our four datasets; the two side claims (micro-F1 = instance-F1,
    Algorithm 1 unbiased).  The shared causes are made once (:func:`.limo_evidence.causes`).
    """
    led = Ledger("limo", "Wu & Zhou (2017)")
    causes = E.causes()
    _table2_rows(led, causes)
    _bound_rows(led, causes)
    _inequality_row(led)
    _constant_rows(led)
    _synthetic_rows(led, causes)
    _rank_rows(led, causes)
    mean, _ = E.benchmark_means()
    R.add_b3(led, R.paper_b3(), mean, R.b3_cause(causes, cells=E.authors_cell_causes()))
    _side_rows(led, causes)
    return led


def limo_verdicts(led: Ledger) -> pd.DataFrame:
    """The ledger in one line per group of claims (:data:`GROUPS`): counts and verdict."""
    return verdict_table(led.to_frame(), GROUPS)
