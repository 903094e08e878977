"""Figures of the dependence, blended and margins chapters: what they must show.

The checks read back the drawn artists (line data, image arrays, colour limits,
legend texts) and compare them with values computed here from the inputs.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from mlcbook.datasets import make_limo_synthetic
from mlcbook.losses import subset_capacity
from mlcbook.plots import (  # noqa: E402
    plot_average_ranks,
    plot_blended_heatmaps,
    plot_choquet_staircase,
    plot_difference_heatmaps,
    plot_error_count_losses,
    plot_limo_synthetic,
    plot_loss_curves,
    plot_margins,
    plot_ours_vs_paper,
    plot_ratio_grid,
    plot_relative_performance,
    ratio_ticks,
)
from mlcbook.plots.blended import plot_blended_limits

from ..readable_figures import MIN_TEXT_PX, smallest_text_px  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _pooled(K: int = 4) -> pd.DataFrame:
    """A pooled-profile frame: three learners on two datasets, binomial k = 1..K."""
    rows = []
    losses = {"a": (0.1, 0.5), "b": (0.12, 0.4), "c": (0.2, 0.9)}
    for d, scale in (("d1", 1.0), ("d2", 0.01)):
        for name, (lo, hi) in losses.items():
            # d2: learner c is 40 times worse than a -> far off a (0.5, 2) ratio axis
            f = 40.0 if (d == "d2" and name == "c") else 1.0
            for k in range(1, K + 1):
                loss = scale * f * (lo + (hi - lo) * (k - 1) / (K - 1))
                rows.append({
                    "dataset": d,
                    "learner": name,
                    "family": "binomial",
                    "param": k,
                    "K": K,
                    "x": (k - 1) / (K - 1),
                    "loss": loss,
                })
    return pd.DataFrame(rows)


# --- ratio axis ticks --------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.floats(1e-3, 0.99), st.floats(1.01, 1e3))
def test_ratio_ticks_lie_in_range_include_one_and_are_few(lo, hi):
    t = ratio_ticks(lo, hi)
    assert np.all(t >= lo * (1 - 1e-9)) and np.all(t <= hi * (1 + 1e-9))
    assert np.any(np.isclose(t, 1.0))  # 1 lies in every range drawn here
    assert 1 <= len(t) <= 7 and np.all(np.diff(t) > 0)


def test_ratio_ticks_known_ranges():
    # powers of two when four or more fit; nice numbers otherwise
    np.testing.assert_allclose(ratio_ticks(0.25, 4), [0.25, 0.5, 1, 2, 4])
    np.testing.assert_allclose(ratio_ticks(0.01, 100), [0.01, 0.1, 1, 10, 100])
    np.testing.assert_allclose(ratio_ticks(0.9, 1.1), [0.9, 1, 1.1])
    assert np.any(ratio_ticks(0.5, 2) > 1)  # the issue: no labelled tick above 1


@pytest.mark.parametrize("lo, hi", [(0, 2), (2, 1), (np.nan, 2), (0.5, np.inf)])
def test_ratio_ticks_rejects_bad_range(lo, hi):
    with pytest.raises(ValueError, match="lo"):
        ratio_ticks(lo, hi)


# --- Figs 2-3: shared limits, labelled ticks, off-scale note ------------------------


def test_ratio_grid_shares_limits_and_names_off_scale_lines():
    pooled = _pooled()
    fig = plot_ratio_grid(
        pooled, [("a", "b"), ("a", "c")], "binomial", ncols=2, ylim=(0.5, 2.0)
    )
    axes = [ax for ax in fig.axes if ax.get_visible()]
    assert len(axes) == 2
    for ax in axes:
        np.testing.assert_allclose(ax.get_ylim(), (0.5, 2.0))
        ticks = ax.get_yticks()
        labels = [t.get_text() for t in ax.get_yticklabels()]
        assert any(v > 1 for v in ticks) and all(labels)
    texts = [t.get_text() for t in axes[1].texts]
    # c/a on d2 is 40 * (0.2 + ...)/(0.1 + ...): 80 at k=1, 72 at k=K
    assert texts == ["off scale:\nd2 72–80"]  # one line per dataset: narrow panels
    assert len(axes[0].texts) == 0
    # the drawn ratio of the first line equals b/a on d1, point by point
    line = axes[0].get_lines()[0]
    K = 4
    a = np.array([0.1 + 0.4 * (k - 1) / (K - 1) for k in range(1, K + 1)])
    b = np.array([0.12 + 0.28 * (k - 1) / (K - 1) for k in range(1, K + 1)])
    np.testing.assert_allclose(line.get_ydata(), b / a, rtol=1e-12)  # same floats


def test_ratio_grid_default_limits_cover_every_panel():
    pooled = _pooled()
    fig = plot_ratio_grid(pooled, [("a", "b"), ("a", "c")], "binomial", ncols=2)
    lims = {tuple(np.round(ax.get_ylim(), 12)) for ax in fig.axes if ax.get_visible()}
    assert len(lims) == 1
    lo, hi = lims.pop()
    assert lo < 1.0 and hi > 80  # largest ratio c/a on d2 is 80


# --- Fig. 1: highlighted learners ---------------------------------------------------


def test_loss_curves_highlight_black_others_one_grey_entry():
    pooled = _pooled()
    _, ax = plt.subplots()
    plot_loss_curves(pooled, "d1", "binomial", highlight=["c", "a"], ax=ax)
    labels = ax.get_legend_handles_labels()[1]
    assert labels == ["other learners", "c", "a"]
    lines = {ln.get_label(): ln for ln in ax.get_lines()}
    assert matplotlib.colors.to_hex(lines["c"].get_color()) == "#000000"
    assert lines["c"].get_linestyle() != lines["a"].get_linestyle()
    assert lines["c"].get_marker() != lines["a"].get_marker()
    assert lines["other learners"].get_linewidth() < lines["a"].get_linewidth()


def test_loss_curves_rejects_unknown_highlight():
    with pytest.raises(ValueError, match="highlight"):
        plot_loss_curves(_pooled(), "d1", "binomial", highlight=["zz"])


# --- blended heatmaps: one shared grey scale ----------------------------------------


def _grid() -> pd.DataFrame:
    rng = np.random.default_rng(0)
    rows = []
    for d, level, spread in (("x", 0.5, 0.2), ("y", 0.9997, 0.0003)):
        for a in (1e-5, 0.5, 1.0):
            for b in (1.0, 2.0, 4.0):
                v = level - spread * rng.random(6)
                rows.append({
                    "dataset": d,
                    "alpha": a,
                    "beta": b,
                    **{
                        f"{p}_{m}": v[i]
                        for i, (p, m) in enumerate(
                            (p, m)
                            for p in ("train", "test")
                            for m in ("hamming", "jaccard", "exact")
                        )
                    },
                })
    return pd.DataFrame(rows)


def test_blended_heatmaps_share_one_scale_of_distance_to_best():
    df = _grid()
    fig = plot_blended_heatmaps(df, "test", vmin=-0.1)
    images = [im for ax in fig.axes for im in ax.get_images()]
    assert len(images) == 6
    assert {im.get_clim() for im in images} == {(-0.1, 0.0)}
    # the first panel (hamming, dataset x) shows score - best, beta rows x alpha columns
    sub = df[df.dataset == "x"].pivot(
        index="beta", columns="alpha", values="test_hamming"
    )
    V = sub.to_numpy()
    np.testing.assert_allclose(images[0].get_array(), V - V.max())
    titles = [ax.get_title() for ax in fig.axes if ax.get_images()]
    assert titles[0] == f"Hamming\nbest {sub.to_numpy().max():.3f}"
    assert panels_of(fig)[0].get_ylabel().startswith("X\n")
    assert len(fig.axes) == 7  # six panels and one shared colour bar


def panels_of(fig):
    return [ax for ax in fig.axes if ax.get_images()]


def test_blended_heatmaps_reject_non_negative_vmin():
    with pytest.raises(ValueError, match="vmin"):
        plot_blended_heatmaps(_grid(), "test", vmin=0.0)


# --- margins: legend clear of the points --------------------------------------------


def test_margins_legend_does_not_cover_the_panels():
    Y = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0], [0, 0, 1]])
    F = np.array([[0.9, 0.2, 0.6], [0.1, 0.5, 0.3], [0.8, 0.7, 0.65], [0.2, 0.3, 0.95]])
    fig = plot_margins(Y, F)
    fig.canvas.draw()
    assert all(ax.get_legend() is None for ax in fig.axes)
    (legend,) = fig.legends
    box = legend.get_window_extent()
    for ax in fig.axes:
        assert not box.overlaps(ax.get_window_extent())


# --- Table B.3: ours against the paper ----------------------------------------------


def test_ours_vs_paper_draws_means_and_std_bars():
    idx, cols = ["m1", "m2"], ["k1", "k2", "k3"]
    om = pd.DataFrame([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]], index=idx, columns=cols)
    os_ = om * 0.1
    pm, ps = om + 0.05, om * 0.2
    fig = plot_ours_vs_paper(om, os_, pm, ps, ncols=2)
    ax = fig.axes[1]  # measure k2
    assert ax.get_title() == "k2"
    ours, paper = ax.containers
    np.testing.assert_allclose(np.asarray(ours.lines[0].get_xdata(), float), om["k2"])
    np.testing.assert_allclose(np.asarray(paper.lines[0].get_xdata(), float), pm["k2"])
    # error bar of the paper's first method spans mean +- std
    seg = paper.lines[2][0].get_segments()[0]
    m, s = pm.loc["m1", "k2"], ps.loc["m1", "k2"]
    np.testing.assert_allclose(sorted(seg[:, 0]), [m - s, m + s])
    assert sum(ax.get_visible() for ax in fig.axes) == 3


def test_ours_vs_paper_rejects_misaligned_frames():
    om = pd.DataFrame([[0.1]], index=["m"], columns=["k"])
    with pytest.raises(ValueError, match="paper_std"):
        plot_ours_vs_paper(om, om, om, om.rename(index={"m": "z"}))


# --- type a reader can read on a phone ----------------------------------------------


def _study_pooled(n_datasets: int = 9) -> pd.DataFrame:
    """Pooled profiles the size of the dependence chapter's: nine datasets, K from 6 to 53,
    three learners, binomial k = 1..K and the polynomial alpha of the study."""
    rows = []
    alphas = np.geomspace(1, 1000, 12)
    for i in range(n_datasets):
        K = (6, 7, 14, 19, 27, 45, 53, 75, 6)[i % 9]
        for name, f in (("a", 1.0), ("b", 0.8 + 0.05 * i), ("c", 40.0 if i == 4 else 1.3)):
            for fam, params in (("binomial", range(1, K + 1)), ("polynomial", alphas)):
                for p in params:
                    x = (p - 1) / (K - 1) if fam == "binomial" else p
                    t = (p - 1) / (K - 1) if fam == "binomial" else np.log(p) / np.log(1000)
                    rows.append({"dataset": f"dataset{i}", "learner": name, "family": fam,
                                 "param": p, "K": K, "x": x, "loss": f * (0.1 + 0.5 * t)})
    return pd.DataFrame(rows)


_ELEVEN = [("a", "b"), ("a", "c"), ("b", "c"), ("b", "a"), ("c", "a"), ("c", "b")] * 2


@pytest.mark.parametrize("family", ["binomial", "polynomial"])
def test_ratio_grid_text_is_readable_on_a_phone(family):
    # eleven panels of nine datasets, as in the dependence chapter (Figs 2-3), with an
    # off-scale note; every text must be >= 9 px when the figure is shrunk to a phone
    fig = plot_ratio_grid(_study_pooled(), _ELEVEN[:11], family, ylim=(0.5, 2.0))
    size, text = smallest_text_px(fig)
    assert size >= MIN_TEXT_PX, f"{text!r} is {size:.1f} px on a phone"
    assert any("off scale" in t.get_text() for ax in fig.axes for t in ax.texts)


def test_the_phone_measure_sees_small_type():
    # the former layout, three panels of 3.3 x 2.8 inches per row: about 5 px on a phone
    fig = plot_ratio_grid(_study_pooled(), _ELEVEN[:11], "binomial", ncols=3,
                          panel_size=(3.3, 2.8), ylim=(0.5, 2.0))
    size, _ = smallest_text_px(fig)
    assert size < 6.0
    # a figure no wider than the column is not shrunk: 10 pt at 100 dpi is 13.9 px
    small = plt.figure(figsize=(3, 2), dpi=100)
    small.text(0.5, 0.5, "x", fontsize=10)
    assert smallest_text_px(small)[0] == pytest.approx(10 * 100 / 72)


def _study_grid() -> pd.DataFrame:
    """A blended grid of the chapter's size: five datasets, 11 alphas, 8 betas."""
    rng = np.random.default_rng(1)
    rows = []
    for d in ("emotions", "scene", "yeast", "slashdot", "enron"):
        for a in [1e-5, *np.round(np.arange(0.1, 1.01, 0.1), 1)]:
            for b in 2.0 ** np.arange(8):
                v = 0.9 - 0.2 * rng.random(6)
                rows.append({"dataset": d, "alpha": a, "beta": b, **{
                    f"{p}_{m}": v[i] for i, (p, m) in enumerate(
                        (p, m) for p in ("train", "test") for m in ("hamming", "jaccard", "exact"))
                }})
    return pd.DataFrame(rows)


