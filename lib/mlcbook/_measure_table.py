"""The built-in entries of the measure registry (:mod:`mlcbook.registry`).

One :func:`~mlcbook.registry.register` call per measure, in the order the documentation
and ``mlcbook measures`` list them.  :mod:`mlcbook.registry` imports this module on its
first lookup.  The measures' arithmetic lives in :mod:`mlcbook.metrics`,
:mod:`mlcbook.losses` and, for the averages only scikit-learn's names use (its
``zero_division="warn"`` default, ``average="weighted"``, its ``roc_auc`` and
``average_precision``), in :mod:`mlcbook._sklearn_measures`; here each is declared once
with its kind, inputs, direction, parameters, decomposition and convention.

Two families of names:

* **scikit-learn's names** (``convention="scikit-learn"``): the value of scikit-learn's
  scorer or metric of that name, defaults included;
* **the book's names** (``convention="mlcbook"``, ``"wu_zhou"``, ``"zhang_zhou"``,
  ``"hullermeier"``): the measures of the papers, ``<average>_<measure>`` (Wu & Zhou's
  ``macro_f1``), ``zero_division=1`` (a correct empty prediction is perfect), and a
  ``convention=`` parameter where the authors' code differs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.sparse as sp

from . import _labelcounts as _lc
from . import _sklearn_measures as _SK
from . import extreme as _X
from . import losses as _L
from . import metrics as _M
from ._validation import check_average, check_bool, check_positive_int, check_real
from .registry import (
    Decomposition,
    MeasureSpec,
    Param,
    _deprecated,
    mean_decomposition,
    register,
    register_group,
)

__all__: list[str] = []


# ---------------------------------------------------------------------- parameters
def _zero_division(v: Any) -> Any:
    return _M._check_zero_division(v)


def _convention(v: Any) -> str:
    return check_average(v, _M.CONVENTIONS, "convention")


def _k(v: Any) -> int:
    return check_positive_int(v, "k", low=1)


def _alpha(v: Any) -> float:
    return v if v == float("inf") else check_real(v, "alpha", low=1.0)


def _scores(v: Any) -> str:
    return check_average(v, ("probability", "decision"), "scores")


ZD_BOOK = Param(
    "zero_division",
    1.0,
    _zero_division,
    "value of a 0/0 ratio: a number in [0, 1], nan (left out of the average) or 'warn'",
)
ZD_SKLEARN = Param(
    "zero_division",
    "warn",
    _zero_division,
    "value of a 0/0 ratio: 'warn' (0 and a warning, scikit-learn's default), "
    "a number in [0, 1] or nan",
)
BETA = Param("beta", 1.0, _M._check_beta, "recall weighs beta times precision (F-beta)")
CONVENTION = Param(
    "convention",
    "mlcbook",
    _convention,
    "'mlcbook' (scikit-learn's ties and empty rows) or 'wu_zhou' (the authors' MATLAB code)",
)
SCORES = Param(
    "scores",
    "probability",
    _scores,
    "soft form: 'probability' (scores in [0, 1]) or 'decision' (mapped by the logistic function)",
)


# ---------------------------------------------------------------------- callables
class _Call:
    """``fn(Y, X, *args, **fixed, **kw)`` under a name: a picklable stand-in for a
    closure (scikit-learn's scorer shows ``__name__``; grid searches pickle it)."""

    def __init__(self, name: str, fn: Callable[..., Any], *args: str, **fixed: Any) -> None:
        self.__name__ = name
        self.fn, self.args, self.fixed = fn, args, fixed

    def __call__(self, Y: Any, X: Any, **kw: Any) -> Any:
        positional = [kw.pop(a) for a in self.args]  # the losses' parameter (k, alpha)
        return self.fn(Y, X, *positional, **self.fixed, **kw)

    def __repr__(self) -> str:
        return self.__name__

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.__name__, self.fn, self.args, self.fixed))


