"""The work behind ``mlcbook evaluate``, ``compare`` and ``measures``: read the files,
settle the labels, compute the registry's measures, their intervals and the loss
profile.

:mod:`mlcbook.cli` imports this module only when a command needs it, so that
``mlcbook --help`` starts without NumPy; this module in turn imports neither pandas
nor scikit-learn (reading a CSV file needs neither).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np
import scipy.sparse as sp

from . import metrics as _M
from . import registry as _R
from ._cli_options import PROFILES
from ._grids import ALPHAS
from ._inputs import read_inputs, read_propensity_file
from ._labelfiles import (
    LabelFileError,
)
from ._progress import progress
from .extreme import JAIN_PARAMETERS, jain_propensity
from .intervals import bootstrap_interval, paired_comparison
from .losses import loss_profile

__all__ = [
    "select_measures",
    "evaluate_files",
    "compare_files",
    "profile_params",
    "PROFILES",
    "SELECTORS",
]

#: Words ``--measures`` takes besides measure names.
SELECTORS = ("report", "all", *_R.KINDS, *_R.CONVENTIONS)
#: Above this many (instance, label) cells ``evaluate`` shows progress bars.
LONG_CELLS = 10**7


# ---------------------------------------------------------------------- measures
def select_measures(
    selection: str | Sequence[str] | None, *, scores: bool, params: dict[str, Any]
) -> list[_R.MeasureSpec]:
    """The measures ``--measures`` names: ``None`` is ``report`` (the measures shown by
    default); comma-separated words are measure names or groups (``all``, a kind such
    as ``ranking``, a convention such as ``scikit-learn``).  A group leaves out what
    the input cannot give (scores) or what needs a parameter not given; a name asks
    for it."""
    words = (
        ["report"]
        if selection is None
        else [w.strip() for w in selection.split(",")]
        if isinstance(selection, str)
        else list(selection)
    )
    chosen: dict[str, _R.MeasureSpec] = {}
    for word in words:
        if word in SELECTORS:
            for s in _R.measure_specs():
                ok = (
                    (word == "report" and s.in_report)
                    or word == "all"
                    or s.kind == word
                    or s.convention == word
                )
                if ok and (scores or s.inputs != "scores") and _has_params(s, params):
                    chosen.setdefault(s.name, s)
            continue
        try:
            s = _R.get_measure(word)
        except ValueError as exc:
            raise LabelFileError("--measures", None, str(exc)) from None
        if s.inputs == "scores" and not scores:
            raise LabelFileError(
                "--measures",
                None,
                f"{s.name} ranks scores: give the score file (--scores, or --scores-a "
                "and --scores-b)",
            )
        missing = [p for p in s.required_params if p not in params]
        if missing:
            raise LabelFileError("--measures", None, f"{s.name} needs the parameter {missing[0]}")
        chosen.setdefault(s.name, s)
    if not chosen:
        raise LabelFileError("--measures", None, f"{selection!r} selects no measure")
    return list(chosen.values())


def _measure_params(
    beta: float, zero_division: Any, convention: str, extra: dict[str, Any] | None
) -> dict[str, Any]:
    """The parameters given on the command line; each measure takes the ones it has."""
    out = {"beta": beta, "zero_division": zero_division, "convention": convention}
    for name, value in (extra or {}).items():
        if not any(name in s.param_names for s in _R.measure_specs()):
            raise LabelFileError("--param", None, f"no measure takes a parameter {name!r}")
        out[name] = value
    return out


def _has_params(spec: _R.MeasureSpec, params: dict[str, Any]) -> bool:
    return all(p in params for p in spec.required_params)


def _params_of(spec: _R.MeasureSpec, params: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in params.items() if k in spec.param_names and v is not None}


def check_cutoffs(ks: Sequence[int] | None, K: int) -> list[int] | None:
    """``--k``: the cut-offs of the at-k measures, each an integer in 1..K (the labels
    of the files), refused (naming ``--k``) before any measure is computed."""
    if ks is None:
        return None
    out = []
    for k in ks:
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 1 <= k <= K:
            raise LabelFileError(
                "--k", None, f"each cut-off must be an integer in 1..{K} (the labels), got {k!r}"
            )
        if int(k) not in out:
            out.append(int(k))
    if not out:
        raise LabelFileError("--k", None, "give at least one cut-off, e.g. --k 1,3,5")
    return out


#: Stands for the propensities computed from the truth until a measure needs them.
_FROM_TRUTH = "from the truth"


def _truth_propensity(
    params: dict[str, Any],
    Y: Any,
    jain: Sequence[float] | None,
    takers: Sequence[str],
    given: tuple[np.ndarray, str] | None = None,
) -> list[str]:
    """The propensity-scored measures' ``propensity``: the one given (``--param``), else
    those of ``--propensity FILE`` (``given``), else, if a selected measure takes it,
    Jain et al.'s from the label frequencies of the truth
    (:func:`mlcbook.extreme.jain_propensity`), with a note saying so."""
    if given is not None and takers:
        params["propensity"] = given[0]
        return [f"{', '.join(takers)}: {given[1]}"]
    if params.get("propensity") is not _FROM_TRUTH:
        return []
    if not takers:
        del params["propensity"]
        return []
    a, b = JAIN_PARAMETERS["default"] if jain is None else jain
    params["propensity"] = jain_propensity(Y, a, b)
    return [
        f"{', '.join(takers)}: propensities of Jain et al. (2016) with A = {a:g}, "
        f"B = {b:g} from the label frequencies of the truth ({Y.shape[0]} instances)"
    ]


def _runs(
    specs: Sequence[_R.MeasureSpec], params: dict[str, Any], ks: Sequence[int] | None
) -> list[tuple[_R.MeasureSpec, dict[str, Any]]]:
    """Each measure with its parameters: an at-k measure once per cut-off of ``--k``
    (which takes the place of ``--param k`` for them), the others once."""
    out = []
    for s in specs:
        if ks is not None and s.kind == "at_k":
            out += [(s, _params_of(s, {**params, "k": k})) for k in ks]
        else:
            out.append((s, _params_of(s, params)))
    return out


def _row(spec: _R.MeasureSpec, params: dict[str, Any]) -> str:
    shown = {k: v for k, v in params.items() if k not in ("zero_division", "convention")}
    return spec.display_name(shown)


def _input(spec: _R.MeasureSpec, P: Any, F: Any) -> Any:
    if spec.inputs != "scores":
        return P
    return F


def _dense_scores(Y: Any, F: Any = None) -> Any:
    """The truth for the score measures: dense beside dense scores; sparse truth stays
    sparse beside sparse (listed) scores, which never become dense."""
    if sp.issparse(F):
        return Y
    return Y.toarray() if sp.issparse(Y) else Y


def _loop(items: list, desc: str, show: bool) -> Iterable:
    return progress(items, desc=desc) if show else items


# ---------------------------------------------------------------------- profile
def profile_params(K: int, mode: str) -> tuple[list[int], list[float]]:
    """The binomial ``k`` and polynomial ``alpha`` of the loss profile: every ``k`` and
    the book's 25-point alpha grid (``full``), or about ten log-spaced ``k`` from 1 to
    ``K`` and every fourth alpha of the grid, 1 to 1000 (``summary``)."""
    if mode == "none":
        return [], []
    if mode == "full" or K <= 10:
        ks = list(range(1, K + 1))
    else:
        ks = sorted({round(float(x)) for x in np.logspace(0, math.log10(K), 10)})
    alphas = [float(a) for a in ALPHAS]
    return ks, alphas if mode == "full" else alphas[::4]


def _profile(Y: Any, P: Any, mode: str) -> list[tuple[str, float, float]]:
    ks, alphas = profile_params(Y.shape[1], mode)
    out: list[tuple[str, float, float]] = []
    if ks:
        out += [
            ("binomial", float(k), float(v))
            for k, v in zip(ks, loss_profile(Y, P, "binomial", ks))
        ]
    if alphas:
        out += [
            ("polynomial", a, float(v))
            for a, v in zip(alphas, loss_profile(Y, P, "polynomial", alphas))
        ]
    return out


# ---------------------------------------------------------------------- commands
def _notes_for(runs: Sequence[tuple[_R.MeasureSpec, dict[str, Any]]]) -> list[str]:
    out = []
    for s, kw in runs:
        if not s.has_interval:
            reason = s.no_interval or "it is not a function of sums over instances"
            out.append(f"{_row(s, kw)}: no interval ({reason})")
    return out


def evaluate_files(
    truth: str,
    pred: str,
    *,
    scores: str | None = None,
    zero_division: Any = None,
    beta: float = 1.0,
    convention: str = "mlcbook",
    measures: str | Sequence[str] | None = None,
    params: dict[str, Any] | None = None,
    profile: str = "summary",
    ci: dict[str, Any] | None = None,
    ks: Sequence[int] | None = None,
    jain: Sequence[float] | None = None,
    per_label: bool = False,
    propensity_file: str | None = None,
    show_progress: bool = False,
    **reading: Any,
) -> dict[str, Any]:
    """Read the files and compute the measures, their intervals and the loss profile.

    ``reading``: how the files are read (``labels``, ``input_format``, ``xml``,
    ``header``; see ``read_inputs``).

    ``per_label`` (``--per-label``) adds ``per_label``: one row per label, (label,
    support, precision, recall, F1, and with scores the AUC), each as
    :func:`mlcbook.metrics.precision` etc. with ``average=None`` compute it, with
    ``zero_division`` (default 1, the book's) for a label never predicted or never
    true.

    ``ks`` (``--k``): every at-k measure at each of these cut-offs (integers in 1..K);
    without ``measures``, the report and the at-k measures.
    The propensity-scored measures take ``params["propensity"]`` if given, else Jain
    et al.'s propensities with ``jain`` = (A, B) (None: their general 0.55, 1.5) from the
    label frequencies of the truth.

    Returns a dict: ``n_samples``, ``n_labels``, ``labels``, ``labels_from``,
    ``measures`` (list of (row, value)), ``profile`` (list of (family, parameter,
    mean loss)), ``notes`` and, with ``ci``, ``intervals`` (list of (row, low, high)
    of the measures that have one) and ``ci``.
    """
    if profile not in PROFILES:
        raise ValueError(f"profile must be one of {PROFILES}, got {profile!r}")
    Y, (P,), (F,), names, source = read_inputs(truth, [pred], scores=[scores], **reading)
    runs, notes = _evaluate_runs(
        Y,
        names,
        F is not None,
        check_cutoffs(ks, Y.shape[1]),
        measures,
        _measure_params(beta, zero_division, convention, params),
        jain,
        _propensity_reader(propensity_file, names, jain, reading),
    )
    show = show_progress and Y.shape[0] * Y.shape[1] > LONG_CELLS
    out: dict[str, Any] = {
        **_described(Y, names, source),
        "measures": [
            (_row(s, kw), s.compute(_truth_for(s, Y, F), _input(s, P, F), **kw))
            for s, kw in _loop(runs, "measures", show)
        ],
        "profile": _profile(Y, P, profile),
        "notes": notes,
    }
    if per_label:
        out["per_label"] = per_label_rows(Y, P, F, names, zero_division)
    if ci is not None:
        ints = _intervals(Y, P, F, [r for r in runs if r[0].has_interval], ci, show_progress)
        undefined = [r for r, lo, hi in ints if math.isnan(lo) or math.isnan(hi)]
        out["intervals"], out["ci"] = ints, dict(ci)
        out["notes"] = (
            notes
            + _notes_for(runs)
            + [
                f"{r}: interval undefined (the measure is undefined on the resamples)"
                for r in undefined
            ]
        )
    return out


def _described(Y: Any, names: Sequence[str], source: str) -> dict[str, Any]:
    """What was read: instances, labels and where the labels come from."""
    return {
        "n_samples": int(Y.shape[0]),
        "n_labels": int(Y.shape[1]),
        "labels": [str(x) for x in names],
        "labels_from": source,
    }


def _truth_for(spec: _R.MeasureSpec, Y: Any, F: Any) -> Any:
    return _dense_scores(Y, F) if spec.inputs == "scores" else Y


def _evaluate_runs(
    Y: Any,
    names: Sequence[str],
    scores: bool,
    ks: list[int] | None,
    measures: str | Sequence[str] | None,
    params: dict[str, Any],
    jain: Sequence[float] | None,
    given_propensity: Callable[[dict[str, Any]], tuple[np.ndarray, str] | None],
) -> tuple[list[tuple[_R.MeasureSpec, dict[str, Any]]], list[str]]:
    """``evaluate``'s measures, each with its parameters (an at-k one at each cut-off),
    and the notes on the propensities they use (``given_propensity``: those of
    ``--propensity FILE``, read once the measures are known)."""
    if ks is not None:
        params.setdefault("k", ks[0])  # selects the at-k measures (each run at every k)
        measures = "report,at_k" if measures is None else measures
    if Y.shape[0] >= 3:  # Jain et al.'s C = (log N - 1)(B + 1)^A > 0 needs N > e
        params.setdefault("propensity", _FROM_TRUTH)
    specs = select_measures(measures, scores=scores, params=params)
    if ks is not None and not any(s.kind == "at_k" for s in specs):
        raise LabelFileError("--k", None, f"{measures!r} selects no at-k measure to cut")
    takers = [s.name for s in specs if "propensity" in s.param_names]
    given = given_propensity(params)
    notes = _truth_propensity(params, Y, jain, takers, given)
    if ks is not None and Y.shape[0] < 3 and "propensity" not in params and given is None:
        notes.append(
            "psprecision_at_k, psndcg_at_k: left out (Jain et al.'s propensities need at "
            "least 3 instances of the truth; give --param propensity=[...])"
        )
    return _runs(specs, params, ks), notes


def _propensity_reader(
    path: str | None, names: Sequence[str], jain: Sequence[float] | None, reading: dict
) -> Callable[[dict[str, Any]], tuple[np.ndarray, str] | None]:
    """What reads ``--propensity FILE`` (in the truth's layout rules) when the measures'
    parameters are known: refused beside ``--param propensity``; None without a file."""

    def given(params: dict[str, Any]) -> tuple[np.ndarray, str] | None:
        if path is None:
            return None
        if "propensity" in params and params["propensity"] is not _FROM_TRUTH:
            raise LabelFileError(
                "--propensity", None, "give the propensities once: a file or --param"
            )
        return read_propensity_file(
            path,
            names,
            jain,
            input_format=reading.get("input_format", "auto"),
            header=reading.get("header"),
        )

    return given


def _intervals(
    Y: Any, P: Any, F: Any, runs: list, ci: dict[str, Any], show: bool
) -> list[tuple[str, float, float]]:
    """The bootstrap interval of every run that has one: (row, low, high)."""
    ints = []
    for s, kw in _loop(runs, "bootstrap", show):
        res = bootstrap_interval(
            s.name,
            _truth_for(s, Y, F),
            _input(s, P, F),
            confidence=ci["level"],
            n_resamples=ci["resamples"],
            method=ci["method"],
            random_state=ci["seed"],
            **kw,
        )
        ints.append((_row(s, kw), res.low, res.high))
    return ints


def per_label_rows(
    Y: Any, P: Any, F: Any, names: Sequence[str], zero_division: Any = None
) -> list[tuple[Any, ...]]:
    """(label, support, precision, recall, F1[, AUC]) of every label: the values that
    ``average='macro'`` averages (``zero_division``: None or ``'warn'`` read as the
    book's 1.0 and 0.0)."""
    zd = 1.0 if zero_division is None else 0.0 if zero_division == "warn" else zero_division
    cols: list[Any] = [
        np.asarray(Y.sum(axis=0)).ravel().astype(int),
        _M.precision(Y, P, average=None, zero_division=zd),
        _M.recall(Y, P, average=None, zero_division=zd),
        _M.f_measure(Y, P, average=None, zero_division=zd),
    ]
    if F is not None:
        cols.append(_M.auc(_dense_scores(Y, F), F, average=None))
    return [
        (str(name), int(cols[0][j]), *(float(c[j]) for c in cols[1:]))
        for j, name in enumerate(names)
    ]


def compare_files(
    truth: str,
    pred_a: str,
    pred_b: str,
    *,
    scores_a: str | None = None,
    scores_b: str | None = None,
    ks: Sequence[int] | None = None,
    jain: Sequence[float] | None = None,
    zero_division: Any = None,
    beta: float = 1.0,
    convention: str = "mlcbook",
    measures: str | Sequence[str] | None = None,
    params: dict[str, Any] | None = None,
    ci: dict[str, Any],
    propensity_file: str | None = None,
    show_progress: bool = False,
    **reading: Any,
) -> dict[str, Any]:
    """Score two prediction files on one truth, measure by measure: both values, the
    difference, its paired bootstrap interval and the randomisation test's p-value, for
    every selected measure that has an interval (the others are named in ``notes``).

    ``reading`` as :func:`evaluate_files`; ``propensity_file`` (``--propensity``, with
    ``ks``) gives the propensities of PSP@k and PSnDCG@k as there.

    Returns a dict: ``n_samples``, ``n_labels``, ``labels``, ``labels_from``, ``ci``,
    ``rows`` ((measure, A, B, A - B, low, high, p)) and ``notes``.
    """
    if (scores_a is None) != (scores_b is None):
        raise LabelFileError("--scores-a/--scores-b", None, "give both, or neither")
    Y, (Pa, Pb), (Fa, Fb), names, source = read_inputs(
        truth, [pred_a, pred_b], scores=[scores_a, scores_b], **reading
    )
    params = _measure_params(beta, zero_division, convention, params)
    ks = check_cutoffs(ks, Y.shape[1])
    if propensity_file is not None and ks is None:
        raise LabelFileError(
            "--propensity", None, "the propensities of PSP@k and PSnDCG@k need --k"
        )
    if ks is not None:
        if Fa is None:
            raise LabelFileError("--k", None, "the at-k measures need --scores-a and --scores-b")
        params.setdefault("k", ks[0])  # selects the at-k measures (each run at every k)
        measures = "report,at_k" if measures is None else measures
        if Y.shape[0] >= 3:
            params.setdefault("propensity", _FROM_TRUTH)
    specs = select_measures(measures, scores=Fa is not None, params=params)
    takers = [s.name for s in specs if "propensity" in s.param_names]
    given = _propensity_reader(propensity_file, names, jain, reading)(params)
    notes = _truth_propensity(params, Y, jain, takers, given) if ks is not None else []
    runs = [r for r in _runs(specs, params, ks) if r[0].has_interval]
    rows = _comparisons(Y, (Pa, Pb), (Fa, Fb), runs, ci, show_progress)
    return {
        **_described(Y, names, source),
        "ci": dict(ci),
        "rows": rows,
        "notes": notes
        + [
            n.replace(": no interval", ": not compared, no interval")
            for n in _notes_for(_runs(specs, params, ks))
        ],
    }


def _comparisons(
    Y: Any, preds: tuple[Any, Any], scores: tuple[Any, Any], runs: list, ci: dict, show: bool
) -> list[tuple[Any, ...]]:
    """(row, A, B, A - B, low, high, p) of every run: its paired bootstrap interval and
    randomisation test."""
    (Pa, Pb), (Fa, Fb) = preds, scores
    rows = []
    for s, kw in _loop(runs, "compare", show):
        Ys = _dense_scores(Y, Fa if sp.issparse(Fb) else None) if s.inputs == "scores" else Y
        c = paired_comparison(
            s.name,
            Ys,
            _input(s, Pa, Fa),
            _input(s, Pb, Fb),
            confidence=ci["level"],
            n_resamples=ci["resamples"],
            n_permutations=ci["permutations"],
            method=ci["method"],
            random_state=ci["seed"],
            **kw,
        )
        rows.append(
            (_row(s, kw), c.estimate_a, c.estimate_b, c.difference, c.low, c.high, c.p_value)
        )
    return rows


def measure_table() -> list[dict[str, str]]:
    """The registry's table of names (``mlcbook measures``)."""
    return _R.name_table()
