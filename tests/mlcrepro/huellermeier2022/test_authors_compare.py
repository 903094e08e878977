"""mlcrepro.huellermeier2022.authors_compare: our pooled losses beside the authors' released profiles."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlcrepro.huellermeier2022.authors_compare import (
    MAIN_LEARNERS,
    compare_with_authors,
    cpu_seconds,
    endpoint_summary,
    fold_spread,
    median_gaps,
    printed,
    worst_pairs,
)
from mlcrepro.huellermeier2022.names import paper_names
from mlcrepro.huellermeier2022.plots import plot_authors_profiles
from mlcrepro.huellermeier2022.reference import load_reference_results


def _instances(rng, n_folds, K, sizes):
    """Per-instance wrong-label counts per fold: the ground truth to pool by hand."""
    return [rng.integers(0, K + 1, size=n) for n in sizes[:n_folds]]


def _table(errors, K, dataset="d", learner="BR-J48"):
    """A study table (binomial family, k = 1..K) from per-instance error counts."""
    from math import comb

    rows = []
    for f, m in enumerate(errors):
        for k in range(1, K + 1):
            loss = np.mean([1 - comb(K - int(x), k) / comb(K, k) for x in m])
            rows.append(
                {
                    "dataset": dataset,
                    "folds": "authors",
                    "K": K,
                    "learner": learner,
                    "fold": f,
                    "n_test": len(m),
                    "cpu_seconds": 0.5 + f,
                    "family": "binomial",
                    "param": float(k),
                    "loss": loss,
                }
            )
    return pd.DataFrame(rows)


def test_fold_spread_pools_instances_and_gives_two_standard_errors():
    rng = np.random.default_rng(0)
    K, sizes = 4, [7, 9, 8, 12, 5]
    errors = _instances(rng, 5, K, sizes)
    got = fold_spread(_table(errors, K)).set_index("param")
    from math import comb

    every = np.concatenate(errors)
    for k in range(1, K + 1):
        per = [1 - comb(K - int(x), k) / comb(K, k) for x in every]
        # pooled = mean over the concatenated instances (the authors' pooling);
        # 1e-12: sums of a few dozen doubles in another order
        assert got.loc[k, "ours"] == pytest.approx(np.mean(per), rel=1e-12, abs=1e-15)
        fold = [np.mean([1 - comb(K - int(x), k) / comb(K, k) for x in m]) for m in errors]
        w = np.array(sizes) / sum(sizes)
        L = np.dot(w, fold)
        var = 5 / 4 * np.sum(w**2 * (np.array(fold) - L) ** 2)
        assert got.loc[k, "se"] == pytest.approx(np.sqrt(var), rel=1e-12, abs=1e-15)
        assert got.loc[k, "tolerance"] == pytest.approx(2 * np.sqrt(var), rel=1e-12, abs=1e-15)
    assert (got["folds"] == 5).all() and (got["n"] == sum(sizes)).all()


def test_fold_spread_equal_folds_is_the_standard_error_of_the_fold_means():
    rng = np.random.default_rng(1)
    errors = _instances(rng, 10, 6, [20] * 10)
    t = _table(errors, 6)
    got = fold_spread(t).set_index("param")
    for k, g in t.groupby("param"):
        se = np.std(g["loss"], ddof=1) / np.sqrt(10)  # closed form for equal sizes
        assert got.loc[k, "se"] == pytest.approx(se, rel=1e-12)  # rounding only


def test_fold_spread_one_fold_has_no_spread_and_bad_input_is_refused():
    t = _table([np.array([0, 1, 2])], 3)
    assert fold_spread(t)["se"].isna().all()
    with pytest.raises(TypeError, match="table must be a pandas DataFrame"):
        fold_spread([1, 2])
    with pytest.raises(ValueError, match="lacks the columns"):
        fold_spread(t.drop(columns="n_test"))
    with pytest.raises(ValueError, match="n_test must be positive"):
        fold_spread(t.assign(n_test=0))
    with pytest.raises(ValueError, match="repeats a fold"):
        fold_spread(pd.concat([t, t]))


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.floats(0, 1), min_size=2, max_size=10),
    st.lists(st.integers(1, 50), min_size=10, max_size=10),
)
def test_fold_spread_pooled_loss_lies_between_the_folds(losses, sizes):
    F = len(losses)
    t = pd.DataFrame(
        {
            "dataset": "d",
            "K": 3,
            "learner": "BR",
            "fold": range(F),
            "n_test": sizes[:F],
            "family": "binomial",
            "param": 1.0,
            "loss": losses,
        }
    )
    got = fold_spread(t).iloc[0]
    # 1e-12: a weighted mean of values in [min, max] may overshoot by rounding only
    assert min(losses) - 1e-12 <= got["ours"] <= max(losses) + 1e-12
    assert got["tolerance"] >= 0


def test_paper_names():
    t = pd.DataFrame(
        {
            "learner": [
                "BR-J48",
                "RAkEL-J48-k2-m11",
                "PCT-CLUS",
                "EPCT-CLUS",
                "BOOMER-K-2021",
                "LP",
            ],
            "K": 7,
        }
    )
    assert paper_names(t)["learner"].tolist() == [
        "BR",
        "RAkEL-k2",
        "PCT",
        "EPCT",
        "BOOMER-K",
        "LP",
    ]
    assert paper_names(t, rakel_short=False)["learner"][1] == "RAkEL-k2-m11"
    assert t["learner"][0] == "BR-J48"  # a copy, the input is left alone
    with pytest.raises(TypeError, match="rakel_short must be True or False"):
        paper_names(t, rakel_short=1)


def _reference(t, shift):
    """The authors' table for the same pairs, every loss moved by ``shift``."""
    p = fold_spread(paper_names(t, rakel_short=False))
    return pd.DataFrame(
        {
            "dataset": p["dataset"],
            "learner": p["learner"],
            "family": p["family"],
            "param": p["param"],
            "loss": p["ours"] - shift,
            "folds": 8,
            "K": p["K"],
        }
    )


