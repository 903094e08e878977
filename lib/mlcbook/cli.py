"""The ``mlcbook`` command line: evaluate and compare predictions in files; measures;
datasets.

::

    mlcbook evaluate TRUTH PRED [--scores FILE] [--labels FILE|NAMES]
                                [--measures report|all|NAMES|GROUPS]
                                [--profile summary|full|none]
                                [--format text|csv|json|markdown] [--digits N]
                                [--beta B] [--zero-division Z] [--convention C]
                                [--ci LEVEL [--resamples N] [--ci-method BCa|percentile]
                                 [--seed S]] [--plot FILE.png]
                                [--format-in auto|matrix|labelsets|json|comma|space|arff]
                                [--header|--no-header] [--xml FILE]
                                [--k K1,K2,... [--propensity-ab A,B]] [--per-label]
    mlcbook compare TRUTH PRED_A PRED_B [--scores-a FILE --scores-b FILE] [--ci LEVEL]
                                [--resamples N] [--permutations N] [--seed S]
                                [--k K1,K2,... [--propensity-ab A,B]] ...
    mlcbook measures [--format ...]
    mlcbook datasets list
    mlcbook datasets fetch NAME [--subset all|train|test]
    mlcbook datasets stats NAME [--subset all|train|test]

``mlcbook --version`` prints the library's version.  ``python -m mlcbook ...`` is the
same.  ``evaluate`` reads the truth and the predictions
(0/1 matrices as CSV/TSV with or without a header, label-set lists, JSON, MEKA/MULAN
ARFF: see :mod:`mlcbook.datasets.labelfiles`) and prints the measures of the registry
(:mod:`mlcbook.registry`; ``--measures``: by default the book's report, with the ranking
measures and AUCs when a score file is given) and a summary of the binomial (k = 1..K,
eq. 18 of Hüllermeier et al. 2022) and polynomial (eq. 17) loss profiles of the
predictions: about ten log-spaced k and seven alpha from 1 to 1000 (``--profile full``:
every k and the book's 25-point alpha grid).  ``--ci 0.95`` adds a bootstrap confidence
interval to every measure that has one (:mod:`mlcbook.intervals`; seeded, so the same
run prints the same interval) and a note on why the others have none.  ``--per-label``
adds each label's support, precision, recall, F1 (and AUC with scores): the values the
macro averages average.  ``--k 1,3,5``
adds the extreme-classification measures (:mod:`mlcbook.extreme`: P@k, R@k, nDCG@k,
PSP@k, PSnDCG@k, coverage@k) of the scores at each cut-off; the propensity-scored ones
use Jain et al.'s propensities (``--propensity-ab``, default A = 0.55, B = 1.5) computed
from the label frequencies of the truth file, as
:func:`mlcbook.extreme.jain_propensity` does (the files hold no training labels; give
others with ``--param propensity=[...]``).  ``compare``
scores two prediction files on one truth: both values, their difference with its paired
bootstrap interval and the randomisation test's p-value.  ``measures`` prints the table
of every measure name: kind, input, direction, parameters, convention, what it equals.

The labels: ``--labels`` (a file, one name a line, or the names separated by commas),
else a header line of a matrix file, else the header of the score file, else the labels
seen in label-set files, with a warning (a label in neither file is missing).  Nothing
is sorted; a score file's header must name the labels (refused otherwise, with the file
and line).

Text and Markdown print every number (parameters included) to ``--digits`` significant
digits (default 4); CSV and JSON print every value in full (shortest round-trip form), so
the Hivemall example's micro F1 reads 0.6956521739130435 there.

Warnings go to standard error as ``mlcbook: warning: ...``; progress bars only when
standard error is a terminal (``MLCBOOK_PROGRESS=1`` always, ``0`` never).

Exit status: 0 on success, 2 for a usage or input error (the message names the file and
line), 1 when a dataset cannot be obtained, the cache or the output cannot be written.

The commands' work is imported when a command runs (``mlcbook --help`` imports no
NumPy): ``mlcbook._evaluation``, :mod:`mlcbook.datasets`, the plots.
"""

from __future__ import annotations

import argparse
import csv
import importlib
import io
import json
import math
import os
import sys
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from . import __version__

__all__ = [
    "main",
    "build_parser",
    "evaluate_files",
    "compare_files",
    "format_report",
    "format_comparison",
    "FORMATS",
]

FORMATS = ("text", "csv", "json", "markdown")
_PLOT_SUFFIXES = (".png", ".pdf", ".svg")
_PROFILES = ("summary", "full", "none")

