"""The claims inventory: every checkable claim of each paper, and where the book checks it.

Each paper of :data:`mlcrepro.papers.PAPERS` has a committed inventory
``book/_claims/<key>.csv`` (``<key>`` the name of its folder, the ``key`` of its
:class:`~mlcrepro.paper.Paper`) with one line per checkable claim (a table cell, a
worked example, a stated ordering or trend, a theorem statement that can be checked
numerically) and the columns

``id``
    A stable identifier (``HU001``, ...).
``location``
    Where the paper states it (``Table 2, Emotions``; ``Sec. 4.4, example 1``).
``claim``
    The claim, in our words.
``kind``
    One of :data:`mlcrepro.ledger.KINDS` (``number``, ``spread``, ``exact``,
    ``ordering``, ``qualitative``): the rule its ledger row is judged by.
``ledger``
    Where the claim is checked, for a reader: ``"<chapter>:<claim text of the ledger
    row>"``; several references are separated by ``" || "``.  The link itself is the
    claim's id: a ledger row names the ids of the claims it checks (its ``claim_ids``,
    :class:`mlcrepro.ledger.Ledger`), so rewording a row breaks nothing.  A claim whose
    id no saved row carries yet is matched by this text, as before ids existed.
``not_reproduced``
    Why the claim is not reproduced (``"Stare not available: ..."``), for a claim with
    no ledger row.
``todo``
    What would check a claim without a ledger row: the chapter that should hold it and
    what to compute, or who adds the row.  A claim with a ``todo`` and a reference that
    does not resolve yet is *announced*; once the row exists the ``todo`` must go
    (:func:`problems` reports it).

Ledger rows that are not claims of a paper (a second check by simulation, a file
anomaly we found) are listed once in ``book/_claims/extra.csv`` (``ledger``, ``why``,
and optionally ``id``: an ``EX``-id the row carries like a claim id), so that every
ledger row is accounted for.

The numbers a paper prints have one home beside its inventory,
``book/_claims/<key>.printed.csv``, read by :func:`mlcrepro.printed_numbers.printed`:
each value exactly as printed, with the id of the claim it belongs to.

:func:`coverage` counts per paper the claims with a ledger row, those not reproduced
with a reason, and those missing; :func:`problems` lists every reference that does not
resolve to exactly one ledger row and every ledger row no claim refers to.
"""

from __future__ import annotations

import csv
import difflib
from pathlib import Path
from typing import Any

import pandas as pd

from mlcbook.files import atomic_write, read_csv_exact
from mlcrepro import papers
from mlcrepro.ledger import KINDS, row_anchor
from mlcrepro.printed_numbers import claims_folder, read_columns
from mlcrepro.summary import row_paper

__all__ = [
    "inventories",
    "COLUMNS",
    "SEPARATOR",
    "load_inventory",
    "load_extras",
    "parse_refs",
    "resolve",
    "coverage",
    "problems",
    "suggest_relinks",
    "relink",
    "clear_done_todos",
]

#: the columns of an inventory file
COLUMNS = ("id", "location", "claim", "kind", "ledger", "not_reproduced", "todo")
#: separates several ledger references of one claim
SEPARATOR = " || "


_folder = claims_folder
_read = read_columns


def inventories() -> dict[str, str]:
    """The inventories: each paper's key (the file ``book/_claims/<key>.csv``) and the
    paper it covers as the ledgers name it (its citation), for every paper of
    :data:`mlcrepro.papers.PAPERS`, in the book's order.

    >>> inventories()["park_read2018"]
    'Park & Read (2018)'
    """
    return {p.key: p.citation for p in papers.PAPERS}