def test_blended_heatmaps_text_is_readable_on_a_phone():
    fig = plot_blended_heatmaps(_study_grid(), "train")
    size, text = smallest_text_px(fig)
    assert size >= MIN_TEXT_PX, f"{text!r} is {size:.1f} px on a phone"
    # one column per measure, one row per dataset
    panels = [ax for ax in fig.axes if ax.get_images()]
    assert len(panels) == 15
    assert [ax.get_title().split("\n")[0] for ax in panels[:3]] == ["Hamming", "Jaccard", "Exact"]


def test_difference_heatmaps_text_is_readable_on_a_phone():
    # the kNN chapter's Fig. 4: six datasets, K from 6 to 19, two panels per row
    rng = np.random.default_rng(2)
    mats = {}
    for name, K in (("birds", 19), ("emotions", 6), ("flags", 7), ("flags-12", 12),
                    ("scene", 6), ("yeast", 14)):
        ks = list(range(1, K + 1))
        mats[name] = pd.DataFrame(rng.random((K, K)) * 0.03, index=ks, columns=ks)
    fig = plot_difference_heatmaps(mats, clip=0.02, ncols=2)
    size, text = smallest_text_px(fig)
    assert size >= MIN_TEXT_PX, f"{text!r} is {size:.1f} px on a phone"
    # small heatmaps still carry their numbers
    assert fig.axes[1].texts and not any("≥" in t.get_text() for t in fig.axes[1].texts)