#: The environment variables the command line reads (listed by ``--help``).
ENVIRONMENT = (
    (
        "MLCBOOK_PROGRESS",
        "1: always show progress bars, 0: never (default: only when standard error is a terminal)",
    ),
    (
        "MLCBOOK_DATA",
        "the data home: downloaded datasets and parsed caches (default "
        "$XDG_CACHE_HOME/mlcbook, i.e. ~/.cache/mlcbook)",
    ),
    ("MLCBOOK_DATA_MIRROR", "a folder with copies of the dataset files, read before downloading"),
    ("MLCBOOK_DATA_DOWNLOAD", "0: never download a dataset (default 1)"),
    ("XDG_CACHE_HOME", "the per-user cache folder under which the data home lies"),
)


class UsageError(Exception):
    """A usage or input error: printed as ``mlcbook: error: ...``, exit status 2."""


def _work() -> Any:
    """The commands' module (NumPy, the measures, the file readers), imported when a
    command runs: ``mlcbook --help`` and argument errors do without it."""
    return importlib.import_module("mlcbook._evaluation")


def _datasets() -> Any:
    """:mod:`mlcbook.datasets` (pandas), imported by the ``datasets`` command only."""
    return importlib.import_module("mlcbook.datasets")


def _plots() -> Any:
    """The loss-profile figure (matplotlib), imported by ``--plot`` only."""
    return importlib.import_module("mlcbook.plots.losses")


# ------------------------------------------------------------------------- commands
def evaluate_files(truth: str, pred: str, **options: Any) -> dict[str, Any]:
    """Read the files and compute the measures, their intervals and the loss profile.

    Options (all keyword): ``scores``, ``labels``, ``input_format``, ``xml``,
    ``zero_division`` (None: each measure's own), ``beta``, ``convention``, ``params``
    (other parameters of the measures that take them, e.g. ``{"k": 3}``),
    ``measures`` (None: the report), ``profile`` (``"summary"``, ``"full"``,
    ``"none"``), ``ci`` (``{"level": 0.95, "resamples": 9999, "method": "BCa", "seed":
    0}`` adds bootstrap intervals), ``show_progress``.

    Returns
    -------
    dict
        ``n_samples``, ``n_labels``, ``labels``, ``labels_from``, ``measures`` (list of
        (name, value)), ``profile`` (list of (family, parameter, mean loss)), ``notes``
        and, with ``ci``, ``intervals`` (list of (name, low, high)) and ``ci``.
    """
    return _work().evaluate_files(truth, pred, **options)


def compare_files(truth: str, pred_a: str, pred_b: str, **options: Any) -> dict[str, Any]:
    """Score two prediction files on one truth and compare them, measure by measure.

    Options as :func:`evaluate_files` (``scores_a``, ``scores_b`` for the scores), and
    ``ci`` also takes ``permutations``.

    Returns
    -------
    dict
        ``n_samples``, ``n_labels``, ``labels``, ``labels_from``, ``ci``, ``notes`` and
        ``rows``: (measure, value of A, value of B, A - B, low, high, p-value) for every
        selected measure that has an interval.
    """
    ci = dict(_DEFAULT_CI, **(options.pop("ci", None) or {}))
    return _work().compare_files(truth, pred_a, pred_b, ci=ci, **options)


_DEFAULT_CI: dict[str, Any] = {
    "level": 0.95,
    "resamples": 9999,
    "permutations": 9999,
    "method": "BCa",
    "seed": 0,
}


# ------------------------------------------------------------------------- output
def _num(v: float) -> str:
    """Shortest text that reads back as the same float (``repr``); 'nan', 'inf'."""
    return repr(float(v)) if math.isfinite(v) else str(float(v))


def _short(v: float, digits: int | None) -> str:
    """``digits`` significant digits (None: in full, :func:`_num`)."""
    if digits is None or not math.isfinite(v):
        return _num(v)
    return f"{float(v):.{digits}g}"


def _param(family: str, v: float, digits: int | None) -> str:
    return str(int(v)) if family == "binomial" else _short(v, digits)


def _text_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [
        max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(header)
    ]
    out = [
        "  ".join(h.ljust(w) for h, w in zip(header, widths)).rstrip(),
        "  ".join("-" * w for w in widths),
    ]
    out += ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    return "\n".join(out)


def _markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    out = [
        "| " + " | ".join(header) + " |",
        "|" + "|".join("---" for _ in header) + "|",
    ]
    out += ["| " + " | ".join(c.replace("|", "\\|") for c in r) + " |" for r in rows]
    return "\n".join(out)


