"""The work behind ``mlcbook evaluate``, ``compare`` and ``measures``: read the files,
settle the labels, compute the registry's measures, their intervals and the loss
profile.

:mod:`mlcbook.cli` imports this module only when a command needs it, so that
``mlcbook --help`` starts without NumPy; this module in turn imports neither pandas
nor scikit-learn (reading a CSV file needs neither).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp

from . import metrics as _M
from . import registry as _R
from ._grids import ALPHAS
from ._labelfiles import (
    LabelFileError,
    _is_number,
    align_label_files,
    align_scores,
    inferred_labels,
    is_sparse_score_file,
    read_label_file,
    read_label_names,
    read_score_file,
    read_sparse_scores,
)
from ._progress import progress
from .extreme import JAIN_PARAMETERS, jain_propensity
from .intervals import bootstrap_interval, paired_comparison
from .losses import loss_profile

__all__ = [
    "Inputs",
    "read_inputs",
    "select_measures",
    "evaluate_files",
    "compare_files",
    "profile_params",
    "PROFILES",
    "SELECTORS",
]

#: ``--profile``: the loss profile summarised (log-spaced k and alpha), in full, or not.
PROFILES = ("summary", "full", "none")
#: Words ``--measures`` takes besides measure names.
SELECTORS = ("report", "all", *_R.KINDS, *_R.CONVENTIONS)
#: Above this many (instance, label) cells ``evaluate`` shows progress bars.
LONG_CELLS = 10**7


@dataclass
class Inputs:
    """Truth, predictions and scores on one set of labels."""

    Y: Any
    P: Any
    F: np.ndarray | None
    labels: list[str]
    source: str  # where the labels come from, said in the report


# ---------------------------------------------------------------------- reading
def _labels_option(labels: str | Sequence[str] | None) -> list[str] | None:
    """``--labels``: a file of names (one a line, or one comma-separated line), or the
    names themselves separated by commas."""
    if labels is None or not isinstance(labels, str):
        return None if labels is None else [str(x) for x in labels]
    if Path(labels).is_file():
        return read_label_names(labels)
    names = [x.strip() for x in labels.split(",")]
    if any(not x for x in names) or len(set(names)) != len(names):
        raise LabelFileError(
            "--labels",
            None,
            f"{labels!r} is not a file and not a list of distinct names separated by commas",
        )
    return names


def read_inputs(
    truth: str,
    preds: Sequence[str],
    *,
    scores: Sequence[str | None] = (),
    labels: str | Sequence[str] | None = None,
    input_format: str = "auto",
    xml: str | None = None,
    header: bool | None = None,
) -> tuple[Any, list[Any], list[np.ndarray | None], list[str], str]:
    """Read the truth, one or more prediction files and their score files on one set of
    labels.

    The labels, in this order: ``labels`` (``--labels``); the header of a matrix file;
    for label-set files, the header of a score file; else the label sets' labels in
    order of first appearance, with a :class:`~mlcbook._labelfiles.LabelsInferredWarning`
    (a label in no file is missing); matrices without a header have positional columns.
    A score file's header must name the labels (any order: its columns are put in the
    labels' order); a score file without a header is taken column by column only when
    the columns have an order (``--labels``, a matrix header, or positions), and refused
    when the labels were only named by label sets.

    Returns ``(Y, [P, ...], [F or None, ...], labels, where the labels come from)``.
    """
    t = read_label_file(truth, input_format, xml=xml, header=header)
    ps = [read_label_file(p, input_format, xml=xml, header=header) for p in preds]
    files = [t, *ps]
    for f in ps:  # before any more work: each line (row) is one instance in every file
        if f.n_samples != t.n_samples:
            raise LabelFileError(
                f.path,
                None,
                f"{f.n_samples} rows but {t.path} has {t.n_samples}: each line (row) must "
                "be the same instance in both files (an empty line is an empty label set)",
            )
    listed = [s is not None and is_sparse_score_file(s) for s in scores]
    read = [
        read_score_file(s, header=header) if s is not None and not lst else None
        for s, lst in zip(scores, listed)
    ]
    names = _labels_option(labels)
    source = "--labels"
    ordered = names is not None  # the columns of header-less score files have an order
    scores_header: str | None = None  # the score file whose header names the labels
    header_file = next((f for f in files if f.labels is not None), None)
    if names is None and header_file is not None:
        names, source, ordered = (
            list(header_file.labels or ()),
            f"the header of {header_file.path}",
            True,
        )
    elif names is None and all(f.Y is None for f in files):  # label sets only
        named = [(p, r[1]) for p, r in zip(scores, read) if r is not None and r[1] is not None]
        if named:
            names, source = list(named[0][1]), f"the header of {named[0][0]}"
            scores_header = named[0][0]
        else:
            names, source = inferred_labels(files), "the label sets, inferred"
    elif names is None and all(f.Y is not None for f in files):
        source, ordered = "column positions (no header)", True
    Y: Any = None
    Ps = []
    out_labels: list[str] = []
    for p in ps:
        try:
            Y, P, out_labels = align_label_files(t, p, names, source=source)
        except LabelFileError as exc:
            if scores_header is None:
                raise
            raise LabelFileError(
                scores_header,
                1,
                f"the header does not name the labels of the label-set files ({exc}); "
                "name them in the header, or give --labels",
            ) from None
        Ps.append(P)
    Fs: list[Any] = []
    for path, r, lst in zip(scores, read, listed):
        if lst and path is not None:  # label:score lines: columns by name
            F = read_sparse_scores(path, out_labels)
            if F.shape[0] != Y.shape[0]:
                raise LabelFileError(
                    path, None, f"{F.shape[0]} rows of scores for {Y.shape[0]} instances"
                )
            Fs.append(F)
            continue
        if r is None or path is None:
            Fs.append(None)
            continue
        F, score_names = r
        if score_names is None and not ordered:
            raise LabelFileError(
                path,
                None,
                "the score file has no header, so nothing says which column is which "
                f"label of {t.path}: add a header line naming the labels, or give "
                "--labels in the order of the score columns",
            )
        Fs.append(
            align_scores(
                F,
                score_names,
                out_labels,
                path,
                named=names is not None,
                n_samples=Y.shape[0],
            )
        )
    return Y, Ps, Fs, out_labels, source


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


def read_propensity_file(
    path: str,
    names: Sequence[str],
    jain: Sequence[float] | None,
    *,
    input_format: str = "auto",
    header: bool | None = None,
) -> tuple[np.ndarray, str]:
    """``--propensity FILE``: the propensities of the labels ``names`` and a note.

    The file holds either one propensity in (0, 1] per line, in the order of the labels
    (or ``label,propensity`` per line, any order, every label once), or the training
    labels (any layout of a truth file, on the same labels), whose frequencies give
    Jain et al.'s propensities (``jain`` = (A, B); None: 0.55, 1.5).
    """
    lines = [(i, ln.strip()) for i, ln in enumerate(_read_text_lines(path), 1) if ln.strip()]
    if not lines:
        raise LabelFileError(path, None, "the file is empty: no propensities or labels")
    K = len(names)
    fields = [[f.strip() for f in ln.replace("\t", ",").split(",")] for _, ln in lines]
    numbers = all(len(f) == 1 and _is_number(f[0]) for f in fields)
    pairs = all(len(f) == 2 and _is_number(f[1]) for f in fields)
    if numbers or pairs:
        if numbers:
            if len(lines) != K:
                raise LabelFileError(
                    path, None, f"{len(lines)} propensities for {K} labels: one per label"
                )
            p = np.array([float(f[0]) for f in fields])
        else:
            index = {str(x): j for j, x in enumerate(names)}
            p = np.full(K, np.nan)
            for (lineno, _), (name, value) in zip(lines, fields):
                if name not in index:
                    raise LabelFileError(path, lineno, f"{name!r} is not one of the labels")
                if not np.isnan(p[index[name]]):
                    raise LabelFileError(path, lineno, f"the label {name!r} is given twice")
                p[index[name]] = float(value)
            if np.isnan(p).any():
                missing = [str(names[j]) for j in np.flatnonzero(np.isnan(p))]
                raise LabelFileError(path, None, f"no propensity for the labels {missing[:6]}")
        bad = np.flatnonzero(~((p > 0.0) & (p <= 1.0)))
        if bad.size:
            raise LabelFileError(
                path,
                None,
                f"propensities must lie in (0, 1]; label {names[bad[0]]!r} has {p[bad[0]]}",
            )
        return p, f"the propensities of {path}"
    train = read_label_file(path, input_format, header=header)
    if train.Y is not None:
        if train.labels is not None and list(train.labels) != [str(x) for x in names]:
            raise LabelFileError(
                path,
                1,
                "the header names other labels than the truth's: "
                f"{list(train.labels)[:6]} vs {list(names)[:6]}",
            )
        if train.Y.shape[1] != K:
            raise LabelFileError(path, None, f"{train.Y.shape[1]} label columns for {K} labels")
        Ytr: Any = train.Y
    else:
        Ytr, _, _ = align_label_files(
            train, train, [str(x) for x in names], source="the labels of the truth"
        )
    if Ytr.shape[0] < 3:
        raise LabelFileError(
            path, None, "Jain et al.'s propensities need at least 3 training instances"
        )
    a, b = JAIN_PARAMETERS["default"] if jain is None else jain
    note = (
        f"propensities of Jain et al. (2016) with A = {a:g}, B = {b:g} from the label "
        f"frequencies of {path} ({Ytr.shape[0]} training instances)"
    )
    return jain_propensity(Ytr, a, b), note


def _read_text_lines(path: str) -> list[str]:
    try:
        return Path(path).read_text(encoding="utf-8-sig").splitlines()
    except FileNotFoundError:
        raise LabelFileError(path, None, "no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise LabelFileError(path, None, f"cannot be read: {exc}") from None


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
    labels: str | Sequence[str] | None = None,
    input_format: str = "auto",
    xml: str | None = None,
    header: bool | None = None,
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
) -> dict[str, Any]:
    """Read the files and compute the measures, their intervals and the loss profile.

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
    Y, (P,), (F,), names, source = read_inputs(
        truth,
        [pred],
        scores=[scores],
        labels=labels,
        input_format=input_format,
        xml=xml,
        header=header,
    )
    ks = check_cutoffs(ks, Y.shape[1])
    params = _measure_params(beta, zero_division, convention, params)
    if ks is not None:
        params.setdefault("k", ks[0])  # selects the at-k measures (each run at every k)
        measures = "report,at_k" if measures is None else measures
    if Y.shape[0] >= 3:  # Jain et al.'s C = (log N - 1)(B + 1)^A > 0 needs N > e
        params.setdefault("propensity", _FROM_TRUTH)
    specs = select_measures(measures, scores=F is not None, params=params)
    if ks is not None and not any(s.kind == "at_k" for s in specs):
        raise LabelFileError("--k", None, f"{measures!r} selects no at-k measure to cut")
    takers = [s.name for s in specs if "propensity" in s.param_names]
    given = None
    if propensity_file is not None:
        if "propensity" in params and params["propensity"] is not _FROM_TRUTH:
            raise LabelFileError(
                "--propensity", None, "give the propensities once: a file or --param"
            )
        given = read_propensity_file(
            propensity_file, names, jain, input_format=input_format, header=header
        )
    notes = _truth_propensity(params, Y, jain, takers, given)
    if ks is not None and Y.shape[0] < 3 and "propensity" not in params and given is None:
        notes.append(
            "psprecision_at_k, psndcg_at_k: left out (Jain et al.'s propensities need at "
            "least 3 instances of the truth; give --param propensity=[...])"
        )
    runs = _runs(specs, params, ks)
    show = show_progress and Y.shape[0] * Y.shape[1] > LONG_CELLS
    rows = []
    for s, kw in _loop(runs, "measures", show):
        Ys = _dense_scores(Y, F) if s.inputs == "scores" else Y
        rows.append((_row(s, kw), s.compute(Ys, _input(s, P, F), **kw)))
    out: dict[str, Any] = {
        "n_samples": int(Y.shape[0]),
        "n_labels": int(Y.shape[1]),
        "labels": [str(x) for x in names],
        "labels_from": source,
        "measures": rows,
        "profile": _profile(Y, P, profile),
        "notes": notes,
    }
    if per_label:
        out["per_label"] = per_label_rows(Y, P, F, names, zero_division)
    if ci is not None:
        ints = []
        for s, kw in _loop([r for r in runs if r[0].has_interval], "bootstrap", show_progress):
            Ys = _dense_scores(Y, F) if s.inputs == "scores" else Y
            res = bootstrap_interval(
                s.name,
                Ys,
                _input(s, P, F),
                confidence=ci["level"],
                n_resamples=ci["resamples"],
                method=ci["method"],
                random_state=ci["seed"],
                **kw,
            )
            ints.append((_row(s, kw), res.low, res.high))
        out["intervals"] = ints
        out["ci"] = dict(ci)
        out["notes"] = (
            notes
            + _notes_for(runs)
            + [
                f"{r}: interval undefined (the measure is undefined on the resamples)"
                for r, lo, hi in ints
                if math.isnan(lo) or math.isnan(hi)
            ]
        )
    return out


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
    labels: str | Sequence[str] | None = None,
    input_format: str = "auto",
    xml: str | None = None,
    header: bool | None = None,
    ks: Sequence[int] | None = None,
    jain: Sequence[float] | None = None,
    zero_division: Any = None,
    beta: float = 1.0,
    convention: str = "mlcbook",
    measures: str | Sequence[str] | None = None,
    params: dict[str, Any] | None = None,
    ci: dict[str, Any],
    show_progress: bool = False,
) -> dict[str, Any]:
    """Score two prediction files on one truth, measure by measure: both values, the
    difference, its paired bootstrap interval and the randomisation test's p-value, for
    every selected measure that has an interval (the others are named in ``notes``).

    Returns a dict: ``n_samples``, ``n_labels``, ``labels``, ``labels_from``, ``ci``,
    ``rows`` ((measure, A, B, A - B, low, high, p)) and ``notes``.
    """
    if (scores_a is None) != (scores_b is None):
        raise LabelFileError("--scores-a/--scores-b", None, "give both, or neither")
    Y, (Pa, Pb), (Fa, Fb), names, source = read_inputs(
        truth,
        [pred_a, pred_b],
        scores=[scores_a, scores_b],
        labels=labels,
        input_format=input_format,
        xml=xml,
        header=header,
    )
    params = _measure_params(beta, zero_division, convention, params)
    ks = check_cutoffs(ks, Y.shape[1])
    if ks is not None:
        if Fa is None:
            raise LabelFileError("--k", None, "the at-k measures need --scores-a and --scores-b")
        params.setdefault("k", ks[0])  # selects the at-k measures (each run at every k)
        measures = "report,at_k" if measures is None else measures
        if Y.shape[0] >= 3:
            params.setdefault("propensity", _FROM_TRUTH)
    specs = select_measures(measures, scores=Fa is not None, params=params)
    takers = [s.name for s in specs if "propensity" in s.param_names]
    notes = _truth_propensity(params, Y, jain, takers) if ks is not None else []
    rows = []
    runs = [r for r in _runs(specs, params, ks) if r[0].has_interval]
    for s, kw in _loop(runs, "compare", show_progress):
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
    return {
        "n_samples": int(Y.shape[0]),
        "n_labels": int(Y.shape[1]),
        "labels": [str(x) for x in names],
        "labels_from": source,
        "ci": dict(ci),
        "rows": rows,
        "notes": notes
        + [
            n.replace(": no interval", ": not compared, no interval")
            for n in _notes_for(_runs(specs, params, ks))
        ],
    }


def measure_table() -> list[dict[str, str]]:
    """The registry's table of names (``mlcbook measures``)."""
    return _R.name_table()
