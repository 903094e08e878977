"""Standard multi-label measures: example-based, label-based and ranking-based.

Notation follows scikit-learn: ``Y`` holds the true labels and ``P`` the
predicted labels, both ``(n_samples, n_labels)`` matrices of 0/1 (dense or
scipy sparse); ``F`` holds real-valued scores of the same shape (higher means
"more relevant").  A 1-D vector is read as one instance.

The measures come from two surveys:

* Zhang & Zhou (2014), Sec. 2.2: the taxonomy *example-based* vs *label-based*
  and *classification* vs *ranking*; the example-based classification measures
  (subset accuracy, Hamming loss, accuracy, precision, recall, F-beta).
* Wu & Zhou (2017), Table 1: eleven measures (Hamming loss, ranking loss,
  one-error, coverage, average precision, macro/instance/micro F1 and
  macro/instance/micro AUC), all computed at once by :func:`all_measures`.

and from the Apache Hivemall documentation: micro F-beta over *label sets*
(:func:`f_measure_label_sets`, with :func:`binarize` turning lists of label
names into a 0/1 matrix).

Where this module and scikit-learn compute the same quantity the values are
equal (``tests/mlcbook/test_metrics.py`` checks this on random dense and sparse inputs,
with and without ``sample_weight``).  Classification measures validate each
matrix once and count in one or two passes with NumPy (private module
``mlcbook._labelcounts``): scikit-learn's target-type inference alone costs
30-80 passes over the data.  Ranking measures and AUCs are computed by one
vectorised sort per row (scikit-learn loops over instances in Python for
ranking loss, label-ranking average precision and per-instance AUC).

Scores need not be a dense matrix: the ranking measures and AUCs also take a sparse
score matrix or a :class:`~mlcbook.topk.TopK` (the few highest-scored labels of each
instance), and then nothing is made dense (:mod:`mlcbook.topk` states the convention:
the labels a row does not list tie below every score it lists).  Truth and predictions
may be sparse everywhere.

Every measure takes ``sample_weight`` (instance weights, as in scikit-learn)
and every measure that is a mean over instances can return the per-instance
values (``per_instance=True``, the name :mod:`mlcbook.losses` uses).

Conventions that differ between sources (documented per function):

* **Empty sets.**  ``zero_division`` (default 1.0) is the value of a ratio
  whose denominator is zero, e.g. the Jaccard index or F-measure of an
  instance with no true and no predicted label.  1.0 agrees with Park & Read's
  Jaccard convention (a correct empty prediction is perfect); scikit-learn's
  default (``"warn"``) returns 0.0 with a warning.  Also accepted: NaN (the
  undefined value is left out of the average: the explicit policy "a row or
  label with no true and no predicted label does not count"; NaN if nothing is
  defined) and ``"warn"`` (0.0 and
  :class:`~sklearn.exceptions.UndefinedMetricWarning`), as in scikit-learn.
* **Instances without relevant (or without irrelevant) labels in ranking
  measures** follow scikit-learn: ranking loss 0, average precision 1.
  Coverage is 0 for an instance without relevant labels.  One-error counts
  such an instance as an error (its top label is not relevant).  AUCs skip
  instances/labels where the AUC is undefined (scikit-learn returns NaN).
* **Ties in scores.**  Ranking loss counts a tied (relevant, irrelevant) pair
  as mis-ordered, as Wu & Zhou's ``f_u <= f_v`` and scikit-learn do.  Coverage
  and average precision give tied labels the worst (largest) rank, as
  scikit-learn does.  AUCs count a tie as half a correctly ordered pair
  (Mann-Whitney, as scikit-learn); Wu & Zhou's Table 1 counts ``>=``, i.e. a
  tie as a full correct pair -- their paper assumes no ties.  One-error breaks
  ties by the first (lowest-index) maximal label.
* **Coverage.**  Wu & Zhou subtract one: ``coverage = coverage_error - 1`` of
  scikit-learn on every instance that has a relevant label.
* **The authors' code.**  ``convention="wu_zhou"`` (ranking loss, average
  precision, coverage, AUC) follows Wu & Zhou's MATLAB measures
  (``limo/measure/*.m``); ``all_measures(..., convention="wu_zhou")`` applies it
  to all eleven with their F1 rule 0/0 = 0.  Both are tested against the ``.m``
  files' output under GNU Octave on ties and degenerate rows
  (``tests/mlcbook/test_authors_measures_fixture.py``).

How the same situation is scored elsewhere.  Columns: **ml** mlcbook (default;
``wu_zhou``: ``convention="wu_zhou"``), **sk** scikit-learn 1.x, **WZ** Wu & Zhou's
``limo/measure/*.m``, **Mu** Mulan 1.5 (``mulan.evaluation.measure``), **tm**
torchmetrics 1.x.  ml, sk and WZ are tested (``tests/mlcbook/test_metrics.py``,
``test_conventions.py``); Mu is read from its source (cited classes), tm from its
documentation only -- neither is a dependency, so neither is tested here.

=====================  ===================  =============  ===========  ==========  =======
situation              ml                   sk             WZ           Mu          tm
=====================  ===================  =============  ===========  ==========  =======
F1/P/R/Jaccard of a    ``zero_division``    ``"warn"``:    0 (NaN set   1 (a)       0
row/label with no      (1; 0, NaN = left    0 + warning    to 0):
true, no predicted     out, ``"warn"``)                    ``zd=0``
precision, nothing     ``zero_division``    same           0            0 (a)       0
predicted, some true
ranking loss, row      0, counted;          0, counted     left out     ?           ?
with all/no labels     ``wu_zhou``: left
                       out
average precision,     1, counted;          1, counted     left out     no true:    ?
row with all/no        ``wu_zhou``: left                                left out
labels                 out                                              (b)
coverage, row without  0; ``wu_zhou``: -1   0              -1           0 (c)       ?
a relevant label
tied scores: coverage  worst rank;          worst rank     sort         ranking     ?
and average precision  ``wu_zhou``: sort                   position     order
                       position
tied scores: AUC       one half;            one half       sort         ?           ?
                       ``wu_zhou``: sort                   position
                       position
AUC of a label/row     left out             NaN or error   left out     ?           ?
with one class
one-error, tied top    first label          (none)         first label  ?           (none)
=====================  ===================  =============  ===========  ==========  =======

Mulan's classes: (a) ``InformationRetrievalMeasures``: F, precision and recall are 1
when ``tp + fp + fn = 0``; precision 0 when ``tp + fp = 0`` otherwise.
(b) ``AveragePrecision.updateRanking``: a row without relevant labels is not counted.
(c) ``Coverage.updateRanking``: ``howDeep`` stays 0 without a relevant label.

"?": not checked.  Wu & Zhou's F1 is ``2pr/(p + r)`` with NaN set to 0, i.e.
``zero_division=0`` here (equal up to rounding).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Hashable, Iterable, Sequence
from typing import Any

import numpy as np
import scipy.sparse as sp

from . import _labelcounts as _lc
from . import _listed, _ranks
from . import registry as _R
from ._validation import (
    check_average,
    check_label_matrix,
    check_positive_int,
    check_real,
    check_same_shape,
    check_score_matrix,
)

__all__ = [
    "hamming_loss",
    "subset_zero_one_loss",
    "subset_accuracy",
    "instance_jaccard",
    "jaccard_score",
    "precision",
    "recall",
    "f_measure",
    "example_based_f_measure",
    "ranking_loss",
    "one_error",
    "coverage",
    "label_ranking_average_precision",
    "average_precision",
    "auc",
    "binarize",
    "f_measure_label_sets",
    "all_measures",
    "WU_ZHOU_MEASURES",
    "LOWER_IS_BETTER",
]

#: The eleven measures of Wu & Zhou (2017, Table 1), in the table's order.
WU_ZHOU_MEASURES: tuple[str, ...] = (
    "hamming_loss",
    "ranking_loss",
    "one_error",
    "coverage",
    "average_precision",
    "macro_f1",
    "instance_f1",
    "micro_f1",
    "macro_auc",
    "instance_auc",
    "micro_auc",
)

#: Measures of :data:`WU_ZHOU_MEASURES` for which smaller values are better.
LOWER_IS_BETTER: frozenset[str] = frozenset(
    {"hamming_loss", "ranking_loss", "one_error", "coverage"}
)

_AVERAGES_F = ("micro", "macro", "instance")
_AVERAGES_AUC = ("macro", "micro", "instance")
_divide = _lc.divide


# --------------------------------------------------------------------------- validation
def _check_pair(Y: Any, P: Any, name_y: str = "Y", name_p: str = "P"):
    return _lc.check_pair(Y, P, name_y, name_p)


def _check_scores(Y: Any, F: Any, name_y: str = "Y", name_f: str = "F"):
    Y = _lc.check_labels(Y, name_y)  # dense int8, one checking pass
    if sp.issparse(Y):
        Y = Y.toarray()
    F = check_score_matrix(F, name_f)
    check_same_shape(Y, F, name_y, name_f)
    return Y, F


class _WarnZero(float):
    """``zero_division="warn"``: the value 0.0, and a warning when it is used."""


def _check_zero_division(zero_division: Any) -> float:
    """A real in [0, 1], NaN (leave the undefined value out of the average), or
    ``"warn"`` (0.0 with :class:`~sklearn.exceptions.UndefinedMetricWarning`)."""
    if isinstance(zero_division, str):
        if zero_division == "warn":
            return _WarnZero(0.0)
        raise TypeError(
            f"zero_division must be a number in [0, 1], nan or 'warn', got {zero_division!r}"
        )
    if (
        isinstance(zero_division, (float, np.floating))
        and not isinstance(zero_division, bool)
        and math.isnan(zero_division)
    ):
        return float("nan")
    return check_real(zero_division, "zero_division", low=0.0, high=1.0)


def _check_beta(beta: Any) -> float:
    # bounded so that beta**2 and (1 + beta**2) * tp stay finite and informative
    return check_real(beta, "beta", low=0.0, low_inclusive=False, high=1e100)


def _check_flag(value: Any, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def _finish(v: np.ndarray, w: np.ndarray | None, per_instance: Any):
    """Per-instance values as float64, or their (weighted) mean; NaN values (from
    ``zero_division=nan``) are left out of the mean (NaN if all are)."""
    if per_instance:
        return np.asarray(v, dtype=np.float64)
    return _mean_defined(v, w)


def _mean_defined(v: np.ndarray, w: np.ndarray | None = None) -> float:
    v = np.asarray(v, dtype=np.float64)
    ok = ~np.isnan(v)
    if ok.all():
        return _lc.weighted_mean(v, w)
    if w is not None:
        ok &= w > 0
    if not ok.any():
        return float("nan")
    return _lc.weighted_mean(v[ok], None if w is None else w[ok])


# --------------------------------------------------------------------------- counting
def _counts(Y, P, axis: int | None):
    """True positives, true-set sizes and predicted-set sizes along ``axis``."""
    c = _lc.Counts(Y, P)
    return c.tp(axis), c.ny(axis), c.np_(axis)


def _prf(
    Y,
    P,
    which: str,
    beta: float,
    average: str | None,
    zero_division: float,
    w: np.ndarray | None,
    per_instance: bool,
):
    """Precision / recall / F-beta from the counts of one axis (no scikit-learn);
    ``average=None``: the value of every label."""
    if per_instance and average != "instance":
        raise ValueError(f"per_instance=True needs average='instance', got {average!r}")
    axis = {"micro": None, "macro": 0, "instance": 1, None: 0}[average]
    c = _lc.Counts(Y, P, w)
    # the formulas' one home; the arithmetic of scikit-learn (and Hivemall's micro path)
    v = _lc.prf(which, c.tp(axis), c.ny(axis), c.np_(axis), beta, zero_division)
    if axis == 1:
        return _finish(v, w, per_instance)
    if average is None:
        return np.asarray(v, dtype=np.float64)
    return _mean_defined(v)  # per label (weights are in the counts), or pooled


def _pair_args(Y, P, sample_weight, per_instance):
    Y, P = _check_pair(Y, P)
    w = _lc.check_sample_weight(sample_weight, Y.shape[0])
    return Y, P, w, _check_flag(per_instance, "per_instance")


# --------------------------------------------------------------------------- example-based
def hamming_loss(
    Y: Any, P: Any, *, sample_weight: Any = None, per_instance: bool = False
) -> float | np.ndarray:
    r"""Hamming loss: the fraction of wrongly predicted (instance, label) pairs.

    .. math:: \mathrm{hloss} = \frac{1}{nK}\sum_{i=1}^n\sum_{j=1}^K [\![p_{ij}\neq y_{ij}]\!]

    Zhang & Zhou (2014), Sec. 2.2.2; Wu & Zhou (2017), Table 1.  Equal to
    :func:`sklearn.metrics.hamming_loss` (tested), computed by one count
    after one validating pass per matrix.  Park & Read's *Hamming similarity*
    (their Eq. 1) is ``1 - hamming_loss``.

    Parameters
    ----------
    Y, P : array-like or sparse matrix of shape (n_samples, n_labels)
        True and predicted 0/1 labels.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative instance weights: the result is the weighted mean of the
        per-instance losses, as in scikit-learn.
    per_instance : bool, default False
        Return the loss of every instance (shape ``(n_samples,)``) instead.

    Returns
    -------
    float in [0, 1], or ndarray of shape (n_samples,)
    """
    Y, P, w, per = _pair_args(Y, P, sample_weight, per_instance)
    c = _lc.Counts(Y, P, w)
    K = Y.shape[1]
    if per or w is not None:
        return _finish(c.err(1) / K, w, per)
    return c.err(None) / (Y.shape[0] * K)


def _exact(Y, P) -> np.ndarray:
    """Per instance: 1.0 if the predicted set equals the true set."""
    return (_lc.Counts(Y, P).err(1) == 0).astype(np.float64)


def subset_accuracy(
    Y: Any, P: Any, *, sample_weight: Any = None, per_instance: bool = False
) -> float | np.ndarray:
    r"""Subset accuracy (exact match): the fraction of instances whose predicted
    label set equals the true one.

    .. math:: \mathrm{subsetacc} = \frac1n\sum_i [\![\mathbf p_i = \mathbf y_i]\!]

    Zhang & Zhou (2014), Sec. 2.2.2; Park & Read's *Exact* (Eq. 2).  Equal to
    :func:`sklearn.metrics.accuracy_score` on label matrices (tested).

    Parameters
    ----------
    Y, P : array-like or sparse matrix of shape (n_samples, n_labels)
    sample_weight : array-like of shape (n_samples,), optional
    per_instance : bool, default False
        Return 1.0 / 0.0 for every instance instead of the mean.

    Returns
    -------
    float in [0, 1], or ndarray of shape (n_samples,)
    """
    Y, P, w, per = _pair_args(Y, P, sample_weight, per_instance)
    return _finish(_exact(Y, P), w, per)


def subset_zero_one_loss(
    Y: Any, P: Any, *, sample_weight: Any = None, per_instance: bool = False
) -> float | np.ndarray:
    """Subset 0/1 loss: ``1 - subset_accuracy(Y, P)``.

    Equal to :func:`sklearn.metrics.zero_one_loss` on label matrices (tested).

    Parameters
    ----------
    Y, P : array-like or sparse matrix of shape (n_samples, n_labels)
    sample_weight : array-like of shape (n_samples,), optional
    per_instance : bool, default False
        Return 0.0 / 1.0 for every instance instead of the mean.

    Returns
    -------
    float in [0, 1], or ndarray of shape (n_samples,)
    """
    Y, P, w, per = _pair_args(Y, P, sample_weight, per_instance)
    if per:
        return 1.0 - _exact(Y, P)
    return 1.0 - _lc.weighted_mean(_exact(Y, P), w)


def instance_jaccard(
    Y: Any,
    P: Any,
    *,
    zero_division: float = 1.0,
    sample_weight: Any = None,
    per_instance: bool = False,
) -> float | np.ndarray:
    r"""Example-based accuracy (Jaccard index), averaged over instances.

    .. math:: \mathrm{Accuracy}_{exam} = \frac1n\sum_i
              \frac{|\mathbf y_i\wedge\mathbf p_i|}{|\mathbf y_i\vee\mathbf p_i|}

    Zhang & Zhou (2014), Sec. 2.2.2 (*Accuracy_exam*); Park & Read (2018),
    Eq. 3.  Equal to ``sklearn.metrics.jaccard_score(Y, P, average='samples',
    zero_division=zero_division)`` (tested).

    Parameters
    ----------
    Y, P : array-like or sparse matrix of shape (n_samples, n_labels)
    zero_division : float in [0, 1], default 1.0
        Value for an instance with neither true nor predicted labels.  The
        default 1.0 is Park & Read's convention ("1 if TN = L"); scikit-learn's
        default gives 0.0 and warns.
    sample_weight : array-like of shape (n_samples,), optional
    per_instance : bool, default False
        Return the index of every instance instead of the mean.

    Returns
    -------
    float in [0, 1], or ndarray of shape (n_samples,)
    """
    Y, P, w, per = _pair_args(Y, P, sample_weight, per_instance)
    zd = _check_zero_division(zero_division)
    c = _lc.Counts(Y, P)
    tp = c.tp(1)
    return _finish(_divide(tp, tp + c.err(1), zd), w, per)


def precision(
    Y: Any,
    P: Any,
    *,
    average: str | None = "micro",
    zero_division: float = 1.0,
    sample_weight: Any = None,
    per_instance: bool = False,
) -> float | np.ndarray:
    r"""Precision, micro-, macro- (per label) or instance-averaged.

    ``average='instance'`` is Zhang & Zhou's example-based precision
    :math:`\frac1n\sum_i |\mathbf y_i\wedge\mathbf p_i|/|\mathbf p_i|`;
    ``'macro'`` averages the per-label precisions; ``'micro'`` pools the counts
    of the whole matrix.  Equal to :func:`sklearn.metrics.precision_score` with
    ``average`` = ``'micro'``/``'macro'``/``'samples'`` (tested, also with
    ``sample_weight``), computed here from counts.

    Parameters
    ----------
    Y, P : array-like or sparse matrix of shape (n_samples, n_labels)
    average : {'micro', 'macro', 'instance'} or None
        None: the value of every label, an array of shape (n_labels,) (scikit-learn's
        ``average=None``).
    zero_division : float in [0, 1], default 1.0
        Value when nothing is predicted (for an instance, a label, or at all).
    sample_weight : array-like of shape (n_samples,), optional
        Instance weights: they weight the counts (micro, macro) or the mean
        over instances (instance), as in scikit-learn.
    per_instance : bool, default False
        With ``average='instance'``: the precision of every instance.

    Returns
    -------
    float in [0, 1], or ndarray of shape (n_samples,)
    """
    Y, P, w, per = _pair_args(Y, P, sample_weight, per_instance)
    average = None if average is None else check_average(average, _AVERAGES_F)
    zd = _check_zero_division(zero_division)
    return _prf(Y, P, "precision", 1.0, average, zd, w, per)


def recall(
    Y: Any,
    P: Any,
    *,
    average: str | None = "micro",
    zero_division: float = 1.0,
    sample_weight: Any = None,
    per_instance: bool = False,
) -> float | np.ndarray:
    r"""Recall, micro-, macro- (per label) or instance-averaged.

    ``average='instance'`` is Zhang & Zhou's example-based recall
    :math:`\frac1n\sum_i |\mathbf y_i\wedge\mathbf p_i|/|\mathbf y_i|`.
    Equal to :func:`sklearn.metrics.recall_score` (``'instance'`` is
    scikit-learn's ``'samples'``; tested).

    Parameters
    ----------
    Y, P : array-like or sparse matrix of shape (n_samples, n_labels)
    average : {'micro', 'macro', 'instance'} or None
        None: the value of every label, an array of shape (n_labels,) (scikit-learn's
        ``average=None``).
    zero_division : float in [0, 1], default 1.0
        Value when there is no true label (for an instance, a label, or at all).
    sample_weight : array-like of shape (n_samples,), optional
    per_instance : bool, default False
        With ``average='instance'``: the recall of every instance.

    Returns
    -------
    float in [0, 1], or ndarray of shape (n_samples,)
    """
    Y, P, w, per = _pair_args(Y, P, sample_weight, per_instance)
    average = None if average is None else check_average(average, _AVERAGES_F)
    zd = _check_zero_division(zero_division)
    return _prf(Y, P, "recall", 1.0, average, zd, w, per)


def f_measure(
    Y: Any,
    P: Any,
    beta: float = 1.0,
    average: str | None = "micro",
    *,
    zero_division: float = 1.0,
    sample_weight: Any = None,
    per_instance: bool = False,
) -> float | np.ndarray:
    r"""F-beta measure, micro-, macro- (per label) or instance-averaged.

    For counts :math:`tp`, :math:`|\mathbf y|` (true) and :math:`|\mathbf p|`
    (predicted) pooled over the matrix (micro), per label (macro, then the mean
    over labels) or per instance (instance, then the mean over instances):

    .. math:: F_\beta = \frac{(1+\beta^2)\,tp}{\beta^2|\mathbf y| + |\mathbf p|}

    With ``beta=1`` these are Wu & Zhou's micro-F1, macro-F1 and instance-F1
    (Table 1).  Equal to :func:`sklearn.metrics.fbeta_score` with ``average``
    ``'micro'``/``'macro'``/``'samples'`` (tested).  Micro F-beta is also what
    Hivemall computes on label sets (:func:`f_measure_label_sets`).

    Note that the instance average (mean of per-instance F) is *not* Zhang &
    Zhou's :math:`F^\beta_{exam}`, which is the weighted harmonic mean of the
    *averaged* precision and recall: see :func:`example_based_f_measure`.

    Parameters
    ----------
    Y, P : array-like or sparse matrix of shape (n_samples, n_labels)
    beta : float > 0, default 1
        Weight of recall: recall counts ``beta`` times as much as precision.
    average : {'micro', 'macro', 'instance'} or None
        None: the value of every label, an array of shape (n_labels,) (scikit-learn's
        ``average=None``).
    zero_division : float in [0, 1], default 1.0
        Value when there is neither a true nor a predicted label (in the
        instance, the label, or the matrix).
    sample_weight : array-like of shape (n_samples,), optional
    per_instance : bool, default False
        With ``average='instance'``: the F-beta of every instance.

    Returns
    -------
    float in [0, 1], or ndarray of shape (n_samples,)
    """
    Y, P, w, per = _pair_args(Y, P, sample_weight, per_instance)
    b = _check_beta(beta)
    average = None if average is None else check_average(average, _AVERAGES_F)
    zd = _check_zero_division(zero_division)
    return _prf(Y, P, "f", b, average, zd, w, per)


def example_based_f_measure(
    Y: Any,
    P: Any,
    beta: float = 1.0,
    *,
    zero_division: float = 1.0,
    sample_weight: Any = None,
) -> float:
    r"""Zhang & Zhou's example-based :math:`F^\beta_{exam}`.

    .. math:: F^\beta_{exam} = \frac{(1+\beta^2)\,\mathrm{Precision}_{exam}\,
              \mathrm{Recall}_{exam}}{\beta^2\,\mathrm{Precision}_{exam} +
              \mathrm{Recall}_{exam}}

    where the precision and recall are first averaged over instances
    (Zhang & Zhou 2014, Sec. 2.2.2).  This is the F of the averages, which in
    general differs from the average of per-instance F-values
    (``f_measure(..., average='instance')``, scikit-learn's ``'samples'``,
    Wu & Zhou's instance-F1).  scikit-learn has no equivalent.  Being a
    function of two averages it has no per-instance values.

    Parameters
    ----------
    Y, P : array-like or sparse matrix of shape (n_samples, n_labels)
    beta : float > 0, default 1
    zero_division : float in [0, 1], default 1.0
        Per-instance precision (recall) of an instance with no predicted (true)
        label.  It is not the result when both averages are 0: the weighted
        harmonic mean of 0 and 0 is 0 (its limit, Zhang & Zhou's formula,
        ``scipy.stats.hmean([0, 0])``), so a completely wrong prediction scores
        0 whatever ``zero_division`` is.
    sample_weight : array-like of shape (n_samples,), optional
        Weights of the two averages over instances.

    Returns
    -------
    float in [0, 1]
    """
    Y, P, w, _ = _pair_args(Y, P, sample_weight, False)
    b = _check_beta(beta)
    zd = _check_zero_division(zero_division)
    c = _lc.Counts(Y, P)
    tp = c.tp(1)
    prec = _mean_defined(_divide(tp, c.np_(1), zd), w)
    rec = _mean_defined(_divide(tp, c.ny(1), zd), w)
    # NaN if either average is (zero_division=nan and no defined row); 0 if both are 0
    return float(_lc.f_of_averages(prec, rec, b))


# --------------------------------------------------------------------------- ranking
class _RowStats:
    """Per-row ranking statistics, shared by the ranking measures: rank sums
    (:mod:`mlcbook._ranks`, one sort per row) for the rows without tied scores, the
    tie-aware counts of :class:`_TiedRowStats` for the rows with ties."""

    __slots__ = ("K", "rs", "tied", "tied_rows")

    def __init__(self, Y: np.ndarray, F: np.ndarray) -> None:
        self.K = F.shape[1]
        self.rs = _ranks.rank_sums(Y, F)
        self.tied_rows = np.flatnonzero(self.rs.tied)
        t = self.tied_rows
        self.tied = _TiedRowStats(Y[t], F[t]) if t.size else None

    def _with_ties(self, v: np.ndarray, what: str) -> np.ndarray:
        if self.tied is not None:
            v[self.tied_rows] = getattr(self.tied, what)()
        return v

    def ranking_loss(self) -> np.ndarray:
        pairs = self.rs.n_pos * (self.K - self.rs.n_pos)
        v = _divide(pairs - self.rs.correct_pairs(), pairs, 0.0)
        return self._with_ties(v, "ranking_loss")

    def average_precision(self) -> np.ndarray:
        n_pos = self.rs.n_pos
        v = _divide(self.rs.ap_sum, n_pos, 1.0)
        v[(n_pos == 0) | (n_pos == self.K)] = 1.0
        return self._with_ties(v, "average_precision")

    def auc(self) -> np.ndarray:
        pairs = self.rs.n_pos * (self.K - self.rs.n_pos)
        v = np.full(pairs.shape, np.nan)
        np.divide(self.rs.correct_pairs(), pairs, out=v, where=pairs > 0)
        return self._with_ties(v, "auc")


def _label_aucs(Y: np.ndarray, F: np.ndarray, w: np.ndarray | None) -> np.ndarray:
    """AUC of every label (column), NaN where it has one class: from the positions of
    the positives in one sort of packed keys (:func:`mlcbook._ranks.column_positions`);
    the labels where a positive ties another score, and weighted instances, by the
    tie-aware count of each column."""
    if w is None:
        Yi = Y.view(np.int8) if Y.dtype in (np.int8, bool) else (Y != 0).view(np.int8)
        cp = _ranks.column_positions(Yi, F, ap=False)
        out = cp.auc()
        for j in np.flatnonzero(~cp.exact):
            out[j] = _auc_1d(Yi[:, j].astype(bool), np.ascontiguousarray(F[:, j]))
        return out
    YT = _ranks.columns(Y).view(bool) if Y.dtype == np.int8 else _ranks.columns(Y != 0)
    FT = _ranks.columns(F)
    return np.array([_auc_1d(YT[j], FT[j], w) for j in range(FT.shape[0])])


class _TiedRowStats:
    """Per-entry counts within each row, for rows with tied scores.

    Every row of ``F`` is sorted once (``argsort`` along the short label axis);
    cumulative sums then give, for each entry (in sorted order), the number of
    relevant / irrelevant entries of its row with a strictly smaller score
    (``rel_below``, ``irr_below``), the number of irrelevant entries with an
    equal score (``irr_tied``) and the first sorted position of its tie group
    (``start``).  No Python loop over rows.
    """

    __slots__ = ("K", "Ys", "irr_below", "irr_tied", "n_pos", "rel_below", "start")

    def __init__(self, Y: np.ndarray, F: np.ndarray) -> None:
        n, K = F.shape
        it = np.int32 if K < 2**31 - 2 else np.int64
        order = np.argsort(F, axis=1)
        Fs = np.take_along_axis(F, order, axis=1)
        Ys = np.take_along_axis(Y, order, axis=1)
        del order
        idx = np.arange(K, dtype=it)
        new = np.empty((n, K), dtype=bool)
        new[:, 0] = True
        np.not_equal(Fs[:, 1:], Fs[:, :-1], out=new[:, 1:])
        del Fs
        # first and last (inclusive) sorted position of each entry's tie group
        start = np.maximum.accumulate(np.where(new, idx, it(0)), axis=1)
        last = np.empty((n, K), dtype=bool)
        last[:, -1] = True
        last[:, :-1] = new[:, 1:]
        end = np.minimum.accumulate(np.where(last, idx, it(K - 1))[:, ::-1], axis=1)[:, ::-1]
        relcum = np.zeros((n, K + 1), dtype=it)
        np.cumsum(Ys, axis=1, dtype=it, out=relcum[:, 1:])
        self.rel_below = np.take_along_axis(relcum, start, axis=1)
        end += 1
        rel_upto = np.take_along_axis(relcum, end, axis=1)  # relevant with score <= own
        self.irr_below = start - self.rel_below
        self.irr_tied = end - rel_upto - self.irr_below
        self.start = start
        self.Ys = Ys.astype(bool)
        self.n_pos = relcum[:, -1].astype(np.int64)
        self.K = K

    def ranking_loss(self) -> np.ndarray:
        n_neg = self.K - self.n_pos
        # pairs (u relevant, v irrelevant) with f_u <= f_v are all pairs minus
        # those with the irrelevant label strictly below u
        below = np.where(self.Ys, self.irr_below, 0).sum(axis=1, dtype=np.int64)
        return _divide(self.n_pos * n_neg - below, self.n_pos * n_neg, 0.0)

    def average_precision(self) -> np.ndarray:
        rank = self.K - self.start  # labels scored >= this one (ties: worst rank)
        rel_above = self.n_pos[:, None] - self.rel_below  # relevant labels scored >= it
        s = np.where(self.Ys, rel_above / rank, 0.0).sum(axis=1)
        out = _divide(s, self.n_pos, 1.0)
        out[(self.n_pos == 0) | (self.n_pos == self.K)] = 1.0
        return out

    def auc(self) -> np.ndarray:
        n_neg = self.K - self.n_pos
        # twice the number of correctly ordered pairs, a tie counting one half
        good2 = np.where(self.Ys, 2 * self.irr_below + self.irr_tied, 0).sum(
            axis=1, dtype=np.int64
        )
        den = 2 * self.n_pos * n_neg
        out = np.full(den.shape, np.nan)
        np.divide(good2, den, out=out, where=den > 0)
        return out


def _score_args(Y, F, sample_weight, per_instance):
    Y, F = _check_scores(Y, F)
    w = _lc.check_sample_weight(sample_weight, Y.shape[0])
    return Y, F, w, _check_flag(per_instance, "per_instance")


def _listed_args(Y, F, sample_weight, per_instance, convention: Any = "mlcbook"):
    """Truth (sparse kept sparse) and listed scores (a TopK or a sparse matrix:
    :mod:`mlcbook.topk`), checked against each other."""
    if _check_convention(convention) != "mlcbook":
        raise ValueError(
            "convention='wu_zhou' needs a dense score matrix F (the authors' code sorts "
            f"every score of a row), got {type(F).__name__}"
        )
    Yc = check_label_matrix(Y, "Y")
    L = _listed.as_listed(F, "F")
    if Yc.shape != (L.n, L.n_labels):
        raise ValueError(
            f"Y and F must have the same shape, got {Yc.shape} and {(L.n, L.n_labels)}"
        )
    w = _lc.check_sample_weight(sample_weight, Yc.shape[0])
    return Yc, L, w, _check_flag(per_instance, "per_instance")


CONVENTIONS: tuple[str, ...] = ("mlcbook", "wu_zhou")


def _check_convention(convention: Any) -> str:
    return check_average(convention, CONVENTIONS, "convention")


def _degenerate(Y: np.ndarray) -> np.ndarray:
    """Rows whose labels are all relevant or all irrelevant."""
    n_pos = Y.sum(axis=1)
    return (n_pos == 0) | (n_pos == Y.shape[1])


def _skip_rows(v: np.ndarray, drop: np.ndarray) -> np.ndarray:
    """``v`` with the dropped rows set to NaN (left out of the mean by ``_finish``)."""
    v = np.asarray(v, dtype=np.float64).copy()
    v[drop] = np.nan
    return v


def _sorted_positions(Y: np.ndarray, F: np.ndarray) -> np.ndarray:
    """Relevance of the labels in MATLAB's ``sort(F)`` order (ascending; equal scores
    keep their index order), one row per instance."""
    order = np.argsort(F, axis=1, kind="stable")
    return np.take_along_axis(Y.astype(bool), order, axis=1)


def _average_precision_order(Y: np.ndarray, F: np.ndarray) -> np.ndarray:
    """Wu & Zhou's ``Average_precision.m``: a label's rank is its place in the
    ascending sort counted from the top, ties by sort position."""
    Ys = _sorted_positions(Y, F)
    K = Y.shape[1]
    rel_from = np.cumsum(Ys[:, ::-1], axis=1)[:, ::-1]  # relevant at positions >= p
    rank = K - np.arange(K)  # labels at positions >= p
    n_pos = Ys.sum(axis=1)
    s = np.where(Ys, rel_from / rank, 0.0).sum(axis=1)
    return _divide(s, n_pos, np.nan)


def _coverage_order(Y: np.ndarray, F: np.ndarray) -> np.ndarray:
    """Wu & Zhou's ``Coverage.m``: labels at or above the lowest-placed relevant
    label in the ascending sort, minus one; -1 for a row without relevant labels."""
    Ys = _sorted_positions(Y, F)
    K = Y.shape[1]
    first = np.where(Ys.any(axis=1), Ys.argmax(axis=1), K)
    return (K - first - 1).astype(np.float64)


def _auc_order_1d(y: np.ndarray, f: np.ndarray) -> float:
    """Wu & Zhou's ``fast_AUC.m``: the rank sum of the positives in the ascending
    stable sort (a tie counts as ordered by index), NaN without both classes."""
    M = int(y.sum())
    N = y.size - M
    if M == 0 or N == 0:
        return float("nan")
    order = np.argsort(f, kind="stable")
    sigma = float(np.flatnonzero(y[order]).sum() + M)  # 1-based positions
    return (sigma - (M + 1) * M / 2) / (M * N)


def _ranking_loss(Y, F) -> np.ndarray:
    return _RowStats(Y, F).ranking_loss()


def ranking_loss(
    Y: Any,
    F: Any,
    *,
    sample_weight: Any = None,
    per_instance: bool = False,
    convention: str = "mlcbook",
) -> float | np.ndarray:
    r"""Ranking loss: the mean fraction of (relevant, irrelevant) label pairs
    that the scores order wrongly.

    .. math:: \mathrm{rloss} = \frac1n\sum_i \frac{|\{(u,v)\in Y_i^+\times Y_i^-:
              f_u(\mathbf x_i)\le f_v(\mathbf x_i)\}|}{|Y_i^+|\,|Y_i^-|}

    Wu & Zhou (2017), Table 1; Zhang & Zhou (2014), Sec. 2.2.2.  A tied pair
    counts as wrong.  An instance whose labels are all relevant or all
    irrelevant contributes 0 (and counts in the mean).  Equal to
    :func:`sklearn.metrics.label_ranking_loss`, computed here without a loop
    over instances.

    Parameters
    ----------
    Y : array-like or sparse matrix of shape (n_samples, n_labels), 0/1
    F : array-like of shape (n_samples, n_labels), real scores
    sample_weight : array-like of shape (n_samples,), optional
        Instance weights of the mean (as in scikit-learn).
    per_instance : bool, default False
        Return the value of every instance (shape ``(n_samples,)``) instead.
    convention : {"mlcbook", "wu_zhou"}, default "mlcbook"
        ``"wu_zhou"``: as ``Ranking_loss.m`` of Wu & Zhou's code, instances whose
        labels are all relevant or all irrelevant are left out of the mean (their
        per-instance value is NaN).

    Returns
    -------
    float in [0, 1], or ndarray of shape (n_samples,)
    """
    if _listed.is_listed(F):
        Yc, L, w, per = _listed_args(Y, F, sample_weight, per_instance, convention)
        return _finish(_listed.RowRanking(Yc, L).ranking_loss(), w, per)
    Y, F, w, per = _score_args(Y, F, sample_weight, per_instance)
    v = _ranking_loss(Y, F)
    if _check_convention(convention) == "wu_zhou":
        v = _skip_rows(v, _degenerate(Y))
    return _finish(v, w, per)


def _one_error(Y, F) -> np.ndarray:
    top = np.argmax(F, axis=1)
    return 1.0 - np.take_along_axis(Y, top[:, None], axis=1)[:, 0].astype(np.float64)


def one_error(
    Y: Any, F: Any, *, sample_weight: Any = None, per_instance: bool = False
) -> float | np.ndarray:
    r"""One-error: the fraction of instances whose top-scored label is irrelevant.

    .. math:: \text{one-error} = \frac1n\sum_i [\![\arg\max_j f_j(\mathbf x_i)\notin Y_i^+]\!]

    Wu & Zhou (2017), Table 1.  Ties for the maximum are broken in favour of
    the first (lowest-index) label, as :func:`numpy.argmax` does; an instance
    without relevant labels counts as an error.  scikit-learn has no
    equivalent.

    Parameters
    ----------
    Y : array-like or sparse matrix of shape (n_samples, n_labels), 0/1
    F : array-like of shape (n_samples, n_labels)
    sample_weight : array-like of shape (n_samples,), optional
        Instance weights of the mean (as in scikit-learn).
    per_instance : bool, default False
        Return the value of every instance (shape ``(n_samples,)``) instead.

    Returns
    -------
    float in [0, 1], or ndarray of shape (n_samples,)
    """
    if _listed.is_listed(F):
        Yc, L, w, per = _listed_args(Y, F, sample_weight, per_instance)
        return _finish(_listed.RowRanking(Yc, L).one_error(Yc), w, per)
    Y, F, w, per = _score_args(Y, F, sample_weight, per_instance)
    return _finish(_one_error(Y, F), w, per)


def _coverage(Y, F, name: str = "") -> np.ndarray:
    cov = _ranks.lowest_relevant_rank(Y, F, name=name) - 1
    return np.maximum(cov, 0).astype(np.float64)


def _coverage_args(Y: Any, F: Any, sample_weight: Any):
    """Truth and scores checked for the one-pass coverage kernel: a dense integer
    ``Y`` stays as it is, ``F``'s NaN and infinities are looked for by the kernel."""
    Yc = _lc.check_labels(Y, "Y", convert=False)
    if sp.issparse(Yc):
        Yc = Yc.toarray()
    Fc = check_score_matrix(F, "F", finite=False)
    check_same_shape(Yc, Fc, "Y", "F")
    return Yc, Fc, _lc.check_sample_weight(sample_weight, Yc.shape[0])


def coverage(
    Y: Any,
    F: Any,
    *,
    sample_weight: Any = None,
    per_instance: bool = False,
    convention: str = "mlcbook",
) -> float | np.ndarray:
    r"""Coverage: how far down the ranking one must go, on average, to cover
    every relevant label.

    .. math:: \mathrm{coverage} = \frac1n\sum_i \Big(\max_{j\in Y_i^+}
              \mathrm{rank}_F(\mathbf x_i, j) - 1\Big)

    Wu & Zhou (2017), Table 1, where :math:`\mathrm{rank}_F(\mathbf x, j)` is
    the number of labels scored at least as high as label ``j`` (ties get the
    worst rank).  scikit-learn's :func:`~sklearn.metrics.coverage_error` does
    not subtract one: ``coverage = coverage_error - 1`` whenever every instance
    has a relevant label.  An instance without relevant labels contributes 0
    here (scikit-learn also gives it 0, so there the identity is off by one
    for that instance).

    Parameters
    ----------
    Y : array-like or sparse matrix of shape (n_samples, n_labels), 0/1
    F : array-like of shape (n_samples, n_labels)
    sample_weight : array-like of shape (n_samples,), optional
        Instance weights of the mean (as in scikit-learn).
    per_instance : bool, default False
        Return the value of every instance (shape ``(n_samples,)``) instead.

    convention : {"mlcbook", "wu_zhou"}, default "mlcbook"
        ``"wu_zhou"``: as ``Coverage.m``, ranks by position in an ascending stable
        sort (a tied label of lower index is placed lower) and -1 for an instance
        without relevant labels.

    Returns
    -------
    float in [-1, n_labels - 1], or ndarray of shape (n_samples,)
    """
    if _listed.is_listed(F):
        Yc, L, w, per = _listed_args(Y, F, sample_weight, per_instance, convention)
        return _finish(_listed.RowRanking(Yc, L).coverage(), w, per)
    if _check_convention(convention) == "wu_zhou":
        Y, F, w, per = _score_args(Y, F, sample_weight, per_instance)
        return _finish(_coverage_order(Y, F), w, per)
    Y, F, w = _coverage_args(Y, F, sample_weight)
    per = _check_flag(per_instance, "per_instance")
    return _finish(_coverage(Y, F, "F"), w, per)


def _average_precision(Y, F) -> np.ndarray:
    return _RowStats(Y, F).average_precision()


def label_ranking_average_precision(
    Y: Any,
    F: Any,
    *,
    sample_weight: Any = None,
    per_instance: bool = False,
    convention: str = "mlcbook",
) -> float | np.ndarray:
    r"""Average precision (label ranking average precision).

    .. math:: \mathrm{avgprec} = \frac1n\sum_i\frac1{|Y_i^+|}\sum_{j\in Y_i^+}
              \frac{|\{k\in Y_i^+:\mathrm{rank}_F(\mathbf x_i,k)\le
              \mathrm{rank}_F(\mathbf x_i,j)\}|}{\mathrm{rank}_F(\mathbf x_i,j)}

    Wu & Zhou (2017), Table 1.  Tied labels share the worst rank.  An instance
    whose labels are all relevant or all irrelevant scores 1.  Equal to
    :func:`sklearn.metrics.label_ranking_average_precision_score`, computed
    without a loop over instances.

    Parameters
    ----------
    Y : array-like or sparse matrix of shape (n_samples, n_labels), 0/1
    F : array-like of shape (n_samples, n_labels)
    sample_weight : array-like of shape (n_samples,), optional
        Instance weights of the mean (as in scikit-learn).
    per_instance : bool, default False
        Return the value of every instance (shape ``(n_samples,)``) instead.

    convention : {"mlcbook", "wu_zhou"}, default "mlcbook"
        ``"wu_zhou"``: as ``Average_precision.m``, ranks by position in an ascending
        stable sort and instances with all or no labels relevant left out (NaN per
        instance).

    Returns
    -------
    float in (0, 1], or ndarray of shape (n_samples,)
    """
    if _listed.is_listed(F):
        Yc, L, w, per = _listed_args(Y, F, sample_weight, per_instance, convention)
        return _finish(_listed.RowRanking(Yc, L).average_precision(), w, per)
    Y, F, w, per = _score_args(Y, F, sample_weight, per_instance)
    if _check_convention(convention) == "wu_zhou":
        return _finish(_skip_rows(_average_precision_order(Y, F), _degenerate(Y)), w, per)
    return _finish(_average_precision(Y, F), w, per)


def _auc_1d(y: np.ndarray, f: np.ndarray, w: np.ndarray | None = None) -> float:
    """AUC of one column (ties one half) by sorting the scores and binary search;
    NaN if ``y`` has no positive or no negative entry (or zero weight on either).

    With weights ``w`` every (positive, negative) pair counts ``w_a w_b``: the
    weighted Mann-Whitney statistic, the area under scikit-learn's weighted ROC
    curve.
    """
    if w is None:
        return _ranks.column_counts(y, f).auc()
    order = np.argsort(f[~y], kind="stable")
    neg, wn = f[~y][order], w[~y][order]
    pos, wp = f[y], w[y]
    if wp.sum() <= 0 or wn.sum() <= 0:
        return float("nan")
    cum = np.concatenate([[0.0], np.cumsum(wn)])
    below = cum[np.searchsorted(neg, pos, side="left")]
    tied = cum[np.searchsorted(neg, pos, side="right")] - below
    # each side normalised first: w_a w_b of weights near 1e-200 or 1e200 would
    # underflow to 0 or overflow to inf (scikit-learn's ROC curve is scale-free)
    return float((wp / wp.sum()) @ ((below + 0.5 * tied) / wn.sum()))


def _nanmean(v, w: np.ndarray | None = None) -> float:
    v = np.asarray(v, dtype=np.float64)
    ok = ~np.isnan(v)
    if w is not None:
        ok &= w > 0
        return float(np.average(v[ok], weights=w[ok])) if ok.any() else float("nan")
    v = v[ok]
    return float(v.mean()) if v.size else float("nan")


def _auc(Y, F, average: str, stats: _RowStats | None = None, w: np.ndarray | None = None) -> float:
    if average == "instance":
        return _nanmean((stats or _RowStats(Y, F)).auc(), w)
    Yb = Y.astype(bool, copy=False)
    if average == "macro":
        return _nanmean(_label_aucs(Y, F, w))
    wf = None if w is None else np.repeat(w, F.shape[1])
    return _nanmean([_auc_1d(Yb.ravel(), F.ravel(), wf)])


def auc(
    Y: Any,
    F: Any,
    average: str | None = "macro",
    *,
    sample_weight: Any = None,
    per_instance: bool = False,
    convention: str = "mlcbook",
) -> float | np.ndarray:
    r"""Area under the ROC curve, averaged per label, per instance or pooled.

    For a set of positives :math:`A` and negatives :math:`B` with scores
    :math:`s`, :math:`\mathrm{AUC} = \frac{|\{(a,b): s_a > s_b\}| + \frac12
    |\{(a,b): s_a = s_b\}|}{|A|\,|B|}`.  ``'macro'`` averages it over labels
    (instances as items), ``'instance'`` over instances (labels as items) and
    ``'micro'`` computes it once over all entries of the matrix: Wu & Zhou's
    macro-, instance- and micro-AUC (Table 1).

    Ties count one half, as in :func:`sklearn.metrics.roc_auc_score`; Wu &
    Zhou's set definitions use ``>=`` (a tie counts fully) and assume that no
    ties occur.  Labels (for ``'macro'``) or instances (``'instance'``) with
    no positive or no negative entry have no AUC and are left out of the mean;
    scikit-learn returns NaN in that case.  If none is defined the result is
    NaN.  Equal to ``roc_auc_score(Y, F, average='macro'/'samples'/'micro')``
    whenever the latter is defined (also with ``sample_weight``); computed by
    one vectorised sort.

    Parameters
    ----------
    Y : array-like or sparse matrix of shape (n_samples, n_labels), 0/1
    F : array-like of shape (n_samples, n_labels)
    average : {'macro', 'micro', 'instance'} or None
        None: the AUC of every label, an array of shape (n_labels,) (NaN for a label
        with one class), whose mean over the defined ones is ``'macro'``.
    sample_weight : array-like of shape (n_samples,), optional
        Instance weights: a (positive, negative) pair of instances counts
        ``w_a w_b`` ('macro', 'micro'); 'instance' takes the weighted mean of
        the per-instance AUCs, as scikit-learn does.
    per_instance : bool, default False
        With ``average='instance'``: the AUC of every instance (NaN where an
        instance has no relevant or no irrelevant label).
    convention : {"mlcbook", "wu_zhou"}, default "mlcbook"
        ``"wu_zhou"``: ``fast_AUC.m``'s rank sum over an ascending stable sort, so a
        tie counts as ordered by index (micro: MATLAB's column-major ``labels(:)``);
        no ``sample_weight``.  Loops over labels or instances in Python.

    Returns
    -------
    float in [0, 1] (or NaN), or ndarray of shape (n_samples,)
    """
    if average is None:  # the AUC of every label (scikit-learn's average=None)
        if _check_flag(per_instance, "per_instance"):
            raise ValueError("per_instance=True needs average='instance', got None")
        if _listed.is_listed(F):
            Yc, L, w, _ = _listed_args(Y, F, sample_weight, False, convention)
            return np.asarray(_listed.label_aucs(Yc, L, w), dtype=np.float64)
        Y, F = _check_scores(Y, F)
        w = _lc.check_sample_weight(sample_weight, Y.shape[0])
        if _check_convention(convention) == "wu_zhou":
            if w is not None:
                raise ValueError(
                    "convention='wu_zhou' takes no sample_weight (the authors' has none)"
                )
            Yb = Y.astype(bool)
            return np.array([_auc_order_1d(y, f) for y, f in zip(Yb.T, F.T)])
        return np.asarray(_label_aucs(Y, F, w), dtype=np.float64)
    if _listed.is_listed(F):
        average = check_average(average, _AVERAGES_AUC)
        Yc, L, w, per = _listed_args(Y, F, sample_weight, per_instance, convention)
        if per and average != "instance":
            raise ValueError(f"per_instance=True needs average='instance', got {average!r}")
        if average == "instance":
            v = _listed.RowRanking(Yc, L).auc()
            return v if per else _nanmean(v, w)
        if average == "macro":
            return _nanmean(_listed.label_aucs(Yc, L, w))
        return _listed.micro_auc(Yc, L, w)
    Y, F = _check_scores(Y, F)
    average = check_average(average, _AVERAGES_AUC)
    w = _lc.check_sample_weight(sample_weight, Y.shape[0])
    if _check_convention(convention) == "wu_zhou":
        if w is not None:
            raise ValueError("convention='wu_zhou' takes no sample_weight (the authors' has none)")
        Yb = Y.astype(bool)
        if average == "micro":  # MATLAB's labels(:): column after column
            return _auc_order_1d(Yb.ravel(order="F"), F.ravel(order="F"))
        axis_items = Yb.T if average == "macro" else Yb
        scores = F.T if average == "macro" else F
        vals = np.array([_auc_order_1d(y, f) for y, f in zip(axis_items, scores)])
        if _check_flag(per_instance, "per_instance"):
            if average != "instance":
                raise ValueError(f"per_instance=True needs average='instance', got {average!r}")
            return vals
        return _nanmean(vals)
    if _check_flag(per_instance, "per_instance"):
        if average != "instance":
            raise ValueError(f"per_instance=True needs average='instance', got {average!r}")
        return _RowStats(Y, F).auc()
    return _auc(Y, F, average, w=w)


# --------------------------------------------------------------------------- label sets
def _check_label_sets(label_sets: Any, name: str) -> list[list[Hashable]]:
    if isinstance(label_sets, (str, bytes)) or not isinstance(label_sets, Iterable):
        raise TypeError(
            f"{name} must be a sequence of label sets (lists of labels), "
            f"got {type(label_sets).__name__}"
        )
    out = []
    for i, s in enumerate(label_sets):
        if isinstance(s, (str, bytes)) or not isinstance(s, Iterable):
            raise TypeError(f"{name}[{i}] must be a collection of labels (e.g. a list), got {s!r}")
        row = list(s)
        for lab in row:
            if not isinstance(lab, Hashable):
                raise TypeError(f"{name}[{i}] holds an unhashable label {lab!r}")
        out.append(list(dict.fromkeys(row)))  # drop duplicates, keep order
    if not out:
        raise ValueError(f"{name} must hold at least one label set")
    return out


def _label_order(rows: Sequence[Sequence[Hashable]]) -> list[Hashable]:
    """The labels in order of first appearance (never sorted: ``"L10"`` would come
    before ``"L2"``, and a column order must be the data's or the caller's)."""
    return list(dict.fromkeys(lab for row in rows for lab in row))


def binarize(
    label_sets: Iterable[Iterable[Hashable]],
    labels: Sequence[Hashable] | None = None,
) -> tuple[np.ndarray, list[Hashable]]:
    """Turn lists of label names into a 0/1 label matrix.

    Parameters
    ----------
    label_sets : sequence of collections of hashable labels
        One collection per instance, e.g. ``[["cat", "bird"], [], ["dog"]]``.
        Repeated labels within one collection count once.
    labels : sequence of labels, optional
        The labels (every column, also of a label that occurs in no set) in their
        column order.  Default: the labels that occur, in order of first appearance.

    Returns
    -------
    Y : ndarray of int8, shape (n_samples, n_labels)
    labels : list
        The label of each column.

    Examples
    --------
    >>> Y, labels = binarize([["cat", "bird"], [], ["dog"]])
    >>> labels
    ['cat', 'bird', 'dog']
    >>> Y.tolist()
    [[1, 1, 0], [0, 0, 0], [0, 0, 1]]
    """
    rows = _check_label_sets(label_sets, "label_sets")
    if labels is None:
        labels = _label_order(rows)
    else:
        if isinstance(labels, (str, bytes)) or not isinstance(labels, Iterable):
            raise TypeError(f"labels must be a sequence of labels, got {labels!r}")
        labels = list(labels)
        if len(set(labels)) != len(labels):
            raise ValueError("labels must not contain duplicates")
    if not labels:
        raise ValueError("labels must not be empty (no label occurs in label_sets)")
    index = {lab: j for j, lab in enumerate(labels)}
    lengths = np.fromiter((len(r) for r in rows), dtype=np.int64, count=len(rows))
    try:
        cols = np.fromiter(
            (index[lab] for r in rows for lab in r), dtype=np.int64, count=int(lengths.sum())
        )
    except KeyError as exc:
        raise ValueError(
            f"label_sets holds the label {exc.args[0]!r}, which is not in labels"
        ) from None
    Y = np.zeros((len(rows), len(labels)), dtype=np.int8)
    Y[np.repeat(np.arange(len(rows)), lengths), cols] = 1
    return Y, labels


def f_measure_label_sets(
    actual: Iterable[Iterable[Hashable]],
    predicted: Iterable[Iterable[Hashable]],
    beta: float = 1.0,
) -> float:
    r"""Micro F-beta over label *sets*, as Apache Hivemall's ``fmeasure`` defines it.

    With :math:`l_i` the true and :math:`p_i` the predicted label set of
    instance ``i``:

    .. math:: F_\beta = \frac{(1+\beta^2)\sum_i|l_i\cap p_i|}
              {\beta^2\big(\sum_i|l_i\cap p_i| + \sum_i|l_i\setminus p_i|\big)
               + \sum_i|l_i\cap p_i| + \sum_i|p_i\setminus l_i|}

    Algebraically this is the usual micro F-beta,
    :math:`(1+\beta^2)tp/((1+\beta^2)tp + \beta^2 fn + fp)`, i.e.
    ``f_measure(binarize(actual), binarize(predicted), beta, 'micro')`` and
    scikit-learn's ``fbeta_score(average='micro')``.  The arithmetic follows
    Hivemall's ``micro`` path (one division of the pooled counts), which
    reproduces its documented values to the last digit.  An older Hivemall
    release computed :math:`(1+\beta^2)PR/(\beta^2P+R)` from micro precision
    ``P`` and recall ``R``; that order of floating-point operations can differ
    in the last bit (0.6779661016949153 instead of 0.6779661016949152 for the
    documentation's :math:`F_2` example) and returned -1 when no label was
    correct.  Here, as in the current Hivemall and in scikit-learn, no label at
    all (zero denominator) gives 0.0.  Label lists are treated as sets
    (Hivemall would count a repeated predicted label twice).

    Parameters
    ----------
    actual, predicted : sequences of collections of hashable labels
        True and predicted label sets, one per instance, same length.
    beta : float > 0, default 1

    Returns
    -------
    float in [0, 1]
    """
    a = _check_label_sets(actual, "actual")
    p = _check_label_sets(predicted, "predicted")
    if len(a) != len(p):
        raise ValueError(
            f"actual and predicted must have the same length, got {len(a)} and {len(p)}"
        )
    b = _check_beta(beta)
    labels = _label_order(a + p)
    if not labels:
        return 0.0
    A, _ = binarize(a, labels)
    Pm, _ = binarize(p, labels)
    tp = int((A & Pm).sum())
    n_actual = int(A.sum())
    n_pred = int(Pm.sum())
    # Hivemall's denominator b2 (tp + fn) + tp + fp is b2 |y| + |p| in exact integers:
    # the one F-beta of counts, with 0 for no label at all
    return float(_lc.prf("f", tp, n_actual, n_pred, b, 0.0))


# --------------------------------------------------------------------------- all at once
def _cutoffs(k: Any) -> list[int]:
    """``k`` of :func:`all_measures`: one cut-off or several."""
    ks = [k] if isinstance(k, (int, np.integer)) and not isinstance(k, bool) else k
    if isinstance(ks, (str, bytes)) or not isinstance(ks, Iterable):
        raise TypeError(f"k must be a positive integer or a list of them, got {k!r}")
    out = [check_positive_int(v, "k") for v in ks]
    if not out:
        raise ValueError("k must hold at least one cut-off")
    return out


def _registered(
    Y: Any,
    F: Any,
    P: Any,
    measures: Any,
    zero_division: Any,
    convention: str,
    k: Any = None,
) -> dict[str, float]:
    """``{name: value}`` of registered measures (:mod:`mlcbook.registry`): ``"all"``
    those the inputs allow without a required parameter (with ``k``, the measures at k
    that need only ``k`` too), or the names given; a measure at k once per cut-off,
    keyed by its name at that cut-off (``precision_at_5``)."""
    ks = None if k is None else _cutoffs(k)
    if isinstance(measures, str) and measures == "all":
        specs = [
            s
            for s in _R.measure_specs()
            if set(s.required_params) <= ({"k"} if ks else set())
            and (F if s.inputs == "scores" else P) is not None
        ]
    elif isinstance(measures, str) or not isinstance(measures, Iterable):
        raise TypeError(f"measures must be 'all' or a list of measure names, got {measures!r}")
    else:
        specs = [_R.get_measure(m) for m in measures]
        if not specs:
            raise ValueError("measures must name at least one measure")
    out: dict[str, float] = {}
    for s in specs:
        X = F if s.inputs == "scores" else P
        if X is None:
            raise ValueError(f"{s.name} needs {'F (scores)' if s.inputs == 'scores' else 'P'}")
        params: dict[str, Any] = {}
        if zero_division is not None and "zero_division" in s.param_names:
            params["zero_division"] = zero_division
        if convention != "mlcbook" and "convention" in s.param_names:
            params["convention"] = convention
        if "k" in s.required_params and ks is not None:
            for cut in ks:
                out[s.display_name({**params, "k": cut})] = s.compute(Y, X, **params, k=cut)
            continue
        out[s.name] = s.compute(Y, X, **params)
    return out


def all_measures(
    Y: Any,
    F: Any,
    P: Any,
    *,
    zero_division: float | None = None,
    convention: str = "mlcbook",
    measures: str | Sequence[str] | None = None,
    k: int | Sequence[int] | None = None,
) -> dict[str, float]:
    """The eleven measures of Wu & Zhou (2017, Table 1) in one call, or any measures of
    the registry (``measures=``).

    Parameters
    ----------
    Y : array-like or sparse matrix of shape (n_samples, n_labels)
        True 0/1 labels.
    F : array-like or sparse matrix of shape (n_samples, n_labels), or TopK
        Real-valued scores (for the ranking measures and AUCs).  A sparse matrix or a
        :class:`~mlcbook.topk.TopK` lists some scores (:mod:`mlcbook.topk`): then
        nothing is made dense, and ``Y`` and ``P`` stay sparse.
    P : array-like or sparse matrix of shape (n_samples, n_labels)
        Predicted 0/1 labels, e.g. thresholded ``F`` (for Hamming loss and
        the F1 measures).
    zero_division : float in [0, 1] or NaN, optional
        See :func:`f_measure`.  Default: the convention's, 1.0 for ``"mlcbook"``
        and 0.0 for ``"wu_zhou"`` (the authors' F1 is ``2pr/(p + r)`` with NaN
        set to 0).
    convention : {"mlcbook", "wu_zhou"}, default "mlcbook"
        ``"wu_zhou"``: ranking loss, coverage, average precision and the three
        AUCs as Wu & Zhou's ``measure/*.m`` compute them (see
        :func:`ranking_loss`, :func:`coverage`, :func:`label_ranking_average_precision`,
        :func:`auc`); Hamming loss, one-error and the F1 counts are the same in
        both conventions.
    measures : "all" or list of str, optional
        Instead of Table 1: ``"all"``, every measure of :mod:`mlcbook.registry` that
        needs no parameter (``F`` or ``P`` may then be None: the measures of the other
        input only), or the registered names given (scikit-learn's ``"f1_macro"``,
        ``"roc_auc"``, ...).  ``zero_division`` and ``convention`` are then passed to
        the measures that take them; each measure's own default otherwise.
    k : int or list of int, optional
        With ``measures``: the cut-offs of the measures at k (:mod:`mlcbook.extreme`),
        each computed once per cut-off under its name there (``precision_at_5``);
        ``measures="all"`` then includes the measures at k that need only ``k``.

    Returns
    -------
    dict
        Keys :data:`WU_ZHOU_MEASURES` in Table 1's order: ``hamming_loss``,
        ``ranking_loss``, ``one_error``, ``coverage``, ``average_precision``,
        ``macro_f1``, ``instance_f1``, ``micro_f1``, ``macro_auc``,
        ``instance_auc``, ``micro_auc``.  Lower is better for the keys in
        :data:`LOWER_IS_BETTER`.  The key ``average_precision`` is Table 1's name of
        the label-ranking average precision (the registry's
        ``label_ranking_average_precision``; scikit-learn's ``average_precision`` is
        another measure).  With ``measures``: the registered names.

    Examples
    --------
    A label that is neither true nor predicted scores 1 in the book's ``macro_f1`` and
    0 in scikit-learn's ``f1_macro`` (whose warning is silenced here):

    >>> import warnings
    >>> Y = [[1, 0, 0], [0, 1, 0]]; P = [[1, 0, 0], [0, 0, 0]]
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     v = all_measures(Y, None, P, measures=["hamming_loss", "macro_f1", "f1_macro"])
    >>> {name: round(x, 4) for name, x in v.items()}
    {'hamming_loss': 0.1667, 'macro_f1': 0.6667, 'f1_macro': 0.3333}
    """
    if measures is not None:
        return _registered(Y, F, P, measures, zero_division, _check_convention(convention), k)
    if k is not None:
        raise ValueError("k (the cut-off of the measures at k) needs measures=")
    if _listed.is_listed(F):
        return _all_measures_listed(Y, F, P, zero_division, convention)
    Yl, P = _check_pair(Y, P, "Y", "P")
    Yd = Yl.toarray() if sp.issparse(Yl) else Yl
    F = check_score_matrix(F, "F")
    check_same_shape(Yd, F, "Y", "F")
    conv = _check_convention(convention)
    if zero_division is None:
        zero_division = 0.0 if conv == "wu_zhou" else 1.0
    zd = _check_zero_division(zero_division)
    Pd = P.toarray() if sp.issparse(P) else P
    out: dict[str, float] = {}
    out["hamming_loss"] = float(np.mean(Yd != Pd))
    out["one_error"] = float(np.mean(_one_error(Yd, F)))  # the same in both conventions
    stats = None if conv == "wu_zhou" else _RowStats(Yd, F)  # one sort per row, three uses
    if stats is None:
        out["ranking_loss"] = float(ranking_loss(Yd, F, convention=conv))
        out["coverage"] = float(coverage(Yd, F, convention=conv))
        out["average_precision"] = float(label_ranking_average_precision(Yd, F, convention=conv))
    else:
        out["ranking_loss"] = float(np.mean(stats.ranking_loss()))
        out["coverage"] = float(np.mean(_coverage(Yd, F)))
        out["average_precision"] = float(np.mean(stats.average_precision()))
    for name, axis in (("macro_f1", 0), ("instance_f1", 1), ("micro_f1", None)):
        tp, sy, sp_ = _counts(Yd, Pd, axis)
        out[name] = _mean_defined(_lc.prf("f", tp, sy, sp_, 1.0, zd))
    for name, avg in (
        ("macro_auc", "macro"),
        ("instance_auc", "instance"),
        ("micro_auc", "micro"),
    ):
        if stats is None:
            out[name] = float(auc(Yd, F, avg, convention=conv))
        else:
            out[name] = _auc(Yd, F, avg, stats)
    return {m: out[m] for m in WU_ZHOU_MEASURES}  # Table 1's order


def _all_measures_listed(Y: Any, F: Any, P: Any, zero_division: Any, convention: Any):
    """:func:`all_measures` of listed scores: one ranking of the listed entries shared
    by the ranking measures, the counts of sparse ``Y`` and ``P``."""
    Yl, L, _, _ = _listed_args(Y, F, None, False, convention)
    Yl, P = _check_pair(Yl, P, "Y", "P")
    zd = _check_zero_division(1.0 if zero_division is None else zero_division)
    R = _listed.RowRanking(Yl, L)
    c = _lc.Counts(Yl, P)
    n, K = Yl.shape
    out: dict[str, float] = {
        "hamming_loss": c.err(None) / (n * K),
        "ranking_loss": float(np.mean(R.ranking_loss())),
        "one_error": float(np.mean(R.one_error(Yl))),
        "coverage": float(np.mean(R.coverage())),
        "average_precision": float(np.mean(R.average_precision())),
        "macro_auc": _nanmean(_listed.label_aucs(Yl, L, None)),
        "instance_auc": _nanmean(R.auc()),
        "micro_auc": _listed.micro_auc(Yl, L, None),
    }
    for name, axis in (("macro_f1", 0), ("instance_f1", 1), ("micro_f1", None)):
        out[name] = _mean_defined(_lc.prf("f", c.tp(axis), c.ny(axis), c.np_(axis), 1.0, zd))
    return {m: out[m] for m in WU_ZHOU_MEASURES}


# ---------------------------------------------------------------------- old spellings
_WARNED: set[str] = set()


def _renamed(old: str, new: str, sklearn: str) -> None:
    """Warn once per process that ``old`` is the old spelling of ``new``."""
    if old in _WARNED:
        return
    _WARNED.add(old)
    warnings.warn(
        f"mlcbook.metrics.{old} is renamed {new}: scikit-learn's {old} is another "
        f"measure ({sklearn}), so the name will give scikit-learn's number; use "
        f"mlcbook.metrics.{new} for this one",
        FutureWarning,
        stacklevel=3,
    )


def jaccard_score(Y: Any, P: Any, **kwargs: Any) -> float | np.ndarray:
    """Old spelling of :func:`instance_jaccard` (warns once): the book's Jaccard index
    averaged over instances, 0/0 = 1.

    scikit-learn's :func:`sklearn.metrics.jaccard_score` averages as ``average=`` says
    (``'binary'`` by default) with 0/0 = 0: another number on the same input.

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     old = jaccard_score([[1, 1], [0, 0]], [[1, 0], [0, 0]])
    >>> old == instance_jaccard([[1, 1], [0, 0]], [[1, 0], [0, 0]]) == 0.75
    True
    """
    _renamed(
        "jaccard_score",
        "instance_jaccard",
        "averaged as average= says, 0/0 = 0; the registry's jaccard_samples is its "
        "average over instances",
    )
    return instance_jaccard(Y, P, **kwargs)


def average_precision(Y: Any, F: Any, **kwargs: Any) -> float | np.ndarray:
    """Old spelling of :func:`label_ranking_average_precision` (warns once): Wu & Zhou's
    "average precision", per instance over its ranking of the labels.

    scikit-learn's ``average_precision`` (scorer, and
    :func:`sklearn.metrics.average_precision_score`) is the area under each label's
    precision-recall curve, averaged over labels: another number on the same input.

    Examples
    --------
    >>> import warnings
    >>> Y, F = [[1, 0, 1], [0, 1, 0]], [[0.9, 0.8, 0.1], [0.2, 0.7, 0.3]]
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     old = average_precision(Y, F)
    >>> old == label_ranking_average_precision(Y, F)
    True
    """
    _renamed(
        "average_precision",
        "label_ranking_average_precision",
        "the area under each label's precision-recall curve, averaged over labels",
    )
    return label_ranking_average_precision(Y, F, **kwargs)
