"""How the chapters show things: display names of the measures and paper-vs-ours tables.

One home for the glue that several chapters need: the eleven measures of
Wu & Zhou (2017, Table 1) are named here once, and :func:`side_by_side` sets a paper's
printed table beside ours, each of our numbers printed at the precision the paper
printed for that cell.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from decimal import Decimal, InvalidOperation
from html import escape
from types import MappingProxyType
from typing import Any

import numpy as np
import pandas as pd

from mlcbook.metrics import WU_ZHOU_MEASURES
from mlcbook.registry import get_measure
from mlcbook.validation import Flag, Int, OneOf, validate_params
from mlcrepro.vocabulary import WORDS

__all__ = [
    "MEASURE_NAMES",
    "measure_name",
    "measure_names",
    "printed_decimals",
    "side_by_side",
    "CompactTable",
    "compact_table",
    "verdicts",
    "BADGES",
    "format_number",
    "comparison_table",
    "ledger_ref",
    "Collapsed",
    "collapsed",
]

#: how a ledger row's status is shown in a table: a mark readable in black and white,
#: and the book's word (``mlcrepro.vocabulary.WORDS``; :mod:`mlcrepro.ledger` renders its
#: rows with them)
BADGES: Mapping[str, str] = MappingProxyType(
    {
        "reproduced": f"✔ {WORDS['reproduced']}",
        "within spread": f"± {WORDS['within spread']}",
        "within our spread": f"± {WORDS['within our spread']}",
        "qualitative": f"≈ {WORDS['qualitative']}",
        "fragile": f"~ {WORDS['fragile']}",
        "differs": f"✘ {WORDS['differs']}",
    }
)

#: Display name of each of the eleven measures of :data:`mlcbook.metrics.WU_ZHOU_MEASURES`
#: (the keys of :func:`mlcbook.metrics.all_measures`), as Wu & Zhou's Table 1 names them:
#: the registry's ``title`` of each.
MEASURE_NAMES: Mapping[str, str] = MappingProxyType(
    {m: get_measure(m).title for m in WU_ZHOU_MEASURES}
)

# shorter forms for narrow tables and figure axes; names not listed are short already
_SHORT = {"label_ranking_average_precision": "avg. precision"}


def measure_name(key: str, *, short: bool = False) -> str:
    """The display name of a measure key, e.g. ``"macro_auc"`` -> ``"macro-AUC"``.

    Parameters
    ----------
    key : str
        One of :data:`mlcbook.metrics.WU_ZHOU_MEASURES`.
    short : bool
        Abbreviate long names (``"avg. precision"``) for narrow tables.

    >>> measure_name("label_ranking_average_precision", short=True)
    'avg. precision'
    """
    if not isinstance(key, str):
        raise TypeError(f"key must be a str, got {type(key).__name__}")
    if key not in MEASURE_NAMES:
        raise ValueError(f"key must be one of {', '.join(WU_ZHOU_MEASURES)}, got {key!r}")
    return _SHORT.get(key, MEASURE_NAMES[key]) if short else MEASURE_NAMES[key]


def measure_names(keys: Iterable[str] = WU_ZHOU_MEASURES, *, short: bool = False) -> list[str]:
    """Display names of several measure keys (default: all eleven, in Table 1's order)."""
    return [measure_name(k, short=short) for k in keys]


def printed_decimals(text: Any) -> int | None:
    """Decimals written in a number as printed (``"0.80"`` -> 2, ``"12"`` -> 0).

    ``None`` for anything that is not a finite number written as text (``"-"``,
    ``"(0.3, 1)"``, ``""``, ``"nan"``, a float object).
    """
    if not isinstance(text, str):
        return None
    try:
        d = Decimal(text.strip())
    except InvalidOperation:
        return None
    if not d.is_finite():
        return None
    return max(0, -int(d.as_tuple().exponent))


def _shown(value: Any, decimals: int) -> str:
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return ""
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, (int, float, np.number)):
        return f"{float(value):.{decimals}f}"
    return str(value)


