"""Heatmaps of loss differences (Hüllermeier et al. 2022, Fig. 4).

Each heatmap has one row per target loss and one column per configuration
(surrogate loss) of a learner; a cell shows how much worse the configuration
is than the best one of its row, clipped at ``clip``.  Grey scale, darker is
closer to the best (as in the paper, where darker red is better), so the
figure survives black-and-white printing; the best cell of each row is
marked, and small heatmaps carry their values.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["row_differences", "plot_difference_heatmap", "plot_difference_heatmaps"]


# font sizes in points: 10 pt at 100 dpi is 13.9 px; a two-panel row of the default size
# (about 5 in) shrunk to a phone's 340 px column still shows it at about 9.5 px
FONT = {"annotation": 10, "tick": 10, "label": 10, "title": 10}


def row_differences(M: pd.DataFrame, clip: float | None = None) -> pd.DataFrame:
    """Difference of every cell to the minimum of its row, optionally clipped.

    Parameters
    ----------
    M : DataFrame
        Losses: rows are targets, columns configurations.
    clip : float, optional
        Upper bound applied to the differences (0.02 in Fig. 4).
    """
    if not isinstance(M, pd.DataFrame):
        raise TypeError(f"M must be a pandas DataFrame, got {type(M).__name__}")
    if M.isna().any().any():
        raise ValueError("M must not contain missing values")
    D = M.sub(M.min(axis=1), axis=0)
    if clip is not None:
        if not clip > 0:
            raise ValueError(f"clip must be positive, got {clip!r}")
        D = D.clip(upper=clip)
    return D


def plot_difference_heatmap(
    ax: Any,
    M: pd.DataFrame,
    *,
    clip: float = 0.02,
    annotate: bool | None = None,
    title: str | None = None,
    xlabel: str = "surrogate $k$",
    ylabel: str = "target $k$",
    cmap: str = "Greys_r",
) -> Any:
    """Draw one difference heatmap on ``ax``; returns the image (for a colour bar).

    Cells show ``M - rowmin(M)`` clipped at ``clip`` (black = best, white =
    ``clip`` or worse).  The best cell(s) of each row get a small white
    circle.  With ``annotate`` (default: when there are at most 8 columns)
    the other cells below ``clip`` carry the difference in thousandths (a
    circled cell is 0, a white one ``clip`` or more: the colour bar says so).
    """
    D = row_differences(M, clip=None)
    C = D.clip(upper=clip).to_numpy(float)
    n_r, n_c = C.shape
    im = ax.imshow(C, cmap=cmap, vmin=0.0, vmax=clip, aspect="auto", interpolation="nearest")
    best = np.isclose(D.to_numpy(float), 0.0, atol=1e-12)
    r, c = np.nonzero(best)
    ax.scatter(
        c,
        r,
        s=14 if n_c <= 8 else 6,
        facecolors="none",
        edgecolors="white",
        linewidths=0.8,
        zorder=3,
    )
    if annotate is None:
        annotate = n_c <= 8
    if annotate:
        for i in range(n_r):
            for j in range(n_c):
                v = D.iat[i, j]
                if best[i, j] or v >= clip:
                    continue  # circled (0) or white (clip or more): no number needed
                color = "white" if C[i, j] < 0.5 * clip else "black"
                ax.text(
                    j,
                    i,
                    f"{v * 1000:.0f}",
                    ha="center",
                    va="center",
                    fontsize=FONT["annotation"],
                    color=color,
                )
    # at most 7 column and 9 row labels, so that 10-point labels do not touch
    step = -(-n_c // 7)
    ax.set_xticks(range(0, n_c, step), [str(x) for x in M.columns[::step]], fontsize=FONT["tick"])
    rstep = -(-n_r // 9)
    ax.set_yticks(range(0, n_r, rstep), [str(x) for x in M.index[::rstep]], fontsize=FONT["tick"])
    ax.set_xlabel(xlabel, fontsize=FONT["label"])
    ax.set_ylabel(ylabel, fontsize=FONT["label"])
    if title:
        ax.set_title(title, fontsize=FONT["title"])
    return im


def plot_difference_heatmaps(
    matrices: Mapping[str, pd.DataFrame],
    *,
    clip: float = 0.02,
    ncols: int = 3,
    panel_size: float = 2.05,
    annotate: bool | None = None,
):
    """One difference heatmap per entry of ``matrices`` (Fig. 4), with a shared colour bar.

    Parameters
    ----------
    matrices : mapping
        Title -> loss matrix (rows target ``k``, columns surrogate ``k``).
    clip : float
        Differences are clipped at this value (0.02 in the paper).
    ncols : int
        Panels per row (two keep the figure narrow enough for a phone).
    panel_size : float
        Width and height of one panel in inches.
    annotate : bool, optional
        Write the differences into the cells (default: heatmaps of at most 8 columns).

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    if not matrices:
        raise ValueError("matrices must not be empty")
    n = len(matrices)
    ncols = min(ncols, n)
    nrows = -(-n // ncols)
    fig, axes = plt.subplots(
        nrows,
        ncols,
        figsize=(panel_size * ncols + 0.8, panel_size * nrows),
        squeeze=False,
        layout="constrained",
    )
    im = None
    for ax, (name, M) in zip(axes.flat, matrices.items()):
        im = plot_difference_heatmap(ax, M, clip=clip, annotate=annotate, title=name)
    for ax in list(axes.flat)[n:]:
        ax.set_visible(False)
    assert im is not None  # matrices is not empty (checked above)
    cb = fig.colorbar(im, ax=axes, orientation="horizontal", location="bottom", shrink=0.8)
    ticks = [clip * q for q in (0.0, 0.25, 0.5, 0.75, 1.0)]
    cb.set_ticks(ticks, labels=[f"{t * 1000:g}" for t in ticks[:-1]] + [f"≥{clip * 1000:g}"])
    cb.set_label("loss − best loss of the row, in thousandths", fontsize=FONT["label"])
    cb.ax.tick_params(labelsize=FONT["tick"])
    return fig
