"""The thresholding hypotheses of Wu & Zhou's macro-F1 pattern and their experiments.

``mlcrepro.wu_zhou2017.hypotheses`` (the rules) and ``mlcrepro.wu_zhou2017.thresholds``
(the runner specs of the tables ``limo_thresholds``, ``limo_thresholds_bibtex`` and
``limo_epochs``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlcbook._io import read_csv_exact
from mlcbook.learners import column_thresholds
from mlcrepro._paths import results_dir
from mlcrepro.results import config_hash
from mlcrepro.runner import cells
from mlcrepro.tolerances import LIMO_SEED_RANGE
from mlcrepro.wu_zhou2017 import thresholds as lt
from mlcrepro.wu_zhou2017.benchmark import LIMO_VARIANTS
from mlcrepro.wu_zhou2017.hypotheses import (
    BIBTEX_HYPOTHESES,
    BIBTEX_REPLICATIONS,
    HYPOTHESES,
    authors_best_f1_threshold,
)
from mlcrepro.wu_zhou2017.thresholds import epochs_cell, threshold_hypotheses_cell


def _f1_code(tp, fp, fn):
    """compute_f1 of best_f1_threshold.m: 0 when nothing is predicted or relevant."""
    return 0.0 if tp == 0 else 2 * tp / (2 * tp + fp + fn)


def _brute_best_f1(value, truth):
    """Best F1 over every 'predict the top-k' set whose cut does not split a tie."""
    best = 0.0
    for t in np.unique(np.concatenate([value, [np.inf]])):
        p = value >= t
        tp = int((p & truth).sum())
        best = max(best, _f1_code(tp, int((p & ~truth).sum()), int((~p & truth).sum())))
    return best


def _columns(unique):
    return st.integers(2, 30).flatmap(
        lambda n: st.tuples(
            st.lists(st.integers(-40, 40), min_size=n, max_size=n, unique=unique),
            st.lists(st.booleans(), min_size=n, max_size=n),
        )
    )


columns = _columns(unique=True)  # distinct scores, as real-valued LIMO scores are


@settings(max_examples=200, deadline=None)
@given(columns)
def test_authors_cut_reaches_the_brute_force_best_f1(col):
    value, truth = np.array(col[0], float), np.array(col[1])
    thr, f1 = authors_best_f1_threshold(value, truth)
    p = value >= thr
    achieved = _f1_code(int((p & truth).sum()), int((p & ~truth).sum()), int((~p & truth).sum()))
    assert f1 == pytest.approx(achieved, abs=1e-12)  # its reported F1 is its cut's F1
    # exact optimum over all tie-respecting cuts; 1e-12 absorbs float division order
    assert f1 == pytest.approx(_brute_best_f1(value, truth), abs=1e-12)


@settings(max_examples=200, deadline=None)
@given(columns)
def test_our_per_label_cut_reaches_the_authors_f1(col):
    value, truth = np.array(col[0], float), np.array(col[1])
    if not truth.any():
        return  # no positive: both predict nothing (our F1 1 by 0/0, theirs 0)
    t = column_thresholds(value[:, None], truth[:, None].astype(int), "f1")[0]
    p = value > t
    ours = _f1_code(int((p & truth).sum()), int((p & ~truth).sum()), int((~p & truth).sum()))
    # the same optimum by two different searches; 1e-12 absorbs float division order
    assert ours == pytest.approx(authors_best_f1_threshold(value, truth)[1], abs=1e-12)


def test_authors_cut_believes_it_splits_ties():
    """With tied scores best_f1_threshold.m reports an F1 its cut does not reach."""
    thr, f1 = authors_best_f1_threshold([0.0, 0.0], [0, 1])
    assert f1 == 1.0 and thr == 0.0  # predicted: both (>= 0), achieved F1 2/3


def test_authors_cut_without_positives_predicts_nothing():
    thr, f1 = authors_best_f1_threshold([0.3, 0.1, 0.2], [0, 0, 0])
    assert thr == pytest.approx(0.3 + 1e-5) and f1 == 0.0


def test_bad_input_is_refused_before_work():
    with pytest.raises(ValueError, match="value and truth"):
        authors_best_f1_threshold([0.1, 0.2], [1])
    with pytest.raises(ValueError, match="hypotheses"):
        threshold_hypotheses_cell("cal500", 0, hypotheses=["nope"])
    with pytest.raises(ValueError, match="replication"):
        threshold_hypotheses_cell("cal500", -1)


@pytest.mark.slow
def test_code_hypothesis_gives_the_committed_benchmark():
    """Hypothesis 'code' re-fits the committed benchmark's LIMO models on its split."""
    rows = pd.DataFrame(threshold_hypotheses_cell("medical", 3))
    bench = pd.read_csv(results_dir() / "limo_benchmark.csv")
    bench = bench[(bench.dataset == "medical") & (bench.replication == 3)]
    code = rows[rows.hypothesis == "code"].set_index("method")
    for method in ("LIMO-inst", "LIMO-label", "LIMO"):
        committed = bench[bench.method == method].iloc[0]
        # same seeds, same code path: equal up to the CSV's 17 significant digits
        assert code.loc[method, "macro_f1"] == pytest.approx(committed.macro_f1, rel=1e-12)
    # 0/0 = 0 can only lower an average of per-label F1 values
    zero = rows[rows.hypothesis == "code, 0/0=0"].set_index("method")
    assert (zero.macro_f1 <= code.macro_f1 + 1e-15).all()
    assert set(rows.hypothesis) == set(HYPOTHESES)


