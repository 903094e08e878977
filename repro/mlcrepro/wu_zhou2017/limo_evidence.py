"""The evidence of the LIMO chapter (Wu & Zhou 2017), computed once per process.

Every table the chapter ``book/limo.md`` shows and its ledger (:mod:`.ledger_limo`)
judges comes from one function here: the chapter's cells display them, and
:func:`mlcrepro.wu_zhou2017.ledger_limo.limo_ledger` turns them into rows.  Each
result is computed once per process (seeded, so the same every time) and handed out as
a copy, so that a caller may change what it receives without changing what the next
caller gets.  The long experiments are read from their committed tables
(:func:`mlcrepro.results.load_or_compute`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from mlcbook import margins as MG
from mlcbook.datasets import make_limo_synthetic
from mlcbook.learners import LIMO, limo_objective
from mlcrepro.evidence_common import once
from mlcrepro.ledger import Cause
from mlcrepro.results import load_or_compute
from mlcrepro.wu_zhou2017 import authors_causes as AC
from mlcrepro.wu_zhou2017 import bounds as MB
from mlcrepro.wu_zhou2017 import report as R
from mlcrepro.wu_zhou2017.authors_baselines import baselines_table, solver_comparison
from mlcrepro.wu_zhou2017.authors_protocol import (
    comparison,
    protocol_table,
    variants_comparison,
    variants_table,
)
from mlcrepro.wu_zhou2017.benchmark import (
    BENCHMARK_DATASETS,
    benchmark_config,
    benchmark_table,
    synthetic_config,
    synthetic_table,
)
from mlcrepro.wu_zhou2017.benchmark_sampling import sampling_comparison, sampling_table
from mlcrepro.wu_zhou2017.hypotheses import BIBTEX_HYPOTHESES, BIBTEX_REPLICATIONS
from mlcrepro.wu_zhou2017.thresholds import (
    epochs_config,
    epochs_table,
    threshold_hypotheses_config,
    threshold_hypotheses_table,
)

__all__ = [
    "REPS",
    "synthetic_labels",
    "table2",
    "micro_auc_growth",
    "bound_draws",
    "counterexample",
    "inequality2_grid",
    "inequality2_mc",
    "constant",
    "objective",
    "synthetic",
    "synthetic_tables",
    "benchmark",
    "benchmark_means",
    "thresholds",
    "bibtex_thresholds",
    "bibtex_check",
    "epochs",
    "epochs_comparison",
    "authors_limo",
    "authors_variants",
    "authors_baselines",
    "authors_solvers",
    "authors_cell_causes",
    "sampling_readings",
    "causes",
]

#: replications of the benchmark per dataset (ten splits, as in the paper)
REPS = {"cal500": 10, "medical": 10, "enron": 10, "bibtex": 10}


@once
def synthetic_labels() -> np.ndarray:
    """The labels of 300 synthetic points (seed 1): Table 2's first matrix and Sec. 2.2's."""
    return make_limo_synthetic(300, seed=1)[1]


@once
def table2() -> pd.DataFrame:
    """Table 2 checked by construction: ours and the paper's ✓/✗ per measure.

    :func:`mlcbook.margins.table2_check` on three label matrices (the synthetic one and
    two random ones), ten random effective predictors of each kind; index the measures
    of Table 2, columns ``ours``, ``paper`` (label-wise, inst-wise, double) and ``agrees``.
    """
    Y_list = [
        synthetic_labels(),
        MG.random_label_matrix(200, 8, 0.3, seed=1),
        MG.random_label_matrix(60, 20, 0.2, seed=2),
    ]
    check = MG.table2_check(Y_list, n_draws=10, seed=0)
    paper, _ = R.paper_table2()
    ours = {k: R.as_strings(check.loc[k]) for k in paper}
    out = pd.DataFrame({"ours": ours, "paper": paper})
    out["agrees"] = out.ours == out.paper
    return out


@once
def micro_auc_growth() -> pd.DataFrame:
    """Micro-AUC of Theorem 3's double effective construction as m grows (20, 200, 2000)."""
    return MG.micro_auc_growth(sizes=(20, 200, 2000), n_labels=4, density=0.4, n_draws=10, seed=0)


