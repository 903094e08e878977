"""Figures of the margins chapter (Wu & Zhou 2017): margins, synthetic data, relative
performance (Figs 2-3) and average ranks (Fig. 4).  Black-and-white friendly: markers
and grey levels, no colour needed.  Sized for a phone: at most 5 inches wide with
10-point type, legends below the axes, so that no text falls under 9 px when the
figure is shrunk to a phone's text column."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

__all__ = [
    "plot_margins",
    "plot_limo_synthetic",
    "plot_relative_performance",
    "plot_average_ranks",
    "plot_ours_vs_paper",
]

_MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]
_GREYS = ["0.0", "0.45", "0.7", "0.25", "0.55", "0.85"]


def plot_margins(Y, F, *, label_names=None, ax=None):
    """Both margins of a small score matrix, one above the other.

    Top: each instance's scores on one line, relevant labels filled, irrelevant open;
    the bar is the label-wise margin (smallest relevant minus largest irrelevant
    score; dotted if negative).  Bottom: the same per label over the instances
    (instance-wise margin).
    """
    Y = np.asarray(Y, dtype=bool)
    F = np.asarray(F, dtype=float)
    if ax is None:
        height = 0.4 * (Y.shape[0] + Y.shape[1]) + 2.6
        fig, ax = plt.subplots(2, 1, figsize=(5.0, height), sharex=True)
    else:
        fig = ax[0].figure
    names = label_names or [chr(ord("A") + j) for j in range(Y.shape[1])]
    for k, (A, B, title, lab) in enumerate(
        [
            (Y, F, "label-wise margin $\\gamma_i^{label}$", "instance"),
            (Y.T, F.T, "instance-wise margin $\\gamma_j^{inst}$", "label"),
        ]
    ):
        a = ax[k]
        for r in range(A.shape[0]):
            _margin_row(a, B[r, A[r]], B[r, ~A[r]], r)
        ticks = [f"x{r + 1}" for r in range(A.shape[0])] if lab == "instance" else names
        a.set_yticks(range(A.shape[0]), ticks)
        a.invert_yaxis()
        if k == 1:
            a.set_xlabel("score $f_j(x_i)$")
        a.set_title(title, fontsize=10)
        a.grid(axis="x", color="0.9")
    # Above the panels, so that the legend never covers a point.
    handles, labels = ax[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper center", ncol=2, fontsize=10, frameon=False)
    fig.tight_layout(rect=(0, 0, 1, 0.93))
    return fig


def plot_limo_synthetic(X, Y, *, label_names=("A", "B", "C", "D"), ax=None):
    """The synthetic data: one marker per label set, and the quadrant boundaries."""
    X = np.asarray(X)
    Y = np.asarray(Y, dtype=int)
    if ax is None:
        fig, ax = plt.subplots(figsize=(4.4, 5.2))
    else:
        fig = ax.figure
    keys = ["".join(n for n, y in zip(label_names, row) if y) or "{}" for row in Y]
    for k, key in enumerate(sorted(set(keys))):
        sel = np.array([s == key for s in keys])
        ax.scatter(
            X[sel, 0],
            X[sel, 1],
            s=9,
            marker=_MARKERS[k % len(_MARKERS)],
            facecolors="none" if k % 2 else _GREYS[k % len(_GREYS)],
            edgecolors=_GREYS[k % len(_GREYS)],
            linewidths=0.7,
            label="{" + ",".join(key) + "}",
        )
    ax.axhline(0, color="0.3", lw=0.8)
    ax.axvline(0, color="0.3", lw=0.8)
    ax.set_xlim(-1, 1)
    ax.set_ylim(-1, 1)
    ax.set_aspect("equal")
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")
    ax.legend(
        title="label set",
        loc="upper center",
        bbox_to_anchor=(0.5, -0.14),
        ncol=4,
        fontsize=10,
        title_fontsize=10,
        frameon=False,
    )
    fig.tight_layout()
    return fig


def _dot_plot(table: pd.DataFrame, *, xlabel: str, spread: float, ax):
    """One row per measure, one marker per method (Figs 2-4); returns (fig, ax)."""
    if ax is None:
        fig, ax = plt.subplots(figsize=(5.0, 0.42 * len(table) + 2.0))
    else:
        fig = ax.figure
    n = len(table.columns)
    for k, col in enumerate(table.columns):
        off = (k - (n - 1) / 2) * spread
        ax.plot(
            table[col].to_numpy(),
            np.arange(len(table)) + off,
            _MARKERS[k % len(_MARKERS)],
            color=_GREYS[k % len(_GREYS)],
            mec="0.0",
            ms=7,
            label=col,
            linestyle="none",
        )
    ax.set_yticks(range(len(table)), [str(i).replace("_", " ") for i in table.index])
    ax.set_xlabel(xlabel)
    ax.invert_yaxis()
    ax.grid(axis="x", color="0.9")
    return fig, ax


def _finish_dot_plot(fig, ax):
    ncol = min(3, len(ax.get_legend_handles_labels()[1]) or 1)
    ax.legend(
        loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=ncol, fontsize=10, frameon=False
    )
    fig.tight_layout()


def plot_relative_performance(rel: pd.DataFrame, *, title: str = "", ax=None):
    """Figs 2-3 of the paper: relative values (best 1, worst 0) per measure and method.

    ``rel`` has one row per measure and one column per method.  The best value is
    drawn on the left, as in the paper.
    """
    fig, ax = _dot_plot(
        rel,
        xlabel="relative value (1 = best, 0 = worst)",
        spread=0.12,
        ax=ax,
    )
    ax.set_xlim(1.08, -0.08)
    ax.set_title(title, fontsize=10)
    _finish_dot_plot(fig, ax)
    return fig


def plot_average_ranks(ranks: pd.DataFrame, *, ax=None):
    """Fig. 4 of the paper: average rank (1 = best) per measure and method."""
    fig, ax = _dot_plot(
        ranks,
        xlabel="average rank over the datasets (smaller is better)",
        spread=0.1,
        ax=ax,
    )
    _finish_dot_plot(fig, ax)
    return fig


def plot_ours_vs_paper(
    ours_mean: pd.DataFrame,
    ours_std: pd.DataFrame,
    paper_mean: pd.DataFrame,
    paper_std: pd.DataFrame,
    *,
    title: str = "",
    ncols: int = 2,
):
    """Our mean ± std against the paper's, one panel per measure (Table B.3).

    All four frames have one row per method and one column per measure (same
    labels).  In each panel a method's row shows our mean (filled circle) and the
    paper's (open square), each with a bar of ± one standard deviation over the
    replications; the paper's square is drawn slightly below ours.  A missing paper
    value (NaN) draws nothing.
    """
    frames = {"ours_std": ours_std, "paper_mean": paper_mean, "paper_std": paper_std}
    for name, f in frames.items():
        same = f.index.equals(ours_mean.index) and f.columns.equals(ours_mean.columns)
        if not same:
            raise ValueError(f"{name} must have the index and columns of ours_mean")
    measures, methods = list(ours_mean.columns), list(ours_mean.index)
    nrows = int(np.ceil(len(measures) / ncols))
    size = (2.5 * ncols, (0.3 * len(methods) + 0.9) * nrows + 1.0)
    fig, axes = plt.subplots(nrows, ncols, figsize=size, sharey=True, squeeze=False)
    y = np.arange(len(methods))
    for ax, k in zip(axes.flat, measures):
        ax.errorbar(
            ours_mean[k],
            y - 0.12,
            xerr=ours_std[k],
            fmt="o",
            color="0.0",
            ms=5,
            capsize=2,
            lw=1,
            label="ours",
        )
        ax.errorbar(
            paper_mean[k],
            y + 0.12,
            xerr=paper_std[k],
            fmt="s",
            mfc="white",
            mec="0.35",
            color="0.35",
            ms=5,
            capsize=2,
            lw=1,
            label="paper",
        )
        ax.set_title(str(k), fontsize=10)
        ax.tick_params(labelsize=10)
        ax.xaxis.set_major_locator(plt.MaxNLocator(3))
        ax.grid(axis="x", color="0.9")
        ax.margins(x=0.15)
    axes[0, 0].set_yticks(y, methods)
    axes[0, 0].invert_yaxis()
    for ax in list(axes.flat)[len(measures) :]:
        ax.set_visible(False)
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper right", ncol=2, fontsize=10, frameon=False)
    if title:
        fig.suptitle(title, fontsize=10, x=0.02, ha="left")
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.5 / size[1]))
    return fig


def _margin_row(a, pos, neg, r: int) -> None:
    """Row ``r`` of a margins panel: relevant scores ``pos`` filled, irrelevant ``neg``
    open, and the margin's bar (dotted if negative) with its value."""
    a.plot(
        pos,
        np.full(pos.size, r),
        "o",
        color="0.1",
        ms=7,
        label="relevant" if r == 0 else None,
    )
    a.plot(
        neg,
        np.full(neg.size, r),
        "o",
        mfc="white",
        mec="0.1",
        ms=7,
        label="irrelevant" if r == 0 else None,
    )
    if pos.size and neg.size:
        lo, hi = neg.max(), pos.min()
        a.plot(
            [lo, hi],
            [r + 0.25, r + 0.25],
            "-" if hi > lo else ":",
            color="0.3",
            lw=2,
        )
        a.text(
            max(lo, hi) + 0.03,
            r + 0.25,
            f"{hi - lo:+.2f}",
            va="center",
            fontsize=10,
        )
