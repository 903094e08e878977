"""Figures of Park & Read (2018): the blended similarity's limits and the
alpha x beta heatmaps.

Grey scales and line styles/markers only, so the figures survive black-and-white print.
The heatmaps are three panels wide (one per measure, a row per dataset) with 10-point
type, so that on a phone, where a figure is shown about 340 px wide, their smallest text
is still about 9 px.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..blended import blended_similarity

__all__ = ["plot_blended_limits", "plot_blended_heatmaps"]

_STYLES = ("-", "--", "-.", ":", (0, (5, 1)), (0, (3, 1, 1, 1, 1, 1)))
_MARKERS = ("o", "s", "^", "D", "v", "x")
#: type size (points) of every text of the heatmaps (10 pt at 100 dpi is 13.9 px)
TEXT_PT = 10.0


def plot_blended_limits(ax_alpha: Any, ax_beta: Any, t, y, *, alphas=None, betas=None) -> None:
    """How the blended similarity of one prediction moves between its limits.

    Left (``ax_alpha``): ``s(y, t; alpha, 1)`` against alpha, with the Hamming
    (alpha = 1) and Jaccard (alpha -> 0) values marked.  Right (``ax_beta``):
    ``s(y, t; alpha, beta)`` against beta (log scale) for a few alphas; it decays
    to the exact-match value 0 unless the prediction is exact.

    Parameters
    ----------
    ax_alpha, ax_beta : matplotlib Axes
    t, y : array-like of shape (n_labels,)
        Truth and prediction (0/1 or undetermined scores in [0, 1]).
    """

    alphas = np.linspace(0, 1, 101) if alphas is None else np.asarray(alphas, float)
    betas = 2.0 ** np.arange(0, 8) if betas is None else np.asarray(betas, float)
    s_a = [blended_similarity(t, y, a, 1.0) for a in alphas]
    ax_alpha.plot(alphas, s_a, "k-", label=r"$s(\mathbf{y},\mathbf{t};\alpha,1)$")
    h = blended_similarity(t, y, 1.0, 1.0)
    j = blended_similarity(t, y, 0.0, 1.0)
    ax_alpha.plot([1.0], [h], "ks", ms=7, label=f"Hamming = {h:.2f}")
    ax_alpha.plot([0.0], [j], "k^", ms=7, label=f"Jaccard = {j:.2f}")
    ax_alpha.set_xlabel(r"$\alpha$")
    ax_alpha.set_ylabel("blended similarity")
    ax_alpha.set_ylim(0, 1.02)
    ax_alpha.legend(loc="lower right", fontsize=TEXT_PT)
    for i, a in enumerate((1e-5, 0.5, 1.0)):
        s_b = [blended_similarity(t, y, a, b) for b in betas]
        ax_beta.plot(
            betas,
            s_b,
            linestyle=_STYLES[i],
            marker=_MARKERS[i],
            color="k",
            label=rf"$\alpha={a:g}$",
        )
    e = blended_similarity(t, y, 1.0, np.inf)
    ax_beta.axhline(e, color="0.5", lw=1, ls=":", label=f"Exact = {e:.0f}")
    ax_beta.set_xscale("log", base=2)
    ax_beta.set_xlabel(r"$\beta$")
    ax_beta.set_ylim(-0.02, 1.02)
    ax_beta.legend(loc="upper right", fontsize=TEXT_PT)


def plot_blended_heatmaps(
    df: pd.DataFrame,
    part: str = "test",
    *,
    metrics=("hamming", "jaccard", "exact"),
    datasets=None,
    cmap: str = "Greys",
    figsize_per: tuple[float, float] = (1.35, 1.25),
    vmin: float = -0.1,
):
    """The alpha x beta heatmaps of Figs. 1 (``part='train'``) and 2 (``part='test'``).

    One column of panels per measure, one row per dataset (the paper has them the
    other way round; three columns keep the figure narrow enough for a phone); each
    panel shows, for
    the model optimised with (alpha, beta), its score *minus the best score of the
    panel*: alpha on the x axis (1e-5 drawn as 0), log2 beta on the y axis.  All
    panels share one grey scale from ``vmin`` (white; lower values are clipped to
    it) to 0 (black, the best cell, also circled), so equal shades mean equal
    distances to the best setting in every panel and in both figures.  The best
    score itself is printed in each panel's title.

    Parameters
    ----------
    df : DataFrame
        Rows of :func:`mlcrepro.park_read2018.grid.blended_grid` with a ``dataset`` column.
    part : {'train', 'test'}
    metrics : sequence of {'hamming', 'jaccard', 'exact'}
        The columns of panels.
    datasets : sequence of str, optional
        The rows of panels (default: in the order of ``df``).
    figsize_per : (float, float)
        Width and height of one panel in inches.
    vmin : float < 0
        The shortfall drawn white (the lower end of the shared grey scale).

    Returns
    -------
    matplotlib Figure
    """
    import matplotlib.pyplot as plt

    if part not in ("train", "test"):
        raise ValueError(f"part must be 'train' or 'test', got {part!r}")
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"df must be a pandas DataFrame, got {type(df).__name__}")
    if not (np.isfinite(vmin) and vmin < 0):
        raise ValueError(f"vmin must be a finite negative number, got {vmin!r}")
    datasets = list(dict.fromkeys(df["dataset"])) if datasets is None else list(datasets)
    nr, nc = len(datasets), len(metrics)
    size = (figsize_per[0] * nc + 0.8, figsize_per[1] * nr + 1.2)
    fig, axes = plt.subplots(nr, nc, figsize=size, squeeze=False, layout="constrained")
    im = None
    for i, d in enumerate(datasets):
        for j, m in enumerate(metrics):
            ax = axes[i, j]
            im, best = _shortfall_panel(ax, df[df["dataset"] == d], f"{part}_{m}", cmap, vmin)
            if i == nr - 1:
                ax.set_xlabel(r"$\alpha$", fontsize=TEXT_PT)
            else:
                ax.tick_params(labelbottom=False)
            if j == 0:
                ax.set_ylabel(d.capitalize() + "\n" + r"$\log_2\beta$", fontsize=TEXT_PT)
            else:
                ax.tick_params(labelleft=False)
            head = f"{m.capitalize()}\n" if i == 0 else ""
            ax.set_title(f"{head}best {best:.3f}", fontsize=TEXT_PT)
    assert im is not None  # at least one panel was drawn
    cb = fig.colorbar(
        im,
        ax=axes,
        orientation="horizontal",
        location="bottom",
        shrink=0.8,
        aspect=30,
        extend="min",
    )
    cb.set_label("score minus the panel's best", fontsize=TEXT_PT)
    cb.ax.tick_params(labelsize=TEXT_PT)
    fig.suptitle(
        f"{part.capitalize()} similarity of the model\noptimised with " r"$(\alpha, \beta)$",
        fontsize=TEXT_PT,
    )
    return fig


def _shortfall_panel(ax, sub: pd.DataFrame, column: str, cmap: str, vmin: float):
    """One panel of :func:`plot_blended_heatmaps`: ``column`` of ``sub`` (beta x alpha)
    minus its best value, the best cell circled, alpha and log2 beta ticks.  Returns
    the image and the best value."""
    M = sub.pivot(index="beta", columns="alpha", values=column)
    M = M.sort_index()
    M = M.reindex(sorted(M.columns), axis=1)
    V = M.to_numpy(float)
    best = np.nanmax(V)
    im = ax.imshow(
        V - best,
        origin="lower",
        aspect="auto",
        cmap=cmap,
        vmin=vmin,
        vmax=0.0,
        interpolation="nearest",
    )
    k = np.unravel_index(np.nanargmax(V), M.shape)
    ax.plot(k[1], k[0], "o", mfc="none", mec="white", mew=1.8, ms=7)
    ax.plot(k[1], k[0], "o", mfc="none", mec="black", mew=0.8, ms=9)
    alphas = list(M.columns)
    # three alpha ticks (ends and middle), every other beta: room for 10 pt labels
    xt = sorted({0, (len(alphas) - 1) // 2, len(alphas) - 1})
    ax.set_xticks(xt)
    ax.set_xticklabels(
        [f"{alphas[t]:g}" if alphas[t] >= 0.05 else "0" for t in xt], fontsize=TEXT_PT
    )
    yt = list(range(0, len(M.index), 2))
    ax.set_yticks(yt)
    ax.set_yticklabels([f"{int(np.log2(M.index[t]))}" for t in yt], fontsize=TEXT_PT)
    return im, best
