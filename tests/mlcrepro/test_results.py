"""Committed result tables: loaded, never silently recomputed; keys from the specification."""

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlcbook.profiles import LogGrid
from mlcrepro import results
from mlcrepro._paths import project_root, results_dir
from mlcrepro.huellermeier2022.authors_study import authors_study_config
from mlcrepro.results import StaleResultError, config_hash, package_versions


def _table(calls):
    def compute():
        calls.append(1)
        return pd.DataFrame({"a": [0.1, 1 / 3], "b": ["x", "y"]})
    return compute


def _tree_digest(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_compute_only_when_asked_then_load(tmp_path, monkeypatch):
    calls = []
    monkeypatch.setenv("MLCBOOK_RECOMPUTE", "demo")  # `make table NAME=demo`
    t1 = results.load_or_compute("demo", _table(calls), {"k": 1}, folder=tmp_path)
    monkeypatch.delenv("MLCBOOK_RECOMPUTE")
    t2 = results.load_or_compute("demo", _table(calls), {"k": 1}, folder=tmp_path)
    assert len(calls) == 1
    pd.testing.assert_frame_equal(t1, t2)
    assert t2["a"].iloc[1] == 1 / 3  # 17 significant digits: exact round trip
    meta = json.loads((tmp_path / "demo.json").read_text())
    assert meta["config"] == {"k": 1} and meta["config_hash"] == results.config_hash({"k": 1})
    assert "numpy" in meta["versions"] and "numpy_simd" in meta["machine"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["demo.csv", "demo.json"]  # no temp


def test_missing_table_fails_loudly_and_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.delenv("MLCBOOK_RECOMPUTE", raising=False)
    calls = []
    with pytest.raises(StaleResultError, match=r"missing.*make table NAME=demo"):
        results.load_or_compute("demo", _table(calls), {"k": 1}, folder=tmp_path)
    assert calls == [] and not list(tmp_path.iterdir())


def test_stale_table_fails_loudly_names_the_change_and_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("MLCBOOK_RECOMPUTE", "1")
    calls = []
    results.load_or_compute("demo", _table(calls), {"k": 1, "grid": "x"}, folder=tmp_path)
    monkeypatch.delenv("MLCBOOK_RECOMPUTE")
    before = _tree_digest(tmp_path)
    with pytest.raises(StaleResultError, match=r"another configuration.*\bk\b.*make table NAME=demo"):
        results.load_or_compute("demo", _table(calls), {"k": 2, "grid": "x"}, folder=tmp_path)
    assert len(calls) == 1 and _tree_digest(tmp_path) == before


def test_recompute_of_another_table_does_not_recompute_this_one(tmp_path, monkeypatch):
    monkeypatch.setenv("MLCBOOK_RECOMPUTE", "other,third")
    assert results.recompute_requested("third") and not results.recompute_requested("demo")
    with pytest.raises(StaleResultError):
        results.load_or_compute("demo", _table([]), {"k": 1}, folder=tmp_path)
    for value, expected in (("1", True), ("all", True), ("0", False), ("", False)):
        monkeypatch.setenv("MLCBOOK_RECOMPUTE", value)
        assert results.recompute_requested("demo") is expected


def test_compute_must_return_a_frame_and_nothing_is_left(tmp_path, monkeypatch):
    monkeypatch.setenv("MLCBOOK_RECOMPUTE", "1")
    with pytest.raises(TypeError, match="DataFrame"):
        results.load_or_compute("bad", lambda: [1, 2], {"k": 1}, folder=tmp_path)
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("name", ["../x", "a/b", "", ".hidden", "-x", "a b"])
def test_table_names_cannot_escape_their_folder(tmp_path, name):
    with pytest.raises(ValueError, match="name must be a file stem"):
        results.load_or_compute(name, _table([]), {"k": 1}, folder=tmp_path)
    with pytest.raises(TypeError, match="name must be a str"):
        results.load_or_compute(Path("x"), _table([]), {"k": 1}, folder=tmp_path)


def test_config_hash_is_order_independent():
    assert results.config_hash({"a": 1, "b": 2}) == results.config_hash({"b": 2, "a": 1})
    assert results.config_hash({"a": 1}) != results.config_hash({"a": 2})
    assert results.config_hash({"s": {"b", "a"}}) == results.config_hash({"s": ["a", "b"]})


@pytest.mark.parametrize("bad,match", [
    (np.logspace(0, 3, 25), "computed NumPy"),
    ({"a": np.float64(0.5)}, r"config\['a'\] is a computed NumPy"),
    ({"a": {1, "x"}}, "set of mixed"),
    ({"a": object()}, "no machine-independent text form"),
    ({1: "x"}, "keys must be str"),
])
def test_machine_dependent_specifications_are_refused(bad, match):
    with pytest.raises(TypeError, match=match):
        results.config_hash(bad)
    with pytest.raises(ValueError, match="finite"):
        results.config_hash({"a": float("nan")})


def test_log_grid_is_keyed_by_its_specification_and_behaves_like_the_array():
    g = LogGrid(0, 3, 25)
    assert g.spec == "logspace(0, 3, 25)" and results.canonical({"a": g}) == {"a": g.spec}
    np.testing.assert_array_equal(np.asarray(g), np.logspace(0, 3, 25))
    assert len(g) == 25 and g[0] == 1.0 and g[-1] == 1000.0 and list(g)[6] == g[6]
    assert g == LogGrid(0, 3, 25) and g != LogGrid(0, 3, 24)
    with pytest.raises(ValueError, match="num"):
        LogGrid(0, 3, 1)
    with pytest.raises(TypeError, match="finite"):
        LogGrid(0, float("inf"), 3)


@pytest.mark.boomer  # the study's specification describes the BOOMER learners
def test_the_key_is_the_same_in_another_process_and_on_another_cpu():
    """Hash seeds and SIMD code paths must not reach the key (sets, logspace floats)."""
    code = ("from mlcrepro.results import config_hash\nfrom mlcbook.profiles import LogGrid\n"
            "from mlcrepro.huellermeier2022.authors_study import authors_study_config\n"
            "print(config_hash({'s': {'b', 'a', 'c'}, 'g': LogGrid(0, 3, 25)}),"
            " config_hash(authors_study_config()))")
    emulate = {"NPY_DISABLE_CPU_FEATURES": "AVX512F AVX512CD AVX512_SKX AVX512_CLX AVX512_CNL "
               "AVX512_ICL AVX2 FMA3 F16C AVX", "OPENBLAS_CORETYPE": "Nehalem"}
    # this process against another with another hash seed, on the emulated CPU
    here = f"{config_hash({'s': {'b', 'a', 'c'}, 'g': LogGrid(0, 3, 25)})} " \
        f"{config_hash(authors_study_config())}\n"
    seed = "2" if os.environ.get("PYTHONHASHSEED") == "1" else "1"
    env = {**os.environ, "PYTHONHASHSEED": seed, **emulate}
    there = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                           text=True, check=True).stdout
    assert here == there


@settings(max_examples=50, deadline=None)
@given(st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5)
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=4), c, max_size=4),
    max_leaves=12))
