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

from . import _auc as _A
from . import _classification as _C
from . import _ranking as _RK
from . import _sklearn_measures as _SK
from . import extreme as _X
from . import losses as _L
from ._measure_kit import (
    BETA,
    CONVENTION,
    EMPTY_ROWS,
    K_CUT,
    NORMALIZATION,
    NORMALIZE,
    PROPENSITY,
    SCORES,
    ZD_BOOK,
    ZD_SKLEARN,
    CountsDecomposition,
    PSDecomposition,
    at_k_label,
    call,
    check_alpha,
    check_k_param,
    example_f_decomposition,
    f_label,
    per,
)
from ._measure_spec import (
    MeasureSpec,
    Param,
    deprecate,
    register,
    register_group,
)

__all__: list[str] = []


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
        function = call(name, function)
    kw.setdefault("title", _TITLES.get(name, ""))
    return register(MeasureSpec(name, function, kind, inputs, greater_is_better, **kw))


#: how the book's tables and figures name the eleven measures of Wu & Zhou's Table 1 (its
#: words: the label-ranking average precision is its "average precision")
_TITLES = {
    "hamming_loss": "Hamming loss",
    "ranking_loss": "ranking loss",
    "one_error": "one-error",
    "coverage": "coverage",
    "label_ranking_average_precision": "average precision",
    "macro_f1": "macro-F1",
    "instance_f1": "instance-F1",
    "micro_f1": "micro-F1",
    "macro_auc": "macro-AUC",
    "instance_auc": "instance-AUC",
    "micro_auc": "micro-AUC",
}


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
    _C.hamming_loss,
    "classification",
    "predictions",
    False,
    per_instance=per("hamming_loss", _C.hamming_loss),
    convention="scikit-learn",
    equals="sklearn.metrics.hamming_loss",
    description="fraction of wrongly predicted (instance, label) pairs",
    reference="Zhang & Zhou (2014) Sec. 2.2.2; Wu & Zhou (2017) Table 1",
    in_report=True,
)
_add(
    "subset_accuracy",
    _C.subset_accuracy,
    "classification",
    "predictions",
    True,
    per_instance=per("subset_accuracy", _C.subset_accuracy),
    convention="zhang_zhou",
    equals="sklearn.metrics.accuracy_score",
    description="fraction of instances whose predicted set equals the true set (exact match)",
    reference="Zhang & Zhou (2014) Sec. 2.2.2",
    in_report=True,
)
_add(
    "accuracy",
    _C.subset_accuracy,
    "classification",
    "predictions",
    True,
    per_instance=per("accuracy", _C.subset_accuracy),
    convention="scikit-learn",
    equals="sklearn.metrics.accuracy_score",
    sklearn_scorer=True,
    description="scikit-learn's name of subset accuracy (exact match) on label matrices",
)
_add(
    "subset_zero_one_loss",
    _C.subset_zero_one_loss,
    "classification",
    "predictions",
    False,
    per_instance=per("subset_zero_one_loss", _C.subset_zero_one_loss),
    convention="zhang_zhou",
    equals="sklearn.metrics.zero_one_loss",
    description="1 - subset accuracy",
    in_report=True,
)
_add(
    "instance_jaccard",
    _C.instance_jaccard,
    "classification",
    "predictions",
    True,
    params=(ZD_BOOK,),
    per_instance=per("instance_jaccard", _C.instance_jaccard),
    convention="mlcbook",
    equals="sklearn.metrics.jaccard_score(average='samples', zero_division=1)",
    description="Jaccard index |y & p| / |y | p| averaged over instances (0/0 = 1)",
    reference="Zhang & Zhou (2014) Accuracy_exam; Park & Read (2018) Eq. 3",
    in_report=True,
)
for _avg in ("micro", "macro", "instance"):
    for _what, _fn in (("precision", _C.precision), ("recall", _C.recall)):
        _name = f"{_avg}_{_what}"
        _add(
            _name,
            call(_name, _fn, average=_avg),
            "classification",
            "predictions",
            True,
            params=(ZD_BOOK,),
            per_instance=per(_name, _fn, average=_avg) if _avg == "instance" else None,
            decompose=CountsDecomposition(_what, _avg) if _avg != "instance" else None,
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
        call(_name, _C.f_measure, average=_avg),
        "classification",
        "predictions",
        True,
        params=(BETA, ZD_BOOK),
        per_instance=per(_name, _C.f_measure, average=_avg) if _avg == "instance" else None,
        decompose=CountsDecomposition("f", _avg) if _avg != "instance" else None,
        convention="mlcbook",
        equals="sklearn.metrics.fbeta_score(average="
        f"'{'samples' if _avg == 'instance' else _avg}', zero_division=1)",
        description=f"F-beta {_AVG_TEXT[_avg]} (0/0 = 1)",
        reference="Wu & Zhou (2017) Table 1 (beta = 1)",
        in_report=True,
        label=f_label(_name),
    )
_add(
    "example_based_f1",
    _C.example_based_f_measure,
    "classification",
    "predictions",
    True,
    params=(BETA, ZD_BOOK),
    decompose=example_f_decomposition,
    convention="zhang_zhou",
    description="F-beta of the instance-averaged precision and recall",
    reference="Zhang & Zhou (2014) Sec. 2.2.2, F^beta_exam",
    in_report=True,
    label=f_label("example_based_f1"),
)

