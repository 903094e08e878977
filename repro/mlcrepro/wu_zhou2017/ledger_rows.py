"""The ledger of Wu & Zhou (2017): the only place its rows are added.

:func:`ledgers` turns the folder's :class:`~mlcrepro.wu_zhou2017.collect.Evidence`
into the ``limo`` ledger, in the order of the paper: Table 2 by construction; Theorems
4-5's bounds and inequality (2) of Theorem 3's proof; Sec. 2.2's constant predictor;
the synthetic study (Sec. 5.1, Tables B.1-B.2 and their rescaling); Fig. 4's readings
and Sec. 5.2's worked rank; every cell of Table B.3 of our four datasets; the two side
claims (micro-F1 = instance-F1, Algorithm 1 unbiased); and, last, the equality in the
middle of inequality (2), an erratum.  Each row carries the id(s) of
the claim(s) of the inventory ``book/_claims/wu_zhou2017.csv`` it checks; no status is
written here: every row goes through a claim kind of :class:`mlcrepro.ledger.Ledger`,
which derives it, and a differing row gets its cause
(:mod:`~mlcrepro.wu_zhou2017.causes`, :mod:`~mlcrepro.wu_zhou2017.authors_causes`).
:func:`verdicts` condenses the ledger to one line per group.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mlcrepro.ledger import ORDERING_ROBUSTNESS, Cause, Ledger, paper_error, section
from mlcrepro.summary import verdict_table
from mlcrepro.wu_zhou2017 import authors_causes as AC
from mlcrepro.wu_zhou2017 import causes as C
from mlcrepro.wu_zhou2017 import printed as P
from mlcrepro.wu_zhou2017.benchmark_solvers import solver_causes
from mlcrepro.wu_zhou2017.collect import OBJECTIVE_POINTS, Evidence
from mlcrepro.wu_zhou2017.conventions import convention_causes
from mlcrepro.wu_zhou2017.record import PAPER

__all__ = ["ledgers", "verdicts", "GROUPS", "BOUND_IDS", "SYNTHETIC_IDS", "FIG4"]

#: Theorems 4 and 5's bounds: (theorem, measure) -> claim id
BOUND_IDS = {
    ("Thm 4", "instance-F1"): "WZ051",
    ("Thm 4", "Hamming loss"): "WZ052",
    ("Thm 5", "macro-F1"): "WZ053",
    ("Thm 5", "Hamming loss"): "WZ054",
}
#: Sec. 5.1's readings, in the order of :func:`.analysis.synthetic_claims`: claim ids
SYNTHETIC_IDS = ("WZ057", "WZ058", "WZ059", "WZ061", "WZ062", "WZ060")
#: Fig. 4's readings: key of :func:`.analysis.rank_rule` -> (claim text, out of, claim id)
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


def _causes(ev: Evidence) -> dict[str, Cause]:
    """The shared causes, made once per ledger (a cause shared by rows is one object)."""
    out = C.make_causes()
    out["f1_threshold_bibtex"] = C.account_cause(ev.bibtex_check, "bibtex")
    out["limo_other_bibtex"] = C.passes_cause(ev.epochs_comparison)
    out["gfm"] = C.gfm_cause(ev.gfm_within)
    return out


def _cell_causes(ev: Evidence) -> dict[tuple[str, str, str], Cause]:
    """Causes of single Table B.3 cells: BR's on medical and bibtex from the two solvers
    on our splits; the baselines' F1 cells that the authors' measure convention explains
    there (which take precedence); CAL500's and enron's from the authors' material
    (which take precedence there); bibtex's where the passes do not bracket the paper's
    value."""
    out = solver_causes(ev.solvers, ev.paper_b3)
    out.update(convention_causes(ev.conventions, ev.paper_b3))
    out.update(AC.limo_causes(ev.authors_limo, ev.paper_b3))
    out.update(AC.variant_causes(ev.authors_variants))
    out.update(AC.baseline_causes(ev.authors_baselines, ev.paper_b3))
    out.update(C.passes_cell_causes(ev.epochs_comparison, ev.paper_b3))
    return out


def _table2_rows(led: Ledger, ev: Evidence, causes: dict[str, Cause]) -> None:
    growth = ev.micro_auc_growth["mean micro-AUC"]
    _, ids = P.paper_table2()
    for k, r in ev.table2.iterrows():
        claim, src = f"Table 2 row: {P.NAMES[k]}", "Table 2, Thms 1-5"
        if k == "micro_auc":  # Theorem 3 claims a limit as m grows, not equality
            said = (
                f"{r.ours}; mean micro-AUC of double effective F {growth.iloc[0]:.3f} ->"
                f" {growth.iloc[-1]:.4f} for m = 20 -> 2000"
            )
            agrees = bool(growth.is_monotonic_increasing and growth.iloc[-1] > 0.99)
            sizes = ev.micro_auc_growth["m"]
            led.qualitative(
                claim,
                src,
                paper=r.paper,
                evidence=said,
                agrees=agrees,
                note="judged on the construction of Theorem 3's proof: the mean micro-AUC of "
                f"double effective F rises with m = {', '.join(str(x) for x in sizes)} and "
                "exceeds 0.99, which supports the limit the theorem claims but cannot prove "
                "it on finite samples; the label-wise and inst-wise ✗ are counter-examples "
                "of mlcbook.margins.table2_check",
                claim_id=ids[k],
                about={"table": "Table 2", "measure": k},
            )
        else:
            cause = causes["table2_micro"]  # kept only where the row differs
            led.exact(
                claim,
                src,
                paper=r.paper,
                ours=r.ours,
                cause=cause,
                claim_id=ids[k],
                about={"table": "Table 2", "measure": k},
            )


def _bound_rows(led: Ledger, ev: Evidence, causes: dict[str, Cause]) -> None:
    for (thm, meas), d in ev.bound_draws.groupby(["theorem", "measure"]):
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
            cause=causes["limo_other"],
            claim_id=BOUND_IDS[(thm, meas)],
        )


def _inequality_row(led: Ledger, ev: Evidence) -> None:
    iq = ev.inequality2
    ok = iq.p_c_gt_b >= iq.paper_rhs
    led.ordering(
        "Theorem 3 proof: inequality (2)",
        "Thm 3 proof, Eq. (2)",
        paper="Pr[C > B] >= (1 - a/2)[1 - (1 - a)^n]",
        over="(a, n)",
        rule="exact probabilities on a grid of (a, n)",
        holds=bool(ok.all()),
        robustness=(int(ok.sum()), len(ok)),
        note="the outer terms hold; the equality in the middle is wrong, a row of its "
        f"own: '{_MIDDLE_EQUALITY}'",
        claim_id="WZ049",
    )


#: the claim of the row that judges the middle step of inequality (2)
_MIDDLE_EQUALITY = "Theorem 3 proof: the equality in the middle of inequality (2)"


def _middle_equality_row(led: Ledger, ev: Evidence) -> None:
    """The event of inequality (2) as the paper prints its probability: an erratum.

    Added after every other row, so that the rows before it keep their numbers.
    """
    iq, mc = ev.inequality2, ev.inequality2_mc
    larger = int((iq.paper_rhs > iq.p_event).sum())
    led.qualitative(
        _MIDDLE_EQUALITY,
        "Thm 3 proof, Eq. (2)",
        paper="Pr[(C >= a) and (some A_i <= a)] = (1 - a/2)[1 - (1 - a)^n]",
        agrees=bool(np.allclose(iq.p_event, iq.paper_rhs)),
        evidence=f"(1 - a)[1 - (1 - a)^n], by independence: at a = 0.1, n = 10, "
        f"{mc['p_event_exact']:.4f} ({mc['p_event']:.4f} by Monte Carlo) against the "
        f"printed {mc['paper_rhs']:.4f}; "
        f"the printed form is larger on {larger} of the {len(iq)} (a, n) of the grid",
        cause=paper_error(
            "$C$ is drawn independently of $A_1, \\dots, A_n$, so "
            "$\\Pr[C \\ge a \\text{ and } \\min_i A_i \\le a] = \\Pr[C \\ge a]\\, "
            "\\Pr[\\min_i A_i \\le a] = (1 - a)[1 - (1 - a)^n]$, not "
            "$(1 - a/2)[1 - (1 - a)^n]$. The inequality the proof needs holds all the same: "
            "$B$ is uniform on $(0, \\min_i A_i)$, so given $\\min_i A_i \\le a$, "
            "$\\Pr[C > B] \\ge 1 - a/2$, and $\\Pr[C > B] \\ge (1 - a/2)[1 - (1 - a)^n]$ "
            "(the row 'Theorem 3 proof: inequality (2)')",
            ref="mlcrepro.wu_zhou2017.bounds.inequality2; "
            + section(C.PAGE, "The theorem bounds, and two slips in the proofs"),
        ),
        claim_id="WZ445",
    )


def _constant_rows(led: Ledger, ev: Evidence) -> None:
    n, k_labels = ev.constant_labels
    for k, paper_v, cid in (("one_error", "0", "WZ002"), ("coverage", "0", "WZ003")):
        lenient, strict = ev.constant.loc[k].iloc[1], ev.constant.loc[k].iloc[0]
        led.qualitative(
            f"constant F: {P.NAMES[k]} {paper_v} under the literal definition",
            "Sec. 2.2",
            paper=paper_v,
            agrees=bool(lenient == float(paper_v)),
            evidence=f"{lenient:g} with ties in F's favour, {strict:.3f}"
            " with mlcbook.metrics' ties",
            note=f"judged on F = 1 for the {n} x {k_labels} synthetic label matrix (seed 1), "
            "scored twice: with a tied label counted as ranked first, as Table 1 reads "
            "literally, and with mlcbook.metrics' ties; the paper's value holds under the "
            "first reading only, and the paper itself assumes no ties, so the row agrees "
            "qualitatively",
            claim_id=cid,
        )


def _synthetic_table_rows(led: Ledger, source: str, ours: pd.DataFrame, cause: Cause) -> None:
    """One row per printed absolute cell of Table B.1 or B.2 (``source``), with its id.

    The paper's relative values are computed from its absolute ones (best 1, worst 0),
    so they are shown beside ours but not ledgered twice.
    """
    paper, ids = P.paper_pairs(source)
    for k, cells in paper.items():
        for col, (a, _) in zip(ours.columns, cells):
            v = ours.loc[k, col]
            led.number(
                f"{P.NAMES[k]}, {col}, synthetic",
                source,
                paper=a,
                ours=v,
                cause=cause,  # kept only where the row differs (the ledger's rule)
                claim_id=ids[(k, col)],
                about={"table": source, "measure": k, "learner": col},
            )


def _rescaling_row(led: Ledger, source: str, table: pd.DataFrame, claim_id: str) -> None:
    """One row: every rescaled cell of Table B.1/B.2 follows from its absolute values.

    ``table`` is :func:`.analysis.rescaling_ranges` of the printed table; a cell that is
    not consistent is a proof that the table contradicts itself (the cause names it).
    """
    n, ok = len(table), int(table["consistent"].sum())
    free = int(np.isinf(table["high"]).sum())

    def contradiction() -> Cause:  # made only if the row differs (the ledger's rule)
        cells = "; ".join(
            f"{r.measure} {r.column}: printed {r.printed}, possible {r.low:.3f}-{r.high:.3f}"
            for r in table[~table["consistent"]].itertuples()
        )
        return paper_error(
            "no absolute values within half a printed unit of the printed ones give "
            f"these rescaled values: {cells}",
            ref="mlcrepro.wu_zhou2017.analysis.rescaling_ranges",
        )

    led.exact(
        f"{source}: the rescaled values are (v - worst) / (best - worst) of the absolute "
        "ones (up to the printing)",
        source,
        paper=f"{n} of {n} cells",
        ours=f"{ok} of {n} cells",
        cause=contradiction,
        note=f"{free} cells are not decided by the printing (best and worst print alike)"
        if free
        else "",
        claim_id=claim_id,
    )


def _synthetic_rows(led: Ledger, ev: Evidence, causes: dict[str, Cause]) -> None:
    led.qualitative(
        "synthetic data regions",
        "Sec. 5.1, Fig. 1",
        agrees=False,
        paper="Figure 1 (missing from our copy)",
        evidence="our four-quadrant design, label sets {A}, {A,B,C}, {A,C}, {B,C,D}",
        cause=causes["fig1"],
        claim_id="WZ056",
    )
    for (text, holds, hits, n), cid in zip(ev.synthetic_claims, SYNTHETIC_IDS):
        fragile = holds and hits < ORDERING_ROBUSTNESS * n
        led.ordering(
            text,
            "Sec. 5.1, Figs 2-3",
            paper="holds",
            rule="on the mean of 10 replications",
            holds=holds,
            robustness=(hits, n),
            over="replications",
            cause=causes["fig1"],
            note=f"judged on our synthetic design, not the paper's (its Figure 1 is "
            f"missing): holds on the mean of the {n} replications but on {hits} of them "
            f"alone, fewer than the {ORDERING_ROBUSTNESS:.0%} a robust ordering needs"
            if fragile
            else "",
            claim_id=cid,
        )
    for src, k in (("Table B.1", "b1"), ("Table B.2", "b2")):
        _synthetic_table_rows(led, src, ev.synthetic_tables[k], causes["fig1"])
    for src, cid in (("Table B.1", "WZ084"), ("Table B.2", "WZ109")):
        _rescaling_row(led, src, ev.rescaling[src], cid)


def _rank_rows(led: Ledger, ev: Evidence, causes: dict[str, Cause]) -> None:
    ours_c, paper_c = ev.rank_counts["ours"], ev.rank_counts["paper"]
    for key, (text, of, cid) in FIG4.items():
        holds = ours_c[key] >= paper_c[key]
        led.ordering(
            text,
            "Fig. 4",
            paper=f"{paper_c[key]} of {of}",
            rule=f"ours {ours_c[key]} >= {paper_c[key]} of {of} (paper's ranks, 4 sets)",
            holds=holds,
            robustness=ev.rank_robustness[key],
            over="single splits",
            cause=causes["limo_other"],
            claim_id=cid,
        )
    paper = ev.paper_b3
    lr = paper[(paper.method == "LIMO") & (paper.measure == "ranking_loss")]
    led.number(
        "worked average rank of LIMO on ranking loss",
        "Sec. 5.2",
        paper="1.4",
        ours=lr["rank"].mean(),
        note="from the paper's Table B.3 ranks",
        claim_id="WZ111",
    )
    run = ev.mean.index.get_level_values("dataset").nunique()
    led.exact(
        "corel5k",
        "Sec. 5.2",
        paper="5 benchmarks",
        ours=f"{run} run",
        cause=causes["corel5k"],
        claim_id="WZ110",
    )


def _b3_rows(led: Ledger, ev: Evidence, causes: dict[str, Cause]) -> None:
    """Every Table B.3 cell of our datasets against the paper's mean ± std."""
    cause_of = C.b3_cause(causes, cells=_cell_causes(ev))
    for d, name in P.DS_PAPER.items():
        for _, r in ev.paper_b3[ev.paper_b3.dataset == name].iterrows():
            v = ev.mean.loc[(d, r.method), r.measure]
            led.spread(
                f"{P.NAMES[r.measure]}, {r.method}, {name}",
                "Table B.3",
                paper=r["mean"],
                spread=r["std"],
                ours=v,
                cause=cause_of(d, r.method, r.measure),  # kept only where it differs
                claim_id=r["id"],
                about={
                    "table": "Table B.3",
                    "dataset": d,
                    "learner": r.method,
                    "measure": r.measure,
                },
            )


