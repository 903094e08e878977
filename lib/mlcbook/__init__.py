"""mlcbook: the companion library of the book *Measuring and learning multi-label classifiers*.

Modules
-------
metrics      standard multi-label measures (Zhang & Zhou 2014; Wu & Zhou 2017)
losses       dependence-aware Choquet/OWA losses (Hüllermeier et al. 2022)
bayes        Bayes-optimal predictions by enumeration
blended      Park & Read's blended Hamming/Jaccard/Exact similarity
margins      Wu & Zhou's label-wise and instance-wise margins
scorers      every measure and loss as a scikit-learn scorer (get_scorer, scoring)
learners     scikit-learn estimators used by the chapters
datasets     benchmark registry, ARFF loading, synthetic data
experiments  cross-validation runners with caching
plots        the papers' figure types
ledger       the reproduction ledger
"""

__version__ = "0.1.0"

__all__ = ["get_scorer", "scorers"]


def __getattr__(name: str):
    """``mlcbook.scorers`` and ``mlcbook.get_scorer``, imported on first use (they
    import scikit-learn's metrics; ``import mlcbook`` itself stays light)."""
    if name in ("scorers", "get_scorer"):
        import importlib

        scorers = importlib.import_module(f"{__name__}.scorers")
        return scorers if name == "scorers" else scorers.get_scorer
    raise AttributeError(f"module 'mlcbook' has no attribute {name!r}")
