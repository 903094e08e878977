"""Committed tables are bound to their provenance: hash, rows, exact round trip."""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pandas as pd
import pytest

from mlcbook import _io
from mlcrepro import results
from mlcrepro.results import StaleResultError


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
