"""mlcbook: measuring and learning multi-label classifiers.

Modules
-------
registry     the one registry of measures (a MeasureSpec each) that every surface reads
metrics      standard multi-label measures (Zhang & Zhou 2014; Wu & Zhou 2017)
topk         top-k scores, and ranking measures when only those are known
extreme      measures at k of extreme classification (P@k, nDCG@k, PSP@k, ...)
losses       dependence-aware Choquet/OWA losses (Hüllermeier et al. 2022)
bayes        Bayes-optimal predictions by enumeration
blended      Park & Read's blended Hamming/Jaccard/Exact similarity
margins      Wu & Zhou's label-wise and instance-wise margins
profiles     loss profiles of predictions and learner ratios (Hüllermeier et al. Figs 1-3)
scorers      every registered measure as a scikit-learn scorer (get_scorer, scoring)
intervals    bootstrap intervals and paired comparisons of the registered measures
learners     scikit-learn estimators of the papers
datasets     benchmark registry, ARFF loading, synthetic data
plots        the papers' figure types
cli          the ``mlcbook`` command line

Data (downloaded datasets, parsed caches, tool jars) live in one per-user folder,
:func:`get_data_home`.
"""

from ._paths import get_data_home

__version__ = "0.1.0"

__all__ = ["get_data_home", "get_scorer", "scorers"]


def __getattr__(name: str):
    """``mlcbook.scorers`` and ``mlcbook.get_scorer``, imported on first use (they
    import scikit-learn's metrics; ``import mlcbook`` itself stays light)."""
    if name in ("scorers", "get_scorer"):
        import importlib

        scorers = importlib.import_module(f"{__name__}.scorers")
        return scorers if name == "scorers" else scorers.get_scorer
    raise AttributeError(f"module 'mlcbook' has no attribute {name!r}")