def test_compare_and_endpoints():
    rng = np.random.default_rng(2)
    t = pd.concat(
        [
            _table(_instances(rng, 10, 5, [9] * 10), 5, "a", "BR-J48"),
            _table(_instances(rng, 10, 3, [6] * 10), 3, "b", "PCT-CLUS"),
        ]
    )
    ref = _reference(t, 0.01)
    c = compare_with_authors(t, ref)
    assert len(c) == 5 + 3
    # ours - (ours - 0.01): 0.01 up to one rounding of numbers below 1
    np.testing.assert_allclose(c["diff"], 0.01, rtol=0, atol=1e-15)
    assert (c["our_folds"] == 10).all() and (c["their_folds"] == 8).all()
    s = endpoint_summary(c).set_index("learner")
    pooled = fold_spread(t).set_index(["learner", "param"])["ours"]
    assert s.loc["BR", "hamming_ours"] == pooled["BR-J48", 1.0]
    assert s.loc["BR", "subset01_ours"] == pooled["BR-J48", 5.0]
    assert s.loc["PCT", "subset01_ours"] == pooled["PCT-CLUS", 3.0]
    tol = fold_spread(t).set_index(["learner", "param"])["tolerance"]
    assert s.loc["PCT", "within"] == bool(0.01 <= min(tol["PCT-CLUS", 1.0], tol["PCT-CLUS", 3.0]))
    with pytest.raises(ValueError, match="K differs"):
        compare_with_authors(t, ref.assign(K=ref["K"] + 1))
    with pytest.raises(ValueError, match="no \\(dataset, learner\\) in common"):
        compare_with_authors(t, ref.assign(dataset="z"))


def test_compare_with_the_released_profiles_is_zero_on_themselves():
    """A table made of the authors' own pooled losses (one fold) compares to 0."""

    ref = load_reference_results()
    t = ref.assign(fold=0, n_test=1)[
        ["dataset", "K", "learner", "fold", "n_test", "family", "param", "loss"]
    ]
    c = compare_with_authors(t, ref)
    assert len(c) == len(ref)
    assert (c["diff"] == 0).all()  # the same numbers, pooled over one fold


def test_median_gaps_and_worst_pairs():
    s = pd.DataFrame(
        {
            "dataset": ["a", "b", "c", "a", "b"],
            "learner": ["BR", "BR", "BR", "PCT", "PCT"],
            "hamming_diff": [0.001, -0.003, 0.002, 0.0, 0.02],
            "hamming_tol": [0.01, 0.01, 0.01, np.nan, 0.01],
            "subset01_diff": [0.01, 0.0, -0.05, 0.2, 0.01],
            "subset01_tol": [0.02, 0.02, 0.02, np.nan, 0.1],
        }
    )
    m = median_gaps(s)
    assert m.loc["BR", "hamming"] == 0.002 and m.loc["BR", "subset01"] == 0.01
    assert m.loc["all", "pairs"] == 5
    assert m.loc["all", "hamming"] == np.median([0.001, 0.003, 0.002, 0.0, 0.02])
    assert m.loc["all", "subset01"] == np.median([0.01, 0.0, 0.05, 0.2, 0.01])
    assert list(m.index) == ["BR", "PCT", "all"]
    w = worst_pairs(s, 3)
    # |diff|/tol maxima: BR-a 0.5, BR-b 0.3, BR-c 2.5, PCT-b 2.0; PCT-a has none
    assert list(zip(w.dataset, w.learner)) == [("c", "BR"), ("b", "PCT"), ("a", "BR")]
    assert worst_pairs(s, 5).iloc[-1]["dataset"] == "a"  # no tolerance: last
    with pytest.raises(ValueError, match="n must be an int >= 1"):
        worst_pairs(s, 0)
    with pytest.raises(ValueError, match="no rows for the learners"):
        median_gaps(s, ["LP"])
    with pytest.raises(TypeError, match="learners must be a sequence"):
        median_gaps(s, "BR")
    assert set(MAIN_LEARNERS) >= {"BR", "PCT"}


