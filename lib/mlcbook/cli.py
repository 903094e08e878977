"""The ``mlcbook`` command line: evaluate predictions in files; list, fetch datasets.

::

    mlcbook evaluate TRUTH PRED [--scores FILE] [--format text|csv|json|markdown]
                                [--plot FILE.png]
                                [--input-format auto|matrix|labelsets|arff]
    mlcbook datasets list
    mlcbook datasets fetch NAME [--subset all|train|test]
    mlcbook datasets stats NAME [--subset all|train|test]

``python -m mlcbook ...`` is the same.  ``evaluate`` reads the truth and the predictions
(0/1 matrices as CSV/TSV with or without a header, label-set lists, MEKA/MULAN ARFF: see
:mod:`mlcbook.datasets.labelfiles`) and prints every measure of :mod:`mlcbook.metrics`
that needs predictions, the ranking measures and AUCs when a score file is given, and
the binomial (k = 1..K, eq. 18 of Hüllermeier et al. 2022) and polynomial (the book's
grid of alpha, eq. 17) loss profiles of the predictions.  Floating-point values are
printed in full (shortest round-trip form), so the Hivemall example's micro F1 reads
0.6956521739130435.

Exit status: 0 on success, 2 for a usage or input error (the message names the file and
line), 1 when a dataset cannot be obtained or the cache cannot be written.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["main", "evaluate_files", "FORMATS"]

FORMATS = ("text", "csv", "json", "markdown")
_PLOT_SUFFIXES = (".png", ".pdf", ".svg")


class UsageError(Exception):
    """A usage or input error: printed as ``mlcbook: error: ...``, exit status 2."""


# ------------------------------------------------------------------------- evaluate
def _polynomial_grid() -> np.ndarray:
    from mlcbook.profiles import ALPHAS

    return np.asarray(ALPHAS, dtype=np.float64)


def _measures(
    Y: np.ndarray, P: np.ndarray, F: np.ndarray | None, zero_division: float
) -> list[tuple[str, float]]:
    from . import metrics as M

    zd = zero_division
    rows = [
        ("hamming_loss", M.hamming_loss(Y, P)),
        ("subset_accuracy", M.subset_accuracy(Y, P)),
        ("subset_zero_one_loss", M.subset_zero_one_loss(Y, P)),
        ("jaccard_score", M.jaccard_score(Y, P, zero_division=zd)),
    ]
    for avg in ("micro", "macro", "instance"):
        rows += [
            (f"{avg}_precision", M.precision(Y, P, average=avg, zero_division=zd)),
            (f"{avg}_recall", M.recall(Y, P, average=avg, zero_division=zd)),
            (f"{avg}_f1", M.f_measure(Y, P, average=avg, zero_division=zd)),
        ]
    rows.append(("example_based_f1", M.example_based_f_measure(Y, P, zero_division=zd)))
    if F is not None:
        rows += [
            ("ranking_loss", M.ranking_loss(Y, F)),
            ("one_error", M.one_error(Y, F)),
            ("coverage", M.coverage(Y, F)),
            ("average_precision", M.average_precision(Y, F)),
        ]
        rows += [
            (f"{avg}_auc", M.auc(Y, F, average=avg)) for avg in ("macro", "micro", "instance")
        ]
    return [(name, float(v)) for name, v in rows]


def _profile(Y: np.ndarray, P: np.ndarray) -> list[tuple[str, float, float]]:
    from .losses import loss_profile

    K = Y.shape[1]
    ks = np.arange(1, K + 1)
    alphas = _polynomial_grid()
    lb = loss_profile(Y, P, "binomial", [int(k) for k in ks])
    lp = loss_profile(Y, P, "polynomial", [float(a) for a in alphas])
    return [("binomial", float(k), float(v)) for k, v in zip(ks, lb)] + [
        ("polynomial", float(a), float(v)) for a, v in zip(alphas, lp)
    ]


def evaluate_files(
    truth: str,
    pred: str,
    *,
    scores: str | None = None,
    input_format: str = "auto",
    xml: str | None = None,
    zero_division: float = 1.0,
) -> dict[str, Any]:
    """Read the files and compute every measure and the loss profiles.

    Returns
    -------
    dict
        ``n_samples``, ``n_labels``, ``labels``, ``measures`` (list of (name, value)),
        ``profile`` (list of (family, parameter, mean loss)).
    """
    from .datasets.labelfiles import align_label_files, read_label_file, read_score_file

    t = read_label_file(truth, input_format, xml=xml)
    p = read_label_file(pred, input_format, xml=xml)
    Y, P, labels = align_label_files(t, p)
    F = None
    if scores is not None:
        F, header = read_score_file(scores)
        if F.shape != Y.shape:
            raise ValueError(
                f"{scores} holds a {F.shape[0]} x {F.shape[1]} score matrix, "
                f"the truth is {Y.shape[0]} x {Y.shape[1]}"
            )
        if header is not None and t.labels is not None and list(header) != list(labels):
            raise ValueError(
                f"the label names of {scores} differ from those of {truth}: {header} vs {labels}"
            )
    return {
        "n_samples": int(Y.shape[0]),
        "n_labels": int(Y.shape[1]),
        "labels": [str(x) for x in labels],
        "measures": _measures(Y, P, F, zero_division),
        "profile": _profile(Y, P),
    }


# ------------------------------------------------------------------------- output
def _num(v: float) -> str:
    """Shortest text that reads back as the same float (``repr``); 'nan', 'inf'."""
    return repr(float(v)) if math.isfinite(v) else str(float(v))


def _param(family: str, v: float) -> str:
    return str(int(v)) if family == "binomial" else _num(v)


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


def format_report(res: dict[str, Any], fmt: str) -> str:
    """The result of :func:`evaluate_files` as text, CSV, JSON or Markdown."""
    meas = [(n, _num(v)) for n, v in res["measures"]]
    prof = [(f, _param(f, p), _num(v)) for f, p, v in res["profile"]]
    if fmt == "json":
        obj = {
            "n_samples": res["n_samples"],
            "n_labels": res["n_labels"],
            "labels": res["labels"],
            "measures": {n: _json_value(v) for n, v in res["measures"]},
            "profile": {
                fam: {
                    "param": [p for f, p, _ in res["profile"] if f == fam],
                    "loss": [_json_value(v) for f, _, v in res["profile"] if f == fam],
                }
                for fam in ("binomial", "polynomial")
            },
        }
        return json.dumps(obj, indent=2, allow_nan=False)
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["table", "name", "param", "value"])
        w.writerows(["measure", n, "", v] for n, v in meas)
        w.writerows(["profile", f"{f}_loss", p, v] for f, p, v in prof)
        return buf.getvalue().rstrip("\n")
    title = (
        f"{res['n_samples']} instances, {res['n_labels']} labels: "
        + ", ".join(res["labels"][:20])
        + (" ..." if res["n_labels"] > 20 else "")
    )
    if fmt == "markdown":
        return "\n\n".join(
            [
                f"**{title}**",
                _markdown_table(["measure", "value"], meas),
                _markdown_table(["family", "param", "mean loss"], prof),
            ]
        )
    return "\n\n".join(
        [
            title,
            _text_table(["measure", "value"], meas),
            "loss profiles of the predictions (binomial k, polynomial alpha)",
            _text_table(["family", "param", "mean loss"], prof),
        ]
    )


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

    from .plots.losses import plot_loss_profiles

    fig, (a, b) = plt.subplots(1, 2, figsize=(9, 3.6))
    for ax, fam, xlabel in ((a, "binomial", "k"), (b, "polynomial", "alpha")):
        params = [p for f, p, _ in res["profile"] if f == fam]
        vals = [v for f, _, v in res["profile"] if f == fam]
        plot_loss_profiles(params, {"predictions": vals}, xlabel=xlabel, ax=ax)
        ax.set_title(f"{fam} loss")
    b.set_xscale("log")
    fig.tight_layout()
    try:
        fig.savefig(path)
    except OSError as exc:
        raise UsageError(f"--plot {path}: cannot write the figure: {exc.strerror}") from None
    finally:
        plt.close(fig)


def _cmd_evaluate(args: argparse.Namespace) -> str:
    plot = _check_plot_path(args.plot) if args.plot else None  # before any work
    res = evaluate_files(
        args.truth,
        args.pred,
        scores=args.scores,
        input_format=args.input_format,
        xml=args.xml,
        zero_division=args.zero_division,
    )
    if plot is not None:
        _plot(res, plot)
    return format_report(res, args.format)


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
    from . import datasets as ds

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
    rows = [
        [str(idx)] + [_num(v) if isinstance(v, float) else str(v) for v in row]
        for idx, row in zip(table.index, table.itertuples(index=False))
    ]
    return _table(header, rows, args.format)


# ------------------------------------------------------------------------- parser
def _zero_division(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0.0 <= v <= 1.0:
        raise argparse.ArgumentTypeError(f"must lie in [0, 1], got {text}")
    return v


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mlcbook",
        description="Multi-label evaluation on the command line (mlcbook library).",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    ev = sub.add_parser(
        "evaluate",
        help="every measure and the loss profiles of predictions in files",
        description="Read the truth and the predictions (and optionally scores), "
        "print "
        "every measure and the binomial/polynomial loss profiles.",
    )
    ev.add_argument("truth", help="true labels: CSV/TSV 0/1 matrix, label-set list or ARFF")
    ev.add_argument("pred", help="predicted labels, same layout and instance order")
    ev.add_argument(
        "--scores",
        metavar="FILE",
        help="real-valued scores (CSV/TSV matrix) for the ranking measures",
    )
    ev.add_argument(
        "--input-format",
        choices=("auto", "matrix", "labelsets", "arff"),
        default="auto",
        help="layout of TRUTH and PRED (default: auto)",
    )
    ev.add_argument("--xml", metavar="FILE", help="MULAN label file for ARFF input")
    ev.add_argument(
        "--zero-division",
        type=_zero_division,
        default=1.0,
        metavar="Z",
        help="value of a precision/recall/F with a zero denominator (default 1)",
    )
    ev.add_argument("--format", choices=FORMATS, default="text")
    ev.add_argument(
        "--plot",
        metavar="FILE.png",
        help="also draw the loss profiles into this figure (.png/.pdf/.svg)",
    )
    ev.set_defaults(run=_cmd_evaluate)

    da = sub.add_parser(
        "datasets",
        help="the registered benchmark datasets",
        description="List, fetch (verified, cached) or describe datasets.",
    )
    da.add_argument("action", choices=("list", "fetch", "stats"))
    da.add_argument("name", nargs="?", help="dataset name (fetch, stats)")
    da.add_argument("--subset", choices=("all", "train", "test"), default="all")
    da.add_argument("--format", choices=FORMATS, default="text")
    da.set_defaults(run=_cmd_datasets)
    return parser


def _fail(exc: BaseException, status: int) -> int:
    print(f"mlcbook: error: {exc}", file=sys.stderr)
    return status


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0, 1 or 2)."""
    from .datasets import (
        DatasetError,
        DatasetFormatError,
        DatasetUnavailableError,
        UnknownDatasetError,
    )

    parser = build_parser()
    args = parser.parse_args(argv)  # exits with status 2 on a usage error
    try:
        out = args.run(args)
    except (UsageError, DatasetFormatError, UnknownDatasetError) as exc:
        return _fail(exc, 2)  # the user's input is wrong
    except (DatasetError, DatasetUnavailableError) as exc:
        return _fail(exc, 1)  # data not obtainable (network, checksum, cache)
    except (ValueError, TypeError) as exc:
        return _fail(exc, 2)  # input rejected by the library's validation
    except OSError as exc:
        return _fail(exc, 1)
    try:
        print(out)
    except BrokenPipeError:  # e.g. piped into head
        sys.stderr.close()
    return 0
