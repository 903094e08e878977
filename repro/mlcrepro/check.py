"""One claim, checked by its id: what the paper says, what we found, and why they differ.

``mlcrepro check HU098`` prints, for every ledger row that carries the claim id, the
paper's claim and where the paper makes it (from the claims inventory), the paper's
value, ours, the tolerance or spread the verdict was judged by, the status, and for a
row that differs its cause with the evidence behind it.  It reads the saved ledgers
(``book/_ledgers``) and the inventories (``book/_claims``), so it answers in a second.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pandas as pd

from mlcrepro.claims import load_extras, load_inventory
from mlcrepro.ledger import CLAIM_ID, load_ledgers
from mlcrepro.papers import ledger_page

__all__ = ["rows_of", "describe"]

_WIDTH = 88


def rows_of(claim_id: str, ledgers: pd.DataFrame | None = None) -> pd.DataFrame:
    """The saved ledger rows that carry ``claim_id``, with their ledger and row number.

    Parameters
    ----------
    claim_id : str
        A claim id such as ``"HU098"`` (an ``EX`` id for a row that checks no paper's
        claim).
    ledgers : DataFrame, optional
        The saved ledgers (:func:`mlcrepro.ledger.load_ledgers` by default).

    Returns
    -------
    DataFrame
        The rows, with ``row``: the row's number (1-based) in its ledger.

    Raises
    ------
    ValueError
        If ``claim_id`` is not of the form of an id, or no row carries it.

    Examples
    --------
    >>> rows_of("HM001")[["chapter", "row", "status"]].to_numpy().tolist()
    [['measures', 19, 'reproduced']]
    """
    if not isinstance(claim_id, str) or not CLAIM_ID.match(claim_id.strip()):
        raise ValueError(f"claim_id must be an id such as 'HU012', got {claim_id!r}")
    claim_id = claim_id.strip()
    frame = load_ledgers() if ledgers is None else ledgers
    frame = frame.copy()
    frame["row"] = frame.groupby("chapter", sort=False).cumcount() + 1
    hits = frame[frame["claim_ids"].astype(str).str.split().map(lambda ids: claim_id in ids)]
    if hits.empty:
        raise ValueError(f"no ledger row carries the claim id {claim_id!r}")
    return hits


def _inventory_line(claim_id: str, folder: str | Path | None) -> str:
    if claim_id.startswith("EX"):
        extras = load_extras(folder)
        hit = extras[extras.get("id", pd.Series(dtype=str)) == claim_id]
        why = hit["why"].iloc[0] if len(hit) else ""
        return f"a check of ours, not a claim of a paper{': ' + why if why else ''}"
    inv = load_inventory(folder)
    hit = inv[inv["id"] == claim_id]
    if hit.empty:
        return ""
    r = hit.iloc[0]
    return f"{r['paper']}, {r['location']}: {r['claim']}"


def _field(name: str, value: object) -> list[str]:
    text = "" if value is None or (isinstance(value, float) and pd.isna(value)) else str(value)
    if not text.strip():
        return []
    return textwrap.wrap(
        text, _WIDTH, initial_indent=f"{name:<11}", subsequent_indent=" " * 11
    ) or [name]


def describe(claim_id: str, *, claims: str | Path | None = None) -> str:
    """A readable account of every ledger row that carries ``claim_id``.

    Parameters
    ----------
    claim_id : str
        A claim id (``"PR016"``).
    claims : path, optional
        The folder of the claims inventories (``book/_claims`` by default).

    Returns
    -------
    str
        For each row: the claim as the paper makes it, the row's claim, the paper's value,
        ours, the tolerance or spread, the status, and for a row that differs its cause
        and evidence; then where the row is shown.

    Examples
    --------
    >>> print(describe("HM001"))  # doctest: +ELLIPSIS
    HM001  Hivemall, fmeasure example: micro F1 of the cat/dog/bird toy example is
           0.6956521739130435
    <BLANKLINE>
    row        micro F1 of the cat/dog/bird example (Hivemall guide, fmeasure)
    ...
    status     reproduced
    shown      Zhang & Zhou (2014)'s Reproduce page, ledger measures, row 19
    """
    rows = rows_of(claim_id)
    claim_id = claim_id.strip()
    out = []
    head = _inventory_line(claim_id, claims)
    out += textwrap.wrap(f"{claim_id}  {head}", _WIDTH, subsequent_indent=" " * 7)
    for _, r in rows.iterrows():
        paper = ledger_page(str(r["chapter"]))
        out.append("")
        out += _field("row", f"{r['claim']} ({r['source']})")
        out += _field("paper", r["paper"])
        out += _field("ours", r["ours"])
        tol = pd.to_numeric(r.get("tol"), errors="coerce")
        spread = pd.to_numeric(r.get("spread"), errors="coerce")
        if pd.notna(spread):
            whose = "ours" if r.get("spread_of") == "ours" else "the paper's"
            out += _field("spread", f"± {spread:g} ({whose}), printed to ± {tol:g}")
        elif pd.notna(tol):
            out += _field("tolerance", f"± {tol:g}")
        if str(r.get("trials", "")).strip():
            out += _field("robustness", f"holds on {r['hits']} of {r['trials']} resamples")
        out += _field("status", r["status"])
        if r["status"] == "differs":
            out += _field("cause", r["cause"])
        out += _field("evidence", r.get("cause_ref"))
        out += _field("note", r.get("note"))
        out += _field(
            "shown", f"{paper.citation}'s Reproduce page, ledger {r['chapter']}, row {r['row']}"
        )
    return "\n".join(out)