def _rebuild(name: str, fn: Callable[..., Any], args: tuple, fixed: dict) -> _Call:
    return _Call(name, fn, *args, **fixed)


def _call(name: str, fn: Callable[..., Any], *args: str, **fixed: Any) -> _Call:
    return _Call(name, fn, *args, **fixed)


def _per(name: str, fn: Callable[..., Any], *args: str, **fixed: Any) -> _Call:
    """The per-instance values: ``fn(..., per_instance=True)``."""
    return _Call(f"{name}_per_instance", fn, *args, per_instance=True, **fixed)


def _at_k_label(name: str) -> Callable[[Any], str]:
    """``precision_at_k`` shown as ``precision_at_5`` (other parameters as usual)."""

    def label(params: Any) -> str:
        shown = name.replace("_at_k", f"_at_{params['k']}") if "k" in params else name
        extra = [
            f"{p}={v}"
            for p, v in params.items()
            if p not in ("k", "propensity") and v != _AT_K_DEFAULTS.get(p)
        ]
        return shown + (f"[{','.join(extra)}]" if extra else "")

    return label


_AT_K_DEFAULTS: dict[str, Any] = {
    "empty_rows": "zero",
    "normalization": "ideal",
    "normalize": True,
}


def _f_label(name: str) -> Callable[[Any], str]:
    """``macro_f1`` shown as ``macro_f2`` when ``beta=2`` (beta to 4 significant digits)."""

    def label(params: Any) -> str:
        beta = params.get("beta", 1.0)
        return name if beta == 1.0 else name.replace("_f1", f"_f{beta:.4g}")

    return label


# ---------------------------------------------------------------------- decompositions
def _plain(zd: Any) -> float:
    """``"warn"`` as its plain value 0.0: resamples must not warn thousands of times."""
    return float(zd)


def _counts_finish(which: str, beta: float, zd: float, K: int | None, weighted: bool):
    """Sums of (tp, |y|, |p|) -- pooled (``K=None``) or per label -- to the measure."""
    zd = _plain(zd)

    def finish(S: np.ndarray) -> np.ndarray:
        if K is None:
            return _lc.prf(which, S[:, 0], S[:, 1], S[:, 2], beta, zd)
        tp, ny, np_ = S[:, :K], S[:, K : 2 * K], S[:, 2 * K :]
        v = _lc.prf(which, tp, ny, np_, beta, zd)
        if weighted:
            return _SK.nanaverage_rows(v, ny)
        ok = ~np.isnan(v)  # zero_division=nan: undefined labels left out of the mean
        with np.errstate(invalid="ignore"):
            return np.where(ok, v, 0.0).sum(axis=1) / ok.sum(axis=1)

    return finish


def _jaccard_finish(zd: float, K: int | None, weighted: bool):
    zd = _plain(zd)

    def finish(S: np.ndarray) -> np.ndarray:
        if K is None:
            tp, ny, np_ = S[:, 0], S[:, 1], S[:, 2]
        else:
            tp, ny, np_ = S[:, :K], S[:, K : 2 * K], S[:, 2 * K :]
        v = _lc.divide(tp, ny + np_ - tp, zd)
        if K is None:
            return v
        return _SK.nanaverage_rows(v, ny if weighted else None)

    return finish


def _count_stats(Y: Any, P: Any, per_label: bool):
    """Per-instance (tp, |y|, |p|): 3 columns, or 3K per label (sparse stays sparse)."""
    Yc, Pc = _lc.check_pair(Y, P, "Y", "P")
    c = _lc.Counts(Yc, Pc)
    if not per_label:
        return np.column_stack([c.tp(1), c.ny(1), c.np_(1)]).astype(np.float64), None
    K = Yc.shape[1]
    if sp.issparse(Yc):
        return sp.hstack([c.both, Yc, Pc], format="csr").astype(np.float64), K
    return np.hstack([Yc & Pc, Yc, Pc]).astype(np.float64), K