def _or(value: int | None, default: int) -> int:
    return default if value is None else value


def _shown_paper(v: Any) -> str:
    return "" if v is None or (isinstance(v, float) and math.isnan(v)) else str(v)


@validate_params(layout=OneOf(("columns", "rows")), decimals=Int(0, 17), agreement=Flag())
def side_by_side(
    paper: pd.DataFrame,
    ours: pd.DataFrame,
    *,
    layout: str = "columns",
    decimals: int = 3,
    agreement: bool = False,
) -> pd.DataFrame:
    """The paper's printed table beside ours, ours at the paper's printed precision.

    Parameters
    ----------
    paper : DataFrame
        The paper's table as printed: strings (``"0.80"``, ``"12"``, ``"-"``); a
        numeric cell gives its decimals to the cell of ours beside it.
    ours : DataFrame
        Our table with the same index and columns (numbers or text).  A number beside
        a non-numeric paper cell is printed with ``decimals`` decimals.
    layout : {'columns', 'rows'}
        ``'columns'``: each column becomes a pair ``(column, 'paper')``,
        ``(column, 'ours')``.  ``'rows'``: each row becomes two rows,
        ``(row, 'paper')`` above ``(row, 'ours')``.
    decimals : int
        Decimals for our numbers where the paper's cell is not a number.
    agreement : bool
        Add a column ``'same'``: how many cells of the row print the same on both
        sides, as ``"4/5"`` (with ``layout='rows'``, on the row of ours).

    Returns
    -------
    DataFrame of str
        Every cell as text, ready to show.

    Examples
    --------
    >>> paper = pd.DataFrame({"labels": ["6"], "card.": ["1.87"]}, index=["emotions"])
    >>> ours = pd.DataFrame({"labels": [6], "card.": [1.8685]}, index=["emotions"])
    >>> side_by_side(paper, ours, layout="rows", agreement=True).to_numpy().tolist()
    [['6', '1.87', ''], ['6', '1.87', '2/2']]
    """
    for name, frame in (("paper", paper), ("ours", ours)):
        if not isinstance(frame, pd.DataFrame):
            raise TypeError(f"{name} must be a DataFrame, got {type(frame).__name__}")
    if not (paper.index.equals(ours.index) and paper.columns.equals(ours.columns)):
        raise ValueError(
            "paper and ours must have the same index and columns, got "
            f"{list(paper.index)} x {list(paper.columns)} and "
            f"{list(ours.index)} x {list(ours.columns)}"
        )
    # a missing paper value prints empty (pandas 3 holds None as NaN)
    printed = paper.map(_shown_paper)
    shown = pd.DataFrame(
        [
            [
                _shown(ours.iat[i, j], _or(printed_decimals(printed.iat[i, j]), decimals))
                for j in range(ours.shape[1])
            ]
            for i in range(ours.shape[0])
        ],
        index=ours.index,
        columns=ours.columns,
    )
    same = [
        f"{int((printed.iloc[i] == shown.iloc[i]).sum())}/{ours.shape[1]}"
        for i in range(ours.shape[0])
    ]
    if layout == "columns":
        out = pd.concat({"paper": printed, "ours": shown}, axis=1).swaplevel(axis=1)
        out = out[[(c, side) for c in ours.columns for side in ("paper", "ours")]]
        if agreement:
            out[("same", "")] = same
        return out
    out = (
        pd.concat({"paper": printed, "ours": shown})
        .swaplevel()
        .sort_index(level=0, sort_remaining=False)
    )
    out = out.reindex(pd.MultiIndex.from_product([ours.index, ["paper", "ours"]]))
    if agreement:
        out["same"] = [s for pair in zip([""] * len(same), same) for s in pair]
    return out


