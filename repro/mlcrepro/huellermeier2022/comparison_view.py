"""How the dependence chapter shows its comparison with the authors: readable headers.

One job: the per-(dataset, learner) tables of
:mod:`mlcrepro.huellermeier2022.authors_compare` (``endpoint_summary``,
``worst_pairs``) carry code names as columns (``hamming_diff``); :func:`endpoint_view`
gives them two-level headers a reader can scan (``Hamming`` / ``diff``) and rounds the
losses to four decimals.
"""

from __future__ import annotations

import pandas as pd

__all__ = ["HEADERS", "endpoint_view"]

#: code name -> (group, column) of the shown table, in the order shown
HEADERS = {
    "our_folds": ("folds", "ours"),
    "their_folds": ("folds", "theirs"),
    "hamming_ours": ("Hamming loss", "ours"),
    "hamming_diff": ("Hamming loss", "diff"),
    "hamming_tol": ("Hamming loss", "tol"),
    "subset01_ours": ("subset 0/1 loss", "ours"),
    "subset01_diff": ("subset 0/1 loss", "diff"),
    "subset01_tol": ("subset 0/1 loss", "tol"),
    "within": ("both ends", "within tol"),
    "tols": ("both ends", "tols away"),
}


def endpoint_view(frame: pd.DataFrame, decimals: int = 4) -> pd.DataFrame:
    """The columns of :data:`HEADERS` that ``frame`` has, under two-level headers.

    >>> f = pd.DataFrame({"hamming_ours": [0.123456], "within": [True]}, index=["BR"])
    >>> endpoint_view(f).columns.tolist()
    [('Hamming loss', 'ours'), ('both ends', 'within tol')]
    >>> float(endpoint_view(f).iloc[0, 0])
    0.1235
    """
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"frame must be a pandas DataFrame, got {type(frame).__name__}")
    cols = [c for c in HEADERS if c in frame.columns]
    if not cols:
        raise ValueError(f"frame has none of the columns {list(HEADERS)}")
    out = frame[cols].round(decimals)
    out.columns = pd.MultiIndex.from_tuples([HEADERS[c] for c in cols])
    return out
