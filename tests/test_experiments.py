"""Paired CV runner: determinism, workers, cache invalidation, Dask."""

import io

import numpy as np
import pandas as pd
import pytest

from sklearn.tree import DecisionTreeClassifier

from mlcbook.experiments import (
    ALPHAS,
    cross_val_predictions,
    cv_folds,
    evaluate_predictions,
    loss_ratios,
    pooled_profiles,
    run_study,
)
from mlcbook.learners import make_learner
from mlcbook.losses import binomial_loss, polynomial_loss


def _data(n=90, K=4, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 6))
    Y = (X[:, :K] + 0.5 * rng.normal(size=(n, K)) > 0.3).astype(int)
    return X, Y


DATA = {"toy": _data(), "toy2": _data(60, 3, 1)}
LEARNERS = ["BR", "LP", "RAkEL-k2-m10"]


def test_folds_partition_and_are_seeded():
    folds = cv_folds(53, 10, seed=0)
    test = np.concatenate([te for _, te in folds])
    assert sorted(test.tolist()) == list(range(53))
    for tr, te in folds:
        assert not set(tr) & set(te)
    assert all(np.array_equal(a[1], b[1]) for a, b in zip(folds, cv_folds(53, 10, seed=0)))


def test_study_is_identical_twice_and_with_two_workers():
    a = run_study(DATA, LEARNERS, n_folds=5, cache_dir=False, n_jobs=1)
    b = run_study(DATA, LEARNERS, n_folds=5, cache_dir=False, n_jobs=1)
    c = run_study(DATA, LEARNERS, n_folds=5, cache_dir=False, n_jobs=2)
    pd.testing.assert_frame_equal(a, b)
    pd.testing.assert_frame_equal(a, c)
    assert list(a.columns) == ["dataset", "K", "learner", "fold", "n_test", "family", "param", "loss"]
    # K binomial rows and len(ALPHAS) polynomial rows per cell.
    cell = a[(a.dataset == "toy") & (a.learner == "BR") & (a.fold == 0)]
    assert (cell.family == "binomial").sum() == 4 and (cell.family == "polynomial").sum() == len(ALPHAS)


def test_evaluation_agrees_with_the_losses_module():
    X, Y = DATA["toy"]
    P, fold_of = cross_val_predictions(X, Y, make_learner("BR", 0), n_folds=5, cache_dir=False)
    ev = evaluate_predictions(Y, P)
    for k in range(1, 5):
        got = ev[(ev.family == "binomial") & (ev.param == k)].loss.item()
        assert got == pytest.approx(binomial_loss(Y, P, k), abs=1e-12)
    for a in (1.0, ALPHAS[7], 1000.0):
        got = ev[(ev.family == "polynomial") & np.isclose(ev.param, a)].loss.item()
        assert got == pytest.approx(polynomial_loss(Y, P, a), abs=1e-12)
    # Pooled profile == loss of the pooled out-of-sample predictions.
    t = run_study({"toy": DATA["toy"]}, ["BR"], n_folds=5, cache_dir=False)
    pooled = pooled_profiles(t)
    ham = pooled[(pooled.family == "binomial") & (pooled.param == 1)].loss.item()
    assert ham == pytest.approx(binomial_loss(Y, P, 1), abs=1e-12)
    assert set(fold_of) == set(range(5))


def test_cache_reuses_cells_and_is_invalidated_by_configuration(tmp_path, monkeypatch):
    import mlcbook.experiments.study as ex

    calls = []
    real = ex._fit_predict

    def counting(est, *args):
        calls.append(type(est).__name__)
        return real(est, *args)

    monkeypatch.setattr(ex, "_fit_predict", counting)
    first = run_study({"toy": DATA["toy"]}, ["BR", "LP"], n_folds=3, cache_dir=tmp_path)
    assert len(calls) == 6
    again = run_study({"toy": DATA["toy"]}, ["BR", "LP"], n_folds=3, cache_dir=tmp_path)
    assert len(calls) == 6  # everything from the cache
    pd.testing.assert_frame_equal(first, again)
    # A changed base-learner parameter refits that learner only.
    changed = {"BR": make_learner("BR", 0).set_params(estimator__max_depth=2), "LP": make_learner("LP", 0)}
    run_study({"toy": DATA["toy"]}, changed, n_folds=3, cache_dir=tmp_path)
    assert len(calls) == 9
    # A changed dataset refits everything.
    X, Y = DATA["toy"]
    run_study({"toy": (X + 1e-3, Y)}, ["LP"], n_folds=3, cache_dir=tmp_path)
    assert len(calls) == 12
    # A different fold scheme too.
    run_study({"toy": DATA["toy"]}, ["LP"], n_folds=3, seed=1, cache_dir=tmp_path)
    assert len(calls) == 15
    # No temporary files are left behind.
    assert not list(tmp_path.rglob("*.tmp"))


@pytest.mark.parametrize("damage", [b"", b"PK\x03\x04 truncated", b"not a zip at all"])
def test_a_corrupt_cache_cell_is_discarded_and_refitted(tmp_path, monkeypatch, damage):
    import mlcbook.experiments.study as ex

    calls = []
    real = ex._fit_predict
    monkeypatch.setattr(ex, "_fit_predict", lambda est, *a: calls.append(1) or real(est, *a))
    first = run_study({"toy": DATA["toy"]}, ["BR"], n_folds=3, cache_dir=tmp_path)
    cells = sorted(tmp_path.rglob("*.npz"))
    assert len(cells) == 3 and len(calls) == 3
    cells[1].write_bytes(damage)
    with pytest.warns(RuntimeWarning, match="corrupt cache entry"):
        again = run_study({"toy": DATA["toy"]}, ["BR"], n_folds=3, cache_dir=tmp_path)
    assert len(calls) == 4  # only the damaged cell was refitted
    pd.testing.assert_frame_equal(first, again)
    assert sorted(tmp_path.rglob("*.npz")) == cells  # rebuilt in place, nothing else left


def test_ratios_are_second_over_first():
    t = run_study({"toy": DATA["toy"]}, ["BR", "LP"], n_folds=3, cache_dir=False)
    pooled = pooled_profiles(t)
    r = loss_ratios(pooled, "BR", "LP")
    br = pooled[pooled.learner == "BR"].set_index(["family", "param"]).loss
    lp = pooled[pooled.learner == "LP"].set_index(["family", "param"]).loss
    np.testing.assert_allclose(r.set_index(["family", "param"]).ratio, (lp / br).loc[r.set_index(["family", "param"]).index])
    b = r[r.family == "binomial"].x
    assert b.min() == 0 and b.max() == 1


def test_dask_backend_gives_the_same_table():
    import distributed  # in the test extra: the Dask check must run, never skip
    import joblib

    expected = run_study(DATA, ["BR", "LP"], n_folds=3, cache_dir=False, n_jobs=1)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster, distributed.Client(cluster):
        with joblib.parallel_config(backend="dask"):
            got = run_study(DATA, ["BR", "LP"], n_folds=3, cache_dir=False, n_jobs=2)
    pd.testing.assert_frame_equal(expected, got)
