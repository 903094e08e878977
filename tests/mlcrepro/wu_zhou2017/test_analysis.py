"""What the evidence computes from the tables (mlcrepro.wu_zhou2017.analysis)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from mlcrepro._paths import results_dir
from mlcrepro.wu_zhou2017 import analysis as A
from mlcrepro.wu_zhou2017 import causes as C
from mlcrepro.wu_zhou2017 import printed as P
from mlcbook.metrics import auc, coverage, one_error


def test_relative_maps_best_to_one_and_worst_to_zero():
    t = pd.DataFrame({"a": [0.1, 0.9], "b": [0.3, 0.5], "c": [0.2, 0.7]},
                     index=["ranking_loss", "macro_auc"])
    r = A.relative(t)
    # ranking loss: lower is better -> a (0.1) is 1, b (0.3) is 0, c halfway
    assert list(r.loc["ranking_loss"]) == pytest.approx([1.0, 0.0, 0.5], abs=1e-12)
    assert list(r.loc["macro_auc"]) == pytest.approx([1.0, 0.0, 0.5], abs=1e-12)


def test_table1_auc_agrees_with_metrics_without_ties():
    rng = np.random.default_rng(3)
    Y = (rng.random((30, 5)) < 0.4).astype(int)
    Y[:, 0], Y[0], Y[1] = 1, 1, 0  # every label and row has both values where needed
    Y[2, 0] = 0
    F = rng.random(Y.shape)  # continuous: no ties
    for avg in ("macro", "instance", "micro"):
        # the same pair count by two methods; 1e-12 absorbs summation order
        assert A._auc_ge(Y, F, avg) == pytest.approx(auc(Y, F, average=avg), abs=1e-12)


def test_constant_predictor_under_both_tie_readings():
    Y = np.array([[1, 0, 0], [0, 1, 1], [0, 0, 1], [1, 1, 0]])
    c = A.constant_predictor(Y)
    lenient = c.iloc[:, 1]
    assert lenient.loc["one_error"] == 0 and lenient.loc["coverage"] == 0
    assert (lenient.loc[["macro_auc", "instance_auc", "micro_auc"]] == 1).all()
    F = np.ones(Y.shape)
    assert c.loc["one_error", "metrics"] == one_error(Y, F) == 0.5  # first label wins
    assert c.loc["coverage", "metrics"] == coverage(Y, F) == 2  # tied: worst rank
    assert c.loc["micro_auc", "metrics"] == 0.5  # a tie counts one half


def test_average_ranks_by_hand():
    idx = pd.MultiIndex.from_product([["d1", "d2"], P.METHODS])
    vals = pd.DataFrame(0.0, index=idx, columns=P.B3_ORDER)
    vals.loc[("d1", "LIMO"), :] = 1.0  # best on higher-is-better, worst on losses
    vals.loc[("d2", "LIMO"), :] = 1.0
    avg = A.average_ranks(vals)
    assert avg.loc["macro_f1", "LIMO"] == 1.0  # alone at the top on both
    assert avg.loc["hamming_loss", "LIMO"] == 6.0  # alone at the bottom
    assert avg.loc["macro_f1", "BR"] == pytest.approx(4.0)  # five tied: ranks 2..6


def test_hypotheses_summary_puts_the_paper_first():
    thr = pd.read_csv(results_dir() / "limo_thresholds.csv")
    s = A.hypotheses_summary(thr, P.paper_b3())
    assert s.index[0] == "paper (Table B.3)"
    assert s.loc["paper (Table B.3)", ("cal500", "LIMO-label")] == 0.126
    fit = A.hypothesis_fit(s)
    gap = (s.loc["code"] - s.iloc[0]).abs().mean()
    assert fit.loc["code"] == pytest.approx(gap, abs=1e-15)
    # the chapter's table: the fit as a last column under the full key ("fit", ""),
    # the paper's row empty there; every other column unchanged
    table = A.with_fit(s)
    assert table.columns[-1] == ("fit", "") and table.columns[:-1].equals(s.columns)
    pd.testing.assert_frame_equal(table.iloc[:, :-1], s)
    assert np.isnan(table.iloc[0, -1])
    pd.testing.assert_series_equal(table.iloc[1:, -1], fit, check_names=False)


def test_synthetic_claims_count_replications():
    syn = pd.read_csv(results_dir() / "limo_synthetic.csv")
    claims = A.synthetic_claims(syn)
    assert len(claims) == 6
    assert all(0 <= hits <= n == syn.replication.nunique() for _, _, hits, n in claims)


def _epochs_frame(values_10, values_30):
    keys = [k for k in P.B3_ORDER if not k.endswith("f1")]
    rows = []
    for e, vals in ((10, values_10), (30, values_30)):
        for m in P.VARIANTS:
            rows.append({"dataset": "bibtex", "method": m, "n_epochs": e,
                         **{k: vals(m, k) for k in keys}})
    return pd.DataFrame(rows)


def test_epochs_comparison_and_cause_follow_the_spread_rule():
    p = P.paper_b3()
    pb = p[p.dataset == "bibtex"].set_index(["method", "measure"])

    def paper_plus(shift):
        return lambda m, k: float(pb.loc[(m, k), "mean"]) + shift * (
            float(pb.loc[(m, k), "std"]) + 0.01)

    cmp = A.epochs_comparison(_epochs_frame(paper_plus(5), paper_plus(0)), p)
    assert len(cmp) == 3 * 8
    assert not cmp["within std, 10"].any() and cmp["within std, 30"].all()
    # at 30 passes ours is the paper's value: every cell bracketed, strictly too; a T the
    # paper does not give can explain the gap, which makes it underspecified, not tested
    cause = C.passes_cause(cmp)
    assert cause.kind == "underspecified"
    assert "on 24 of 24 cells strictly, on 24 at its printed precision" in cause.text
    assert "can come from T, not that it does" in cause.text
    cmp = A.epochs_comparison(_epochs_frame(paper_plus(5), paper_plus(5)), p)
    cause = C.passes_cause(cmp)
    assert cause.kind == "unknown" and "on 0 of 24 cells strictly" in cause.text


def test_account_check_reads_the_best_hypothesis_off_a_dataset():
    thr = pd.read_csv(results_dir() / "limo_thresholds.csv")
    p = P.paper_b3()
    chk = A.account_check(thr, thr[thr.dataset == "enron"], p, "enron")
    assert len(chk) == 9
    best = A.best_per_variant(A.hypotheses_summary(thr, p))
    for v in P.VARIANTS:  # macro-F1: the overall best hypothesis, all run on enron
        assert chk.loc[("macro-F1", v), "hypothesis"] == best[v][0]
        want = thr[(thr.dataset == "enron") & (thr.method == v)
                   & (thr.hypothesis == best[v][0])].macro_f1.mean()
        assert chk.loc[("macro-F1", v), "account"] == pytest.approx(want, abs=1e-15)
    cause = C.account_cause(chk, "enron")
    n_in = int(chk["account within std"].sum())
    assert (cause.kind == "tested") == (n_in >= 0.75 * 9 and n_in > chk["code within std"].sum())


def test_account_check_counts_the_single_splits_within_the_std():
    """Per cell, the number of splits whose own value lies within the paper's std
    (plus half a printed unit), counted here by a plain loop over the splits."""
    thr = pd.read_csv(results_dir() / "limo_thresholds.csv")
    p = P.paper_b3()
    held = thr[(thr.dataset == "enron") & (thr.replication < 4)]
    chk = A.account_check(thr, held, p, "enron")
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
    cause = C.account_cause(chk, "enron")
    assert "mean of 4 splits" in cause.text and "single splits within it" in cause.text
    with pytest.raises(ValueError, match="no rows for dataset"):
        A.account_check(thr, held, p, "bibtex")


TOY = {"m": [("0.100", "0.00"), ("0.200", "1.00"), ("0.150", "0.50")]}


def test_rescaling_ranges_by_hand():
    t = A.rescaling_ranges(TOY, ["a", "b", "c"], lower_is_better=())
    mid = t.iloc[2]
    # corners of [0.1495, 0.1505] x [0.0995, 0.1005] x [0.1995, 0.2005]
    assert mid["low"] == pytest.approx((0.1495 - 0.1005) / (0.2005 - 0.1005), abs=1e-12)
    assert mid["high"] == pytest.approx((0.1505 - 0.0995) / (0.1995 - 0.0995), abs=1e-12)
    assert t["consistent"].all()
    # the same printed values read as lower-is-better: the column printed 1 is worse
    assert not A.rescaling_ranges(TOY, ["a", "b", "c"], lower_is_better={"m"})["consistent"].all()


@pytest.mark.parametrize(
    "paper, cols, err",
    [
        ({"m": [("0.1", "1.00"), ("0.2", "1.00")]}, ["a", "b"], ValueError),
        ({"m": [("0.1", "0.00"), ("0.2", "1.00")]}, ["a"], ValueError),
        ([("0.1", "0.00")], ["a"], TypeError),
        ({}, [], TypeError),
    ],
)
def test_rescaling_refuses_bad_tables(paper, cols, err):
    with pytest.raises(err):
        A.rescaling_ranges(paper, cols)


def test_epochs_comparison_brackets_at_three_widths():
    """Strictly, at the paper's printed precision, and widened by its std (by hand)."""
    p = P.paper_b3()
    pb = p[p.dataset == "bibtex"].set_index(["method", "measure"])
    cmp = A.epochs_comparison(_epochs_frame(lambda m, k: 0.0, lambda m, k: 1e9), p)
    assert cmp["between"].all() and cmp["between, printed"].all() and cmp["bracketed"].all()

    def beyond(by):  # both runs above the paper's mean by `by` (in units of its std + 0.01)
        return lambda m, k: float(pb.loc[(m, k), "mean"]) + by(m, k)

    half = lambda m, k: 0.5 * 10.0 ** -len(pb.loc[(m, k), "mean"].split(".")[1])  # noqa: E731
    std = lambda m, k: float(pb.loc[(m, k), "std"])  # noqa: E731
    # 0.9 of a half unit above: not between, but within the printed precision
    cmp = A.epochs_comparison(
        _epochs_frame(beyond(lambda m, k: 0.9 * half(m, k)), beyond(lambda m, k: 2 * half(m, k))),
        p,
    )
    assert not cmp["between"].any() and cmp["between, printed"].all()
    # beyond half a unit but within the std: bracketed only when widened by the std
    # (a cell printed with std 0.000 has no such middle ground)
    cmp = A.epochs_comparison(
        _epochs_frame(beyond(lambda m, k: 1.1 * half(m, k) + 0.5 * std(m, k)),
                      beyond(lambda m, k: 2 * half(m, k) + std(m, k))),
        p,
    )
    spread = [std(m, k) > 0 for _, m, k in cmp.index]
    assert not cmp["between, printed"].any() and cmp["bracketed"][spread].all()
    assert sum(spread) >= 20  # most cells have a printed spread
