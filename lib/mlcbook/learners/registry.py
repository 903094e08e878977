"""Registry of the learner configurations of Hüllermeier et al. (2022, Sec. 5.2).

Every entry builds a fresh, seeded scikit-learn estimator whose ``predict``
returns a 0/1 matrix of shape ``(n_samples, n_labels)``.  As in the paper, the
reductions use decision trees as base learners (the paper used MEKA's J48; we
use scikit-learn's CART :class:`~sklearn.tree.DecisionTreeClassifier` with its
defaults).

========  ==============================================================
BR        :class:`~sklearn.multioutput.MultiOutputClassifier` (one tree per label)
CC        :class:`~sklearn.multioutput.ClassifierChain`, random label order
LP        :class:`mlcbook.learners.LabelPowerset`
RAkEL-k{k}-m{m}  :class:`mlcbook.learners.RAkEL` (labelset size k, m members; m2K: 2K)
PCT       the authors' CLUS (``Clus.jar``) at its defaults: one predictive
          clustering tree, C4.5-pruned (:class:`mlcbook.learners.ClusPCT`)
EPCT      CLUS ``-forest``: bagging of 10 unpruned PCTs (``ClusPCT(ensemble=True)``)
BOOMER-1  ``mlrl-boomer`` at the 2021 defaults, label-wise logistic loss
BOOMER-K  ``mlrl-boomer`` at the 2021 defaults, example-wise logistic loss
          (:mod:`mlcbook.learners.boomer` documents every default that differs)
========  ==============================================================
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from sklearn.multioutput import ClassifierChain, MultiOutputClassifier
from sklearn.tree import DecisionTreeClassifier

from .boomer import make_boomer
from .clus import ClusPCT
from .reductions import LabelPowerset, RAkEL

__all__ = ["LEARNERS", "RAKEL_SETTINGS", "BOOMER_OPTIONS", "learner_names", "make_learner", "learner_config"]

#: (k, m) of the RAkEL variants; m=None is 2K members (Tsoumakas and Vlahavas 2007),
#: m=10 is MEKA's default.
RAKEL_SETTINGS: tuple[tuple[int, int | None], ...] = ((2, 10), (5, 10), (2, None), (5, None))

#: Options passed to both BOOMER variants beyond the paper's 2021 configuration
#: (:data:`mlcbook.learners.boomer.BOOMER_2021`): none.
BOOMER_OPTIONS: dict[str, Any] = {}


def _tree(random_state: int) -> DecisionTreeClassifier:
    return DecisionTreeClassifier(random_state=random_state)


def _rakel(k: int, m: int) -> Callable[[int], Any]:
    return lambda random_state: RAkEL(k=k, m=m, estimator=_tree(random_state), random_state=random_state)


LEARNERS: dict[str, Callable[[int], Any]] = {
    "BR": lambda rs: MultiOutputClassifier(_tree(rs)),
    "CC": lambda rs: ClassifierChain(_tree(rs), order="random", random_state=rs),
    "LP": lambda rs: LabelPowerset(_tree(rs)),
    **{f"RAkEL-k{k}-m{'2K' if m is None else m}": _rakel(k, m) for k, m in RAKEL_SETTINGS},
    "PCT": lambda rs: ClusPCT(ensemble=False, random_seed=rs),
    "EPCT": lambda rs: ClusPCT(ensemble=True, random_seed=rs),
    "BOOMER-1": lambda rs: make_boomer("BOOMER-1", rs, **BOOMER_OPTIONS),
    "BOOMER-K": lambda rs: make_boomer("BOOMER-K", rs, **BOOMER_OPTIONS),
}


def learner_names() -> list[str]:
    """Names of the registered configurations, in the registry's order."""
    return list(LEARNERS)


def make_learner(name: str, random_state: int = 0):
    """A fresh, seeded estimator for the configuration ``name``.

    Parameters
    ----------
    name : str
        One of :func:`learner_names`.
    random_state : int
        Seed of every random step of the learner.
    """
    if not isinstance(name, str):
        raise TypeError(f"name must be a str, got {type(name).__name__}")
    if name not in LEARNERS:
        raise ValueError(f"name must be one of {learner_names()}, got {name!r}")
    if isinstance(random_state, bool) or not isinstance(random_state, int) or random_state < 0:
        raise ValueError(f"random_state must be a non-negative int, got {random_state!r}")
    return LEARNERS[name](random_state)


def _describe(value: Any) -> Any:
    if hasattr(value, "get_params"):
        cls = type(value)
        return {
            "class": f"{cls.__module__}.{cls.__qualname__}",
            "params": {k: _describe(v) for k, v in sorted(value.get_params(deep=False).items())},
        }
    if isinstance(value, (list, tuple)):
        return [_describe(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _describe(v) for k, v in sorted(value.items())}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, np.generic):  # a NumPy scalar parameter: its Python value
        return value.item()
    if isinstance(value, type) or callable(value):  # a class or function: its qualified name
        return f"{getattr(value, '__module__', '?')}.{getattr(value, '__qualname__', repr(value))}"
    # repr() of other objects may hold memory addresses or elided arrays: refuse them
    raise TypeError(
        f"cannot describe a parameter of type {type(value).__name__} machine-independently; "
        "give estimators parameters that are numbers, strings, estimators, lists or dicts"
    )


def learner_config(estimator) -> dict:
    """A JSON-serialisable description of an estimator (class and all parameters).

    Used as part of the experiment cache key: any changed parameter, of the
    estimator or of a nested base learner, changes the description.
    """
    return _describe(estimator)
