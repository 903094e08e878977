"""The ledger's storage (mlcrepro.ledger.storage): a saved ledger reads back exactly, a
save is atomic, and the explicit check against a saved ledger names the rows that differ.

Malformed files (a missing column, a bogus cell) are refused in test_ledger_robustness.py.
"""

import pandas as pd
import pytest

from mlcrepro import cli
from mlcrepro.cli import main
from mlcrepro.ledger import Ledger, load_ledgers, underspecified, unknown
from mlcrepro.ledger.storage import committed_folder, read_ledger


def _ledger(ours_a: float = 0.3) -> Ledger:
    led = Ledger("chap", "P")
    shared = underspecified("the grid")
    led.number("a", "T1", paper="0.30", ours=ours_a, cause=unknown("not known"))
    led.spread("b", "T1", paper="0.70", spread="0.05", ours=0.74, claim_id="HU012")
    led.exact("c", "T2", paper=3, ours=3)
    led.ordering("d", "Fig. 1", paper="A<B", rule="A<B", holds=True, robustness=(7, 10))
    led.qualitative("e", "Sec. 2", paper="p", evidence="seen", agrees=True)
    led.number("f", "T3", paper="0.5", ours=0.7, cause=shared)
    led.number("g", "T3", paper="0.5", ours=0.1 + 0.2, cause=shared)  # 0.30000000000000004
    return led


# --------------------------------------------------------------- saving
def test_save_load_and_rebuild_roundtrip(tmp_path):
    led = Ledger("chap", "P")
    shared = underspecified("the grid")
    led.number("a", "T1", paper="0.30", ours=0.3)
    led.spread("b", "T1", paper="0.70", spread="0.05", ours=0.74)
    led.exact("c", "T2", paper=3, ours=3)
    led.ordering("d", "Fig. 1", paper="A<B", rule="A<B", holds=True, robustness=(7, 10))
    led.qualitative("e", "Sec. 2", paper="p", evidence="seen", agrees=True)
    led.number("f", "T3", paper="0.5", ours=0.7, cause=shared)
    led.number("g", "T3", paper="0.5", ours=0.8, cause=shared)
    path = led.save(tmp_path)
    assert path.name == "chap.csv" and not list(tmp_path.glob("*.tmp"))
    table = load_ledgers(tmp_path)
    assert list(table["claim"]) == list("abcdefg") and set(table["chapter"]) == {"chap"}
    back = Ledger.from_frame(table, "chap", "P")
    assert back.counts() == led.counts()
    assert back._repr_html_() == led._repr_html_()
    assert [e.status for e in back.entries] == [e.status for e in led.entries]
    back.check()


def test_load_ledgers_of_empty_folder(tmp_path):
    assert load_ledgers(tmp_path).empty




def test_load_ledgers_refuses_a_folder_that_does_not_exist(tmp_path):
    with pytest.raises(FileNotFoundError, match="folder"):
        load_ledgers(tmp_path / "no" / "such")
    assert load_ledgers(tmp_path).empty  # an existing empty folder holds no rows


def test_a_saved_ledger_round_trips_exactly(tmp_path):
    led = _ledger()
    (tmp_path / "one").mkdir()
    first = led.save(tmp_path / "one").read_bytes()
    back = Ledger.from_frame(read_ledger(tmp_path / "one" / "chap.csv"), "chap", "P")
    (tmp_path / "two").mkdir()
    assert back.save(tmp_path / "two").read_bytes() == first  # byte for byte
    assert back.to_frame().equals(led.to_frame())
    assert [e.ours_value for e in back.entries] == [e.ours_value for e in led.entries]
    assert back.entries[6].ours_value == 0.1 + 0.2  # every bit of the double (%.17g)


def test_a_save_that_fails_half_way_leaves_the_previous_file_whole(tmp_path, monkeypatch):
    before = _ledger().save(tmp_path).read_bytes()
    write = pd.DataFrame.to_csv

    def half_then_fail(frame, buf=None, **kw):
        text = write(frame, None, **kw)
        if buf is None:
            return text
        buf.write(text[: len(text) // 2])
        raise OSError("no space left on device")

    monkeypatch.setattr(pd.DataFrame, "to_csv", half_then_fail)
    with pytest.raises(OSError, match="no space"):
        _ledger(ours_a=0.31).save(tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["chap.csv"]  # no temporary left
    assert (tmp_path / "chap.csv").read_bytes() == before


def test_the_check_against_a_saved_ledger_names_the_rows_that_differ(tmp_path):
    _ledger().save(tmp_path)
    _ledger().check_against_committed(tmp_path)  # the same rows: nothing to say
    assert _ledger().differences(tmp_path) == []
    changed = _ledger(ours_a=0.302)  # |0.30 - 0.302| <= 0.005: still reproduced
    assert changed.differences(tmp_path) == [
        "row 1 ('a') ours: '0.3020' vs saved '0.3000'",  # the paper's decimals + 2
        f"row 1 ('a') ours_value: '{0.302:.17g}' vs saved '{0.3:.17g}'",
    ]
    with pytest.raises(AssertionError, match=r"(?s)differs from the saved .*chap.csv.*row 1"):
        changed.check_against_committed(tmp_path)
    restatused = _ledger(ours_a=0.36)  # |0.30 - 0.36| > 0.005: now differs, with its cause
    found = restatused.differences(tmp_path)
    assert "row 1 ('a') status: 'differs' vs saved 'reproduced'" in found
    assert "row 1 ('a') cause: 'unknown' vs saved ''" in found


def test_the_check_refuses_a_missing_or_reshaped_saved_ledger(tmp_path):
    with pytest.raises(AssertionError, match="no saved ledger"):
        _ledger().check_against_committed(tmp_path)
    shorter = _ledger()
    shorter.entries.pop()
    shorter.save(tmp_path)
    n_columns = len(_ledger().file_frame().columns)  # no spread of ours: no spread_of
    assert _ledger().differences(tmp_path) == [
        f"shape (7, {n_columns}) vs saved (6, {n_columns})"
    ]


def test_save_without_a_folder_writes_nothing_and_checks_the_committed_ledger():
    before = {p.name: p.stat().st_mtime_ns for p in committed_folder().iterdir()}
    with pytest.raises(AssertionError, match="no saved ledger"):
        Ledger("no_such_chapter", "P").save()
    assert {p.name: p.stat().st_mtime_ns for p in committed_folder().iterdir()} == before


def test_the_command_line_checks_a_pages_ledgers_against_the_committed(capsys):
    assert main(["ledgers", "book/reproduce_zhang_zhou2014.md"]) == 0
    assert capsys.readouterr().out == "measures: as committed\n"
    assert main(["ledgers", "book/losses.md"]) == 0  # a Learn chapter shows no ledger
    assert capsys.readouterr().out == ""
    assert main(["ledgers", "book/reproduce_zhang_zhou2014.ipynb"]) == 2
    assert "PAGE must be a page book/NAME.md" in capsys.readouterr().err


def test_the_command_line_writes_a_pages_ledgers_as_make_chapter_does(tmp_path, monkeypatch,
                                                                      capsys):
    monkeypatch.setattr(cli, "committed_folder", lambda: tmp_path)  # not the repository's
    assert main(["ledgers", "--write", "book/reproduce_zhang_zhou2014.md"]) == 0
    n = len(read_ledger(committed_folder() / "measures.csv"))
    assert capsys.readouterr().out == f"wrote {tmp_path / 'measures.csv'} ({n} rows)\n"
    written = (tmp_path / "measures.csv").read_bytes()
    assert written == (committed_folder() / "measures.csv").read_bytes()
