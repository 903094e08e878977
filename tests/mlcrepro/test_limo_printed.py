"""Wu & Zhou's printed numbers moved to book/_claims/wu-zhou-2017.printed.csv unchanged.

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
from mlcrepro.claims import printed
from mlcrepro.wu_zhou2017 import report as R

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
    new = R.paper_b3()
    assert len(new) == len(old) == 330
    for c in ("mean", "std"):  # the old reader prefixed a leading '.' with '0'
        old[c] = old[c].where(~old[c].str.startswith("."), "0" + old[c])
    cols = ["dataset", "method", "measure", "mean", "std", "rank"]
    pd.testing.assert_frame_equal(new[cols].astype(str), old[cols].astype(str))
    raw = printed("wu-zhou-2017", "Table B.3")  # and the cells as the paper prints them
    first = old.iloc[0]
    assert raw["value"].iloc[0] == f"{first['mean'][1:]}±{first['std'][1:]}({first['rank']})"


@pytest.mark.parametrize("table,name", [("Table B.1", "PAPER_B1"), ("Table B.2", "PAPER_B2")])
def test_tables_b1_b2_reproduce_the_old_dicts_exactly(table, name):
    pairs, _ = R.paper_pairs(table)
    old = _old_dicts()[name]
    assert list(pairs) == list(old)
    assert {k: [tuple(c) for c in v] for k, v in old.items()} == pairs


def test_every_printed_value_belongs_to_a_wu_zhou_claim():
    frame = printed("wu-zhou-2017")
    assert (frame["id"].str.match(r"^WZ\d{3}$")).all()
    assert set(frame["table"]) == {"Table 2", "Table B.1", "Table B.2", "Table B.3"}
