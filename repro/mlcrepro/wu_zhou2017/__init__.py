"""Wu & Zhou (2017): margins, the unified view of the measures, and LIMO.

The folder's contract (its README says what each module does):

PAPER                    the paper's record (below)
experiments.EXPERIMENTS  the committed tables it reads, each with its loader
collect.evidence()       everything its ledger judges, computed once from those tables
ledger_rows.ledgers(ev)  ``{"limo": Ledger}``: the only place its rows are added
"""

from mlcrepro.wu_zhou2017.collect import Evidence, evidence
from mlcrepro.wu_zhou2017.experiments import EXPERIMENTS, row_cells
from mlcrepro.wu_zhou2017.ledger_rows import ledgers
from mlcrepro.wu_zhou2017.record import PAPER

__all__ = ["PAPER", "EXPERIMENTS", "row_cells", "Evidence", "evidence", "ledgers"]
