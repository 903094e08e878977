"""The datasets chapter's ledger module: Table 2 as printed, and its rows on toy statistics."""

import csv

import pandas as pd
import pytest

from mlcrepro._paths import project_root
from mlcrepro.huellermeier2022 import ledger_datasets as LD


def _inventory():
    path = project_root() / "book" / "_claims" / "huellermeier-2022.csv"
    with open(path, newline="") as fh:
        return {r["id"]: r["claim"] for r in csv.DictReader(fh)}


def test_table2_is_the_inventorys_table_2():
    # each claim of the inventory names the dataset, the statistic and the printed value
    claims = _inventory()
    t = LD.table2()
    assert list(t.index) == list(LD.NAMES) and list(t.columns) == list(LD.COLUMNS)
    for name in t.index:
        for col in t.columns:
            text = f"{name}: {col.replace('_', ' ')} {t.loc[name, col]}"
            assert text in claims.values(), text


def _stats():
    """Statistics equal to the printed table; MULAN's flags with its own 7 labels."""
    t = LD.table2()
    rows = {k: t.loc[n].astype(float) for n, k in zip(LD.NAMES, LD.table2_keys())}
    rows["flags"] = rows["flags-12"].copy()
    rows["flags"]["labels"] = 7.0
    stats = pd.DataFrame(rows).T
    for col in ("instances", "labels", "distinct_combinations"):
        stats[col] = stats[col].astype(int)
    return stats


def test_rows_compare_the_printed_table_with_the_statistics():
    led = LD.datasets_ledger(_stats(), medical_file_rows=978)
    led.check()
    status = {e.claim: e.status for e in led.entries}
    assert status["Yeast: cardinality"] == status["Birds: instances"] == "reproduced"
    assert status["labels of Flags as distributed by MULAN (flags.xml)"] == "differs"
    assert status["instances in the Medical file"] == "reproduced"
    assert [e.claim_ids for e in led.entries[:2]] == [("HU038",), ("HU039",)]
    assert led.entries[-1].claim_ids == ("HU083",)
    assert len(led.entries) == 48


def test_a_table_2_number_that_differs_without_a_known_cause_stops_the_ledger():
    stats = _stats()
    stats.loc["yeast", "cardinality"] = 4.30  # printed 4.24
    with pytest.raises(ValueError, match=r"Yeast: cardinality.*give its cause"):
        LD.datasets_ledger(stats, medical_file_rows=978)


def test_bad_statistics_are_refused():
    with pytest.raises(ValueError, match="lacks the rows or columns"):
        LD.datasets_ledger(_stats().drop(index="flags"), medical_file_rows=978)
    with pytest.raises(TypeError, match="medical_file_rows must be an int"):
        LD.datasets_ledger(_stats(), medical_file_rows=978.0)
