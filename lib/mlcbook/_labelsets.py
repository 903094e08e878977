"""Measures of label *sets* (lists of label names) for :mod:`mlcbook.metrics`: turning
them into a 0/1 matrix (:func:`binarize`) and Hivemall's micro F-beta over them
(:func:`f_measure_label_sets`)."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import Any

import numpy as np

from . import _labelcounts as _lc
from ._classification import check_beta


# --------------------------------------------------------------------------- label sets
def _check_label_sets(label_sets: Any, name: str) -> list[list[Hashable]]:
    if isinstance(label_sets, (str, bytes)) or not isinstance(label_sets, Iterable):
        raise TypeError(
            f"{name} must be a sequence of label sets (lists of labels), "
            f"got {type(label_sets).__name__}"
        )
    out = []
    for i, s in enumerate(label_sets):
        if isinstance(s, (str, bytes)) or not isinstance(s, Iterable):
            raise TypeError(f"{name}[{i}] must be a collection of labels (e.g. a list), got {s!r}")
        row = list(s)
        for lab in row:
            if not isinstance(lab, Hashable):
                raise TypeError(f"{name}[{i}] holds an unhashable label {lab!r}")
        out.append(list(dict.fromkeys(row)))  # drop duplicates, keep order
    if not out:
        raise ValueError(f"{name} must hold at least one label set")
    return out


def _label_order(rows: Sequence[Sequence[Hashable]]) -> list[Hashable]:
    """The labels in order of first appearance (never sorted: ``"L10"`` would come
    before ``"L2"``, and a column order must be the data's or the caller's)."""
    return list(dict.fromkeys(lab for row in rows for lab in row))


def binarize(
    label_sets: Iterable[Iterable[Hashable]],
    labels: Sequence[Hashable] | None = None,
) -> tuple[np.ndarray, list[Hashable]]:
    """Turn lists of label names into a 0/1 label matrix.

    Parameters
    ----------
    label_sets : sequence of collections of hashable labels
        One collection per instance, e.g. ``[["cat", "bird"], [], ["dog"]]``.
        Repeated labels within one collection count once.
    labels : sequence of labels, optional
        The labels (every column, also of a label that occurs in no set) in their
        column order.  Default: the labels that occur, in order of first appearance.

    Returns
    -------
    Y : ndarray of int8, shape (n_samples, n_labels)
    labels : list
        The label of each column.

    Examples
    --------
    >>> Y, labels = binarize([["cat", "bird"], [], ["dog"]])
    >>> labels
    ['cat', 'bird', 'dog']
    >>> Y.tolist()
    [[1, 1, 0], [0, 0, 0], [0, 0, 1]]
    """
    rows = _check_label_sets(label_sets, "label_sets")
    if labels is None:
        labels = _label_order(rows)
    else:
        if isinstance(labels, (str, bytes)) or not isinstance(labels, Iterable):
            raise TypeError(f"labels must be a sequence of labels, got {labels!r}")
        labels = list(labels)
        if len(set(labels)) != len(labels):
            raise ValueError("labels must not contain duplicates")
    if not labels:
        raise ValueError("labels must not be empty (no label occurs in label_sets)")
    index = {lab: j for j, lab in enumerate(labels)}
    lengths = np.fromiter((len(r) for r in rows), dtype=np.int64, count=len(rows))
    try:
        cols = np.fromiter(
            (index[lab] for r in rows for lab in r), dtype=np.int64, count=int(lengths.sum())
        )
    except KeyError as exc:
        raise ValueError(
            f"label_sets holds the label {exc.args[0]!r}, which is not in labels"
        ) from None
    Y = np.zeros((len(rows), len(labels)), dtype=np.int8)
    Y[np.repeat(np.arange(len(rows)), lengths), cols] = 1
    return Y, labels


def f_measure_label_sets(
    actual: Iterable[Iterable[Hashable]],
    predicted: Iterable[Iterable[Hashable]],
    beta: float = 1.0,
) -> float:
    r"""Micro F-beta over label *sets*, as Apache Hivemall's ``fmeasure`` defines it.

    With :math:`l_i` the true and :math:`p_i` the predicted label set of
    instance ``i``:

    .. math:: F_\beta = \frac{(1+\beta^2)\sum_i|l_i\cap p_i|}
              {\beta^2\big(\sum_i|l_i\cap p_i| + \sum_i|l_i\setminus p_i|\big)
               + \sum_i|l_i\cap p_i| + \sum_i|p_i\setminus l_i|}

    Algebraically this is the usual micro F-beta,
    :math:`(1+\beta^2)tp/((1+\beta^2)tp + \beta^2 fn + fp)`, i.e.
    ``f_measure(binarize(actual), binarize(predicted), beta, 'micro')`` and
    scikit-learn's ``fbeta_score(average='micro')``.  The arithmetic follows
    Hivemall's ``micro`` path (one division of the pooled counts), which
    reproduces its documented values to the last digit.  An older Hivemall
    release computed :math:`(1+\beta^2)PR/(\beta^2P+R)` from micro precision
    ``P`` and recall ``R``; that order of floating-point operations can differ
    in the last bit (0.6779661016949153 instead of 0.6779661016949152 for the
    documentation's :math:`F_2` example) and returned -1 when no label was
    correct.  Here, as in the current Hivemall and in scikit-learn, no label at
    all (zero denominator) gives 0.0.  Label lists are treated as sets
    (Hivemall would count a repeated predicted label twice).

    Parameters
    ----------
    actual, predicted : sequences of collections of hashable labels
        True and predicted label sets, one per instance, same length.
    beta : float > 0, default 1

    Returns
    -------
    float in [0, 1]
    """
    a = _check_label_sets(actual, "actual")
    p = _check_label_sets(predicted, "predicted")
    if len(a) != len(p):
        raise ValueError(
            f"actual and predicted must have the same length, got {len(a)} and {len(p)}"
        )
    b = check_beta(beta)
    labels = _label_order(a + p)
    if not labels:
        return 0.0
    A, _ = binarize(a, labels)
    Pm, _ = binarize(p, labels)
    tp = int((A & Pm).sum())
    n_actual = int(A.sum())
    n_pred = int(Pm.sum())
    # Hivemall's denominator b2 (tp + fn) + tp + fp is b2 |y| + |p| in exact integers:
    # the one F-beta of counts, with 0 for no label at all
    return float(_lc.prf("f", tp, n_actual, n_pred, b, 0.0))
