"""Everything the LIMO ledger judges, computed once from the committed tables and the library.

:func:`evidence` is the folder's one source of numbers: the paper's printed
tables (:mod:`~mlcrepro.wu_zhou2017.printed`), the committed tables of its
experiments (:mod:`~mlcrepro.wu_zhou2017.experiments`, checked against the
configurations that key them), the constructions and simulations of Table 2 and
Theorems 3-5 (seeded, from :mod:`mlcbook.margins` and
:mod:`~mlcrepro.wu_zhou2017.bounds`), and the comparisons made of them
(:mod:`~mlcrepro.wu_zhou2017.analysis`,
:mod:`~mlcrepro.wu_zhou2017.authors_protocol`,
:mod:`~mlcrepro.wu_zhou2017.authors_baselines`,
:mod:`~mlcrepro.wu_zhou2017.benchmark_sampling`).  It returns one frozen
:class:`Evidence`, computed once per process; each call hands out its own deep
copy, so a caller may change what it receives without changing what the next
one gets.  The ledger (:func:`mlcrepro.wu_zhou2017.ledger_rows.ledgers`) and the
Reproduce page read it;
nothing a page computed is passed in.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from mlcbook import margins as MG
from mlcbook.datasets import make_limo_synthetic
from mlcbook.learners import LIMO, limo_objective
from mlcrepro.evidence_common import once
from mlcrepro.wu_zhou2017 import analysis as A
from mlcrepro.wu_zhou2017 import authors_causes as AC
from mlcrepro.wu_zhou2017 import bounds as MB
from mlcrepro.wu_zhou2017 import printed as P
from mlcrepro.wu_zhou2017.authors_baselines import solver_comparison
from mlcrepro.wu_zhou2017.authors_protocol import comparison, variants_comparison
from mlcrepro.wu_zhou2017.benchmark_sampling import sampling_comparison
from mlcrepro.wu_zhou2017.experiments import load
from mlcrepro.wu_zhou2017.names import PAPER_COLUMN

__all__ = ["Evidence", "evidence", "OBJECTIVE_POINTS"]

#: synthetic points (seed 3) on which Eq. (3) is followed along LIMO's iterations
OBJECTIVE_POINTS = 400


@dataclass(frozen=True)
class Evidence:
    """What the LIMO ledger and its Reproduce page need, by the paper's section.

    Table 2 and the proofs
        ``table2`` (ours and the paper's ✓/✗ per measure, :func:`mlcbook.margins.table2_check`
        on three label matrices, ten predictors of each kind), ``micro_auc_growth`` (Theorem
        3's construction for m = 20, 200, 2000), ``bound_draws`` (Theorems 4-5 on random
        effective predictors with 1-3 threshold errors; ``slack`` is the distance to the
        bound on its safe side), ``counterexample`` (micro-F1 below Theorem 4's bound),
        ``inequality2`` (inequality (2) of Theorem 3's proof, exact, on a grid of (a, n)) and
        ``inequality2_mc`` (its event at a = 0.1, n = 10 by Monte Carlo, ``p_event``, and
        exactly, ``p_event_exact``, beside the paper's value, ``paper_rhs``).
    Sec. 2.2 and Sec. 4.2
        ``constant`` (a constant F under two readings of ties) and ``constant_labels`` (the
        shape of the label matrix it is scored on), ``objective`` (Eq. (3) at the initial
        W and after 100, 1000, 10000 iterations).
    Sec. 5.1, Tables B.1-B.2
        ``synthetic`` (committed ``limo_synthetic``), ``synthetic_tables`` (our B.1/B.2,
        absolute and rescaled), ``synthetic_claims`` (Sec. 5.1's readings: claim, holds on
        the means, hits, replications), ``rescaling`` (per table, whether each printed
        rescaled value follows from the printed absolute ones).
    Sec. 5.2, Table B.3, Fig. 4
        ``paper_b3`` (Table B.3 as printed), ``benchmark`` (committed ``limo_benchmark``),
        ``mean``/``std`` (over its splits, ddof 1), ``average_ranks`` (ours) and
        ``paper_average_ranks`` (the paper's ranks over our four datasets),
        ``rank_counts`` (Fig. 4's readings counted on each: ``{"ours": .., "paper": ..}``),
        ``rank_robustness`` (per reading: splits on which ours reaches the paper's count),
        ``micro_instance_gap`` (|micro-F1 - instance-F1| of our LIMO and LIMO-label runs),
        ``sampling`` (LIMO's two readings of its sampling: measures within the paper's std).
    Thresholds and passes
        ``thresholds`` and ``bibtex_thresholds`` (committed), ``bibtex_check`` (the account
        found on three datasets, read off on bibtex), ``epochs`` (committed) and
        ``epochs_comparison`` (after 10 and 30 passes beside Table B.3).
    The authors' code, splits and measures
        ``authors_limo`` (paper, their code under Octave, ours in both readings),
        ``authors_variants``, ``authors_baselines`` (committed), ``authors_solvers`` (BR
        through LIBSVM and LIBLINEAR beside the paper) and ``gfm_within`` (GFM's
        measures outside the paper's std, per dataset);
        ``conventions`` (committed: the benchmark's BR, ML-kNN and GFM measured by the
        authors' conventions on our splits); ``solvers`` (committed: BR through LIBSVM
        and LIBLINEAR on medical's and bibtex's splits, measured the authors' way).
    """

    table2: pd.DataFrame
    micro_auc_growth: pd.DataFrame
    bound_draws: pd.DataFrame
    counterexample: Mapping[str, float]
    inequality2: pd.DataFrame
    inequality2_mc: Mapping[str, float]
    constant: pd.DataFrame
    constant_labels: tuple[int, int]
    objective: pd.DataFrame
    synthetic: pd.DataFrame
    synthetic_tables: Mapping[str, pd.DataFrame]
    synthetic_claims: tuple[tuple[str, bool, int, int], ...]
    rescaling: Mapping[str, pd.DataFrame]
    paper_b3: pd.DataFrame
    benchmark: pd.DataFrame
    mean: pd.DataFrame
    std: pd.DataFrame
    average_ranks: pd.DataFrame
    paper_average_ranks: pd.DataFrame
    rank_counts: Mapping[str, Mapping[str, int]]
    rank_robustness: Mapping[str, tuple[int, int]]
    micro_instance_gap: pd.Series
    sampling: pd.DataFrame
    thresholds: pd.DataFrame
    bibtex_thresholds: pd.DataFrame
    bibtex_check: pd.DataFrame
    epochs: pd.DataFrame
    epochs_comparison: pd.DataFrame
    authors_limo: pd.DataFrame
    authors_variants: pd.DataFrame
    authors_baselines: pd.DataFrame
    authors_solvers: pd.DataFrame
    gfm_within: Mapping[str, list[str]]
    conventions: pd.DataFrame
    solvers: pd.DataFrame


def _table2(Y_syn: np.ndarray) -> pd.DataFrame:
    Y_list = [
        Y_syn,
        MG.random_label_matrix(200, 8, 0.3, seed=1),
        MG.random_label_matrix(60, 20, 0.2, seed=2),
    ]
    check = MG.table2_check(Y_list, n_draws=10, seed=0)
    paper, _ = P.paper_table2()
    check = check.rename(index=PAPER_COLUMN)
    ours = {k: A.as_strings(check.loc[k]) for k in paper}
    out = pd.DataFrame({"ours": ours, "paper": paper})
    out["agrees"] = out.ours == out.paper
    return out


def _bound_draws() -> pd.DataFrame:
    Y = MG.random_label_matrix(200, 8, 0.3, seed=1)
    draws = pd.concat(
        [MB.threshold_bound_draws(Y, errors=e, n_draws=20, seed=e) for e in (1, 2, 3)]
    )
    ham = draws.measure == "Hamming loss"
    draws["slack"] = np.where(ham, draws.bound - draws.value, draws.value - draws.bound)
    return draws


def _inequality2() -> tuple[pd.DataFrame, dict]:
    grid = [(a, n) for a in (0.05, 0.1, 0.3, 0.5, 0.9) for n in (1, 5, 20, 100)]
    table = pd.DataFrame([{"a": a, "n": n, **MB.inequality2(a, n)} for a, n in grid])
    mc = MB.inequality2_monte_carlo(0.1, 10, draws=200_000, seed=0)
    exact = MB.inequality2(0.1, 10)
    return table, {**mc, "paper_rhs": exact["paper_rhs"], "p_event_exact": exact["p_event"]}


def _objective() -> pd.DataFrame:
    X, Y = make_limo_synthetic(OBJECTIVE_POINTS, seed=3)
    W0 = np.random.default_rng(0).normal(0, 1 / np.sqrt(2), size=(4, 2))
    rows = [("W0 (initial)", limo_objective(W0, X, Y, 1.0, 1.0))]
    for n_iter in (100, 1000, 10000):
        est = LIMO(1.0, 1.0, eta=0.01, n_iter=n_iter, random_state=0)
        W = est.fit(X, Y, fit_threshold=False).coef_
        rows.append((f"averaged iterate, T = {n_iter}", limo_objective(W, X, Y, 1.0, 1.0)))
    return pd.DataFrame(rows, columns=["W", "objective"]).set_index("W")


def _ranks(paper: pd.DataFrame, bench: pd.DataFrame, mean: pd.DataFrame) -> dict:
    ours = A.average_ranks(mean)
    pp = paper[paper.dataset.isin(P.DS_PAPER.values())]
    theirs = pp.pivot_table(index="measure", columns="method", values="rank", aggfunc="mean").loc[
        P.B3_ORDER, P.METHODS
    ]
    counts = {"ours": A.rank_rule(ours), "paper": A.rank_rule(theirs)}
    robust = {k: A.rank_rule_robustness(bench, k, need) for k, need in counts["paper"].items()}
    return {
        "average_ranks": ours,
        "paper_average_ranks": theirs,
        "rank_counts": counts,
        "rank_robustness": robust,
    }


@once
def evidence() -> Evidence:
    """The folder's :class:`Evidence`, computed once per process (a deep copy per call).

    Reads the committed tables (one made by another configuration fails at once with
    :class:`mlcrepro.results.StaleResultError`, nothing is recomputed silently) and runs
    the seeded constructions of Table 2 and Theorems 3-5 (a few seconds the first time).

    Examples
    --------
    >>> ev = evidence()
    >>> ev.table2.loc["ranking_loss", "paper"], len(ev.paper_b3)
    ('✓✗✓', 330)
    >>> ev.mean is evidence().mean  # each call hands out its own copy
    False
    """
    paper = P.paper_b3()
    Y_syn = make_limo_synthetic(300, seed=1)[1]  # Table 2's first matrix and Sec. 2.2's
    ineq, ineq_mc = _inequality2()
    syn = load("limo_synthetic")
    bench = load("limo_benchmark")
    groups = bench.groupby(["dataset", "method"])[P.B3_ORDER]
    mean, std = groups.mean(), groups.std(ddof=1)
    limo_rows = bench[bench.method.isin(["LIMO-label", "LIMO"])]
    thr, thr_bibtex, epochs = (
        load("limo_thresholds"),
        load("limo_thresholds_bibtex"),
        load("limo_epochs"),
    )
    base = load("limo_authors_baselines")
    return Evidence(
        table2=_table2(Y_syn),
        micro_auc_growth=MG.micro_auc_growth(
            sizes=(20, 200, 2000), n_labels=4, density=0.4, n_draws=10, seed=0
        ),
        bound_draws=_bound_draws(),
        counterexample=MB.micro_f1_counterexample(),
        inequality2=ineq,
        inequality2_mc=ineq_mc,
        constant=A.constant_predictor(Y_syn),
        constant_labels=(int(Y_syn.shape[0]), int(Y_syn.shape[1])),
        objective=_objective(),
        synthetic=syn,
        synthetic_tables=A.synthetic_tables(syn),
        synthetic_claims=tuple(A.synthetic_claims(syn)),
        rescaling={
            src: A.rescaling_ranges(P.paper_pairs(src)[0], cols)
            for src, cols in (("Table B.1", P.VARIANTS), ("Table B.2", P.B2_COLUMNS))
        },
        paper_b3=paper,
        benchmark=bench,
        mean=mean,
        std=std,
        **_ranks(paper, bench, mean),
        micro_instance_gap=(limo_rows["micro_f1"] - limo_rows["instance_f1"]).abs(),
        sampling=sampling_comparison(bench, load("limo_benchmark_released")),
        thresholds=thr,
        bibtex_thresholds=thr_bibtex,
        bibtex_check=A.account_check(thr, thr_bibtex, paper, "bibtex"),
        epochs=epochs,
        epochs_comparison=A.epochs_comparison(epochs, paper),
        authors_limo=comparison(load("limo_authors_ours"), load("limo_authors_octave")),
        authors_variants=variants_comparison(load("limo_authors_variants")),
        authors_baselines=base,
        authors_solvers=solver_comparison(base),
        gfm_within=AC.method_within(base, paper, "GFM"),
        conventions=load("limo_benchmark_conventions"),
        solvers=load("limo_benchmark_solvers"),
    )
