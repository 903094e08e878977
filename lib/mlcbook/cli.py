"""The ``mlcbook`` command line: evaluate and compare predictions in files; datasets.

::

    mlcbook evaluate TRUTH PRED [--scores FILE] [--format text|csv|json|markdown]
                                [--beta B] [--zero-division Z] [--digits N]
                                [--ci LEVEL [--resamples N] [--ci-method BCa|percentile]
                                 [--seed S]] [--plot FILE.png]
                                [--input-format auto|matrix|labelsets|arff]
    mlcbook compare TRUTH PRED_A PRED_B [--scores-a FILE --scores-b FILE] [--ci LEVEL]
                                [--resamples N] [--permutations N] [--seed S] ...
    mlcbook datasets list
    mlcbook datasets fetch NAME [--subset all|train|test]
    mlcbook datasets stats NAME [--subset all|train|test]

``python -m mlcbook ...`` is the same.  ``evaluate`` reads the truth and the predictions
(0/1 matrices as CSV/TSV with or without a header, label-set lists, JSON, MEKA/MULAN
ARFF: see :mod:`mlcbook.datasets.labelfiles`) and prints every measure of
:mod:`mlcbook.metrics` that needs predictions (F-beta with ``--beta``), the ranking
measures and AUCs when a score file is given, and the binomial (k = 1..K, eq. 18 of
Hüllermeier et al. 2022) and polynomial (the book's grid of alpha, eq. 17) loss
profiles of the predictions.  ``--ci 0.95`` adds a bootstrap confidence interval to
every measure (:mod:`mlcbook.intervals`; seeded, so the same run prints the same
interval).  ``compare`` scores two prediction files on one truth: both values, their
difference with its paired bootstrap interval and the randomisation test's p-value.

Text and Markdown print ``--digits`` significant digits (default 4); CSV and JSON
print every value in full (shortest round-trip form), so the Hivemall example's micro
F1 reads 0.6956521739130435 there.

Exit status: 0 on success, 2 for a usage or input error (the message names the file and
line), 1 when a dataset cannot be obtained, the cache or the output cannot be written.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import math
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from mlcbook.profiles import ALPHAS

from . import datasets as ds
from . import metrics as M
from ._progress import progress
from .datasets import (
    DatasetError,
    DatasetFormatError,
    DatasetUnavailableError,
    UnknownDatasetError,
)
from .datasets.labelfiles import align_label_files, read_label_file, read_score_file
from .intervals import INTERVAL_MEASURES, bootstrap_interval, paired_comparison
from .losses import loss_profile
from .plots.losses import plot_loss_profiles

__all__ = ["main", "evaluate_files", "FORMATS"]

FORMATS = ("text", "csv", "json", "markdown")
_PLOT_SUFFIXES = (".png", ".pdf", ".svg")


class UsageError(Exception):
    """A usage or input error: printed as ``mlcbook: error: ...``, exit status 2."""


# ------------------------------------------------------------------------- evaluate
def _polynomial_grid() -> np.ndarray:

    return np.asarray(ALPHAS, dtype=np.float64)


def _f_name(avg: str, beta: float) -> str:
    return f"{avg}_f1" if beta == 1.0 else f"{avg}_f{beta:g}"


def _measure_specs(beta: float, scores: bool) -> list[tuple[str, str, dict[str, Any]]]:
    """(row name, :mod:`mlcbook.intervals` name, parameters) of every printed measure."""
    rows: list[tuple[str, str, dict[str, Any]]] = [
        ("hamming_loss", "hamming_loss", {}),
        ("subset_accuracy", "subset_accuracy", {}),
        ("subset_zero_one_loss", "subset_zero_one_loss", {}),
        ("jaccard_score", "jaccard_score", {}),
    ]
    for avg in ("micro", "macro", "instance"):
        rows += [
            (f"{avg}_precision", f"{avg}_precision", {}),
            (f"{avg}_recall", f"{avg}_recall", {}),
            (_f_name(avg, beta), f"{avg}_f1", {"beta": beta}),
        ]
    rows.append((_f_name("example_based", beta), "example_based_f1", {"beta": beta}))
    if scores:
        rows += [(m, m, {}) for m in ("ranking_loss", "one_error", "coverage")]
        rows += [("average_precision", "average_precision", {})]
        rows += [(f"{avg}_auc", f"{avg}_auc", {}) for avg in ("macro", "micro", "instance")]
    return rows


def _measure_value(Y: Any, P: Any, F: Any, name: str, params: dict[str, Any], zd: float) -> float:

    beta = params.get("beta", 1.0)
    simple: dict[str, Any] = {
        "hamming_loss": M.hamming_loss,
        "subset_accuracy": M.subset_accuracy,
        "subset_zero_one_loss": M.subset_zero_one_loss,
        "ranking_loss": M.ranking_loss,
        "one_error": M.one_error,
        "coverage": M.coverage,
        "average_precision": M.average_precision,
    }
    if name in simple:
        return float(simple[name](Y, F if name in _SCORE_MEASURES else P))
    if name == "jaccard_score":
        return float(M.jaccard_score(Y, P, zero_division=zd))
    if name == "example_based_f1":
        return float(M.example_based_f_measure(Y, P, beta, zero_division=zd))
    avg, what = name.split("_")
    if what == "auc":
        return float(M.auc(Y, F, average=avg))
    if what == "f1":
        return float(M.f_measure(Y, P, beta, avg, zero_division=zd))
    fn = M.precision if what == "precision" else M.recall
    return float(fn(Y, P, average=avg, zero_division=zd))


_SCORE_MEASURES = frozenset(
    {"ranking_loss", "one_error", "coverage", "average_precision"}
    | {f"{a}_auc" for a in ("macro", "micro", "instance")}
)


def _measures(
    Y: Any, P: Any, F: np.ndarray | None, zero_division: float, beta: float = 1.0
) -> list[tuple[str, float]]:

    specs = _measure_specs(beta, F is not None)
    long_file = Y.shape[0] * Y.shape[1] > _LONG_CELLS  # show how far it is
    out = []
    for row, name, params in progress(specs, desc="measures") if long_file else specs:
        out.append((row, _measure_value(Y, P, F, name, params, zero_division)))
    return out


#: Above this many (instance, label) cells ``evaluate`` shows progress bars.
_LONG_CELLS = 10**7


def _intervals(
    Y: Any,
    P: Any,
    F: np.ndarray | None,
    zero_division: float,
    beta: float,
    ci: dict[str, Any],
) -> list[tuple[str, float, float]]:
    """(row, low, high) of every measure that has a bootstrap interval."""

    out = []
    specs = [s for s in _measure_specs(beta, F is not None) if s[1] in INTERVAL_MEASURES]
    for row, name, params in progress(specs, desc="bootstrap"):
        kw = dict(params)
        if name not in _SCORE_MEASURES:
            kw["zero_division"] = zero_division
        res = bootstrap_interval(
            name,
            Y,
            F if name in _SCORE_MEASURES else P,
            confidence=ci["level"],
            n_resamples=ci["resamples"],
            method=ci["method"],
            random_state=ci["seed"],
            **kw,
        )
        out.append((row, res.low, res.high))
    return out


def _profile(Y: np.ndarray, P: np.ndarray) -> list[tuple[str, float, float]]:

    K = Y.shape[1]
    ks = np.arange(1, K + 1)
    alphas = _polynomial_grid()
    lb = loss_profile(Y, P, "binomial", [int(k) for k in ks])
    lp = loss_profile(Y, P, "polynomial", [float(a) for a in alphas])
    return [("binomial", float(k), float(v)) for k, v in zip(ks, lb)] + [
        ("polynomial", float(a), float(v)) for a, v in zip(alphas, lp)
    ]


def _read_pair(
    truth: str, pred: str, input_format: str, xml: str | None
) -> tuple[Any, Any, list[str], Any]:

    t = read_label_file(truth, input_format, xml=xml)
    p = read_label_file(pred, input_format, xml=xml)
    Y, P, labels = align_label_files(t, p)
    return Y, P, labels, t


def _read_scores(scores: str, Y: Any, labels: list[str], t: Any, truth: str) -> np.ndarray:

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
    return F


def evaluate_files(
    truth: str,
    pred: str,
    *,
    scores: str | None = None,
    input_format: str = "auto",
    xml: str | None = None,
    zero_division: float = 1.0,
    beta: float = 1.0,
    ci: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Read the files and compute every measure and the loss profiles.

    ``ci``: ``{"level": 0.95, "resamples": 9999, "method": "BCa", "seed": 0}`` adds
    bootstrap intervals.

    Returns
    -------
    dict
        ``n_samples``, ``n_labels``, ``labels``, ``measures`` (list of (name, value)),
        ``profile`` (list of (family, parameter, mean loss)) and, with ``ci``,
        ``intervals`` (list of (name, low, high)) and ``ci``.
    """
    Y, P, labels, t = _read_pair(truth, pred, input_format, xml)
    F = None if scores is None else _read_scores(scores, Y, labels, t, truth)
    out = {
        "n_samples": int(Y.shape[0]),
        "n_labels": int(Y.shape[1]),
        "labels": [str(x) for x in labels],
        "measures": _measures(Y, P, F, zero_division, beta),
        "profile": _profile(Y, P),
    }
    if ci is not None:
        out["intervals"] = _intervals(Y, P, F, zero_division, beta, ci)
        out["ci"] = dict(ci)
    return out


