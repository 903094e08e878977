"""The folder's contract: evidence() and ledgers(evidence) (mlcrepro.wu_zhou2017).

* the ledger ``ledgers(evidence())`` builds is the saved one, byte for byte;
* every row carries the ids of the inventory's claims that name it, and the verdict
  table counts every row once;
* the evidence is frozen and computed once, each caller getting its own copy;
* no module of the folder but :mod:`.ledgers` adds a row to the ``limo`` ledger.
"""

from __future__ import annotations

import ast
import dataclasses
import filecmp
import re
from pathlib import Path

import pandas as pd
import pytest

import mlcrepro.wu_zhou2017 as folder
import mlcrepro.wu_zhou2017.ledger_rows as L
from mlcrepro._paths import project_root
from mlcrepro.claims import load_inventory, parse_refs
from mlcrepro.ledger import KINDS, Ledger
from mlcrepro.summary import VERDICT_SYMBOLS, verdict_table
from mlcrepro.wu_zhou2017 import PAPER
from mlcrepro.wu_zhou2017 import analysis as A
from mlcrepro.wu_zhou2017.collect import Evidence, evidence

from ..ledger_checks import assert_is_the_saved_ledger


@pytest.fixture(scope="module")
def ledger() -> Ledger:
    out = L.ledgers(evidence())
    assert list(out) == list(PAPER.ledgers) == ["limo"]
    return out["limo"]


def test_the_ledger_is_the_saved_one(ledger, tmp_path):
    assert_is_the_saved_ledger(ledger, "limo", 344)
    saved = ledger.save(tmp_path)  # byte for byte, as make chapter would write it
    assert filecmp.cmp(saved, project_root() / "book" / "_ledgers" / "limo.csv", shallow=False)


def test_every_row_carries_the_ids_of_the_claims_that_name_it(ledger):
    inv = load_inventory()
    inv = inv[inv["paper"] == PAPER.citation]
    named: dict[str, set[str]] = {}
    for cid, refs in zip(inv["id"], inv["ledger"]):
        for chapter, claim in parse_refs(refs):
            if chapter == "limo":
                named.setdefault(claim, set()).add(cid)
    for e in ledger.entries:
        assert set(e.claim_ids) == named[e.claim], e.claim


def test_verdicts_count_every_row_once(ledger):
    table = L.verdicts(ledger)
    assert table["rows"].sum() == len(ledger.entries)
    for status, n in ledger.counts().items():
        symbol = VERDICT_SYMBOLS[status]
        # the rare statuses get a column only where rows have them
        assert (table[symbol].sum() if symbol in table else 0) == n
    assert list(table.index) == [g for g in L.GROUPS if g in table.index]


def test_verdict_table_rejects_a_row_no_group_takes():
    rows = pd.DataFrame({"source": ["Table 9"], "status": ["reproduced"]})
    with pytest.raises(ValueError, match="Table 9"):
        verdict_table(rows, L.GROUPS)
    with pytest.raises(TypeError, match="groups"):
        verdict_table(rows, {})


def test_table_b3_rows_cover_every_cell_with_a_cause_only_where_they_differ(ledger):
    b3 = [e for e in ledger.entries if e.source == "Table B.3"]
    assert len(b3) == 4 * 6 * 11  # our four datasets x six learners x eleven measures
    assert all(e.cause is not None for e in b3 if e.status == "differs")
    assert all(e.cause is None for e in b3 if e.status != "differs")


def test_the_evidence_is_frozen_computed_once_and_handed_out_as_copies():
    ev = evidence()
    with pytest.raises(dataclasses.FrozenInstanceError):
        ev.mean = None  # type: ignore[misc]
    before = evidence().table2
    ev.table2.loc[:, "agrees"] = not ev.table2["agrees"].all()  # a caller changing its copy
    assert evidence().table2.equals(before)  # ... changes nothing for the next caller
    assert evidence().mean is not evidence().mean
    # the page and the ledger read the same numbers: the means are those of the table
    bench = ev.benchmark
    want = bench[(bench.dataset == "cal500") & (bench.method == "LIMO")]["macro_f1"].mean()
    assert ev.mean.loc[("cal500", "LIMO"), "macro_f1"] == want


