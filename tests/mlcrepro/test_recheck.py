"""``mlcrepro check ID --recompute``: the cells behind a row, rerun; the row judged again;
and every Reproduce page's check of its ledgers, with the raw data absent."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from mlcbook.datasets import fetch
from mlcrepro.check import rows_of
from mlcrepro.experiment import Experiment
from mlcrepro.ledger import load_ledgers
from mlcrepro.papers import FOLDERS, LEDGERS, PAPERS, build_ledgers, cells_behind, experiments
from mlcrepro.rebuild_report import ledger_change
from mlcrepro.recheck import recheck, splice
from mlcrepro.runner import cells


def _exp(**kw) -> Experiment:
    return Experiment("toy", load=pd.DataFrame, **kw)


def test_splice_puts_a_cells_rows_in_place_of_the_committed_ones():
    committed = pd.DataFrame(
        {"dataset": ["a", "a", "b"], "fold": [0, 1, 0], "loss": [0.1, 0.2, 0.3]}
    )
    new = pd.DataFrame({"dataset": ["a"], "fold": [1], "loss": [0.25], "extra": [9]})
    got = splice(committed, [new], _exp())
    assert got["loss"].tolist() == [0.1, 0.25, 0.3]  # only the matching row moved
    assert list(got.columns) == list(committed.columns)  # a cell's extra column ignored
    assert got.dtypes.equals(committed.dtypes)
    with pytest.raises(ValueError, match="no committed row with the same keys"):
        splice(committed, [new.assign(fold=[7])], _exp())
    with pytest.raises(ValueError, match="do not tell its rows apart"):
        splice(committed.assign(fold=0), [new], _exp())


def test_a_float_key_is_named():
    committed = pd.DataFrame({"alpha": [0.1, 0.2], "score": [1.0, 2.0]})
    new = pd.DataFrame({"alpha": [0.2], "score": [2.5]})
    assert splice(committed, [new], _exp(keys=("alpha",)))["score"].tolist() == [1.0, 2.5]


#: the raw data absent: an empty data home, no mirror of the datasets or of the authors'
#: material (Hüllermeier et al.'s released files, Wu & Zhou's LIMO code), downloads off
_NO_RAW_DATA = {
    "MLCBOOK_DATA_MIRROR": "",
    "MLCBOOK_REFERENCE_MIRROR": "",
    "MLCBOOK_DATA_DOWNLOAD": "0",
}


def _without_raw_data(monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    (home / "data").mkdir()
    (home / "limo").mkdir()
    monkeypatch.setenv("MLCBOOK_DATA", str(home / "data"))
    monkeypatch.setenv("MLCBOOK_WU_ZHOU_REFERENCE", str(home / "limo"))  # holds no limo/
    for name, value in _NO_RAW_DATA.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("MLCBOOK_RECOMPUTE", raising=False)
    monkeypatch.setattr(fetch, "bundle_dir", lambda: None)  # nor the data bundle
    # each paper's evidence computed here, under these conditions, not an earlier test's
    for folder in FOLDERS:
        monkeypatch.setattr(folder, "evidence", folder.evidence.__wrapped__)


def test_every_pages_check_runs_without_raw_data_and_every_row_names_cells_that_exist(
    tmp_path, monkeypatch
):
    # What every Reproduce page checks -- each paper's evidence() and ledgers(evidence),
    # every status derived again, the ledgers compared with the saved ones -- with the raw
    # data absent: the evidence reads the committed tables and the library only
    _without_raw_data(monkeypatch, tmp_path)
    built = {}
    for p in PAPERS:
        if p.ledgers:
            built.update(build_ledgers(p.key))
    assert list(built) == list(LEDGERS)
    saved = load_ledgers()
    for name, ledger in built.items():
        ledger.check()
        ledger.check_against_committed()
        # the rebuild's report, comparing status, ours, cause and note, sees no change
        # either, on the real ledgers' columns (integers with missing values among them)
        change = ledger_change(name, ledger, saved)
        assert (change.problem, change.changes, change.rows) == ("", (), len(ledger.entries))
    # nothing was fetched into the empty data home
    assert [p for p in tmp_path.rglob("*") if p.is_file()] == []
    # each selector of each row must select at least one cell of its table's specs
    exps = {e.name: e for e in experiments()}
    ledgers = load_ledgers()
    ledgers["row"] = ledgers.groupby("chapter", sort=False).cumcount() + 1
    # what each row is about is not saved: it is read from the ledgers built afresh
    about = {ch: [e.about for e in built[ch].entries] for ch in ledgers["chapter"].unique()}
    with_tables = 0
    for _, row in ledgers.iterrows():
        for sel in cells_behind({**row, "about": about[row["chapter"]][row["row"] - 1]}):
            n = sum(sel.selects(c) for s in exps[sel.table].specs() for c in cells(s))
            assert n > 0, (row["claim_ids"], sel)
            with_tables += 1
    # the learner study, Fig. 4, the blended grids and LIMO's tables: most rows rest on
    # cells; the measures, losses and datasets ledgers on none
    assert with_tables > 500


@pytest.mark.recompute
def test_a_table_b3_row_judged_again_from_its_ten_recomputed_cells():
    # ML-kNN on medical, Hamming loss: the mean over the ten splits of limo_benchmark
    (row,) = [r for _, r in rows_of("WZ192").iterrows()]
    assert cells_behind(row)[0].where == {"dataset": "medical", "method": "ML-kNN"}
    (r,) = recheck("WZ192", n_jobs=2)
    assert (r.ledger, r.tables, r.cells) == ("limo", ("limo_benchmark",), 10)
    # ML-kNN's predictions are integers of a deterministic algorithm: the mean is equal
    # to the printed digits of the row (the row prints five decimals)
    assert r.ours_after == r.ours_before == row["ours"]
    assert r.status_after == r.status_before == row["status"]
