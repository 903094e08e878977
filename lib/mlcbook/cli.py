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
                                [--k K1,K2,... [--propensity-ab A,B]
                                 [--propensity FILE]] [--per-label]
    mlcbook compare TRUTH PRED_A PRED_B [--scores-a FILE --scores-b FILE] [--ci LEVEL]
                                [--resamples N] [--permutations N] [--seed S]
                                [--k K1,K2,... [--propensity-ab A,B]
                                 [--propensity FILE]] ...
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
:func:`mlcbook.extreme.jain_propensity` does, or from those of the training labels
(``--propensity FILE``, which also takes one propensity per label; ``evaluate`` and
``compare``).  ``compare``
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
import importlib
import os
import sys
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from . import __version__
from ._cli_format import FORMATS, _short, format_comparison, format_report, format_table
from ._cli_options import COMPARE, DATASETS, EVALUATE, MEASURES, Option

__all__ = [
    "main",
    "build_parser",
    "evaluate_files",
    "compare_files",
    "format_report",
    "format_comparison",
    "FORMATS",
]

_PLOT_SUFFIXES = (".png", ".pdf", ".svg")

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
        propensity_file=args.propensity,
        **_common_options(args),
    )
    return format_comparison(res, args.format, args.digits)


def _cmd_measures(args: argparse.Namespace) -> str:
    rows = _work().measure_table()
    head = list(rows[0]) if rows else []
    if args.format == "text":
        head = ["name", "kind", "inputs", "better", "parameters", "convention", "equals"]
    return format_table(head, [[r[h] for h in head] for r in rows], args.format)


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
        return format_table(["name", "labels", "available", "subsets"], rows, args.format)
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
        body = format_table(["file", "source", "sha256"], rows, args.format)
        return body if args.format in ("json", "csv") else head + "\n\n" + body
    table = ds.dataset_statistics(args.name, subset=args.subset)
    header = ["dataset"] + [str(c) for c in table.columns]
    exact = args.format in ("json", "csv")
    rows = [
        [str(idx)]
        + [_short(v, None if exact else 4) if isinstance(v, float) else str(v) for v in row]
        for idx, row in zip(table.index, table.itertuples(index=False))
    ]
    return format_table(header, rows, args.format)


# ------------------------------------------------------------------------- parser
def _epilog() -> str:
    width = max(len(name) for name, _ in ENVIRONMENT)
    return "environment variables:\n" + "\n".join(
        f"  {name.ljust(width)}  {text}" for name, text in ENVIRONMENT
    )


#: The commands: (name, what runs it, its options, help, description, whether its help
#: ends with the environment variables).
_COMMANDS: tuple[
    tuple[str, Callable[[argparse.Namespace], str], tuple[Option, ...], str, str, bool], ...
] = (
    (
        "evaluate",
        _cmd_evaluate,
        EVALUATE,
        "the measures and the loss profiles of predictions in files",
        "Read the truth and the predictions (and optionally scores), "
        "print the measures (--measures; see: mlcbook measures) and a summary of the "
        "binomial/polynomial loss profiles.",
        True,
    ),
    (
        "compare",
        _cmd_compare,
        COMPARE,
        "compare two prediction files on one truth (paired tests)",
        "Score PRED_A and PRED_B against TRUTH: both values of every "
        "measure that has an interval, A - B with its paired bootstrap interval, and "
        "the p-value of a randomisation test that swaps the two systems on random "
        "instances.",
        True,
    ),
    (
        "measures",
        _cmd_measures,
        MEASURES,
        "every measure name: kind, input, direction, parameters, convention",
        "The registry of measures: each name, what it needs, whether "
        "greater is better, its parameters, whose convention it follows and what it "
        "equals (scikit-learn's names give scikit-learn's values).",
        False,
    ),
    (
        "datasets",
        _cmd_datasets,
        DATASETS,
        "the registered benchmark datasets",
        "List, fetch (verified, cached) or describe datasets.",
        True,
    ),
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
    for name, run, options, help_, description, environment in _COMMANDS:
        extra: dict[str, Any] = {"epilog": _epilog(), "formatter_class": fmt}
        cmd = sub.add_parser(
            name, help=help_, description=description, **(extra if environment else {})
        )
        for flags, keywords in options:
            cmd.add_argument(*flags, **keywords)
        cmd.set_defaults(run=run)
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
