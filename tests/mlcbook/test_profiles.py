"""Loss profiles (mlcbook.profiles): folds, one profile, pooling, ratios of two learners."""

import math

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone

from mlcbook.learners import make_learner
from mlcbook.losses import binomial_loss, polynomial_loss
from mlcbook.profiles import (
    ALPHAS,
    curve_summary,
    cv_folds,
    evaluate_predictions,
    loss_ratios,
    pooled_mean,
    pooled_mean_draws,
    pooled_profiles,
)


def _data(n=90, K=4, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 6))
    Y = (X[:, :K] + 0.5 * rng.normal(size=(n, K)) > 0.3).astype(int)
    return X, Y


def _fold_table(X, Y, learners, n_folds=5):
    """The tidy table of a paired CV, written out as a plain loop (the reference)."""
    rows = []
    P_all = {}
    for name in learners:
        P_all[name] = np.zeros_like(Y)
        for f, (tr, te) in enumerate(cv_folds(len(Y), n_folds, seed=0)):
            P = clone(make_learner(name, 0)).fit(X[tr], Y[tr]).predict(X[te])
            P_all[name][te] = P
            ev = evaluate_predictions(Y[te], P)
            ev.insert(0, "n_test", len(te))
            ev.insert(0, "fold", f)
            ev.insert(0, "learner", name)
            ev.insert(0, "K", Y.shape[1])
            ev.insert(0, "dataset", "toy")
            rows.append(ev)
    return pd.concat(rows, ignore_index=True), P_all


def test_folds_partition_and_are_seeded():
    folds = cv_folds(53, 10, seed=0)
    test = np.concatenate([te for _, te in folds])
    assert sorted(test.tolist()) == list(range(53))
    for tr, te in folds:
        assert not set(tr) & set(te)
    assert all(np.array_equal(a[1], b[1]) for a, b in zip(folds, cv_folds(53, 10, seed=0)))
    with pytest.raises(ValueError, match="n_folds"):
        cv_folds(10, 1)


def test_profile_agrees_with_the_losses_module():
    X, Y = _data()
    P = (X[:, :4] > 0).astype(int)
    ev = evaluate_predictions(Y, P)
    assert (ev.family == "binomial").sum() == 4 and (ev.family == "polynomial").sum() == len(ALPHAS)
    # both sides sum the same few hundred terms in [0, 1]: rounding stays far below 1e-12
    for k in range(1, 5):
        got = ev[(ev.family == "binomial") & (ev.param == k)].loss.item()
        assert got == pytest.approx(binomial_loss(Y, P, k), abs=1e-12)
    for a in (1.0, ALPHAS[7], 1000.0):
        got = ev[(ev.family == "polynomial") & np.isclose(ev.param, a)].loss.item()
        assert got == pytest.approx(polynomial_loss(Y, P, a), abs=1e-12)


def test_pooled_profile_is_the_loss_of_the_pooled_predictions():
    X, Y = _data()
    table, P = _fold_table(X, Y, ["BR"])
    pooled = pooled_profiles(table)
    for k in range(1, 5):
        got = pooled[(pooled.family == "binomial") & (pooled.param == k)].loss.item()
        assert got == pytest.approx(binomial_loss(Y, P["BR"], k), abs=1e-12)
    b = pooled[pooled.family == "binomial"].x
    assert b.min() == 0 and b.max() == 1


def test_ratios_are_second_over_first_and_summarised_per_dataset():
    X, Y = _data()
    table, _ = _fold_table(X, Y, ["BR", "LP"], n_folds=3)
    pooled = pooled_profiles(table)
    r = loss_ratios(pooled, "BR", "LP")
    br = pooled[pooled.learner == "BR"].set_index(["family", "param"]).loss
    lp = pooled[pooled.learner == "LP"].set_index(["family", "param"]).loss
    idx = r.set_index(["family", "param"]).index
    np.testing.assert_allclose(r.set_index(["family", "param"]).ratio, (lp / br).loc[idx])
    s = curve_summary(pooled, "BR", "LP")
    binom = r[r.family == "binomial"].sort_values("param").ratio.to_numpy()
    assert s.loc["toy", "start"] == binom[0] and s.loc["toy", "end"] == binom[-1]
    assert s.loc["toy", "falls"] == (binom[-1] < binom[0])
    with pytest.raises(ValueError, match="no rows"):
        loss_ratios(pooled, "BR", "CC")