def test_losses_chapter_figures_are_readable_on_a_phone():
    # the losses chapter's figures, at its sizes
    fig, ax = plt.subplots(figsize=(4.8, 4.6))
    plot_error_count_losses(10, {"binomial": [2, 3, 5], "polynomial": [2, 4, 8]}, ax=ax)
    fig.tight_layout()
    size, text = smallest_text_px(fig)
    assert size >= MIN_TEXT_PX, f"{text!r} is {size:.1f} px on a phone"
    fig.canvas.draw()  # the legend sits below the curves, not on them
    legend = ax.get_legend().get_window_extent()
    assert legend.y1 <= ax.get_window_extent().y0
    fig, ax = plt.subplots(figsize=(4.8, 3.2))
    plot_choquet_staircase([0.2, 0.9, 0.5], subset_capacity(3), ax=ax)
    fig.tight_layout()
    size, text = smallest_text_px(fig)
    assert size >= MIN_TEXT_PX, f"{text!r} is {size:.1f} px on a phone"


def test_blended_limits_are_readable_on_a_phone_at_five_inches():
    # the blended chapter's limits figure, two predictions, in a 5-inch-wide 2 x 2 grid
    fig, axes = plt.subplots(2, 2, figsize=(5.0, 5.6), layout="constrained")
    plot_blended_limits(axes[0, 0], axes[0, 1], [1, 0, 0, 1], [1, 0, 1, 0])
    plot_blended_limits(axes[1, 0], axes[1, 1], [1, 0, 1], [0.6, 0.4, 0.2])
    size, text = smallest_text_px(fig)
    assert size >= MIN_TEXT_PX, f"{text!r} is {size:.1f} px on a phone"


