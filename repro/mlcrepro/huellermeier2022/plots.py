"""Our loss profiles beside the authors' released ones (Hüllermeier et al., 2022, Sec. 5).

:func:`plot_authors_profiles` draws small multiples, one panel per dataset: for
each of a few learners our pooled profile as a solid line and the authors' as
hollow markers of the same shape on the same grey, so that a marker sitting on
its line reads "equal" in black-and-white print and on a small screen alike.
Three narrow panels per row and 10-point type keep the smallest text at about 9 px
when a phone shows the figure about 340 px wide.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["plot_authors_profiles"]

_MARKERS = ("o", "s", "^", "D", "v", "P", "X")
_GREYS = ("0.0", "0.45", "0.25", "0.6", "0.1", "0.35", "0.5")
_NEED = {"dataset", "learner", "family", "param", "K", "ours", "theirs"}
#: type size (points) of every text (10 pt at 100 dpi is 13.9 px)
TEXT_PT = 10.0


def plot_authors_profiles(
    comparison: pd.DataFrame,
    learners: Sequence[str],
    *,
    datasets: Sequence[str] | None = None,
    family: str = "binomial",
    ncols: int = 3,
    panel_size: tuple[float, float] = (1.5, 1.45),
) -> Any:
    """Ours (solid lines) and the authors' (hollow markers) per dataset and learner.

    Parameters
    ----------
    comparison : pandas.DataFrame
        :func:`mlcrepro.huellermeier2022.authors_compare.compare_with_authors` (columns ``dataset,
        learner, family, param, K, ours, theirs``).
    learners : sequence of str
        At most seven learners (paper names), each drawn with its own marker and grey.
    datasets : sequence of str, optional
        Panels in this order; default: the datasets of ``comparison`` in order.
    family : {'binomial', 'polynomial'}
        The binomial family is drawn against ``(k-1)/(K-1)`` (eq. 18), the
        polynomial one against alpha on a log axis (eq. 17).
    ncols : int
        Panels per row.
    panel_size : (float, float)
        Width and height of one panel in inches.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    c, names = _checked(comparison, learners, datasets, family, ncols)
    nrows = -(-len(names) // ncols)
    fig, axes = plt.subplots(
        nrows,
        ncols,
        figsize=(panel_size[0] * ncols + 0.4, panel_size[1] * nrows + 1.0),
        squeeze=False,
        sharex=True,
        layout="constrained",
    )
    for ax, d in zip(axes.flat, names):
        _panel(ax, c[c["dataset"] == d], d, learners, family)
    for ax in axes.flat[len(names) :]:
        ax.set_visible(False)
    xlabel = "$(k-1)/(K-1)$" if family == "binomial" else r"$\alpha$"
    for k, ax in enumerate(axes.flat[: len(names)]):
        if k + ncols >= len(names):  # lowest panel of its column
            ax.set_xlabel(xlabel, fontsize=TEXT_PT)
            ax.xaxis.set_tick_params(labelbottom=True)
    for ax in axes[:, 0]:
        ax.set_ylabel("loss", fontsize=TEXT_PT)
    _legend(fig, learners)
    return fig


def _checked(
    comparison: object,
    learners: Sequence[str],
    datasets: Sequence[str] | None,
    family: str,
    ncols: object,
) -> tuple[pd.DataFrame, list[str]]:
    """The rows to draw and the panels' datasets, the arguments checked."""
    if not isinstance(comparison, pd.DataFrame):
        raise TypeError(f"comparison must be a DataFrame, got {type(comparison).__name__}")
    missing = _NEED - set(comparison.columns)
    if missing:
        raise ValueError(f"comparison lacks the columns {sorted(missing)}")
    if isinstance(learners, str) or not 1 <= len(learners) <= len(_MARKERS):
        raise ValueError(f"learners must be a sequence of 1 to {len(_MARKERS)} names")
    if family not in ("binomial", "polynomial"):
        raise ValueError(f"family must be 'binomial' or 'polynomial', got {family!r}")
    if isinstance(ncols, bool) or not isinstance(ncols, int) or ncols < 1:
        raise ValueError(f"ncols must be an int >= 1, got {ncols!r}")
    c = comparison[comparison["family"] == family]
    c = c[c["learner"].isin(list(learners))]
    if c.empty:
        raise ValueError(f"comparison has no {family} rows for {list(learners)}")
    names = list(dict.fromkeys(c["dataset"])) if datasets is None else list(datasets)
    return c, names


def _panel(ax: Any, g: pd.DataFrame, d: str, learners: Sequence[str], family: str) -> None:
    """One dataset's panel: each learner's line (ours) and markers (the authors')."""
    from matplotlib.ticker import MaxNLocator

    for i, learner in enumerate(learners):
        r = g[g["learner"] == learner].sort_values("param")
        if r.empty:
            continue
        K = float(r["K"].iloc[0])
        x = (r["param"] - 1) / max(K - 1, 1) if family == "binomial" else r["param"]
        color = _GREYS[i]
        ax.plot(x, r["ours"], linestyle="-", color=color, linewidth=1.2)
        step = max(1, len(r) // 8)  # about 8 markers per curve, both ends included
        at = np.unique(np.r_[np.arange(0, len(r), step), len(r) - 1])
        ax.plot(
            np.asarray(x)[at],
            r["theirs"].to_numpy()[at],
            linestyle="none",
            marker=_MARKERS[i],
            markersize=5,
            markerfacecolor="white",
            markeredgecolor=color,
            markeredgewidth=1.0,
        )
    K = int(g["K"].iloc[0]) if not g.empty else 0
    ax.set_title(f"{d} (K = {K})", fontsize=TEXT_PT)
    if family == "polynomial":
        ax.set_xscale("log")
    else:
        ax.set_xticks([0, 0.5, 1], ["0", ".5", "1"])
    ax.yaxis.set_major_locator(MaxNLocator(3))
    ax.tick_params(labelsize=TEXT_PT)
    ax.grid(alpha=0.3, linewidth=0.5)


def _legend(fig: Any, learners: Sequence[str]) -> None:
    """Below the panels: each learner's grey and marker, then what line and marker mean."""
    from matplotlib.lines import Line2D

    handles = [
        Line2D(
            [],
            [],
            color=_GREYS[i],
            marker=_MARKERS[i],
            markerfacecolor="white",
            linestyle="-",
            label=name,
        )
        for i, name in enumerate(learners)
    ]
    handles.append(Line2D([], [], color="0.3", linestyle="-", label="ours (line)"))
    handles.append(
        Line2D(
            [],
            [],
            color="0.3",
            marker="o",
            markerfacecolor="white",
            linestyle="none",
            label="authors (markers)",
        )
    )
    fig.legend(
        handles=handles,
        loc="outside lower center",
        ncol=min(len(handles), 3),
        fontsize=TEXT_PT,
        frameon=False,
    )