def load_inventory(folder: str | Path | None = None) -> pd.DataFrame:
    """Read every paper's inventory into one table (columns :data:`COLUMNS` and ``paper``).

    Parameters
    ----------
    folder : path, optional
        The folder of the inventories; ``book/_claims`` of the project by default.

    Raises
    ------
    ValueError
        If a paper's file is missing or malformed: wrong columns, an empty or repeated
        ``id``, an empty claim or location, an unknown ``kind``, a claim with both a
        ledger reference and a reason for not reproducing it, or with neither (and no
        ``todo`` saying what is missing).
    """
    folder = _folder(folder)
    frames = []
    for key, paper in inventories().items():
        path = folder / f"{key}.csv"
        if not path.exists():
            raise ValueError(f"no inventory for {paper}: {path} is missing")
        frames.append(_read(path, COLUMNS).assign(paper=paper))
    inv = pd.concat(frames, ignore_index=True)
    where = inv["paper"] + " " + inv["id"]
    bad = []
    for col in ("id", "location", "claim"):
        bad += [f"{w}: empty {col}" for w in where[inv[col] == ""]]
    dup = inv["id"][inv["id"].duplicated() & (inv["id"] != "")]
    bad += [f"id {i} is used twice" for i in sorted(set(dup))]
    bad += [
        f"{w}: kind {k!r} is not one of {KINDS}"
        for w, k in zip(where, inv["kind"])
        if k not in KINDS
    ]
    both = (inv["ledger"] != "") & (inv["not_reproduced"] != "")
    bad += [
        f"{w}: has both a ledger reference and a reason for not reproducing it"
        for w in where[both]
    ]
    none = (inv["ledger"] == "") & (inv["not_reproduced"] == "") & (inv["todo"] == "")
    bad += [
        f"{w}: needs a ledger reference, a reason for not reproducing it, or a todo"
        for w in where[none]
    ]
    for w, refs in zip(where, inv["ledger"]):
        try:
            parse_refs(refs)
        except ValueError as err:
            bad.append(f"{w}: {err}")
    if bad:
        raise ValueError("the claims inventory is malformed:\n  " + "\n  ".join(bad))
    return inv


def _extra_columns(path: Path) -> tuple[str, ...]:
    """The columns of ``extra.csv``: ``ledger, why``, with a leading ``id`` once ids exist."""
    with_id = read_csv_exact(path, dtype=str, keep_default_na=False, nrows=0).columns[0] == "id"
    return ("id", "ledger", "why") if with_id else ("ledger", "why")


def load_extras(folder: str | Path | None = None) -> pd.DataFrame:
    """Ledger rows that are not claims of a paper, with why (``book/_claims/extra.csv``)."""
    path = _folder(folder) / "extra.csv"
    if not path.exists():
        return pd.DataFrame(columns=["id", "ledger", "why"])
    columns = _extra_columns(path)
    extras = _read(path, columns)
    if "id" not in columns:
        extras.insert(0, "id", "")
    dup = extras["id"][(extras["id"] != "") & extras["id"].duplicated()]
    if len(dup):
        raise ValueError(f"extra.csv: id used twice: {sorted(set(dup))}")
    empty = extras["why"] == ""
    if empty.any():
        rows = extras["ledger"][empty].tolist()
        raise ValueError(f"extra.csv: say why each row is extra: {rows}")
    for ref in extras["ledger"]:
        if len(parse_refs(ref)) != 1:
            raise ValueError(f"extra.csv: one ledger reference per line, got {ref!r}")
    return extras