def _json_value(v: float) -> float | None:
    return float(v) if math.isfinite(v) else None  # JSON has no NaN: null


def _title(res: dict[str, Any]) -> str:
    return (
        f"{res['n_samples']} instances, {res['n_labels']} labels (from "
        f"{res.get('labels_from', 'the files')}): "
        + ", ".join(res["labels"][:20])
        + (" ..." if res["n_labels"] > 20 else "")
    )


def _why(notes: Sequence[str]) -> dict[str, str]:
    """``{measure: reason}`` of the notes ``"measure: reason"``."""
    return dict(n.split(": ", 1) for n in notes if ": " in n)


def format_report(res: dict[str, Any], fmt: str, digits: int | None = 4) -> str:
    """The result of :func:`evaluate_files` as text, CSV, JSON or Markdown.

    Text and Markdown round every number to ``digits`` significant digits; CSV and JSON
    are exact.
    """
    full = fmt in ("csv", "json")
    d = None if full else digits
    ints = {n: (lo, hi) for n, lo, hi in res.get("intervals", [])}
    notes = list(res.get("notes", []))
    why = _why(notes)
    meas = [(n, _short(v, d)) for n, v in res["measures"]]
    prof = [(f, _param(f, p, d), _short(v, d)) for f, p, v in res["profile"]]
    level = res.get("ci", {}).get("level")
    if fmt == "json":
        obj: dict[str, Any] = {
            "n_samples": res["n_samples"],
            "n_labels": res["n_labels"],
            "labels": res["labels"],
            "labels_from": res.get("labels_from"),
            "measures": {n: _json_value(v) for n, v in res["measures"]},
            "profile": {
                fam: {
                    "param": [p for f, p, _ in res["profile"] if f == fam],
                    "loss": [_json_value(v) for f, _, v in res["profile"] if f == fam],
                }
                for fam in ("binomial", "polynomial")
            },
        }
        if "ci" in res:
            obj["intervals"] = {
                n: {"low": _json_value(lo), "high": _json_value(hi)}
                for n, (lo, hi) in ints.items()
            }
            obj["ci"] = res["ci"]
        if notes:
            obj["notes"] = notes
        if "per_label" in res:
            obj["per_label"] = {
                r[0]: dict(zip(_PER_LABEL_HEAD[1:], [r[1], *(_json_value(v) for v in r[2:])]))
                for r in res["per_label"]
            }
        return json.dumps(obj, indent=2, allow_nan=False)
    with_ci = "ci" in res
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        head = ["table", "name", "param", "value"] + (["low", "high", "note"] if with_ci else [])
        w.writerow(head)
        for n, v in meas:
            extra = (
                [*(_num(x) for x in ints[n]), why.get(n, "")]
                if n in ints
                else ["", "", why.get(n, "")]
                if with_ci
                else []
            )
            w.writerow(["measure", n, "", v, *extra])
        w.writerows(
            ["profile", f"{f}_loss", p, v, *([""] * 3 if with_ci else [])] for f, p, v in prof
        )
        for r in res.get("per_label", []):
            w.writerows(
                ["per_label", m, r[0], str(v) if m == "support" else _num(v)]
                + ([""] * 3 if with_ci else [])
                for m, v in zip(_PER_LABEL_HEAD[1:], r[1:])
            )
        return buf.getvalue().rstrip("\n")
    if with_ci:
        head = ["measure", "value", f"{level:g} CI low", "high"]
        mrows = [
            [n, v, *(_short(x, d) for x in ints[n])] if n in ints else [n, v, "-", "-"]
            for n, v in meas
        ]
    else:
        head = ["measure", "value"]
        mrows = [[n, v] for n, v in meas]
    table = _markdown_table if fmt == "markdown" else _text_table
    parts = [f"**{_title(res)}**" if fmt == "markdown" else _title(res), table(head, mrows)]
    if with_ci:
        ci = res["ci"]
        parts.append(
            f"{ci['method']} bootstrap intervals over instances, {ci['resamples']} "
            f"resamples, seed {ci['seed']}"
        )
    if notes:
        parts.append("notes:\n" + "\n".join(f"  {n}" for n in notes))
    if prof:
        parts += [
            "loss profiles of the predictions (binomial k, polynomial alpha)",
            table(["family", "param", "mean loss"], prof),
        ]
    if "per_label" in res:
        rows = res["per_label"]
        head = list(_PER_LABEL_HEAD[: len(rows[0])]) if rows else list(_PER_LABEL_HEAD[:5])
        parts += [
            "per label (the values the macro averages average)",
            table(head, [[r[0], str(r[1]), *(_short(v, d) for v in r[2:])] for r in rows]),
        ]
    return "\n\n".join(parts)


