"""The numeric statements behind Wu & Zhou's (2017) Theorems 3-5, evaluated.

* Theorem 4 (label-wise effective :math:`F`, per-instance threshold making
  :math:`\\epsilon_i` errors on instance :math:`i`) and Theorem 5 (instance-wise
  effective :math:`F`, per-label threshold making :math:`\\epsilon_j` errors on label
  :math:`j`) bound instance-/micro-F1, macro-F1 and Hamming loss by
  :func:`f1_error_bound` and :math:`\\frac{1}{ml}\\sum \\epsilon`.
  :func:`threshold_bound_draws` measures both sides on random effective predictors;
  :func:`micro_f1_counterexample` is a case where micro-F1 falls below Theorem 4's
  bound (the step "micro-F1 = instance-F1 for i.i.d. instances" of Appendix A.1).
* Inequality (2) in the proof of Theorem 3, for :math:`A_1..A_n, C \\sim U(0,1)` and
  :math:`B \\sim U(0, \\min_i A_i)`:
  :math:`\\Pr[C > B] \\ge \\Pr[(C \\ge a) \\wedge (\\exists A_i \\le a)]
  = (1 - a/2)[1 - (1-a)^n]`.  :func:`inequality2` gives the exact values of both
  probabilities and the paper's right-hand side.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mlcbook.margins import effective_scores, threshold_with_errors
from mlcbook.metrics import f_measure, hamming_loss
from mlcbook.validation import Int, Real, Seed, check_label_matrix, validate_params

__all__ = [
    "f1_error_bound",
    "threshold_bound_draws",
    "micro_f1_counterexample",
    "inequality2",
    "inequality2_monte_carlo",
]


def f1_error_bound(n_pos, errors) -> float:
    """Theorem 4/5's lower bound: the mean over units of the worse of the two F1 values.

    Per unit (an instance for Theorem 4, a label for Theorem 5) with :math:`P`
    relevant entries and :math:`\\epsilon` threshold errors,
    :math:`\\min\\{2(P-\\epsilon)/(2P-\\epsilon),\\ 2P/(2P+\\epsilon)\\}`: all errors
    missed positives, or all errors false positives (a cut on a correctly ordered
    row is one-sided).  Missing more positives than there are is impossible, so the
    first case counts only when :math:`\\epsilon \\le P`; a unit with
    :math:`P = \\epsilon = 0` scores 1 (nothing to find, nothing claimed, as
    :mod:`mlcbook.metrics`).
    """
    P = np.asarray(n_pos, dtype=float).ravel()
    e = np.asarray(errors, dtype=float).ravel()
    if P.shape != e.shape:
        raise ValueError(f"n_pos and errors must have one length, got {P.shape}, {e.shape}")
    if (P < 0).any() or (e < 0).any():
        raise ValueError("n_pos and errors must be >= 0")
    with np.errstate(invalid="ignore", divide="ignore"):
        fp_case = np.where(P + e > 0, 2 * P / (2 * P + e), 1.0)
        fn_case = np.where(2 * P - e > 0, 2 * (P - e) / (2 * P - e), (P == 0) * 1.0)
    worst = np.where(e <= P, np.minimum(fp_case, fn_case), fp_case)
    return float(worst.mean())


@validate_params(errors=Int(0, 10**6), n_draws=Int(1, 100_000), seed=Seed())
def threshold_bound_draws(Y, errors: int = 1, n_draws: int = 20, seed=0) -> pd.DataFrame:
    """Both sides of Theorems 4 and 5 on random effective predictors of ``Y``.

    Each draw builds a label-wise effective :math:`F` thresholded per instance
    (:math:`t(\\mathbf x)`) and an instance-wise effective one thresholded per label
    (:math:`t_j`), each threshold moved ``errors`` places off its correct cut up or
    down at random (:func:`mlcbook.margins.threshold_with_errors`).  The realised
    errors per unit enter the bounds.

    Returns
    -------
    DataFrame
        One row per draw and theorem: ``theorem``, ``measure``, ``value``, ``bound``
        and ``holds`` (F1 ``value >= bound``, Hamming loss ``value <= bound``, with a
        1e-12 allowance for float rounding).
    """
    Y = check_label_matrix(Y, "Y", allow_sparse=False).astype(np.int8)
    m, l = Y.shape
    rng = np.random.default_rng(seed)
    rows = []
    for d in range(n_draws):
        for thm, kind, fam, axis in (
            ("Thm 4", "label-wise", "t(x)", 1),
            ("Thm 5", "inst-wise", "t_j", 0),
        ):
            F = effective_scores(Y, kind, int(rng.integers(2**32)))
            H = threshold_with_errors(F, Y, fam, int(rng.integers(2**32)), errors=errors)
            eps = (H != Y).sum(axis=axis)
            f1_bound = f1_error_bound(Y.sum(axis=axis), eps)
            measures = ["instance", "micro"] if thm == "Thm 4" else ["macro"]
            for avg in measures:
                v = float(f_measure(Y, H, average=avg))
                rows.append((d, thm, f"{avg}-F1", v, f1_bound, v >= f1_bound - 1e-12))
            v, b = float(hamming_loss(Y, H)), eps.sum() / (m * l)
            rows.append((d, thm, "Hamming loss", v, b, v <= b + 1e-12))
    return pd.DataFrame(rows, columns=["draw", "theorem", "measure", "value", "bound", "holds"])


def micro_f1_counterexample() -> dict:
    """A label-wise effective :math:`F` and :math:`t(\\mathbf x)` whose micro-F1 breaks
    Theorem 4's bound.

    Instance 1 has ten relevant labels (scored 1) and one irrelevant (scored 0);
    instance 2 one relevant label (1) and ten irrelevant (0).  The threshold 1.5 on
    instance 1 misses all ten (:math:`\\epsilon_1 = 10`), 0.5 on instance 2 is exact.
    The bound is :math:`(0 + 1)/2 = 1/2`; instance-F1 is 1/2, micro-F1
    :math:`2 \\cdot 1/(11 + 1) = 1/6`.
    """
    Y = np.zeros((2, 11), dtype=np.int8)
    Y[0, :10] = 1
    Y[1, 0] = 1
    F = Y.astype(float)
    t = np.array([1.5, 0.5])
    H = (F > t[:, None]).astype(np.int8)
    eps = (H != Y).sum(axis=1)
    return {
        "Y": Y,
        "F": F,
        "H": H,
        "errors": eps,
        "bound": f1_error_bound(Y.sum(axis=1), eps),
        "instance_f1": float(f_measure(Y, H, average="instance")),
        "micro_f1": float(f_measure(Y, H, average="micro")),
    }


@validate_params(a=Real(0.0, 1.0), n=Int(1, 10**9))
def inequality2(a: float, n: int) -> dict:
    """Exact values in inequality (2) of the proof of Theorem 3.

    Returns
    -------
    dict
        ``p_c_gt_b`` :math:`= \\Pr[C > B] = 1 - \\frac{1}{2(n+1)}` (given
        :math:`M = \\min A_i`, :math:`\\Pr[C > B] = 1 - M/2`, and
        :math:`E[M] = 1/(n+1)`); ``p_event`` :math:`= \\Pr[(C \\ge a) \\wedge
        (M \\le a)] = (1-a)[1-(1-a)^n]` (independence); ``paper_rhs``
        :math:`= (1 - a/2)[1-(1-a)^n]`, the value the paper gives the event.
    """
    hit = 1.0 - (1.0 - a) ** n
    return {
        "p_c_gt_b": 1.0 - 1.0 / (2.0 * (n + 1)),
        "p_event": (1.0 - a) * hit,
        "paper_rhs": (1.0 - a / 2.0) * hit,
    }


@validate_params(a=Real(0.0, 1.0), n=Int(1, 10**4), draws=Int(1, 10**7), seed=Seed())
def inequality2_monte_carlo(a: float, n: int, draws: int = 200_000, seed=0) -> dict:
    """Monte-Carlo estimates of ``p_c_gt_b`` and ``p_event`` of :func:`inequality2`."""
    rng = np.random.default_rng(seed)
    M = rng.random((draws, n)).min(axis=1)
    B = rng.random(draws) * M
    C = rng.random(draws)
    return {"p_c_gt_b": float((C > B).mean()), "p_event": float(((C >= a) & (M <= a)).mean())}