@once
def bound_draws() -> pd.DataFrame:
    """Theorems 4 and 5 on random effective predictors, 1-3 threshold errors, with slack.

    :func:`mlcrepro.wu_zhou2017.bounds.threshold_bound_draws` (200 x 8, density 0.3),
    20 draws per number of errors; ``slack`` is how far each value lies on the bound's
    safe side (negative: the bound is broken).
    """
    Y = MG.random_label_matrix(200, 8, 0.3, seed=1)
    draws = pd.concat(
        [MB.threshold_bound_draws(Y, errors=e, n_draws=20, seed=e) for e in (1, 2, 3)]
    )
    ham = draws.measure == "Hamming loss"
    draws["slack"] = np.where(ham, draws.bound - draws.value, draws.value - draws.bound)
    return draws


@once
def counterexample() -> dict:
    """Theorem 4's micro-F1 counter-example (:func:`.bounds.micro_f1_counterexample`)."""
    return MB.micro_f1_counterexample()


@once
def inequality2_grid() -> pd.DataFrame:
    """Inequality (2) of Theorem 3's proof, exact, on a grid of (a, n)."""
    grid = [(a, n) for a in (0.05, 0.1, 0.3, 0.5, 0.9) for n in (1, 5, 20, 100)]
    return pd.DataFrame([{"a": a, "n": n, **MB.inequality2(a, n)} for a, n in grid])


@once
def inequality2_mc() -> dict:
    """The event of inequality (2) by Monte Carlo at a = 0.1, n = 10, with the paper's value."""
    mc = MB.inequality2_monte_carlo(0.1, 10, draws=200_000, seed=0)
    return {**mc, "paper_rhs": MB.inequality2(0.1, 10)["paper_rhs"]}


@once
def constant() -> pd.DataFrame:
    """Sec. 2.2's constant predictor on the synthetic labels, under both tie readings."""
    return R.constant_predictor(synthetic_labels())


@once
def objective() -> pd.DataFrame:
    """Eq. (3) at the initial W and at LIMO's averaged iterate after T = 100, 1000, 10000.

    400 synthetic points (seed 3), λ1 = λ2 = 1, η = 0.01; each hinge sum divided by its
    number of pairs (:func:`mlcbook.learners.limo_objective`).
    """
    X, Y = make_limo_synthetic(400, seed=3)
    W0 = np.random.default_rng(0).normal(0, 1 / np.sqrt(2), size=(4, 2))
    rows = [("W0 (initial)", limo_objective(W0, X, Y, 1.0, 1.0))]
    for n_iter in (100, 1000, 10000):
        est = LIMO(1.0, 1.0, eta=0.01, n_iter=n_iter, random_state=0)
        W = est.fit(X, Y, fit_threshold=False).coef_
        rows.append((f"averaged iterate, T = {n_iter}", limo_objective(W, X, Y, 1.0, 1.0)))
    return pd.DataFrame(rows, columns=["W", "objective"]).set_index("W")


@once
def synthetic() -> pd.DataFrame:
    """The synthetic experiment (Sec. 5.1), ten replications (committed table)."""
    return load_or_compute("limo_synthetic", lambda: synthetic_table(10), synthetic_config(10))


@once
def synthetic_tables() -> dict[str, pd.DataFrame]:
    """Our Tables B.1 and B.2 (absolute ``b1``/``b2``, rescaled ``b1_rel``/``b2_rel``)."""
    return R.synthetic_tables(synthetic())


@once
def sampling_readings() -> pd.DataFrame:
    """LIMO's two readings on the benchmark's splits against Table B.3 (measures within
    the paper's std; committed tables limo_benchmark and limo_benchmark_released)."""
    return sampling_comparison(benchmark(), sampling_table())


@once
def benchmark() -> pd.DataFrame:
    """The benchmark runs (Sec. 5.2): four datasets, ten splits (committed table)."""
    return load_or_compute(
        "limo_benchmark",
        lambda: benchmark_table(BENCHMARK_DATASETS, REPS),
        benchmark_config(BENCHMARK_DATASETS, REPS),
    )