_PER_LABEL_HEAD = ("label", "support", "precision", "recall", "f1", "auc")


def format_comparison(res: dict[str, Any], fmt: str, digits: int | None = 4) -> str:
    """The result of :func:`compare_files` as text, CSV, JSON or Markdown."""
    head = ["measure", "A", "B", "A - B", "low", "high", "p"]
    notes = list(res.get("notes", []))
    if fmt == "json":
        obj: dict[str, Any] = {
            "n_samples": res["n_samples"],
            "n_labels": res["n_labels"],
            "labels": res["labels"],
            "labels_from": res.get("labels_from"),
            "ci": res["ci"],
            "comparison": {
                r[0]: dict(
                    zip(
                        ["a", "b", "difference", "low", "high", "p_value"],
                        [_json_value(x) for x in r[1:]],
                    )
                )
                for r in res["rows"]
            },
        }
        if notes:
            obj["notes"] = notes
        return json.dumps(obj, indent=2, allow_nan=False)
    full = fmt == "csv"
    rows = [[r[0], *(_short(x, None if full else digits) for x in r[1:])] for r in res["rows"]]
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["measure", "a", "b", "difference", "low", "high", "p_value"])
        w.writerows(rows)
        return buf.getvalue().rstrip("\n")
    ci = res["ci"]
    note = (
        f"{res['n_samples']} instances, {res['n_labels']} labels (from "
        f"{res.get('labels_from', 'the files')}); A - B with its "
        f"{ci['level']:g} {ci['method']} paired bootstrap interval ({ci['resamples']} "
        f"resamples) and the two-sided randomisation test's p ({ci['permutations']} "
        f"swaps), seed {ci['seed']}"
    )
    tail = ("\n\nnotes:\n" + "\n".join(f"  {n}" for n in notes)) if notes else ""
    if fmt == "markdown":
        return f"**{note}**\n\n" + _markdown_table(head, rows) + tail
    return note + "\n\n" + _text_table(head, rows) + tail


def _check_plot_path(path: str) -> Path:
    p = Path(path)
    if p.suffix.lower() not in _PLOT_SUFFIXES:
        raise UsageError(
            f"--plot {path}: the file name must end in one of {', '.join(_PLOT_SUFFIXES)}"
        )
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise UsageError(f"--plot {path}: the folder {parent} does not exist")
    if p.is_dir():
        raise UsageError(f"--plot {path}: that is a folder, not a file name")
    return p


