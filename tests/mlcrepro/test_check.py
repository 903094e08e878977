"""``mlcrepro check ID``: every row of a claim, read back against the saved ledger CSVs.

The expected values are read here with the standard library's ``csv`` module, apart
from the code under test (which reads through pandas and :func:`load_ledgers`).
"""

from __future__ import annotations

import csv
import random

import pytest

from mlcrepro._paths import project_root
from mlcrepro.check import describe, rows_of
from mlcrepro.cli import main

LEDGERS = project_root() / "book" / "_ledgers"


def saved_rows() -> list[dict]:
    out = []
    for path in sorted(LEDGERS.glob("*.csv")):
        with path.open(newline="", encoding="utf-8") as fh:
            for number, row in enumerate(csv.DictReader(fh), 1):
                out.append({**row, "row": number})
    return out


def test_every_id_finds_exactly_the_rows_that_carry_it():
    rows = saved_rows()
    ids = sorted({i for r in rows for i in r["claim_ids"].split()})
    for claim_id in random.Random(0).sample(ids, 60):  # a fixed sample keeps the run short
        want = [(r["chapter"], r["row"]) for r in rows if claim_id in r["claim_ids"].split()]
        got = rows_of(claim_id)[["chapter", "row"]].to_numpy().tolist()
        assert [tuple(g) for g in got] == want, claim_id


@pytest.mark.parametrize("claim_id", ["HU098", "WZ425", "PR016", "HM001", "EX012"])
def test_the_account_shows_the_rows_values_status_and_cause(claim_id):
    text = describe(claim_id)
    for r in (r for r in saved_rows() if claim_id in r["claim_ids"].split()):
        flat = " ".join(text.split())  # the account wraps long fields
        assert " ".join(r["paper"].split()) in flat
        assert " ".join(r["ours"].split()) in flat
        assert f"status {r['status']}" in flat
        assert f"ledger {r['chapter']}, row {r['row']}" in flat
        if r["status"] == "differs":
            assert f"cause {r['cause']}" in flat
            assert " ".join(r["note"].split())[:60] in flat


def test_the_command_prints_the_account_and_refuses_bad_ids(capsys):
    assert main(["check", "HM001"]) == 0
    assert capsys.readouterr().out.strip() == describe("HM001")
    assert main(["check", "HU9999"]) == 2
    assert "no ledger row carries the claim id 'HU9999'" in capsys.readouterr().err
    assert main(["check", "not-an-id"]) == 2
    assert "claim_id must be an id such as 'HU012'" in capsys.readouterr().err
