"""Figures of Hüllermeier et al. (2022, Sec. 5): loss curves and pairwise loss ratios.

* :func:`plot_loss_curves` — Fig. 1: the loss of every learner on one dataset
  as a function of the binomial ``k`` or the polynomial ``alpha``.
* :func:`plot_ratio_curves` — Figs 2–3: for a pair of learners, the ratio
  ``loss(second) / loss(first)`` against ``(k-1)/(K-1)`` or ``alpha``, one line
  per dataset.

Both take the output of :func:`mlcbook.experiments.pooled_profiles` and are
readable in black and white (line styles, markers, greys).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["plot_loss_curves", "plot_ratio_curves", "plot_ratio_grid"]

_LINES = ["-", "--", ":", "-.", (0, (5, 1, 1, 1)), (0, (1, 1)), (0, (7, 2)), (0, (3, 1, 1, 1, 1, 1)),
          (0, (4, 2, 1, 2)), (0, (8, 1, 2, 1)), (0, (2, 2))]
_MARKERS = ["o", "s", "^", "D", "v", "x", "P", "*", "<", ">", "h"]
_FAMILY_LABEL = {"binomial": "$k$", "polynomial": r"$\alpha$"}


def _style(i: int) -> dict[str, Any]:
    return {
        "linestyle": _LINES[i % len(_LINES)],
        "marker": _MARKERS[i % len(_MARKERS)],
        "color": str(round(0.6 * (i % 4) / 3, 2)),
        "markersize": 4,
        "linewidth": 1.1,
        "markerfacecolor": "white" if i % 2 else None,
    }


def _check_family(family: str) -> str:
    if family not in _FAMILY_LABEL:
        raise ValueError(f"family must be 'binomial' or 'polynomial', got {family!r}")
    return family


def plot_loss_curves(pooled: pd.DataFrame, dataset: str, family: str, *, learners: Sequence[str] | None = None,
                     ax=None):
    """Loss against the family parameter for each learner on ``dataset`` (Fig. 1).

    Parameters
    ----------
    pooled : DataFrame from :func:`mlcbook.experiments.pooled_profiles`
    dataset : str
    family : {'binomial', 'polynomial'}
        The polynomial axis is logarithmic.
    learners : the learners to draw, in legend order (default: all, table order)
    ax : matplotlib Axes, optional
    """
    import matplotlib.pyplot as plt

    family = _check_family(family)
    sub = pooled[(pooled["dataset"] == dataset) & (pooled["family"] == family)]
    if sub.empty:
        raise ValueError(f"no rows for dataset {dataset!r} and family {family!r}")
    learners = list(dict.fromkeys(sub["learner"])) if learners is None else list(learners)
    if ax is None:
        _, ax = plt.subplots(figsize=(5.5, 4))
    for i, name in enumerate(learners):
        cur = sub[sub["learner"] == name].sort_values("param")
        ax.plot(cur["param"], cur["loss"], label=name, **_style(i))
    if family == "polynomial":
        ax.set_xscale("log")
    else:
        ax.set_xticks(sorted(sub["param"].unique()))
    ax.set_xlabel(_FAMILY_LABEL[family])
    ax.set_ylabel(r"$\ell_{bin}$" if family == "binomial" else r"$\ell_{poly}$")
    ax.set_title(f"{dataset}: {family} loss")
    ax.grid(True, color="0.85", linewidth=0.6)
    return ax


def plot_ratio_curves(ratios: pd.DataFrame, family: str, *, datasets: Sequence[str] | None = None, ax=None,
                      legend: bool = True):
    """Ratio of two learners' losses against the normalised parameter (Figs 2–3).

    Parameters
    ----------
    ratios : DataFrame from :func:`mlcbook.experiments.loss_ratios` (one pair)
    family : {'binomial', 'polynomial'}
        Binomial: x = (k-1)/(K-1) in [0, 1]; polynomial: x = alpha on a log axis.
        The ratio axis is logarithmic.
    datasets : order of the lines (default: table order)
    """
    import matplotlib.pyplot as plt

    family = _check_family(family)
    sub = ratios[ratios["family"] == family]
    if sub.empty:
        raise ValueError(f"no rows for family {family!r}")
    datasets = list(dict.fromkeys(sub["dataset"])) if datasets is None else list(datasets)
    if ax is None:
        _, ax = plt.subplots(figsize=(4, 3.2))
    for i, name in enumerate(datasets):
        cur = sub[sub["dataset"] == name].sort_values("x")
        # At most ~8 markers per line, so that datasets with many labels stay legible.
        ax.plot(cur["x"], cur["ratio"], label=name, markevery=max(1, len(cur) // 8), **_style(i))
    ax.axhline(1.0, color="black", linewidth=0.8)
    # Ratios on a log axis: 2 and 1/2 are equally far from 1; plain tick labels.
    from matplotlib.ticker import FormatStrFormatter

    ax.set_yscale("log")
    ax.yaxis.set_major_formatter(FormatStrFormatter("%.3g"))
    lo, hi = ax.get_ylim()
    if hi / lo < 4:  # label minor ticks only on a short axis, else they collide
        ax.yaxis.set_minor_formatter(FormatStrFormatter("%.2g"))
    else:
        from matplotlib.ticker import NullFormatter

        ax.yaxis.set_minor_formatter(NullFormatter())
    if family == "polynomial":
        ax.set_xscale("log")
        ax.set_xlabel(r"$\alpha$")
    else:
        ax.set_xlim(-0.03, 1.03)
        ax.set_xlabel(r"$(k-1)/(K-1)$")
    pair = sub["pair"].iloc[0] if "pair" in sub else ""
    ax.set_ylabel("loss ratio")
    ax.set_title(pair, fontsize=10)
    ax.grid(True, color="0.85", linewidth=0.6)
    if legend:
        ax.legend(fontsize=7, ncol=1, frameon=False)
    return ax


def plot_ratio_grid(pooled: pd.DataFrame, pairs: Sequence[tuple[str, str]], family: str, *, ncols: int = 3,
                    datasets: Sequence[str] | None = None):
    """A grid of :func:`plot_ratio_curves`, one panel per ``(first, second)`` pair.

    The ratio is ``loss(second) / loss(first)``; a shared legend names the datasets.
    """
    import matplotlib.pyplot as plt

    from ..experiments import loss_ratios

    nrows = int(np.ceil(len(pairs) / ncols))
    fig, axes = plt.subplots(nrows, ncols, figsize=(3.6 * ncols, 2.9 * nrows), squeeze=False)
    for ax, (first, second) in zip(axes.flat, pairs):
        plot_ratio_curves(loss_ratios(pooled, first, second), family, datasets=datasets, ax=ax, legend=False)
    for ax in list(axes.flat)[len(pairs):]:
        ax.set_visible(False)
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=min(len(labels), 9), fontsize=8, frameon=False)
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    return fig
