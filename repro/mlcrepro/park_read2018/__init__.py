"""Park & Read (2018): the blended metric and its linear model.

The folder's contract (its ``README.md`` says what each module does):

``PAPER``
    the paper's record (:mod:`.record`);
``evidence()``
    everything its ledger needs, computed from the library and the committed tables,
    frozen and computed once (:func:`.collect.evidence`);
``ledgers(evidence)``
    the ledgers keyed by ``PAPER.ledgers`` (``"blended"``), the only place their rows
    are added (:func:`.ledger_rows.ledgers`).

Its experiments (runner specs of the committed tables) are in :mod:`.grid`,
:mod:`.readings`, :mod:`.variants` and :mod:`.baselines`.
"""

from mlcrepro.park_read2018.collect import Evidence, evidence
from mlcrepro.park_read2018.experiments import EXPERIMENTS, row_cells
from mlcrepro.park_read2018.ledger_rows import blended_verdicts, ledgers
from mlcrepro.park_read2018.record import PAPER

__all__ = [
    "PAPER",
    "EXPERIMENTS",
    "row_cells",
    "Evidence",
    "evidence",
    "ledgers",
    "blended_verdicts",
]
