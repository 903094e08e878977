"""Committed result tables: load when the configuration matches, recompute when it changes."""

import json

import pandas as pd
import pytest

from mlcbook import results


def _table(calls):
    def compute():
        calls.append(1)
        return pd.DataFrame({"a": [0.1, 1 / 3], "b": ["x", "y"]})
    return compute


def test_compute_once_then_load(tmp_path, monkeypatch):
    monkeypatch.delenv("MLCBOOK_RECOMPUTE", raising=False)
    calls = []
    t1 = results.load_or_compute("demo", _table(calls), {"k": 1}, folder=tmp_path)
    t2 = results.load_or_compute("demo", _table(calls), {"k": 1}, folder=tmp_path)
    assert len(calls) == 1
    pd.testing.assert_frame_equal(t1, t2)
    assert t2["a"].iloc[1] == 1 / 3  # 17 significant digits: exact round trip
    meta = json.loads((tmp_path / "demo.json").read_text())
    assert meta["config"] == {"k": 1} and meta["config_hash"] == results.config_hash({"k": 1})
    assert "numpy" in meta["versions"]
    assert not list(tmp_path.glob("*.tmp"))


def test_changed_config_recomputes(tmp_path, monkeypatch):
    monkeypatch.delenv("MLCBOOK_RECOMPUTE", raising=False)
    calls = []
    results.load_or_compute("demo", _table(calls), {"k": 1}, folder=tmp_path)
    results.load_or_compute("demo", _table(calls), {"k": 2}, folder=tmp_path)
    assert len(calls) == 2


def test_recompute_flag_forces_recomputation(tmp_path, monkeypatch):
    calls = []
    results.load_or_compute("demo", _table(calls), {"k": 1}, folder=tmp_path)
    monkeypatch.setenv("MLCBOOK_RECOMPUTE", "1")
    results.load_or_compute("demo", _table(calls), {"k": 1}, folder=tmp_path)
    assert len(calls) == 2


def test_compute_must_return_a_frame(tmp_path):
    with pytest.raises(TypeError, match="DataFrame"):
        results.load_or_compute("bad", lambda: [1, 2], {"k": 1}, folder=tmp_path)
    assert not list(tmp_path.iterdir())


def test_config_hash_is_order_independent():
    assert results.config_hash({"a": 1, "b": 2}) == results.config_hash({"b": 2, "a": 1})
    assert results.config_hash({"a": 1}) != results.config_hash({"a": 2})
