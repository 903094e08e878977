"""The command line's output: the results of ``mlcbook evaluate`` and ``compare`` and the
tables of ``measures`` and ``datasets`` as text, CSV, JSON or Markdown.

Text and Markdown print every number to ``digits`` significant digits; CSV and JSON
print every value in full (the shortest text that reads back as the same float).
:mod:`mlcbook.cli` re-exports :func:`format_report` and :func:`format_comparison`.
This module imports only the standard library (``mlcbook --help`` starts fast).
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Sequence
from typing import Any

__all__ = ["FORMATS", "format_report", "format_comparison", "format_table"]

FORMATS = ("text", "csv", "json", "markdown")
#: The columns of ``--per-label`` (the AUC only with scores).
_PER_LABEL_HEAD = ("label", "support", "precision", "recall", "f1", "auc")


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


def format_table(header: list[str], rows: list[list[str]], fmt: str) -> str:
    """A table of text cells (``mlcbook measures``, ``datasets``) in the format ``fmt``."""
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


def format_report(res: dict[str, Any], fmt: str, digits: int | None = 4) -> str:
    """The result of :func:`mlcbook.cli.evaluate_files` as text, CSV, JSON or Markdown.

    Text and Markdown round every number to ``digits`` significant digits; CSV and JSON
    are exact.
    """
    if fmt == "json":
        return _report_json(res)
    if fmt == "csv":
        return _report_csv(res)
    return _report_text(res, fmt, digits)


def _intervals(res: dict[str, Any]) -> dict[str, tuple[float, float]]:
    return {n: (lo, hi) for n, lo, hi in res.get("intervals", [])}


def _read(res: dict[str, Any]) -> dict[str, Any]:
    """What was read, first in every JSON report."""
    keys = ("n_samples", "n_labels", "labels", "labels_from")
    return {k: res.get(k) for k in keys}


def _report_json(res: dict[str, Any]) -> str:
    obj: dict[str, Any] = {
        **_read(res),
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
            for n, (lo, hi) in _intervals(res).items()
        }
        obj["ci"] = res["ci"]
    if res.get("notes"):
        obj["notes"] = list(res["notes"])
    if "per_label" in res:
        obj["per_label"] = {
            r[0]: dict(zip(_PER_LABEL_HEAD[1:], [r[1], *(_json_value(v) for v in r[2:])]))
            for r in res["per_label"]
        }
    return json.dumps(obj, indent=2, allow_nan=False)


def _report_csv(res: dict[str, Any]) -> str:
    ints, why = _intervals(res), _why(list(res.get("notes", [])))
    with_ci = "ci" in res
    blank = [""] * 3 if with_ci else []  # low, high and note of a row without them
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["table", "name", "param", "value"] + (["low", "high", "note"] if with_ci else []))
    for n, v in res["measures"]:
        low_high = [_num(x) for x in ints[n]] if n in ints else ["", ""]
        w.writerow(["measure", n, "", _num(v), *(low_high + [why.get(n, "")] if with_ci else [])])
    w.writerows(
        ["profile", f"{f}_loss", _param(f, p, None), _num(v), *blank] for f, p, v in res["profile"]
    )
    for r in res.get("per_label", []):
        w.writerows(
            ["per_label", m, r[0], str(v) if m == "support" else _num(v), *blank]
            for m, v in zip(_PER_LABEL_HEAD[1:], r[1:])
        )
    return buf.getvalue().rstrip("\n")


def _report_text(res: dict[str, Any], fmt: str, d: int | None) -> str:
    """Text or Markdown: the title, the measures (with their intervals), the notes, the
    loss profiles and the per-label table."""
    ints, notes = _intervals(res), list(res.get("notes", []))
    meas = [(n, _short(v, d)) for n, v in res["measures"]]
    if "ci" in res:
        head = ["measure", "value", f"{res['ci']['level']:g} CI low", "high"]
        mrows = [
            [n, v, *((_short(x, d) for x in ints[n]) if n in ints else ("-", "-"))]
            for n, v in meas
        ]
    else:
        head, mrows = ["measure", "value"], [[n, v] for n, v in meas]
    table = _markdown_table if fmt == "markdown" else _text_table
    parts = [f"**{_title(res)}**" if fmt == "markdown" else _title(res), table(head, mrows)]
    if "ci" in res:
        ci = res["ci"]
        parts.append(
            f"{ci['method']} bootstrap intervals over instances, {ci['resamples']} "
            f"resamples, seed {ci['seed']}"
        )
    if notes:
        parts.append("notes:\n" + "\n".join(f"  {n}" for n in notes))
    prof = [(f, _param(f, p, d), _short(v, d)) for f, p, v in res["profile"]]
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


def format_comparison(res: dict[str, Any], fmt: str, digits: int | None = 4) -> str:
    """The result of :func:`mlcbook.cli.compare_files` as text, CSV, JSON or Markdown."""
    notes = list(res.get("notes", []))
    if fmt == "json":
        return _comparison_json(res, notes)
    rows = [
        [r[0], *(_short(x, None if fmt == "csv" else digits) for x in r[1:])] for r in res["rows"]
    ]
    if fmt == "csv":
        return format_table(
            ["measure", "a", "b", "difference", "low", "high", "p_value"], rows, fmt
        )
    ci = res["ci"]
    note = (
        f"{res['n_samples']} instances, {res['n_labels']} labels (from "
        f"{res.get('labels_from', 'the files')}); A - B with its "
        f"{ci['level']:g} {ci['method']} paired bootstrap interval ({ci['resamples']} "
        f"resamples) and the two-sided randomisation test's p ({ci['permutations']} "
        f"swaps), seed {ci['seed']}"
    )
    tail = ("\n\nnotes:\n" + "\n".join(f"  {n}" for n in notes)) if notes else ""
    head = ["measure", "A", "B", "A - B", "low", "high", "p"]
    if fmt == "markdown":
        return f"**{note}**\n\n" + _markdown_table(head, rows) + tail
    return note + "\n\n" + _text_table(head, rows) + tail


def _comparison_json(res: dict[str, Any], notes: list[str]) -> str:
    keys = ["a", "b", "difference", "low", "high", "p_value"]
    obj: dict[str, Any] = {
        **_read(res),
        "ci": res["ci"],
        "comparison": {
            r[0]: dict(zip(keys, [_json_value(x) for x in r[1:]])) for r in res["rows"]
        },
    }
    if notes:
        obj["notes"] = notes
    return json.dumps(obj, indent=2, allow_nan=False)
