"""Park & Read (2018): the blended metric and its linear model.

grid, readings   the alpha x beta grid and the two readings of the training procedure
tables           the paper's Tables 2-4 beside ours
findings         the chapter's claims as ledger rows
evidence         claims about the metric computed from the library
"""

from mlcrepro.paper import Paper

__all__ = ["PAPER"]

#: the paper's record: its spelling, citation, claim ids, Reproduce page and ledgers
PAPER = Paper(
    key="park_read2018",
    citation="Park & Read (2018)",
    bibkey="park2018blended",
    prefix="PR",
    page="park_read2018",
    ledgers=("blended",),
    learn=("blended",),
)
