"""Hüllermeier, Wever, Loza Mencía, Fürnkranz & Rapp (2022): dependence-aware losses.

The folder's contract: :data:`PAPER` (its record); its experiments
(:mod:`~mlcrepro.huellermeier2022.experiments`, the committed tables it reads);
:func:`~mlcrepro.huellermeier2022.collect.evidence` (everything its ledgers need,
computed once, frozen, a copy per call); and
:func:`~mlcrepro.huellermeier2022.ledger_rows.ledgers` (its four ledgers, whose rows the
``ledger_*`` modules add, one per ledger).  The folder's ``README.md`` says what each module does.
"""

from mlcrepro.huellermeier2022.collect import Evidence, evidence
from mlcrepro.huellermeier2022.experiments import EXPERIMENTS, row_cells
from mlcrepro.huellermeier2022.ledger_rows import LEDGER_PARTS, ledgers
from mlcrepro.huellermeier2022.record import PAPER

__all__ = ["PAPER", "EXPERIMENTS", "row_cells", "LEDGER_PARTS", "Evidence", "evidence", "ledgers"]
