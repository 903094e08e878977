"""Each claim about the standard measures, computed from :mod:`mlcbook.metrics`.

One function per piece of evidence; :func:`mlcrepro.zhang_zhou2014.collect.evidence`
calls them once and freezes what they return.  Everything is computed from the library
(and scikit-learn, the independent implementation), on the seeded problems of
:mod:`.problems` and the printed inputs of :mod:`mlcrepro.worked_examples`:

* the definitions -- Zhang & Zhou's five example-based measures (Sec. 2.2.2) and Wu &
  Zhou's Table 1 against scikit-learn, one-error against a brute-force count;
* the identities -- the F-combination of :math:`F^\\beta_{exam}`, the single-label
  Hamming loss, the coverage of a label-wise effective scorer (Wu & Zhou, Thm 1(c));
* the worked example of Park & Read's Table 1;
* the conventions -- the four instances of :mod:`.problems`, a constant scorer, ties
  under Table 1's literal ``>=``;
* the strictness of subset accuracy as the number of labels grows.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from sklearn import metrics as skm

from mlcbook import metrics as M
from mlcrepro.display import MEASURE_NAMES
from mlcrepro.worked_examples import PARK_READ_TABLE1_PREDICTIONS, PARK_READ_TABLE1_TRUTH
from mlcrepro.zhang_zhou2014.problems import EDGE_SCORES, EDGE_TRUTH, random_label_pair

__all__ = [
    "SIMILARITIES",
    "DEFINITIONS",
    "park_read_table1",
    "sklearn_comparison",
    "all_measures_gap",
    "auc_ge",
    "edge_cases",
    "constant_scorer",
    "single_label",
    "effective_coverage",
    "definition_gaps",
    "f_beta_combination",
    "Strictness",
    "subset_strictness",
    "one_error_gap",
]

#: Park & Read's three similarities (their eqs. 1-3), from mlcbook.metrics
SIMILARITIES: dict[str, Callable[..., Any]] = {
    "Hamming": lambda t, p: 1 - M.hamming_loss(t, p),
    "Exact": M.subset_accuracy,
    "Jaccard": M.instance_jaccard,
}

#: Zhang & Zhou's five example-based measures -> scikit-learn's call for each
DEFINITIONS = {
    "subset accuracy": "accuracy_score",
    "Hamming loss": "hamming_loss",
    "Accuracy_exam": "jaccard_score(average='samples')",
    "Precision_exam": "precision_score(average='samples')",
    "Recall_exam": "recall_score(average='samples')",
}


def park_read_table1() -> pd.DataFrame:
    """Park & Read's Table 1: each similarity per instance (x1..x5) and, last, the means.

    The means are computed on the whole matrices, not from the rounded rows.

    >>> park_read_table1().loc["mean"].round(4).tolist()
    [0.8, 0.4, 0.6667]
    """
    Y, P = PARK_READ_TABLE1_TRUTH, PARK_READ_TABLE1_PREDICTIONS
    table = pd.DataFrame(
        {name: [f(t, p) for t, p in zip(Y, P)] for name, f in SIMILARITIES.items()},
        index=[f"x{k}" for k in range(1, 6)],
    )
    table.loc["mean"] = [f(Y, P) for f in SIMILARITIES.values()]
    return table


def sklearn_comparison(Y: np.ndarray, F: np.ndarray, P: np.ndarray) -> pd.DataFrame:
    """Every measure of :mod:`mlcbook.metrics` beside scikit-learn's.

    Columns ``mlcbook`` and ``scikit-learn`` (NaN for one-error, which has no
    counterpart); the example-based measures against ``average='samples'``, coverage
    against ``coverage_error`` minus one; zero division 1 on both sides.
    """
    zd: dict[str, Any] = {"zero_division": 1.0}
    smp: dict[str, Any] = {"average": "samples", **zd}
    pairs = {
        "Hamming loss": (M.hamming_loss(Y, P), skm.hamming_loss(Y, P)),
        "subset accuracy": (M.subset_accuracy(Y, P), skm.accuracy_score(Y, P)),
        "Jaccard (example-based accuracy)": (
            M.instance_jaccard(Y, P),
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
            M.label_ranking_average_precision(Y, F),
            skm.label_ranking_average_precision_score(Y, F),
        ),
    }
    for avg, sk_avg in (("macro", "macro"), ("instance", "samples"), ("micro", "micro")):
        pairs[f"{avg}-AUC"] = (M.auc(Y, F, avg), skm.roc_auc_score(Y, F, average=sk_avg))
    return pd.DataFrame(pairs, index=["mlcbook", "scikit-learn"]).T


def all_measures_gap(
    Y: np.ndarray, F: np.ndarray, P: np.ndarray, comparison: pd.DataFrame
) -> tuple[float, int]:
    """Largest |mlcbook - scikit-learn| of ``comparison``, also over ``all_measures``.

    ``comparison`` is :func:`sklearn_comparison` of the same ``Y, F, P``; the eleven
    values of :func:`mlcbook.metrics.all_measures` must equal its ``mlcbook`` column.
    Returns the gap (rounded to 12 decimals) and the number of measures compared.
    """
    diff = (comparison["mlcbook"] - comparison["scikit-learn"]).abs()
    eleven = pd.Series(M.all_measures(Y, F, P)).rename(MEASURE_NAMES)
    gap = max(diff.max(), (eleven - comparison.loc[eleven.index, "mlcbook"]).abs().max())
    return round(float(gap), 12), int(diff.notna().sum())


def auc_ge(y: np.ndarray, f: np.ndarray) -> float:
    """Wu & Zhou's Table 1 literally: the share of (positive, negative) pairs with ``>=``.

    >>> auc_ge(np.array([1, 0, 1, 0]), np.array([0.5, 0.5, 0.2, 0.2]))
    0.75
    """
    pos, neg = f[y == 1], f[y == 0]
    return float((pos[:, None] >= neg[None, :]).mean())


def edge_cases() -> pd.DataFrame:
    """The conventions' four instances: mlcbook beside scikit-learn (NaN where undefined)."""
    Ye, Fe = EDGE_TRUTH, EDGE_SCORES
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scikit-learn warns about the undefined AUCs
        pairs = {
            "ranking loss": (M.ranking_loss(Ye, Fe), skm.label_ranking_loss(Ye, Fe)),
            "average precision": (
                M.label_ranking_average_precision(Ye, Fe),
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


def single_label(y_class: np.ndarray, p_class: np.ndarray, K: int) -> dict[str, float]:
    """Zhang & Zhou's remark: one label per instance, Hamming loss against 2/K x error rate.

    >>> single_label(np.array([0, 1]), np.array([0, 2]), 4)["claimed"]
    0.25
    """
    eye = np.eye(K, dtype=int)
    hl = float(M.hamming_loss(eye[y_class], eye[p_class]))
    err = float(np.mean(y_class != p_class))
    return {"hamming_loss": hl, "error_rate": err, "claimed": 2 / K * err}


def effective_coverage(Y: np.ndarray, F_eff: np.ndarray) -> dict[str, float]:
    """Wu & Zhou's Theorem 1(c) for a label-wise effective ``F_eff`` on the truth ``Y``.

    Its coverage, the theorem's value mean(|Y_i+| - 1), ranking loss and average
    precision.
    """
    return {
        "coverage": float(M.coverage(Y, F_eff)),
        "theorem": float(np.mean(Y.sum(axis=1) - 1)),
        "ranking_loss": float(M.ranking_loss(Y, F_eff)),
        "average_precision": float(M.label_ranking_average_precision(Y, F_eff)),
    }


def _gaps(Y: np.ndarray, P: np.ndarray) -> dict[str, float]:
    """``|mlcbook - scikit-learn|`` per definition (zero_division = 1 on both sides)."""
    pairs = {
        "subset accuracy": (M.subset_accuracy(Y, P), skm.accuracy_score(Y, P)),
        "Hamming loss": (M.hamming_loss(Y, P), skm.hamming_loss(Y, P)),
        "Accuracy_exam": (
            M.instance_jaccard(Y, P, zero_division=1.0),
            skm.jaccard_score(Y, P, average="samples", zero_division=1.0),
        ),
        "Precision_exam": (
            M.precision(Y, P, average="instance", zero_division=1.0),
            skm.precision_score(Y, P, average="samples", zero_division=1.0),
        ),
        "Recall_exam": (
            M.recall(Y, P, average="instance", zero_division=1.0),
            skm.recall_score(Y, P, average="samples", zero_division=1.0),
        ),
    }
    return {k: abs(float(a) - float(b)) for k, (a, b) in pairs.items()}


def definition_gaps(*, seed: int = 0, draws: int = 20) -> dict[str, float]:
    """Largest ``|mlcbook - scikit-learn|`` of each of :data:`DEFINITIONS`.

    Over ``draws`` seeded random pairs (n = 50, K = 2..9 in turn, as scikit-learn reads
    K = 1 as binary; empty label sets included, scored with zero_division = 1 on both
    sides).
    """
    worst = dict.fromkeys(DEFINITIONS, 0.0)
    for d, ss in enumerate(np.random.SeedSequence(seed).spawn(draws)):
        Y, P = random_label_pair(50, 2 + d % 8, seed=ss)
        for k, g in _gaps(Y, P).items():
            worst[k] = max(worst[k], g)
    return worst


def f_beta_combination(*, seed: int = 0) -> dict[str, float]:
    """:math:`F^\\beta_{exam}` against the F-combination of the averaged precision and recall.

    On one seeded random pair (n = 200, K = 6): ``gap``, the largest difference between
    :func:`mlcbook.metrics.example_based_f_measure` and ``(1 + b^2) P R / (b^2 P + R)``
    of ``precision``/``recall(average='instance')`` for b in {0.5, 1, 2};
    ``harmonic``, its difference at b = 1 from the harmonic mean ``2 P R / (P + R)``;
    ``other``, how far the mean of per-instance F1 (a different quantity) lies from it.
    """
    Y, P = random_label_pair(200, 6, seed=seed)
    prec = float(M.precision(Y, P, average="instance"))
    rec = float(M.recall(Y, P, average="instance"))
    gap = max(
        abs(M.example_based_f_measure(Y, P, b) - (1 + b * b) * prec * rec / (b * b * prec + rec))
        for b in (0.5, 1.0, 2.0)
    )
    f1 = M.example_based_f_measure(Y, P, 1.0)
    return {
        "gap": float(gap),
        "harmonic": abs(f1 - 2 * prec * rec / (prec + rec)),
        "other": abs(f1 - float(M.f_measure(Y, P, average="instance"))),
    }


@dataclass(frozen=True)
class Strictness:
    """Subset accuracy and Hamming loss as the number of labels q grows."""

    accuracy: float  #: probability that each label is predicted right
    n: int  #: instances per sample
    qs: tuple[int, ...]  #: the numbers of labels
    subset_accuracy: tuple[float, ...]  #: on the first sample, one per q
    hamming_loss: tuple[float, ...]  #: on the first sample, one per q
    holds: bool  #: subset accuracy falls strictly along qs on the first sample
    hits: int  #: further samples on which it falls strictly too
    resamples: int  #: further samples drawn


def subset_strictness(
    *,
    accuracy: float = 0.9,
    qs: tuple[int, ...] = (1, 2, 4, 8, 16, 32),
    n: int = 2000,
    seed: int = 0,
    resamples: int = 50,
) -> Strictness:
    """Subset accuracy of a predictor right on each label with probability ``accuracy``.

    Labels are predicted independently (binary relevance with a fixed per-label
    accuracy), so the Hamming loss stays near ``1 - accuracy`` whatever q, while the
    expected subset accuracy is ``accuracy**q``.  The first of ``resamples + 1`` seeded
    samples of ``n`` instances gives the curve; the others say how often it falls
    strictly.

    Raises
    ------
    ValueError
        If ``accuracy`` is not strictly between 0 and 1, or ``qs`` not at least two
        increasing positive label counts.
    """
    if not 0.0 < float(accuracy) < 1.0:
        raise ValueError(f"accuracy must lie strictly between 0 and 1, got {accuracy}")
    if len(qs) < 2 or qs[0] < 1 or any(q <= p for p, q in zip(qs, qs[1:])):
        raise ValueError(f"qs must be at least two increasing label counts, got {qs!r}")

    def curve(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        acc, ham = [], []
        for q in qs:
            Y = (rng.random((n, q)) < 0.3).astype(np.int8)
            P = np.where(rng.random((n, q)) < accuracy, Y, 1 - Y)
            acc.append(M.subset_accuracy(Y, P))
            ham.append(M.hamming_loss(Y, P))
        return np.array(acc), np.array(ham)

    seqs = np.random.SeedSequence(seed).spawn(resamples + 1)
    acc, ham = curve(np.random.default_rng(seqs[0]))
    hits = sum(bool(np.all(np.diff(curve(np.random.default_rng(s))[0]) < 0)) for s in seqs[1:])
    return Strictness(
        accuracy=float(accuracy),
        n=n,
        qs=tuple(qs),
        subset_accuracy=tuple(float(a) for a in acc),
        hamming_loss=tuple(float(h) for h in ham),
        holds=bool(np.all(np.diff(acc) < 0)),
        hits=hits,
        resamples=resamples,
    )


def one_error_gap(*, seed: int = 0, draws: int = 20) -> float:
    """Largest |one-error - a brute-force count| (Wu & Zhou, Table 1).

    ``draws`` seeded random (Y, F) pairs (n = 50, K = 2..9, continuous scores, so the
    top label is unique); the count loops over the instances and asks whether the
    top-scored label is irrelevant.
    """
    worst = 0.0
    for d, ss in enumerate(np.random.SeedSequence(seed).spawn(draws)):
        rng = np.random.default_rng(ss)
        K = 2 + d % 8
        Y = (rng.random((50, K)) < 0.35).astype(np.int8)
        F = rng.normal(size=(50, K))
        count = sum(Y[i, int(np.argmax(F[i]))] == 0 for i in range(50)) / 50
        worst = max(worst, abs(M.one_error(Y, F) - count))
    return float(worst)
