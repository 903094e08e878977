"""Park & Read's committed grid (``data/results/blended_grid``) against a recomputation
through the runner, and the chapter's ledger rows built on it."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from mlcbook._io import read_csv_exact
from mlcrepro._paths import project_root, results_dir
from mlcrepro.ledger import recheck_statuses
from mlcrepro.park_read2018.grid import run_blended_grid

from mlcrepro.tolerances import BLENDED_ATOL


# ----------------------------------------------------------------- committed grid
@pytest.mark.recompute
@pytest.mark.parametrize("dataset", ["emotions", "yeast"])
def test_committed_grid_recomputes_within_the_measured_spread(dataset):
    """Recompute alpha = 1 (all betas) and compare with the committed grid.

    The penalty is chosen from a discrete grid (exact); the similarities are L-BFGS
    outcomes, compared within ``BLENDED_ATOL`` (measured machine-to-machine spread,
    ``mlcrepro/tolerances.py``); iteration counts are not compared.  Every ledger row of
    the chapter whose number is one of these cells keeps its status.
    """

    csv, meta = results_dir() / "blended_grid.csv", results_dir() / "blended_grid.json"
    assert csv.exists() and meta.exists(), "the grid is committed with the chapter"

    cfg = json.loads(meta.read_text())["config"]
    saved = read_csv_exact(csv)
    saved = saved[(saved["dataset"] == dataset) & (saved["alpha"] == 1.0)].reset_index(drop=True)
    # through the runner, without its cache (the cell is computed afresh)
    new = run_blended_grid([dataset], alphas=(1.0,), betas=tuple(cfg["betas"]),
                           gammas=tuple(cfg["gammas"]), cv=cfg["cv"], max_iter=cfg["max_iter"],
                           tol=cfg["tol"], seed=cfg["seed"], cache_dir=False)
    assert (new["dataset"] == dataset).all()
    np.testing.assert_array_equal(new[["alpha", "beta", "gamma"]], saved[["alpha", "beta", "gamma"]])
    cols = [c for c in saved.columns if c.startswith(("train_", "test_"))]
    np.testing.assert_allclose(new[cols], saved[cols], rtol=0, atol=BLENDED_ATOL)
    ledger = pd.read_csv(project_root() / "book" / "_ledgers" / "blended.csv",
                         keep_default_na=False)
    rows = recheck_statuses(ledger, saved[cols].to_numpy(), new[cols].to_numpy())
    assert (rows["status"] == rows["status_recomputed"]).all(), rows
