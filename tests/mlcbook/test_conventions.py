"""Wu & Zhou's MATLAB conventions (convention='wu_zhou') against values computed by
hand from /work/shared/reference/wu_zhou2017/limo/measure/*.m.

Every row of the scores is F = [0.5, 0.5, 0.2, 0.1], so MATLAB's ascending stable
``sort`` places the labels 4, 3, 1, 2 at positions 1..4 (label 1 before label 2: equal
scores keep their index order).  Truth rows: {2, 3}, {2}, {} and {1, 2, 3, 4}.
"""

from __future__ import annotations

from fractions import Fraction as Fr

import numpy as np
import pytest

from mlcbook import metrics as M

F = np.tile([0.5, 0.5, 0.2, 0.1], (4, 1))
Y = np.array([[0, 1, 1, 0], [0, 1, 0, 0], [0, 0, 0, 0], [1, 1, 1, 1]])
P = np.array([[1, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [1, 1, 1, 1]])

# (measure, Wu & Zhou's value, ours by default) with the hand computation
CASES = {
    # Ranking_loss.m drops rows 3 and 4 (no / all labels); row 1: pairs (u, v) with
    # f_u <= f_v: (2,1) and (3,1) of 4 -> 1/2; row 2: (2,1) of 3 -> 1/3.  Mean of two.
    # Default: rows 3 and 4 count 0 in a mean over four.
    "ranking_loss": (lambda c: M.ranking_loss(Y, F, convention=c),
                     Fr(1, 2) * (Fr(1, 2) + Fr(1, 3)), Fr(1, 4) * (Fr(1, 2) + Fr(1, 3))),
    # Average_precision.m: rows 3, 4 dropped.  Row 1: label 2 at position 4 -> 1/1,
    # label 3 at position 2 -> 2/3 (labels 3 and 2 at positions >= 2, of 3 labels);
    # mean 5/6.  Row 2: label 2 at position 4 -> 1.  Default: ties share the worst
    # rank (labels 1, 2 both rank 2): row 1 (1/2 + 2/3)/2 = 7/12, row 2 1/2, rows 3, 4
    # score 1.
    "average_precision": (lambda c: M.label_ranking_average_precision(Y, F, convention=c),
                          Fr(1, 2) * (Fr(5, 6) + 1),
                          Fr(1, 4) * (Fr(7, 12) + Fr(1, 2) + 1 + 1)),
    # Coverage.m: (K - lowest relevant position + 1) - 1: row 1 position 2 -> 2; row 2
    # position 4 -> 0; row 3 no relevant label: 0 - 1 = -1; row 4 position 1 -> 3.
    # Default: labels scored >= the lowest relevant score, minus 1: 2, 1 (the tie
    # with label 1 counts), 0, 3.
    "coverage": (lambda c: M.coverage(Y, F, convention=c),
                 Fr(2 + 0 - 1 + 3, 4), Fr(2 + 1 + 0 + 3, 4)),
    # Instance_AUC.m / fast_AUC.m on rows 1, 2 (both classes): rank sum of positives
    # in the stable sort.  Row 1 positives at positions 2 and 4: (6 - 3)/4 = 3/4; row 2
    # at 4: (4 - 1)/3 = 1.  Default: a tie is half a pair: row 1 (0.5+1+0+1)/4 = 5/8,
    # row 2 (0.5+1+1)/3 = 5/6.
    "instance_auc": (lambda c: M.auc(Y, F, "instance", convention=c),
                     Fr(1, 2) * (Fr(3, 4) + 1), Fr(1, 2) * (Fr(5, 8) + Fr(5, 6))),
    # Macro_AUC.m: every column is one tied score, sorted by row index.  Column 1
    # positive row 4 at 4: (4-1)/3 = 1; column 2 rows 1, 2, 4: (7-6)/3 = 1/3; column 3
    # rows 1, 4: (5-3)/4 = 1/2; column 4 row 4: 1.  Default: every tie one half.
    "macro_auc": (lambda c: M.auc(Y, F, "macro", convention=c),
                  Fr(1, 4) * (1 + Fr(1, 3) + Fr(1, 2) + 1), Fr(1, 2)),
    # Micro_AUC.m: labels(:) column after column; the sort puts column 4 (0.1) at
    # positions 1-4, column 3 (0.2) at 5-8, columns 1 then 2 (0.5) at 9-16.  Positives
    # at 4; 5, 8; 12; 13, 14, 16: sigma 72, M = 7, N = 9: (72 - 28)/63.
    "micro_auc": (lambda c: M.auc(Y, F, "micro", convention=c), Fr(44, 63), None),
    # One_error.m: max picks the first maximal label (1): rows 1-3 err, row 4 not.
    "one_error": (lambda c: M.one_error(Y, F), Fr(3, 4), Fr(3, 4)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_wu_zhou_convention_against_the_matlab_code_by_hand(name):
    fn, wu_zhou, ours = CASES[name]
    assert fn("wu_zhou") == pytest.approx(float(wu_zhou), abs=1e-15)
    if ours is not None:
        assert fn("mlcbook") == pytest.approx(float(ours), abs=1e-15)


def test_wu_zhou_f1_is_zero_division_0():
    # Instance_F1.m: p = |P & Y|/|P|, r = |P & Y|/|Y|, f = 2pr/(p+r), NaN -> 0.
    # Row 1: p = r = 1/2 -> 1/2; row 2: p = 0/0 -> f NaN -> 0; row 3 -> 0; row 4 -> 1.
    assert M.f_measure(Y, P, average="instance", zero_division=0) == 3 / 8
    # Macro_F1.m per column: col 1 p = 1/2 (rows 1, 4 predicted, row 4 true), r = 1 ->
    # 2/3; col 2 p = 1, r = 2/3 -> 4/5; col 3 p = 1, r = 1/2 -> 2/3; col 4 p = r = 1
    assert M.f_measure(Y, P, average="macro", zero_division=0) == pytest.approx(
        (2 / 3 + 4 / 5 + 2 / 3 + 1) / 4, abs=1e-15
    )
    # Micro_F1.m: tp = 1 + 4 = 5, |P| = 6, |Y| = 7: 2 (5/6)(5/7) / (5/6 + 5/7) = 10/13
    assert M.f_measure(Y, P, average="micro", zero_division=0) == pytest.approx(10 / 13)


def test_wu_zhou_per_instance_values_are_nan_where_a_row_is_dropped():
    v = M.ranking_loss(Y, F, convention="wu_zhou", per_instance=True)
    assert np.isnan(v[2:]).all() and v[0] == 0.5
    with pytest.raises(ValueError, match="convention"):
        M.coverage(Y, F, convention="matlab")
