"""Speed of mlcbook.metrics against scikit-learn, n = 10**5 instances x K = 50 labels.

Every measure is timed against the scikit-learn call that computes the same
value (checked before timing), in the same process, best of a few repeats, and
printed as a ratio (ours / scikit-learn; below 1 means faster).

* "counts": a classification measure on 0/1 matrices, validated once and
  counted in one or two NumPy passes (it used to call scikit-learn).  Also
  printed: its ratio to the *one-pass limit* ``np.mean(Y != P)`` on the same
  matrices (target <= 3x, validation included; issue 16).
* "own": a vectorised implementation tested equal to scikit-learn.
* scikit-learn's ``label_ranking_loss``, ``label_ranking_average_precision_score``
  and ``roc_auc_score(average='samples')`` loop over instances in Python
  (minutes at this size on a shared machine); they are timed on the first
  ``N_SUB`` rows and scaled linearly to n (marked ``*``), while ours run on all n.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import numpy as np
from sklearn import metrics as skm

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import best_of  # noqa: E402

from mlcbook import metrics as M  # noqa: E402

N, K, N_SUB, REPEAT = 10**5, 50, 10**4, 3


def _problem(n: int, k: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    F = rng.normal(size=(n, k)) + np.linspace(1.0, -1.0, k)  # labels of varying frequency
    Y = (F + rng.normal(scale=1.5, size=(n, k)) > 1.2).astype(np.int64)
    # every instance and every label has a positive and a negative entry, so that
    # scikit-learn's AUCs are defined everywhere
    one = rng.integers(0, k, n)
    zero = (one + rng.integers(1, k, n)) % k  # a different column
    Y[np.arange(n), one] = 1
    Y[np.arange(n), zero] = 0
    Y[0], Y[1] = 1, 0
    Y[0, 0], Y[1, 1] = 0, 1
    P = (F > 0.8).astype(np.int64)
    return Y, P, F


def _cases(Y, P, F):
    """(name, ours, sklearn, kind, sklearn-on-subset?)"""
    zd = dict(zero_division=1.0)
    S = slice(0, N_SUB)
    return [
        ("hamming_loss", lambda: M.hamming_loss(Y, P),
         lambda: skm.hamming_loss(Y, P), "counts", False),
        ("subset_accuracy", lambda: M.subset_accuracy(Y, P),
         lambda: skm.accuracy_score(Y, P), "counts", False),
        ("subset_zero_one_loss", lambda: M.subset_zero_one_loss(Y, P),
         lambda: skm.zero_one_loss(Y, P), "counts", False),
        ("jaccard_score", lambda: M.jaccard_score(Y, P),
         lambda: skm.jaccard_score(Y, P, average="samples", **zd), "counts", False),
        ("precision micro", lambda: M.precision(Y, P, average="micro"),
         lambda: skm.precision_score(Y, P, average="micro", **zd), "counts", False),
        ("recall macro", lambda: M.recall(Y, P, average="macro"),
         lambda: skm.recall_score(Y, P, average="macro", **zd), "counts", False),
        ("precision instance", lambda: M.precision(Y, P, average="instance"),
         lambda: skm.precision_score(Y, P, average="samples", **zd), "counts", False),
        ("recall instance", lambda: M.recall(Y, P, average="instance"),
         lambda: skm.recall_score(Y, P, average="samples", **zd), "counts", False),
        ("f_measure micro", lambda: M.f_measure(Y, P, 1, "micro"),
         lambda: skm.f1_score(Y, P, average="micro", **zd), "counts", False),
        ("f_measure macro", lambda: M.f_measure(Y, P, 1, "macro"),
         lambda: skm.f1_score(Y, P, average="macro", **zd), "counts", False),
        ("f_measure instance", lambda: M.f_measure(Y, P, 1, "instance"),
         lambda: skm.f1_score(Y, P, average="samples", **zd), "counts", False),
        ("f_measure beta=2 micro", lambda: M.f_measure(Y, P, 2, "micro"),
         lambda: skm.fbeta_score(Y, P, beta=2, average="micro", **zd), "counts", False),
        ("example_based_f_measure", lambda: M.example_based_f_measure(Y, P),
         lambda: (skm.precision_score(Y, P, average="samples", **zd),
                  skm.recall_score(Y, P, average="samples", **zd)), "counts", False),
        ("coverage (+1)", lambda: M.coverage(Y, F),
         lambda: skm.coverage_error(Y, F), "own", False),
        ("ranking_loss", lambda: M.ranking_loss(Y, F),
         lambda: skm.label_ranking_loss(Y[S], F[S]), "own", True),
        ("average_precision", lambda: M.average_precision(Y, F),
         lambda: skm.label_ranking_average_precision_score(Y[S], F[S]), "own", True),
        ("auc macro", lambda: M.auc(Y, F, "macro"),
         lambda: skm.roc_auc_score(Y, F, average="macro"), "own", False),
        ("auc micro", lambda: M.auc(Y, F, "micro"),
         lambda: skm.roc_auc_score(Y, F, average="micro"), "own", False),
        ("auc instance", lambda: M.auc(Y, F, "instance"),
         lambda: skm.roc_auc_score(Y[S], F[S], average="samples"), "own", True),
    ]


def _check_equal(Y, P, F) -> None:
    """The compared calls compute the same numbers (on a subset, for speed)."""
    y, p, f = Y[:2000], P[:2000], F[:2000]
    zd = dict(zero_division=1.0)
    pairs = [
        (M.hamming_loss(y, p), skm.hamming_loss(y, p)),
        (M.subset_accuracy(y, p), skm.accuracy_score(y, p)),
        (M.jaccard_score(y, p), skm.jaccard_score(y, p, average="samples", **zd)),
        (M.f_measure(y, p, 1, "instance"), skm.f1_score(y, p, average="samples", **zd)),
        (M.f_measure(y, p, 1, "macro"), skm.f1_score(y, p, average="macro", **zd)),
        (M.coverage(y, f) + 1, skm.coverage_error(y, f)),
        (M.ranking_loss(y, f), skm.label_ranking_loss(y, f)),
        (M.average_precision(y, f), skm.label_ranking_average_precision_score(y, f)),
        (M.auc(y, f, "macro"), skm.roc_auc_score(y, f, average="macro")),
        (M.auc(y, f, "micro"), skm.roc_auc_score(y, f, average="micro")),
        (M.auc(y, f, "instance"), skm.roc_auc_score(y, f, average="samples")),
    ]
    for i, (a, b) in enumerate(pairs):
        assert abs(a - b) < 1e-12, (i, a, b)


def main(n: int = N, k: int = K) -> None:
    Y, P, F = _problem(n, k)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing may be ill-defined for scikit-learn here
        _check_equal(Y, P, F)
    scale_sub = n / min(N_SUB, n)
    t_limit = best_of(lambda: np.mean(Y != P), repeat=REPEAT)
    print(f"n = {n} instances x K = {k} labels, {Y.dtype}; best of {REPEAT}; "
          "ratio = ours / scikit-learn")
    print(f"one-pass limit np.mean(Y != P): {t_limit * 1e3:.1f} ms")
    print(f"{'measure':<26s} {'kind':<6s} {'ours ms':>10s} {'sklearn ms':>12s} "
          f"{'ratio':>8s} {'x limit':>8s}")
    t_all_sk = 0.0
    for name, ours, ref, kind, on_subset in _cases(Y, P, F):
        t_ours = best_of(ours, repeat=REPEAT)
        # the instance-looping scikit-learn calls: one round on N_SUB rows, scaled to n
        t_ref = best_of(ref, repeat=1 if on_subset else REPEAT)
        if on_subset:
            t_ref *= scale_sub
        t_all_sk += t_ref if name in _ELEVEN_SK else 0.0
        mark = "*" if on_subset else " "
        x_limit, flag = "", ""
        if kind == "counts":
            x_limit = f"{t_ours / t_limit:8.2f}"
            flag = "  (target <= 3x limit: NOT met)" if t_ours > 3 * t_limit else ""
        print(f"{name:<26s} {kind:<6s} {t_ours * 1e3:10.1f} {t_ref * 1e3:11.1f}{mark} "
              f"{t_ours / t_ref:8.3g} {x_limit}{flag}")
    _int8_table(Y, P, F)
    t_one = best_of(lambda: M.one_error(Y, F), repeat=REPEAT)
    print(f"{'one_error':<26s} {'own':<6s} {t_one * 1e3:10.1f} {'(none)':>12s} {'-':>8s}")
    t_all = best_of(lambda: M.all_measures(Y, F, P), repeat=REPEAT)
    print(f"{'all_measures (11)':<26s} {'own':<6s} {t_all * 1e3:10.1f} {t_all_sk * 1e3:11.1f}  "
          f"{t_all / t_all_sk:8.3g}   (vs the sum of the ten scikit-learn calls)")
    print(f"* scikit-learn timed on the first {min(N_SUB, n)} rows, scaled x{scale_sub:g}")


def _int8_table(Y, P, F) -> None:
    """The "counts" measures again on int8 copies (a cheaper one-pass limit)."""
    Y8, P8 = Y.astype(np.int8), P.astype(np.int8)
    t_limit = best_of(lambda: np.mean(Y8 != P8), repeat=REPEAT)
    print(f"the same on int8 matrices: one-pass limit {t_limit * 1e3:.1f} ms")
    for name, ours, _, kind, _ in _cases(Y8, P8, F):
        if kind == "counts":
            t = best_of(ours, repeat=REPEAT)
            flag = "  (target <= 3x limit: NOT met)" if t > 3 * t_limit else ""
            print(f"  {name:<24s} {t * 1e3:10.1f} ms {t / t_limit:8.2f} x limit{flag}")


# the scikit-learn calls that make up Wu & Zhou's Table 1 (one-error has none)
_ELEVEN_SK = {"hamming_loss", "ranking_loss", "coverage (+1)", "average_precision",
              "f_measure micro", "f_measure macro", "f_measure instance", "auc macro",
              "auc micro", "auc instance"}


if __name__ == "__main__":
    main()