# scikit-learn's names: its defaults (zero_division="warn"), its averages
for _what in ("precision", "recall", "f1", "jaccard"):
    for _avg in _SK_AVERAGES:
        _name = f"{_what}_{_avg}"
        _which = {"f1": "f"}.get(_what, _what)
        _add(
            _name,
            call(_name, _SK.jaccard, average=_avg)
            if _what == "jaccard"
            else call(_name, _SK.prf, which=_which, average=_avg),
            "classification",
            "predictions",
            True,
            params=(ZD_SKLEARN,),
            per_instance=(
                call(f"{_name}_per_instance", _SK.samples_values, which=_which)
                if _avg == "samples"
                else None
            ),
            decompose=(CountsDecomposition(_which, _avg) if _avg != "samples" else None),
            convention="scikit-learn",
            equals=f"sklearn.metrics.{'fbeta' if _what == 'f1' else _what}_score("
            f"average='{_avg}')" + (" with beta=1" if _what == "f1" else ""),
            sklearn_scorer=True,
            description=f"{_WHAT[_what]} {_AVG_TEXT[_avg]} (0/0 = 0 with a warning)",
        )

# ====================================================================== ranking
_add(
    "ranking_loss",
    _RK.ranking_loss,
    "ranking",
    "scores",
    False,
    params=(CONVENTION,),
    per_instance=per("ranking_loss", _RK.ranking_loss),
    convention="mlcbook",
    equals="sklearn.metrics.label_ranking_loss",
    description="fraction of (relevant, irrelevant) label pairs ordered wrongly",
    reference="Wu & Zhou (2017) Table 1",
    in_report=True,
)
_add(
    "one_error",
    _RK.one_error,
    "ranking",
    "scores",
    False,
    per_instance=per("one_error", _RK.one_error),
    convention="wu_zhou",
    description="fraction of instances whose top-scored label is irrelevant",
    reference="Wu & Zhou (2017) Table 1",
    in_report=True,
)
_add(
    "coverage",
    _RK.coverage,
    "ranking",
    "scores",
    False,
    params=(CONVENTION,),
    per_instance=per("coverage", _RK.coverage),
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
    per_instance=call("coverage_error_per_instance", _SK.coverage_error_values),
    convention="scikit-learn",
    equals="sklearn.metrics.coverage_error",
    description="number of top-ranked labels needed to cover every relevant label",
)
_add(
    "label_ranking_average_precision",
    _RK.label_ranking_average_precision,
    "ranking",
    "scores",
    True,
    params=(CONVENTION,),
    per_instance=per("label_ranking_average_precision", _RK.label_ranking_average_precision),
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
        call(_name, _A.auc, average=_avg),
        "ranking",
        "scores",
        True,
        params=(CONVENTION,),
        per_instance=per(_name, _A.auc, average=_avg) if _avg == "instance" else None,
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
        per_instance=per(_name, _fn),
        convention="extreme",
        equals="sklearn.metrics.ndcg_score(k=k)" if _name == "ndcg_at_k" else "",
        description=_what + "; ties at the cut-off averaged",
        reference=_XMC,
        label=at_k_label(_name),
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
        decompose=PSDecomposition("psp" if _name == "psprecision_at_k" else "psndcg"),
        convention="extreme",
        description=_what + " (normalised: over the best achievable)",
        reference=_XMC,
        label=at_k_label(_name),
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
    label=at_k_label("coverage_at_k"),
)

# ====================================================================== losses
for _name, _fn, _param in (
    (
        "binomial_loss",
        _L.binomial_loss,
        Param("k", check=check_k_param, help="subset size k in 1..K"),
    ),
    (
        "polynomial_loss",
        _L.polynomial_loss,
        Param("alpha", check=check_alpha, help="exponent alpha >= 1 (inf: subset 0/1 loss)"),
    ),
    ("owa_loss", _L.owa_loss, Param("w", help="K OWA weights")),
    ("choquet_loss", _L.choquet_loss, Param("mu", help="capacity on the 2^K label subsets")),
    ("covering_loss", _L.covering_loss, Param("covering", help="a covering of the labels")),
):
    _add(
        _name,
        call(_name, _fn, _param.name),
        "loss",
        "predictions",
        False,
        params=(_param, SCORES),
        per_instance=per(_name, _fn, _param.name),
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
#: Wu & Zhou's Table 1 in its order (the keys of ``mlcbook.metrics.all_measures``)
register_group(
    "wu_zhou",
    (
        "hamming_loss",
        "ranking_loss",
        "one_error",
        "coverage",
        "label_ranking_average_precision",
        "macro_f1",
        "instance_f1",
        "micro_f1",
        "macro_auc",
        "instance_auc",
        "micro_auc",
    ),
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
    deprecate(
        _old,
        _new,
        why=f"the book's convention, zero_division=1; scikit-learn's is {_sk}"
        if not _old.startswith("auc")
        else "undefined cases left out; scikit-learn's roc_auc is the macro average",
    )
del _avg, _what, _fn, _name, _which, _param, _params, _old, _new, _sk
