"""The record of Hüllermeier et al. (2022): its one spelling (:class:`mlcrepro.paper.Paper`)."""

from mlcrepro.paper import Paper

__all__ = ["PAPER"]

#: the paper's record: its spelling, citation, claim ids, Reproduce page and ledgers
PAPER = Paper(
    key="huellermeier2022",
    citation="Hüllermeier et al. (2022)",
    bibkey="hullermeier2022flexible",
    prefix="HU",
    page="huellermeier2022",
    ledgers=("losses", "datasets", "dependence", "knn"),
    learn=("losses", "datasets", "dependence", "knn"),
)
