"""Registry of the learner configurations of Hüllermeier et al. (2022, Sec. 5.2).

Every entry builds a fresh, seeded scikit-learn estimator whose ``predict``
returns a 0/1 matrix of shape ``(n_samples, n_labels)``.  As in the paper, the
reductions use decision trees as base learners (the paper used MEKA's J48; we
use scikit-learn's CART :class:`~sklearn.tree.DecisionTreeClassifier` with its
defaults).

===============  ==============================================================
BR               :class:`~sklearn.multioutput.MultiOutputClassifier` (one tree per
                 label)
CC               :class:`~sklearn.multioutput.ClassifierChain`, random label order
LP               :class:`mlcbook.learners.LabelPowerset`
RAkEL-k{k}-m{m}  :class:`mlcbook.learners.RAkEL` (labelset size k, m members; m2K:
                 2K)
PCT              one multi-output tree (:class:`~sklearn.tree.DecisionTreeClassifier`
                 with a label matrix as target: leaves predict full label vectors)
EPCT             10 bagged multi-output trees (a random forest that considers all
                 features at every split, i.e. plain bagging)
===============  ==============================================================

These scikit-learn configurations are the book's own, quick stand-ins.  The paper's
learners, as the authors ran them (the study of :mod:`mlcrepro.huellermeier2022.authors_study`):

* ``PCT-CLUS``, ``EPCT-CLUS``: CLUS at its defaults, a C4.5-pruned predictive
  clustering tree and bagging of 10 unpruned ones (:class:`mlcbook.learners.ClusPCT`);
* ``BOOMER-1-2021``, ``BOOMER-K-2021``: ``mlrl-boomer`` at the 2021 defaults of the
  paper's two variants, label-wise and example-wise logistic loss
  (:mod:`mlcbook.learners.boomer` documents every default that differs), through the
  validating :class:`~mlcbook.learners.Boomer2021` (its options as
  ``set_params(options={"max_rules": 30})``); :func:`learner_config` describes it by
  the BOOMER model it fits, whose predictions it returns unchanged;

The authors' own reductions -- MEKA's ``BR``, ``CC`` and ``LC`` on Weka's ``J48``
with its defaults (``-C 0.25 -M 2``; their experimenter calls ``new J48()``) --
are ``BR-J48``, ``CC-J48`` and ``LP-J48`` (:mod:`mlcbook.learners.meka`,
:class:`mlcbook.learners.J48Classifier`; ``make weka`` installs Weka), and
MEKA's RAkEL ``RAkEL-J48-k{k}`` for k = 1..5 with the authors' m = L - k + 1
(L from the data; :func:`authors_rakel_settings` lists their whole (k, m) set).
J48 and these reductions draw no numbers from ``random_state`` (MEKA's CC seed 0
keeps the file's label order; RAkEL's subsets come from ``java.util.Random(0)``,
which reproduces the authors' runs).  On a dataset with
nominal features pass their category counts, e.g.
``make_learner("BR-J48").set_params(estimator__nominal={0: 6, 1: 4})``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from sklearn.ensemble import RandomForestClassifier
from sklearn.multioutput import ClassifierChain, MultiOutputClassifier
from sklearn.tree import DecisionTreeClassifier

from .boomer import Boomer2021, make_boomer
from .clus import ClusPCT
from .j48 import J48Classifier
from .meka import MekaBR, MekaCC, MekaLC, MekaRAkEL
from .reductions import LabelPowerset, RAkEL

__all__ = [
    "LEARNERS",
    "J48_LEARNERS",
    "RAKEL_SETTINGS",
    "authors_rakel_settings",
    "learner_names",
    "make_learner",
    "learner_config",
]

#: (k, m) of the RAkEL variants; m=None is 2K members (Tsoumakas and Vlahavas 2007),
#: m=10 is MEKA's default.
RAKEL_SETTINGS: tuple[tuple[int, int | None], ...] = ((2, 10), (5, 10), (2, None), (5, None))


def _tree(random_state: int) -> DecisionTreeClassifier:
    return DecisionTreeClassifier(random_state=random_state)


def _rakel(k: int, m: int | None) -> Callable[[int], Any]:
    return lambda random_state: RAkEL(
        k=k, m=m, estimator=_tree(random_state), random_state=random_state
    )


def _meka_rakel(k: int) -> Callable[[int], Any]:
    return lambda rs: MekaRAkEL(k, None, J48Classifier())


#: MEKA's reductions on Weka's J48 at its defaults, as the authors ran them.
J48_LEARNERS: dict[str, Callable[[int], Any]] = {
    "BR-J48": lambda rs: MekaBR(J48Classifier()),
    "CC-J48": lambda rs: MekaCC(J48Classifier()),
    "LP-J48": lambda rs: MekaLC(J48Classifier()),
    **{f"RAkEL-J48-k{k}": _meka_rakel(k) for k in range(1, 6)},
}


def authors_rakel_settings(n_labels: int) -> list[tuple[int, int]]:
    """(k, m) of the authors' RAkEL runs: k in {1..5, L // 2, L - 1}, m = L - k + 1.

    ``n_labels`` is the experimenter's L (its ``numLabels``).  For flags it is 12: the
    authors' MEKA run took the last 12 attributes of their 7-label flags file as labels
    (crescent, triangle, icon, animate, text, then the 7 colours; 14 features) and the
    released profiles score the 7 colours -- run so, every released flags row is
    reproduced (``tests/java/test_meka.py``).
    """
    if isinstance(n_labels, bool) or not isinstance(n_labels, int) or n_labels < 2:
        raise ValueError(f"n_labels must be an int >= 2, got {n_labels!r}")
    ks = sorted({*range(1, 6), n_labels // 2, n_labels - 1})
    return [(k, n_labels - k + 1) for k in ks]


def _boomer(variant: str, random_state: int) -> Boomer2021:
    """:class:`~mlcbook.learners.boomer.Boomer2021`, its arguments and mlrl-boomer
    checked now (an ImportError names the extra before any data is read)."""
    make_boomer(variant, random_state)
    return Boomer2021(variant, random_state)


LEARNERS: dict[str, Callable[[int], Any]] = {
    "BR": lambda rs: MultiOutputClassifier(_tree(rs)),
    "CC": lambda rs: ClassifierChain(_tree(rs), order="random", random_state=rs),
    "LP": lambda rs: LabelPowerset(_tree(rs)),
    **{f"RAkEL-k{k}-m{'2K' if m is None else m}": _rakel(k, m) for k, m in RAKEL_SETTINGS},
    "PCT": lambda rs: _tree(rs),
    "EPCT": lambda rs: RandomForestClassifier(
        n_estimators=10, max_features=None, bootstrap=True, random_state=rs, n_jobs=1
    ),
    "PCT-CLUS": lambda rs: ClusPCT(ensemble=False, random_seed=rs),
    "EPCT-CLUS": lambda rs: ClusPCT(ensemble=True, random_seed=rs),
    "BOOMER-1-2021": lambda rs: _boomer("BOOMER-1", rs),
    "BOOMER-K-2021": lambda rs: _boomer("BOOMER-K", rs),
    **J48_LEARNERS,
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
    described_as = getattr(value, "_described_as", None)
    if callable(described_as):  # a validating wrapper: the model it fits and predicts by
        return _describe(described_as())
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