def _plot(res: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    families = [f for f in ("binomial", "polynomial") if any(r[0] == f for r in res["profile"])]
    if not families:
        raise UsageError("--plot needs the loss profile: not with --profile none")
    fig, axes = plt.subplots(1, len(families), figsize=(4.5 * len(families), 3.6), squeeze=False)
    for ax, fam in zip(axes[0], families):
        params = [p for f, p, _ in res["profile"] if f == fam]
        vals = [v for f, _, v in res["profile"] if f == fam]
        xlabel = "k" if fam == "binomial" else "alpha"
        _plots().plot_loss_profiles(params, {"predictions": vals}, xlabel=xlabel, ax=ax)
        ax.set_title(f"{fam} loss")
        if fam == "polynomial":
            ax.set_xscale("log")
    fig.tight_layout()
    try:
        fig.savefig(path)
    except OSError as exc:
        raise UsageError(f"--plot {path}: cannot write the figure: {exc.strerror}") from None
    finally:
        plt.close(fig)


def _ci_options(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "level": args.ci if args.ci is not None else 0.95,
        "resamples": args.resamples,
        "permutations": getattr(args, "permutations", _DEFAULT_CI["permutations"]),
        "method": args.ci_method,
        "seed": args.seed,
    }


def _show_progress() -> bool:
    """Progress bars: ``MLCBOOK_PROGRESS`` 1 (always) or 0 (never); unset, only when
    standard error is a terminal (not when it goes to a file or a pipe)."""
    env = os.environ.get("MLCBOOK_PROGRESS")
    if env is not None:
        return env != "0"
    stream = sys.stderr
    return stream is not None and hasattr(stream, "isatty") and stream.isatty()


def _common_options(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "labels": args.labels,
        "input_format": args.input_format,
        "xml": args.xml,
        "header": args.header,
        "zero_division": args.zero_division,
        "beta": args.beta,
        "convention": args.convention,
        "measures": args.measures,
        "params": dict(args.param),
        "show_progress": _show_progress(),
    }


def _cmd_evaluate(args: argparse.Namespace) -> str:
    plot = _check_plot_path(args.plot) if args.plot else None  # before any work
    if plot is not None and args.profile == "none":
        raise UsageError("--plot draws the loss profile: not with --profile none")
    if args.k is not None and args.scores is None:
        raise UsageError("--k cuts the ranking of the scores: give the score file (--scores)")
    res = evaluate_files(
        args.truth,
        args.pred,
        scores=args.scores,
        profile=args.profile,
        ci=_ci_options(args) if args.ci is not None else None,
        ks=args.k,
        jain=args.propensity_ab,
        per_label=args.per_label,
        propensity_file=args.propensity,
        **_common_options(args),
    )
    if plot is not None:
        _plot(res, plot)
    return format_report(res, args.format, args.digits)


def _cmd_compare(args: argparse.Namespace) -> str:
    res = compare_files(
        args.truth,
        args.pred_a,
        args.pred_b,
        scores_a=args.scores_a,
        scores_b=args.scores_b,
        ci=_ci_options(args),
        ks=args.k,
        jain=args.propensity_ab,
        **_common_options(args),
    )
    return format_comparison(res, args.format, args.digits)


def _cmd_measures(args: argparse.Namespace) -> str:
    rows = _work().measure_table()
    head = list(rows[0]) if rows else []
    if args.format == "text":
        head = ["name", "kind", "inputs", "better", "parameters", "convention", "equals"]
    return _table(head, [[r[h] for h in head] for r in rows], args.format)


# ------------------------------------------------------------------------- datasets
def _table(header: list[str], rows: list[list[str]], fmt: str) -> str:
    if fmt == "json":
        return json.dumps([dict(zip(header, r)) for r in rows], indent=2)
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)
        return buf.getvalue().rstrip("\n")
    if fmt == "markdown":
        return _markdown_table(header, rows)
    return _text_table(header, rows)


def _cmd_datasets(args: argparse.Namespace) -> str:
    ds = _datasets()
    if args.action == "list":
        rows = []
        for name in ds.list_datasets():
            s = ds.get_spec(name)
            rows.append(
                [
                    name,
                    str(s.n_labels),
                    "yes" if s.available else "no",
                    " ".join(s.subsets) if s.available else "-",
                ]
            )
        return _table(["name", "labels", "available", "subsets"], rows, args.format)
    if args.name is None:
        raise UsageError(
            f"datasets {args.action} needs a dataset NAME (see: mlcbook datasets list)"
        )
    if args.action == "fetch":
        X, Y, info = ds.load_dataset(args.name, args.subset)
        rows = [[f, info.source.get(f, "parsed-cache"), info.sha256[f]] for f in info.files]
        head = (
            f"{info.name} ({info.subset}): {X.shape[0]} instances, {X.shape[1]} "
            f"features{' (sparse)' if info.sparse else ''}, {Y.shape[1]} labels"
        )
        body = _table(["file", "source", "sha256"], rows, args.format)
        return body if args.format in ("json", "csv") else head + "\n\n" + body
    table = ds.dataset_statistics(args.name, subset=args.subset)
    header = ["dataset"] + [str(c) for c in table.columns]
    exact = args.format in ("json", "csv")
    rows = [
        [str(idx)]
        + [_short(v, None if exact else 4) if isinstance(v, float) else str(v) for v in row]
        for idx, row in zip(table.index, table.itertuples(index=False))
    ]
    return _table(header, rows, args.format)


