"""Figures of the margins chapter (Wu & Zhou 2017): margins, synthetic data, relative
performance (Figs 2-3) and average ranks (Fig. 4).  Black-and-white friendly: markers
and grey levels, no colour needed."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

__all__ = ["plot_margins", "plot_limo_synthetic", "plot_relative_performance", "plot_average_ranks"]

_MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]
_GREYS = ["0.0", "0.45", "0.7", "0.25", "0.55", "0.85"]


def plot_margins(Y, F, *, label_names=None, ax=None):
    """Both margins of a small score matrix, side by side.

    Left: each instance's scores on one line, relevant labels filled, irrelevant open;
    the bar is the label-wise margin (smallest relevant minus largest irrelevant
    score; hatched if negative).  Right: the same per label over the instances
    (instance-wise margin).
    """
    Y = np.asarray(Y, dtype=bool)
    F = np.asarray(F, dtype=float)
    if ax is None:
        fig, ax = plt.subplots(1, 2, figsize=(9, 0.45 * max(Y.shape) + 1.6), sharex=True)
    else:
        fig = ax[0].figure
    names = label_names or [chr(ord("A") + j) for j in range(Y.shape[1])]
    for k, (A, B, title, lab) in enumerate(
        [(Y, F, "label-wise margin $\\gamma_i^{label}$", "instance"),
         (Y.T, F.T, "instance-wise margin $\\gamma_j^{inst}$", "label")]
    ):
        a = ax[k]
        for r in range(A.shape[0]):
            pos, neg = B[r, A[r]], B[r, ~A[r]]
            a.plot(pos, np.full(pos.size, r), "o", color="0.1", ms=7, label="relevant" if r == 0 else None)
            a.plot(neg, np.full(neg.size, r), "o", mfc="white", mec="0.1", ms=7,
                   label="irrelevant" if r == 0 else None)
            if pos.size and neg.size:
                lo, hi = neg.max(), pos.min()
                a.plot([lo, hi], [r + 0.25, r + 0.25], "-" if hi > lo else ":", color="0.3", lw=2)
                a.text(max(lo, hi) + 0.03, r + 0.25, f"{hi - lo:+.2f}", va="center", fontsize=8)
        ticks = [f"x{r + 1}" for r in range(A.shape[0])] if lab == "instance" else names
        a.set_yticks(range(A.shape[0]), ticks)
        a.invert_yaxis()
        a.set_xlabel("score $f_j(x_i)$")
        a.set_title(title, fontsize=10)
        a.grid(axis="x", color="0.9")
    ax[0].legend(loc="lower left", fontsize=8, frameon=False)
    fig.tight_layout()
    return fig


def plot_limo_synthetic(X, Y, *, label_names=("A", "B", "C", "D"), ax=None):
    """The synthetic data: one marker per label set, and the quadrant boundaries."""
    X = np.asarray(X)
    Y = np.asarray(Y, dtype=int)
    if ax is None:
        fig, ax = plt.subplots(figsize=(4.6, 4.6))
    else:
        fig = ax.figure
    keys = ["".join(n for n, y in zip(label_names, row) if y) or "{}" for row in Y]
    for k, key in enumerate(sorted(set(keys))):
        sel = np.array([s == key for s in keys])
        ax.scatter(X[sel, 0], X[sel, 1], s=9, marker=_MARKERS[k % len(_MARKERS)],
                   facecolors="none" if k % 2 else _GREYS[k % len(_GREYS)],
                   edgecolors=_GREYS[k % len(_GREYS)], linewidths=0.7, label="{" + ",".join(key) + "}")
    ax.axhline(0, color="0.3", lw=0.8)
    ax.axvline(0, color="0.3", lw=0.8)
    ax.set_xlim(-1, 1)
    ax.set_ylim(-1, 1)
    ax.set_aspect("equal")
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")
    ax.legend(title="label set", loc="upper left", bbox_to_anchor=(1.02, 1), fontsize=8, frameon=False)
    fig.tight_layout()
    return fig


def _dot_plot(table: pd.DataFrame, *, xlabel: str, spread: float, ax):
    """One row per measure, one marker per method (shared by Figs 2-4); returns (fig, ax)."""
    if ax is None:
        fig, ax = plt.subplots(figsize=(6.4, 0.42 * len(table) + 1.3))
    else:
        fig = ax.figure
    n = len(table.columns)
    for k, col in enumerate(table.columns):
        off = (k - (n - 1) / 2) * spread
        ax.plot(table[col].to_numpy(), np.arange(len(table)) + off, _MARKERS[k % len(_MARKERS)],
                color=_GREYS[k % len(_GREYS)], mec="0.0", ms=7, label=col, linestyle="none")
    ax.set_yticks(range(len(table)), [str(i).replace("_", " ") for i in table.index])
    ax.set_xlabel(xlabel)
    ax.invert_yaxis()
    ax.grid(axis="x", color="0.9")
    return fig, ax


def _finish_dot_plot(fig, ax):
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1), fontsize=8, frameon=False)
    fig.tight_layout()


def plot_relative_performance(rel: pd.DataFrame, *, title: str = "", ax=None):
    """Figs 2-3 of the paper: relative values (best 1, worst 0) per measure and method.

    ``rel`` has one row per measure and one column per method.  The best value is
    drawn on the left, as in the paper.
    """
    fig, ax = _dot_plot(rel, xlabel="relative value (1 = best of the compared, 0 = worst)",
                        spread=0.12, ax=ax)
    ax.set_xlim(1.08, -0.08)
    ax.set_title(title, fontsize=10)
    _finish_dot_plot(fig, ax)
    return fig


def plot_average_ranks(ranks: pd.DataFrame, *, ax=None):
    """Fig. 4 of the paper: average rank (1 = best) per measure and method."""
    fig, ax = _dot_plot(ranks, xlabel="average rank over the datasets (smaller is better)",
                        spread=0.1, ax=ax)
    _finish_dot_plot(fig, ax)
    return fig
