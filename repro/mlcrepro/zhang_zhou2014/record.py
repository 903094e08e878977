"""The record of Zhang & Zhou (2014): its one spelling (:class:`mlcrepro.paper.Paper`)."""

from mlcrepro.paper import Paper

__all__ = ["PAPER"]

#: the paper's record: its spelling, citation, claim ids, Reproduce page and ledgers
PAPER = Paper(
    key="zhang_zhou2014",
    citation="Zhang & Zhou (2014)",
    bibkey="zhang2014review",
    prefix="ZZ",
    page="zhang_zhou2014",
    ledgers=("measures",),
    learn=("measures", "own_predictions"),
)