class CompactTable:
    """A small table of text shown without its index: HTML for the book, text for nbval.

    Made by :func:`compact_table`; ``frame`` holds the cells (all text).  ``links`` maps
    a row (its position) to the end of its ``verdict`` cell that links to the ledger row
    behind it, and that anchor: on the page the end becomes a link.
    """

    def __init__(
        self,
        frame: pd.DataFrame,
        caption: str = "",
        links: Mapping[int, tuple[str, str]] | None = None,
    ) -> None:
        self.frame = frame
        self.caption = caption
        self.links = dict(links or {})

    def _repr_html_(self) -> str:
        shown = self.frame
        if self.links:
            shown = self.frame.copy()
            col = shown.columns.get_loc("verdict")
            for i, (end, _) in self.links.items():
                cell = str(shown.iat[i, col])
                shown.iat[i, col] = f"{cell[: len(cell) - len(end)]}[[ledger-link-{i}]]"
        html = shown.to_html(
            index=False, escape=True, border=0, classes="dataframe compact", justify="left"
        )
        for badge in BADGES.values():  # a verdict never breaks between its mark and word
            html = html.replace(escape(badge), escape(badge).replace(" ", "&nbsp;"))
        for i, (end, anchor) in self.links.items():
            link = f"<a class='ledger-link' href='#{escape(anchor)}'>{escape(end.strip())}</a>"
            html = html.replace(f"[[ledger-link-{i}]]", " " + link)
        if self.caption:
            head = html.index(">") + 1
            html = f"{html[:head]}<caption>{escape(self.caption)}</caption>{html[head:]}"
        return html

    def __repr__(self) -> str:
        text = self.frame.to_string(index=False)
        return f"{self.caption}\n{text}" if self.caption else text


def compact_table(frame: pd.DataFrame, caption: str = "") -> CompactTable:
    """Show ``frame`` as a compact table: its columns only (no index), every cell as text.

    For the short verdict tables of the chapters (claim, paper, ours, verdict), which
    must fit the text column: no index column of row numbers, and a plain-text form
    (the same cells) for the notebook's text output.

    >>> t = compact_table(pd.DataFrame({"claim": ["a < b"], "verdict": ["ok"]}), "Claims")
    >>> print(repr(t))
    Claims
    claim verdict
    a < b      ok
    >>> "<th>" in t._repr_html_() and "a &lt; b" in t._repr_html_()
    True
    """
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"frame must be a DataFrame, got {type(frame).__name__}")
    if not isinstance(caption, str):
        raise TypeError(f"caption must be a string, got {type(caption).__name__}")
    return CompactTable(frame.astype(str).reset_index(drop=True), caption)


def _ours_short(entry: Any) -> str:
    """Our side of a row in a few words: a value, or whether the rule holds."""
    if entry.kind == "ordering":
        text = "holds" if entry.holds else "does not hold"
        if entry.trials:
            text += f" ({entry.hits}/{entry.trials})"
        return text
    if entry.kind == "qualitative":
        return "agrees" if entry.holds else "does not agree"
    return str(entry.ours)


