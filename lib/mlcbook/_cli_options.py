"""The command line's options, declared as data, and the parsers of their values.

Each option is ``(flags, keywords of argparse's add_argument)``; :func:`mlcbook.cli.
build_parser` adds them in order, so ``mlcbook COMMAND --help`` lists them in the
order of these tuples.  A value parser raises :class:`argparse.ArgumentTypeError`,
which argparse reports as a usage error (exit status 2) naming the option.  This module
imports only the standard library.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Callable
from typing import Any

from ._cli_format import FORMATS

__all__ = ["Option", "EVALUATE", "COMPARE", "MEASURES", "DATASETS", "PROFILES", "option"]

#: ``(flags, keywords)`` of one ``add_argument`` call.
Option = tuple[tuple[str, ...], dict[str, Any]]
#: ``--profile``: the loss profile summarised (log-spaced k and alpha), in full, or not.
PROFILES = ("summary", "full", "none")


def option(*flags: str, **keywords: Any) -> Option:
    """One option: the arguments of :meth:`argparse.ArgumentParser.add_argument`."""
    return flags, keywords


# ------------------------------------------------------------------------- values
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


# ------------------------------------------------------------------------- options
_FORMAT = option("--format", choices=FORMATS, default="text")

#: Options of ``evaluate`` and ``compare`` before ``--ci`` (whose meaning differs).
_COMMON = (
    option(
        "--labels",
        metavar="FILE|NAMES",
        help="the labels, in the order of the columns: a file (one name a line, or one "
        "line of names separated by commas) or the names separated by commas; default: "
        "a header line, else the score file's header, else the labels seen (a warning)",
    ),
    option(
        "--measures",
        metavar="NAMES",
        help="comma-separated measure names (see: mlcbook measures) or groups: report "
        "(default), all, classification, ranking, at_k, loss, scikit-learn, mlcbook, "
        "wu_zhou, zhang_zhou, hullermeier, extreme",
    ),
    option(
        "--param",
        type=_name_value,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a parameter of the measures that take it, e.g. k=3 (binomial_loss), "
        "alpha=2, w=[0.5,0.3,0.2] (a JSON value); repeatable",
    ),
    option(
        "--format-in",
        "--input-format",
        dest="input_format",
        choices=("auto", "matrix", "labelsets", "json", "comma", "space", "xc", "arff"),
        default="auto",
        help="layout of the label files (default: auto, found from the whole file): a "
        "0/1 matrix, label sets one instance a line (labelsets: their layout found from "
        "every line; json, comma or space: given), or ARFF",
    ),
    option(
        "--header",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="whether the first line of each matrix and score file names the labels "
        "(default: when its fields are not all numbers, or are pandas' 0,1,...,K-1)",
    ),
    option("--xml", metavar="FILE", help="MULAN label file for ARFF input"),
    option(
        "--zero-division",
        type=_zero_division,
        default=None,
        metavar="Z",
        help="value of a precision/recall/F/Jaccard with a zero denominator: a number in "
        "[0, 1], nan (left out of averages) or warn (0 and a warning); default: each "
        "measure's own (1 for the book's names, scikit-learn's warn for its names)",
    ),
    option(
        "--beta",
        type=_positive_real,
        default=1.0,
        metavar="B",
        help="F-beta instead of F1 in the book's F measures: recall weighs B times "
        "precision (default 1)",
    ),
    option(
        "--convention",
        choices=("mlcbook", "wu_zhou"),
        default="mlcbook",
        help="ranking measures and AUCs as scikit-learn (mlcbook, default) or as Wu & "
        "Zhou's MATLAB code (wu_zhou)",
    ),
    _FORMAT,
    option(
        "--digits",
        type=_int_in(1, 17),
        default=4,
        metavar="N",
        help="significant digits of every number in text and markdown (default 4; csv/json: all)",
    ),
)

#: Options of ``evaluate`` and ``compare`` after ``--ci``: the resampling.
_RESAMPLING = (
    option(
        "--resamples",
        type=_int_in(1, 10**7),
        default=9999,
        metavar="N",
        help="bootstrap resamples (default 9999)",
    ),
    option("--ci-method", choices=("BCa", "percentile"), default="BCa"),
    option(
        "--seed",
        type=_int_in(0, 2**63 - 1),
        default=0,
        metavar="S",
        help="seed of the resampling (default 0: the same run prints the same)",
    ),
)

_JAIN_HELP = (
    "Jain et al.'s (2016) A,B of the propensities of PSP@k and PSnDCG@k "
    "(default 0.55,1.5; Wikipedia 0.5,0.4; Amazon 0.6,2.6), computed from the label "
    "frequencies of TRUTH as mlcbook.extreme.jain_propensity does (the files hold "
    "no training labels; --param propensity=[...] gives others)"
)

_PROPENSITY = option(
    "--propensity",
    metavar="FILE",
    help="the propensities of PSP@k and PSnDCG@k: a file of the training labels "
    "(any layout of TRUTH, on its labels: Jain et al.'s propensities from their "
    "frequencies, with --propensity-ab) or of one propensity per label (a number a "
    "line in label order, or label,propensity lines); default: from TRUTH",
)

EVALUATE = (
    option("truth", help="true labels: CSV/TSV 0/1 matrix, label-set list or ARFF"),
    option("pred", help="predicted labels, same layout and instance order"),
    option(
        "--scores",
        metavar="FILE",
        help="real-valued scores for the ranking measures: a CSV/TSV matrix (a header "
        "naming the labels), or label:score pairs a line (top-k or sparse scores; the "
        "labels not listed rank below the listed ones)",
    ),
    option(
        "--profile",
        choices=PROFILES,
        default="summary",
        help="the loss profiles: about ten log-spaced k and seven alpha (summary, "
        "default), every k and the 25-point alpha grid (full), or none",
    ),
    *_COMMON,
    option(
        "--ci",
        type=_level,
        metavar="LEVEL",
        help="add bootstrap confidence intervals at this level, e.g. 0.95",
    ),
    *_RESAMPLING,
    option(
        "--k",
        type=_cutoffs,
        metavar="K1,K2,...",
        help="cut-offs of the at-k measures (P@k, R@k, nDCG@k, PSP@k, PSnDCG@k, "
        "coverage@k), e.g. 1,3,5: each evaluated at every one (integers in 1..K; "
        "needs --scores; added to the report unless --measures is given; "
        "binomial_loss keeps --param k)",
    ),
    option("--propensity-ab", type=_jain_ab, metavar="A,B", help=_JAIN_HELP),
    _PROPENSITY,
    option(
        "--per-label",
        action="store_true",
        help="also print each label's support, precision, recall, F1 (and AUC with "
        "--scores): the values the macro averages average (zero division: "
        "--zero-division, default 1)",
    ),
    option(
        "--plot",
        metavar="FILE.png",
        help="also draw the loss profiles into this figure (.png/.pdf/.svg)",
    ),
)

COMPARE = (
    option("truth", help="true labels"),
    option("pred_a", help="predictions of system A"),
    option("pred_b", help="predictions of system B"),
    option("--scores-a", metavar="FILE", help="scores of A (ranking measures)"),
    option("--scores-b", metavar="FILE", help="scores of B"),
    option(
        "--permutations",
        type=_int_in(1, 10**7),
        default=9999,
        metavar="N",
        help="random swaps of the randomisation test (default 9999)",
    ),
    *_COMMON,
    option(
        "--ci",
        type=_level,
        default=0.95,
        metavar="LEVEL",
        help="level of the interval of the difference (default 0.95)",
    ),
    *_RESAMPLING,
    option(
        "--k",
        type=_cutoffs,
        metavar="K1,K2,...",
        help="cut-offs of the at-k measures, compared at each (needs --scores-a and "
        "--scores-b; propensities of Jain et al. from TRUTH, --propensity-ab)",
    ),
    option(
        "--propensity-ab",
        type=_jain_ab,
        metavar="A,B",
        help="Jain et al.'s A,B of the propensities of PSP@k and PSnDCG@k (default 0.55,1.5)",
    ),
    _PROPENSITY,
)

MEASURES = (_FORMAT,)

DATASETS = (
    option("action", choices=("list", "fetch", "stats")),
    option("name", nargs="?", help="dataset name (fetch, stats)"),
    option("--subset", choices=("all", "train", "test"), default="all"),
    _FORMAT,
)