def _side_rows(led: Ledger, ev: Evidence, causes: dict[str, Cause]) -> None:
    cex = ev.counterexample
    led.qualitative(
        "micro-F1 = instance-F1 (label-wise effective F, i.i.d. instances)",
        "Thm 4, App. A.1",
        paper="equal",
        agrees=False,
        evidence=f"median |difference| {ev.micro_instance_gap.median():.3f} on our LIMO "
        f"runs; micro-F1 {cex['micro_f1']:.3f} < Theorem 4's bound {cex['bound']:.3f} "
        "(counter-example)",
        cause=causes["micro_eq"],
        claim_id="WZ050",
    )
    objective = ev.objective.objective
    led.qualitative(
        "Algorithm 1 is unbiased SGD for Eq. (3)",
        "Sec. 4.2, App. A.3",
        paper="unbiased",
        agrees=False,  # a reading of Algorithm 1 against App. A.3: the cause says why
        evidence="shrinkage applied only to violated pairs (the proof assumes it always "
        "is), so the steps are not unbiased for Eq. (3); the objective still falls (Eq. "
        f"(3) on {OBJECTIVE_POINTS} synthetic points, λ1 = λ2 = 1: {objective.iloc[0]:.4f} "
        f"at the initial W, {objective.iloc[-1]:.4f} at the {objective.index[-1]}; see "
        "'LIMO')",
        cause=causes["sgd_bias"],
        claim_id="WZ055",
    )


