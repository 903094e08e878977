"""The evidence of the measures ledger: every measurement, computed once and frozen.

:func:`evidence` runs each function of :mod:`.measurements` once per process on the
seeded problems of :mod:`.problems` and returns them as one frozen :class:`Evidence`;
every call gets its own copy, so a caller may change what it receives without changing
what the next caller gets.  Nothing is passed in: the evidence depends only on the
library, scikit-learn and the printed inputs of the worked examples.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from mlcrepro.evidence_common import once
from mlcrepro.zhang_zhou2014 import measurements as m
from mlcrepro.zhang_zhou2014.problems import benchmark_problem, draws

__all__ = ["Evidence", "evidence", "DRAWS"]

#: the random pairs of the definition checks (Zhang & Zhou's five, Wu & Zhou's one-error)
DRAWS = 20


@dataclass(frozen=True)
class Evidence:
    """What the measures ledger judges (each field one function of :mod:`.measurements`)."""

    #: Park & Read's Table 1: Hamming, Exact, Jaccard for x1..x5 and the mean
    park_read_table1: pd.DataFrame
    #: every measure beside scikit-learn's on the benchmark-like problem
    sklearn_comparison: pd.DataFrame
    #: the largest |mlcbook - scikit-learn| there (also over all_measures), 12 decimals
    all_measures_gap: float
    #: how many measures have a scikit-learn counterpart there
    measures_compared: int
    #: the conventions' four instances, mlcbook beside scikit-learn
    edge_cases: pd.DataFrame
    #: a constant scorer: literal instance-AUC, ours, our coverage
    constant_scorer: dict[str, float]
    #: one label per instance: Hamming loss, error rate, 2/K x error rate
    single_label: dict[str, float]
    #: a label-wise effective scorer: coverage, the theorem's value, ranking loss, AP
    effective_coverage: dict[str, float]
    #: Zhang & Zhou's five definitions: largest |mlcbook - scikit-learn| over DRAWS pairs
    definition_gaps: dict[str, float]
    #: F^beta_exam against the F-combination: gap, harmonic, other
    f_beta_combination: dict[str, float]
    #: subset accuracy and Hamming loss as q grows
    strictness: m.Strictness
    #: one-error against a brute-force count: largest |difference| over DRAWS pairs
    one_error_gap: float


@once
def evidence() -> Evidence:
    """Every measurement of the measures ledger, computed once per process (a copy each call).

    >>> ev = evidence()
    >>> ev.measures_compared, ev.strictness.qs
    (15, (1, 2, 4, 8, 16, 32))
    """
    Y, F, P = benchmark_problem()
    d = draws()
    comparison = m.sklearn_comparison(Y, F, P)
    gap, compared = m.all_measures_gap(Y, F, P, comparison)
    return Evidence(
        park_read_table1=m.park_read_table1(),
        sklearn_comparison=comparison,
        all_measures_gap=gap,
        measures_compared=compared,
        edge_cases=m.edge_cases(),
        constant_scorer=m.constant_scorer(),
        single_label=m.single_label(d.y_class, d.p_class, Y.shape[1]),
        effective_coverage=m.effective_coverage(Y, d.F_eff),
        definition_gaps=m.definition_gaps(draws=DRAWS),
        f_beta_combination=m.f_beta_combination(),
        strictness=m.subset_strictness(),
        one_error_gap=m.one_error_gap(draws=DRAWS),
    )
