"""The record of Wu & Zhou (2017): its one spelling (:class:`mlcrepro.paper.Paper`)."""

from mlcrepro.paper import Paper

__all__ = ["PAPER"]

#: the paper's record: its spelling, citation, claim ids, Reproduce page and ledgers
PAPER = Paper(
    key="wu_zhou2017",
    citation="Wu & Zhou (2017)",
    bibkey="wu2017unified",
    prefix="WZ",
    page="wu_zhou2017",
    ledgers=("limo",),
    learn=("limo", "measures"),
)
