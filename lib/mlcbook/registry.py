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
entries of the private module ``mlcbook._measure_table``, loaded on the first lookup.

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
import importlib
import math
import threading
import warnings
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

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

#: What a measure is.  ``classification``: a function of 0/1 predictions; ``ranking``:
#: of real-valued scores; ``at_k``: of the top ``k`` scores of each instance;
#: ``loss``: a (dependence-aware) loss of predictions, or of soft scores in [0, 1].
KINDS: tuple[str, ...] = ("classification", "ranking", "at_k", "loss")
#: What a measure takes besides the truth ``Y``.
INPUTS: tuple[str, ...] = ("predictions", "scores")
#: The conventions a measure can follow (the column "convention" of the name table).
CONVENTIONS: tuple[str, ...] = (
    "scikit-learn",
    "mlcbook",
    "wu_zhou",
    "zhang_zhou",
    "hullermeier",
    "extreme",
)


class _Required:
    """The default of a parameter that has none (``REQUIRED``)."""

    def __repr__(self) -> str:
        return "REQUIRED"


#: ``Param.default`` of a parameter the caller must give (``k`` of the binomial loss).
REQUIRED: Any = _Required()


@dataclass(frozen=True)
class Param:
    """A parameter of a measure that a caller may set.

    Parameters
    ----------
    name : str
        Keyword of the measure's function (``"beta"``, ``"zero_division"``, ``"k"``).
    default : object, default REQUIRED
        Value used when the caller gives none; :data:`REQUIRED` if there is none.
    check : callable, optional
        ``check(value) -> value``: validates (raising ``TypeError``/``ValueError`` that
        name the parameter) and normalises a value.  Run when a scorer is made, an
        interval is asked for or the command line reads its options: before any work.
    help : str
        One line for the documentation and ``mlcbook measures``.
    """

    name: str
    default: Any = REQUIRED
    check: Callable[[Any], Any] | None = None
    help: str = ""

    @property
    def required(self) -> bool:
        return self.default is REQUIRED


@dataclass(frozen=True)
class Decomposition:
    """A measure as a function of column sums of per-instance statistics.

    ``stats``: ``(n_samples, m)`` array or sparse matrix, one row per instance;
    ``finish``: maps ``(B, m)`` sums (rows: e.g. bootstrap resamples) to ``(B,)``
    values, so that ``finish(stats.sum(axis=0)[None])[0]`` is the measure;
    ``values``: for a mean over instances the per-instance values (NaN: left out), else
    ``None``.  :mod:`mlcbook.intervals` resamples the rows.
    """

    stats: Any
    finish: Callable[[Any], Any]
    values: Any = None