# ------------------------------------------------------------------------- parser
def _parsed(text: str, kind: Callable[[str], Any], what: str) -> Any:
    """``kind(text)``, or the argument error "not WHAT: 'TEXT'" that argparse reports."""
    try:
        return kind(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not {what}: {text!r}") from None


def _zero_division(text: str) -> Any:
    if text == "warn":
        return text
    v = _parsed(text, float, "a number, nan or 'warn'")
    if not (math.isnan(v) or 0.0 <= v <= 1.0):
        raise argparse.ArgumentTypeError(f"must lie in [0, 1] or be nan, got {text}")
    return v


def _positive_real(text: str) -> float:
    v = _parsed(text, float, "a number")
    if not (math.isfinite(v) and 0.0 < v <= 1e100):
        raise argparse.ArgumentTypeError(f"must be a positive finite number, got {text}")
    return v


def _name_value(text: str) -> tuple[str, Any]:
    """``--param NAME=VALUE``: VALUE read as JSON (3, 2.5, [0.5, 0.5], "x"), else as text."""
    name, sep, value = text.partition("=")
    if not sep or not name.isidentifier():
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, e.g. k=3; got {text!r}")
    if name in ("beta", "zero_division", "convention"):
        raise argparse.ArgumentTypeError(f"use --{name.replace('_', '-')} for {name}")
    try:
        return name, json.loads(value)
    except json.JSONDecodeError:
        return name, value


def _cutoffs(text: str) -> list[int]:
    """``--k 1,3,5``: positive integers separated by commas (at most K is checked once
    the files are read)."""
    out = []
    for word in text.split(","):
        k = _parsed(word.strip(), int, "an integer")
        if k < 1:
            raise argparse.ArgumentTypeError(f"each cut-off must be a positive integer, got {k}")
        out.append(k)
    return out


def _jain_ab(text: str) -> tuple[float, float]:
    """``--propensity-ab A,B``: Jain et al.'s A >= 0 and B > 0."""
    parts = text.split(",")
    if len(parts) != 2:
        raise argparse.ArgumentTypeError(f"expected A,B, e.g. 0.55,1.5; got {text!r}")
    a, b = (_parsed(x.strip(), float, "a number") for x in parts)
    if not (math.isfinite(a) and math.isfinite(b) and a >= 0.0 and b > 0.0):
        raise argparse.ArgumentTypeError(f"A must be >= 0 and B > 0 (finite), got {text!r}")
    return a, b


def _level(text: str) -> float:
    v = _parsed(text, float, "a number")
    if not 0.0 < v < 1.0:
        raise argparse.ArgumentTypeError(f"a confidence level in (0, 1), e.g. 0.95; got {text}")
    return v


def _int_in(low: int, high: int) -> Any:
    def parse(text: str) -> int:
        v = _parsed(text, int, "an integer")
        if not low <= v <= high:
            raise argparse.ArgumentTypeError(f"must lie in [{low}, {high}], got {text}")
        return v

    return parse


def _add_common(p: argparse.ArgumentParser, *, ci_flag: bool) -> None:
    p.add_argument(
        "--labels",
        metavar="FILE|NAMES",
        help="the labels, in the order of the columns: a file (one name a line, or one "
        "line of names separated by commas) or the names separated by commas; default: "
        "a header line, else the score file's header, else the labels seen (a warning)",
    )
    p.add_argument(
        "--measures",
        metavar="NAMES",
        help="comma-separated measure names (see: mlcbook measures) or groups: report "
        "(default), all, classification, ranking, at_k, loss, scikit-learn, mlcbook, "
        "wu_zhou, zhang_zhou, hullermeier, extreme",
    )
    p.add_argument(
        "--param",
        type=_name_value,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a parameter of the measures that take it, e.g. k=3 (binomial_loss), "
        "alpha=2, w=[0.5,0.3,0.2] (a JSON value); repeatable",
    )
    p.add_argument(
        "--format-in",
        "--input-format",
        dest="input_format",
        choices=("auto", "matrix", "labelsets", "json", "comma", "space", "xc", "arff"),
        default="auto",
        help="layout of the label files (default: auto, found from the whole file): a "
        "0/1 matrix, label sets one instance a line (labelsets: their layout found from "
        "every line; json, comma or space: given), or ARFF",
    )
    p.add_argument(
        "--header",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="whether the first line of each matrix and score file names the labels "
        "(default: when its fields are not all numbers, or are pandas' 0,1,...,K-1)",
    )
    p.add_argument("--xml", metavar="FILE", help="MULAN label file for ARFF input")
    p.add_argument(
        "--zero-division",
        type=_zero_division,
        default=None,
        metavar="Z",
        help="value of a precision/recall/F/Jaccard with a zero denominator: a number in "
        "[0, 1], nan (left out of averages) or warn (0 and a warning); default: each "
        "measure's own (1 for the book's names, scikit-learn's warn for its names)",
    )
    p.add_argument(
        "--beta",
        type=_positive_real,
        default=1.0,
        metavar="B",
        help="F-beta instead of F1 in the book's F measures: recall weighs B times "
        "precision (default 1)",
    )
    p.add_argument(
        "--convention",
        choices=("mlcbook", "wu_zhou"),
        default="mlcbook",
        help="ranking measures and AUCs as scikit-learn (mlcbook, default) or as Wu & "
        "Zhou's MATLAB code (wu_zhou)",
    )
    p.add_argument("--format", choices=FORMATS, default="text")
    p.add_argument(
        "--digits",
        type=_int_in(1, 17),
        default=4,
        metavar="N",
        help="significant digits of every number in text and markdown (default 4; csv/json: all)",
    )
    if ci_flag:
        p.add_argument(
            "--ci",
            type=_level,
            metavar="LEVEL",
            help="add bootstrap confidence intervals at this level, e.g. 0.95",
        )
    else:
        p.add_argument(
            "--ci",
            type=_level,
            default=0.95,
            metavar="LEVEL",
            help="level of the interval of the difference (default 0.95)",
        )
    p.add_argument(
        "--resamples",
        type=_int_in(1, 10**7),
        default=9999,
        metavar="N",
        help="bootstrap resamples (default 9999)",
    )
    p.add_argument("--ci-method", choices=("BCa", "percentile"), default="BCa")
    p.add_argument(
        "--seed",
        type=_int_in(0, 2**63 - 1),
        default=0,
        metavar="S",
        help="seed of the resampling (default 0: the same run prints the same)",
    )


def _epilog() -> str:
    width = max(len(name) for name, _ in ENVIRONMENT)
    return "environment variables:\n" + "\n".join(
        f"  {name.ljust(width)}  {text}" for name, text in ENVIRONMENT
    )


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (argparse only: nothing is computed while parsing)."""
    fmt = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(
        prog="mlcbook",
        description="Multi-label evaluation on the command line (mlcbook library).",
        epilog=_epilog(),
        formatter_class=fmt,
    )
    parser.add_argument("--version", action="version", version=f"mlcbook {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    ev = sub.add_parser(
        "evaluate",
        help="the measures and the loss profiles of predictions in files",
        description="Read the truth and the predictions (and optionally scores), "
        "print the measures (--measures; see: mlcbook measures) and a summary of the "
        "binomial/polynomial loss profiles.",
        epilog=_epilog(),
        formatter_class=fmt,
    )
    ev.add_argument("truth", help="true labels: CSV/TSV 0/1 matrix, label-set list or ARFF")
    ev.add_argument("pred", help="predicted labels, same layout and instance order")
    ev.add_argument(
        "--scores",
        metavar="FILE",
        help="real-valued scores for the ranking measures: a CSV/TSV matrix (a header "
        "naming the labels), or label:score pairs a line (top-k or sparse scores; the "
        "labels not listed rank below the listed ones)",
    )
    ev.add_argument(
        "--profile",
        choices=_PROFILES,
        default="summary",
        help="the loss profiles: about ten log-spaced k and seven alpha (summary, "
        "default), every k and the 25-point alpha grid (full), or none",
    )
    _add_common(ev, ci_flag=True)
    ev.add_argument(
        "--k",
        type=_cutoffs,
        metavar="K1,K2,...",
        help="cut-offs of the at-k measures (P@k, R@k, nDCG@k, PSP@k, PSnDCG@k, "
        "coverage@k), e.g. 1,3,5: each evaluated at every one (integers in 1..K; "
        "needs --scores; added to the report unless --measures is given; "
        "binomial_loss keeps --param k)",
    )
    ev.add_argument(
        "--propensity-ab",
        type=_jain_ab,
        metavar="A,B",
        help="Jain et al.'s (2016) A,B of the propensities of PSP@k and PSnDCG@k "
        "(default 0.55,1.5; Wikipedia 0.5,0.4; Amazon 0.6,2.6), computed from the label "
        "frequencies of TRUTH as mlcbook.extreme.jain_propensity does (the files hold "
        "no training labels; --param propensity=[...] gives others)",
    )
    ev.add_argument(
        "--propensity",
        metavar="FILE",
        help="the propensities of PSP@k and PSnDCG@k: a file of the training labels "
        "(any layout of TRUTH, on its labels: Jain et al.'s propensities from their "
        "frequencies, with --propensity-ab) or of one propensity per label (a number a "
        "line in label order, or label,propensity lines); default: from TRUTH",
    )
    ev.add_argument(
        "--per-label",
        action="store_true",
        help="also print each label's support, precision, recall, F1 (and AUC with "
        "--scores): the values the macro averages average (zero division: "
        "--zero-division, default 1)",
    )
    ev.add_argument(
        "--plot",
        metavar="FILE.png",
        help="also draw the loss profiles into this figure (.png/.pdf/.svg)",
    )
    ev.set_defaults(run=_cmd_evaluate)

    co = sub.add_parser(
        "compare",
        help="compare two prediction files on one truth (paired tests)",
        description="Score PRED_A and PRED_B against TRUTH: both values of every "
        "measure that has an interval, A - B with its paired bootstrap interval, and "
        "the p-value of a randomisation test that swaps the two systems on random "
        "instances.",
        epilog=_epilog(),
        formatter_class=fmt,
    )
    co.add_argument("truth", help="true labels")
    co.add_argument("pred_a", help="predictions of system A")
    co.add_argument("pred_b", help="predictions of system B")
    co.add_argument("--scores-a", metavar="FILE", help="scores of A (ranking measures)")
    co.add_argument("--scores-b", metavar="FILE", help="scores of B")
    co.add_argument(
        "--permutations",
        type=_int_in(1, 10**7),
        default=9999,
        metavar="N",
        help="random swaps of the randomisation test (default 9999)",
    )
    _add_common(co, ci_flag=False)
    co.add_argument(
        "--k",
        type=_cutoffs,
        metavar="K1,K2,...",
        help="cut-offs of the at-k measures, compared at each (needs --scores-a and "
        "--scores-b; propensities of Jain et al. from TRUTH, --propensity-ab)",
    )
    co.add_argument(
        "--propensity-ab",
        type=_jain_ab,
        metavar="A,B",
        help="Jain et al.'s A,B of the propensities of PSP@k and PSnDCG@k (default 0.55,1.5)",
    )
    co.set_defaults(run=_cmd_compare)

    me = sub.add_parser(
        "measures",
        help="every measure name: kind, input, direction, parameters, convention",
        description="The registry of measures: each name, what it needs, whether "
        "greater is better, its parameters, whose convention it follows and what it "
        "equals (scikit-learn's names give scikit-learn's values).",
    )
    me.add_argument("--format", choices=FORMATS, default="text")
    me.set_defaults(run=_cmd_measures)

    da = sub.add_parser(
        "datasets",
        help="the registered benchmark datasets",
        description="List, fetch (verified, cached) or describe datasets.",
        epilog=_epilog(),
        formatter_class=fmt,
    )
    da.add_argument("action", choices=("list", "fetch", "stats"))
    da.add_argument("name", nargs="?", help="dataset name (fetch, stats)")
    da.add_argument("--subset", choices=("all", "train", "test"), default="all")
    da.add_argument("--format", choices=FORMATS, default="text")
    da.set_defaults(run=_cmd_datasets)
    return parser


# ------------------------------------------------------------------------- running
def _fail(exc: BaseException, status: int) -> int:
    print(f"mlcbook: error: {exc}", file=sys.stderr)
    return status


def _status(exc: BaseException) -> int | None:
    """The exit status of an error: 2 for the user's input, 1 for data that cannot be
    obtained or written; None for a bug (it propagates)."""
    if isinstance(exc, UsageError):
        return 2
    ds = sys.modules.get("mlcbook.datasets")  # its errors exist only once it is loaded
    if ds is not None:
        if isinstance(exc, (ds.DatasetFormatError, ds.UnknownDatasetError)):
            return 2  # the user's input is wrong
        if isinstance(exc, (ds.DatasetError, ds.DatasetUnavailableError)):
            return 1  # data not obtainable (network, checksum, cache)
    if isinstance(exc, (ValueError, TypeError)):
        return 2  # input rejected by the library's validation
    if isinstance(exc, OSError):
        return 1
    return None


def _show_warning(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: Any = None,
    line: str | None = None,
) -> None:
    print(f"mlcbook: warning: {message}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0, 1 or 2)."""
    parser = build_parser()
    args = parser.parse_args(argv)  # exits with status 2 on a usage error
    with warnings.catch_warnings():
        warnings.simplefilter("default")  # each warning once per place, not silenced
        warnings.showwarning = _show_warning
        try:
            out = args.run(args)
        except Exception as exc:
            status = _status(exc)
            if status is None:
                raise
            return _fail(exc, status)
    return _write(out)


def _write(text: str) -> int:
    """Print the result; a closed, full or broken standard output is an error (1)."""
    stream = sys.stdout
    if stream is None:  # started with stdout closed (e.g. `>&-`)
        print("mlcbook: error: standard output is closed; nothing written", file=sys.stderr)
        return 1
    try:
        stream.write(text + "\n")
        stream.flush()
    except BrokenPipeError:  # e.g. piped into head: the reader has what it wanted
        _silence_stdout()
        return 0
    except OSError as exc:  # e.g. > /dev/full
        _silence_stdout()
        reason = exc.strerror or str(exc)
        print(f"mlcbook: error: cannot write the output: {reason}", file=sys.stderr)
        return 1
    return 0


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush raises nothing."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass
