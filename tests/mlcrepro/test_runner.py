"""The generic experiment runner: spec -> cells, one cache format, resume, workers."""

import numpy as np
import pandas as pd
import pytest

from mlcbook.datasets import UnknownDatasetError
from mlcrepro import runner as R
from mlcrepro.huellermeier2022.knn_fig4 import consensus_summary, fig4_table
from mlcrepro.runner import Cell, Spec, cells, run, table
from mlcrepro.wu_zhou2017.benchmark import (
    benchmark_config,
    benchmark_spec,
    benchmark_table,
    synthetic_table,
)

CALLS: list = []
POWER = {"cut at call": 0}  # a test sets it to make the n-th call fail (0: never)


def square(x, method, *, offset=0, scale=1.0):
    """A cell: a small tidy table whose values follow from the coordinates."""
    CALLS.append((x, method))
    if len(CALLS) == POWER["cut at call"]:
        raise RuntimeError("power cut")
    v = (x + offset) ** 2 * scale
    return pd.DataFrame({"x": [x, x], "method": [method, method], "part": ["a", "b"],
                         "value": [v, v + 0.1], "flag": [True, False]})


def spec(**kw):
    base = dict(name="toy", compute=square, axes={"x": [1, 2, 3], "method": ["m", "n"]},
                params={"offset": 1})
    base.update(kw)
    return Spec(**base)


@pytest.fixture(autouse=True)
def _clean(monkeypatch):
    CALLS.clear()
    monkeypatch.delenv("MLCBOOK_RECOMPUTE", raising=False)
    monkeypatch.delenv("MLCBOOK_RESUME", raising=False)


def plain_loop(s):
    """The reference: the same cells computed by a for loop, no runner."""
    frames = [s.compute(**c.as_dict(), **s.params) for c in cells(s)]
    return pd.concat(frames, ignore_index=True)


def test_cells_cross_the_axes_first_axis_slowest_and_filter():
    s = spec(include=lambda c: not (c["x"] == 2 and c["method"] == "n"))
    got = [c.as_dict() for c in cells(s)]
    assert got == [{"x": 1, "method": "m"}, {"x": 1, "method": "n"}, {"x": 2, "method": "m"},
                   {"x": 3, "method": "m"}, {"x": 3, "method": "n"}]


def test_table_equals_a_plain_loop_with_and_without_cache(tmp_path):
    s = spec()
    expected = plain_loop(s)
    pd.testing.assert_frame_equal(table(s, cache_dir=False), expected)
    pd.testing.assert_frame_equal(table(s, cache_dir=tmp_path), expected)
    # from the cache: the same values, bit for bit, and the same column kinds
    CALLS.clear()
    again = table(s, cache_dir=tmp_path)
    assert CALLS == []
    pd.testing.assert_frame_equal(again, expected, check_exact=True, check_dtype=False)
    assert again["flag"].dtype == bool and again["x"].dtype.kind == "i"


def test_arrays_and_mappings_round_trip(tmp_path):
    rng = np.random.default_rng(0)
    A = rng.random((4, 3))
    for result in (A, (A > 0.5).astype(np.int8), {"P": A, "n": np.arange(3)}):
        path = tmp_path / "x.npz"
        R.save(path, result)
        back = R.load(path)
        if isinstance(result, dict):
            assert set(back) == set(result)
            for k in result:
                np.testing.assert_array_equal(back[k], result[k])
        else:
            np.testing.assert_array_equal(back, result)
            assert back.dtype == result.dtype


def test_key_follows_params_key_and_cell_key_not_inputs(tmp_path):
    s = spec()
    paths = {c: R.cell_path(s, c, tmp_path) for c in cells(s)}
    assert len(set(paths.values())) == 6
    c = cells(s)[0]
    assert R.cell_path(spec(params={"offset": 2}), c, tmp_path) != paths[c]
    assert R.cell_path(spec(key={"version": "2"}), c, tmp_path) != paths[c]
    assert R.cell_path(spec(cell_key=lambda c: {"data": "abc"}), c, tmp_path) != paths[c]
    assert R.cell_path(spec(inputs=lambda c: {"scale": 1.0}), c, tmp_path) == paths[c]
    assert R.cell_path(spec(name="other"), c, tmp_path) != paths[c]
    # readable folders, a hash as the file name
    assert paths[c].relative_to(tmp_path).parts[:3] == ("toy", "1", "m")


def test_only_changed_cells_are_recomputed(tmp_path):
    run(spec(), cache_dir=tmp_path)
    assert len(CALLS) == 6
    run(spec(axes={"x": [1, 2, 3, 4], "method": ["m", "n"]}), cache_dir=tmp_path)
    assert len(CALLS) == 8  # the two new cells only
    run(spec(cell_key=lambda c: {"data": "v2" if c["x"] == 1 else "v1"}), cache_dir=tmp_path)
    assert len(CALLS) == 14  # a new cell_key for every cell


def test_an_interrupted_run_resumes_where_it_stopped(tmp_path):
    # the same code both times (the code the cells run is part of their keys)
    s = spec()
    POWER["cut at call"] = 4
    try:
        with pytest.raises(RuntimeError, match="power cut"):
            run(s, cache_dir=tmp_path)
    finally:
        POWER["cut at call"] = 0
    assert len(list(tmp_path.rglob("*.npz"))) == 3  # written as they finished
    CALLS.clear()
    got = table(s, cache_dir=tmp_path)
    assert CALLS == [(2, "n"), (3, "m"), (3, "n")]  # the first three came from the cache
    pd.testing.assert_frame_equal(got, plain_loop(s))
    assert not list(tmp_path.rglob("*.tmp"))


@pytest.mark.parametrize("damage", [b"", b"PK\x03\x04 truncated", b"not a zip at all"])
def test_a_corrupt_entry_is_discarded_with_a_warning_and_recomputed(tmp_path, damage):
    s = spec()
    first = table(s, cache_dir=tmp_path)
    entries = sorted(tmp_path.rglob("*.npz"))
    entries[2].write_bytes(damage)
    CALLS.clear()
    with pytest.warns(RuntimeWarning, match="corrupt cache entry"):
        again = table(s, cache_dir=tmp_path)
    assert len(CALLS) == 1
    pd.testing.assert_frame_equal(first, again)
    assert sorted(p for p in tmp_path.rglob("*") if p.is_file()) == entries


def test_an_entry_the_check_rejects_is_recomputed(tmp_path):
    s = spec()
    run(s, cache_dir=tmp_path)
    bad = R.cell_path(s, cells(s)[0], tmp_path)
    R.save(bad, pd.DataFrame({"x": [0]}))
    CALLS.clear()

    def check(c, result):
        if list(result.columns) != ["x", "method", "part", "value", "flag"]:
            raise ValueError("wrong columns")

    with pytest.warns(RuntimeWarning, match="wrong columns"):
        run(spec(check=check), cache_dir=tmp_path)
    assert CALLS == [(1, "m")]


def test_recomputing_the_committed_table_does_not_trust_the_cache(tmp_path, monkeypatch):
    s = spec(table="toy_table")
    run(s, cache_dir=tmp_path)
    CALLS.clear()
    monkeypatch.setenv("MLCBOOK_RECOMPUTE", "toy_table")
    run(s, cache_dir=tmp_path)
    assert len(CALLS) == 6
    CALLS.clear()
    monkeypatch.setenv("MLCBOOK_RESUME", "1")  # the same, interrupted recomputation
    run(s, cache_dir=tmp_path)
    assert CALLS == []
    monkeypatch.setenv("MLCBOOK_RECOMPUTE", "another_table")
    monkeypatch.delenv("MLCBOOK_RESUME")
    run(s, cache_dir=tmp_path)
    assert CALLS == []
    run(s, cache_dir=tmp_path, resume=False)
    assert len(CALLS) == 6


def test_cost_orders_the_work_not_the_result(tmp_path):
    s = spec(cost=lambda c: -c["x"])
    got = table(s, cache_dir=False)
    assert [x for x, _ in CALLS] == [3, 3, 2, 2, 1, 1]
    pd.testing.assert_frame_equal(got, plain_loop(spec()))


def test_two_workers_give_the_same_table(tmp_path):
    """joblib's process workers; a real Dask cluster: tests/mlcrepro/test_runner_distributed.py."""
    s = spec()
    expected = plain_loop(s)
    pd.testing.assert_frame_equal(table(s, n_jobs=2, cache_dir=tmp_path / "a"), expected)
    assert len(list((tmp_path / "a").rglob("*.npz"))) == 6


@pytest.mark.parametrize("kw,err,match", [
    ({"name": "../x"}, ValueError, "name"),
    ({"compute": 3}, TypeError, "compute"),
    ({"axes": {}}, ValueError, "axes"),
    ({"axes": {"x": "abc"}}, TypeError, "axes"),
    ({"axes": {"not an id": [1]}}, ValueError, "axes"),
    ({"params": {"x": 1}}, ValueError, "repeat the axes"),
    ({"params": {"grid": np.linspace(0, 1, 3)}}, TypeError, "NumPy"),
    ({"params": {"tol": float("nan")}}, ValueError, "finite"),
    ({"cost": 3}, TypeError, "cost"),
    ({"table": "a/b"}, ValueError, "name"),
])
def test_a_bad_spec_is_refused_before_any_work(kw, err, match):
    with pytest.raises(err, match=match):
        spec(**kw)
    assert CALLS == []


def test_bad_run_arguments_and_results():
    with pytest.raises(TypeError, match="spec"):
        run("toy")
    with pytest.raises(ValueError, match="n_jobs"):
        run(spec(), n_jobs=0)
    with pytest.raises(TypeError, match="cache_dir"):
        run(spec(), cache_dir=3.5)
    with pytest.raises(TypeError, match="DataFrame, an ndarray"):
        run(Spec("bad", lambda **kw: [1, 2], {"x": [1]}), cache_dir=False)
    with pytest.raises(TypeError, match="pickles"):
        R._encode(pd.DataFrame({"o": [object()]}))
    with pytest.raises(TypeError, match="do not all return DataFrames"):
        table(Spec("arr", lambda **kw: np.zeros(2), {"x": [1]}), cache_dir=False)


def test_cell_lookup():
    c = Cell((("dataset", "a"), ("fold", 2)))
    assert c["fold"] == 2 and str(c) == "a/2" and c.as_dict() == {"dataset": "a", "fold": 2}
    with pytest.raises(KeyError):
        c["learner"]


# ------------------------------------------------- the study modules refuse before work
def test_study_specs_refuse_bad_arguments_before_any_work():
    with pytest.raises(ValueError, match="replications"):
        benchmark_table(["medical"], 0)
    with pytest.raises(ValueError, match="replications has no number"):
        benchmark_table(["medical"], {"cal500": 1})
    with pytest.raises(ValueError, match="replications"):
        synthetic_table(-1)
    with pytest.raises(ValueError, match="tie_break"):
        fig4_table(["flags"], tie_break="random")
    with pytest.raises(UnknownDatasetError):
        fig4_table(["no-such-data"])


def test_benchmark_cells_take_their_parameters_from_the_committed_configuration():
    """The configuration that keys the committed table is the one the cells compute."""

    config = benchmark_config(["medical"], 2)
    s = benchmark_spec(["medical"], 2)
    assert s.params == {"eta": config["limo"]["eta"], "n_epochs": config["limo"]["n_epochs"],
                        "k": config["knn"], "C": config["br_C"]}
    assert [c.as_dict() for c in cells(s)][:2] == [
        {"dataset": "medical", "replication": 0, "method": "BR"},
        {"dataset": "medical", "replication": 0, "method": "ML-kNN"}]
    assert len(cells(s)) == 2 * len(config["methods"])


def test_the_consensus_table_called_by_the_chapter_writes_no_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("MLCBOOK_EXPERIMENT_CACHE", str(tmp_path))
    a = consensus_summary(["flags"], n_splits=3)
    assert not list(tmp_path.rglob("*"))
    b = consensus_summary(["flags"], n_splits=3, cache_dir=tmp_path)
    assert len(list(tmp_path.rglob("*.npz"))) == 1
    pd.testing.assert_frame_equal(a, b)
