"""The one registry of measures: every surface of the library reads it.

Each measure is one :class:`MeasureSpec`: its function, its kind (classification,
ranking, at-k, loss), the input it needs besides the truth (0/1 predictions or
real-valued scores), whether greater is better, its parameters (:class:`Param`), its
per-instance decomposition where one exists, and its convention (scikit-learn's, the
book's, Wu & Zhou's, ...).  :func:`mlcbook.metrics.all_measures` (``measures=``), the
scorers (:mod:`mlcbook.scorers`), the bootstrap intervals and paired comparisons
(:mod:`mlcbook.intervals`), ``mlcbook evaluate``/``compare``/``measures`` and the
table of names in the documentation all iterate it; nothing else lists measures.

Names keep their meaning.  A name that is scikit-learn's (``f1_macro``,
``f1_samples``, ``average_precision``, ``roc_auc``, ``jaccard_samples``,
``accuracy``, ...) gives scikit-learn's value, defaults included
(``zero_division="warn"``: 0 and a warning).  The book's conventions have names of
their own: ``macro_f1``, ``instance_f1`` (``zero_division=1``),
``label_ranking_average_precision``, ``coverage`` (Wu & Zhou's, one less than
scikit-learn's ``coverage_error``), or a ``convention=`` parameter (``"wu_zhou"``: the
authors' MATLAB code).

Adding a measure is one entry and its tests::

    import numpy as np
    from mlcbook.registry import MeasureSpec, Param, register

    def false_positive_rate(Y, P, *, sample_weight=None):
        Y, P = np.asarray(Y), np.asarray(P)
        per = ((P == 1) & (Y == 0)).sum(axis=1) / Y.shape[1]
        return float(np.average(per, weights=sample_weight))

    register(MeasureSpec(
        name="false_positive_rate",
        function=false_positive_rate,            # function(Y, X, *, sample_weight=None, **params)
        kind="classification",                   # one of KINDS
        inputs="predictions",                    # X is 0/1 predictions ("scores": real scores)
        greater_is_better=False,
        per_instance=lambda Y, P: ((np.asarray(P) == 1) & (np.asarray(Y) == 0)).mean(axis=1),
        description="fraction of (instance, label) pairs predicted but not true",
    ))

From then on ``get_scorer("false_positive_rate")``, ``bootstrap_interval(
"false_positive_rate", ...)``, ``all_measures(..., measures="all")`` and ``mlcbook
evaluate --measures false_positive_rate`` know it.  The built-in measures are the
entries of the private module ``mlcbook._measure_table``, which this module imports:
the measure functions import no part of the registry, the table imports them and the
registry's core (``mlcbook._measure_spec``), and this module and
:func:`mlcbook.metrics.all_measures` sit above the table.

Calling conventions of a spec's callables (``X``: predictions or scores, as
``inputs`` says; ``**params``: the spec's parameters, already checked):

* ``function(Y, X, *, sample_weight=None, **params) -> float``;
* ``per_instance(Y, X, **params) -> ndarray (n,)``: values whose mean over instances
  (NaN left out) is the measure;
* ``decompose(Y, X, **params) -> Decomposition``: for a measure that is a function of
  sums over instances but not a mean (micro and macro averages), the per-instance
  statistics and the function of their column sums.
"""

from __future__ import annotations

import contextlib
import difflib
import warnings
from collections.abc import Iterator
from typing import Any

from . import _measure_table  # noqa: F401  (registers the built-in measures)
from ._measure_spec import (
    CONVENTIONS,
    DEPRECATED,
    GROUPS,
    INPUTS,
    KINDS,
    LOCK,
    REQUIRED,
    SPECS,
    Decomposition,
    MeasureSpec,
    Param,
    mean_decomposition,
    register,
    register_group,
    short_value,
)

__all__ = [
    "KINDS",
    "INPUTS",
    "CONVENTIONS",
    "REQUIRED",
    "Param",
    "Decomposition",
    "MeasureSpec",
    "register",
    "unregister",
    "registered",
    "get_measure",
    "resolve",
    "mean_decomposition",
    "measure_names",
    "measure_specs",
    "register_group",
    "group",
    "deprecated_names",
    "name_table",
]


def unregister(name: str) -> MeasureSpec:
    """Remove a measure (and return its spec); ``KeyError``-free: ``ValueError`` if unknown."""
    with LOCK:
        if name not in SPECS:
            raise ValueError(f"no measure named {name!r} is registered")
        for members in GROUPS.values():
            if name in members:
                raise ValueError(f"{name!r} belongs to a group of measures; it stays")
        return SPECS.pop(name)


@contextlib.contextmanager
def registered(spec: MeasureSpec) -> Iterator[MeasureSpec]:
    """Register ``spec`` for the duration of a ``with`` block (tests, experiments)."""
    register(spec)
    try:
        yield spec
    finally:
        with LOCK:
            SPECS.pop(spec.name, None)


