"""Every measure of the registry (:mod:`mlcbook.registry`) as a scikit-learn scorer.

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

* **Names keep their meaning.**  A scikit-learn scorer name (``f1_macro``,
  ``f1_samples``, ``precision_weighted``, ``jaccard_samples``, ``accuracy``,
  ``roc_auc``, ``average_precision``) gives scikit-learn's value, defaults included
  (``zero_division="warn"``: 0 and a warning); the book's measures have names of their
  own (``macro_f1`` with ``zero_division=1``, ``label_ranking_average_precision``, ...).
  The table of every name is in the documentation of :mod:`mlcbook.registry`.
* **Losses are negated.**  A measure where smaller is better (``hamming_loss``,
  ``ranking_loss``, ``binomial_loss``, ...; :data:`LOSSES`) is made with
  ``greater_is_better=False``, so the scorer returns *minus* the loss and
  larger is always better (``cross_validate`` reports ``-0.12`` for a Hamming
  loss of 0.12).  scikit-learn's spelling ``neg_<name>`` (``neg_hamming_loss``,
  ``neg_coverage_error``) names the same scorer.
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

Every name of :func:`scorer_names` (every registered measure) is usable with
:func:`get_scorer`; extra keyword arguments are the measure's parameters, checked when the
scorer is made (``beta=2``, ``zero_division=0``, ``k=3``, ...).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from sklearn.metrics import make_scorer

from . import registry as _R
from ._validation import check_real, check_score_matrix

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

#: The built-in names whose scorer returns minus the measure (smaller is better).
LOSSES: frozenset[str] = frozenset(s.name for s in _R.measure_specs() if not s.greater_is_better)
#: The built-in names computed from scores (``decision_function`` or ``predict_proba``).
SCORE_BASED: frozenset[str] = frozenset(_R.measure_names(inputs="scores"))
_UNSET = object()


class _Binarised:
    """A measure of 0/1 predictions applied to scores binarised as ``s > threshold``
    (picklable; ``__name__`` is what scikit-learn's scorer shows)."""

    def __init__(self, name: str, fn: Callable[..., Any], threshold: float) -> None:
        self.__name__ = f"{name}[s > {threshold:g}]"
        self.fn, self.threshold = fn, threshold

    def __call__(self, Y: Any, S: Any, **kw: Any) -> Any:
        P = (check_score_matrix(S, "scores") > self.threshold).astype(np.int8)
        return self.fn(Y, P, **kw)

    def __repr__(self) -> str:
        return self.__name__


def scorer_names() -> list[str]:
    """Every name :func:`get_scorer` knows (the registered measures), sorted.

    scikit-learn's spelling ``neg_<name>`` of a measure where smaller is better is
    accepted too; deprecated names are accepted with a ``FutureWarning``.
    """
    return sorted(_R.measure_names())


def _spec_of(name: Any) -> tuple[_R.MeasureSpec, dict[str, Any]]:
    """The measure of a scorer name (``neg_<loss>`` is scikit-learn's name of a loss)."""
    if not isinstance(name, str):
        raise TypeError(f"name must be a scorer name (str), got {type(name).__name__}")
    if name.startswith("neg_") and name[4:] in _R.measure_names():
        spec = _R.get_measure(name[4:])
        if spec.greater_is_better:
            raise ValueError(
                f"{name!r}: {spec.name} is not a loss (greater is better), so it has no "
                f"negated scorer; use {spec.name!r}"
            )
        return spec, {}
    try:
        return _R.resolve(name)
    except ValueError:
        raise ValueError(f"unknown scorer {name!r}; known: {', '.join(scorer_names())}") from None


def get_scorer(
    name: str,
    *,
    response_method: str | None = None,
    threshold: Any = _UNSET,
    **params: Any,
):
    """A scikit-learn scorer for one registered measure.

    Parameters
    ----------
    name : str
        One of :func:`scorer_names`, e.g. ``"hamming_loss"``, ``"f1_macro"`` (scikit-
        learn's), ``"macro_f1"`` (the book's), ``"ranking_loss"``, ``"roc_auc"``,
        ``"binomial_loss"``; or ``"neg_<name>"`` of a loss.
    response_method : {"predict", "predict_proba", "decision_function"}, optional
        What to ask the estimator for.  Default: ``predict`` for measures of
        predictions; ``decision_function`` (falling back to ``predict_proba``) for
        measures of scores.  A score method for a measure of predictions binarises the
        scores at ``threshold``.
    threshold : float or None, optional
        Scores above it count as predicted labels.  Default
        :data:`DEFAULT_THRESHOLDS` of the response method (0.5 for
        probabilities, 0 for decision scores).  ``None`` with a dependence-aware
        loss passes the scores unbinarised (its soft form).
    **params
        The measure's parameters (:attr:`mlcbook.registry.MeasureSpec.params`):
        ``beta``, ``zero_division``, ``convention``, ``k`` / ``alpha`` / ``w`` / ``mu`` /
        ``covering`` for the losses.  Checked here, before any fitting.

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
    spec, fixed = _spec_of(name)
    params = {**fixed, **params}
    spec.check_params(params, fill=False)  # unknown, missing or impossible: refused now
    fn, better = spec.function, spec.greater_is_better
    if spec.inputs == "scores":
        method: Any = response_method if response_method is not None else _SCORE_METHODS
        if method not in _SCORE_METHODS and method != _SCORE_METHODS:
            raise ValueError(
                f"{name} is computed from scores: response_method must be "
                f"one of {_SCORE_METHODS}, got {response_method!r}"
            )
        if threshold is not _UNSET:
            raise ValueError(f"{name} ranks the scores; it takes no threshold")
        return make_scorer(fn, greater_is_better=better, response_method=method, **params)
    method = "predict" if response_method is None else response_method
    if method == "predict":
        if threshold is not _UNSET:
            raise ValueError(
                "threshold needs response_method='predict_proba' or "
                "'decision_function' (predict already gives 0/1 labels)"
            )
        return make_scorer(fn, greater_is_better=better, response_method="predict", **params)
    if method not in _SCORE_METHODS:
        raise ValueError(
            "response_method must be 'predict', 'predict_proba' or "
            f"'decision_function', got {response_method!r}"
        )
    t = DEFAULT_THRESHOLDS[method] if threshold is _UNSET else threshold
    if t is None:
        if not spec.soft:
            raise ValueError(f"{name} needs binary predictions: give a numeric threshold")
        if method == "decision_function":
            params["scores"] = "decision"
        return make_scorer(fn, greater_is_better=better, response_method=method, **params)
    t = check_real(t, "threshold")
    return make_scorer(
        _Binarised(spec.name, fn, t), greater_is_better=better, response_method=method, **params
    )


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
