"""Statistics of multi-label datasets (Table 2 of Hüllermeier et al., 2022)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp

from .._validation import Int, OneOf, check_label_matrix, validate_params
from .load import load_dataset

__all__ = ["dataset_statistics", "label_statistics", "STATISTICS_COLUMNS"]

#: The columns of :func:`dataset_statistics`, in order (the keys of :func:`label_statistics`).
STATISTICS_COLUMNS = (
    "instances",
    "features",
    "labels",
    "label_to_instance_ratio",
    "distinct_combinations",
    "cardinality",
    "density",
)


@validate_params(n_features=Int(0, allow_none=True))
def label_statistics(Y: Any, n_features: int | None = None) -> dict[str, float]:
    """Statistics of one label matrix.

    Parameters
    ----------
    Y : array-like or sparse of shape (n_samples, n_labels)
        0/1 labels.
    n_features : int, optional
        Reported as ``features`` (NaN when not given).

    Returns
    -------
    dict
        ``instances`` n; ``features``; ``labels`` K; ``label_to_instance_ratio`` K / n (the
        ratio of the number of labels to the number of instances, as in Table 2 of
        Hüllermeier et al. 2022); ``distinct_combinations`` the number of distinct label
        vectors; ``cardinality`` the mean number of relevant labels per instance;
        ``density`` cardinality / K.
    """
    Y = check_label_matrix(Y, "Y")
    if sp.issparse(Y):
        Y = Y.toarray()
    n, k = Y.shape
    if n == 0:
        raise ValueError("Y must have at least one instance")
    card = float(Y.sum(axis=1, dtype=np.int64).mean())
    combos = int(np.unique(np.packbits(Y.astype(bool), axis=1), axis=0).shape[0])
    return {
        "instances": n,
        "features": np.nan if n_features is None else int(n_features),
        "labels": k,
        "label_to_instance_ratio": k / n,
        "distinct_combinations": combos,
        "cardinality": card,
        "density": card / k,
    }


@validate_params(subset=OneOf(("all", "train", "test")))
def dataset_statistics(data: Any, subset: str = "all") -> pd.DataFrame:
    """A table of dataset statistics, one row per dataset.

    Parameters
    ----------
    data : str, iterable of str, mapping, or array-like
        Dataset name(s) from the registry (loaded with :func:`load_dataset`); or a mapping
        ``name -> Y`` or ``name -> (X, Y)``; or a single label matrix ``Y``.
    subset : {'all', 'train', 'test'}
        Subset to load when names are given.

    Returns
    -------
    pandas.DataFrame
        Index ``dataset``; columns :data:`STATISTICS_COLUMNS` (see
        :func:`label_statistics`).

    Examples
    --------
    >>> dataset_statistics({"toy": [[1, 0, 1], [0, 0, 1], [1, 0, 1]]})[
    ...     ["instances", "labels", "distinct_combinations", "cardinality"]]
         instances  labels  distinct_combinations  cardinality
    dataset
    toy          3       3                      2     1.666667
    """
    rows: dict[str, dict] = {}
    if isinstance(data, str):
        data = [data]
    elif (
        isinstance(data, Iterable)
        and not isinstance(data, Mapping)
        and not hasattr(data, "shape")
        and not sp.issparse(data)
    ):
        data = list(data)
    names = isinstance(data, list) and bool(data) and all(isinstance(d, str) for d in data)
    if isinstance(data, Mapping):
        for name, value in data.items():
            if isinstance(value, tuple) and len(value) >= 2:
                X, Y = value[0], value[1]
                rows[str(name)] = label_statistics(Y, n_features=np.shape(X)[1])
            else:
                rows[str(name)] = label_statistics(value)
    elif names:
        for name in data:
            X, Y, info = load_dataset(name, subset=subset)
            rows[info.name] = label_statistics(Y, n_features=X.shape[1])
    else:
        rows["Y"] = label_statistics(data)
    df = pd.DataFrame.from_dict(rows, orient="index", columns=list(STATISTICS_COLUMNS))
    df.index.name = "dataset"
    if df["features"].notna().all():
        df["features"] = df["features"].astype(int)
    return df