def compare_files(
    truth: str,
    pred_a: str,
    pred_b: str,
    *,
    scores_a: str | None = None,
    scores_b: str | None = None,
    input_format: str = "auto",
    xml: str | None = None,
    zero_division: float = 1.0,
    beta: float = 1.0,
    ci: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Score two prediction files on one truth and compare them, measure by measure.

    Returns
    -------
    dict
        ``n_samples``, ``n_labels``, ``labels``, ``ci`` and ``rows``: (measure, value of
        A, value of B, A - B, low, high, p-value) for every measure of
        :data:`mlcbook.intervals.INTERVAL_MEASURES` that the input allows.
    """

    ci = dict(ci or _DEFAULT_CI)
    Y, Pa, labels, t = _read_pair(truth, pred_a, input_format, xml)
    Yb, Pb, labels_b, _ = _read_pair(truth, pred_b, input_format, xml)
    if list(labels_b) != list(labels) or Yb.shape != Y.shape:
        raise ValueError(
            f"{pred_a} and {pred_b} are not on the same label columns: {labels} vs {labels_b}"
        )
    if (scores_a is None) != (scores_b is None):
        raise UsageError("give both --scores-a and --scores-b, or neither")
    Fa = Fb = None
    if scores_a is not None and scores_b is not None:
        Fa = _read_scores(scores_a, Y, labels, t, truth)
        Fb = _read_scores(scores_b, Y, labels, t, truth)
    rows = []
    specs = [
        s for s in _measure_specs(beta, Fa is not None) if s[1] not in ("macro_auc", "micro_auc")
    ]
    for row, name, params in progress(specs, desc="compare"):
        kw = dict(params)
        score = name in _SCORE_MEASURES
        if not score:
            kw["zero_division"] = zero_division
        c = paired_comparison(
            name,
            Y,
            Fa if score else Pa,
            Fb if score else Pb,
            confidence=ci["level"],
            n_resamples=ci["resamples"],
            n_permutations=ci["permutations"],
            method=ci["method"],
            random_state=ci["seed"],
            **kw,
        )
        rows.append((row, c.estimate_a, c.estimate_b, c.difference, c.low, c.high, c.p_value))
    return {
        "n_samples": int(Y.shape[0]),
        "n_labels": int(Y.shape[1]),
        "labels": [str(x) for x in labels],
        "ci": ci,
        "rows": rows,
    }


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


def format_report(res: dict[str, Any], fmt: str, digits: int | None = 4) -> str:
    """The result of :func:`evaluate_files` as text, CSV, JSON or Markdown.

    Text and Markdown round to ``digits`` significant digits; CSV and JSON are exact.
    """
    full = fmt in ("csv", "json")
    d = None if full else digits
    ints = {n: (lo, hi) for n, lo, hi in res.get("intervals", [])}
    meas = [(n, _short(v, d)) for n, v in res["measures"]]
    prof = [(f, _param(f, p), _short(v, d)) for f, p, v in res["profile"]]
    level = res.get("ci", {}).get("level")
    if fmt == "json":
        obj: dict[str, Any] = {
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
        if ints:
            obj["intervals"] = {
                n: {"low": _json_value(lo), "high": _json_value(hi)}
                for n, (lo, hi) in ints.items()
            }
            obj["ci"] = res["ci"]
        return json.dumps(obj, indent=2, allow_nan=False)
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        head = ["table", "name", "param", "value"] + (["low", "high"] if ints else [])
        w.writerow(head)
        for n, v in meas:
            extra = [_num(x) for x in ints[n]] if n in ints else ([""] * 2 if ints else [])
            w.writerow(["measure", n, "", v, *extra])
        w.writerows(
            ["profile", f"{f}_loss", p, v, *([""] * 2 if ints else [])] for f, p, v in prof
        )
        return buf.getvalue().rstrip("\n")
    title = (
        f"{res['n_samples']} instances, {res['n_labels']} labels: "
        + ", ".join(res["labels"][:20])
        + (" ..." if res["n_labels"] > 20 else "")
    )
    if ints:
        head = ["measure", "value", f"{level:g} CI low", "high"]
        mrows = [
            [n, v, *(_short(x, d) for x in ints[n])] if n in ints else [n, v, "", ""]
            for n, v in meas
        ]
    else:
        head = ["measure", "value"]
        mrows = [[n, v] for n, v in meas]
    table = _markdown_table if fmt == "markdown" else _text_table
    if fmt == "markdown":
        return "\n\n".join(
            [
                f"**{title}**",
                table(head, mrows),
                table(["family", "param", "mean loss"], prof),
            ]
        )
    parts = [title, table(head, mrows)]
    if ints:
        ci = res["ci"]
        parts.append(
            f"{ci['method']} bootstrap intervals over instances, {ci['resamples']} "
            f"resamples, seed {ci['seed']}"
        )
    parts += [
        "loss profiles of the predictions (binomial k, polynomial alpha)",
        table(["family", "param", "mean loss"], prof),
    ]
    return "\n\n".join(parts)


def format_comparison(res: dict[str, Any], fmt: str, digits: int | None = 4) -> str:
    """The result of :func:`compare_files` as text, CSV, JSON or Markdown."""
    head = ["measure", "A", "B", "A - B", "low", "high", "p"]
    if fmt == "json":
        obj = {
            "n_samples": res["n_samples"],
            "n_labels": res["n_labels"],
            "labels": res["labels"],
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
        f"{res['n_samples']} instances, {res['n_labels']} labels; A - B with its "
        f"{ci['level']:g} {ci['method']} paired bootstrap interval ({ci['resamples']} "
        f"resamples) and the two-sided randomisation test's p ({ci['permutations']} "
        f"swaps), seed {ci['seed']}"
    )
    if fmt == "markdown":
        return f"**{note}**\n\n" + _markdown_table(head, rows)
    return note + "\n\n" + _text_table(head, rows)


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


def _ci_options(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "level": args.ci if args.ci is not None else 0.95,
        "resamples": args.resamples,
        "permutations": getattr(args, "permutations", _DEFAULT_CI["permutations"]),
        "method": args.ci_method,
        "seed": args.seed,
    }


def _cmd_evaluate(args: argparse.Namespace) -> str:
    plot = _check_plot_path(args.plot) if args.plot else None  # before any work
    res = evaluate_files(
        args.truth,
        args.pred,
        scores=args.scores,
        input_format=args.input_format,
        xml=args.xml,
        zero_division=args.zero_division,
        beta=args.beta,
        ci=_ci_options(args) if args.ci is not None else None,
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
        input_format=args.input_format,
        xml=args.xml,
        zero_division=args.zero_division,
        beta=args.beta,
        ci=_ci_options(args),
    )
    return format_comparison(res, args.format, args.digits)


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
        "--input-format",
        choices=("auto", "matrix", "labelsets", "arff"),
        default="auto",
        help="layout of the label files (default: auto)",
    )
    p.add_argument("--xml", metavar="FILE", help="MULAN label file for ARFF input")
    p.add_argument(
        "--zero-division",
        type=_zero_division,
        default=1.0,
        metavar="Z",
        help="value of a precision/recall/F with a zero denominator: a number in "
        "[0, 1], nan (left out of averages) or warn (0 and a warning); default 1",
    )
    p.add_argument(
        "--beta",
        type=_positive_real,
        default=1.0,
        metavar="B",
        help="F-beta instead of F1: recall weighs B times precision (default 1)",
    )
    p.add_argument("--format", choices=FORMATS, default="text")
    p.add_argument(
        "--digits",
        type=_int_in(1, 17),
        default=4,
        metavar="N",
        help="significant digits in text and markdown (default 4; csv/json: all)",
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
    _add_common(ev, ci_flag=True)
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
        "measure, A - B with its paired bootstrap interval, and the p-value of a "
        "randomisation test that swaps the two systems on random instances.",
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
    co.set_defaults(run=_cmd_compare)

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