def parse_refs(text: str) -> list[tuple[str, str]]:
    """Split a ``ledger`` cell into ``(chapter, claim)`` pairs.

    >>> parse_refs("losses:marginal probability of each label")
    [('losses', 'marginal probability of each label')]
    >>> parse_refs("")
    []
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a string, got {type(text).__name__}")
    out = []
    for ref in filter(None, (r.strip() for r in text.split(SEPARATOR.strip()))):
        chapter, sep, claim = ref.partition(":")
        if not sep or not chapter.strip() or not claim.strip():
            raise ValueError(f"a ledger reference is '<chapter>:<claim text>', got {ref!r}")
        out.append((chapter.strip(), claim.strip()))
    return out


def _ledger_rows(ledgers: pd.DataFrame) -> pd.DataFrame:
    if not isinstance(ledgers, pd.DataFrame):
        raise TypeError(f"ledgers must be a pandas DataFrame, got {type(ledgers).__name__}")
    missing = [c for c in ("chapter", "claim", "status") if c not in ledgers.columns]
    if missing:
        raise ValueError(f"ledgers lacks the columns {missing} (see load_ledgers)")
    rows = ledgers[["chapter", "claim", "status"]].astype(str).copy()
    rows["claim"] = rows["claim"].str.strip()
    ids = ledgers["claim_ids"] if "claim_ids" in ledgers.columns else pd.Series("", ledgers.index)
    rows["ids"] = [tuple(str(v).split()) if isinstance(v, str) else () for v in ids]
    rows["row"] = rows.groupby("chapter", sort=False).cumcount() + 1
    # the paper a row is about, from its chapter's paper_ref and its source (as the
    # summaries count it); unknown ("") when the ledgers do not carry those columns
    if {"paper_ref", "source"} <= set(ledgers.columns):
        rows["paper"] = [
            _row_paper(str(p), str(s)) for p, s in zip(ledgers["paper_ref"], ledgers["source"])
        ]
    else:
        rows["paper"] = ""
    return rows


def _row_paper(paper_ref: str, source: str) -> str:
    try:
        return row_paper(paper_ref, source)
    except ValueError:  # a source naming none of the chapter's papers
        return "?"


def resolve(inventory: pd.DataFrame, ledgers: pd.DataFrame) -> pd.DataFrame:
    """Every ledger reference of the inventory with the ledger rows it matches.

    Parameters
    ----------
    inventory : pandas.DataFrame
        As :func:`load_inventory` returns it.
    ledgers : pandas.DataFrame
        The saved ledgers (:func:`mlcrepro.ledger.load_ledgers`), each chapter's rows in
        the order of its table.

    Returns
    -------
    pandas.DataFrame
        One line per reference: ``paper``, ``id``, ``chapter``, ``ledger_claim``,
        ``matches`` (how many rows of the chapter have that claim text), and for a
        unique match its ``row`` (1-based), ``anchor`` (:func:`mlcrepro.ledger.row_anchor`),
        ``status`` and ``row_paper``, the paper the row is about by its source
        (:func:`mlcrepro.summary.row_paper`; empty when the ledgers lack ``paper_ref`` or
        ``source``).
    """
    rows = _ledger_rows(ledgers)
    index = rows.groupby(["chapter", "claim"], sort=False)
    found = {k: g for k, g in index}
    by_id: dict[str, list[Any]] = {}
    for row in rows.itertuples():
        for i in row.ids:
            by_id.setdefault(i, []).append(row)
    out = []
    for r in inventory.itertuples():
        carried = by_id.get(r.id, [])
        for one in carried:  # the rows that name the claim's id: the link itself
            out.append(
                {
                    "paper": r.paper,
                    "id": r.id,
                    "chapter": one.chapter,
                    "ledger_claim": one.claim,
                    "matches": 1,
                    "row": int(one.row),
                    "anchor": row_anchor(one.chapter, int(one.row)),
                    "status": one.status,
                    "row_paper": one.paper,
                }
            )
        if carried:
            continue
        for chapter, claim in parse_refs(r.ledger):
            hit = found.get((chapter, claim))
            n = 0 if hit is None else len(hit)
            one = hit.iloc[0] if hit is not None and n == 1 else None
            out.append(
                {
                    "paper": r.paper,
                    "id": r.id,
                    "chapter": chapter,
                    "ledger_claim": claim,
                    "matches": n,
                    "row": None if one is None else int(one["row"]),
                    "anchor": "" if one is None else row_anchor(chapter, int(one["row"])),
                    "status": "" if one is None else one["status"],
                    "row_paper": "" if one is None else one["paper"],
                }
            )
    cols = [
        "paper",
        "id",
        "chapter",
        "ledger_claim",
        "matches",
        "row",
        "anchor",
        "status",
        "row_paper",
    ]
    table = pd.DataFrame(out, columns=cols)
    table["row"] = table["row"].astype("Int64")
    return table


def _states(inventory: pd.DataFrame, ledgers: pd.DataFrame) -> pd.Series:
    """Per claim: 'ledger', 'not reproduced', 'announced' or 'missing'."""
    refs = resolve(inventory, ledgers)
    ok = refs.groupby("id")["matches"].agg(lambda m: bool(len(m)) and bool((m == 1).all()))
    state = []
    for r in inventory.itertuples():
        if ok.get(r.id, False):
            state.append("ledger")
        elif r.not_reproduced:
            state.append("not reproduced")
        elif r.ledger and r.todo:
            state.append("announced")
        else:
            state.append("missing")
    return pd.Series(state, index=inventory.index, name="state")


def coverage(inventory: pd.DataFrame, ledgers: pd.DataFrame) -> pd.DataFrame:
    """Per paper: its claims, those with a ledger row, not reproduced, announced and missing.

    A claim counts as *with a ledger row* only if each of its references resolves to
    exactly one row of the saved ledgers; *not reproduced* if it gives the reason;
    *announced* if its row is named (a reference plus a ``todo``) but not there yet;
    *missing* otherwise.

    Parameters
    ----------
    inventory, ledgers : pandas.DataFrame
        As for :func:`resolve`.

    Returns
    -------
    pandas.DataFrame
        Index: the papers in the order of :func:`inventories`, then ``"all papers"``; columns
        ``claims``, ``with ledger row``, ``not reproduced``, ``announced``, ``missing``,
        ``ledger %`` (claims with a row, percent) and ``accounted %`` (with a row or a
        reason for not reproducing, percent), both rounded to one decimal.
    """
    if not isinstance(inventory, pd.DataFrame) or "paper" not in inventory.columns:
        raise TypeError("inventory must be the DataFrame returned by load_inventory")
    state = _states(inventory, ledgers)
    kinds = ["ledger", "not reproduced", "announced", "missing"]
    table = (
        pd.crosstab(inventory["paper"], state)
        .reindex(columns=kinds, fill_value=0)
        .reindex([p for p in inventories().values() if p in set(inventory["paper"])])
    )
    table.loc["all papers"] = table.sum()
    table = table.rename(columns={"ledger": "with ledger row"})
    table.insert(0, "claims", table.sum(axis=1))
    total = table["claims"].where(table["claims"] > 0)
    table["ledger %"] = (100 * table["with ledger row"] / total).round(1)
    table["accounted %"] = (
        100 * (table["with ledger row"] + table["not reproduced"]) / total
    ).round(1)
    table.index.name = None
    table.columns.name = None
    return table


def problems(
    inventory: pd.DataFrame, ledgers: pd.DataFrame, extras: pd.DataFrame | None = None
) -> list[str]:
    """What keeps the inventory and the ledgers from matching one to one, as sentences.

    * a reference that matches no ledger row, unless its claim has a ``todo`` (announced);
    * a reference that matches several rows (make the claim texts unique);
    * a reference to a row whose source names another paper;
    * an announced claim whose row now exists (drop its ``todo``);
    * a ledger row that no claim refers to and that ``extras`` does not list;
    * an extra that matches no row, or that a claim refers to as well.
    """
    extras = load_extras() if extras is None else extras
    if "id" not in extras.columns:
        extras = extras.assign(id="")
    refs = resolve(inventory, ledgers)
    todo = dict(zip(inventory["id"], inventory["todo"]))
    out = []
    for r in refs.itertuples():
        ref = f"{r.paper} {r.id} -> {r.chapter}:{r.ledger_claim!r}"
        if r.matches == 0 and not todo[r.id]:
            out.append(f"{ref} matches no ledger row")
        elif r.matches > 1:
            out.append(f"{ref} matches {r.matches} ledger rows")
        elif r.matches == 1 and r.row_paper not in ("", r.paper):
            out.append(f"{ref} is a row about {r.row_paper} (by its source), not {r.paper}")
    states = _states(inventory, ledgers)
    stale = inventory[(states == "ledger") & (inventory["todo"] != "")]
    out += [
        f"{r.paper} {r.id}: its ledger row exists now; drop the todo" for r in stale.itertuples()
    ]
    rows = _ledger_rows(ledgers)
    keys = set(zip(rows["chapter"], rows["claim"]))
    claimed = set(zip(refs["chapter"], refs["ledger_claim"]))
    extra_ids = set(extras["id"]) - {""}
    carried = {i for ids in rows["ids"] for i in ids}
    extra = {
        ref
        for cell, i in zip(extras["ledger"], extras["id"])
        for ref in parse_refs(cell)
        if i not in carried  # an extra whose id a row carries is linked by its id
    }
    known = set(inventory["id"]) | extra_ids
    for r in rows.itertuples():
        for i in sorted(set(r.ids) - known):
            out.append(f"ledger row {r.chapter} {r.row} {r.claim!r} names unknown claim id {i}")
        if set(r.ids) & extra_ids and set(r.ids) & set(inventory["id"]):
            out.append(f"ledger row {r.chapter} {r.row} {r.claim!r} is both a claim and an extra")
    out += [f"extra {i} is carried by no ledger row" for i in sorted(extra_ids - carried)]
    out += [f"extra {c}:{t!r} matches no ledger row" for c, t in sorted(extra - keys)]
    out += [f"extra {c}:{t!r} is also a claim's ledger row" for c, t in sorted(extra & claimed)]
    for r in rows.itertuples():
        if r.ids:
            continue  # linked by id: to a claim (resolved above) or to an extra
        if (r.chapter, r.claim) not in claimed | extra:
            out.append(
                f"ledger row {r.chapter} {r.row} {r.claim!r} is referred to by no "
                "claim (add it to a paper's inventory or to extra.csv)"
            )
    return out


def suggest_relinks(
    inventory: pd.DataFrame,
    ledgers: pd.DataFrame,
    extras: pd.DataFrame | None = None,
    cutoff: float = 0.6,
) -> pd.DataFrame:
    """Pair each reference that matches no row with the renamed row it most likely means.

    When a chapter rewords a row's claim text, the inventory's reference stops resolving
    and the reworded row is claimed by nobody.  Within each chapter, the references
    that match no row (of the inventory and of ``extras``) are paired one to one with
    the rows no reference matches, most similar first (:class:`difflib.SequenceMatcher`
    ratio of the two texts, at least ``cutoff``).  The pairs are suggestions for a person
    to read, and :func:`relink` applies them.

    Returns
    -------
    pandas.DataFrame
        Columns ``chapter``, ``old`` (the reference's claim text), ``new`` (the row's claim
        text), ``row`` and ``similarity``, most similar first.
    """
    if not 0.0 <= cutoff <= 1.0:
        raise ValueError(f"cutoff must lie in [0, 1], got {cutoff!r}")
    extras = load_extras() if extras is None else extras
    rows = _ledger_rows(ledgers)
    keys = set(zip(rows["chapter"], rows["claim"]))
    refs = {ref for cell in inventory["ledger"] for ref in parse_refs(cell)}
    refs |= {ref for cell in extras["ledger"] for ref in parse_refs(cell)}
    dangling = sorted(refs - keys)
    unclaimed = [
        (c, t, r)
        for c, t, r in zip(rows["chapter"], rows["claim"], rows["row"])
        if (c, t) not in refs
    ]
    pairs = []
    for chapter, old in dangling:
        for c, new, row in unclaimed:
            if c == chapter:
                ratio = difflib.SequenceMatcher(None, old, new).ratio()
                if ratio >= cutoff:
                    pairs.append((ratio, chapter, old, new, int(row)))
    used_old: set[tuple[str, str]] = set()
    used_new: set[tuple[str, str]] = set()
    out = []
    for ratio, chapter, old, new, row in sorted(pairs, key=lambda p: -p[0]):
        if (chapter, old) in used_old or (chapter, new) in used_new:
            continue
        used_old.add((chapter, old))
        used_new.add((chapter, new))
        out.append(
            {"chapter": chapter, "old": old, "new": new, "row": row, "similarity": round(ratio, 3)}
        )
    return pd.DataFrame(out, columns=["chapter", "old", "new", "row", "similarity"])


def _write(path: Path, frame: pd.DataFrame) -> None:
    with atomic_write(path, "w", newline="") as fh:
        frame.to_csv(fh, index=False, quoting=csv.QUOTE_MINIMAL, lineterminator="\n")


def relink(pairs: pd.DataFrame, folder: str | Path | None = None) -> int:
    """Rewrite the references ``chapter:old`` as ``chapter:new`` in every inventory file.

    ``pairs`` has the columns ``chapter``, ``old`` and ``new`` (e.g. the reviewed output of
    :func:`suggest_relinks`).  The paper files and ``extra.csv`` of ``folder`` are
    rewritten in place (each atomically); the number of references changed is returned.
    """
    if not isinstance(pairs, pd.DataFrame) or not {"chapter", "old", "new"} <= set(pairs.columns):
        raise TypeError("pairs must be a DataFrame with the columns chapter, old and new")
    folder = _folder(folder)
    mapping = {(c, o): n for c, o, n in zip(pairs["chapter"], pairs["old"], pairs["new"])}
    changed = 0
    files = [folder / f"{key}.csv" for key in inventories()] + [folder / "extra.csv"]
    for path in files:
        if not path.exists():
            continue
        columns = COLUMNS if path.name != "extra.csv" else _extra_columns(path)
        frame = _read(path, columns)
        cells = []
        for cell in frame["ledger"]:
            refs = parse_refs(cell)
            new = [(c, mapping.get((c, t), t)) for c, t in refs]
            changed += sum(a != b for a, b in zip(refs, new))
            cells.append(SEPARATOR.join(f"{c}:{t}" for c, t in new))
        frame["ledger"] = cells
        _write(path, frame)
    return changed


def clear_done_todos(ledgers: pd.DataFrame, folder: str | Path | None = None) -> int:
    """Drop the ``todo`` of every claim whose ledger references all resolve now.

    An announced claim (a reference plus a ``todo`` saying who adds the row) is done once
    its row exists; :func:`problems` reports it until its ``todo`` goes.  The paper files
    of ``folder`` are rewritten in place; the number of claims changed is returned.
    """
    folder = _folder(folder)
    inventory = load_inventory(folder)
    done = inventory[(_states(inventory, ledgers) == "ledger") & (inventory["todo"] != "")]
    for key, paper in inventories().items():
        ids = set(done.loc[done["paper"] == paper, "id"])
        if ids:
            path = folder / f"{key}.csv"
            frame = _read(path, COLUMNS)
            frame.loc[frame["id"].isin(ids), "todo"] = ""
            _write(path, frame)
    return len(done)
