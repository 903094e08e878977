"""Zhang & Zhou (2014) and the standard measures: definitions, identities, worked examples.

============  ==============================================================
problems      the seeded problems and the conventions' four instances
measurements  each claim about the measures, computed from the library
collect       ``evidence()``: every measurement once, frozen
ledger_rows   ``ledgers(evidence, guests=...)``: the measures ledger's rows
============  ==============================================================

The measures ledger also holds the rows of Wu & Zhou's Table 1, Park & Read's Table 1
and Hivemall's page; Hivemall's rows are built in its own folder and passed in as a
guest::

    from mlcrepro import hivemall, zhang_zhou2014
    measures = zhang_zhou2014.ledgers(
        zhang_zhou2014.evidence(), guests=[hivemall.rows(hivemall.evidence())]
    )["measures"]
"""

from mlcrepro.zhang_zhou2014.collect import Evidence, evidence
from mlcrepro.zhang_zhou2014.experiments import EXPERIMENTS
from mlcrepro.zhang_zhou2014.ledger_rows import (
    SKLEARN_TOL,
    against_sklearn,
    compared,
    ledgers,
    verdicts,
)
from mlcrepro.zhang_zhou2014.problems import benchmark_problem
from mlcrepro.zhang_zhou2014.record import PAPER

__all__ = [
    "PAPER",
    "EXPERIMENTS",
    "Evidence",
    "evidence",
    "ledgers",
    "verdicts",
    "compared",
    "against_sklearn",
    "SKLEARN_TOL",
    "benchmark_problem",
]