def test_canonical_form_round_trips_through_json(config):
    """Any plain specification is its own canonical form, so its key is its JSON text."""
    assert json.loads(json.dumps(results.canonical(config))) == config


def test_a_chapter_with_a_stale_table_fails_at_once_and_writes_nothing(tmp_path):
    """Execute the Reproduce page of the learner study against a staged copy of its
    table whose provenance has another key: the cell that computes the evidence fails
    with the command that recomputes the table, no later cell runs, and neither the
    staged nor the committed files change.  (The Learn chapter draws from the committed
    table by name; the configuration is checked where the reproduction is judged.)"""
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    committed = results_dir()
    for table in committed.glob("*.csv"):  # every table as committed but the study's key
        for suffix in (".csv", ".json"):
            shutil.copy(table.with_suffix(suffix), tmp_path)
    meta = tmp_path / "dependence_authors.json"
    saved = json.loads(meta.read_text())
    saved["config"]["alphas"] = saved["config"]["alphas"][:-1]
    saved["config_hash"] = results.config_hash(saved["config"])
    meta.write_text(json.dumps(saved))
    before, before_repo = _tree_digest(tmp_path), _tree_digest(committed)
    nb = nbformat.read(project_root() / "book" / "reproduce_huellermeier2022.ipynb", as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    env = {**os.environ, "MLCBOOK_RESULTS_DIR": str(tmp_path), "MLCBOOK_PROGRESS": "0"}
    env.pop("MLCBOOK_RECOMPUTE", None)
    old = os.environ.copy()
    os.environ.clear()
    os.environ.update(env)
    try:
        client = NotebookClient(nb, timeout=300, kernel_name="python3",
                                resources={"metadata": {"path": str(project_root() / "book")}})
        with pytest.raises(CellExecutionError) as err:
            client.execute()
    finally:
        os.environ.clear()
        os.environ.update(old)
    text = str(err.value)
    assert "StaleResultError" in text and "make table NAME=dependence_authors" in text
    assert "alphas" in text
    code = [c for c in nb.cells if c.cell_type == "code"]
    failed = next(i for i, c in enumerate(code)
                  if any(o.get("output_type") == "error" for o in c.outputs))
    assert "evidence()" in code[failed].source  # the first cell that reads the tables
    assert all(c.get("execution_count") is None for c in code[failed + 1:])
    assert _tree_digest(tmp_path) == before and _tree_digest(committed) == before_repo


def test_package_versions_match_importlib_and_name_the_missing():
    from importlib import metadata

    got = package_versions(["numpy", "no-such-package-mlcbook"])
    assert got == {"numpy": metadata.version("numpy"), "no-such-package-mlcbook": None}
