"""Hüllermeier, Wever, Loza Mencía, Fürnkranz & Rapp (2022): dependence-aware losses.

======================  ==============================================================
authors_study           the learner study of Sec. 5 (Figs 1-3) on the authors' folds
reference               the authors' released results and folds, verified by sha256
authors_compare         our study against the released profiles
knn_fig4                the nearest-neighbour minimiser of Sec. 6 (Fig. 4)
evidence, knn_evidence  claims computed for the losses and kNN chapters
ledger_losses           the ledger of the losses chapter, every row with its claim id
ledger_datasets         the ledger of the datasets chapter
ledger_dependence       the ledger of the dependence chapter
ledger_knn              the ledger of the kNN chapter
plots                   the comparison figure with the authors' profiles
======================  ==============================================================
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