def verdicts(ledger: Any, labels: Mapping[str, str]) -> CompactTable:
    """A chapter's main claims in short: claim, paper, ours, verdict (no rule, no cause).

    Parameters
    ----------
    ledger : mlcrepro.ledger.Ledger
        The chapter's ledger (anything with ``entries`` of :class:`mlcrepro.ledger.Entry`).
    labels : mapping of str to str
        Claim id -> a short name of the claim, in the order to show; each id picks the
        first row that carries it.

    Returns
    -------
    CompactTable
        Columns ``claim`` (the label), ``paper`` (the paper's value or words as the row
        stores them), ``ours`` (a value; for an ordering whether its rule holds, with
        its robustness hits/trials; for a reading whether the evidence agrees) and
        ``verdict`` (the row's status; for a row that does not agree, its cause and claim
        id, a link to its row in the ledger on the page).  The ledger holds the rules.
    """
    if not isinstance(labels, Mapping) or not labels:
        raise TypeError("labels must be a non-empty mapping claim id -> short claim")
    entries = getattr(ledger, "entries", None)
    if entries is None:
        raise TypeError(f"ledger must be a Ledger, got {type(ledger).__name__}")
    by_id: dict[str, Any] = {}
    for e in entries:
        for i in e.claim_ids:
            by_id.setdefault(i, e)
    missing = [i for i in labels if i not in by_id]
    if missing:
        raise ValueError(f"no ledger row carries the claim ids {missing}")
    rows, links = [], {}
    for n, (i, label) in enumerate(labels.items()):
        e = by_id[i]
        verdict = BADGES[e.status]
        if e.status in _LINKED:
            ref = ledger_ref(e)
            end = f" ({ref['cause']}, {i})" if ref["cause"] else f" ({i})"
            links[n] = (end, i)
            verdict += end
        rows.append((label, e.paper, _ours_short(e), verdict))
    table = compact_table(pd.DataFrame(rows, columns=["claim", "paper", "ours", "verdict"]))
    table.links = links
    return table


#: the typographic minus sign of the tables (a hyphen lets a browser break the line there)
MINUS = "\u2212"


