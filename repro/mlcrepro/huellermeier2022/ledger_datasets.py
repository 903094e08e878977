"""The datasets chapter's ledger: Hüllermeier et al. (2022), Table 2.

One job: set the statistics of the loaded benchmark files
(:func:`mlcbook.datasets.dataset_statistics`) beside the paper's Table 2, read as
printed from ``book/_claims/huellermeier-2022.printed.csv`` (:func:`table2`), and
write the chapter's ledger (:func:`datasets_ledger`), each row with the id of the
claim it checks (``book/_claims``).
"""

from __future__ import annotations

import pandas as pd

from mlcrepro.claims import printed
from mlcrepro.display import CompactTable, compact_table
from mlcrepro.huellermeier2022.evidence import add_empty_prediction_hamming
from mlcrepro.ledger import BADGES, Ledger, tested, underspecified

__all__ = ["COLUMNS", "NAMES", "table2", "table2_keys", "datasets_ledger", "verdict_table"]

#: the statistics of Table 2, as :func:`mlcbook.datasets.dataset_statistics` names them
COLUMNS = (
    "instances",
    "labels",
    "label_to_instance_ratio",
    "distinct_combinations",
    "cardinality",
)
#: the paper's name of each dataset -> the registry's
NAMES = {
    "Birds": "birds",
    "Emotions": "emotions",
    "Enron-f": "enron",
    "Flags": "flags",
    "Genbase": "genbase",
    "Llog-f": "llog",
    "Medical": "medical",
    "Scene": "scene",
    "Yeast": "yeast",
}
_COUNTS = {"instances", "labels", "distinct_combinations"}  # integers: equal or not
_NOTES = {
    "Flags": "flags-12: the 7 colour labels of MULAN's XML plus the 5 binary symbol "
    "attributes (crescent, triangle, icon, animate, text); MULAN's flags has "
    "7 labels, 54 combinations, cardinality 3.39",
    "Medical": "rows 0-977 of medical.arff (the CMC challenge's training reports = "
    "MULAN's medical); the file holds 1954 rows: these 978 + 976 further "
    "reports",
}
FLAGS_12 = underspecified(
    "the paper does not say that its Flags takes 5 binary symbol attributes as labels "
    "besides the 7 colours; with them (flags-12) every Table 2 number is reproduced",
    ref="datasets chapter, Flags",
)
MEDICAL_FILE = tested(
    "the file is the 2007 CMC challenge's 978 training reports followed by 976 more "
    "(most likely its test set); its first 978 rows give MULAN's statistics; "
    "medical-train.arff == medical-test.arff == medical.arff",
    ref="datasets chapter, Medical: two datasets in one file",
)


def table2() -> pd.DataFrame:
    """The paper's Table 2 as printed: one row per dataset (its name), :data:`COLUMNS`.

    >>> table2().loc["Flags", "labels"]
    '12'
    """
    t = printed("huellermeier-2022", "Table 2")
    wide = t.pivot(index="row", columns="column", values="value")
    wide = wide.rename(columns=lambda c: c.replace(" ", "_"))
    out = wide.reindex(index=list(NAMES), columns=list(COLUMNS))
    if out.isna().any().any():
        raise ValueError("the printed Table 2 lacks a value of the nine datasets")
    out.index.name = None
    out.columns.name = None
    return out


def table2_keys() -> list[str]:
    """The registry names of Table 2's datasets, the paper's flags as ``flags-12``."""
    return ["flags-12" if n == "Flags" else k for n, k in NAMES.items()]


def _ids() -> dict[tuple[str, str], str]:
    t = printed("huellermeier-2022", "Table 2")
    return {(r, c.replace(" ", "_")): i for i, r, c in zip(t["id"], t["row"], t["column"])}


def datasets_ledger(stats: pd.DataFrame, medical_file_rows: int) -> Ledger:
    """Every row of the datasets chapter's ledger, in the chapter's order.

    Parameters
    ----------
    stats : pandas.DataFrame
        :func:`mlcbook.datasets.dataset_statistics` of the nine datasets of Table 2
        (registry names), of ``flags-12`` and of MULAN's ``flags``.
    medical_file_rows : int
        The number of instances in the distributed ``medical.arff``.

    Returns
    -------
    Ledger
        ``Ledger("datasets", ...)``: the 45 numbers of Table 2 (the paper's Flags
        against ``flags-12``), the labels of MULAN's Flags and the instances of the
        Medical file against the printed values, and the Hamming loss of predicting
        no label (Secs. 1 and 3).
    """
    if not isinstance(stats, pd.DataFrame):
        raise TypeError(f"stats must be a pandas DataFrame, got {type(stats).__name__}")
    need = [*table2_keys(), "flags"]
    missing = sorted(set(need) - set(stats.index)) + sorted(set(COLUMNS) - set(stats.columns))
    if missing:
        raise ValueError(f"stats lacks the rows or columns {missing}")
    if isinstance(medical_file_rows, bool) or not isinstance(medical_file_rows, int):
        raise TypeError(f"medical_file_rows must be an int, got {medical_file_rows!r}")
    paper, ids = table2(), _ids()
    led = Ledger("datasets", "Hüllermeier et al. (2022)")
    for name, key in zip(NAMES, table2_keys()):
        for col in COLUMNS:
            add = led.exact if col in _COUNTS else led.number
            add(
                f"{name}: {col.replace('_', ' ')}",
                "Table 2",
                paper=paper.loc[name, col],
                ours=stats.loc[key, col],
                note=_NOTES.get(name, ""),
                claim_id=ids[name, col],
            )
    led.exact(
        "labels of Flags as distributed by MULAN (flags.xml)",
        "Table 2",
        paper=int(paper.loc["Flags", "labels"]),
        ours=stats.loc["flags", "labels"],
        cause=FLAGS_12,
        claim_id="EX009",
    )
    led.exact(
        "instances in the Medical file",
        "Table 2",
        paper=int(paper.loc["Medical", "instances"]),
        ours=medical_file_rows,
        cause=MEDICAL_FILE,
        claim_id="EX010",
    )
    add_empty_prediction_hamming(led, stats.loc[table2_keys()], claim_id="HU083")
    return led


def verdict_table(led: Ledger) -> CompactTable:
    """Table 2 in short: per dataset, how many of its five numbers are reproduced."""
    if not isinstance(led, Ledger):
        raise TypeError(f"led must be a Ledger, got {type(led).__name__}")
    rows = []
    for name, key in zip(NAMES, table2_keys()):
        es = [e for e in led.entries if e.claim.startswith(f"{name}: ")]
        n = sum(e.status == "reproduced" for e in es)
        status = "reproduced" if n == len(es) else "differs"
        ours = f"{n} of {len(es)} agree ({key})"
        rows.append((f"Table 2, {name}", "5 numbers", ours, BADGES[status]))
    for e in led.entries[len(NAMES) * len(COLUMNS) :]:
        ours = e.ours if e.kind != "qualitative" else "agrees"
        rows.append((e.claim, e.paper, ours, BADGES[e.status]))
    frame = pd.DataFrame(rows, columns=["claim", "paper", "ours", "verdict"])
    return compact_table(frame)
