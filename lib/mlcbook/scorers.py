"""Every measure of :mod:`mlcbook.metrics` and every loss of :mod:`mlcbook.losses`
as a scikit-learn scorer.

A scorer is the object :func:`sklearn.metrics.make_scorer` returns: call it as
``scorer(estimator, X, Y)`` or pass it to
:func:`~sklearn.model_selection.cross_validate` and
:class:`~sklearn.model_selection.GridSearchCV`::

    from sklearn.model_selection import cross_validate
    from mlcbook.scorers import get_scorer, scoring

    cross_validate(model, X, Y, scoring=scoring("hamming_loss", "f1_macro",
                                                "ranking_loss"))
    cross_validate(model, X, Y, scoring={"B2": get_scorer("binomial_loss", k=2)})

Conventions (scikit-learn's):

* **Losses are negated.**  A loss (``hamming_loss``, ``ranking_loss``,
  ``binomial_loss``, ...; :data:`LOSSES`) is made with
  ``greater_is_better=False``, so the scorer returns *minus* the loss and
  larger is always better (``cross_validate`` reports ``-0.12`` for a Hamming
  loss of 0.12).
* **What the estimator is asked for.**  Prediction-based measures call
  ``predict`` (0/1 matrix); ranking measures and AUCs
  (:data:`SCORE_BASED`) call ``decision_function`` if the estimator has it,
  else ``predict_proba`` (an ``(n_samples, n_labels)`` matrix of scores).
* **Scores where binary predictions are needed.**  Any prediction-based
  measure can be computed from scores instead of ``predict`` with
  ``get_scorer(name, response_method="predict_proba")`` (threshold 0.5) or
  ``response_method="decision_function"`` (threshold 0): the scores are
  binarised as ``[s > threshold]`` (strictly above, like the estimators'
  ``predict``); ``threshold=`` overrides the default.  The dependence-aware
  losses can also take the scores themselves (their soft form, scores in
  [0, 1]): ``get_scorer("polynomial_loss", alpha=2,
  response_method="predict_proba", threshold=None)``; decision scores are then
  mapped by the logistic function (``scores="decision"`` of
  :mod:`mlcbook.losses`).
* **Instance weights.**  ``sample_weight`` given to the scorer (or routed to
  it by scikit-learn) reaches the measure.

Every name of :func:`scorer_names` is usable with :func:`get_scorer`; extra
keyword arguments are passed to the measure (``beta=2``, ``zero_division=0``,
``k=3``, ...).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import numpy as np
from sklearn.metrics import make_scorer

from . import losses as _L
from . import metrics as _M
from ._validation import check_positive_int, check_real, check_score_matrix

__all__ = [
    "get_scorer",
    "scoring",
    "scorer_names",
    "LOSSES",
    "SCORE_BASED",
    "DEFAULT_THRESHOLDS",
]

#: Threshold that turns each kind of score into a 0/1 prediction (``s > t``).
DEFAULT_THRESHOLDS: dict[str, float] = {"predict_proba": 0.5, "decision_function": 0.0}

_SCORE_METHODS = ("decision_function", "predict_proba")


class _Measure:
    """A measure with some arguments fixed: a picklable stand-in for a closure.

    ``fn(Y, S, *args, **fixed, **kw)``; with ``threshold`` the scores ``S`` are first
    binarised as ``S > threshold``.  ``__name__`` is what scikit-learn's scorer shows.
    """

    def __init__(
        self,
        name: str,
        fn: Callable,
        args: tuple = (),
        fixed: dict[str, Any] | None = None,
        threshold: float | None = None,
    ) -> None:
        self.__name__ = name
        self.fn, self.args, self.fixed, self.threshold = fn, args, dict(fixed or {}), threshold

    def __call__(self, Y: Any, S: Any, **kw: Any) -> Any:
        if self.threshold is not None:
            S = (check_score_matrix(S, "scores") > self.threshold).astype(np.int8)
        return self.fn(Y, S, *self.args, **self.fixed, **kw)

    def __repr__(self) -> str:
        return self.__name__


# name -> (function(Y, P_or_F, **kw), is a loss, score-based, required parameters)
_TABLE: dict[str, tuple[Callable, bool, bool, tuple[str, ...]]] = {
    "hamming_loss": (_M.hamming_loss, True, False, ()),
    "subset_accuracy": (_M.subset_accuracy, False, False, ()),
    "subset_zero_one_loss": (_M.subset_zero_one_loss, True, False, ()),
    "jaccard_score": (_M.jaccard_score, False, False, ()),
    "example_based_f1": (_M.example_based_f_measure, False, False, ()),
    "f_measure": (_M.f_measure, False, False, ()),
    "ranking_loss": (_M.ranking_loss, True, True, ()),
    "one_error": (_M.one_error, True, True, ()),
    "coverage": (_M.coverage, True, True, ()),
    "average_precision": (_M.average_precision, False, True, ()),
    "binomial_loss": (_L.binomial_loss, True, False, ("k",)),
    "polynomial_loss": (_L.polynomial_loss, True, False, ("alpha",)),
    "owa_loss": (_L.owa_loss, True, False, ("w",)),
    "choquet_loss": (_L.choquet_loss, True, False, ("mu",)),
    "covering_loss": (_L.covering_loss, True, False, ("covering",)),
}
for _avg in ("micro", "macro", "instance"):
    _TABLE[f"precision_{_avg}"] = (
        _Measure(f"precision_{_avg}", _M.precision, fixed={"average": _avg}),
        False,
        False,
        (),
    )
    _TABLE[f"recall_{_avg}"] = (
        _Measure(f"recall_{_avg}", _M.recall, fixed={"average": _avg}),
        False,
        False,
        (),
    )
    _TABLE[f"f1_{_avg}"] = (
        _Measure(f"f_measure_{_avg}", _M.f_measure, fixed={"average": _avg}),
        False,
        False,
        (),
    )
for _avg in ("macro", "micro", "instance"):
    _TABLE[f"auc_{_avg}"] = (
        _Measure(f"auc_{_avg}", _M.auc, fixed={"average": _avg}),
        False,
        True,
        (),
    )
del _avg

#: Names whose scorer returns minus the measure (smaller is better for the measure).
LOSSES: frozenset[str] = frozenset(k for k, v in _TABLE.items() if v[1])
#: Names computed from scores (``decision_function`` or ``predict_proba``).
SCORE_BASED: frozenset[str] = frozenset(k for k, v in _TABLE.items() if v[2])
#: The dependence-aware losses of :mod:`mlcbook.losses` (they accept soft scores).
_SOFT_LOSSES = frozenset(
    {"binomial_loss", "polynomial_loss", "owa_loss", "choquet_loss", "covering_loss"}
)
_UNSET = object()


def scorer_names() -> list[str]:
    """Every name :func:`get_scorer` knows, sorted."""
    return sorted(_TABLE)


def _positional(name: str, fn: Callable, params: dict) -> Callable:
    """The losses take their parameter positionally (``binomial_loss(Y, S, k)``)."""
    required = _TABLE[name][3]
    missing = [p for p in required if p not in params]
    if missing:
        raise TypeError(
            f"scorer {name!r} needs the parameter {missing[0]}= "
            f"(e.g. get_scorer({name!r}, {missing[0]}=...))"
        )
    if not required:
        return fn
    return _Measure(name, fn, (params.pop(required[0]),))


def _base_function(fn: Callable) -> Callable:
    return fn.fn if isinstance(fn, _Measure) else fn


#: Checks of the parameters whose valid values do not depend on the data.
_PARAM_CHECKS: dict[str, Callable[[Any], Any]] = {
    "beta": lambda v: check_real(v, "beta", low=0.0, low_inclusive=False),
    "zero_division": lambda v: _M._check_zero_division(v),
    "k": lambda v: check_positive_int(v, "k", low=1),
    "alpha": lambda v: v if v == float("inf") else check_real(v, "alpha", low=1.0),
}


def _check_params(name: str, fn: Callable, params: dict[str, Any]) -> None:
    """Refuse, when the scorer is made, a keyword the measure does not take and a value
    that no data make valid (``k=0``, ``alpha=0.5``, ``beta=-1``, ``zero_division=2``):
    otherwise every fold of a grid search fails and scores NaN."""
    base = _base_function(fn)
    accepted = set(inspect.signature(base).parameters) - {
        "Y",
        "P",
        "S",
        "F",
        "per_instance",  # a scorer returns one number
        "sample_weight",  # given at scoring time (routed by scikit-learn)
    }
    if isinstance(fn, _Measure):
        accepted -= set(fn.fixed)
    for key, value in params.items():
        if key not in accepted:
            raise TypeError(
                f"scorer {name!r} takes no parameter {key!r}; it takes "
                f"{', '.join(sorted(accepted)) or 'none'}"
            )
        if key in _PARAM_CHECKS:
            _PARAM_CHECKS[key](value)


def get_scorer(
    name: str,
    *,
    response_method: str | None = None,
    threshold: Any = _UNSET,
    **params: Any,
):
    """A scikit-learn scorer for one mlcbook measure or loss.

    Parameters
    ----------
    name : str
        One of :func:`scorer_names`, e.g. ``"hamming_loss"``, ``"f1_macro"``,
        ``"ranking_loss"``, ``"auc_instance"``, ``"binomial_loss"``.
    response_method : {"predict", "predict_proba", "decision_function"}, optional
        What to ask the estimator for.  Default: ``predict`` for
        prediction-based measures; ``decision_function`` (falling back to
        ``predict_proba``) for ranking measures and AUCs.  A score method for
        a prediction-based measure binarises the scores at ``threshold``.
    threshold : float or None, optional
        Scores above it count as predicted labels.  Default
        :data:`DEFAULT_THRESHOLDS` of the response method (0.5 for
        probabilities, 0 for decision scores).  ``None`` with a dependence-aware
        loss passes the scores unbinarised (its soft form).
    **params
        Passed to the measure: ``beta``, ``zero_division``, ``average`` (for
        ``"f_measure"``), ``k`` / ``alpha`` / ``w`` / ``mu`` / ``covering`` for
        the losses.

    Returns
    -------
    scorer
        The object of :func:`sklearn.metrics.make_scorer`; a loss scorer
        returns minus the loss.

    Examples
    --------
    >>> from mlcbook.scorers import get_scorer
    >>> get_scorer("hamming_loss")
    make_scorer(hamming_loss, greater_is_better=False, response_method='predict')
    """
    if not isinstance(name, str):
        raise TypeError(f"name must be a scorer name (str), got {type(name).__name__}")
    if name not in _TABLE:
        raise ValueError(f"unknown scorer {name!r}; known: {', '.join(scorer_names())}")
    fn, is_loss, score_based, required = _TABLE[name]
    for p in required:  # the loss's own parameter, checked like the keywords
        if p in params and p in _PARAM_CHECKS:
            _PARAM_CHECKS[p](params[p])
    fn = _positional(name, fn, params)
    _check_params(name, fn, {k: v for k, v in params.items() if k != "scores"})
    if score_based:
        method = response_method if response_method is not None else _SCORE_METHODS
        if method not in _SCORE_METHODS and method != _SCORE_METHODS:
            raise ValueError(
                f"{name} is computed from scores: response_method must be "
                f"one of {_SCORE_METHODS}, got {response_method!r}"
            )
        if threshold is not _UNSET:
            raise ValueError(f"{name} ranks the scores; it takes no threshold")
        return make_scorer(fn, greater_is_better=not is_loss, response_method=method, **params)
    method = "predict" if response_method is None else response_method
    if method == "predict":
        if threshold is not _UNSET:
            raise ValueError(
                "threshold needs response_method='predict_proba' or "
                "'decision_function' (predict already gives 0/1 labels)"
            )
        return make_scorer(fn, greater_is_better=not is_loss, response_method="predict", **params)
    if method not in _SCORE_METHODS:
        raise ValueError(
            "response_method must be 'predict', 'predict_proba' or "
            f"'decision_function', got {response_method!r}"
        )
    t = DEFAULT_THRESHOLDS[method] if threshold is _UNSET else threshold
    if t is None:
        if name not in _SOFT_LOSSES:
            raise ValueError(f"{name} needs binary predictions: give a numeric threshold")
        if method == "decision_function":
            params["scores"] = "decision"
        return make_scorer(fn, greater_is_better=not is_loss, response_method=method, **params)
    t = check_real(t, "threshold")
    measure = _binarised(fn, t, name)
    return make_scorer(measure, greater_is_better=not is_loss, response_method=method, **params)


def _binarised(fn: Callable, t: float, name: str) -> Callable:
    if isinstance(fn, _Measure):
        return _Measure(f"{name}[s > {t:g}]", fn.fn, fn.args, fn.fixed, threshold=t)
    return _Measure(f"{name}[s > {t:g}]", fn, threshold=t)


def scoring(*names: str) -> dict[str, Any]:
    """``{name: get_scorer(name)}`` for the ``scoring=`` argument of scikit-learn.

    Examples
    --------
    >>> sorted(scoring("hamming_loss", "f1_micro"))
    ['f1_micro', 'hamming_loss']
    """
    if not names:
        raise ValueError("scoring needs at least one scorer name")
    return {n: get_scorer(n) for n in names}
