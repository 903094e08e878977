"""The committed tables of the paper, each by name with the configuration that keys it."""

import json

import pytest

from mlcrepro._paths import results_dir
from mlcrepro.huellermeier2022 import experiments as X
from mlcrepro.huellermeier2022.knn_fig4 import fig4_config
from mlcrepro.results import config_hash, load_or_compute


def test_every_table_is_keyed_by_its_experiments_configuration():
    # the key each committed table's provenance records (written when it was computed);
    # the learner study's key is checked in test_authors_study (its configuration hashes
    # every file of the authors' folds: half a minute)
    for name in [e.name for e in X.EXPERIMENTS][1:]:
        saved = json.loads((results_dir() / f"{name}.json").read_text(encoding="utf-8"))
        assert config_hash(X.specification(name)) == saved["config_hash"], name
    for tb in X.TIE_BREAKS:
        assert X.specification(X.knn_table_name(tb)) == fig4_config(list(X.KNN_DATASETS), tb)


def test_each_table_loads_as_committed_without_recomputing():
    def refuse():
        raise AssertionError("a committed table is stale")

    for name in ("knn_fig4", "knn_consensus"):
        expected = load_or_compute(name, refuse, X.specification(name))
        assert X.load(name).equals(expected)
    assert list(X.knn_tables()) == list(X.TIE_BREAKS)
    assert list(X.knn_consensus()["dataset"]) == list(X.KNN_DATASETS)


def test_unknown_names_are_refused():
    with pytest.raises(ValueError, match="name must be one of"):
        X.load("knn_fig5")
    with pytest.raises(ValueError, match="tie_break must be one of"):
        X.knn_table_name("random")