def test_epochs_cell_refuses_bad_input():
    with pytest.raises(ValueError, match="n_epochs"):
        epochs_cell("medical", 0, 0)
    with pytest.raises(ValueError, match="replication"):
        epochs_cell("medical", -2, 10)


# ------------------------------------------------------------------ the runner specs
def test_specs_cross_the_cells_of_the_committed_tables_in_their_order():
    spec = lt.threshold_hypotheses_spec(("cal500", "medical"), 3)
    assert [(c["dataset"], c["replication"]) for c in cells(spec)] == [
        (d, r) for d in ("cal500", "medical") for r in range(3)
    ]
    assert spec.params["hypotheses"] == list(HYPOTHESES)
    ep = lt.epochs_spec()
    assert [(c["dataset"], c["replication"], c["n_epochs"]) for c in cells(ep)] == [
        ("bibtex", 0, 10),
        ("bibtex", 0, 30),
    ]
    with pytest.raises(ValueError, match="hypotheses"):
        lt.threshold_hypotheses_spec(hypotheses=["nope"])
    with pytest.raises(ValueError, match="replications"):
        lt.threshold_hypotheses_spec(replications=0)
    with pytest.raises(ValueError, match="epochs"):
        lt.epochs_spec({"datasets": ("bibtex",), "replications": 1, "epochs": (0,)})


@pytest.mark.parametrize("name", ["limo_thresholds", "limo_thresholds_bibtex", "limo_epochs"])
def test_configs_are_the_keys_of_the_committed_tables(name):
    """The chapter finds the committed tables only under these keys."""
    import json

    config = {
        "limo_thresholds": lambda: lt.threshold_hypotheses_config(),
        "limo_thresholds_bibtex": lambda: lt.threshold_hypotheses_config(
            ("bibtex",), BIBTEX_REPLICATIONS, BIBTEX_HYPOTHESES
        ),
        "limo_epochs": lambda: lt.epochs_config(),
    }[name]()
    saved = json.loads((results_dir() / f"{name}.json").read_text(encoding="utf-8"))
    assert config_hash(config) == saved["config_hash"]


_F1 = ["macro_f1", "micro_f1", "instance_f1"]


@pytest.mark.recompute
def test_committed_limo_thresholds_recompute(tmp_path):
    """Medical, replication 0, every hypothesis, through the runner, against the
    committed ``limo_thresholds``.  LIMO is SGD: the F-measures are compared within
    the per-measure seed range ``LIMO_SEED_RANGE`` (``mlcrepro/tolerances.py``; a change
    of machine must not move a result more than a change of seed does)."""

    saved = read_csv_exact(results_dir() / "limo_thresholds.csv")
    saved = saved[(saved["dataset"] == "medical") & (saved["replication"] == 0)]
    saved = saved.reset_index(drop=True)
    assert len(saved) == 3 * len(HYPOTHESES)  # the slice compared is the whole cell
    new = lt.threshold_hypotheses_table(("medical",), 1, cache_dir=tmp_path)
    keys = ["dataset", "replication", "method", "hypothesis"]
    pd.testing.assert_frame_equal(new[keys], saved[keys], check_dtype=False)
    for m in _F1:
        np.testing.assert_allclose(new[m], saved[m], rtol=0, atol=LIMO_SEED_RANGE[m])


@pytest.mark.recompute
def test_committed_limo_epochs_recompute():
    """``limo_epochs``'s cell, refitted where a committed table holds its answer.

    With ten passes the cell computes what ``limo_benchmark`` computed for the same
    split (the same code and seeds, the authors' T = 10).  So the committed bibtex
    10-pass rows must be the benchmark's, exactly; and the cell run afresh on medical's
    replication 2 (0.4 CPU-s, where bibtex's takes about 40 and its 30-pass cell three
    times that; the cold rebuild refits those) must give medical's committed benchmark
    rows to 1e-12, which absorbs summation order and the CSV's 17 digits.
    """
    saved = read_csv_exact(results_dir() / "limo_epochs.csv")
    assert len(saved) == 6  # 3 variants x (10, 30) passes
    bench = read_csv_exact(results_dir() / "limo_benchmark.csv")
    keys = ["dataset", "replication", "method"]
    measures = [c for c in saved.columns if c not in (*keys, "n_epochs")]
    assert len(measures) == 11

    def benchmark_rows(dataset, replication, methods):
        b = bench[(bench["dataset"] == dataset) & (bench["replication"] == replication)]
        return b.set_index("method").loc[list(methods)].reset_index()[[*keys, *measures]]

    ten = saved[saved["n_epochs"] == 10].reset_index(drop=True)
    assert ten["method"].tolist() == list(LIMO_VARIANTS)
    pd.testing.assert_frame_equal(
        ten[[*keys, *measures]], benchmark_rows("bibtex", 0, LIMO_VARIANTS), check_dtype=False
    )
    new = pd.DataFrame(epochs_cell("medical", 2, 10))
    ref = benchmark_rows("medical", 2, new["method"])
    pd.testing.assert_frame_equal(new[keys], ref[keys], check_dtype=False)
    np.testing.assert_allclose(new[measures], ref[measures], rtol=0, atol=1e-12)
