"""Claims linked by id: ledger rows carry the ids of the claims they check; printed numbers."""

import pandas as pd
import pytest

from mlcrepro import claims as C
from mlcrepro.printed_numbers import printed
from mlcrepro.ledger import Ledger, check_claim_ids, tested


def _inventory(rows):
    frame = pd.DataFrame(rows, columns=list(C.COLUMNS))
    return frame.assign(paper="Hüllermeier et al. (2022)")


def _ledger(claim_text, ids):
    led = Ledger("losses", "Hüllermeier et al. (2022)")
    led.number(claim_text, "Sec. 3 (Hüllermeier et al.)", paper="0.5625", ours=9 / 16,
               claim_id=ids)
    return led.to_frame().assign(chapter="losses", paper_ref="Hüllermeier et al. (2022)")


def test_claim_ids_are_validated_and_normalised():
    assert check_claim_ids("HU001 HU002") == ("HU001", "HU002")
    assert check_claim_ids(("WZ115",)) == ("WZ115",)
    for bad in ("hu001", "HU1", "HU001 HU001", ["HU001", 3]):
        with pytest.raises(ValueError, match="claim_id"):
            check_claim_ids(bad)
    with pytest.raises(TypeError, match="claim_id"):
        check_claim_ids(17)
    led = Ledger("demo")
    with pytest.raises(ValueError, match="claim_id"):
        led.exact("count", "Table 1", paper=3, ours=3, claim_id="X1")
    assert led.entries == []  # nothing half-added


def test_ids_round_trip_through_the_saved_frame():
    frame = _ledger("marginal probability", ["HU001", "HU004"])
    assert frame.loc[0, "claim_ids"] == "HU001 HU004"
    again = Ledger.from_frame(frame.drop(columns=["chapter", "paper_ref"]), "losses")
    assert again.entries[0].claim_ids == ("HU001", "HU004")


def test_rewording_a_row_keeps_its_link():
    inv = _inventory([["HU001", "Sec. 3", "p = 9/16", "number", "losses:old wording", "", ""]])
    before = _ledger("old wording", "")
    after = _ledger("the marginal probability of each label, reworded", "HU001")
    # by text: the reworded row is lost
    assert C.coverage(inv, after.assign(claim_ids="")).loc["all papers", "missing"] == 1
    # by id: found whatever its wording
    for led in (before, after):
        cov = C.coverage(inv, led)
        assert cov.loc["all papers", "with ledger row"] == 1
    ref = C.resolve(inv, after)
    assert ref["ledger_claim"].tolist() == ["the marginal probability of each label, reworded"]
    assert C.problems(inv, after, pd.DataFrame(columns=["ledger", "why"])) == []


def test_unknown_ids_and_extras_are_reported():
    inv = _inventory([["HU001", "Sec. 3", "p = 9/16", "number", "", "", ""]])
    led = _ledger("a row", "HU001 HU999")
    probs = C.problems(inv, led, pd.DataFrame(columns=["ledger", "why"]))
    assert probs == ["ledger row losses 1 'a row' names unknown claim id HU999"]
    extra = pd.DataFrame({"id": ["EX001"], "ledger": ["losses:second check"], "why": ["sim"]})
    led2 = pd.concat([_ledger("a row", "HU001"), _ledger("second check", "EX001")],
                     ignore_index=True)
    assert C.problems(inv, led2, extra) == []
    unused = pd.concat([extra, pd.DataFrame({"id": ["EX002"], "ledger": ["losses:gone"],
                                             "why": ["x"]})], ignore_index=True)
    assert "extra EX002 is carried by no ledger row" in C.problems(inv, led2, unused)


def test_printed_numbers_are_read_and_checked(tmp_path):
    (tmp_path / "wu_zhou2017.csv").write_text(
        ",".join(C.COLUMNS) + "\nWZ115,Table B.3,Hamming loss of BR,spread,,,x\n")
    path = tmp_path / "wu_zhou2017.printed.csv"
    path.write_text("id,table,row,column,value\nWZ115,Table B.3,CAL500/BR,hamming_loss,"
                    "0.145 ± 0.003\n,Table B.3,CAL500/BR,rank_hamming_loss,5\n")
    got = printed("wu_zhou2017", "Table B.3", folder=tmp_path)
    assert got["value"].tolist() == ["0.145 ± 0.003", "5"]  # text exactly as printed
    assert got["id"].tolist() == ["WZ115", ""]
    with pytest.raises(ValueError, match="no values of"):
        printed("wu_zhou2017", "Table 9", folder=tmp_path)
    with pytest.raises(ValueError, match="has no printed numbers"):
        printed("nobody2020", folder=tmp_path)
    path.write_text("id,table,row,column,value\nWZ999,Table B.3,a,b,1\n")
    with pytest.raises(ValueError, match="not in the wu_zhou2017 inventory"):
        printed("wu_zhou2017", folder=tmp_path)
    path.write_text("id,table,row,column,value\n,T,a,b,1\n,T,a,b,2\n")
    with pytest.raises(ValueError, match="given twice"):
        printed("wu_zhou2017", folder=tmp_path)


def test_a_ledger_without_ids_is_saved_without_the_column(tmp_path):
    led = Ledger("demo", "A. Author (2020)")
    led.number("mean loss", "Table 1", paper="0.43", ours=3 / 7)
    path = led.save(tmp_path)
    assert "claim_ids" not in pd.read_csv(path).columns
    led.entries[0].claim_ids = ("HU001",)
    path = led.save(tmp_path)
    assert pd.read_csv(path)["claim_ids"].tolist() == ["HU001"]
    saved = pd.read_csv(path, keep_default_na=False)
    rows = pd.concat([saved, saved.drop(columns="claim_ids")])
    again = Ledger.from_frame(rows, "demo")  # a missing id (NaN) reads as none
    assert [e.claim_ids for e in again.entries] == [("HU001",), ()]