@once
def benchmark_means() -> tuple[pd.DataFrame, pd.DataFrame]:
    """Mean and standard deviation (ddof 1) over the splits, per (dataset, method)."""
    groups = benchmark().groupby(["dataset", "method"])[R.B3_ORDER]
    return groups.mean(), groups.std(ddof=1)


@once
def thresholds() -> pd.DataFrame:
    """The thresholding hypotheses on CAL500, medical and enron (committed table)."""
    return load_or_compute(
        "limo_thresholds", threshold_hypotheses_table, threshold_hypotheses_config()
    )


@once
def bibtex_thresholds() -> pd.DataFrame:
    """The hypotheses that matter on bibtex's first splits, held out (committed table)."""
    args = (("bibtex",), BIBTEX_REPLICATIONS, BIBTEX_HYPOTHESES)
    return load_or_compute(
        "limo_thresholds_bibtex",
        lambda: threshold_hypotheses_table(*args),
        threshold_hypotheses_config(*args),
    )


@once
def bibtex_check() -> pd.DataFrame:
    """The account found on three datasets, read off on bibtex (:func:`.report.account_check`)."""
    return R.account_check(thresholds(), bibtex_thresholds(), R.paper_b3(), "bibtex")


@once
def epochs() -> pd.DataFrame:
    """LIMO on bibtex's first split after 10 and 30 passes (committed table)."""
    return load_or_compute("limo_epochs", epochs_table, epochs_config())


@once
def epochs_comparison() -> pd.DataFrame:
    """:func:`.report.epochs_comparison` of :func:`epochs` against Table B.3."""
    return R.epochs_comparison(epochs(), R.paper_b3())


@once
def authors_limo() -> pd.DataFrame:
    """LIMO on the authors' protocol: paper, their code under Octave, ours in both readings.

    :func:`mlcrepro.wu_zhou2017.authors_protocol.comparison` of the committed tables
    ``limo_authors_ours`` and ``limo_authors_octave``.
    """
    return comparison(protocol_table())


@once
def authors_variants() -> pd.DataFrame:
    """LIMO-inst and LIMO-label inside the authors' protocol beside Table B.3.

    :func:`mlcrepro.wu_zhou2017.authors_protocol.variants_comparison` of the committed
    ``limo_authors_variants``.
    """
    return variants_comparison(variants_table())


@once
def authors_baselines() -> pd.DataFrame:
    """BR (LIBSVM, LIBLINEAR), ML-kNN and GFM on the authors' splits (committed table)."""
    return baselines_table()


@once
def authors_solvers() -> pd.DataFrame:
    """BR through LIBSVM and LIBLINEAR on CAL500 and enron beside Table B.3."""
    return solver_comparison(authors_baselines())


def authors_cell_causes() -> dict[tuple[str, str, str], Cause]:
    """Causes of single Table B.3 cells of CAL500 and enron from the authors' material.

    :func:`.authors_causes.limo_causes`, :func:`.authors_causes.variant_causes` and
    :func:`.authors_causes.baseline_causes`; made anew on each call, like :func:`causes`.
    """
    paper = R.paper_b3()
    out = AC.limo_causes(authors_limo(), paper)
    out.update(AC.variant_causes(authors_variants()))
    out.update(AC.baseline_causes(authors_baselines(), paper))
    return out


def causes() -> dict[str, Cause]:
    """The chapter's causes: :func:`.report.make_causes`, the two found on bibtex and BR's.

    ``f1_threshold_bibtex`` (:func:`.report.account_cause` of :func:`bibtex_check`),
    ``limo_other_bibtex`` (:func:`.report.passes_cause` of :func:`epochs_comparison`) and
    ``br`` and ``gfm`` (:func:`.report.br_cause`, :func:`.report.gfm_cause` of the runs
    inside the authors' protocol).
    Made anew on each call: a cause shared by rows must come from one call.
    """
    out: dict[str, Any] = R.make_causes()
    out["f1_threshold_bibtex"] = R.account_cause(bibtex_check(), "bibtex")
    out["limo_other_bibtex"] = R.passes_cause(epochs_comparison())
    base, paper = authors_baselines(), R.paper_b3()
    out["br"] = R.br_cause(AC.solver_summary(base, paper))
    out["gfm"] = R.gfm_cause(AC.method_within(base, paper, "GFM"))
    return out