def _toy_folds():
    """Two folds of one curve point: sizes 10 and 30, losses 0.1 and 0.3."""
    return pd.DataFrame({
        "dataset": "toy", "K": 3, "learner": "BR", "family": "binomial", "param": 1.0,
        "loss": [0.1, 0.3], "n_test": [10, 30],
    })


def test_pooling_weights_each_fold_by_its_size():
    got = pooled_profiles(_toy_folds()).loss.item()
    assert got == pytest.approx((0.1 * 10 + 0.3 * 30) / 40, rel=1e-15)  # one division


@pytest.mark.parametrize(
    "column, value, match",
    [
        ("loss", [np.nan, 0.3], r"table\['loss'\] must be a finite number.*dataset='toy'"),
        ("loss", [0.1, np.inf], r"table\['loss'\] must be a finite number"),
        ("n_test", [0, 0], r"table\['n_test'\] must be a positive integer"),
        ("n_test", [10, 0], r"table\['n_test'\] must be a positive integer"),
        ("n_test", [10.5, 30], r"table\['n_test'\] must be a positive integer"),
        ("n_test", [np.nan, 30], r"table\['n_test'\] must be a positive integer"),
        ("K", [-3, 3], r"table\['K'\] must be a positive integer"),
        ("param", [np.nan, 1.0], r"table\['param'\] must be a finite number"),
        ("learner", [None, "BR"], r"table\['learner'\] is missing on 1 of 2 rows"),
    ],
)
def test_pooling_refuses_what_it_would_pool_silently(column, value, match):
    """Before: a NaN loss was skipped by the sum (NaN and 0.2 on two folds of 10 pooled
    to 0.1), sizes that add up to 0 pooled to NaN, a row without a learner was dropped."""
    t = _toy_folds()
    t[column] = value
    with pytest.raises(ValueError, match=match):
        pooled_profiles(t)


@pytest.mark.parametrize(
    "column, value, error",
    [
        ("loss", ["0.1", "0.3"], TypeError),
        ("loss", [0.1 + 1j, 0.3], TypeError),
        ("n_test", [True, True], TypeError),
    ],
)
def test_pooling_refuses_numbers_of_the_wrong_kind(column, value, error):
    t = _toy_folds()
    t[column] = value
    with pytest.raises(error, match=rf"table\['{column}'\]"):
        pooled_profiles(t)


def test_pooling_refuses_missing_columns_and_empty_tables():
    with pytest.raises(ValueError, match=r"lacks the columns \['n_test'\]"):
        pooled_profiles(_toy_folds().drop(columns="n_test"))
    with pytest.raises(ValueError, match="no rows"):
        pooled_profiles(_toy_folds().iloc[:0])
    with pytest.raises(TypeError, match="DataFrame"):
        pooled_profiles(_toy_folds().to_dict())


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_pooled_mean_is_the_brute_force_mean_of_every_instance(seed):
    """Expand each row into its ``n_test`` instances (each with the row's mean as its
    value, which keeps the row's mean) and average every group's instances by hand."""
    rng = np.random.default_rng(seed)
    t = pd.DataFrame({
        "g": rng.choice(["a", "b", "c"], size=30), "h": rng.integers(0, 2, size=30),
        "loss": rng.uniform(0, 1, size=30), "n_test": rng.integers(1, 20, size=30),
    })
    got = pooled_mean(t, ["g", "h"], sort=True)
    for _, row in got.iterrows():
        part = t[(t["g"] == row["g"]) & (t["h"] == row["h"])]
        instances = np.repeat(part["loss"].to_numpy(), part["n_test"].to_numpy())
        # two summation orders of at most 600 numbers in [0, 1]: a few ulps apart
        assert row["loss"] == pytest.approx(instances.mean(), rel=1e-12, abs=1e-15)
        assert row["n_test"] == instances.size
    assert len(got) == len(t.groupby(["g", "h"]))
    assert list(got[["g", "h"]].itertuples(index=False)) == sorted(
        got[["g", "h"]].itertuples(index=False)
    )


