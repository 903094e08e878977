"""Label-wise and instance-wise margins of a multi-label predictor (Wu & Zhou, 2017).

For a score matrix ``F`` (``F[i, j]`` = :math:`f_j(x_i)`) and labels ``Y``:

* the **label-wise margin** of instance :math:`i` (Definition 1) is
  :math:`\\gamma^{label}_i = \\min_{(u, v) \\in Y_i^+ \\times Y_i^-} f_u(x_i) - f_v(x_i)`,
  i.e. the smallest score of a relevant label minus the largest score of an
  irrelevant label of that row;
* the **instance-wise margin** of label :math:`j` (Definition 2) is
  :math:`\\gamma^{inst}_j = \\min_{(a, b) \\in Y_j^+ \\times Y_j^-} f_j(x_a) - f_j(x_b)`,
  the same quantity on column :math:`j`.

A predictor is *label-wise effective* (Definition 3) when every label-wise margin is
positive, *instance-wise effective* (Definition 4) when every instance-wise margin is
positive, and *double effective* (Definition 5) when both hold.

Rows (columns) without a relevant or without an irrelevant label have no pair; their
margin is the minimum over an empty set, returned as ``+inf``: they impose no
constraint, so they never make a predictor ineffective (the paper's definitions
quantify over the pairs only).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ._validation import (
    Int,
    OneOf,
    Real,
    Seed,
    check_label_matrix,
    check_positive_int,
    check_same_shape,
    check_score_matrix,
    validate_params,
)
from .metrics import WU_ZHOU_MEASURES, all_measures, auc
from .registry import get_measure

__all__ = [
    "effective_scores",
    "threshold_with_errors",
    "table2_check",
    "micro_auc_growth",
    "random_label_matrix",
    "label_wise_margins",
    "instance_wise_margins",
    "is_label_wise_effective",
    "is_instance_wise_effective",
    "is_double_effective",
]


def _validate(Y, F) -> tuple[np.ndarray, np.ndarray]:
    Y = check_label_matrix(Y, "Y", allow_sparse=False)
    F = check_score_matrix(F, "F")
    check_same_shape(Y, F, "Y", "F")
    return Y.astype(bool), F


def _row_margins(Y: np.ndarray, F: np.ndarray) -> np.ndarray:
    """min over relevant of F minus max over irrelevant of F, per row."""
    min_pos = np.where(Y, F, np.inf).min(axis=1)
    max_neg = np.where(Y, -np.inf, F).max(axis=1)
    out = min_pos - max_neg
    # a row without positives or without negatives has no pair: +inf
    out[~Y.any(axis=1) | Y.all(axis=1)] = np.inf
    return out


def label_wise_margins(Y, F) -> np.ndarray:
    """Label-wise margin of every instance (Wu & Zhou 2017, Definition 1).

    Parameters
    ----------
    Y : array-like of shape (n_samples, n_labels)
        True 0/1 labels.
    F : array-like of shape (n_samples, n_labels)
        Real-valued scores, ``F[i, j]`` = :math:`f_j(x_i)`.

    Returns
    -------
    ndarray of shape (n_samples,)
        :math:`\\gamma^{label}_i`; ``+inf`` for an instance whose labels are all
        relevant or all irrelevant (no pair to compare).

    Examples
    --------
    >>> label_wise_margins([[1, 0, 1]], [[0.9, 0.2, 0.5]])
    array([0.3])
    """
    Y, F = _validate(Y, F)
    return _row_margins(Y, F)


def instance_wise_margins(Y, F) -> np.ndarray:
    """Instance-wise margin of every label (Wu & Zhou 2017, Definition 2).

    Parameters
    ----------
    Y : array-like of shape (n_samples, n_labels)
        True 0/1 labels.
    F : array-like of shape (n_samples, n_labels)
        Real-valued scores.

    Returns
    -------
    ndarray of shape (n_labels,)
        :math:`\\gamma^{inst}_j`; ``+inf`` for a label that is relevant for all or
        for no instance.

    Examples
    --------
    >>> instance_wise_margins([[1, 0], [0, 1]], [[0.9, 0.2], [0.5, 0.4]])
    array([0.4, 0.2])
    """
    Y, F = _validate(Y, F)
    return _row_margins(Y.T, F.T)


def is_label_wise_effective(Y, F) -> bool:
    """True if every label-wise margin is positive (Definition 3)."""
    return bool(np.all(label_wise_margins(Y, F) > 0))


def is_instance_wise_effective(Y, F) -> bool:
    """True if every instance-wise margin is positive (Definition 4)."""
    return bool(np.all(instance_wise_margins(Y, F) > 0))


def is_double_effective(Y, F) -> bool:
    """True if every label-wise and every instance-wise margin is positive (Definition 5)."""
    Yv, Fv = _validate(Y, F)
    return bool(np.all(_row_margins(Yv, Fv) > 0) and np.all(_row_margins(Yv.T, Fv.T) > 0))


# ---------------------------------------------------------------------------
# Predictors built to be label-wise, instance-wise or double effective, and the
# empirical check of Table 2
# ---------------------------------------------------------------------------

EFFECTIVENESS = ("label-wise", "inst-wise", "double")


@validate_params(kind=OneOf(EFFECTIVENESS), seed=Seed(), boundary=Int(0, allow_none=True))
def effective_scores(Y, kind: str, seed=None, *, boundary: int | None = None) -> np.ndarray:
    """A random score matrix with exactly the effectiveness ``kind`` on ``Y``.

    * ``'label-wise'``: :math:`f_j(x_i) = c_i + y_{ij} + u_{ij}/2` with a random
      offset :math:`c_i \\sim U(-3, 3)` per instance and :math:`u_{ij} \\sim U(0,1)`:
      every row ranks its relevant labels first, the offsets scramble the columns.
    * ``'inst-wise'``: the same with an offset :math:`c_j` per label.
    * ``'double'``: the construction in the proof of Theorem 3: relevant entries
      :math:`U(0, 1)`, an irrelevant entry :math:`U(0, b)` with :math:`b` the smallest
      relevant score of its row and column.

    ``boundary`` (label-wise: a label index; inst-wise: an instance index) puts that
    label (instance) at the cut of every row (column): lowest relevant or highest
    irrelevant entry -- an adversarial placement used to concentrate threshold errors.
    """
    Y = check_label_matrix(Y, "Y", allow_sparse=False).astype(bool)
    if boundary is not None and kind == "double":
        raise ValueError(
            "boundary places a label (label-wise) or an instance (inst-wise) at the cut; "
            "the 'double' construction has no such place: leave boundary=None"
        )
    if boundary is not None and kind != "double":
        width = Y.shape[1] if kind == "label-wise" else Y.shape[0]
        check_positive_int(boundary, "boundary", low=0, high=width - 1)
    rng = np.random.default_rng(seed)
    m, l = Y.shape
    if kind == "double":
        F = np.where(Y, rng.random((m, l)), 0.0)
        pos_min_row = np.where(Y, F, np.inf).min(axis=1)
        pos_min_col = np.where(Y, F, np.inf).min(axis=0)
        b = np.minimum(np.minimum(pos_min_row[:, None], pos_min_col[None, :]), 1.0)
        return np.where(Y, F, rng.random((m, l)) * b)
    Yw = Y if kind == "label-wise" else Y.T
    mm, ll = Yw.shape
    c = rng.uniform(-3.0, 3.0, size=(mm, 1))
    F = c + Yw + 0.5 * (0.02 + 0.96 * rng.random((mm, ll)))  # entries off the extremes
    if boundary is not None:
        j = int(boundary)
        F[:, j] = np.where(Yw[:, j], c[:, 0] + 1.0, c[:, 0] + 0.5)
    return F if kind == "label-wise" else F.T.copy()


@validate_params(
    family=OneOf(("t(x)", "t_j")),
    seed=Seed(),
    errors=Int(0),
    toward=Int(0, allow_none=True),
)
def threshold_with_errors(
    F, Y, family: str, seed=None, *, errors: int = 1, toward: int | None = None
) -> np.ndarray:
    """Threshold ``F`` per instance (``'t(x)'``) or per label (``'t_j'``) with ``errors``
    threshold errors (Definition 6) in every row (column).

    The cut of each row (column) is moved ``errors`` places away from the correct cut
    (the number of relevant entries), up or down at random -- or, with ``toward``, in
    the direction that mislabels the entry ``toward`` (a label for ``'t(x)'``, an
    instance for ``'t_j'``), which must sit at the cut (see :func:`effective_scores`).
    ``F`` must rank each row (column) correctly for the cut to be one-sided.
    """
    Y = check_label_matrix(Y, "Y", allow_sparse=False).astype(bool)
    F = check_score_matrix(F, "F")
    check_same_shape(Y, F, "Y", "F")
    if toward is not None:
        width = Y.shape[1] if family == "t(x)" else Y.shape[0]
        check_positive_int(toward, "toward", low=0, high=width - 1)
    rng = np.random.default_rng(seed)
    Fw, Yw = (F, Y) if family == "t(x)" else (F.T, Y.T)
    mm, ll = Fw.shape
    npos = Yw.sum(axis=1)
    if toward is None:
        sign = np.where(rng.random(mm) < 0.5, -1, 1)
    else:
        sign = np.where(Yw[:, int(toward)], -1, 1)
    cut = np.clip(npos + sign * int(errors), 0, ll)
    rank = np.argsort(np.argsort(-Fw, axis=1, kind="stable"), axis=1, kind="stable")
    H = (rank < cut[:, None]).astype(np.int8)
    return H if family == "t(x)" else H.T.copy()


@validate_params(n_draws=Int(1, 10_000), seed=Seed())
def table2_check(Y_list, n_draws: int = 20, seed: int = 0):
    """Which of the eleven measures reach their optimum for each kind of effective F.

    Returns a boolean table (the eleven measures x {label-wise, inst-wise, double}).

    * Ranking measures (○ in Table 2): a cell is True if every sampled predictor of
      that kind (:func:`effective_scores`) attains the measure's optimal value -- the
      value of a perfect ranking -- on every label matrix of ``Y_list``.
    * Classification measures (•): the predictor is thresholded with the family suited
      to its kind (``t(x)`` for label-wise, ``t_j`` for inst-wise, either for double)
      making one threshold error in every row (column), at random and, for label-wise
      and inst-wise, adversarially concentrated on the rarest label (the instance with
      fewest labels).  The cell is True if every averaging unit of the measure then
      carries at most one error -- each instance for instance-F1, each label for
      macro-F1, the whole matrix (at most one error per threshold) for micro-F1 and
      Hamming loss -- so that the bound of Theorem 4 or 5 holds with
      :math:`\\epsilon = 1`.  (With error-free thresholds every kind reaches ``H = Y``.)
    """
    # the measures of scores (the registry's inputs): optimal under any perfect ranking
    ranking = [m for m in WU_ZHOU_MEASURES if get_measure(m).inputs == "scores"]
    families = {"label-wise": ("t(x)",), "inst-wise": ("t_j",), "double": ("t(x)", "t_j")}
    rng = np.random.default_rng(seed)
    ok = {(meas, kind): True for meas in WU_ZHOU_MEASURES for kind in EFFECTIVENESS}

    def seed_():
        return int(rng.integers(2**32))

    if (
        isinstance(Y_list, (str, bytes, np.ndarray))
        or hasattr(Y_list, "tocsr")
        or not hasattr(Y_list, "__iter__")
    ):
        raise TypeError(f"Y_list must be a list of label matrices, got {type(Y_list).__name__}")
    # every matrix checked before the work starts (a cast to int8 would turn NaN, a
    # complex number or text into some label)
    Ys = [check_label_matrix(Y, f"Y_list[{i}]", allow_sparse=False) for i, Y in enumerate(Y_list)]
    if not Ys:
        raise ValueError("Y_list must hold at least one label matrix")
    for Y in Ys:
        perfect = all_measures(Y, effective_scores(Y, "double", seed_()), Y)
        for kind in EFFECTIVENESS:
            for _ in range(n_draws):
                F = effective_scores(Y, kind, seed_())
                vals = all_measures(Y, F, Y)
                for meas in ranking:
                    if abs(vals[meas] - perfect[meas]) > 1e-12:
                        ok[(meas, kind)] = False
                good = {
                    meas: False for meas in ("instance_f1", "macro_f1", "micro_f1", "hamming_loss")
                }
                for fam in families[kind]:
                    Hs = [threshold_with_errors(F, Y, fam, seed_())]
                    if kind != "double":
                        target = int(np.argmin(Y.sum(axis=0 if fam == "t(x)" else 1)))
                        Fa = effective_scores(Y, kind, seed_(), boundary=target)
                        Hs.append(threshold_with_errors(Fa, Y, fam, toward=target))
                    E = [H != Y for H in Hs]
                    good["instance_f1"] |= all(e.sum(axis=1).max() <= 1 for e in E)
                    good["macro_f1"] |= all(e.sum(axis=0).max() <= 1 for e in E)
                    n_thr = Y.shape[0] if fam == "t(x)" else Y.shape[1]
                    good["micro_f1"] |= all(e.sum() <= n_thr for e in E)
                    good["hamming_loss"] |= all(e.sum() <= n_thr for e in E)
                for meas, g in good.items():
                    ok[(meas, kind)] &= g
    return pd.DataFrame(
        [[ok[(meas, kind)] for kind in EFFECTIVENESS] for meas in WU_ZHOU_MEASURES],
        index=list(WU_ZHOU_MEASURES),
        columns=list(EFFECTIVENESS),
    )


@validate_params(
    n_labels=Int(2, 100_000),
    density=Real(0.0, 1.0),
    n_draws=Int(1, 100_000),
    seed=Seed(),
)
def micro_auc_growth(
    sizes=(20, 200, 2000),
    n_labels: int = 4,
    density: float = 0.4,
    n_draws: int = 10,
    seed: int = 0,
):
    """Micro-AUC of double-effective predictors (proof of Theorem 3) as ``m`` grows.

    Random label matrices (every row and column with a relevant and an irrelevant
    entry) of ``m`` instances; the mean and minimum micro-AUC over ``n_draws``
    predictors built by :func:`effective_scores` (``'double'``).
    """

    sizes = [check_positive_int(m, "sizes", low=2, high=10**7) for m in sizes]
    rng = np.random.default_rng(seed)
    rows = []
    for m in sizes:
        vals = []
        for _ in range(n_draws):
            Y = random_label_matrix(m, n_labels, density, int(rng.integers(2**32)))
            F = effective_scores(Y, "double", int(rng.integers(2**32)))
            vals.append(float(auc(Y, F, average="micro")))
        rows.append(
            {"m": m, "mean micro-AUC": float(np.mean(vals)), "min micro-AUC": float(np.min(vals))}
        )
    return pd.DataFrame(rows)


@validate_params(m=Int(2, 10**8), l=Int(2, 10**6), density=Real(0.0, 1.0), seed=Seed())
def random_label_matrix(m: int, l: int, density: float = 0.4, seed=None) -> np.ndarray:
    """Bernoulli(``density``) labels with one relevant and one irrelevant label forced
    into every row (at random), and every column holding both values."""
    rng = np.random.default_rng(seed)
    if l < 2 or m < 2:
        raise ValueError("need at least two instances and two labels")
    for _ in range(1000):
        Y = (rng.random((m, l)) < density).astype(np.int8)
        u = rng.integers(l, size=m)
        v = (u + rng.integers(1, l, size=m)) % l
        Y[np.arange(m), u] = 1
        Y[np.arange(m), v] = 0
        if Y.any(0).all() and (Y == 0).any(0).all():
            return Y
    raise ValueError("could not draw a label matrix with a 0 and a 1 in every column")
