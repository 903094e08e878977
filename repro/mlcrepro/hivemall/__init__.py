"""Apache Hivemall's F-measure page: micro F-beta on label sets.

Its claims are checked in the ledger of the standard measures, on the Reproduce page it
shares with Zhang & Zhou (2014).
"""

from mlcrepro.paper import Paper

__all__ = ["PAPER"]

#: the page's record: its spelling, citation, claim ids and the Reproduce page it shares
PAPER = Paper(
    key="hivemall",
    citation="Hivemall",
    bibkey="hivemall",
    prefix="HM",
    page="zhang_zhou2014",
    learn=("measures",),
)
