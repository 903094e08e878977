"""What would settle an open cause, and how many rows of each family say so.

A cause that is *unknown* or *underspecified* ends its text with the sentence of
:func:`settle_by`: the experiment that would settle it (a command of ``mlcrepro`` or
``make`` where one can run it) or the material (the authors' code, data or setting, by
name).  :func:`cause_families` counts, from a ledger's rows, how many open rows of each
family of causes name their settler; ``mlcrepro causes`` prints it for the saved ledgers.
"""

from __future__ import annotations

import re

import pandas as pd

__all__ = ["SETTLE", "OPEN_CAUSES", "settle_by", "settler", "cause_family", "cause_families"]

#: how the sentence that says what would settle a cause begins
SETTLE = "What would settle it: "
#: the cause classes that are open: their rows must say what would settle them
OPEN_CAUSES = ("unknown", "underspecified")


def settle_by(material: str = "", run: str = "") -> str:
    """The sentence that ends an open cause: the ``run`` and/or the ``material`` that settle it.

    Parameters
    ----------
    material : str
        The material, by name: the authors' code, data or setting the paper does not give.
    run : str
        An experiment, as the command that runs it here (shown as code).

    Examples
    --------
    >>> settle_by(material="the authors' split of Enron")
    "What would settle it: the authors' split of Enron."
    >>> settle_by("the paper's gamma", run="make table NAME=demo")
    "What would settle it: running `make table NAME=demo`, or the paper's gamma."
    >>> settle_by()
    Traceback (most recent call last):
    ...
    ValueError: settle_by needs the material or the run that would settle the cause
    """
    if not isinstance(material, str) or not isinstance(run, str):
        raise TypeError("material and run must be text")
    parts = ([f"running `{run.strip()}`"] if run.strip() else []) + (
        [material.strip().rstrip(".")] if material.strip() else []
    )
    if not parts:
        raise ValueError("settle_by needs the material or the run that would settle the cause")
    return SETTLE + ", or ".join(parts) + "."


def settler(text: str) -> str:
    """What the cause ``text`` names as its settler ("" when it names none).

    >>> settler("not known. " + settle_by("the authors' code"))
    "the authors' code"
    >>> settler("not known")
    ''
    """
    i = str(text).rfind(SETTLE)
    return "" if i < 0 else str(text)[i + len(SETTLE) :].strip().rstrip(".")


def cause_family(text: str) -> str:
    """The family of a cause: its first clause (up to ``:``, ``;`` or ``(``), digits as ``#``.

    Rows whose cause one rule made share it, whatever the row's own numbers.

    >>> cause_family("training halves: ours 0.93 against 0.82")
    'training halves'
    >>> cause_family("F1 at beta = 2 (rho 0.5)")
    'F# at beta = #'
    """
    head = re.split(r"[:;(]", str(text), maxsplit=1)[0].strip()
    return re.sub(r"\d+(\.\d+)?", "#", head)[:80]


def cause_families(frame: pd.DataFrame) -> pd.DataFrame:
    """Per ledger and family of open causes: rows, rows naming their settler, the settlers.

    ``frame`` holds ledger rows (:meth:`mlcrepro.ledger.Ledger.to_frame`, or saved
    ledgers read back) with the columns ``chapter``, ``cause`` and ``note`` (the cause's
    text).  Families are told apart by the cause, its first clause
    (:func:`cause_family`); ``settler`` lists the settlers named, one of each
    that differs from the others only in its digits.

    Examples
    --------
    >>> rows = pd.DataFrame({"chapter": "demo", "cause": ["unknown", "unknown", "tested"],
    ...     "note": ["split: 0.1. " + settle_by("the split"), "split: 0.2", "fine"]})
    >>> cause_families(rows)[["family", "rows", "settled", "settler"]]
      family  rows  settled    settler
    0  split     2        1  the split
    """
    need = {"chapter", "cause", "note"}
    if not isinstance(frame, pd.DataFrame) or not need <= set(frame.columns):
        raise ValueError(f"frame must be a DataFrame of ledger rows with the columns {need}")
    rows = frame[frame["cause"].isin(OPEN_CAUSES)].fillna({"note": ""})
    said = rows["note"].map(settler)
    out = pd.DataFrame(
        {
            "chapter": rows["chapter"],
            "cause": rows["cause"],
            "family": rows["note"].map(cause_family),
            "settled": said != "",
            "settler": said,
        }
    )
    out["_key"] = out["settler"].str.replace(r"\d+(\.\d+)?", "#", regex=True)
    groups = []
    for (chapter, cause, family), g in out.groupby(
        ["chapter", "cause", "family"], sort=False, dropna=False
    ):
        named = g[g["settled"]]
        groups.append(
            {
                "chapter": chapter,
                "cause": cause,
                "family": family,
                "rows": len(g),
                "settled": int(g["settled"].sum()),
                "settler": " | ".join(named.drop_duplicates("_key")["settler"]),
            }
        )
    cols = ["chapter", "cause", "family", "rows", "settled", "settler"]
    return pd.DataFrame(groups, columns=cols)
