"""The causes of the rows that differ, and the two rules that choose one."""

from dataclasses import fields
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from mlcrepro.huellermeier2022 import causes as C
from mlcrepro.huellermeier2022.evidence_dependence import CLAIMS, FAMILIES, SCENE, Sec53
from mlcrepro.huellermeier2022.evidence_knn import HAMMING_RANK, SUBSET_RANK, KnnEvidence
from mlcrepro.huellermeier2022.experiments import TIE_BREAKS
from mlcrepro.huellermeier2022.knn_queries import tie_effect

EVERY = "BOOMER-K below BOOMER-1 everywhere (all points below y=1)"
CC = "CC improves over BR with increasing k (CC/BR falls)"


def _sec53(ours, authors, where=None, points=None):
    keys = [(c, f) for c in [SCENE, *(c.name for c in CLAIMS)] for f in FAMILIES]
    return Sec53(
        {k: ours for k in keys}, {k: authors for k in keys}, dict.fromkeys(keys, (0, 1)), {},
        where or {}, points or {},
    )


def _points(datasets, ratios):
    return pd.DataFrame({"dataset": datasets, "param": 1.0, "ratio": ratios})


def _summary(within):
    """BOOMER-1 and BOOMER-K on genbase and flags; ``within`` per dataset."""
    rows = [{"dataset": d, "learner": x, "our_folds": 10, "their_folds": 10, "within": w}
            for d, w in within.items() for x in ("BOOMER-1", "BOOMER-K")]
    return pd.DataFrame(rows)


def test_pair_causes_follow_the_known_reasons():
    assert C.pair_cause("yeast", "BOOMER-1", 10, 10) is C.SEEDED_CAUSE
    assert C.pair_cause("genbase", "BOOMER-K", 10, 10) is C.GENBASE_CAUSE
    assert C.pair_cause("enron", "BOOMER-1", 9, 9) is C.HEAD_CAUSE
    assert C.pair_cause("enron", "BOOMER-K", 9, 9) is C.BOOMER_CAUSE
    assert C.pair_cause("birds", "EPCT", 10, 9) is C.EPCT_CAUSE
    assert C.pair_cause("birds", "PCT", 10, 9) is C.FOLDS_CAUSE
    assert C.pair_cause("birds", "PCT", 10, 10) is C.OTHER_CAUSE


def test_a_failing_claim_is_tested_if_it_fails_on_the_authors_too_else_unknown():
    assert C.sec53_cause(_sec53(4, 3), CC, "binomial", _summary({})).kind == "tested"
    assert C.sec53_cause(_sec53(4, 8), CC, "binomial", _summary({})).kind == "unknown"


def test_an_every_claim_false_on_the_authors_profiles_beyond_the_figure_is_a_paper_error():
    where = {(EVERY, "binomial"): ("ours here", "enron at k = 1 (ratio as far as 1.01)")}
    points = {(EVERY, "binomial"): (_points(["genbase"], [1.6]), _points(["enron"], [1.01]))}
    cause = C.sec53_cause(_sec53(6, 8, where, points), EVERY, "binomial", _summary({}))
    assert cause.kind == "paper error"
    assert "enron at k = 1 (ratio as far as 1.01)" in cause.text and "ours here" in cause.text
    # without the points the count rule still applies
    assert C.sec53_cause(_sec53(6, 8), EVERY, "binomial", _summary({})).kind == "tested"
    with pytest.raises(TypeError, match="ev must be the Sec53"):
        C.sec53_cause({}, EVERY, "binomial", _summary({}))


def test_an_every_claim_within_the_figure_on_the_authors_profiles_is_judged_by_ours():
    # the authors' one exception 2.4e-4 from 1: on the line of their figure (half a unit
    # of three decimals is 5e-4); ours fail on genbase and flags
    where = {(EVERY, "binomial"): ("ours here", "theirs there")}
    points = {(EVERY, "binomial"): (_points(["genbase", "flags"], [1.6, 1.04]),
                                    _points(["enron"], [1.00024]))}
    ev = _sec53(6, 8, where, points)
    both = _summary({"genbase": False, "flags": True})
    cause = C.sec53_cause(ev, EVERY, "binomial", both)
    assert cause.kind == "tested"  # genbase: a tested pair cause; flags: within our spread
    assert "on flags within our fold spread" in cause.text
    assert "on genbase not the authors', for a cause tested" in cause.text
    assert "at most 0.00024 from 1" in cause.text
    # a dataset whose learners differ for an unknown reason makes the cause unknown
    flags_out = _summary({"genbase": False, "flags": False})
    assert C.sec53_cause(ev, EVERY, "binomial", flags_out).kind == "unknown"
    # beyond the figure's precision (1.0006 reads as 1.001) the paper is wrong about its numbers
    beyond = {(EVERY, "binomial"): (points[EVERY, "binomial"][0],
                                    _points(["enron"], [1.0006]))}
    assert C.sec53_cause(_sec53(6, 8, where, beyond), EVERY, "binomial",
                         both).kind == "paper error"


def test_the_tie_break_cause_counts_what_the_tie_break_decides():
    N_tie = np.array([[[1, 1, 0], [1, 0, 1], [0, 1, 1]]])  # three vectors, each once: tied
    N_one = np.array([[[1, 1, 0], [1, 1, 0], [0, 0, 0]]])  # a unique mode
    ties = {"birds": tie_effect(np.concatenate([N_tie, N_one])), "flags-12": tie_effect(N_tie)}
    r = pd.DataFrame({"K": [3], SUBSET_RANK: [2]}, index=["birds"])
    readings = {tb: pd.concat([r, r.rename(index={"birds": "flags-12"})]) for tb in TIE_BREAKS}
    ev = SimpleNamespace(ties=ties, readings=readings)
    with pytest.raises(TypeError, match="KnnEvidence"):
        C.tie_break_cause(ev)
    ev = KnnEvidence(**{f.name: None for f in fields(KnnEvidence)} | vars(ev))
    cause = C.tie_break_cause(ev)
    assert cause.kind == "unknown"
    assert "on birds for 1 of 2 queries" in cause.text and "flags-12 for 1 of 1" in cause.text
    assert "2, 2 and 2 of 3 on birds" in cause.text


def test_the_birds_cause_is_tested_only_where_the_labelled_run_puts_hamming_among_the_worst_two():
    for rank, kind in ((1, "tested"), (2, "tested"), (3, "unknown")):
        labelled = pd.Series({"instances": 351, HAMMING_RANK: rank})
        cause = C.birds_cause(0.00621, labelled, 645)
        assert cause.kind == kind
        assert "0.0062 above the best" in cause.text and "294 of its 645" in cause.text
        assert f"surrogate {rank} from the worst" in cause.text