class _CountsDecomposition:
    """Decomposition of a micro (pooled) or macro/weighted (per label) average."""

    def __init__(self, which: str, average: str) -> None:
        self.which, self.average = which, average
        self.__name__ = f"{which}_{average}_decomposition"

    def __call__(self, Y: Any, P: Any, *, zero_division: Any, beta: float = 1.0) -> Decomposition:
        stats, K = _count_stats(Y, P, per_label=self.average != "micro")
        weighted = self.average == "weighted"
        if self.which == "jaccard":
            return Decomposition(stats, _jaccard_finish(zero_division, K, weighted))
        return Decomposition(stats, _counts_finish(self.which, beta, zero_division, K, weighted))


def _example_f_decomposition(Y: Any, P: Any, *, beta: float, zero_division: Any) -> Decomposition:
    """Zhang & Zhou's F of the averaged precision and recall: 4 statistics."""
    zd = _plain(zero_division)
    prec = _M.precision(Y, P, average="instance", zero_division=zd, per_instance=True)
    rec = _M.recall(Y, P, average="instance", zero_division=zd, per_instance=True)
    okp, okr = ~np.isnan(prec), ~np.isnan(rec)  # zero_division=nan: left out
    stats = np.column_stack([np.where(okp, prec, 0.0), np.where(okr, rec, 0.0), okp, okr]).astype(
        np.float64
    )

    def finish(S: np.ndarray) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            return _lc.f_of_averages(S[:, 0] / S[:, 2], S[:, 1] / S[:, 3], beta)

    return Decomposition(stats, finish)


def _mean_of(fn: Callable[..., Any]) -> Callable[..., Decomposition]:
    """Decomposition from a per-instance function (for measures built from one)."""

    def decompose(Y: Any, X: Any, **kw: Any) -> Decomposition:
        return mean_decomposition(fn(Y, X, **kw))

    return decompose


# ---------------------------------------------------------------------- helpers
def _add(
    name: str,
    function: Callable[..., Any],
    kind: str,
    inputs: str,
    greater_is_better: bool,
    **kw: Any,
) -> MeasureSpec:
    if not hasattr(function, "__name__") or function.__name__ != name:
        function = _call(name, function)
    return register(MeasureSpec(name, function, kind, inputs, greater_is_better, **kw))


_AVG_BOOK = {"micro": "micro", "macro": "macro", "instance": "instance"}
_SK_AVERAGES = ("micro", "macro", "samples", "weighted")
_WHAT = {"precision": "precision", "recall": "recall", "f1": "F1", "jaccard": "Jaccard index"}
_AVG_TEXT = {
    "micro": "of the counts pooled over the matrix",
    "macro": "averaged over labels",
    "instance": "averaged over instances",
    "samples": "averaged over instances",
    "weighted": "averaged over labels, weighted by their number of true instances",
}

