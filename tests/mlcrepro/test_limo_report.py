"""The LIMO chapter's table and ledger helpers (mlcrepro.wu_zhou2017.report)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from mlcrepro.wu_zhou2017 import report as R
from mlcrepro._paths import results_dir
from mlcrepro.ledger import Ledger, tested
from mlcbook.metrics import auc, coverage, one_error


def test_relative_maps_best_to_one_and_worst_to_zero():
    t = pd.DataFrame({"a": [0.1, 0.9], "b": [0.3, 0.5], "c": [0.2, 0.7]},
                     index=["ranking_loss", "macro_auc"])
    r = R.relative(t)
    # ranking loss: lower is better -> a (0.1) is 1, b (0.3) is 0, c halfway
    assert list(r.loc["ranking_loss"]) == pytest.approx([1.0, 0.0, 0.5], abs=1e-12)
    assert list(r.loc["macro_auc"]) == pytest.approx([1.0, 0.0, 0.5], abs=1e-12)


def test_paper_tables_parse_every_printed_cell():
    pairs1, ids1 = R.paper_pairs("Table B.1")
    p1 = R.paper_table(pairs1, R.VARIANTS)
    assert p1["absolute"].shape == (7, 3) and p1["relative"].shape == (7, 3)
    assert p1["absolute"].loc["coverage", "LIMO"] == 1.556  # as printed in Table B.1
    assert ids1[("coverage", "LIMO")] == "WZ074" and len(ids1) == 21
    pairs2, ids2 = R.paper_pairs("Table B.2")
    p2 = R.paper_table(pairs2, R.B2_COLUMNS)
    assert p2["relative"].loc["macro_f1", "LIMO-t"] == 1.0
    assert len(ids2) == 24 and len(set(ids2.values())) == 24
    b3 = R.paper_b3()
    assert len(b3) == 5 * 6 * 11 and b3["id"].is_unique
    assert not b3["mean"].str.startswith(".").any()
    first = b3.iloc[0]  # Table B.3's first cell: .145±.003(5)
    assert (first["mean"], first["std"], first["rank"]) == ("0.145", "0.003", 5)
    with pytest.raises(ValueError, match="Table B.1"):
        R.paper_pairs("Table B.3")


def test_table2_as_printed():
    pattern, ids = R.paper_table2()
    assert len(pattern) == 11 and pattern["micro_auc"] == "✗✗✓"
    assert pattern["hamming_loss"] == "✓✓✓" and ids["ranking_loss"] == ["WZ015", "WZ016", "WZ017"]


def test_cause_only_where_the_rule_says_differs():
    c = tested("x", ref="y")
    assert R.cause_if_differs("0.27", 0.2704, c) is None  # within half a unit
    assert R.cause_if_differs("0.27", 0.28, c) is c
    assert R.cause_if_differs("0.27", 0.28, c, spread="0.011") is None  # within spread
    assert R.cause_if_differs("0.27", 0.29, c, spread="0.011") is c


def test_table1_auc_agrees_with_metrics_without_ties():
    rng = np.random.default_rng(3)
    Y = (rng.random((30, 5)) < 0.4).astype(int)
    Y[:, 0], Y[0], Y[1] = 1, 1, 0  # every label and row has both values where needed
    Y[2, 0] = 0
    F = rng.random(Y.shape)  # continuous: no ties
    for avg in ("macro", "instance", "micro"):
        # the same pair count by two methods; 1e-12 absorbs summation order
        assert R._auc_ge(Y, F, avg) == pytest.approx(auc(Y, F, average=avg), abs=1e-12)


def test_constant_predictor_under_both_tie_readings():
    Y = np.array([[1, 0, 0], [0, 1, 1], [0, 0, 1], [1, 1, 0]])
    c = R.constant_predictor(Y)
    lenient = c.iloc[:, 1]
    assert lenient.loc["one_error"] == 0 and lenient.loc["coverage"] == 0
    assert (lenient.loc[["macro_auc", "instance_auc", "micro_auc"]] == 1).all()
    F = np.ones(Y.shape)
    assert c.loc["one_error", "metrics"] == one_error(Y, F) == 0.5  # first label wins
    assert c.loc["coverage", "metrics"] == coverage(Y, F) == 2  # tied: worst rank
    assert c.loc["micro_auc", "metrics"] == 0.5  # a tie counts one half


def test_average_ranks_by_hand():
    idx = pd.MultiIndex.from_product([["d1", "d2"], R.METHODS])
    vals = pd.DataFrame(0.0, index=idx, columns=R.B3_ORDER)
    vals.loc[("d1", "LIMO"), :] = 1.0  # best on higher-is-better, worst on losses
    vals.loc[("d2", "LIMO"), :] = 1.0
    avg = R.average_ranks(vals)
    assert avg.loc["macro_f1", "LIMO"] == 1.0  # alone at the top on both
    assert avg.loc["hamming_loss", "LIMO"] == 6.0  # alone at the bottom
    assert avg.loc["macro_f1", "BR"] == pytest.approx(4.0)  # five tied: ranks 2..6


def test_b3_rows_cover_every_cell_of_our_datasets():
    bench = pd.read_csv(results_dir() / "limo_benchmark.csv")
    mean = bench.groupby(["dataset", "method"])[R.B3_ORDER].mean()
    led = Ledger("t", "p")
    R.add_b3(led, R.paper_b3(), mean, R.b3_cause(R.make_causes()))
    assert len(led.entries) == 4 * 6 * 11
    led.check()
    assert all(e.cause is not None for e in led.entries if e.status == "differs")
    assert all(e.cause is None for e in led.entries if e.status != "differs")


def test_hypotheses_summary_puts_the_paper_first():
    thr = pd.read_csv(results_dir() / "limo_thresholds.csv")
    s = R.hypotheses_summary(thr, R.paper_b3())
    assert s.index[0] == "paper (Table B.3)"
    assert s.loc["paper (Table B.3)", ("cal500", "LIMO-label")] == 0.126
    fit = R.hypothesis_fit(s)
    gap = (s.loc["code"] - s.iloc[0]).abs().mean()
    assert fit.loc["code"] == pytest.approx(gap, abs=1e-15)
    # the chapter's table: the fit as a last column under the full key ("fit", ""),
    # the paper's row empty there; every other column unchanged
    table = R.with_fit(s)
    assert table.columns[-1] == ("fit", "") and table.columns[:-1].equals(s.columns)
    pd.testing.assert_frame_equal(table.iloc[:, :-1], s)
    assert np.isnan(table.iloc[0, -1])
    pd.testing.assert_series_equal(table.iloc[1:, -1], fit, check_names=False)


def test_synthetic_claims_count_replications():
    syn = pd.read_csv(results_dir() / "limo_synthetic.csv")
    claims = R.synthetic_claims(syn)
    assert len(claims) == 6
    assert all(0 <= hits <= n == syn.replication.nunique() for _, _, hits, n in claims)


def _epochs_frame(values_10, values_30):
    keys = [k for k in R.B3_ORDER if not k.endswith("f1")]
    rows = []
    for e, vals in ((10, values_10), (30, values_30)):
        for m in R.VARIANTS:
            rows.append({"dataset": "bibtex", "method": m, "n_epochs": e,
                         **{k: vals(m, k) for k in keys}})
    return pd.DataFrame(rows)


def test_epochs_comparison_and_cause_follow_the_spread_rule():
    p = R.paper_b3()
    pb = p[p.dataset == "bibtex"].set_index(["method", "measure"])

    def paper_plus(shift):
        return lambda m, k: float(pb.loc[(m, k), "mean"]) + shift * (
            float(pb.loc[(m, k), "std"]) + 0.01)

    cmp = R.epochs_comparison(_epochs_frame(paper_plus(5), paper_plus(0)), p)
    assert len(cmp) == 3 * 8
    assert not cmp["within std, 10"].any() and cmp["within std, 30"].all()
    assert R.passes_cause(cmp).kind == "tested"
    cmp = R.epochs_comparison(_epochs_frame(paper_plus(5), paper_plus(5)), p)
    assert R.passes_cause(cmp).kind == "unknown"


def test_account_check_reads_the_best_hypothesis_off_a_dataset():
    thr = pd.read_csv(results_dir() / "limo_thresholds.csv")
    p = R.paper_b3()
    chk = R.account_check(thr, thr[thr.dataset == "enron"], p, "enron")
    assert len(chk) == 9
    best = R.best_per_variant(R.hypotheses_summary(thr, p))
    for v in R.VARIANTS:  # macro-F1: the overall best hypothesis, all run on enron
        assert chk.loc[("macro-F1", v), "hypothesis"] == best[v][0]
        want = thr[(thr.dataset == "enron") & (thr.method == v)
                   & (thr.hypothesis == best[v][0])].macro_f1.mean()
        assert chk.loc[("macro-F1", v), "account"] == pytest.approx(want, abs=1e-15)
    cause = R.account_cause(chk, "enron")
    n_in = int(chk["account within std"].sum())
    assert (cause.kind == "tested") == (n_in >= 0.75 * 9 and n_in > chk["code within std"].sum())


def test_account_check_counts_the_single_splits_within_the_std():
    """Per cell, the number of splits whose own value lies within the paper's std
    (plus half a printed unit), counted here by a plain loop over the splits."""
    thr = pd.read_csv(results_dir() / "limo_thresholds.csv")
    p = R.paper_b3()
    held = thr[(thr.dataset == "enron") & (thr.replication < 4)]
    chk = R.account_check(thr, held, p, "enron")
    assert (chk["splits"] == 4).all()
    for (measure, v), row in chk.iterrows():
        col = {"macro-F1": "macro_f1", "micro-F1": "micro_f1", "instance-F1": "instance_f1"}
        r = p[(p.dataset == "enron") & (p.method == v) & (p.measure == col[measure])]
        printed = str(r["mean"].iloc[0])
        tol = float(r["std"].iloc[0]) + 0.5 * 10.0 ** -len(printed.split(".")[1])
        for h, name in ((row["hypothesis"], "account"), ("code", "code")):
            hits = 0
            for rep in range(4):
                one = held[(held.replication == rep) & (held.method == v) & (held.hypothesis == h)]
                hits += abs(float(one[col[measure]].iloc[0]) - float(printed)) <= tol
            assert row[f"{name} splits within std"] == hits
    cause = R.account_cause(chk, "enron")
    assert "mean of 4 splits" in cause.text and "single splits within it" in cause.text
    with pytest.raises(ValueError, match="no rows for dataset"):
        R.account_check(thr, held, p, "bibtex")
