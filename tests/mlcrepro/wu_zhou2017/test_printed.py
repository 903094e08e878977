"""Wu & Zhou's printed tables as data (mlcrepro.wu_zhou2017.printed).

The printed numbers moved to book/_claims/wu_zhou2017.printed.csv unchanged.

Until commit ef0d985 they lived in data/results/limo_paper_table_b3.csv (Table B.3) and
in the dicts PAPER_B1/PAPER_B2 of mlcrepro/wu_zhou2017/report.py (Tables B.1-B.2). The
old homes are read from that commit with git and compared value for value, as strings.
"""

from __future__ import annotations

import ast
import io
import subprocess

import pandas as pd
import pytest

from mlcrepro._paths import project_root
from mlcrepro.printed_numbers import printed
from mlcrepro.wu_zhou2017 import printed as P

OLD = "ef0d985557e773fd56473e2e629f034c33027cee"


def _blob(path: str) -> str:
    out = subprocess.run(
        ["git", "-C", str(project_root()), "show", f"{OLD}:{path}"],
        capture_output=True, text=True, check=True,
    )
    return out.stdout


def _old_dicts() -> dict:
    tree = ast.parse(_blob("repro/mlcrepro/wu_zhou2017/report.py"))
    found = {}
    for node in tree.body:
        target = node.target if isinstance(node, ast.AnnAssign) else (
            node.targets[0] if isinstance(node, ast.Assign) else None)
        if isinstance(target, ast.Name) and target.id in ("PAPER_B1", "PAPER_B2"):
            found[target.id] = ast.literal_eval(node.value)
    return found


def test_table_b3_reproduces_the_old_file_exactly():
    old = pd.read_csv(io.StringIO(_blob("data/results/limo_paper_table_b3.csv")), dtype=str)
    new = P.paper_b3()
    assert len(new) == len(old) == 330
    for c in ("mean", "std"):  # the old reader prefixed a leading '.' with '0'
        old[c] = old[c].where(~old[c].str.startswith("."), "0" + old[c])
    cols = ["dataset", "method", "measure", "mean", "std", "rank"]
    pd.testing.assert_frame_equal(new[cols].astype(str), old[cols].astype(str))
    raw = printed("wu_zhou2017", "Table B.3")  # and the cells as the paper prints them
    first = old.iloc[0]
    assert raw["value"].iloc[0] == f"{first['mean'][1:]}±{first['std'][1:]}({first['rank']})"


@pytest.mark.parametrize("table,name", [("Table B.1", "PAPER_B1"), ("Table B.2", "PAPER_B2")])
def test_tables_b1_b2_reproduce_the_old_dicts_exactly(table, name):
    pairs, _ = P.paper_pairs(table)
    old = _old_dicts()[name]
    assert list(pairs) == list(old)
    assert {k: [tuple(c) for c in v] for k, v in old.items()} == pairs


def test_every_printed_value_belongs_to_a_wu_zhou_claim():
    frame = printed("wu_zhou2017")
    assert (frame["id"].str.match(r"^WZ\d{3}$")).all()
    assert set(frame["table"]) == {"Table 2", "Table B.1", "Table B.2", "Table B.3"}


def test_paper_tables_parse_every_printed_cell():
    pairs1, ids1 = P.paper_pairs("Table B.1")
    p1 = P.paper_table(pairs1, P.VARIANTS)
    assert p1["absolute"].shape == (7, 3) and p1["relative"].shape == (7, 3)
    assert p1["absolute"].loc["coverage", "LIMO"] == 1.556  # as printed in Table B.1
    assert ids1[("coverage", "LIMO")] == "WZ074" and len(ids1) == 21
    pairs2, ids2 = P.paper_pairs("Table B.2")
    p2 = P.paper_table(pairs2, P.B2_COLUMNS)
    assert p2["relative"].loc["macro_f1", "LIMO-t"] == 1.0
    assert len(ids2) == 24 and len(set(ids2.values())) == 24
    b3 = P.paper_b3()
    assert len(b3) == 5 * 6 * 11 and b3["id"].is_unique
    assert not b3["mean"].str.startswith(".").any()
    first = b3.iloc[0]  # Table B.3's first cell: .145±.003(5)
    assert (first["mean"], first["std"], first["rank"]) == ("0.145", "0.003", 5)
    with pytest.raises(ValueError, match="Table B.1"):
        P.paper_pairs("Table B.3")


def test_table2_as_printed():
    pattern, ids = P.paper_table2()
    assert len(pattern) == 11 and pattern["micro_auc"] == "✗✗✓"
    assert pattern["hamming_loss"] == "✓✓✓" and ids["ranking_loss"] == ["WZ015", "WZ016", "WZ017"]