@dataclass(frozen=True)
class MeasureSpec:
    """One measure: what it computes, what it needs, how it reads.

    Parameters
    ----------
    name : str
        The registry's name, used by every surface (``get_scorer(name)``,
        ``bootstrap_interval(name, ...)``, ``mlcbook evaluate --measures name``).
        Lower-case letters, digits and ``_``.
    function : callable
        ``function(Y, X, *, sample_weight=None, **params) -> float``.
    kind : {"classification", "ranking", "at_k", "loss"}
    inputs : {"predictions", "scores"}
        ``X`` of the function: 0/1 predictions or real-valued scores.
    greater_is_better : bool
        False for losses and errors (a scorer then returns minus the value).
    params : tuple of Param
        The parameters a caller may set, with defaults and checks.
    per_instance : callable, optional
        ``per_instance(Y, X, **params) -> ndarray (n,)`` whose mean (NaN left out) is
        the measure: a mean over instances.  Gives bootstrap intervals.
    decompose : callable, optional
        ``decompose(Y, X, **params) -> Decomposition`` for a measure that is a
        function of sums over instances but not their mean (micro, macro averages).
    convention : str
        Whose definition and defaults: ``"scikit-learn"`` (the name and the value are
        scikit-learn's), ``"mlcbook"`` (the book's), ``"wu_zhou"``, ``"zhang_zhou"``,
        ``"hullermeier"``, ``"extreme"``.
    equals : str
        What it equals, tested: e.g. ``"sklearn.metrics.f1_score(average='macro')"``;
        empty if there is no reference implementation.
    sklearn_scorer : bool
        The name is one of scikit-learn's scorer names (``sklearn.metrics.get_scorer``)
        and the scorer's value equals scikit-learn's.
    description : str
        One line: what the number is.
    reference : str
        Where it is defined (paper, equation).
    soft : bool
        A loss that also takes scores in [0, 1] unthresholded (its soft form).
    in_report : bool
        Shown by ``mlcbook evaluate`` and ``compare`` without ``--measures``.
    no_interval : str
        Why no bootstrap interval exists, when neither ``per_instance`` nor
        ``decompose`` is given (printed as a note by ``mlcbook evaluate --ci``).
    """

    name: str
    function: Callable[..., Any]
    kind: str
    inputs: str
    greater_is_better: bool
    params: tuple[Param, ...] = ()
    per_instance: Callable[..., Any] | None = None
    decompose: Callable[..., Decomposition] | None = None
    convention: str = "mlcbook"
    equals: str = ""
    sklearn_scorer: bool = False
    description: str = ""
    reference: str = ""
    soft: bool = False
    in_report: bool = False
    no_interval: str = ""
    label: Callable[[Mapping[str, Any]], str] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise TypeError(f"name must be a non-empty str, got {self.name!r}")
        if not all(c.islower() or c.isdigit() or c == "_" for c in self.name):
            raise ValueError(
                f"name must hold lower-case letters, digits and '_' only, got {self.name!r}"
            )
        if not callable(self.function):
            raise TypeError(f"{self.name}: function must be callable, got {self.function!r}")
        if self.kind not in KINDS:
            raise ValueError(f"{self.name}: kind must be one of {KINDS}, got {self.kind!r}")
        if self.inputs not in INPUTS:
            raise ValueError(f"{self.name}: inputs must be one of {INPUTS}, got {self.inputs!r}")
        if not isinstance(self.greater_is_better, bool):
            raise TypeError(f"{self.name}: greater_is_better must be True or False")
        if self.convention not in CONVENTIONS:
            raise ValueError(
                f"{self.name}: convention must be one of {CONVENTIONS}, got {self.convention!r}"
            )
        if not isinstance(self.params, tuple) or not all(
            isinstance(p, Param) for p in self.params
        ):
            raise TypeError(f"{self.name}: params must be a tuple of Param")
        names = [p.name for p in self.params]
        if len(set(names)) != len(names):
            raise ValueError(f"{self.name}: a parameter is declared twice: {names}")
        for what in ("per_instance", "decompose", "label"):
            fn = getattr(self, what)
            if fn is not None and not callable(fn):
                raise TypeError(f"{self.name}: {what} must be callable or None")

    # ------------------------------------------------------------------ parameters
    @property
    def param_names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.params)

    @property
    def required_params(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.params if p.required)

    @property
    def has_interval(self) -> bool:
        """A bootstrap interval exists: a mean over instances or a function of sums."""
        return self.per_instance is not None or self.decompose is not None

    def check_params(self, params: Mapping[str, Any], *, fill: bool = True) -> dict[str, Any]:
        """Validate ``params`` against the declared parameters.

        Unknown keywords raise ``TypeError`` naming the ones the measure takes; a
        missing required one raises ``TypeError``; each value goes through its
        ``Param.check``.  With ``fill`` the defaults of the others are added.
        """
        declared = {p.name: p for p in self.params}
        for key in params:
            if key not in declared:
                takes = ", ".join(declared) or "none"
                raise TypeError(f"{self.name} takes no parameter {key!r}; it takes {takes}")
        out: dict[str, Any] = {}
        for p in self.params:
            if p.name in params:
                v = params[p.name]
            elif p.required:
                raise TypeError(
                    f"{self.name} needs the parameter {p.name}= ({p.help or 'no default'})"
                )
            elif fill:
                v = p.default
            else:
                continue
            out[p.name] = p.check(v) if p.check is not None else v
        return out

    def compute(self, Y: Any, X: Any, *, sample_weight: Any = None, **params: Any) -> float:
        """The measure's value: the parameters checked, then ``function`` called with
        the given ones (the others take the function's defaults, which are the
        declared ones)."""
        self.check_params(params)
        kw = dict(params)
        if sample_weight is not None:
            kw["sample_weight"] = sample_weight
        return float(self.function(Y, X, **kw))

    def decomposition(self, Y: Any, X: Any, **params: Any) -> Decomposition | None:
        """The per-instance statistics of :mod:`mlcbook.intervals` (None: no interval).

        A mean over instances (``per_instance``) becomes statistics ``(v_i, 1)`` with
        NaN values left out (``(0, 0)``) and the ratio of the two sums.
        """
        kw = self.check_params(params)
        if self.decompose is not None:
            return self.decompose(Y, X, **kw)
        if self.per_instance is None:
            return None
        return mean_decomposition(self.per_instance(Y, X, **kw))

    def display_name(self, params: Mapping[str, Any] | None = None) -> str:
        """The name with the parameters that differ from their defaults, e.g.
        ``macro_f2`` for ``macro_f1`` with ``beta=2`` or ``binomial_loss[k=3]``."""
        params = dict(params or {})
        if self.label is not None:
            return self.label(params)
        shown = [
            f"{p.name}={_short(params[p.name])}"
            for p in self.params
            if p.name in params and (p.required or not _same(params[p.name], p.default))
        ]
        return self.name + (f"[{','.join(shown)}]" if shown else "")


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    try:
        return bool(a == b)
    except (TypeError, ValueError):
        return False


