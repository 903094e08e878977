"""The parts the table of built-in measures (``mlcbook._measure_table``) is built from.

Its parameters (:class:`~mlcbook._measure_spec.Param` with their checks), the picklable
callables that fix a function's arguments under a measure's name (:class:`Call`), the
labels that show a parameter in a name (``macro_f2``, ``precision_at_5``), and the
decompositions of the micro, macro and propensity-scored averages into per-instance
statistics (:mod:`mlcbook.intervals` resamples them).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.sparse as sp

from . import _classification as _C
from . import _labelcounts as _lc
from . import _ranking as _RK
from . import _sklearn_measures as _SK
from ._at_k import check_propensity, ps_values
from ._measure_spec import Decomposition, Param, mean_decomposition, ratio_of_sums
from ._validation import check_average, check_bool, check_positive_int, check_real


# ---------------------------------------------------------------------- parameters
def _zero_division(v: Any) -> Any:
    return _C.check_zero_division(v)


def _convention(v: Any) -> str:
    return check_average(v, _RK.CONVENTIONS, "convention")


def check_k_param(v: Any) -> int:
    return check_positive_int(v, "k", low=1)


def check_alpha(v: Any) -> float:
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


BETA = Param("beta", 1.0, _C.check_beta, "recall weighs beta times precision (F-beta)")


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
class Call:
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
        return (rebuild, (self.__name__, self.fn, self.args, self.fixed))


def rebuild(name: str, fn: Callable[..., Any], args: tuple, fixed: dict) -> Call:
    return Call(name, fn, *args, **fixed)


def call(name: str, fn: Callable[..., Any], *args: str, **fixed: Any) -> Call:
    return Call(name, fn, *args, **fixed)


def per(name: str, fn: Callable[..., Any], *args: str, **fixed: Any) -> Call:
    """The per-instance values: ``fn(..., per_instance=True)``."""
    return Call(f"{name}_per_instance", fn, *args, per_instance=True, **fixed)


def at_k_label(name: str) -> Callable[[Any], str]:
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


def f_label(name: str) -> Callable[[Any], str]:
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


class CountsDecomposition:
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


def example_f_decomposition(Y: Any, P: Any, *, beta: float, zero_division: Any) -> Decomposition:
    """Zhang & Zhou's F of the averaged precision and recall: 4 statistics."""
    zd = _plain(zero_division)
    prec = _C.precision(Y, P, average="instance", zero_division=zd, per_instance=True)
    rec = _C.recall(Y, P, average="instance", zero_division=zd, per_instance=True)
    okp, okr = ~np.isnan(prec), ~np.isnan(rec)  # zero_division=nan: left out
    stats = np.column_stack([np.where(okp, prec, 0.0), np.where(okr, rec, 0.0), okp, okr]).astype(
        np.float64
    )

    def finish(S: np.ndarray) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            return _lc.f_of_averages(S[:, 0] / S[:, 2], S[:, 1] / S[:, 3], beta)

    return Decomposition(stats, finish)


# ====================================================================== at k
def _empty_rows(v: Any) -> str:
    return check_average(v, ("zero", "skip"), "empty_rows")


def _normalization(v: Any) -> str:
    return check_average(v, ("ideal", "k"), "normalization")


def _normalize(v: Any) -> bool:
    return check_bool(v, "normalize")


K_CUT = Param("k", check=check_k_param, help="cut-off: the k top-ranked labels of each instance")


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
    check=check_propensity,
    help="label propensities p_l in (0, 1], e.g. jain_propensity(Y_train)",
)


NORMALIZE = Param(
    "normalize",
    True,
    _normalize,
    "divide by the best achievable value (pyxclib's, the XC repository's) or not (the paper's)",
)


class PSDecomposition:
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
        value, best, n_pos = ps_values(Y, F, k, propensity, self.measure, normalization)
        if not normalize:
            return mean_decomposition(
                np.where(n_pos > 0, value, np.nan) if empty_rows == "skip" else value
            )
        # an instance without a true label adds 0 to both sums: empty_rows is moot
        return Decomposition(np.column_stack([value, best]), ratio_of_sums)