# ====================================================================== classification
_add(
    "hamming_loss",
    _M.hamming_loss,
    "classification",
    "predictions",
    False,
    per_instance=_per("hamming_loss", _M.hamming_loss),
    convention="scikit-learn",
    equals="sklearn.metrics.hamming_loss",
    description="fraction of wrongly predicted (instance, label) pairs",
    reference="Zhang & Zhou (2014) Sec. 2.2.2; Wu & Zhou (2017) Table 1",
    in_report=True,
)
_add(
    "subset_accuracy",
    _M.subset_accuracy,
    "classification",
    "predictions",
    True,
    per_instance=_per("subset_accuracy", _M.subset_accuracy),
    convention="zhang_zhou",
    equals="sklearn.metrics.accuracy_score",
    description="fraction of instances whose predicted set equals the true set (exact match)",
    reference="Zhang & Zhou (2014) Sec. 2.2.2",
    in_report=True,
)
_add(
    "accuracy",
    _M.subset_accuracy,
    "classification",
    "predictions",
    True,
    per_instance=_per("accuracy", _M.subset_accuracy),
    convention="scikit-learn",
    equals="sklearn.metrics.accuracy_score",
    sklearn_scorer=True,
    description="scikit-learn's name of subset accuracy (exact match) on label matrices",
)
_add(
    "subset_zero_one_loss",
    _M.subset_zero_one_loss,
    "classification",
    "predictions",
    False,
    per_instance=_per("subset_zero_one_loss", _M.subset_zero_one_loss),
    convention="zhang_zhou",
    equals="sklearn.metrics.zero_one_loss",
    description="1 - subset accuracy",
    in_report=True,
)
_add(
    "instance_jaccard",
    _M.instance_jaccard,
    "classification",
    "predictions",
    True,
    params=(ZD_BOOK,),
    per_instance=_per("instance_jaccard", _M.instance_jaccard),
    convention="mlcbook",
    equals="sklearn.metrics.jaccard_score(average='samples', zero_division=1)",
    description="Jaccard index |y & p| / |y | p| averaged over instances (0/0 = 1)",
    reference="Zhang & Zhou (2014) Accuracy_exam; Park & Read (2018) Eq. 3",
    in_report=True,
)
for _avg in ("micro", "macro", "instance"):
    for _what, _fn in (("precision", _M.precision), ("recall", _M.recall)):
        _name = f"{_avg}_{_what}"
        _add(
            _name,
            _call(_name, _fn, average=_avg),
            "classification",
            "predictions",
            True,
            params=(ZD_BOOK,),
            per_instance=_per(_name, _fn, average=_avg) if _avg == "instance" else None,
            decompose=_CountsDecomposition(_what, _avg) if _avg != "instance" else None,
            convention="mlcbook",
            equals=f"sklearn.metrics.{_what}_score(average="
            f"'{'samples' if _avg == 'instance' else _avg}', zero_division=1)",
            description=f"{_what} {_AVG_TEXT[_avg]} (0/0 = 1)",
            reference="Zhang & Zhou (2014) Sec. 2.2",
            in_report=True,
        )
    _name = f"{_avg}_f1"
    _add(
        _name,
        _call(_name, _M.f_measure, average=_avg),
        "classification",
        "predictions",
        True,
        params=(BETA, ZD_BOOK),
        per_instance=_per(_name, _M.f_measure, average=_avg) if _avg == "instance" else None,
        decompose=_CountsDecomposition("f", _avg) if _avg != "instance" else None,
        convention="mlcbook",
        equals="sklearn.metrics.fbeta_score(average="
        f"'{'samples' if _avg == 'instance' else _avg}', zero_division=1)",
        description=f"F-beta {_AVG_TEXT[_avg]} (0/0 = 1)",
        reference="Wu & Zhou (2017) Table 1 (beta = 1)",
        in_report=True,
        label=_f_label(_name),
    )
_add(
    "example_based_f1",
    _M.example_based_f_measure,
    "classification",
    "predictions",
    True,
    params=(BETA, ZD_BOOK),
    decompose=_example_f_decomposition,
    convention="zhang_zhou",
    description="F-beta of the instance-averaged precision and recall",
    reference="Zhang & Zhou (2014) Sec. 2.2.2, F^beta_exam",
    in_report=True,
    label=_f_label("example_based_f1"),
)

# scikit-learn's names: its defaults (zero_division="warn"), its averages
for _what in ("precision", "recall", "f1", "jaccard"):
    for _avg in _SK_AVERAGES:
        _name = f"{_what}_{_avg}"
        _which = {"f1": "f"}.get(_what, _what)
        _add(
            _name,
            _call(_name, _SK.jaccard, average=_avg)
            if _what == "jaccard"
            else _call(_name, _SK.prf, which=_which, average=_avg),
            "classification",
            "predictions",
            True,
            params=(ZD_SKLEARN,),
            per_instance=(
                _call(f"{_name}_per_instance", _SK.samples_values, which=_which)
                if _avg == "samples"
                else None
            ),
            decompose=(_CountsDecomposition(_which, _avg) if _avg != "samples" else None),
            convention="scikit-learn",
            equals=f"sklearn.metrics.{'fbeta' if _what == 'f1' else _what}_score("
            f"average='{_avg}')" + (" with beta=1" if _what == "f1" else ""),
            sklearn_scorer=True,
            description=f"{_WHAT[_what]} {_AVG_TEXT[_avg]} (0/0 = 0 with a warning)",
        )

