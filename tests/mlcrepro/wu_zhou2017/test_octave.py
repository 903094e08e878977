"""The authors' LIMO code under Octave: the demo.m edits and the committed result tables.

The tables ``limo_authors_octave`` / ``limo_authors_octave_runs`` were made by
``make octave`` (Octave is not needed here): they are read like any committed table,
checked against their specification (the pinned sha256 of the authors' files, the
edits, the seeding), and against properties the authors' measures must satisfy.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from mlcrepro.papers import experiments
from mlcrepro.wu_zhou2017 import authors, octave


def test_patch_demo_changes_only_the_four_lines():
    text = (authors.reference_dir() / "limo" / "demo.m").read_text(encoding="utf-8")
    patched = octave.patch_demo(text, "CAL500")
    before, after = text.splitlines(), patched.splitlines()
    assert len(after) == len(before) + 1  # one line inserted: the record writer
    changed = [(a, b) for a, b in zip(before, after[: len(before)]) if a != b]
    # the first three edits replace lines in place; everything before the insertion
    # point is unchanged apart from them
    assert [b.strip() for _, b in changed][:3] == [
        "addpath('measure');",
        "addpath('data');",
        "data_sets={'CAL500'};",
    ]
    k = after.index("mlcbook_write_record(data_set, record, MLCBOOK_OUT);")
    assert after[k - 1].strip() == "record_summary=[record_mean;record_std];"
    assert after[:k] + after[k + 1 :] == [
        line.replace("'.\\measure'", "'measure'")
        .replace("'.\\data'", "'data'")
        .replace("data_sets={'emotions','CAL500','enron'};", "data_sets={'CAL500'};")
        for line in before
    ]


def test_patch_demo_refuses_another_demo():
    with pytest.raises(ValueError, match="expected the line"):
        octave.patch_demo("disp(1)\n", "enron")
    with pytest.raises(ValueError, match="dataset must be one of"):
        octave.patch_demo("", "yeast")


@pytest.fixture(scope="module")
def tables():
    return octave.authors_octave_tables()


def test_committed_tables_hold_whole_runs(tables):
    per_split, runs = tables
    names = octave.authors_octave_config(list(zip(runs.seed, runs.dataset)))["runs"]
    assert names == sorted(f"seed{s}/{d}" for s, d in zip(runs.seed, runs.dataset))
    counts = per_split.groupby(["seed", "dataset"]).size()
    assert set(counts) == {10 * len(octave.MEASURES)}  # 10 splits x 11 measures per run
    assert sorted(counts.index) == sorted(zip(runs.seed, runs.dataset))
    assert set(per_split.measure) == set(octave.MEASURES)
    assert (runs.cpu_seconds > 0).all() and runs.octave.astype(str).str.match(r"^\d+\.\d+").all()


def test_authors_measures_obey_their_definitions(tables):
    per_split, _ = tables
    wide = per_split.pivot_table(
        index=["seed", "dataset", "split"], columns="measure", values="value"
    )
    unit = [m for m in octave.MEASURES if m != "coverage"]
    assert ((wide[unit] >= 0) & (wide[unit] <= 1)).all().all()
    K = {"emotions": 6, "CAL500": 174, "enron": 53}
    cov_max = wide.index.get_level_values("dataset").map(K) - 1
    assert ((wide.coverage >= 0) & (wide.coverage <= np.asarray(cov_max))).all()
    # Ranking_loss.m counts a tied (relevant, irrelevant) pair as an error, Instance_AUC.m
    # (fast_AUC) ranks ties in sort order; over the same instances (every row has a
    # relevant and an irrelevant label), ranking loss = 1 - instance AUC where no
    # scores tie.  Scores x W tie only on a row of zero features (enron has 8): there
    # the ranking loss is 1 and the AUC at least 0, so each such test row adds at most
    # 1 / n_test to the sum.
    excess = wide.ranking_loss + wide.instance_auc - 1.0
    for (_, dataset, split), value in excess.items():
        data = authors.load_authors_dataset(dataset)
        test = authors.authors_splits(data.randperms)[split][1]
        zero_rows = int((np.abs(data.X[test]).sum(axis=1) == 0).sum())
        # rounding of the two means: 1e-12
        assert -1e-12 <= value <= zero_rows / len(test) + 1e-12, (dataset, split, value)


def test_the_specification_pins_the_mirrors_files(tables):
    per_split, runs = tables
    config = octave.authors_octave_config(list(zip(runs.seed, runs.dataset)))
    assert config["sha256"] == authors.reference_sha256()  # verifies each file as well
    assert isinstance(per_split, pd.DataFrame)


def test_the_time_outside_the_cells_is_the_runs_own(tables, tmp_path, monkeypatch):
    """The rebuild's report names the Octave runs' CPU and wall seconds beside
    limo_authors_octave: summed from each committed run's record, here written back
    from the committed runs table into an empty cache."""
    _, runs = tables
    monkeypatch.setenv("MLCBOOK_CACHE_DIR", str(tmp_path))
    for row in runs.to_dict("records"):
        folder = octave.run_dir(int(row["seed"]))
        folder.mkdir(parents=True, exist_ok=True)
        record = {k: (v.item() if hasattr(v, "item") else v) for k, v in row.items()}
        (folder / f"{row['dataset']}.json").write_text(json.dumps(record), encoding="utf-8")
    what, cpu, wall = octave.authors_octave_seconds()
    assert what.startswith(f"{len(runs)} runs of the authors' demo.m under GNU Octave")
    # the same sums of the same numbers, in the runs' order
    assert cpu == float(runs["cpu_seconds"].sum()) and wall == float(runs["wall_seconds"].sum())
    exp = next(e for e in experiments("wu_zhou2017") if e.name == octave.TABLE)
    assert exp.outside is octave.authors_octave_seconds
