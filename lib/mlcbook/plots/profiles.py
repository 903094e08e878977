"""Figures of Hüllermeier et al. (2022, Sec. 5): loss curves and pairwise loss ratios.

* :func:`plot_loss_curves` — Fig. 1: the loss of every learner on one dataset
  as a function of the binomial ``k`` or the polynomial ``alpha``.
* :func:`plot_ratio_curves` — Figs 2–3: for a pair of learners, the ratio
  ``loss(second) / loss(first)`` against ``(k-1)/(K-1)`` or ``alpha``, one line
  per dataset.

Both take the output of :func:`mlcbook.profiles.pooled_profiles` and are
readable in black and white (line styles, markers, greys).  The grid of Figs 2–3
is drawn two panels wide with 10-point type, so that on a phone, where the figure is
shown about 340 px wide, its smallest text is still about 9.5 px.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from mlcbook.profiles import loss_ratios

__all__ = ["plot_loss_curves", "plot_ratio_curves", "plot_ratio_grid", "ratio_ticks"]

_LINES = [
    "-",
    "--",
    ":",
    "-.",
    (0, (5, 1, 1, 1)),
    (0, (1, 1)),
    (0, (7, 2)),
    (0, (3, 1, 1, 1, 1, 1)),
    (0, (4, 2, 1, 2)),
    (0, (8, 1, 2, 1)),
    (0, (2, 2)),
]
_MARKERS = ["o", "s", "^", "D", "v", "x", "P", "*", "<", ">", "h"]
#: type size (points) of every text of the ratio panels: 10 pt at 100 dpi is 13.9 px,
#: still 9 px when a 5-inch-wide grid is shrunk to a phone's 340 px
TEXT_PT = 10.0
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


def _other_style() -> dict[str, Any]:
    """Learners that are not highlighted: thin light-grey lines without markers."""
    return {
        "linestyle": "-",
        "marker": None,
        "color": "0.72",
        "linewidth": 0.9,
        "zorder": 1,
    }


def plot_loss_curves(
    pooled: pd.DataFrame,
    dataset: str,
    family: str,
    *,
    learners: Sequence[str] | None = None,
    highlight: Sequence[str] | None = None,
    ax=None,
):
    """Loss against the family parameter for each learner on ``dataset`` (Fig. 1).

    Parameters
    ----------
    pooled : DataFrame from :func:`mlcbook.profiles.pooled_profiles`
    dataset : str
    family : {'binomial', 'polynomial'}
        The polynomial axis is logarithmic.
    learners : the learners to draw, in legend order (default: all, table order)
    highlight : learners to draw in black with their own line style and marker;
        the others are thin grey lines sharing one legend entry ("other learners").
        Default: every learner is highlighted.
    ax : matplotlib Axes, optional
    """
    import matplotlib.pyplot as plt

    family = _check_family(family)
    sub = pooled[(pooled["dataset"] == dataset) & (pooled["family"] == family)]
    if sub.empty:
        raise ValueError(f"no rows for dataset {dataset!r} and family {family!r}")
    learners = list(dict.fromkeys(sub["learner"])) if learners is None else list(learners)
    highlight = learners if highlight is None else list(highlight)
    unknown = sorted(set(highlight) - set(learners))
    if unknown:
        raise ValueError(f"highlight names learners that are not drawn: {unknown}")
    if ax is None:
        _, ax = plt.subplots(figsize=(5.5, 4))
    n_other = 0
    for name in learners:
        if name in highlight:
            continue
        cur = sub[sub["learner"] == name].sort_values("param")
        label = "other learners" if n_other == 0 else None
        ax.plot(cur["param"], cur["loss"], label=label, **_other_style())
        n_other += 1
    for i, name in enumerate(highlight):
        cur = sub[sub["learner"] == name].sort_values("param")
        style = _style(i)
        style.update(color="black", linewidth=1.6, markersize=5, zorder=3)
        ax.plot(
            cur["param"],
            cur["loss"],
            label=name,
            markevery=max(1, len(cur) // 10),
            **style,
        )
    if family == "polynomial":
        ax.set_xscale("log")
    else:
        ax.set_xticks(sorted(sub["param"].unique()))
    ax.set_xlabel(_FAMILY_LABEL[family])
    ax.set_ylabel(r"$\ell_{bin}$" if family == "binomial" else r"$\ell_{poly}$")
    ax.set_title(f"{dataset}: {family} loss")
    ax.grid(True, color="0.85", linewidth=0.6)
    return ax


def _powers(base: float, lo: float, hi: float) -> np.ndarray:
    e = np.arange(
        np.ceil(np.log(lo) / np.log(base) - 1e-9),
        np.floor(np.log(hi) / np.log(base) + 1e-9) + 1,
    )
    return base**e


def ratio_ticks(lo: float, hi: float, *, max_ticks: int = 7) -> np.ndarray:
    """Labelled ticks for a logarithmic ratio axis from ``lo`` to ``hi``.

    In order of preference: powers of two (…, 1/4, 1/2, 1, 2, 4, …) when four to
    ``max_ticks`` of them fall in the range; powers of ten when at least three do;
    powers of four when the powers of two are too many; otherwise "nice" numbers
    (1, 1.1, 1.2, 1.25, 1.5, 2, 2.5, 3, …, 9 times a power of ten) thinned to at
    most ``max_ticks``, evenly on the log scale.  1 is included whenever it lies
    in the range and a power is used, or it is one of the nice numbers kept.
    """
    if not (np.isfinite(lo) and np.isfinite(hi) and 0 < lo < hi):
        raise ValueError(f"need 0 < lo < hi (finite), got lo={lo!r}, hi={hi!r}")
    p2 = _powers(2.0, lo, hi)
    if 4 <= len(p2) <= max_ticks:
        return p2
    p10 = _powers(10.0, lo, hi)
    if len(p10) >= 3:
        return p10[:: int(np.ceil(len(p10) / max_ticks))]
    if len(p2) > max_ticks:
        return _powers(4.0, lo, hi)
    mantissas = (1, 1.1, 1.2, 1.25, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8, 9)
    nice = sorted({m * 10.0**q for m in mantissas for q in range(-4, 5)})
    cand = np.array([t for t in nice if lo * (1 - 1e-9) <= t <= hi * (1 + 1e-9)])
    if len(cand) > max_ticks:
        idx = np.linspace(0, len(cand) - 1, max_ticks - 1)
        idx = np.unique(np.round(idx).astype(int))
        keep = set(cand[idx])
        if lo <= 1 <= hi:
            keep.add(1.0)
        cand = np.array(sorted(keep))
    return cand


def plot_ratio_curves(
    ratios: pd.DataFrame,
    family: str,
    *,
    datasets: Sequence[str] | None = None,
    ax=None,
    legend: bool = True,
    ylim: tuple[float, float] | None = None,
):
    """Ratio of two learners' losses against the normalised parameter (Figs 2–3).

    Parameters
    ----------
    ratios : DataFrame from :func:`mlcbook.profiles.loss_ratios` (one pair)
    family : {'binomial', 'polynomial'}
        Binomial: x = (k-1)/(K-1) in [0, 1]; polynomial: x = alpha on a log axis.
        The ratio axis is logarithmic, labelled by :func:`ratio_ticks`.
    datasets : order of the lines (default: table order)
    ylim : limits of the ratio axis (default: the data's range); a line leaving
        the limits is cut at the panel's edge.
    """
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator

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
        ax.plot(
            cur["x"],
            cur["ratio"],
            label=name,
            markevery=max(1, len(cur) // 8),
            **_style(i),
        )
    ax.axhline(1.0, color="black", linewidth=0.8)
    # Ratios on a log axis: 2 and 1/2 are equally far from 1; plain tick labels.
    ax.set_yscale("log")
    ylim = _ratio_limits(sub) if ylim is None else ylim
    ax.set_ylim(*ylim)
    _note_off_scale(ax, sub, datasets, ylim)
    ax.yaxis.set_major_locator(FixedLocator(ratio_ticks(*ylim, max_ticks=5).tolist()))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.yaxis.set_minor_locator(NullLocator())
    if family == "polynomial":
        ax.set_xscale("log")
        ax.set_xlabel(r"$\alpha$")
    else:
        ax.set_xlim(-0.03, 1.03)
        ax.set_xlabel(r"$(k-1)/(K-1)$")
    pair = sub["pair"].iloc[0] if "pair" in sub else ""
    ax.set_ylabel("loss ratio", fontsize=TEXT_PT)
    ax.xaxis.label.set_fontsize(TEXT_PT)
    ax.tick_params(labelsize=TEXT_PT)
    ax.set_title(pair, fontsize=TEXT_PT)
    ax.grid(True, color="0.85", linewidth=0.6)
    if legend:
        ax.legend(fontsize=TEXT_PT, ncol=1, frameon=False)
    return ax


def _ratio_limits(sub: pd.DataFrame) -> tuple[float, float]:
    """The data's range of ratios (and 1), padded by 5% of its log-width."""
    r = sub["ratio"].to_numpy(float)
    r = r[np.isfinite(r) & (r > 0)]
    lo, hi = (min(r.min(), 1.0), max(r.max(), 1.0)) if r.size else (0.5, 2.0)
    pad = (hi / lo) ** 0.05 if hi > lo else 1.1
    return (lo / pad, hi * pad)


def _note_off_scale(ax, sub: pd.DataFrame, datasets: Sequence[str], ylim) -> None:
    """Name the lines that leave the limits ``ylim``, with their range."""
    off = []
    for name in datasets:
        r = sub.loc[sub["dataset"] == name, "ratio"].to_numpy(float)
        if r.size and (r.min() < ylim[0] or r.max() > ylim[1]):
            off.append(f"{name} {r.min():.3g}–{r.max():.3g}")
    if off:
        ax.text(
            0.02,
            0.03,
            "off scale:\n" + "\n".join(off),
            transform=ax.transAxes,
            fontsize=TEXT_PT,
            va="bottom",
            ha="left",
            bbox={"facecolor": "white", "edgecolor": "none", "alpha": 0.8, "pad": 1},
        )


def plot_ratio_grid(
    pooled: pd.DataFrame,
    pairs: Sequence[tuple[str, str]],
    family: str,
    *,
    ncols: int = 2,
    datasets: Sequence[str] | None = None,
    ylim: tuple[float, float] | None = None,
    panel_size: tuple[float, float] = (2.5, 2.2),
):
    """A grid of :func:`plot_ratio_curves`, one panel per ``(first, second)`` pair.

    The ratio is ``loss(second) / loss(first)``; a shared legend below the panels
    names the datasets.  All panels share the ratio axis ``ylim`` (default: the
    range over all panels) and the parameter axis, so that their slopes can be
    compared; tick labels are written on the outer panels only.

    Parameters
    ----------
    pooled : DataFrame from :func:`mlcbook.profiles.pooled_profiles`
    pairs : sequence of (first, second) learner names
    family : {'binomial', 'polynomial'}
    ncols : int, default 2
        Panels per row.  Two panels of the default size make a figure 5 inches
        wide, whose 10-point type stays above 9 px on a phone.
    datasets : order of the lines (default: table order)
    ylim : limits of the shared ratio axis
    panel_size : (width, height) of one panel in inches

    Returns
    -------
    matplotlib Figure
    """
    import matplotlib.pyplot as plt

    family = _check_family(family)
    if isinstance(ncols, bool) or not isinstance(ncols, int) or ncols < 1:
        raise ValueError(f"ncols must be an int >= 1, got {ncols!r}")
    ratios = [loss_ratios(pooled, first, second) for first, second in pairs]
    if ylim is None:
        r = np.concatenate([q.loc[q["family"] == family, "ratio"].to_numpy(float) for q in ratios])
        r = r[np.isfinite(r) & (r > 0)]
        lo, hi = min(r.min(), 1.0), max(r.max(), 1.0)
        pad = (hi / lo) ** 0.04
        ylim = (lo / pad, hi * pad)
    nrows = int(np.ceil(len(pairs) / ncols))
    fig, axes = plt.subplots(
        nrows,
        ncols,
        figsize=(panel_size[0] * ncols, panel_size[1] * nrows + 0.8),
        squeeze=False,
        sharex=True,
        sharey=True,
        layout="constrained",
    )
    for ax, q in zip(axes.flat, ratios):
        plot_ratio_curves(q, family, datasets=datasets, ax=ax, legend=False, ylim=ylim)
    n = len(pairs)
    for k, ax in enumerate(axes.flat):
        if k >= n:
            ax.set_visible(False)
            continue
        if k % ncols:
            ax.set_ylabel("")
        # x tick labels and label on the lowest panel of each column
        if k + ncols < n:
            ax.set_xlabel("")
        else:
            ax.xaxis.set_tick_params(labelbottom=True)
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.legend(
        handles,
        labels,
        loc="outside lower center",
        ncol=min(len(labels), 3),
        fontsize=TEXT_PT,
        frameon=False,
    )
    return fig
