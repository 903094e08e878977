"""Hüllermeier, Wever, Loza Mencía, Fürnkranz & Rapp (2022): dependence-aware losses.

The folder's contract: :data:`PAPER` (its record); its experiments
(:mod:`~mlcrepro.huellermeier2022.experiments`, the committed tables it reads);
:func:`~mlcrepro.huellermeier2022.evidence.evidence` (everything its ledgers need,
computed once, frozen and cached); and
:func:`~mlcrepro.huellermeier2022.ledgers.ledgers` (its four ledgers, the only place
their rows are added).  The folder's ``README.md`` says what each module does.
"""

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
