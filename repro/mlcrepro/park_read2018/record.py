"""The record of Park & Read (2018): its one spelling (:class:`mlcrepro.paper.Paper`)."""

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
