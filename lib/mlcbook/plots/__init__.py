"""Figures of the papers (one file per family, re-exported here)."""

from .losses import plot_choquet_staircase, plot_error_count_losses, plot_loss_profiles

__all__ = [
    "plot_choquet_staircase",
    "plot_error_count_losses",
    "plot_loss_profiles",
]
