"""The core of the measure registry: what a measure is, and the store it is kept in.

:class:`MeasureSpec` and :class:`Param` describe a measure; :func:`register`,
:func:`register_group` and :func:`deprecate` fill the store.  Nothing here computes a
measure or imports a module that does: the table of built-in measures
(``mlcbook._measure_table``) imports this module and the measure functions, and the
public :mod:`mlcbook.registry` (which re-exports these names) imports the table.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

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
        Value used when the caller gives none; ``REQUIRED`` if there is none.
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
    title : str
        How the book's tables and figures name it (``"macro-F1"``); empty: not named
        there.
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
    title: str = ""
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
            f"{p.name}={short_value(params[p.name])}"
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


def short_value(v: Any) -> str:
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
    return Decomposition(stats, ratio_of_sums, v)


def ratio_of_sums(S: Any) -> Any:
    """The first column of ``S`` over its second (NaN or inf where it divides by 0)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return S[:, 0] / S[:, 1]


# ---------------------------------------------------------------------- the store
#: registered measures by name, in registration order
SPECS: dict[str, MeasureSpec] = {}
#: named, ordered groups of registered names
GROUPS: dict[str, tuple[str, ...]] = {}
#: old name -> (current name, parameters it fixes, why)
DEPRECATED: dict[str, tuple[str, dict[str, Any], str]] = {}
LOCK = threading.RLock()


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
    if spec.name in DEPRECATED:
        raise ValueError(f"{spec.name!r} is a deprecated name of {DEPRECATED[spec.name][0]!r}")
    with LOCK:
        if spec.name in SPECS and not replace:
            raise ValueError(f"a measure named {spec.name!r} is registered already")
        SPECS[spec.name] = spec
    return spec


def deprecate(name: str, new: str, fixed: Mapping[str, Any] | None = None, why: str = "") -> None:
    """Declare ``name`` a deprecated spelling of ``new`` (with ``fixed`` parameters)."""
    DEPRECATED[name] = (new, dict(fixed or {}), why)


def register_group(name: str, members: Sequence[str]) -> None:
    """Declare a named, ordered group of registered measures (``"wu_zhou"``: the eleven
    measures of Wu & Zhou's Table 1, in the table's order)."""
    if isinstance(members, str) or not isinstance(members, Sequence):
        raise TypeError(f"members must be a sequence of measure names, got {members!r}")
    missing = [m for m in members if m not in SPECS]
    if missing:
        raise ValueError(f"group {name!r} names unregistered measures: {missing}")
    GROUPS[name] = tuple(members)