def test_pooled_mean_keeps_the_first_appearance_order_and_checks_its_input():
    t = pd.DataFrame({"k": ["z", "a", "z"], "v": [1.0, 2.0, 3.0], "w": [1, 1, 2]})
    got = pooled_mean(t, ["k"], value="v", weight="w")
    assert got["k"].tolist() == ["z", "a"] and got["v"].tolist() == [7 / 3, 2.0]
    with pytest.raises(TypeError, match="by must be a sequence"):
        pooled_mean(t, "k", value="v", weight="w")
    with pytest.raises(ValueError, match=r"lacks the columns \['n_test'\]"):
        pooled_mean(t, ["k"], value="v")
    with pytest.raises(ValueError, match=r"table\['w'\] must be a positive number"):
        pooled_mean(t.assign(w=[1, 0, 2]), ["k"], value="v", weight="w")
    with pytest.raises(ValueError, match=r"table\['k'\] is missing"):
        pooled_mean(t.assign(k=["z", None, "z"]), ["k"], value="v", weight="w")
    with pytest.raises(TypeError, match="sort must be True or False"):
        pooled_mean(t, ["k"], value="v", weight="w", sort="yes")


@pytest.mark.parametrize("seed", [0, 1])
def test_pooled_mean_of_draws_is_pooled_mean_of_the_drawn_rows_to_the_bit(seed):
    """Each draw against its reference: :func:`pooled_mean` (pandas' grouped sum) of the
    drawn units' rows concatenated in draw order, equal to the bit; and against
    ``math.fsum`` of the same products, the correctly rounded sum (a Kahan sum of at most
    eight numbers of size <= 20 is within a few ulps of it: rel 1e-14)."""
    rng = np.random.default_rng(seed)
    units, groups = 8, 40
    value = rng.uniform(0, 1, size=(units, groups)) ** 3  # many magnitudes
    value[rng.uniform(size=value.shape) < 0.2] = np.nan  # units without a group's row
    weight = np.where(np.isnan(value), 0, rng.integers(1, 20, size=value.shape))
    draws = rng.integers(0, units, size=(25, units))
    got = pooled_mean_draws(value, weight, draws)
    for r, drawn in enumerate(draws):
        rows = pd.DataFrame(
            [(g, value[u, g], weight[u, g]) for u in drawn for g in range(groups)
             if not np.isnan(value[u, g])],
            columns=["g", "loss", "n_test"],
        )  # fmt: skip
        ref = pooled_mean(rows, ["g"], sort=True).set_index("g")["loss"]
        mine = pd.Series(got[r]).dropna()
        assert mine.index.tolist() == ref.index.tolist()  # the same groups drawn
        assert (mine.to_numpy() == ref.to_numpy()).all()  # to the bit
        for g in ref.index:
            us = [u for u in drawn if not np.isnan(value[u, g])]
            exact = math.fsum(value[u, g] * weight[u, g] for u in us)
            assert got[r, g] == pytest.approx(exact / sum(weight[u, g] for u in us), rel=1e-14)


def test_pooled_mean_of_draws_checks_its_input():
    value, weight = np.array([[0.5, np.nan]]), np.array([[2, 0]])
    assert np.isnan(pooled_mean_draws(value, weight, np.zeros((3, 0), dtype=int))).all()
    with pytest.raises(ValueError, match="2-D arrays of one shape"):
        pooled_mean_draws(value, weight[:, :1], [[0]])
    with pytest.raises(ValueError, match="weight positive"):
        pooled_mean_draws(value, np.array([[0, 0]]), [[0]])
    with pytest.raises(ValueError, match="finite or NaN"):
        pooled_mean_draws(np.array([[np.inf, 1.0]]), weight, [[0]])
    with pytest.raises(ValueError, match=r"unit indices in \[0, 1\)"):
        pooled_mean_draws(value, weight, [[1]])
    with pytest.raises(ValueError, match="unit indices"):
        pooled_mean_draws(value, weight, [[0.0]])


def test_pooled_profiles_is_pooled_mean_of_each_curve_point():
    t = _toy_folds()
    got = pooled_profiles(t)
    keys = ["dataset", "K", "learner", "family", "param"]
    pd.testing.assert_frame_equal(got[[*keys, "loss"]], pooled_mean(t, keys)[[*keys, "loss"]])