def _short(v: Any) -> str:
    """A parameter as shown in a name: 4 significant digits for reals, the length of a
    list or array (OWA weights, a capacity)."""
    if isinstance(v, float):
        return f"{v:.4g}"
    if isinstance(v, (list, tuple, np.ndarray)):
        return f"<{len(v)} values>"
    return str(v)


def mean_decomposition(values: Any) -> Decomposition:
    """The :class:`Decomposition` of a mean over instances (NaN values left out)."""
    v = np.asarray(values, dtype=np.float64)
    ok = ~np.isnan(v)
    stats = np.column_stack([np.where(ok, v, 0.0), ok.astype(np.float64)])
    return Decomposition(stats, _ratio, v)


def _ratio(S: Any) -> Any:
    with np.errstate(invalid="ignore", divide="ignore"):
        return S[:, 0] / S[:, 1]


# ---------------------------------------------------------------------- the registry
_SPECS: dict[str, MeasureSpec] = {}
_GROUPS: dict[str, dict[str, str]] = {}
_DEPRECATED: dict[str, tuple[str, dict[str, Any], str]] = {}
_loaded = False
_lock = threading.RLock()


def _load_builtins() -> None:
    """Import the module that registers the built-in measures, once (on the first lookup:
    it imports :mod:`mlcbook.metrics` and :mod:`mlcbook.losses`, which may import this
    module)."""
    global _loaded
    if _loaded:
        return
    with _lock:
        if _loaded:
            return
        _loaded = True  # set first: the modules call register() while loading
        try:
            importlib.import_module("mlcbook._measure_table")
        except BaseException:
            _loaded = False
            raise


def register(spec: MeasureSpec, *, replace: bool = False) -> MeasureSpec:
    """Add a measure to the registry (every surface sees it from then on).

    Parameters
    ----------
    spec : MeasureSpec
    replace : bool, default False
        Allow replacing a registered measure of the same name.

    Returns
    -------
    MeasureSpec
        ``spec``, so that ``register`` can be used in an expression.

    Raises
    ------
    ValueError
        The name is taken (without ``replace``) or is a deprecated name.
    """
    if not isinstance(spec, MeasureSpec):
        raise TypeError(f"spec must be a MeasureSpec, got {type(spec).__name__}")
    if spec.name in _DEPRECATED:
        raise ValueError(f"{spec.name!r} is a deprecated name of {_DEPRECATED[spec.name][0]!r}")
    with _lock:
        if spec.name in _SPECS and not replace:
            raise ValueError(f"a measure named {spec.name!r} is registered already")
        _SPECS[spec.name] = spec
    return spec


def unregister(name: str) -> MeasureSpec:
    """Remove a measure (and return its spec); ``KeyError``-free: ``ValueError`` if unknown."""
    _load_builtins()
    with _lock:
        if name not in _SPECS:
            raise ValueError(f"no measure named {name!r} is registered")
        for members in _GROUPS.values():
            if name in members.values():
                raise ValueError(f"{name!r} belongs to a group of measures; it stays")
        return _SPECS.pop(name)