def test_cpu_seconds_counts_each_cell_once():
    rng = np.random.default_rng(3)
    t = pd.concat(
        [
            _table(_instances(rng, 3, 4, [5] * 3), 4, "a", "BR-J48"),
            _table(_instances(rng, 2, 4, [5] * 2), 4, "a", "RAkEL-J48-k2-m3"),
            _table(_instances(rng, 2, 4, [5] * 2), 4, "a", "RAkEL-J48-k3-m2"),
            _table(_instances(rng, 2, 3, [5] * 2), 3, "b", "BR-J48"),
        ]
    )
    c = cpu_seconds(t)
    # folds f cost 0.5 + f: three folds 0.5 + 1.5 + 2.5, two folds 0.5 + 1.5
    assert c.loc["BR-J48", "a"] == 4.5 and c.loc["BR-J48", "b"] == 2.0
    assert c.loc["RAkEL", "a"] == 4.0 and np.isnan(c.loc["RAkEL", "b"])
    assert c.loc["total", "total"] == 10.5
    assert "RAkEL-J48-k2-m3" in cpu_seconds(t, rakel_together=False).index
    with pytest.raises(ValueError, match="several cpu_seconds"):
        cpu_seconds(t.assign(cpu_seconds=range(len(t))))


def test_plot_authors_profiles_draws_ours_and_theirs():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rng = np.random.default_rng(4)
    t = pd.concat(
        [
            _table(_instances(rng, 10, 5, [9] * 10), 5, "a", "BR-J48"),
            _table(_instances(rng, 10, 3, [6] * 10), 3, "b", "BR-J48"),
        ]
    )
    c = compare_with_authors(t, _reference(t, 0.01))
    fig = plot_authors_profiles(c, ["BR"], ncols=2)
    ax = fig.axes[0]
    line, marks = ax.lines[0], ax.lines[1]
    # the line is ours, the markers the authors' (here ours - 0.01) at both ends
    ours = c[c.dataset == "a"].sort_values("param")
    np.testing.assert_array_equal(line.get_ydata(), ours["ours"])
    np.testing.assert_array_equal(marks.get_ydata(), ours["theirs"])
    np.testing.assert_array_equal(line.get_xdata(), (ours["param"] - 1) / 4)
    plt.close(fig)
    with pytest.raises(ValueError, match="learners must be a sequence"):
        plot_authors_profiles(c, "BR")
    with pytest.raises(ValueError, match="no binomial rows"):
        plot_authors_profiles(c, ["LP"])


@pytest.mark.parametrize(
    ("x", "text"),
    [
        (0.2401, "0.2401"),
        (0.001119, "0.001119"),
        (0.0, "0.0000"),
        (1.0, "1.0000"),
        (0.0465, "0.04650"),
        (8.39e-05, "0.00008390"),
    ],
)
def test_printed_keeps_four_significant_digits(x, text):
    assert printed(x) == text


def test_printed_refuses_bad_input():
    with pytest.raises(ValueError, match="x must be a finite number >= 0"):
        printed(-0.1)
    with pytest.raises(ValueError, match="significant must be an int >= 1"):
        printed(0.5, 0)


def test_plot_authors_profiles_text_is_readable_on_a_phone():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ...readable_figures import MIN_TEXT_PX, smallest_text_px

    # nine datasets and four learners, as in the dependence chapter's comparison figures
    rows = []
    for i, K in enumerate((7, 6, 19, 27, 45, 53, 75, 6, 14)):
        for j, learner in enumerate(("PCT", "EPCT", "BOOMER-1", "BOOMER-K")):
            for k in range(1, K + 1):
                ours = (0.1 + 0.02 * j) + 0.6 * (k - 1) / (K - 1)
                rows.append(
                    {
                        "dataset": f"data{i}",
                        "learner": learner,
                        "family": "binomial",
                        "param": k,
                        "K": K,
                        "ours": ours,
                        "theirs": ours - 0.01,
                    }
                )
    fig = plot_authors_profiles(pd.DataFrame(rows), ["PCT", "EPCT", "BOOMER-1", "BOOMER-K"])
    size, text = smallest_text_px(fig)
    assert size >= MIN_TEXT_PX, f"{text!r} is {size:.1f} px on a phone"
    plt.close(fig)
