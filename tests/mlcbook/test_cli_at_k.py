"""``mlcbook evaluate --k``: the extreme-classification measures at several cut-offs.

Expected values: the library's functions (mlcbook.extreme) called directly on the same
matrices, and a four-instance case worked by hand (the top k of each row read off the
scores; Jain et al.'s propensities by their closed form, eq. of Sec. 3.2).
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from mlcbook import extreme as X

from .cli_run import run_in_process as run
from .test_cli import write_matrix

NAMES = ("a", "b", "c", "d")
# rows: truth, scores (the top 2 of each row: a c | b c | d a | d c)
TRUTH = [[1, 0, 1, 0], [0, 1, 0, 0], [1, 1, 0, 1], [0, 0, 1, 0]]
SCORES = [
    [0.9, 0.1, 0.8, 0.3],
    [0.2, 0.7, 0.6, 0.1],
    [0.5, 0.4, 0.3, 0.9],
    [0.1, 0.2, 0.4, 0.8],
]


def _files(tmp_path, Y, F, P=None):
    names = [f"L{j}" for j in range(np.shape(Y)[1])]
    t = write_matrix(tmp_path / "t.csv", Y, header=names)
    p = write_matrix(tmp_path / "p.csv", Y if P is None else P, header=names)
    s = write_matrix(tmp_path / "s.csv", F, header=names, fmt="{!r}")
    return t, p, s


def _measures(*args):
    res = run("evaluate", *args, "--format", "json", "--profile", "none")
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


def test_hand_computed_case(tmp_path):
    t, p, s = _files(tmp_path, TRUTH, SCORES)
    got = _measures(t, p, "--scores", s, "--k", "1,2", "--measures", "at_k")["measures"]
    inv_log = 1 / math.log2(3)  # the discount of rank 2
    want = {
        "precision_at_1": 3 / 4,  # hits a, b, d, -
        "precision_at_2": 6 / 8,  # 2 + 1 + 2 + 1 hits of 8
        "recall_at_1": (1 / 2 + 1 + 1 / 3 + 0) / 4,
        "recall_at_2": (1 + 1 + 2 / 3 + 1) / 4,
        "ndcg_at_1": 3 / 4,
        "ndcg_at_2": (1 + 1 + 1 + inv_log) / 4,  # row 4: its one label at rank 2
        "coverage_at_1": 3 / 4,  # a, b, d covered; c first at rank 2
        "coverage_at_2": 1.0,
    }
    # Jain et al.: 1/p_l = 1 + C (N_l + B)^-A, C = (log N - 1)(B + 1)^A; N = 4, A = 0.55,
    # B = 1.5; a, b, c relevant twice (q), d once (qd)
    C = (math.log(4) - 1) * 2.5**0.55
    q, qd = 1 + C * 3.5**-0.55, 1 + C * 2.5**-0.55
    # the best top 1 per row: q, q, qd (d is rarer), q; hits a, b, d
    want["psprecision_at_1"] = want["psndcg_at_1"] = (2 * q + qd) / (3 * q + qd)
    want["psprecision_at_2"] = 1.0  # every row's top 2 holds its best two labels
    ideal2 = 1 + inv_log
    rows_got = [(q + q * inv_log) / ideal2, q, (qd + q * inv_log) / ideal2, q * inv_log]
    rows_best = [(q + q * inv_log) / ideal2, q, (qd + q * inv_log) / ideal2, q]
    want["psndcg_at_2"] = sum(rows_got) / sum(rows_best)
    assert set(got) == set(want)
    for name, value in want.items():
        # 1e-15: the same closed forms summed in another order
        assert got[name] == pytest.approx(value, rel=1e-15, abs=1e-15), name


def _random(seed, n=40, K=6):
    rng = np.random.default_rng(seed)
    Y = (rng.random((n, K)) < np.linspace(0.1, 0.6, K)).astype(int)
    Y[0] = 0  # an instance without a relevant label
    F = np.round(Y + rng.normal(0, 0.8, (n, K)), 3)  # ties at the cut-off too
    P = (F > 0.5).astype(int)
    return Y, P, F


@pytest.mark.parametrize("seed", range(3))
def test_every_at_k_measure_equals_the_library(tmp_path, seed):
    Y, P, F = _random(seed)
    t, p, s = _files(tmp_path, Y, F, P)
    ks = [1, 3, 6]  # 6 = K, the whole ranking
    out = _measures(t, p, "--scores", s, "--k", "6,1,3,1")  # the default report
    got = out["measures"]
    prop = X.jain_propensity(Y)  # from the truth, A = 0.55, B = 1.5
    for k in ks:
        want = {
            f"precision_at_{k}": X.precision_at_k(Y, F, k),
            f"recall_at_{k}": X.recall_at_k(Y, F, k),
            f"ndcg_at_{k}": X.ndcg_at_k(Y, F, k),
            f"psprecision_at_{k}": X.psprecision_at_k(Y, F, k, propensity=prop),
            f"psndcg_at_{k}": X.psndcg_at_k(Y, F, k, propensity=prop),
            f"coverage_at_{k}": X.coverage_at_k(Y, F, k),
        }
        for name, value in want.items():
            # exact: the same function on the same numbers (the files hold them exactly)
            assert got[name] == value, name
    assert "hamming_loss" in got and "precision_at_2" not in got  # the report, plus at-k
    at_k = [m for m in got if "_at_" in m]
    assert at_k[:3] == ["precision_at_6", "precision_at_1", "precision_at_3"]  # --k's order
    assert any("from the label frequencies of the truth" in n for n in out["notes"])


def test_propensity_parameters_and_given_propensities(tmp_path):
    Y, P, F = _random(7)
    t, p, s = _files(tmp_path, Y, F, P)
    got = _measures(t, p, "--scores", s, "--k", "2", "--propensity-ab", "0.6,2.6",
                    "--measures", "psprecision_at_k,psndcg_at_k")["measures"]
    amazon = X.jain_propensity(Y, 0.6, 2.6)
    assert got["psprecision_at_2"] == X.psprecision_at_k(Y, F, 2, propensity=amazon)
    assert got["psndcg_at_2"] == X.psndcg_at_k(Y, F, 2, propensity=amazon)
    out = _measures(t, p, "--scores", s, "--k", "2", "--measures", "precision_at_k")
    assert "notes" not in out  # no propensity-scored measure: nothing said of them
    mine = np.linspace(0.2, 0.9, Y.shape[1])
    out = _measures(t, p, "--scores", s, "--k", "2", "--param",
                    f"propensity={json.dumps(mine.tolist())}", "--measures", "psprecision_at_k")
    assert out["measures"]["psprecision_at_2"] == X.psprecision_at_k(
        Y, F, 2, propensity=mine)
    assert "notes" not in out  # no propensities computed from the truth


def test_intervals_at_every_cut_off(tmp_path):
    Y, P, F = _random(3)
    t, p, s = _files(tmp_path, Y, F, P)
    out = _measures(t, p, "--scores", s, "--k", "1,2", "--measures", "at_k",
                    "--ci", "0.9", "--resamples", "30")
    assert {"precision_at_1", "precision_at_2", "psndcg_at_2"} <= set(out["intervals"])
    assert "coverage_at_1" not in out["intervals"]
    assert {"coverage_at_1", "coverage_at_2"} <= {n.split(":")[0] for n in out["notes"]}


@pytest.mark.parametrize(
    "k, message",
    [
        ("0", "argument --k: each cut-off must be a positive integer, got 0"),
        ("-1", "argument --k: each cut-off must be a positive integer, got -1"),
        ("1.5", "argument --k: not an integer: '1.5'"),
        ("1,x", "argument --k: not an integer: 'x'"),
        ("3,5", "--k: each cut-off must be an integer in 1..4 (the labels), got 5"),
    ],
)
def test_bad_cut_offs_exit_2_naming_k(tmp_path, k, message):
    t, p, s = _files(tmp_path, TRUTH, SCORES)
    res = run("evaluate", t, p, "--scores", s, f"--k={k}")
    assert res.returncode == 2 and message in res.stderr, res.stderr
    assert res.stdout == "" and "Traceback" not in res.stderr


def test_cut_offs_need_scores_an_at_k_measure_and_valid_propensity_parameters(tmp_path):
    t, p, s = _files(tmp_path, TRUTH, SCORES)
    res = run("evaluate", t, p, "--k", "1")
    assert res.returncode == 2 and "--k cuts the ranking of the scores" in res.stderr
    res = run("evaluate", t, p, "--scores", s, "--k", "1", "--measures", "hamming_loss")
    assert res.returncode == 2 and "--k: 'hamming_loss' selects no at-k measure" in res.stderr
    for ab in ("0.5", "0.5,0", "-1,1", "nan,1"):
        res = run("evaluate", t, p, "--scores", s, "--k", "1", f"--propensity-ab={ab}")
        assert res.returncode == 2 and "argument --propensity-ab" in res.stderr, ab


def test_two_instances_leave_the_propensity_scored_measures_out_with_a_note(tmp_path):
    t, p, s = _files(tmp_path, TRUTH[:2], SCORES[:2])
    out = _measures(t, p, "--scores", s, "--k", "1")
    assert "precision_at_1" in out["measures"]
    assert not any(m.startswith("ps") for m in out["measures"])
    assert any("Jain et al.'s propensities need at least 3" in n for n in out["notes"])
