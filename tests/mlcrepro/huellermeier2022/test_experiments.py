"""The committed tables of the paper, each by name with the configuration that keys it."""

import json
import os
import shutil
import subprocess
import sys

import pytest

from mlcrepro._paths import results_dir
from mlcrepro.huellermeier2022 import experiments as X
from mlcrepro.huellermeier2022.knn_fig4 import fig4_config
from mlcrepro.results import StaleResultError, canonical, config_hash, load_or_compute


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


_NO_RAW_DATA = """
import sys
for m in ("mlrl", "mlrl.boosting", "mlrl.common"):
    sys.modules[m] = None  # BOOMER cannot be imported: no learner of it can be built
from mlcrepro.huellermeier2022 import authors_study as A
from mlcrepro.huellermeier2022.experiments import dependence_table
t = dependence_table()
assert len(t) > 0
# nothing read the datasets' layout or built a learner to check the key
assert A.study_layout.cache_info().currsize == 0 and A.members.cache_info().currsize == 0
assert A.study_data.cache_info().currsize == 0
print("read", len(t))
"""


def test_the_committed_study_is_checked_without_raw_data(tmp_path):
    """The key of the committed study is checked against its provenance: no data file,
    no reference file and no learner is needed (an empty data home, no mirror, no
    download, no BOOMER)."""
    env = {
        **os.environ,
        "MLCBOOK_DATA": str(tmp_path),
        "MLCBOOK_DATA_MIRROR": "",
        "MLCBOOK_REFERENCE_MIRROR": "",
        "MLCBOOK_DATA_DOWNLOAD": "0",
    }
    env.pop("MLCBOOK_RECOMPUTE", None)
    res = subprocess.run(
        [sys.executable, "-c", _NO_RAW_DATA], capture_output=True, text=True, env=env, timeout=300
    )
    assert res.returncode == 0, res.stderr
    assert res.stdout.startswith("read ") and list(tmp_path.iterdir()) == []


def test_an_edited_record_of_how_the_study_ran_is_refused(tmp_path, monkeypatch):
    """The recorded learners' configurations enter the key: edited, the provenance no
    longer hashes to its key and the table is stale; an entry derived from the
    specification (the alphas) is compared with the specification, not with the record."""
    name = X.DEPENDENCE_TABLE
    for ext in ("csv", "json"):
        shutil.copyfile(results_dir() / f"{name}.{ext}", tmp_path / f"{name}.{ext}")
    monkeypatch.setenv("MLCBOOK_RESULTS_DIR", str(tmp_path))
    meta = json.loads((tmp_path / f"{name}.json").read_text(encoding="utf-8"))
    assert canonical(X.specification(name)) == meta["config"]  # read back from the record
    meta["config"]["alphas"][0] = 2.0  # the record is not what is compared here
    (tmp_path / f"{name}.json").write_text(json.dumps(meta), encoding="utf-8")
    assert config_hash(X.specification(name)) == meta["config_hash"]
    meta["config"]["alphas"][0] = 1.0
    meta["config"]["learners"]["flags"]["BR-J48"][0][0][0] = "BR-J48-edited"
    (tmp_path / f"{name}.json").write_text(json.dumps(meta), encoding="utf-8")
    with pytest.raises(StaleResultError, match="another configuration"):
        X.load(name)
