"""Table 2's statistics of the benchmark files, and the empty prediction's Hamming loss."""

import numpy as np
import pandas as pd
import pytest

from mlcbook import metrics as M
from mlcbook.datasets import dataset_statistics
from mlcrepro.huellermeier2022 import evidence_datasets as D


def test_empty_prediction_hamming_is_the_density():
    rng = np.random.default_rng(2)
    Ys = {
        "a": (rng.random((40, 10)) < 0.05).astype(int),
        "b": (rng.random((40, 4)) < 0.3).astype(int),
        "c": (rng.random((40, 20)) < 0.02).astype(int),
    }
    density = D.empty_prediction_hamming(dataset_statistics(Ys))
    for name, Y in Ys.items():
        # the Hamming loss of predicting no label, by the library's definition
        assert density[name] == pytest.approx(M.hamming_loss(Y, np.zeros_like(Y)), abs=1e-12)
    with pytest.raises(ValueError, match="cardinality"):
        D.empty_prediction_hamming(dataset_statistics(Ys).drop(columns="cardinality"))
    with pytest.raises(TypeError):
        D.empty_prediction_hamming({"a": 1})


def test_the_evidence_reads_the_committed_statistics_and_refuses_bad_ones():
    ev = D.datasets_evidence()
    assert ev.medical_file_rows == 1954  # the distributed file: 978 + 976 reports
    assert ev.stats.loc["flags", "labels"] == 7 and ev.stats.loc["flags-12", "labels"] == 12
    assert list(ev.density.index) == D.table2_keys()
    assert "medical-cmc" not in ev.stats.index  # the whole file only gives its rows
    with pytest.raises(ValueError, match="medical-cmc"):
        D.datasets_evidence(ev.stats)
    with pytest.raises(ValueError, match="lacks the rows or columns"):
        D.DatasetsEvidence(ev.stats.drop(index="flags"), 1954, ev.density)
    with pytest.raises(TypeError, match="medical_file_rows must be an int"):
        D.DatasetsEvidence(ev.stats, 1954.0, ev.density)
    assert isinstance(ev.stats, pd.DataFrame)