@contextlib.contextmanager
def registered(spec: MeasureSpec) -> Iterator[MeasureSpec]:
    """Register ``spec`` for the duration of a ``with`` block (tests, experiments)."""
    _load_builtins()
    register(spec)
    try:
        yield spec
    finally:
        with _lock:
            _SPECS.pop(spec.name, None)


def _deprecated(
    name: str, new: str, fixed: Mapping[str, Any] | None = None, why: str = ""
) -> None:
    """Declare ``name`` a deprecated spelling of ``new`` (with ``fixed`` parameters)."""
    _DEPRECATED[name] = (new, dict(fixed or {}), why)


def deprecated_names() -> dict[str, tuple[str, dict[str, Any], str]]:
    """Old name -> (current name, parameters it fixes, why): still accepted with a
    :class:`FutureWarning` by every surface."""
    _load_builtins()
    return {k: (v[0], dict(v[1]), v[2]) for k, v in _DEPRECATED.items()}


def resolve(name: Any) -> tuple[MeasureSpec, dict[str, Any]]:
    """The spec of ``name`` and the parameters a deprecated name fixes.

    A deprecated name warns (``FutureWarning``, naming the current name).
    """
    if not isinstance(name, str):
        raise TypeError(f"measure must be a measure name (str), got {name!r}")
    _load_builtins()
    if name in _SPECS:
        return _SPECS[name], {}
    if name in _DEPRECATED:
        new, fixed, why = _DEPRECATED[name]
        warnings.warn(
            f"the measure name {name!r} is deprecated: use {new!r}{f' ({why})' if why else ''}",
            FutureWarning,
            stacklevel=3,
        )
        return _SPECS[new], dict(fixed)
    raise ValueError(_unknown(name))


def _unknown(name: str) -> str:
    close = difflib.get_close_matches(name, list(_SPECS), n=3, cutoff=0.6)
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
    _load_builtins()
    if kind is not None and kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    if inputs is not None and inputs not in INPUTS:
        raise ValueError(f"inputs must be one of {INPUTS}, got {inputs!r}")
    if convention is not None and convention not in CONVENTIONS:
        raise ValueError(f"convention must be one of {CONVENTIONS}, got {convention!r}")
    return [
        s
        for s in _SPECS.values()
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


def register_group(name: str, members: Mapping[str, str]) -> None:
    """Declare a named, ordered group of measures: ``{key: registered name}`` (the key is
    how the group's source names the measure, e.g. Wu & Zhou's ``average_precision`` for
    ``label_ranking_average_precision``)."""
    _load_builtins()
    missing = [m for m in members.values() if m not in _SPECS]
    if missing:
        raise ValueError(f"group {name!r} names unregistered measures: {missing}")
    _GROUPS[name] = dict(members)


def group(name: str) -> dict[str, str]:
    """The members of a group, ``{key: registered name}`` in the group's order
    (``group("wu_zhou")``: the eleven measures of Wu & Zhou's Table 1)."""
    _load_builtins()
    if name not in _GROUPS:
        raise ValueError(f"no group {name!r}; the groups: {', '.join(_GROUPS)}")
    return dict(_GROUPS[name])


def name_table() -> list[dict[str, str]]:
    """One row per name, for the documentation's table of names: registered names,
    then the deprecated ones (with what replaces them)."""
    _load_builtins()
    keys = {m: f"{g}: {k}" for g, members in _GROUPS.items() for k, m in members.items() if k != m}
    rows = []
    for s in _SPECS.values():
        params = ", ".join(
            p.name if p.required else f"{p.name}={_short(p.default)}" for p in s.params
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
                "description": s.description + (f" [{keys[s.name]}]" if s.name in keys else ""),
            }
        )
    for old, (new, fixed, why) in _DEPRECATED.items():
        shown = ", ".join(f"{k}={v!r}" for k, v in fixed.items())
        rows.append(
            {
                "name": old,
                "kind": _SPECS[new].kind,
                "inputs": _SPECS[new].inputs,
                "better": "higher" if _SPECS[new].greater_is_better else "lower",
                "parameters": "",
                "convention": "deprecated",
                "equals": f"{new}" + (f"({shown})" if shown else ""),
                "interval": "yes" if _SPECS[new].has_interval else "no",
                "description": why,
            }
        )
    return rows