@validate_params(decimals=Int(0, 6))
def format_number(value: Any, decimals: int = 3) -> str:
    """A number as a person reads it in a table: fixed decimals, no scientific notation.

    * missing (``None``, NaN) -> ``"–"``; infinite -> ``"∞"`` (with its sign);
    * a value that rounds to zero prints as zero (never ``-0.000``), exact zero too;
    * from 0.001 up to a million, fixed ``decimals`` decimals, thousands separated by
      a thin space from 10,000 on (``"12 345.000"``); beyond a million, ``"1.23 × 10⁶"``;
    * a negative value starts with the minus sign ``−`` (U+2212), which a browser does
      not break a line after, as it does after a hyphen;
    * integers (and bools) print without decimals.

    Parameters
    ----------
    value : number or None
    decimals : int
        Decimals of a non-integer value (0-6; the book's tables use 3 or 4).

    Examples
    --------
    >>> [format_number(x) for x in (0.12345, -0.0000002, 0.0, 2.42e-2, -3.5, 7)]
    ['0.123', '0.000', '0', '0.024', '−3.500', '7']
    >>> format_number(float("nan")), format_number(1234567.0), format_number(12345.6, 1)
    ('–', '1.23 × 10⁶', '12\u2009345.6')
    """
    if value is None or (isinstance(value, (float, np.floating)) and np.isnan(value)):
        return "\u2013"
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, (int, np.integer)):
        n = int(value)
        text = f"{n:,}".replace(",", "\u2009") if abs(n) >= 10_000 else str(n)
        return text.replace("-", MINUS)
    if not isinstance(value, (float, np.floating)):
        raise TypeError(f"value must be a number or None, got {type(value).__name__}")
    x = float(value)
    if math.isinf(x):
        return ("" if x > 0 else MINUS) + "\u221e"
    if x == 0 or round(abs(x), decimals) == 0:
        return "0" if x == 0 else f"{0:.{decimals}f}"
    if abs(x) >= 1e6:
        exponent = math.floor(math.log10(abs(x)))
        sup = str(exponent).translate(str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻"))
        return f"{x / 10**exponent:.2f} × 10{sup}".replace("-", MINUS)
    text = f"{x:,.{decimals}f}"
    text = text.replace(",", "\u2009") if abs(x) >= 10_000 else text.replace(",", "")
    return text.replace("-", MINUS)


#: the statuses whose verdict cell in a comparison names its cause and links its ledger row
_LINKED = ("differs", "within spread", "within our spread", "fragile")


def ledger_ref(entry: Any) -> dict[str, str]:
    """The columns of a comparison row that link it to its ledger row: ``claim_id``, ``cause``.

    ``claim_id`` is the row's first claim id (the anchor of its row in the ledger shown on
    the same page, :func:`mlcrepro.ledger.html.claim_anchor`); ``cause`` the kind of its
    cause (empty for a row without one).  :func:`comparison_table` puts both at the end of
    the verdict of a row that does not agree.

    >>> from mlcrepro.ledger.rules import Entry, unknown
    >>> e = Entry("a", "", "1", "2", "differs", cause=unknown("not traced"),
    ...           claim_ids=("PR067",))
    >>> ledger_ref(e)
    {'claim_id': 'PR067', 'cause': 'unknown'}
    """
    ids = getattr(entry, "claim_ids", None)
    if not ids:
        raise ValueError(f"entry must be a ledger row with claim ids, got {entry!r}")
    cause = getattr(entry, "cause", None)
    return {"claim_id": str(ids[0]), "cause": cause.kind if cause is not None else ""}


def _tolerance(tol: float) -> str:
    """A tolerance to two significant digits, never rounded away (0.0005, not 0.001)."""
    if np.isnan(tol):
        return "\u2013"
    return np.format_float_positional(tol, precision=2, fractional=False, trim="-")


@validate_params(decimals=Int(0, 6))
def comparison_table(
    frame: pd.DataFrame,
    *,
    theirs: str = "paper",
    labels: Iterable[str] | None = None,
    decimals: int = 3,
    caption: str = "",
) -> CompactTable:
    """Ours beside theirs: label columns, ``ours``, theirs, ``difference``, ``verdict``.

    The one shape of every comparison the Reproduce pages show (ours against a paper's
    printed number, the authors' released results or the authors' code).  The tolerance
    a verdict was judged by goes into the caption when every row has the same one, and
    into one narrow column ``tol.`` otherwise, so that the verdict stays in view.

    Parameters
    ----------
    frame : DataFrame
        One row per comparison, with the columns ``ours`` and ``theirs`` (numbers),
        ``status`` (a ledger status, :data:`BADGES`) and optionally ``tol`` (the
        tolerance of the verdict, a number), optionally ``claim_id`` and ``cause`` (the
        ledger row behind the comparison, :func:`ledger_ref`); any other columns named in
        ``labels`` say what is compared (dataset, measure, ...).  With ``claim_id``, the
        verdict of a row that does not agree (✘, ±, ~) ends with its cause and its claim
        id, a link to the row in the ledger on the same page.
    theirs : str
        The name of the column of their numbers, shown as its header (``"paper"``,
        ``"authors"``, ``"Octave"``).
    labels : iterable of str, optional
        The label columns, in order (default: every column other than ``ours``,
        ``theirs``, ``tol`` and ``status``).
    decimals : int
        Decimals of every number (:func:`format_number`).
    caption : str
        The table's caption; the common tolerance is appended to it.

    Returns
    -------
    CompactTable

    Examples
    --------
    >>> rows = pd.DataFrame({"measure": ["Hamming loss", "one-error"],
    ...                      "ours": [0.20512, 0.3], "paper": [0.205, 0.31],
    ...                      "tol": [0.0005, 0.0005],
    ...                      "status": ["reproduced", "differs"]})
    >>> print(repr(comparison_table(rows, caption="Emotions")))
    Emotions (tolerance 0.0005)
         measure  ours paper difference    verdict
    Hamming loss 0.205 0.205      0.000 ✔ reproduced
       one-error 0.300 0.310     −0.010   ✘ differs
    >>> rows["claim_id"], rows["cause"] = ["PR016", "PR017"], ["", "unknown"]
    >>> t = comparison_table(rows)
    >>> t.frame["verdict"].tolist()
    ['✔ reproduced', '✘ differs (unknown, PR017)']
    >>> "href='#PR017'>(unknown, PR017)</a>" in t._repr_html_()
    True
    """
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"frame must be a DataFrame, got {type(frame).__name__}")
    missing = [c for c in ("ours", theirs, "status") if c not in frame.columns]
    if missing:
        raise ValueError(f"frame lacks the columns {missing}; it has {list(frame.columns)}")
    bad = sorted(set(frame["status"]) - set(BADGES))
    if bad:
        raise ValueError(f"frame has unknown statuses {bad}; expected one of {list(BADGES)}")
    fixed = {"ours", theirs, "tol", "status", "claim_id", "cause"}
    cols = [c for c in frame.columns if c not in fixed] if labels is None else list(labels)
    absent = [c for c in cols if c not in frame.columns]
    if absent:
        raise ValueError(f"labels names columns frame lacks: {absent}")
    ours = pd.to_numeric(frame["ours"], errors="coerce")
    them = pd.to_numeric(frame[theirs], errors="coerce")
    out = frame[cols].astype(str).copy()
    out["ours"] = [format_number(v, decimals) for v in ours]
    out[theirs] = [format_number(v, decimals) for v in them]
    out["difference"] = [format_number(v, decimals) for v in ours - them]
    note = caption
    if "tol" in frame.columns:
        tols = pd.to_numeric(frame["tol"], errors="coerce")
        if tols.nunique(dropna=False) == 1:
            shown = _tolerance(float(tols.iloc[0]))
            note = f"{caption} (tolerance {shown})" if caption else f"tolerance {shown}"
        else:
            out["tol."] = [_tolerance(v) for v in tols]
    out["verdict"] = [BADGES[s] for s in frame["status"]]
    links: dict[int, tuple[str, str]] = {}
    if "claim_id" in frame.columns:
        causes = frame["cause"] if "cause" in frame.columns else pd.Series("", frame.index)
        for i, (s, cid, why) in enumerate(zip(frame["status"], frame["claim_id"], causes)):
            if s in _LINKED and isinstance(cid, str) and cid:
                end = f" ({why}, {cid})" if isinstance(why, str) and why else f" ({cid})"
                links[i] = (end, cid)
                out.iat[i, out.columns.get_loc("verdict")] += end
    table = compact_table(out.reset_index(drop=True), note)
    table.links = links
    return table


