"""The paper as printed: every value read from the claims inventory, in the shapes the
evidence and the ledgers use."""

import csv
import re
from itertools import product

import numpy as np
import pytest

from mlcrepro._paths import project_root
from mlcrepro.huellermeier2022 import printed as P


def _inventory():
    path = project_root() / "book" / "_claims" / "huellermeier2022.csv"
    with open(path, newline="") as fh:
        return {r["id"]: r["claim"] for r in csv.DictReader(fh)}


def test_printed_values_are_read_as_printed():
    assert P.paper_value("Sec. 4.4, example 1", "learner A", "binomial k=3") == "0.488"
    assert P.paper_value("Sec. 4.2 table", "uniform weights (Hamming)", "loss") == "0.30"
    with pytest.raises(ValueError, match="no printed value"):
        P.paper_value("Sec. 4.4, example 1", "learner C", "binomial k=1")


def test_table1_is_the_32_vectors_in_product_order_summing_to_one():
    support, probs = P.table1()
    assert list(map(tuple, support)) == list(product([0, 1], repeat=5))
    # the printed values have three decimals: their sum is one up to float addition
    assert abs(probs.sum() - 1) < 1e-9
    assert probs[0] == 0.046 and probs[-1] == 0.025  # first and last row as printed
    assert np.all(probs > 0)


def test_table2_is_the_inventorys_table_2():
    # each claim of the inventory names the dataset, the statistic and the printed value
    claims = _inventory()
    t = P.table2()
    assert list(t.index) == list(P.NAMES) and list(t.columns) == list(P.COLUMNS)
    ids = P.table2_ids()
    for name in t.index:
        for col in t.columns:
            text = f"{name}: {col.replace('_', ' ')} {t.loc[name, col]}"
            assert claims[ids[name, col]] == text


def test_the_losses_chapter_works_table_1_as_printed():
    # the Learn chapter types Table 1's probabilities (in thousandths) to keep the lesson
    # free of the reproduction's code; they must be the printed ones, row by row
    text = (project_root() / "book" / "losses.md").read_text(encoding="utf-8")
    match = re.search(r"table1 = np\.array\(\[([\d,\s]+)\]\) / 1000", text)
    assert match is not None
    typed = np.array([int(x) for x in match.group(1).split(",")]) / 1000
    np.testing.assert_array_equal(typed, P.table1()[1])  # exact: the same decimal texts