def test_ledgers_refuses_anything_but_the_evidence():
    with pytest.raises(TypeError, match="Evidence"):
        L.ledgers({"mean": None})


def _adds_rows(path: Path) -> list[str]:
    """The calls ``<x>.<claim kind>(...)`` of a ledger's row-adding methods in a module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        f"{path.name}:{node.lineno}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in set(KINDS) | {"number", "spread"}
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "led"
    ]


def test_only_the_ledgers_module_adds_rows():
    here = Path(folder.__file__).parent
    adders = {p.name: _adds_rows(p) for p in sorted(here.glob("*.py"))}
    assert adders.pop("ledger_rows.py")  # the one place the ledger's rows are added
    assert not any(adders.values()), adders


def test_an_evidence_field_is_documented():
    doc = Evidence.__doc__ or ""
    missing = [f.name for f in dataclasses.fields(Evidence) if f"``{f.name}``" not in doc]
    assert not missing


def test_rescaling_consistency_rows():
    toy = {"m": [("0.100", "0.00"), ("0.200", "1.00"), ("0.150", "0.50")]}

    def row(paper):
        led = Ledger("demo", "A. Author (2020)")
        table = A.rescaling_ranges(paper, ["a", "b", "c"], lower_is_better=())
        L._rescaling_row(led, "Table B.9", table, "")
        return led.entries[0]

    e = row(toy)
    assert (e.status, e.paper, e.ours) == ("reproduced", "3 of 3 cells", "3 of 3 cells")
    e = row({"m": [("0.100", "0.00"), ("0.200", "1.00"), ("0.150", "0.80")]})
    assert e.status == "differs" and e.cause.kind == "paper error"
    assert "m c: printed 0.80, possible 0.490-0.510" in e.cause.text
    e = row({"m": [("0.992", "0.00"), ("0.992", "1.00"), ("0.992", "0.58")]})
    assert e.status == "reproduced" and e.note.startswith("1 cells are not decided")


def test_the_slip_in_inequality_2_is_an_erratum_of_its_own(ledger):
    """Inequality (2) holds between its outer terms (WZ049, reproduced); the equality in
    its middle is a row of its own whose cause is an error of the paper, checked here by
    independence: Pr[C >= a] Pr[min A_i <= a] at a = 0.1, n = 10."""
    by_id = {i: e for e in ledger.entries for i in e.claim_ids}
    outer, middle = by_id["WZ049"], by_id["WZ445"]
    assert outer.status == "reproduced" and middle.claim in outer.note
    assert middle is ledger.entries[-1]  # added last: the rows before keep their numbers
    assert middle.status == "differs" and middle.cause.kind == "paper error"
    exact = (1 - 0.1) * (1 - (1 - 0.1) ** 10)  # by hand
    printed = (1 - 0.1 / 2) * (1 - (1 - 0.1) ** 10)
    assert f"{exact:.4f}" in middle.ours and f"printed {printed:.4f}" in middle.ours


def test_every_qualitative_or_fragile_row_says_what_judged_it(ledger):
    loose = [e for e in ledger.entries if e.status in ("qualitative", "fragile")]
    assert {i for e in loose for i in e.claim_ids} >= {
        "WZ002",
        "WZ003",
        "WZ033",
        "WZ034",
        "WZ035",
        "WZ062",
    }
    assert all(e.note.startswith("judged ") for e in loose), [e.claim for e in loose]


def test_algorithm_1_is_not_unbiased_sgd_and_says_why(ledger):
    """WZ055: the shrinkage sits inside the `if` of a violated pair (Algorithm 1 and the
    authors' sgd_limo_train.m), App. A.3 adds it always: the row differs, a paper error,
    and its evidence still gives the objective falling (Eq. (3) at W0 above the iterate's)."""
    (row,) = [e for e in ledger.entries if "WZ055" in e.claim_ids]
    assert row.status == "differs" and row.cause.kind == "paper error"
    assert "inside the `if`" in row.cause.text and "sgd_limo_train.m" in row.cause.text
    start, end = (float(x) for x in re.findall(r"(\d+\.\d{4}) at the", row.ours))
    assert end < start