class Collapsed:
    """Something shown behind a one-line summary that a reader clicks to open.

    Made by :func:`collapsed`; ``content`` is shown by its ``_repr_html_`` on the page and
    by its ``repr`` in the notebook's text output, below ``summary``.
    """

    def __init__(self, content: Any, summary: str) -> None:
        self.content = content
        frame = getattr(content, "frame", content)
        rows = len(frame) if isinstance(frame, pd.DataFrame) else None
        # the summary line says how long the table is, counted from it
        self.summary = summary if rows is None else f"{summary} ({rows} row{'s' * (rows != 1)})"

    def _repr_html_(self) -> str:
        inner = self.content._repr_html_()
        return (
            f"<details class='collapsed-section'><summary>{escape(self.summary)}</summary>"
            f"{inner}</details>"
        )

    def __repr__(self) -> str:
        return f"{self.summary}\n{self.content!r}"


def collapsed(content: Any, summary: str) -> Collapsed:
    """Show ``content`` (a table: anything with ``_repr_html_``) closed, behind ``summary``.

    The summary line says what the content found, so that a reader who does not open it
    still has the result, and how many rows a table holds (counted from it); the HTML is a
    ``<details>`` element, closed by default.

    >>> c = collapsed(compact_table(pd.DataFrame({"a": ["1"]})), "a = 1")
    >>> c._repr_html_().startswith("<details class='collapsed-section'><summary>a = 1 (1 row)")
    True
    >>> print(repr(c))
    a = 1 (1 row)
    a
    1
    """
    if not hasattr(content, "_repr_html_"):
        raise TypeError(
            f"content must have an HTML form (_repr_html_), got {type(content).__name__}"
        )
    if not isinstance(summary, str) or not summary.strip():
        raise ValueError("summary must be a non-empty string")
    return Collapsed(content, summary)
