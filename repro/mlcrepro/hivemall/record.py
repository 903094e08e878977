"""The record of Hivemall's F-measure page: its one spelling (:class:`mlcrepro.paper.Paper`)."""

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
