"""Wu & Zhou (2017): margins, the unified view of the measures, and LIMO.

The folder's contract (its README says what each module does):

PAPER                    the paper's record (below)
experiments.TABLES       the committed tables it reads, each with its loader
evidence.evidence()      everything its ledger judges, computed once from those tables
ledgers.ledgers(ev)      ``{"limo": Ledger}``: the only place its rows are added
"""

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
