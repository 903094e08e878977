"""The Fig. 4 heatmaps stay readable at the book's column width and on a phone."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from mlcbook.plots import plot_difference_heatmaps  # noqa: E402

from ..readable_figures import MIN_TEXT_PX, smallest_text_px  # noqa: E402

# the book's text column is about 690 px wide; figures are saved at 100 dpi
COLUMN_INCHES = 6.9


def _matrix(K: int, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame(rng.random((K, K)) * 0.05, index=range(1, K + 1),
                        columns=range(1, K + 1))


def test_two_column_layout_fits_the_column_with_readable_text():
    # the largest panels of the chapter: birds has 19 labels, yeast 14, emotions 6
    mats = {"birds": _matrix(19, 0), "yeast": _matrix(14, 1), "emotions": _matrix(6, 2)}
    fig = plot_difference_heatmaps(mats, clip=0.02, ncols=2)
    try:
        width, _ = fig.get_size_inches()
        assert width <= COLUMN_INCHES
        size, text = smallest_text_px(fig)
        assert size >= MIN_TEXT_PX, f"{text!r} is {size:.1f} px on a phone"
        # the 6-label panel writes the differences in thousandths into the cells that are
        # neither the row's best (circled) nor clipped (white)
        emotions_ax = [ax for ax in fig.axes if ax.get_title() == "emotions"][0]
        D = mats["emotions"].to_numpy()
        D = D - D.min(axis=1, keepdims=True)
        written = (D > 1e-12) & (D < 0.02)
        assert len(emotions_ax.texts) == written.sum()
        assert sorted(t.get_text() for t in emotions_ax.texts) == sorted(
            f"{v * 1000:.0f}" for v in D[written])
    finally:
        plt.close(fig)


def test_wide_panels_label_at_most_seven_surrogates():
    mats = {"birds": _matrix(19, 0), "emotions": _matrix(6, 2)}
    fig = plot_difference_heatmaps(mats, clip=0.02, ncols=2)
    try:
        birds, emotions = fig.axes[0], fig.axes[1]
        labels = [t.get_text() for t in birds.get_xticklabels()]
        assert labels == [str(k) for k in range(1, 20, 3)]  # 19 columns: every third
        assert [t.get_text() for t in emotions.get_xticklabels()] == [
            str(k) for k in range(1, 7)]
        # every tick sits on the column of the k it names (columns are 0-based)
        np.testing.assert_array_equal(birds.get_xticks(), np.arange(0, 19, 3))
    finally:
        plt.close(fig)