# ====================================================================== ranking
_add(
    "ranking_loss",
    _M.ranking_loss,
    "ranking",
    "scores",
    False,
    params=(CONVENTION,),
    per_instance=_per("ranking_loss", _M.ranking_loss),
    convention="mlcbook",
    equals="sklearn.metrics.label_ranking_loss",
    description="fraction of (relevant, irrelevant) label pairs ordered wrongly",
    reference="Wu & Zhou (2017) Table 1",
    in_report=True,
)
_add(
    "one_error",
    _M.one_error,
    "ranking",
    "scores",
    False,
    per_instance=_per("one_error", _M.one_error),
    convention="wu_zhou",
    description="fraction of instances whose top-scored label is irrelevant",
    reference="Wu & Zhou (2017) Table 1",
    in_report=True,
)
_add(
    "coverage",
    _M.coverage,
    "ranking",
    "scores",
    False,
    params=(CONVENTION,),
    per_instance=_per("coverage", _M.coverage),
    convention="wu_zhou",
    equals="sklearn.metrics.coverage_error - 1 (rows with a relevant label)",
    description="how far down the ranking all relevant labels are covered, minus one",
    reference="Wu & Zhou (2017) Table 1",
    in_report=True,
)
_add(
    "coverage_error",
    _SK.coverage_error,
    "ranking",
    "scores",
    False,
    per_instance=_call("coverage_error_per_instance", _SK.coverage_error_values),
    convention="scikit-learn",
    equals="sklearn.metrics.coverage_error",
    description="number of top-ranked labels needed to cover every relevant label",
)
_add(
    "label_ranking_average_precision",
    _M.label_ranking_average_precision,
    "ranking",
    "scores",
    True,
    params=(CONVENTION,),
    per_instance=_per("label_ranking_average_precision", _M.label_ranking_average_precision),
    convention="mlcbook",
    equals="sklearn.metrics.label_ranking_average_precision_score",
    description="per instance, the mean precision at each relevant label's rank "
    "(Wu & Zhou's 'average precision')",
    reference="Wu & Zhou (2017) Table 1",
    in_report=True,
)
for _avg in ("macro", "micro", "instance"):
    _name = f"{_avg}_auc"
    _add(
        _name,
        _call(_name, _M.auc, average=_avg),
        "ranking",
        "scores",
        True,
        params=(CONVENTION,),
        per_instance=_per(_name, _M.auc, average=_avg) if _avg == "instance" else None,
        convention="mlcbook",
        equals="sklearn.metrics.roc_auc_score(average="
        f"'{'samples' if _avg == 'instance' else _avg}') where defined",
        description=f"area under the ROC curve {_AVG_TEXT[_avg]}; undefined "
        f"{'labels' if _avg == 'macro' else 'instances' if _avg == 'instance' else 'cases'}"
        " left out",
        reference="Wu & Zhou (2017) Table 1",
        in_report=True,
        no_interval=""
        if _avg == "instance"
        else f"{_avg} AUC counts pairs of instances: not a sum over instances",
    )
_add(
    "roc_auc",
    _SK.roc_auc,
    "ranking",
    "scores",
    True,
    convention="scikit-learn",
    equals="sklearn.metrics.roc_auc_score(average='macro')",
    sklearn_scorer=True,
    description="area under the ROC curve averaged over labels; NaN (and a warning) if "
    "a label has one class",
    no_interval="macro AUC counts pairs of instances: not a sum over instances",
)
_add(
    "average_precision",
    _SK.average_precision,
    "ranking",
    "scores",
    True,
    convention="scikit-learn",
    equals="sklearn.metrics.average_precision_score(average='macro')",
    sklearn_scorer=True,
    description="area under each label's precision-recall curve (step sum), averaged over labels",
    no_interval="per-label average precision ranks instances: not a sum over instances",
)


