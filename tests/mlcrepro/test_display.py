"""mlcrepro.display: measure names and the paper-vs-ours table."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mlcbook import metrics as M
from mlcrepro.display import MEASURE_NAMES, measure_name, measure_names, printed_decimals, side_by_side


def test_every_measure_of_table_1_has_one_distinct_name():
    assert list(MEASURE_NAMES) == list(M.WU_ZHOU_MEASURES)
    assert set(
        M.all_measures(np.eye(3, dtype=int), np.eye(3), np.eye(3, dtype=int))
    ) == set(MEASURE_NAMES)
    names = measure_names()
    assert len(set(names)) == 11
    assert names[0] == "Hamming loss" and names[-1] == "micro-AUC"
    assert measure_name("label_ranking_average_precision", short=True) == "avg. precision"
    assert measure_name("macro_f1", short=True) == "macro-F1"


def test_measure_name_refuses_unknown_keys():
    with pytest.raises(ValueError, match="key must be one of"):
        measure_name("accuracy")
    with pytest.raises(TypeError, match="key must be a str"):
        measure_name(3)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("0.80", 2),
        ("12", 0),
        (" 4.12 ", 2),
        ("1e-05", 5),
        ("-0.5", 1),
        ("-", None),
        ("(0.3, 1)", None),
        ("", None),
        ("nan", None),
        ("inf", None),
        (0.5, None),
    ],
)
def test_printed_decimals(text, expected):
    assert printed_decimals(text) == expected


def _tables():
    paper = pd.DataFrame(
        {"labels": ["6", "12"], "card.": ["1.87", "4.12"], "best": ["-", "(0.3, 1)"]},
        index=["emotions", "flags"],
    )
    ours = pd.DataFrame(
        {"labels": [6, 7], "card.": [1.8685, 3.3918], "best": [0.53512, "(0.3, 1)"]},
        index=["emotions", "flags"],
    )
    return paper, ours


def test_rows_layout_prints_ours_at_the_papers_precision():
    paper, ours = _tables()
    out = side_by_side(paper, ours, layout="rows", agreement=True)
    assert list(out.index) == [
        ("emotions", "paper"),
        ("emotions", "ours"),
        ("flags", "paper"),
        ("flags", "ours"),
    ]
    assert out.loc[("emotions", "ours")].tolist() == ["6", "1.87", "0.535", "2/3"]
    assert out.loc[("flags", "ours")].tolist() == ["7", "3.39", "(0.3, 1)", "1/3"]
    assert out.loc[("flags", "paper")].tolist() == ["12", "4.12", "(0.3, 1)", ""]


def test_columns_layout_pairs_each_column():
    paper, ours = _tables()
    out = side_by_side(paper, ours, decimals=1)
    assert list(out.columns) == [
        ("labels", "paper"),
        ("labels", "ours"),
        ("card.", "paper"),
        ("card.", "ours"),
        ("best", "paper"),
        ("best", "ours"),
    ]
    assert (
        out.loc["emotions", ("best", "ours")] == "0.5"
    )  # no printed precision: decimals
    assert ("same", "") not in out.columns


def test_missing_values_print_empty():
    paper = pd.DataFrame({"a": ["0.1", None]})
    ours = pd.DataFrame({"a": [np.nan, 0.25]})
    out = side_by_side(paper, ours, agreement=True)
    assert out[("a", "paper")].tolist() == ["0.1", ""]
    assert out[("a", "ours")].tolist() == ["", "0.250"]
    assert out[("same", "")].tolist() == ["0/1", "0/1"]


@given(
    st.lists(
        st.tuples(st.integers(-(10**6), 10**6), st.integers(0, 6)),
        min_size=1,
        max_size=6,
    )
)
def test_a_value_equal_to_the_printed_one_always_agrees(cells):
    printed = [f"{m / 10**d:.{d}f}" for m, d in cells]
    paper = pd.DataFrame([printed])
    ours = pd.DataFrame([[m / 10**d for m, d in cells]])
    out = side_by_side(paper, ours, layout="rows", agreement=True)
    assert out.iloc[1, :-1].tolist() == printed
    assert out.iloc[1, -1] == f"{len(cells)}/{len(cells)}"


def test_bad_input():
    paper, ours = _tables()
    with pytest.raises(ValueError, match="same index and columns"):
        side_by_side(paper, ours.iloc[:1])
    with pytest.raises(TypeError, match="paper must be a DataFrame"):
        side_by_side(paper.to_dict(), ours)
    with pytest.raises(ValueError, match="layout"):
        side_by_side(paper, ours, layout="wide")
    with pytest.raises((TypeError, ValueError), match="decimals"):
        side_by_side(paper, ours, decimals=-1)