def deprecated_names() -> dict[str, tuple[str, dict[str, Any], str]]:
    """Old name -> (current name, parameters it fixes, why): still accepted with a
    :class:`FutureWarning` by every surface."""
    return {k: (v[0], dict(v[1]), v[2]) for k, v in DEPRECATED.items()}


def resolve(name: Any) -> tuple[MeasureSpec, dict[str, Any]]:
    """The spec of ``name`` and the parameters a deprecated name fixes.

    A deprecated name warns (``FutureWarning``, naming the current name).
    """
    if not isinstance(name, str):
        raise TypeError(f"measure must be a measure name (str), got {name!r}")
    if name in SPECS:
        return SPECS[name], {}
    if name in DEPRECATED:
        new, fixed, why = DEPRECATED[name]
        warnings.warn(
            f"the measure name {name!r} is deprecated: use {new!r}{f' ({why})' if why else ''}",
            FutureWarning,
            stacklevel=3,
        )
        return SPECS[new], dict(fixed)
    raise ValueError(_unknown(name))


def _unknown(name: str) -> str:
    close = difflib.get_close_matches(name, list(SPECS), n=3, cutoff=0.6)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    return (
        f"unknown measure {name!r}{hint} (the registered measures: `mlcbook measures`, "
        "mlcbook.registry.measure_names())"
    )


def get_measure(name: str) -> MeasureSpec:
    """The :class:`MeasureSpec` registered under ``name`` (deprecated names warn).

    Examples
    --------
    >>> from mlcbook.registry import get_measure
    >>> s = get_measure("f1_macro")
    >>> s.kind, s.inputs, s.greater_is_better, s.convention
    ('classification', 'predictions', True, 'scikit-learn')
    """
    return resolve(name)[0]


def _select(
    kind: str | None, inputs: str | None, interval: bool | None, convention: str | None
) -> list[MeasureSpec]:
    if kind is not None and kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    if inputs is not None and inputs not in INPUTS:
        raise ValueError(f"inputs must be one of {INPUTS}, got {inputs!r}")
    if convention is not None and convention not in CONVENTIONS:
        raise ValueError(f"convention must be one of {CONVENTIONS}, got {convention!r}")
    return [
        s
        for s in SPECS.values()
        if (kind is None or s.kind == kind)
        and (inputs is None or s.inputs == inputs)
        and (interval is None or s.has_interval == interval)
        and (convention is None or s.convention == convention)
    ]


def measure_specs(
    *,
    kind: str | None = None,
    inputs: str | None = None,
    interval: bool | None = None,
    convention: str | None = None,
) -> list[MeasureSpec]:
    """The registered specs in registration order, optionally filtered."""
    return _select(kind, inputs, interval, convention)


def measure_names(
    *,
    kind: str | None = None,
    inputs: str | None = None,
    interval: bool | None = None,
    convention: str | None = None,
) -> list[str]:
    """The registered names in registration order, optionally filtered.

    Examples
    --------
    >>> from mlcbook.registry import measure_names
    >>> "roc_auc" in measure_names(inputs="scores")
    True
    """
    return [s.name for s in _select(kind, inputs, interval, convention)]


def group(name: str) -> tuple[str, ...]:
    """The registered names of a group, in the group's order.

    Examples
    --------
    The eleven measures of Wu & Zhou's Table 1 (the keys of
    :func:`mlcbook.metrics.all_measures`), and those where lower is better:

    >>> from mlcbook.registry import get_measure, group
    >>> len(group("wu_zhou"))
    11
    >>> [m for m in group("wu_zhou") if not get_measure(m).greater_is_better]
    ['hamming_loss', 'ranking_loss', 'one_error', 'coverage']
    """
    if name not in GROUPS:
        raise ValueError(f"no group {name!r}; the groups: {', '.join(GROUPS)}")
    return GROUPS[name]


def name_table() -> list[dict[str, str]]:
    """One row per name, for the documentation's table of names: registered names,
    then the deprecated ones (with what replaces them)."""
    rows = []
    for s in SPECS.values():
        params = ", ".join(
            p.name if p.required else f"{p.name}={short_value(p.default)}" for p in s.params
        )
        rows.append(
            {
                "name": s.name,
                "kind": s.kind,
                "inputs": s.inputs,
                "better": "higher" if s.greater_is_better else "lower",
                "parameters": params,
                "convention": s.convention,
                "equals": s.equals + (" (scorer name)" if s.sklearn_scorer else ""),
                "interval": "yes" if s.has_interval else "no",
                "description": s.description,
            }
        )
    for old, (new, fixed, why) in DEPRECATED.items():
        shown = ", ".join(f"{k}={v!r}" for k, v in fixed.items())
        rows.append(
            {
                "name": old,
                "kind": SPECS[new].kind,
                "inputs": SPECS[new].inputs,
                "better": "higher" if SPECS[new].greater_is_better else "lower",
                "parameters": "",
                "convention": "deprecated",
                "equals": f"{new}" + (f"({shown})" if shown else ""),
                "interval": "yes" if SPECS[new].has_interval else "no",
                "description": why,
            }
        )
    return rows
