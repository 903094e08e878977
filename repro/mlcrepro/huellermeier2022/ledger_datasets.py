"""The datasets ledger of Hüllermeier et al. (2022): Table 2 against the benchmark files.

Table 2 (the paper's Flags against ``flags-12``), the labels of MULAN's Flags, the rows
of the Medical file, and the empty prediction's Hamming loss.  Every row records what it
is about (``about``: the table, the dataset's key, the quantity).
"""

from __future__ import annotations

from mlcrepro.huellermeier2022 import causes as C
from mlcrepro.huellermeier2022.evidence_datasets import DatasetsEvidence, table2_keys
from mlcrepro.huellermeier2022.printed import COLUMNS, NAMES, table2, table2_ids
from mlcrepro.ledger import Ledger

__all__ = ["ROWS"]

_COUNTS = {"instances", "labels", "distinct_combinations"}  # integers: equal or not
_NOTES = {
    "Flags": "flags-12: the 7 colour labels of MULAN's XML plus the 5 binary symbol "
    "attributes (crescent, triangle, icon, animate, text); MULAN's flags has "
    "7 labels, 54 combinations, cardinality 3.39",
    "Medical": "rows 0-977 of medical.arff (the CMC challenge's training reports = "
    "MULAN's medical); the file holds 1954 rows: these 978 + 976 further "
    "reports",
}


def _table2_rows(led: Ledger, ev: DatasetsEvidence) -> None:
    """Table 2, the labels of MULAN's Flags, the Medical file, the empty prediction."""
    stats, paper, ids = ev.stats, table2(), table2_ids()
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
                about={"table": "Table 2", "dataset": key, "quantity": col},
            )
    led.exact(
        "labels of Flags as distributed by MULAN (flags.xml)",
        "Table 2",
        paper=int(paper.loc["Flags", "labels"]),
        ours=stats.loc["flags", "labels"],
        cause=C.FLAGS_12,
        claim_id="EX009",
        about={"dataset": "flags", "quantity": "labels", "setting": "MULAN's flags.xml"},
    )
    led.exact(
        "instances in the Medical file",
        "Table 2",
        paper=int(paper.loc["Medical", "instances"]),
        ours=ev.medical_file_rows,
        cause=C.MEDICAL_FILE,
        claim_id="EX010",
        about={"dataset": "medical", "quantity": "instances", "setting": "the whole file"},
    )
    density = ev.density
    low = int((density < 0.1).sum())
    shown = ", ".join(f"{d} {v:.3f}" for d, v in density.items())
    led.qualitative(
        "predicting no label has a low Hamming loss on typical data (= cardinality / K)",
        "Sec. 1, Sec. 3",
        paper="the all-irrelevant prediction has a low Hamming loss on typical MLC data",
        evidence=f"Hamming loss of the empty prediction: {shown}; below 0.1 on {low} of "
        f"{len(density)}, below 0.5 on {int((density < 0.5).sum())} of {len(density)}",
        agrees=bool((density < 0.5).all() and low > len(density) / 2),
        note=f"judged on the label matrices of the {len(density)} files of Table 2: the "
        "Hamming loss of predicting no label is the label density, cardinality / K; 'low' "
        "read as below 0.1 on most of them and below 0.5 (better than predicting every "
        "label) on all",
        claim_id="HU083",
        about={"loss": "hamming", "quantity": "empty prediction"},
    )


#: the datasets ledger's rows (Table 2), in the order of the datasets chapter
ROWS = (_table2_rows,)
