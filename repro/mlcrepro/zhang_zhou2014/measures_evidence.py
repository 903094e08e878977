"""The evidence of the measures chapter, computed once per process.

``book/measures.md`` defines the measures of Zhang & Zhou (2014), Wu & Zhou (2017),
Park & Read (2018) and Hivemall and checks their worked examples and side claims.
Every table it shows and its ledger (``mlcrepro.zhang_zhou2014.ledger_measures``) judges
comes from one function here: Park & Read's Table 1, Hivemall's label-set example, the
comparison with scikit-learn on a seeded benchmark-like problem, the four-instance
example of the conventions, and two claims about the measures (Zhang & Zhou's
single-label Hamming loss, Wu & Zhou's Theorem 1(c)). Each result is computed once per
process and handed out as a copy, so that a caller may change what it receives without
changing what the next caller gets.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
from sklearn import metrics as skm

from mlcbook import metrics as M
from mlcrepro.display import MEASURE_NAMES
from mlcrepro.evidence_common import once
from mlcrepro.park_read2018.blended_evidence import TABLE1_PREDICTIONS, TABLE1_TRUTH

__all__ = [
    "TABLE1_PREDICTIONS",
    "TABLE1_TRUTH",
    "SIMILARITIES",
    "HIVEMALL_TRUTH",
    "HIVEMALL_PREDICTED",
    "EDGE_TRUTH",
    "EDGE_SCORES",
    "park_read_table1",
    "hivemall",
    "benchmark_problem",
    "sklearn_comparison",
    "all_measures_gap",
    "auc_ge",
    "constant_scorer",
    "edge_cases",
    "single_label",
    "effective_coverage",
]

#: Park & Read's three similarities, from mlcbook.metrics
SIMILARITIES: dict[str, Callable[..., Any]] = {
    "Hamming": lambda t, p: 1 - M.hamming_loss(t, p),
    "Exact": M.subset_accuracy,
    "Jaccard": M.jaccard_score,
}
#: Hivemall's example: true and predicted tags of seven posts
HIVEMALL_TRUTH = [
    ["cat", "bird"],
    ["cat", "dog"],
    ["cat"],
    ["bird"],
    ["bird", "cat"],
    ["cat", "dog"],
    ["dog", "bird"],
]
HIVEMALL_PREDICTED = [
    ["cat", "dog"],
    ["cat", "bird"],
    [],
    ["bird"],
    ["bird", "cat"],
    ["cat", "dog", "bird"],
    ["dog"],
]
#: the conventions' four instances: no relevant label, all relevant, tied scores, ordinary
EDGE_TRUTH = np.array([[0, 0, 0, 0], [1, 1, 1, 1], [1, 0, 1, 0], [1, 0, 0, 1]])
EDGE_SCORES = np.array(
    [[0.9, 0.1, 0.4, 0.2], [0.3, 0.8, 0.5, 0.1], [0.5, 0.5, 0.2, 0.2], [0.7, 0.6, 0.1, 0.4]]
)


@once
def park_read_table1() -> pd.DataFrame:
    """Park & Read's Table 1: each similarity per instance (x1..x5) and, last, the means.

    The means are computed on the whole matrices, not from the rounded rows.
    """
    Y, P = TABLE1_TRUTH, TABLE1_PREDICTIONS
    table = pd.DataFrame(
        {name: [f(t, p) for t, p in zip(Y, P)] for name, f in SIMILARITIES.items()},
        index=[f"x{k}" for k in range(1, 6)],
    )
    table.loc["mean"] = [f(Y, P) for f in SIMILARITIES.values()]
    return table


@once
def hivemall() -> dict[str, Any]:
    """Hivemall's example: the counts per post, micro F1 and F2, and their limits in beta.

    Keys: ``labels``, ``counts`` (per post: truth, predicted, tp, fn, fp), ``tp``,
    ``fn``, ``fp``, ``f1``, ``f2`` (:func:`mlcbook.metrics.f_measure_label_sets`),
    ``sk_f2`` (scikit-learn's micro ``fbeta_score`` of the binarised sets),
    ``precision``, ``recall`` (micro), ``f2_via_pr`` (5PR/(4P+R)), ``f_big`` and
    ``f_tiny`` (beta = 1000 and 0.001).
    """
    truth, pred = HIVEMALL_TRUTH, HIVEMALL_PREDICTED
    A, labels = M.binarize(truth)
    B, _ = M.binarize(pred, labels)
    Ab, Bb = A.astype(bool), B.astype(bool)
    counts = pd.DataFrame(
        {
            "truth": [", ".join(t) or "(none)" for t in truth],
            "predicted": [", ".join(p) or "(none)" for p in pred],
            "tp": (Ab & Bb).sum(axis=1),
            "fn": (Ab & ~Bb).sum(axis=1),
            "fp": (~Ab & Bb).sum(axis=1),
        }
    )
    tp, fn, fp = (int(v) for v in counts[["tp", "fn", "fp"]].sum())
    p_micro, r_micro = tp / (tp + fp), tp / (tp + fn)
    return {
        "labels": labels,
        "counts": counts,
        "tp": tp,
        "fn": fn,
        "fp": fp,
        "f1": M.f_measure_label_sets(truth, pred),
        "f2": M.f_measure_label_sets(truth, pred, beta=2.0),
        "sk_f2": skm.fbeta_score(A, B, beta=2.0, average="micro"),
        "precision": p_micro,
        "recall": r_micro,
        "f2_via_pr": 5 * p_micro * r_micro / (4 * p_micro + r_micro),
        "f_big": M.f_measure_label_sets(truth, pred, beta=1e3),
        "f_tiny": M.f_measure_label_sets(truth, pred, beta=1e-3),
    }


@once
def _draws() -> dict[str, np.ndarray]:
    """Every random draw of the chapter, from one generator (seed 2024), in order."""
    rng = np.random.default_rng(2024)
    n, K = 2000, 20
    freq = 0.4 * (0.05 / 0.4) ** (np.arange(K) / (K - 1))  # 40% ... 2%
    latent = rng.normal(size=(n, 3)) @ rng.normal(size=(3, K))  # correlated labels
    logit = np.log(freq / (1 - freq)) + latent
    Y = (rng.random((n, K)) < 1 / (1 + np.exp(-logit))).astype(int)
    Y[np.arange(n), rng.integers(0, K, n)] = 1  # at least one relevant label
    full = Y.sum(axis=1) == K
    Y[full, rng.integers(0, K, full.sum())] = 0  # and at least one irrelevant
    F = np.round(1 / (1 + np.exp(-(logit + rng.normal(scale=1.0, size=(n, K))))), 2)
    y_class = rng.integers(0, K, n)
    p_class = np.where(rng.random(n) < 0.3, rng.integers(0, K, n), y_class)
    F_eff = Y + 0.5 * rng.random((n, K))  # relevant in (1, 1.5), irrelevant in (0, 0.5)
    return {
        "Y": Y,
        "F": F,
        "P": (F >= 0.5).astype(int),
        "y_class": y_class,
        "p_class": p_class,
        "F_eff": F_eff,
    }


def benchmark_problem() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The seeded benchmark-like problem: truth Y, scores F (two decimals), predictions P.

    n = 2000 instances, K = 20 labels with frequencies falling from about 40% to 2%,
    correlated through a three-factor latent model; every row has a relevant and an
    irrelevant label; P thresholds F at 0.5.
    """
    d = _draws()
    return d["Y"], d["F"], d["P"]


@once
def sklearn_comparison() -> pd.DataFrame:
    """Every measure of :mod:`mlcbook.metrics` beside scikit-learn's on :func:`benchmark_problem`.

    Columns ``mlcbook`` and ``scikit-learn`` (NaN for one-error, which has no
    counterpart); coverage against ``coverage_error`` minus one; zero division 1.
    """
    Y, F, P = benchmark_problem()
    zd: dict[str, Any] = {"zero_division": 1.0}
    smp: dict[str, Any] = {"average": "samples", **zd}
    pairs = {
        "Hamming loss": (M.hamming_loss(Y, P), skm.hamming_loss(Y, P)),
        "subset accuracy": (M.subset_accuracy(Y, P), skm.accuracy_score(Y, P)),
        "Jaccard (example-based accuracy)": (
            M.jaccard_score(Y, P),
            skm.jaccard_score(Y, P, **smp),
        ),
        "precision, instance": (
            M.precision(Y, P, average="instance"),
            skm.precision_score(Y, P, **smp),
        ),
        "recall, instance": (M.recall(Y, P, average="instance"), skm.recall_score(Y, P, **smp)),
        "instance-F1": (M.f_measure(Y, P, 1, "instance"), skm.f1_score(Y, P, **smp)),
        "macro-F1": (M.f_measure(Y, P, 1, "macro"), skm.f1_score(Y, P, average="macro", **zd)),
        "micro-F1": (M.f_measure(Y, P, 1, "micro"), skm.f1_score(Y, P, average="micro", **zd)),
        "micro-F2": (
            M.f_measure(Y, P, 2, "micro"),
            skm.fbeta_score(Y, P, beta=2, average="micro", **zd),
        ),
        "ranking loss": (M.ranking_loss(Y, F), skm.label_ranking_loss(Y, F)),
        "one-error": (M.one_error(Y, F), np.nan),
        "coverage": (M.coverage(Y, F), skm.coverage_error(Y, F) - 1),
        "average precision": (
            M.average_precision(Y, F),
            skm.label_ranking_average_precision_score(Y, F),
        ),
    }
    for avg, sk_avg in (("macro", "macro"), ("instance", "samples"), ("micro", "micro")):
        pairs[f"{avg}-AUC"] = (M.auc(Y, F, avg), skm.roc_auc_score(Y, F, average=sk_avg))
    return pd.DataFrame(pairs, index=["mlcbook", "scikit-learn"]).T


@once
def all_measures_gap() -> tuple[float, int]:
    """Largest |mlcbook - scikit-learn|, also over :func:`mlcbook.metrics.all_measures`.

    Returns the gap (rounded to 12 decimals) and the number of measures compared.
    """
    Y, F, P = benchmark_problem()
    cmp = sklearn_comparison()
    diff = (cmp["mlcbook"] - cmp["scikit-learn"]).abs()
    eleven = pd.Series(M.all_measures(Y, F, P)).rename(MEASURE_NAMES)
    gap = max(diff.max(), (eleven - cmp.loc[eleven.index, "mlcbook"]).abs().max())
    return round(float(gap), 12), int(diff.notna().sum())


def auc_ge(y: np.ndarray, f: np.ndarray) -> float:
    """Wu & Zhou's Table 1 literally: the share of (positive, negative) pairs with ``>=``.

    >>> auc_ge(np.array([1, 0, 1, 0]), np.array([0.5, 0.5, 0.2, 0.2]))
    0.75
    """
    pos, neg = f[y == 1], f[y == 0]
    return float((pos[:, None] >= neg[None, :]).mean())


@once
def edge_cases() -> pd.DataFrame:
    """The conventions' four instances: mlcbook beside scikit-learn (NaN where undefined)."""
    Ye, Fe = EDGE_TRUTH, EDGE_SCORES
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scikit-learn warns about the undefined AUCs
        pairs = {
            "ranking loss": (M.ranking_loss(Ye, Fe), skm.label_ranking_loss(Ye, Fe)),
            "average precision": (
                M.average_precision(Ye, Fe),
                skm.label_ranking_average_precision_score(Ye, Fe),
            ),
            "coverage (sklearn: coverage_error - 1)": (
                M.coverage(Ye, Fe),
                skm.coverage_error(Ye, Fe) - 1,
            ),
            "one-error": (M.one_error(Ye, Fe), np.nan),
            "instance-AUC": (
                M.auc(Ye, Fe, "instance"),
                skm.roc_auc_score(Ye, Fe, average="samples"),
            ),
            "macro-AUC": (M.auc(Ye, Fe, "macro"), skm.roc_auc_score(Ye, Fe, average="macro")),
        }
    return pd.DataFrame(pairs, index=["mlcbook", "scikit-learn"]).T


@once
def constant_scorer() -> dict[str, float]:
    """A constant F on the conventions' instances with labels of both kinds (the last two).

    ``literal``: the mean instance-AUC under Table 1's ``>=`` (:func:`auc_ge`); ``ours``:
    :func:`mlcbook.metrics.auc` (ties one half) and ``coverage`` on all four instances.
    """
    const = np.ones_like(EDGE_SCORES)
    literal = float(np.mean([auc_ge(y, f) for y, f in zip(EDGE_TRUTH[2:], const[2:])]))
    return {
        "literal": literal,
        "ours": float(M.auc(EDGE_TRUTH, const, "instance")),
        "coverage": float(M.coverage(EDGE_TRUTH, const)),
    }


@once
def single_label() -> dict[str, float]:
    """Zhang & Zhou's remark: one label per instance, Hamming loss against 2/K x error rate.

    2000 instances, K = 20 classes, 30% of the predictions replaced by a random class.
    """
    d = _draws()
    K = d["Y"].shape[1]
    eye = np.eye(K, dtype=int)
    hl = float(M.hamming_loss(eye[d["y_class"]], eye[d["p_class"]]))
    err = float(np.mean(d["y_class"] != d["p_class"]))
    return {"hamming_loss": hl, "error_rate": err, "claimed": 2 / K * err}


@once
def effective_coverage() -> dict[str, float]:
    """Wu & Zhou's Theorem 1(c) on :func:`benchmark_problem`'s truth.

    A label-wise effective F (relevant scores in (1, 1.5), irrelevant in (0, 0.5)):
    its coverage, the theorem's value mean(|Y_i+| - 1), ranking loss and average precision.
    """
    d = _draws()
    Y, F_eff = d["Y"], d["F_eff"]
    return {
        "coverage": float(M.coverage(Y, F_eff)),
        "theorem": float(np.mean(Y.sum(axis=1) - 1)),
        "ranking_loss": float(M.ranking_loss(Y, F_eff)),
        "average_precision": float(M.average_precision(Y, F_eff)),
    }
