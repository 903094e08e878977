"""Table 2's statistics as a committed table (:mod:`mlcrepro.huellermeier2022.dataset_files`):
keyed without reading a file, and its rows against a recomputation from the files."""

import pandas as pd
import pytest

from mlcbook.datasets import load_dataset
from mlcrepro.huellermeier2022 import dataset_files as F
from mlcrepro.huellermeier2022.experiments import dataset_statistics_table
from mlcrepro.huellermeier2022.printed import NAMES
from mlcrepro.results import config_hash
from mlcrepro.runner import table


def test_the_table_holds_table2_flags_12_and_the_medical_file():
    stats = dataset_statistics_table()
    assert list(stats.index) == [*NAMES.values(), "flags-12", "medical-cmc"]
    # medical is the first 978 rows of the file medical-cmc reads whole
    assert stats.loc["medical", "instances"] == 978
    assert stats.loc["medical-cmc", "instances"] == 1954
    # density is cardinality / labels, as the library defines it
    assert (stats["density"] == stats["cardinality"] / stats["labels"]).all()


def test_the_key_is_the_files_recorded_sha256():
    config = F.statistics_config(["emotions", "flags"])
    changed = F.statistics_config(["emotions", "flags-12"])
    assert config_hash(config) != config_hash(changed)
    assert set(config["data"]) == {"emotions", "flags"}
    with pytest.raises(TypeError, match="dataset"):
        F.statistics_cell(3)


@pytest.mark.recompute
def test_committed_rows_match_a_recomputation():
    # flags-12 and the whole medical file (0.03 CPU-s): counts are integers and the
    # ratios of integer sums: equal
    names = ["flags-12", "medical-cmc"]
    fresh = table(F.statistics_spec(names), cache_dir=False)
    saved = dataset_statistics_table().loc[names].reset_index()
    pd.testing.assert_frame_equal(fresh, saved, check_dtype=False, rtol=0, atol=0)
    assert fresh["instances"].iloc[1] == load_dataset("medical-cmc")[1].shape[0]
