"""The long experiments of the book, all through one runner.

* :mod:`~mlcbook.experiments.runner` — the generic core: a declarative
  :class:`~mlcbook.experiments.runner.Spec` (datasets x methods x splits x
  parameters) crossed into cells, computed in parallel through joblib, cached in one
  format keyed by the cell's specification, resumable, gathered into a tidy table.
* :mod:`~mlcbook.experiments.study` — Hüllermeier et al. (2022) Sec. 5: paired
  cross-validation of the learners, loss profiles (Figs 1-3).
* :mod:`~mlcbook.experiments.authors_study` — the same study as the authors ran it:
  their folds, MEKA/J48, CLUS and BOOMER at the paper's configurations.
* :mod:`~mlcbook.experiments.knn_fig4` — Hüllermeier et al. (2022) Sec. 6: the
  nearest-neighbour loss minimiser under every surrogate and target loss (Fig. 4).
* :mod:`~mlcbook.experiments.blended_grid` — Park & Read (2018) Sec. 4: the
  alpha x beta grid of the blended linear model.
* :mod:`~mlcbook.experiments.blended_readings` — Park & Read (2018) Sec. 4 under two
  readings of their training procedure; the fixed-penalty table; the split check.
* :mod:`~mlcbook.experiments.limo` — Wu & Zhou (2017) Sec. 5: LIMO on synthetic and
  benchmark data.
* :mod:`~mlcbook.experiments.limo_thresholds` — Wu & Zhou (2017) Table B.3: the
  thresholding hypotheses of the F1 numbers, and LIMO's number of passes.

Committed tables are read through :func:`mlcbook.results.load_or_compute` with the
configuration each submodule's ``*_config`` function returns.  The names of the
Sec. 5 study are re-exported here (``from mlcbook.experiments import run_study``).
"""

from .runner import Cell, Spec, cells, run, table
from .study import (
    ALPHAS,
    DATASETS,
    STUDY_LEARNERS,
    cross_val_predictions,
    cv_folds,
    dataset_checksum,
    evaluate_predictions,
    loss_ratios,
    pooled_profiles,
    run_study,
    study_config,
)

__all__ = [
    "ALPHAS",
    "Cell",
    "DATASETS",
    "STUDY_LEARNERS",
    "Spec",
    "cells",
    "cross_val_predictions",
    "cv_folds",
    "dataset_checksum",
    "evaluate_predictions",
    "loss_ratios",
    "pooled_profiles",
    "run",
    "run_study",
    "study_config",
    "table",
]