# ====================================================================== at k
def _empty_rows(v: Any) -> str:
    return check_average(v, ("zero", "skip"), "empty_rows")


def _normalization(v: Any) -> str:
    return check_average(v, ("ideal", "k"), "normalization")


def _normalize(v: Any) -> bool:
    return check_bool(v, "normalize")


K_CUT = Param("k", check=_k, help="cut-off: the k top-ranked labels of each instance")
EMPTY_ROWS = Param(
    "empty_rows",
    "zero",
    _empty_rows,
    "instances without a true label: 'zero' (value 0, counted) or 'skip' (left out)",
)
NORMALIZATION = Param(
    "normalization",
    "ideal",
    _normalization,
    "DCG divided by the ideal DCG, min(k, |y|) discounts ('ideal') or k discounts ('k')",
)
PROPENSITY = Param(
    "propensity",
    check=_X._check_propensity,
    help="label propensities p_l in (0, 1], e.g. jain_propensity(Y_train)",
)
NORMALIZE = Param(
    "normalize",
    True,
    _normalize,
    "divide by the best achievable value (pyxclib's, the XC repository's) or not (the paper's)",
)


class _PSDecomposition:
    """Propensity-scored measure: a ratio of two sums (normalised) or a mean."""

    def __init__(self, measure: str) -> None:
        self.measure = measure
        self.__name__ = f"{measure}_decomposition"

    def __call__(
        self,
        Y: Any,
        F: Any,
        *,
        k: int,
        propensity: Any,
        normalize: bool,
        empty_rows: str,
        normalization: str = "ideal",
    ) -> Decomposition:
        value, best, n_pos = _X._ps_values(Y, F, k, propensity, self.measure, normalization)
        if not normalize:
            return mean_decomposition(
                np.where(n_pos > 0, value, np.nan) if empty_rows == "skip" else value
            )
        # an instance without a true label adds 0 to both sums: empty_rows is moot
        return Decomposition(np.column_stack([value, best]), _ps_ratio)


