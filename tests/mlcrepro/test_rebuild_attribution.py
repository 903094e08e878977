"""Which rebuilt table a changed ledger row follows (mlcrepro.rebuild_attribution).

The ledgers are stood in for by a toy (``ledger_changes`` patched, run in this process
with ``workers=0``) that reads the folder it is given: row R1 follows table ``a``'s
value, row R2 follows ``a`` and ``b`` together, so the attribution must name ``a`` for
R1 and nothing for R2; and the report gives the named table's verdict as the reason.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from mlcrepro import rebuild_attribution as attribution
from mlcrepro import rebuild_findings as findings
from mlcrepro.rebuild_report import LedgerChange, RowChange, report_markdown
from mlcrepro.reproduce import Comparison, TableReport


def _toy_ledger(folder: str, ledgers: str | None = None) -> list[LedgerChange]:
    a = pd.read_csv(Path(folder) / "a.csv")["v"].iloc[0]
    b = pd.read_csv(Path(folder) / "b.csv")["v"].iloc[0]
    changes = []
    if a != 1:
        changes.append(RowChange("R1", "ours", "1", str(a)))
    if a != 1 and b != 1:
        changes.append(RowChange("R2", "status", "agrees", "differs"))
    return [LedgerChange("toy", 2, 0, 0, 0, tuple(changes))]


def _folders(tmp_path: Path) -> tuple[Path, Path]:
    committed, staging = tmp_path / "committed", tmp_path / "staging"
    for folder, values in ((committed, (1, 1, 5)), (staging, (2, 3, 5))):
        folder.mkdir()
        for name, v in zip("abc", values):
            (folder / f"{name}.csv").write_text(f"v\n{v}\n")
            (folder / f"{name}.json").write_text("{}")
    return committed, staging


def test_a_change_is_put_down_to_the_table_that_makes_it_alone(tmp_path, monkeypatch):
    committed, staging = _folders(tmp_path)
    monkeypatch.setattr(attribution, "ledger_changes", _toy_ledger)
    assert attribution.differing_tables(staging, committed) == ["a", "b"]
    follows = attribution.attribute(
        staging, _toy_ledger(str(staging)), committed=committed, workers=0
    )
    assert follows == {("R1", "ours"): ("a",), ("R2", "status"): ()}
    # nothing changed: nothing is rebuilt
    assert attribution.attribute(staging, [], committed=committed, workers=0) == {}


def test_the_report_gives_the_tables_verdict_as_the_reason(monkeypatch):
    monkeypatch.setattr(findings, "ROWS", {})
    led = LedgerChange(
        "toy", 2, 1, 1, 0,
        (RowChange("R1", "ours", "1", "2"), RowChange("R2", "status", "agrees", "differs")),
    )
    within = Comparison("a", 1, 0.001, "v", 0.01, True)
    text = report_markdown(
        [TableReport("a", 1, 1.0, within, 0.1)], wall_seconds=1.0, machine="toy",
        ledgers=[led], follows={("R1", "ours"): ("a",), ("R2", "status"): ()},
    )
    assert ("| toy | R1 | ours | 1 | 2 | follows the rebuilt table a (within its tolerance, "
            "largest abs. difference 0.001 in v): the ledger rebuilt with only that table "
            "rebuilt makes this change |") in text
    assert "| toy | R2 | status | agrees | differs | **not judged** |" in text
    # a judgement of the row's own comes first
    monkeypatch.setattr(findings, "ROWS", {"R1": "a tie broken the other way"})
    text = report_markdown(
        [TableReport("a", 1, 1.0, within, 0.1)], wall_seconds=1.0, machine="toy",
        ledgers=[led], follows={("R1", "ours"): ("a",)},
    )
    assert "| toy | R1 | ours | 1 | 2 | a tie broken the other way |" in text
