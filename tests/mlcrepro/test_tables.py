import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from mlcbook.profiles import curve_summary
from mlcrepro.tables import (
    best_surrogates,
    bootstrap_draws,
    ranked,
    ranks,
    robustness,
    surrogate_readings,
)


def test_ties_at_the_printed_precision_are_shown_and_ordered_by_name():
    s = pd.Series({"b": 0.2120000000000001, "a": 0.212, "c": 0.1, "d": 0.3})
    assert ranked(s) == "c < a = b < d"
    assert ranked({"x": 1.0}) == "x"
    assert ranked(s, decimals=0) == "a = b = c = d"


@given(
    st.dictionaries(
        st.text(min_size=1, max_size=3),
        st.floats(-1e6, 1e6, allow_nan=False),
        min_size=1,
        max_size=8,
    ),
    st.floats(-1e-9, 1e-9),
)
def test_last_bit_perturbations_do_not_change_the_printed_ranking(values, eps):
    """A perturbation far below the printed precision leaves the text as it was,
    except where it pushes a value across a rounding boundary (excluded here)."""
    shifted = {k: v + eps for k, v in values.items()}
    assume(all(round(v, 3) == round(v + eps, 3) for v in values.values()))
    assert ranked(values) == ranked(shifted)


def test_bad_input():
    with pytest.raises(ValueError, match="decimals"):
        ranked({"a": 1.0}, decimals=-1)
    with pytest.raises(ValueError, match="finite"):
        ranked({"a": float("nan")})
    with pytest.raises(ValueError, match="empty"):
        ranked({})


# ------------------------------------------------------------------------ ranks
def _brute_rank(values, lower):
    """1 + the number of better values + half the number of other equal values."""
    out = []
    for v in values:
        better = sum((w < v) if lower else (w > v) for w in values)
        ties = sum(w == v for w in values) - 1
        out.append(1 + better + ties / 2)
    return out


@given(st.lists(st.integers(0, 5), min_size=1, max_size=7), st.booleans())
def test_ranks_match_the_counting_definition(values, lower):
    t = pd.DataFrame({"m": [v / 4 for v in values]})
    got = ranks(t, ["m"] if lower else []).m.tolist()
    assert got == _brute_rank([v / 4 for v in values], lower)


def test_ranks_tie_at_the_printed_precision():
    t = pd.DataFrame({"auc": [0.8004, 0.7996, 0.7]}, index=["a", "b", "c"])
    assert ranks(t).auc.tolist() == [1.0, 2.0, 3.0]
    assert ranks(t, decimals=3).auc.tolist() == [1.5, 1.5, 3.0]


def test_ranks_bad_input():
    t = pd.DataFrame({"x": [1.0, np.inf]})
    with pytest.raises(ValueError, match="infinite"):
        ranks(t)
    with pytest.raises(ValueError, match="not in table"):
        ranks(t.iloc[:1], ["y"])
    with pytest.raises(TypeError, match="not a str"):
        ranks(t.iloc[:1], "x")
    with pytest.raises(ValueError, match="decimals"):
        ranks(t.iloc[:1], decimals=-2)


# ---------------------------------------------------------------- curve_summary
def _pooled():
    rows = []
    # d1: first 0.2, 0.4, 0.5; second 0.3, 0.4, 0.4 -> ratio 1.5, 1.0, 0.8 (falls)
    # d2: first 0.1, 0.2; second 0.05, 0.2 -> ratio 0.5, 1.0 (rises)
    for d, a, b in [
        ("d1", [0.2, 0.4, 0.5], [0.3, 0.4, 0.4]),
        ("d2", [0.1, 0.2], [0.05, 0.2]),
    ]:
        for k, (x, y) in enumerate(zip(a, b), 1):
            rows += [(d, "A", "binomial", k, x), (d, "B", "binomial", k, y)]
    rows.append(("d1", "A", "polynomial", 1.0, 0.2))
    rows.append(("d1", "B", "polynomial", 1.0, 0.1))
    return pd.DataFrame(rows, columns=["dataset", "learner", "family", "param", "loss"])


def test_curve_summary_by_hand():
    s = curve_summary(_pooled().sample(frac=1, random_state=1), "A", "B")
    assert list(s.index) in (["d1", "d2"], ["d2", "d1"])
    s = s.loc[["d1", "d2"]]
    np.testing.assert_allclose(
        s.start, [1.5, 0.5], rtol=1e-12
    )  # exact ratios, rounding only
    np.testing.assert_allclose(s.end, [0.8, 1.0], rtol=1e-12)
    np.testing.assert_allclose(s["min"], [0.8, 0.5], rtol=1e-12)
    np.testing.assert_allclose(s["max"], [1.5, 1.0], rtol=1e-12)
    assert s.falls.tolist() == [True, False]
    p = curve_summary(_pooled(), "A", "B", "polynomial")
    assert p.loc["d1", "start"] == p.loc["d1", "end"] == 0.5


def test_curve_summary_bad_input():
    with pytest.raises(ValueError, match="no rows for learner"):
        curve_summary(_pooled(), "A", "C")
    with pytest.raises(ValueError, match="family"):
        curve_summary(_pooled(), "A", "B", "owa")
    with pytest.raises(ValueError, match="columns"):
        curve_summary(_pooled().drop(columns="param"), "A", "B")


# ------------------------------------------------------------------- robustness
def _folds():
    # fold f holds values f - 1 and f + 1: mean f; folds 0..4
    return pd.DataFrame(
        {
            "fold": np.repeat(np.arange(5), 2),
            "v": np.ravel([[f - 1, f + 1] for f in range(5)]),
        }
    )


