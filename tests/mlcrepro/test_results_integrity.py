"""Committed tables are bound to their provenance: hash, rows, exact round trip."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mlcbook import _io
from mlcrepro import results
from mlcrepro.results import StaleResultError
from mlcrepro.table_csv import table_record


def _write(tmp_path, monkeypatch, table, name="demo", config=None):
    monkeypatch.setenv("MLCBOOK_RECOMPUTE", name)
    out = results.load_or_compute(name, lambda: table, config or {"k": 1}, folder=tmp_path)
    monkeypatch.delenv("MLCBOOK_RECOMPUTE")
    return out


def _load(tmp_path, name="demo", config=None):
    return results.load_or_compute(name, lambda: None, config or {"k": 1}, folder=tmp_path)


def test_strings_that_look_missing_or_numeric_round_trip(tmp_path, monkeypatch):
    table = pd.DataFrame({
        "code": ["007", "NA", "None", "nan", ""],
        "x": [0.1, np.nan, 1 / 3, -0.0, 1e300],
        "n": [1, 2, 3, 4, 5],
        "flag": [True, False, True, True, False],
    })
    written = _write(tmp_path, monkeypatch, table)
    loaded = _load(tmp_path)
    for got in (written, loaded):
        assert got["code"].tolist() == ["007", "NA", "None", "nan", ""]
        assert got["x"].iloc[2] == 1 / 3 and np.isnan(got["x"].iloc[1])
        assert got["n"].tolist() == [1, 2, 3, 4, 5] and got["flag"].tolist() == table["flag"].tolist()
    meta = json.loads((tmp_path / "demo.json").read_text())
    data = (tmp_path / "demo.csv").read_bytes()
    assert meta["table"]["sha256"] == hashlib.sha256(data).hexdigest()
    assert meta["table"]["rows"] == 5


@pytest.mark.parametrize("damage", ["truncate", "edit", "conflict", "lfs"])
def test_a_damaged_table_fails_to_load(tmp_path, monkeypatch, damage):
    table = pd.DataFrame({"a": np.arange(20) / 7, "b": list("abcdefghijklmnopqrst")})
    _write(tmp_path, monkeypatch, table)
    csv = tmp_path / "demo.csv"
    text = csv.read_text()
    csv.write_text({
        "truncate": text[: len(text) // 2],
        "edit": text.replace("0.14285714285714285", "0.14285714285714286"),
        "conflict": "<<<<<<< HEAD\n" + text + "=======\n" + text + ">>>>>>> other\n",
        "lfs": "version https://git-lfs.github.com/spec/v1\noid sha256:abc\nsize 12\n",
    }[damage])
    with pytest.raises(StaleResultError, match="demo.csv"):
        _load(tmp_path)


def test_legacy_provenance_without_a_hash_still_loads_but_not_an_lfs_pointer(
    tmp_path, monkeypatch
):
    table = pd.DataFrame({"a": [0.5, 0.25]})
    _write(tmp_path, monkeypatch, table)
    meta = tmp_path / "demo.json"
    obj = json.loads(meta.read_text())
    del obj["table"]  # as every table committed before hashes were recorded
    meta.write_text(json.dumps(obj))
    pd.testing.assert_frame_equal(_load(tmp_path), _io.read_csv_exact(tmp_path / "demo.csv"))
    (tmp_path / "demo.csv").write_text("version https://git-lfs.github.com/spec/v1\n")
    with pytest.raises(StaleResultError, match="Git LFS pointer"):
        _load(tmp_path)


def test_an_empty_or_lossy_recompute_writes_nothing(tmp_path, monkeypatch):
    good = pd.DataFrame({"a": [1.5]})
    _write(tmp_path, monkeypatch, good)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    for bad, message in (
        (pd.DataFrame({"a": []}), "empty table"),
        (pd.DataFrame(), "empty table"),
        (pd.DataFrame({"a": ["x", None]}), "does not survive its CSV"),
    ):
        with pytest.raises(ValueError, match=message):
            _write(tmp_path, monkeypatch, bad)
        assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_a_failed_provenance_write_leaves_nothing_that_loads_wrongly(tmp_path, monkeypatch):
    _write(tmp_path, monkeypatch, pd.DataFrame({"a": [1.0, 2.0]}))

    real = results.atomic_write

    def failing(path, mode="w", **kw):  # the CSV write fails after the provenance's
        if str(path).endswith(".csv"):
            raise OSError(28, "No space left on device")
        return real(path, mode, **kw)

    monkeypatch.setattr(results, "atomic_write", failing)
    with pytest.raises(OSError):
        _write(tmp_path, monkeypatch, pd.DataFrame({"a": [3.0, 4.0, 5.0]}), config={"k": 1})
    monkeypatch.delenv("MLCBOOK_RECOMPUTE")
    monkeypatch.setattr(results, "atomic_write", real)
    # new provenance, old CSV: refused, never served as the new table
    with pytest.raises(StaleResultError, match="differs from the table its provenance"):
        _load(tmp_path)
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


# ------------------------------------------------------------ exact round trips
def _round_trip(tmp_path, monkeypatch, table):
    """What load_or_compute returns when it writes ``table``, and when it loads it."""
    written = _write(tmp_path, monkeypatch, table)
    return written, _load(tmp_path)


ROUND_TRIPS = {
    # before: the index was dropped, integer names came back as "0", "1"
    "named index": pd.DataFrame({"v": [0.5, 0.25]}, index=pd.Index(["a", "b"], name="key")),
    "unnamed index of a filtered table": pd.DataFrame({"v": [0.1, 0.2, 0.3]}).iloc[[2, 0]],
    "two-level index": pd.DataFrame(
        {"v": [1.5, 2.5, 3.5]},
        index=pd.MultiIndex.from_tuples([("x", 1), ("x", 2), ("y", 1)], names=["d", None]),
    ),
    "integer column names": pd.DataFrame(np.arange(6.0).reshape(2, 3) / 7),
    "mixed column names": pd.DataFrame({"name": ["a", "b"], 0: [1, 2], 7: [0.5, 1.0]}),
    # before: whole floats came back as int64, float32/int32 as 64-bit,
    # and a nullable Int64 with NA raised "boolean value of NA is ambiguous"
    "whole floats": pd.DataFrame({"beta": [1.0, 2.0, 10.0]}),
    "narrow numbers": pd.DataFrame({
        "f": np.array([0.1, 1 / 3], dtype=np.float32),
        "i": np.array([-7, 2**31 - 1], dtype=np.int32),
        "u": np.array([0, 255], dtype=np.uint8),
        "big": np.array([2**63 + 11, 1], dtype=np.uint64),
    }),
    "nullable with NA": pd.DataFrame({
        "hits": pd.array([3, None, 2**62 + 1], dtype="Int64"),
        "flag": pd.array([True, None, False], dtype="boolean"),
        "x": pd.array([0.1, None, -0.0], dtype="Float64"),
    }),
    "text that looks missing": pd.DataFrame({"code": ["NA", "", "007"], "n": [1, 2, 3]}),
    "string dtype": pd.DataFrame({"s": pd.array(["a", "b"], dtype="string")}),
}


@pytest.mark.parametrize("case", sorted(ROUND_TRIPS))
def test_a_table_reads_back_as_it_was_written(tmp_path, monkeypatch, case):
    table = ROUND_TRIPS[case]
    for got in _round_trip(tmp_path, monkeypatch, table):
        pd.testing.assert_frame_equal(got, table, check_exact=True)


@pytest.mark.parametrize(
    "table, match",
    [
        (pd.DataFrame({"c": pd.Categorical(["a", "b"])}), "column 'c' of dtype category"),
        (pd.DataFrame({"t": pd.to_datetime(["2020-01-01", "2021-01-01"])}), "datetime64"),
        (pd.DataFrame({"z": [1 + 2j, 3j]}), "complex128"),
        (pd.DataFrame({"s": ["a", None]}), r"column 's', row 1: a missing value reads back as ''"),
        (pd.DataFrame({"s": ["a", "b\rc"]}), r"carriage return in the text of column 's', row 1"),
        (
            pd.DataFrame({"s": pd.array(["a", None], dtype="string")}),
            r"column 's', row 1: a missing value reads back as ''",
        ),
        (pd.DataFrame({1.5: [1, 2]}), "a column named 1.5"),
        (pd.DataFrame({"a": [1], 1: [2], "1": [3]}), "repeats a column name"),
        (pd.DataFrame({"v": [1, 2]}, index=pd.Index(["a", "b"], name="v")), "index levels"),
        (pd.DataFrame({"v": [1, 2]}, index=pd.Index(["a", "b"], name=3)), "index level named 3"),
    ],
)
def test_a_table_that_would_not_read_back_is_refused_and_nothing_written(
    tmp_path, monkeypatch, table, match
):
    _write(tmp_path, monkeypatch, pd.DataFrame({"a": [1.5]}))
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    with pytest.raises(ValueError, match=match):
        _write(tmp_path, monkeypatch, table)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


_CELLS = {
    "float64": st.floats(allow_nan=True, allow_infinity=True),
    "float32": st.floats(width=32, allow_nan=True),
    "int64": st.integers(-(2**63), 2**63 - 1),
    "int16": st.integers(-(2**15), 2**15 - 1),
    "uint64": st.integers(0, 2**64 - 1),
    "bool": st.booleans(),
    "object": st.text(max_size=4),
    "Int64": st.none() | st.integers(-(2**63), 2**63 - 1),
    "boolean": st.none() | st.booleans(),
}


@st.composite
def tables(draw):
    n = draw(st.integers(1, 4))
    kinds = draw(st.lists(st.sampled_from(sorted(_CELLS)), min_size=1, max_size=4))
    names = draw(
        st.lists(st.one_of(st.integers(-3, 3), st.text("ab_", min_size=1, max_size=3)),
                 min_size=len(kinds), max_size=len(kinds), unique_by=str)
    )
    cols = {}
    for name, kind in zip(names, kinds):
        values = draw(st.lists(_CELLS[kind], min_size=n, max_size=n))
        cols[name] = pd.Series(values, dtype=kind)
    table = pd.DataFrame(cols)
    how = draw(st.sampled_from(["default", "shuffled", "named", "two levels"]))
    if how == "shuffled":
        table = table.iloc[draw(st.permutations(range(n)))]
    elif how == "named":
        table.index = pd.Index(draw(st.lists(st.text(max_size=3), min_size=n, max_size=n)),
                               name="key")
    elif how == "two levels":
        table.index = pd.MultiIndex.from_arrays([list(range(n)), ["x"] * n], names=["i", "j"])
    return table


@settings(max_examples=60, deadline=None)
@given(table=tables())
@example(table=pd.DataFrame({0: [1]}, index=pd.Index(["\r"], name="key")))  # found by it
def test_any_table_reads_back_exactly_or_is_refused(tmp_path_factory, table):
    folder = tmp_path_factory.mktemp("t")
    with pytest.MonkeyPatch.context() as mp:
        try:
            written, loaded = _round_trip(folder, mp, table)
        except ValueError as err:  # refused: said why, and wrote nothing
            assert "nothing was written" in str(err) or "does not survive" in str(err)
            assert not list(folder.iterdir())
            return
    for got in (written, loaded):
        pd.testing.assert_frame_equal(got, table, check_exact=True)


def test_the_committed_tables_keep_their_format(tmp_path):
    """Written again by today's code, every committed table gives the same bytes, hence
    the hash its provenance records: the exact round trip needs no table recomputed,
    and no provenance changes.  (A committed float column of whole numbers, e.g.
    blended_cv_determined's beta, loads as integers, as it always has: its record
    predates the exact dtypes.)"""
    folder = results.results_dir()
    for meta in sorted(folder.glob("*.json")):
        saved = json.loads(meta.read_text())
        record = saved.get("table")
        csv = meta.with_suffix(".csv")
        table = _io.read_csv_exact(csv) if record is None else results._read_table(csv, record)
        data, again = table_record(meta.stem, table)
        assert data == csv.read_bytes(), meta.stem
        if record is not None:
            assert (again["sha256"], again["rows"]) == (record["sha256"], record["rows"])


def test_a_killed_write_leaves_nothing_the_next_run_keeps(tmp_path, monkeypatch):
    """A temporary file of a writer that was killed (its process is gone) is removed by
    the next load at once; one of a live writer is never touched."""
    _write(tmp_path, monkeypatch, pd.DataFrame({"a": [1.5]}))
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    try:
        host = _io._owner_tag().split("-")[0]
        live = tmp_path / f".demo.csv.{host}-{proc.pid}-{_io._proc_stat(proc.pid)[1]}.x1.tmp"
        live.write_bytes(b"half a table")
        dead = tmp_path / f".demo.json.{host}-2147480000-.y2.tmp"  # no such process
        dead.write_bytes(b"half a provenance")
        pd.testing.assert_frame_equal(_load(tmp_path), pd.DataFrame({"a": [1.5]}))
        assert live.exists() and not dead.exists()
    finally:
        proc.kill()
        proc.wait(60)
    _load(tmp_path)  # now its writer is dead too
    assert sorted(p.name for p in tmp_path.iterdir()) == ["demo.csv", "demo.json"]