def _ps_ratio(S: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        return S[:, 0] / S[:, 1]


_XMC = "Jain, Prabhu & Varma (2016) Sec. 3; pyxclib xc_metrics"
_AT_K: list[tuple[str, Callable[..., Any], tuple[Param, ...], str]] = [
    (
        "precision_at_k",
        _X.precision_at_k,
        (K_CUT, EMPTY_ROWS),
        "fraction of the k top-ranked labels that are relevant",
    ),
    (
        "recall_at_k",
        _X.recall_at_k,
        (K_CUT, EMPTY_ROWS),
        "fraction of an instance's relevant labels ranked in its top k",
    ),
    (
        "ndcg_at_k",
        _X.ndcg_at_k,
        (K_CUT, NORMALIZATION, EMPTY_ROWS),
        "discounted cumulative gain of the top k over that of a perfect ranking",
    ),
]
for _name, _fn, _params, _what in _AT_K:
    _add(
        _name,
        _fn,
        "at_k",
        "scores",
        True,
        params=_params,
        per_instance=_per(_name, _fn),
        convention="extreme",
        equals="sklearn.metrics.ndcg_score(k=k)" if _name == "ndcg_at_k" else "",
        description=_what + "; ties at the cut-off averaged",
        reference=_XMC,
        label=_at_k_label(_name),
    )
_PS_AT_K: list[tuple[str, Callable[..., Any], tuple[Param, ...], str]] = [
    (
        "psprecision_at_k",
        _X.psprecision_at_k,
        (K_CUT, PROPENSITY, NORMALIZE, EMPTY_ROWS),
        "precision at k with each hit weighted by 1/p_l",
    ),
    (
        "psndcg_at_k",
        _X.psndcg_at_k,
        (K_CUT, PROPENSITY, NORMALIZE, NORMALIZATION, EMPTY_ROWS),
        "nDCG at k with each hit weighted by 1/p_l",
    ),
]
for _name, _fn, _params, _what in _PS_AT_K:
    _add(
        _name,
        _fn,
        "at_k",
        "scores",
        True,
        params=_params,
        decompose=_PSDecomposition("psp" if _name == "psprecision_at_k" else "psndcg"),
        convention="extreme",
        description=_what + " (normalised: over the best achievable)",
        reference=_XMC,
        label=_at_k_label(_name),
    )
_add(
    "coverage_at_k",
    _X.coverage_at_k,
    "at_k",
    "scores",
    True,
    params=(K_CUT,),
    convention="extreme",
    no_interval="coverage@k counts the labels covered by any instance: a resample repeats "
    "instances and covers fewer labels, so bootstrap intervals are biased below the value",
    description="fraction of the labels relevant somewhere that some instance ranks in its "
    "top k while relevant",
    reference="napkinXC metrics.coverage_at_k",
    label=_at_k_label("coverage_at_k"),
)

# ====================================================================== losses
for _name, _fn, _param in (
    ("binomial_loss", _L.binomial_loss, Param("k", check=_k, help="subset size k in 1..K")),
    (
        "polynomial_loss",
        _L.polynomial_loss,
        Param("alpha", check=_alpha, help="exponent alpha >= 1 (inf: subset 0/1 loss)"),
    ),
    ("owa_loss", _L.owa_loss, Param("w", help="K OWA weights")),
    ("choquet_loss", _L.choquet_loss, Param("mu", help="capacity on the 2^K label subsets")),
    ("covering_loss", _L.covering_loss, Param("covering", help="a covering of the labels")),
):
    _add(
        _name,
        _call(_name, _fn, _param.name),
        "loss",
        "predictions",
        False,
        params=(_param, SCORES),
        per_instance=_per(_name, _fn, _param.name),
        convention="hullermeier",
        soft=True,
        description={
            "binomial_loss": "fraction of label k-subsets not predicted entirely right (eq. 18)",
            "polynomial_loss": "counting-measure loss v(x) = x^alpha of the error "
            "fraction (eq. 17)",
            "owa_loss": "ordered weighted average of the absolute errors (eqs. 15-16)",
            "choquet_loss": "Choquet integral of the absolute errors (eq. 9)",
            "covering_loss": "Choquet loss of a covering of the labels",
        }[_name],
        reference="Hüllermeier et al. (2022)",
    )

# ====================================================================== groups, old names
#: Wu & Zhou's Table 1 (``mlcbook.metrics.all_measures``): their key -> registered name.
register_group(
    "wu_zhou",
    {
        key: {"average_precision": "label_ranking_average_precision"}.get(key, key)
        for key in _M.WU_ZHOU_MEASURES
    },
)
_SK_NAME = {"f_measure": "f1_micro", "jaccard_score": "jaccard_samples"}
for _old, _new in (
    ("precision_instance", "instance_precision"),
    ("recall_instance", "instance_recall"),
    ("f1_instance", "instance_f1"),
    ("jaccard_score", "instance_jaccard"),
    ("f_measure", "micro_f1"),
    ("auc_macro", "macro_auc"),
    ("auc_micro", "micro_auc"),
    ("auc_instance", "instance_auc"),
):
    _sk = _SK_NAME.get(_old, _old.replace("instance", "samples"))
    _deprecated(
        _old,
        _new,
        why=f"the book's convention, zero_division=1; scikit-learn's is {_sk}"
        if not _old.startswith("auc")
        else "undefined cases left out; scikit-learn's roc_auc is the macro average",
    )
del _avg, _what, _fn, _name, _which, _param, _params, _old, _new, _sk