def ledgers(ev: Evidence) -> dict[str, Ledger]:
    """The paper's ledgers, keyed by ``PAPER.ledgers``: ``{"limo": Ledger}``.

    Parameters
    ----------
    ev : Evidence
        :func:`mlcrepro.wu_zhou2017.collect.evidence`.

    Examples
    --------
    >>> from mlcrepro.wu_zhou2017.collect import evidence
    >>> led = ledgers(evidence())["limo"]
    >>> len(led.entries), led.entries[0].claim
    (344, 'Table 2 row: ranking loss')
    """
    if not isinstance(ev, Evidence):
        raise TypeError(f"ev must be the folder's Evidence, got {type(ev).__name__}")
    (name,) = PAPER.ledgers
    led = Ledger(name, PAPER.citation)
    causes = _causes(ev)
    _table2_rows(led, ev, causes)
    _bound_rows(led, ev, causes)
    _inequality_row(led, ev)
    _constant_rows(led, ev)
    _synthetic_rows(led, ev, causes)
    _rank_rows(led, ev, causes)
    _b3_rows(led, ev, causes)
    _side_rows(led, ev, causes)
    _middle_equality_row(led, ev)
    return {name: led}


def verdicts(led: Ledger) -> pd.DataFrame:
    """The ledger in one line per group of claims (:data:`GROUPS`): counts and verdict."""
    return verdict_table(led.to_frame(), GROUPS)
