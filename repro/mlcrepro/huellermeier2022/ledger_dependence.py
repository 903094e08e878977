"""The dependence ledger of Hüllermeier et al. (2022): Sec. 5, the learner study.

The scene reading and the Sec. 5.3 observations on both loss families, two properties
of every curve, the comparison with the authors' released profiles, and the setup of
Sec. 5.2.  Every row records what it is about (``about``: the figure, the loss family
or end, the dataset, the paper's names of the learners it reads), which the Reproduce
page's tables and ``mlcrepro check ID --recompute`` select it by.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from mlcrepro.huellermeier2022 import authors_compare as ac
from mlcrepro.huellermeier2022 import causes as C
from mlcrepro.huellermeier2022.authors_study import DATASETS
from mlcrepro.huellermeier2022.evidence_dependence import (
    CLAIMS,
    FAMILIES,
    FIG,
    SCENE,
    DependenceEvidence,
    scene_losses,
)
from mlcrepro.huellermeier2022.experiments import SETUP
from mlcrepro.ledger import ORDERING_ROBUSTNESS, Ledger

__all__ = ["ROWS", "SCENE_IDS", "comparison_id"]

#: the claim id of the scene reading of Fig. 1, binomial and polynomial
SCENE_IDS = ("HU088", "EX013")
#: the id of the first comparison row in book/_claims/extra.csv (flags, BR, Hamming)
_FIRST_COMPARISON = 23
_ENDS = {"hamming": "Hamming loss", "subset01": "subset 0/1 loss"}
_OVER = "bootstrap resamples of the folds"


def _sec53_rows(led: Ledger, ev: DependenceEvidence) -> None:
    s = ev.sec53
    for fam, cid in zip(FAMILIES, SCENE_IDS):
        loss = scene_losses(ev.pooled, fam)
        br, lp, ok = loss.BR, loss.LP, bool(s.ours[SCENE, fam])
        led.ordering(
            f"{SCENE} ({fam})",
            "Sec. 5.3, Fig. 1",
            paper="BR performs favorably to LP for small k or alpha; LP catches up and "
            "finally outperforms BR",
            rule="on scene: BR < LP at the Hamming end and LP < BR at the subset 0/1 end",
            holds=ok,
            robustness=s.hits[SCENE, fam],
            over=_OVER,
            cause=partial(C.sec53_cause, s, SCENE, fam, ev.summary),  # made if it differs
            note=f"Hamming BR {br.iloc[0]:.3f} vs LP {lp.iloc[0]:.3f}; "
            f"last BR {br.iloc[-1]:.3f} vs LP {lp.iloc[-1]:.3f}",
            claim_id=cid,
            about={
                "figure": "Fig. 1",
                "dataset": "scene",
                "learner": ("BR", "LP"),
                "loss": fam,
                "quantity": SCENE,
            },
        )
    for i, fam in enumerate(FAMILIES):
        for c in CLAIMS:
            n, ok, m = s.ours[c.name, fam], s.holds(c.name, fam), s.over(c.name)
            rule = f"{c.rule} on {'all' if c.every else 'most'} of the {m} datasets"
            hits, trials = s.hits[c.name, fam]
            fragile = ok and hits < ORDERING_ROBUSTNESS * trials
            led.ordering(
                f"{c.name} ({fam})",
                f"Sec. 5.3, Fig. {FIG[fam]}",
                paper=c.paper,
                rule=f"{rule}: {n} of {m}",
                holds=ok,
                robustness=s.hits[c.name, fam],
                over=_OVER,
                cause=partial(C.sec53_cause, s, c.name, fam, ev.summary),
                note=_fragile_note(c.rule, fam, n, s.needed(c.name), m, hits, trials)
                if fragile
                else "",
                claim_id=c.ids[i],
                about={
                    "figure": f"Fig. {FIG[fam]}",
                    "learner": c.learners,
                    "loss": fam,
                    "quantity": c.name,
                },
            )


def _fragile_note(
    rule: str, family: str, n: int, needed: int, m: int, hits: int, trials: int
) -> str:
    """What judged a reading that holds on the pooled run but not on enough resamples."""
    where = " (on the polynomial family: alpha = 1000 for k = K)" if family != "binomial" else ""
    just = "just " if n == needed else ""
    return (
        f"judged by '{rule}' on each pooled ratio curve{where}: it holds on {n} of the {m} "
        f"datasets, {just}the {needed} the rule needs, and on {hits} of {trials} bootstrap "
        f"resamples of the folds, fewer than the {int(ORDERING_ROBUSTNESS * trials)} that "
        "would make the reading robust"
    )


def _curve_rows(led: Ledger, ev: DependenceEvidence) -> None:
    steps = ev.steps
    led.ordering(
        "Every loss curve is non-decreasing in k and in alpha",
        "Sec. 5.3, Fig. 1",
        paper="the curves are increasing",
        rule=f"no step down (beyond 1e-12, rounding) on every curve: {int(steps.sum())} of "
        f"{steps.size}",
        holds=bool(steps.all()),
        claim_id="HU087",
        about={"figure": "Figs 1-3", "quantity": "monotone curves"},
    )
    gap = ev.alpha_gap
    led.ordering(
        "Polynomial loss at alpha = 1000 is (almost) the subset 0/1 loss",
        "Sec. 5.3",
        paper="subset 0/1 only for alpha -> infinity, strictly speaking",
        rule=f"largest gap to subset 0/1 over all datasets and learners ({gap:.1e}) below "
        "5e-4, half a unit of the three decimals the curves are read at",
        holds=gap < 5e-4,
        claim_id="HU089",
        about={"loss": "polynomial", "quantity": "gap to subset 0/1"},
    )


def comparison_id(dataset: str, learner: str, end: str) -> str:
    """The extra id of a comparison row: datasets x learners x ends, from ``EX023``.

    >>> comparison_id("flags", "BR", "hamming"), comparison_id("yeast", "BOOMER-K", "subset01")
    ('EX023', 'EX148')
    """
    if end not in _ENDS:
        raise ValueError(f"end must be one of {list(_ENDS)}, got {end!r}")
    if dataset not in DATASETS or learner not in ac.MAIN_LEARNERS:
        raise ValueError(f"no comparison row for ({dataset!r}, {learner!r})")
    i = DATASETS.index(dataset) * len(ac.MAIN_LEARNERS) + ac.MAIN_LEARNERS.index(learner)
    return f"EX{_FIRST_COMPARISON + 2 * i + list(_ENDS).index(end):03d}"


def _comparison_rows(led: Ledger, ev: DependenceEvidence) -> None:
    main = ev.summary[ev.summary["learner"].isin(ac.MAIN_LEARNERS)]
    for row in main.itertuples():
        for end, what in _ENDS.items():
            tol = getattr(row, f"{end}_tol")
            paper = ac.printed(getattr(row, f"{end}_theirs"))
            spread = ac.printed(0.0 if np.isnan(tol) else tol)
            ours = getattr(row, f"{end}_ours")
            # kept only if the row differs (the ledger's rule, cause_where_differs)
            cause = C.pair_cause(row.dataset, row.learner, row.our_folds, row.their_folds)
            led.spread(
                f"{what} of {row.learner} on {row.dataset}",
                "released profiles",
                paper=paper,
                spread=spread,
                ours=ours,
                cause=cause,
                note=f"folds pooled: ours {row.our_folds}, theirs {row.their_folds}",
                claim_id=comparison_id(row.dataset, row.learner, end),
                spread_of="ours",  # two standard errors of our folds, not the paper's
                about={"dataset": row.dataset, "learner": row.learner, "loss": end},
            )


def _setup_rows(led: Ledger, ev: DependenceEvidence) -> None:
    led.qualitative(
        "Base learners: Weka's J48 in MEKA, CLUS trees, BOOMER",
        "Sec. 5.2",
        paper="MEKA (J48), CLUS, BOOMER with default parameters",
        evidence="the same learners at the same defaults, not all the same builds: "
        "MEKA's BR, CC, LC and RAkEL re-implemented around Weka 3.6.14's J48 (the "
        "authors: MEKA, the fork mwever/meka at cfe433cd); CLUS from PyPI's pyclus "
        "1.0.2 jar with the 2011 forest defaults restated (the authors: the Clus.jar "
        "of 2011-09-22 in their repository); BOOMER from mlrl-boomer 0.12.3 set to the "
        "2021 defaults (the authors: Boomer from GitHub, one of 0.2.0-0.5.0)",
        agrees=True,
        note="configurations in mlcbook.learners.registry, the builds in "
        "mlcbook.learners.meka, .clus and .boomer; the differences the builds make are "
        "the comparison rows' causes",
        claim_id=["HU084", "HU086"],
        about={"quantity": SETUP},
    )
    led.qualitative(
        "RAkEL for different k and m",
        "Sec. 5.2",
        paper="several k and m (values not given)",
        evidence="the authors' code: k in {1..5, L//2, L-1} with m = L-k+1",
        agrees=True,
        note="the paper does not list its values; ours are those of the authors' "
        "experimenter (see the reference README); Figs 2-3 compare k = 2 and k = 5",
        claim_id="HU085",
        about={"learner": "RAkEL", "quantity": SETUP},
    )


#: the dependence ledger's rows (Sec. 5), in this order: the Sec. 5.3 observations on
#: both families, the two curve properties, the comparison with the released profiles,
#: the setup
ROWS = (_sec53_rows, _curve_rows, _comparison_rows, _setup_rows)
