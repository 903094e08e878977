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

import warnings
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import scipy.sparse as sp

from . import _labelcounts as _lc
from . import _listed
from . import registry as _R
from ._auc import auc, auc_average, nanmean
from ._classification import (
    check_pair,
    check_zero_division,
    example_based_f_measure,
    f_measure,
    hamming_loss,
    instance_jaccard,
    label_counts,
    mean_defined,
    precision,
    recall,
    subset_accuracy,
    subset_zero_one_loss,
)
from ._labelsets import binarize, f_measure_label_sets
from ._ranking import (
    RowStats,
    check_convention,
    coverage,
    coverage_values,
    label_ranking_average_precision,
    listed_args,
    one_error,
    one_error_values,
    ranking_loss,
)
from ._validation import (
    check_positive_int,
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

#: The eleven measures of Wu & Zhou (2017, Table 1), in the table's order: the
#: registry's group ``"wu_zhou"`` (:func:`mlcbook.registry.group`), registered names.
WU_ZHOU_MEASURES: tuple[str, ...] = _R.group("wu_zhou")

#: Measures of :data:`WU_ZHOU_MEASURES` for which smaller values are better: those the
#: registry records as not ``greater_is_better``.
LOWER_IS_BETTER: frozenset[str] = frozenset(
    m for m in WU_ZHOU_MEASURES if not _R.get_measure(m).greater_is_better
)


class _Table1(dict):
    """:func:`all_measures`'s dict: the old key ``average_precision`` raises a
    ``KeyError`` that says what to use."""

    def __missing__(self, key: Any) -> float:
        if key == "average_precision":
            raise KeyError(
                "'average_precision': Wu & Zhou's average precision is the key "
                "'label_ranking_average_precision'; scikit-learn's average_precision is "
                "another measure: all_measures(..., measures=['average_precision'])"
            )
        raise KeyError(key)


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
        Keys :data:`WU_ZHOU_MEASURES` in Table 1's order, the registry's names:
        ``hamming_loss``, ``ranking_loss``, ``one_error``, ``coverage``,
        ``label_ranking_average_precision``, ``macro_f1``, ``instance_f1``,
        ``micro_f1``, ``macro_auc``, ``instance_auc``, ``micro_auc``.  Lower is better
        for the keys in :data:`LOWER_IS_BETTER`.  Wu & Zhou call the fifth "average
        precision"; scikit-learn's ``average_precision`` is another measure (the area
        under each label's precision-recall curve: ``measures=["average_precision"]``),
        and the key ``average_precision`` raises a ``KeyError`` that says so.  With
        ``measures``: the registered names.

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
        return _registered(Y, F, P, measures, zero_division, check_convention(convention), k)
    if k is not None:
        raise ValueError("k (the cut-off of the measures at k) needs measures=")
    if _listed.is_listed(F):
        return _all_measures_listed(Y, F, P, zero_division, convention)
    Yl, P = check_pair(Y, P, "Y", "P")
    Yd = Yl.toarray() if sp.issparse(Yl) else Yl
    F = check_score_matrix(F, "F")
    check_same_shape(Yd, F, "Y", "F")
    conv = check_convention(convention)
    if zero_division is None:
        zero_division = 0.0 if conv == "wu_zhou" else 1.0
    zd = check_zero_division(zero_division)
    Pd = P.toarray() if sp.issparse(P) else P
    out: dict[str, float] = {}
    out["hamming_loss"] = float(np.mean(Yd != Pd))
    out["one_error"] = float(np.mean(one_error_values(Yd, F)))  # the same in both conventions
    stats = None if conv == "wu_zhou" else RowStats(Yd, F)  # one sort per row, three uses
    if stats is None:
        out["ranking_loss"] = float(ranking_loss(Yd, F, convention=conv))
        out["coverage"] = float(coverage(Yd, F, convention=conv))
        out["label_ranking_average_precision"] = float(
            label_ranking_average_precision(Yd, F, convention=conv)
        )
    else:
        out["ranking_loss"] = float(np.mean(stats.ranking_loss()))
        out["coverage"] = float(np.mean(coverage_values(Yd, F)))
        out["label_ranking_average_precision"] = float(np.mean(stats.average_precision()))
    for name, axis in (("macro_f1", 0), ("instance_f1", 1), ("micro_f1", None)):
        tp, sy, sp_ = label_counts(Yd, Pd, axis)
        out[name] = mean_defined(_lc.prf("f", tp, sy, sp_, 1.0, zd))
    for name, avg in (
        ("macro_auc", "macro"),
        ("instance_auc", "instance"),
        ("micro_auc", "micro"),
    ):
        if stats is None:
            out[name] = float(auc(Yd, F, avg, convention=conv))
        else:
            out[name] = auc_average(Yd, F, avg, stats)
    return _Table1((m, out[m]) for m in WU_ZHOU_MEASURES)  # Table 1's order


def _all_measures_listed(Y: Any, F: Any, P: Any, zero_division: Any, convention: Any):
    """:func:`all_measures` of listed scores: one ranking of the listed entries shared
    by the ranking measures, the counts of sparse ``Y`` and ``P``."""
    Yl, L, _, _ = listed_args(Y, F, None, False, convention)
    Yl, P = check_pair(Yl, P, "Y", "P")
    zd = check_zero_division(1.0 if zero_division is None else zero_division)
    R = _listed.RowRanking(Yl, L)
    c = _lc.Counts(Yl, P)
    n, K = Yl.shape
    out: dict[str, float] = {
        "hamming_loss": c.err(None) / (n * K),
        "ranking_loss": float(np.mean(R.ranking_loss())),
        "one_error": float(np.mean(R.one_error(Yl))),
        "coverage": float(np.mean(R.coverage())),
        "label_ranking_average_precision": float(np.mean(R.average_precision())),
        "macro_auc": nanmean(_listed.label_aucs(Yl, L, None)),
        "instance_auc": nanmean(R.auc()),
        "micro_auc": _listed.micro_auc(Yl, L, None),
    }
    for name, axis in (("macro_f1", 0), ("instance_f1", 1), ("micro_f1", None)):
        out[name] = mean_defined(_lc.prf("f", c.tp(axis), c.ny(axis), c.np_(axis), 1.0, zd))
    return _Table1((m, out[m]) for m in WU_ZHOU_MEASURES)


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
