"""Apache Hivemall's F-measure page: micro F-beta on label sets.

===========  ==============================================================
collect      the seven posts' tags, and ``evidence()``: their micro F1 and F2
ledger_rows  Hivemall's four claims as rows of the ledger that hosts them
===========  ==============================================================

Hivemall has no ledger of its own: its rows stand in the measures ledger, on the
Reproduce page it shares with Zhang & Zhou (2014), whose ``ledgers`` takes them in.
"""

from mlcrepro.hivemall.collect import PREDICTED, TRUTH, Evidence, evidence
from mlcrepro.hivemall.ledger_rows import rows
from mlcrepro.hivemall.record import PAPER

__all__ = ["PAPER", "TRUTH", "PREDICTED", "Evidence", "evidence", "rows"]
