"""Figures of the papers (one file per family, re-exported here)."""

from .losses import plot_choquet_staircase, plot_error_count_losses, plot_loss_profiles

__all__ = [
    "plot_choquet_staircase",
    "plot_error_count_losses",
    "plot_loss_profiles",
]
from .heatmaps import plot_difference_heatmap, plot_difference_heatmaps, row_differences

__all__ += ["plot_difference_heatmap", "plot_difference_heatmaps", "row_differences"]
from .blended import plot_blended_heatmaps, plot_blended_limits

__all__ += ["plot_blended_heatmaps", "plot_blended_limits"]
from .profiles import plot_loss_curves, plot_ratio_curves, plot_ratio_grid, ratio_ticks

__all__ += ["plot_loss_curves", "plot_ratio_curves", "plot_ratio_grid", "ratio_ticks"]
from .margins import (
    plot_average_ranks,
    plot_limo_synthetic,
    plot_margins,
    plot_ours_vs_paper,
    plot_relative_performance,
)

__all__ += [
    "plot_average_ranks",
    "plot_limo_synthetic",
    "plot_margins",
    "plot_ours_vs_paper",
    "plot_relative_performance",
]
