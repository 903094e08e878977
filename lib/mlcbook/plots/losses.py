"""Figures for the dependence-aware losses (Hüllermeier et al. 2022, Secs. 3–4).

Every figure is readable in black and white: lines differ by style and marker,
fills are grey.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..losses import check_capacity, error_count_losses

__all__ = ["plot_choquet_staircase", "plot_error_count_losses", "plot_loss_profiles"]

_STYLES = [
    ("-", "o"),
    ("--", "s"),
    (":", "^"),
    ("-.", "D"),
    ((0, (5, 1, 1, 1)), "v"),
    ((0, (1, 1)), "x"),
    ((0, (7, 2)), "P"),
    ((0, (3, 3)), "*"),
]


#: type size (points) of the texts these functions set (10 pt at 100 dpi is 13.9 px, still
#: 9 px on a phone when a figure of up to 5 inches is shrunk to its 340-px column)
TEXT_PT = 10.0


def _axes(ax):
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(5, 3.6))
    return ax


def _style(i: int) -> tuple[Any, str, str]:
    ls, mk = _STYLES[i % len(_STYLES)]
    grey = str(round(0.55 * (i % 4) / 3, 2))
    return ls, mk, grey


def plot_choquet_staircase(
    u: Sequence[float], mu: Any, *, labels: Sequence[str] | None = None, ax=None
):
    """Draw the Choquet integral of ``u`` w.r.t. ``mu`` as a sum of horizontal layers.

    Layer ``i`` spans the heights ``u_(i-1) .. u_(i)`` and has the width
    ``mu(A_(i))`` of the set of labels whose value reaches that height; the grey
    area is the integral (Sec. 3.3, eq. 14 without the ``1 -``).
    """
    values = np.asarray(u, dtype=float)
    K = values.size
    cap = check_capacity(mu, K)
    labels = list(labels) if labels is not None else [f"$\\lambda_{i + 1}$" for i in range(K)]
    order = np.argsort(values, kind="stable")
    us = np.concatenate([[0.0], values[order]])
    ax = _axes(ax)
    total = 0.0
    for i in range(K):
        mask = int(sum(1 << int(j) for j in order[i:]))
        width = cap[mask]
        lo, hi = us[i], us[i + 1]
        total += (hi - lo) * width
        ax.fill_between([0, width], lo, hi, color="0.8", edgecolor="black", linewidth=0.8)
        if hi - lo > 0.04:
            names = ",".join(labels[j] for j in sorted(order[i:]))
            ax.text(
                width + 0.02,
                (lo + hi) / 2,
                f"$\\mu$({{{names}}}) = {width:.2f}",
                va="center",
                fontsize=TEXT_PT,
            )
    ax.set_xlim(0, 1.75)  # room for the labels right of the layers
    ax.set_xticks(np.linspace(0, 1, 6))  # a measure lies in [0, 1]
    ax.set_ylim(0, max(1.0, us[-1]) * 1.02)
    ax.set_xlabel(r"measure of the labels with correctness $\geq t$")
    ax.set_ylabel(r"threshold $t$ on the correctness $u$")
    ax.set_title(f"Choquet integral = grey area = {total:.3f}", fontsize=TEXT_PT)
    return ax


def plot_error_count_losses(K: int, families: Mapping[str, Sequence[Any]], *, ax=None):
    """Loss of a binary prediction against its number of wrong labels.

    Parameters
    ----------
    K : int
        Number of labels.
    families : mapping
        ``{'binomial': [1, 2, ...], 'polynomial': [1.0, 2.0, ...]}``.

    Hamming (a straight line) and subset 0/1 (a step at one error) bound every
    member of both families.
    """
    ax = _axes(ax)
    m = np.arange(K + 1)
    ax.plot(m, m / K, color="black", linewidth=2.5, label="Hamming")
    ax.step(
        m,
        (m > 0).astype(float),
        where="post",
        color="black",
        linewidth=2.5,
        linestyle=(0, (1, 1)),
        label="subset 0/1",
    )
    i = 0
    for family, params in families.items():
        for prm in params:
            ls, mk, grey = _style(i)
            name = f"binomial k={prm}" if family == "binomial" else f"polynomial α={prm:g}"
            ax.plot(
                m,
                error_count_losses(family, prm, K),
                linestyle=ls,
                marker=mk,
                color=grey,
                markersize=4,
                linewidth=1.2,
                label=name,
            )
            i += 1
    ax.set_xlabel(f"number of wrong labels m (K = {K})")
    ax.set_ylabel("loss of the prediction")
    ax.set_ylim(-0.02, 1.02)
    # below the axes: eight entries of 10-pt text would cover the curves
    ax.legend(
        fontsize=TEXT_PT, frameon=False, ncol=2, loc="upper center", bbox_to_anchor=(0.5, -0.2)
    )
    return ax


def plot_loss_profiles(
    params: Sequence[Any], profiles: Mapping[str, Sequence[float]], *, xlabel: str = "k", ax=None
):
    """Performance profiles: mean loss against the family parameter, one line per learner."""
    ax = _axes(ax)
    for i, (name, vals) in enumerate(profiles.items()):
        ls, mk, grey = _style(i)
        ax.plot(list(params), list(vals), linestyle=ls, marker=mk, color=grey, label=name)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("mean loss")
    ax.legend(frameon=False)
    return ax
