"""LIMO with the released code's sampling on the benchmark's splits (``limo_benchmark_released``)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from mlcbook._io import read_csv_exact
from mlcrepro._paths import results_dir
from mlcrepro.wu_zhou2017 import printed as P
from mlcrepro.wu_zhou2017.names import PAPER_COLUMN
from mlcrepro.wu_zhou2017.benchmark import LIMO_VARIANTS
from mlcrepro.wu_zhou2017.benchmark_sampling import (
    sampling_cell,
    sampling_comparison,
    sampling_config,
)

from mlcrepro.tolerances import LIMO_SEED_RANGE


@pytest.mark.recompute
def test_committed_cells_recompute_within_the_seed_range():
    """Medical, replication 0, the three variants, against the committed rows: SGD, so
    within the per-measure seed range ``LIMO_SEED_RANGE`` (a change of machine must not
    move a result more than a change of seed does)."""
    table = read_csv_exact(results_dir() / "limo_benchmark_released.csv")
    for method in LIMO_VARIANTS:
        saved = table[(table["dataset"] == "medical") & (table["replication"] == 0)
                      & (table["method"] == method)]
        assert len(saved) == 1, method
        new = sampling_cell("medical", 0, method, eta=0.01, n_epochs=10)
        for m in LIMO_SEED_RANGE:
            np.testing.assert_allclose(new[m].to_numpy(), saved[m].to_numpy(), rtol=0,
                                       atol=LIMO_SEED_RANGE[m], err_msg=f"{method} {m}")


def test_the_committed_table_covers_the_benchmark():
    table = read_csv_exact(results_dir() / "limo_benchmark_released.csv")
    config = sampling_config()
    for dataset, n in config["replications"].items():
        part = table[table["dataset"] == dataset]
        assert sorted(set(part["replication"])) == list(range(n)), dataset
        assert part.groupby("replication")["method"].apply(sorted).map(tuple).nunique() == 1
        assert set(part["method"]) == set(LIMO_VARIANTS)
    assert "released code" in config["limo"]["sampling"]


def test_comparison_counts_the_paper_s_cells_by_the_spread_rule():
    """Built from Table B.3 itself: a reading at the paper's means is within on every
    cell, one far from them on none."""
    paper = P.paper_b3()
    cells = paper[(paper["dataset"] == "CAL500") & (paper["method"] == "LIMO")]
    at_paper = {m: float(v) for m, v in zip(cells["measure"], cells["mean"])}
    row = {"dataset": "cal500", "replication": 0, "method": "LIMO"}
    good = pd.DataFrame([{**row, **at_paper}])
    bad = pd.DataFrame([{**row, **{m: v + 10.0 for m, v in at_paper.items()}}])
    out = sampling_comparison(good, bad)
    assert out.to_dict("records") == [{"dataset": "CAL500", "method": "LIMO",
                                       "measures": len(cells), "algorithm1": len(cells),
                                       "released_code": 0}]
    assert len(cells) == len(PAPER_COLUMN)


def test_an_unknown_variant_is_refused_before_any_work():
    with pytest.raises(ValueError, match="method must be one of"):
        sampling_cell("medical", 0, "BR", eta=0.01, n_epochs=10)
