"""Hivemall's worked example: the tags of seven blog posts and their micro F-beta.

The page on multi-label evaluation of the Hivemall user guide scores the tags a
classifier predicts for seven posts (cat, dog, bird) with its ``fmeasure`` function and
prints micro F1 and micro F2.  ``evidence()`` computes, once per process, what the
ledger judges and the Reproduce page shows, all from :mod:`mlcbook.metrics` (and
scikit-learn, the independent implementation): the counts per post, F1 and F2, the same
F2 by scikit-learn and by micro precision and recall, and F-beta at extreme betas.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
from sklearn import metrics as skm

from mlcbook import metrics as M
from mlcrepro.evidence_common import once

__all__ = ["TRUTH", "PREDICTED", "Evidence", "evidence"]

#: the true tags of the seven posts, as the guide prints them
TRUTH: tuple[tuple[str, ...], ...] = (
    ("cat", "bird"),
    ("cat", "dog"),
    ("cat",),
    ("bird",),
    ("bird", "cat"),
    ("cat", "dog"),
    ("dog", "bird"),
)
#: the predicted tags of the same posts (the third has none)
PREDICTED: tuple[tuple[str, ...], ...] = (
    ("cat", "dog"),
    ("cat", "bird"),
    (),
    ("bird",),
    ("bird", "cat"),
    ("cat", "dog", "bird"),
    ("dog",),
)


@dataclass(frozen=True)
class Evidence:
    """The worked example's numbers (micro counts pooled over the seven posts)."""

    labels: tuple[str, ...]  #: the label columns of the binarised sets
    counts: pd.DataFrame  #: per post (1..7): truth, predicted, tp, fn, fp
    tp: int  #: pooled true positives
    fn: int  #: pooled false negatives
    fp: int  #: pooled false positives
    f1: float  #: micro F1, f_measure_label_sets
    f2: float  #: micro F2, f_measure_label_sets(beta=2)
    sk_f2: float  #: scikit-learn's micro fbeta_score(beta=2) of the binarised sets
    precision: float  #: micro precision tp / (tp + fp)
    recall: float  #: micro recall tp / (tp + fn)
    f2_via_pr: float  #: F2 from micro precision and recall, 5PR / (4P + R)
    f_big: float  #: micro F-beta at beta = 1000
    f_tiny: float  #: micro F-beta at beta = 0.001


@once
def evidence() -> Evidence:
    """Hivemall's example, computed once per process (a copy each call).

    >>> ev = evidence()
    >>> (ev.tp, ev.fn, ev.fp), ev.f1 == 16 / 23
    ((8, 4, 3), True)
    """
    truth, pred = [list(t) for t in TRUTH], [list(p) for p in PREDICTED]
    A, labels = M.binarize(truth)
    B, _ = M.binarize(pred, labels)
    Ab, Bb = A.astype(bool), B.astype(bool)
    counts = pd.DataFrame(
        {
            "truth": [", ".join(t) or "(none)" for t in truth],
            "predicted": [", ".join(p) or "(none)" for p in pred],
            "tp": (Ab & Bb).sum(axis=1),
            "fn": (Ab & ~Bb).sum(axis=1),
            "fp": (~Ab & Bb).sum(axis=1),
        },
        index=pd.RangeIndex(1, len(truth) + 1, name="post"),
    )
    tp, fn, fp = (int(v) for v in counts[["tp", "fn", "fp"]].sum())
    p_micro, r_micro = tp / (tp + fp), tp / (tp + fn)
    return Evidence(
        labels=tuple(str(label) for label in labels),
        counts=counts,
        tp=tp,
        fn=fn,
        fp=fp,
        f1=M.f_measure_label_sets(truth, pred),
        f2=M.f_measure_label_sets(truth, pred, beta=2.0),
        sk_f2=float(skm.fbeta_score(A, B, beta=2.0, average="micro")),
        precision=p_micro,
        recall=r_micro,
        f2_via_pr=5 * p_micro * r_micro / (4 * p_micro + r_micro),
        f_big=M.f_measure_label_sets(truth, pred, beta=1e3),
        f_tiny=M.f_measure_label_sets(truth, pred, beta=1e-3),
    )
