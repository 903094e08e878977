"""The numbers a paper prints, each exactly as printed, beside the paper's claims inventory.

One job: read ``book/_claims/<key>.printed.csv``, where ``<key>`` is the paper's key
(the ``key`` of its :class:`~mlcrepro.paper.Paper`, the name of its folder), with the columns
:data:`PRINTED_COLUMNS`, and check each value's claim id against the paper's inventory
``book/_claims/<key>.csv`` (:mod:`mlcrepro.claims`).  The paper folders read their
printed numbers here; this module imports none of them, so the inventory module may
list the papers (:mod:`mlcrepro.papers`) without an import cycle.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from mlcbook.files import read_csv_exact
from mlcrepro._paths import project_root
from mlcrepro.ledger import check_claim_ids

__all__ = ["PRINTED_COLUMNS", "claims_folder", "read_columns", "printed"]

#: the columns of a paper's printed numbers (``<key>.printed.csv``)
PRINTED_COLUMNS = ("id", "table", "row", "column", "value")


def claims_folder(folder: str | Path | None = None) -> Path:
    """The folder of the inventories: ``folder``, or ``book/_claims`` of the project.

    >>> claims_folder().parts[-2:]
    ('book', '_claims')
    """
    if folder is None:
        return project_root() / "book" / "_claims"
    if not isinstance(folder, (str, Path)):
        raise TypeError(f"folder must be a path, got {type(folder).__name__}")
    return Path(folder)


def read_columns(path: Path, columns: tuple[str, ...]) -> pd.DataFrame:
    """The CSV file ``path`` as text, stripped, with exactly the columns ``columns``."""
    frame = read_csv_exact(path, dtype=str, keep_default_na=False)
    if tuple(frame.columns) != columns:
        raise ValueError(
            f"{path.name} must have the columns {list(columns)}, got {list(frame.columns)}"
        )
    return frame.apply(lambda c: c.str.strip())


def printed(
    paper: str, table: str | None = None, folder: str | Path | None = None
) -> pd.DataFrame:
    """The numbers a paper prints, each exactly as printed, with the id of its claim.

    Parameters
    ----------
    paper : str
        The paper's key (its folder, e.g. ``"wu_zhou2017"``).
    table : str, optional
        Only the values of this table or place (e.g. ``"Table B.3"``).
    folder : path, optional
        The folder of the inventories; ``book/_claims`` of the project by default.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`PRINTED_COLUMNS` (all text): ``id`` the claim the value belongs to
        (it must be an id of the paper's inventory), ``table``, ``row`` and ``column`` its
        place, ``value`` the text as printed.

    Raises
    ------
    ValueError
        For a paper without printed numbers or inventory, a malformed file, an id not in
        the paper's inventory, or a place given twice.

    Examples
    --------
    >>> printed("hivemall")["value"].tolist()
    ['0.6956521739130435', '0.6779661016949152']
    """
    if not isinstance(paper, str) or not paper:
        raise TypeError(f"paper must be a paper's key (a non-empty str), got {paper!r}")
    base = claims_folder(folder)
    path = base / f"{paper}.printed.csv"
    if not path.exists():
        raise ValueError(f"paper {paper!r} has no printed numbers: {path} is missing")
    inventory = base / f"{paper}.csv"
    if not inventory.exists():
        raise ValueError(f"paper {paper!r} has no inventory: {inventory} is missing")
    frame = read_columns(path, PRINTED_COLUMNS)
    ids = set(read_csv_exact(inventory, dtype=str, keep_default_na=False)["id"].str.strip())
    bad = sorted(set(frame["id"]) - ids - {""})
    if bad:
        raise ValueError(f"{path.name}: ids not in the {paper} inventory: {bad}")
    for i in frame["id"]:
        if i:
            check_claim_ids(i)
    place = frame[["table", "row", "column"]]
    if place.duplicated().any():
        raise ValueError(
            f"{path.name}: a place is given twice: {place[place.duplicated()].values.tolist()}"
        )
    if table is not None:
        frame = frame[frame["table"] == table].reset_index(drop=True)
        if frame.empty:
            raise ValueError(f"{path.name} has no values of {table!r}")
    return frame