def test_limo_chapter_figures_are_readable_on_a_phone():
    # the LIMO chapter's figures, at its sizes: the toy margins, the synthetic data, the
    # relative values of Tables B.1-B.2 (11 measures x 3 variants), the average ranks
    # (11 x 6 methods) and Table B.3 against ours (7 methods x 11 measures)
    rng = np.random.default_rng(0)
    measures = [f"measure {i}" for i in range(11)]
    methods = ["BR", "ML-kNN", "GFM", "LIMO-inst", "LIMO-label", "LIMO", "GFM-marg"]
    Y = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0], [0, 0, 1]])
    X, Ys = make_limo_synthetic(300, seed=0)
    rel = pd.DataFrame(rng.random((11, 3)), index=measures, columns=["a", "b", "c"])
    ranks = pd.DataFrame(1 + 5 * rng.random((11, 6)), index=measures, columns=methods[:6])
    om = pd.DataFrame(rng.random((7, 11)), index=methods, columns=measures)
    figures = {
        "margins": plot_margins(Y, rng.random((4, 3))),
        "synthetic": plot_limo_synthetic(X, Ys),
        "relative": plot_relative_performance(rel, title="Table B.1"),
        "ranks": plot_average_ranks(ranks),
        "B.3": plot_ours_vs_paper(om, om * 0.1, om + 0.05, om * 0.1, title="CAL500"),
    }
    for name, fig in figures.items():
        size, text = smallest_text_px(fig)
        assert size >= MIN_TEXT_PX, f"{name}: {text!r} is {size:.1f} px on a phone"
        plt.close(fig)