def test_robustness_over_each_fold():
    t = _folds()
    assert robustness(t, lambda s: s.v.mean() >= 2) == (3, 5)
    both = robustness(t, lambda s: {"pos": s.v.mean() > 0, "big": s.v.mean() > 3})
    assert both == {"pos": (4, 5), "big": (1, 5)}


def test_robustness_bootstrap_equals_a_hand_written_resampling():
    t = _folds()
    got = robustness(t, lambda s: s.v.mean() > 2, resamples=50, seed=3)
    rng = np.random.default_rng(3)
    hits = 0
    for _ in range(50):
        drawn = rng.integers(0, 5, 5)  # fold means are 0..4: the resample's mean
        hits += drawn.mean() > 2
    assert got == (hits, 50)
    # each drawn group enters with its own fold label, so duplicates stay apart
    sizes = robustness(t, lambda s: {"n": s.fold.nunique() == 5}, resamples=5)
    assert sizes == {"n": (5, 5)}


def test_bootstrap_draws_are_the_draws_of_robustness():
    t = _folds()
    draws = bootstrap_draws(5, 50, seed=3)
    # the resamples robustness sees: fold means 0..4, so the resample's mean is the draws'
    got = robustness(t, lambda s: s.v.mean() > 2, resamples=50, seed=3)
    assert got == (int((draws.mean(axis=1) > 2).sum()), 50)
    rng = np.random.default_rng(3)
    assert (draws == [rng.integers(0, 5, 5) for _ in range(50)]).all()
    with pytest.raises(ValueError, match="resamples"):
        bootstrap_draws(5, 0)
    with pytest.raises(ValueError, match="n_groups"):
        bootstrap_draws(True, 3)


def test_robustness_bad_input():
    t = _folds()
    with pytest.raises(ValueError, match="column 'split'"):
        robustness(t, lambda s: True, by="split")
    with pytest.raises(ValueError, match="resamples"):
        robustness(t, lambda s: True, resamples=0)
    with pytest.raises(TypeError, match="callable"):
        robustness(t, True)


# ----------------------------------------------------------- surrogate_readings
def test_surrogate_readings_of_a_hand_made_table():
    # K = 4; rows: target k, columns: surrogate k
    L = pd.DataFrame(
        [
            [0.20, 0.10, 0.30, 0.40],  # best 2, above the target 1
            [0.30, 0.20, 0.20, 0.50],  # best 2 (tie 2/3 -> smaller k)
            [0.60, 0.40, 0.50, 0.45],  # best 2
            [0.90, 0.70, 0.65, 0.66],
        ],  # best 3
        index=range(1, 5),
        columns=range(1, 5),
    )
    r = surrogate_readings(L)
    assert r["K"] == 4
    assert r["best k non-decreasing"] is True
    assert r["best k at target K"] == 3
    # k <= 2 at target 4: min(0.90, 0.70) = 0.70, best 0.65
    assert r["excess of best k <= K/2 at target K"] == pytest.approx(0.05, abs=1e-12)
    assert r["targets with best k > target"] == 1  # target 1 only
    # at target 4 the Hamming surrogate (0.90) is worst: rank 1; subset 0/1 (0.66): 3
    assert r["Hamming surrogate rank at target K (1 = worst)"] == 1
    assert r["subset 0/1 surrogate rank at target K (1 = worst)"] == 3
    assert r["rows where subset 0/1 surrogate is worst"] == 2  # targets 1 and 2


def test_surrogate_readings_falling_best_and_bad_input():
    L = pd.DataFrame([[0.3, 0.1], [0.2, 0.4]], index=[1, 2], columns=[1, 2])
    r = surrogate_readings(L)
    assert (
        r["best k non-decreasing"] is False and r["targets with best k > target"] == 1
    )
    with pytest.raises(ValueError, match="k = 1..K"):
        surrogate_readings(L.set_axis([0, 1]))
    with pytest.raises(ValueError, match="finite"):
        surrogate_readings(L.where(L > 0.2))
    with pytest.raises(TypeError, match="DataFrame"):
        surrogate_readings(L.to_numpy())


@given(
    st.lists(st.integers(0, 6), min_size=1, max_size=7).flatmap(
        lambda row: st.tuples(st.just(row), st.lists(st.integers(-2, 2), min_size=len(row),
                                                     max_size=len(row)))
    )
)
def test_best_surrogate_is_the_first_within_rounding_of_the_minimum(row_and_noise):
    """Exact values i/7 perturbed by a few units in their last place: the best surrogate
    is the first of the exact minima, whatever the rounding (brute force on the exact
    integers)."""
    row, noise = row_and_noise
    values = np.array([v / 7 + e * 2.0**-54 for v, e in zip(row, noise)])
    assert best_surrogates(values) == row.index(min(row))
    assert best_surrogates(values[None, None]).shape == (1, 1)


def test_an_exact_tie_that_rounding_splits_goes_to_the_smaller_k():
    # 0.1 + 0.2 and 0.3 are one value computed two ways; plain argmin would pick k = 2
    table = pd.DataFrame([[0.1 + 0.2, 0.3], [0.5, 0.4]], index=[1, 2], columns=[1, 2])
    assert np.argmin(table.loc[1].to_numpy()) == 1
    r = surrogate_readings(table)
    assert r["best k non-decreasing"] and r["best k at target K"] == 2
    assert r["rows where subset 0/1 surrogate is worst"] == 1  # row 1's tie is not "worse"
    with pytest.raises(ValueError, match="finite"):
        best_surrogates(np.array([0.1, np.nan]))
