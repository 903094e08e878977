"""Zhang & Zhou (2014), Sec. 2.2.2: the example-based definitions, checked as ledger rows.

The measures chapter compares :mod:`mlcbook.metrics` with scikit-learn under Wu &
Zhou's Table 1; the rows added here state the same agreement for Zhang & Zhou's
definitions (their source starts with the authors, so the summaries count them for
that paper), the F-combination of :math:`F^\\beta_{exam}`, and the strictness of
subset accuracy as the number of labels q grows.  Each row carries the id of the claim
of ``book/_claims/zhang-zhou-2014.csv`` it checks.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from sklearn import metrics as skm

from mlcbook import metrics as M
from mlcbook._validation import Int, Seed, check_positive_int, check_real, validate_params
from mlcrepro.evidence_common import IDENTITY_TOL, check_ledger, identity_gap
from mlcrepro.ledger import Entry, Ledger

__all__ = [
    "random_label_pair",
    "add_example_based_definitions",
    "add_f_beta_combination",
    "add_subset_accuracy_strictness",
    "DEFINITION_IDS",
]

SOURCE = "Zhang & Zhou, Sec. 2.2.2"
#: the inventory ids (``book/_claims/zhang-zhou-2014.csv``) of the five definitions
DEFINITION_IDS = {
    "subset accuracy": "ZZ001",
    "Hamming loss": "ZZ002",
    "Accuracy_exam": "ZZ003",
    "Precision_exam": "ZZ004",
    "Recall_exam": "ZZ005",
}


def random_label_pair(
    n: int, K: int, *, density: float = 0.35, seed: Any = 0
) -> tuple[np.ndarray, np.ndarray]:
    """A seeded random truth ``Y`` and prediction ``P`` (0/1, shape (n, K)).

    A prediction agrees with the truth on each label with probability 0.7, so the
    pairs cover exact hits, partial overlaps and empty label sets.  ``seed`` is
    anything :func:`numpy.random.default_rng` accepts.

    Parameters
    ----------
    n, K : int
        Instances and labels.
    density : float in [0, 1]
        Probability that a true label is relevant.
    seed : int, SeedSequence or Generator

    Returns
    -------
    Y, P : ndarray of int8, shape (n, K)
    """
    n = check_positive_int(n, "n")
    K = check_positive_int(K, "K")
    density = check_real(density, "density", low=0.0, high=1.0)
    rng = np.random.default_rng(seed)
    Y = (rng.random((n, K)) < density).astype(np.int8)
    flip = rng.random((n, K)) < 0.3
    return Y, np.where(flip, 1 - Y, Y).astype(np.int8)


def _gaps(Y: np.ndarray, P: np.ndarray) -> dict[str, float]:
    """``|mlcbook - scikit-learn|`` per definition (zero_division = 1 on both sides)."""
    pairs = {
        "subset accuracy": (M.subset_accuracy(Y, P), skm.accuracy_score(Y, P)),
        "Hamming loss": (M.hamming_loss(Y, P), skm.hamming_loss(Y, P)),
        "Accuracy_exam": (
            M.jaccard_score(Y, P, zero_division=1.0),
            skm.jaccard_score(Y, P, average="samples", zero_division=1.0),
        ),
        "Precision_exam": (
            M.precision(Y, P, average="instance", zero_division=1.0),
            skm.precision_score(Y, P, average="samples", zero_division=1.0),
        ),
        "Recall_exam": (
            M.recall(Y, P, average="instance", zero_division=1.0),
            skm.recall_score(Y, P, average="samples", zero_division=1.0),
        ),
    }
    return {k: abs(float(a) - float(b)) for k, (a, b) in pairs.items()}


SKLEARN_NAMES = {
    "subset accuracy": "accuracy_score",
    "Hamming loss": "hamming_loss",
    "Accuracy_exam": "jaccard_score(average='samples')",
    "Precision_exam": "precision_score(average='samples')",
    "Recall_exam": "recall_score(average='samples')",
}


@validate_params(seed=Seed(), draws=Int(1, 1000))
def add_example_based_definitions(led: Ledger, *, seed: int = 0, draws: int = 20) -> list[Entry]:
    """Five rows: each of Zhang & Zhou's five example-based measures is scikit-learn's.

    ``draws`` seeded random pairs (n = 50, K = 2..9 in turn, as scikit-learn reads
    K = 1 as binary; empty label sets included, scored with zero_division = 1 on
    both sides); each row holds the
    largest ``|mlcbook - scikit-learn|`` over the draws against 0 within
    :data:`IDENTITY_TOL`.
    """
    led = check_ledger(led)
    worst = dict.fromkeys(SKLEARN_NAMES, 0.0)
    for d, ss in enumerate(np.random.SeedSequence(seed).spawn(draws)):
        Y, P = random_label_pair(50, 2 + d % 8, seed=ss)
        for k, g in _gaps(Y, P).items():
            worst[k] = max(worst[k], g)
    return [
        led.number(
            f"Zhang & Zhou's {name} is scikit-learn's {SKLEARN_NAMES[name]} "
            f"(largest |difference|, {draws} random pairs)",
            SOURCE + f", {name}",
            paper="0",
            ours=identity_gap(worst[name]),
            tol=IDENTITY_TOL,
            digits=12,
            claim_id=DEFINITION_IDS[name],
        )
        for name in SKLEARN_NAMES
    ]


@validate_params(seed=Seed())
def add_f_beta_combination(led: Ledger, *, seed: int = 0) -> list[Entry]:
    """F^beta_exam is the F-combination of the averaged precision and recall.

    On one seeded random pair (n = 200, K = 6): :func:`mlcbook.metrics.example_based_f_measure`
    against ``(1 + b^2) P R / (b^2 P + R)`` of
    ``precision``/``recall(average='instance')`` for b in {0.5, 1, 2} (largest gap),
    and at b = 1 against the harmonic mean ``2 P R / (P + R)``.  The note records how
    far the mean of per-instance F1 (``f_measure(average='instance')``, a different
    quantity) lies from it on the same pair.
    """
    led = check_ledger(led)
    Y, P = random_label_pair(200, 6, seed=seed)
    prec = float(M.precision(Y, P, average="instance"))
    rec = float(M.recall(Y, P, average="instance"))
    gap = max(
        abs(M.example_based_f_measure(Y, P, b) - (1 + b * b) * prec * rec / (b * b * prec + rec))
        for b in (0.5, 1.0, 2.0)
    )
    f1 = M.example_based_f_measure(Y, P, 1.0)
    harmonic = abs(f1 - 2 * prec * rec / (prec + rec))
    other = abs(f1 - float(M.f_measure(Y, P, average="instance")))
    return [
        led.number(
            "F^beta_exam = (1+b^2) P R / (b^2 P + R) of the averaged Precision_exam and "
            "Recall_exam (largest |difference|, b = 0.5, 1, 2)",
            SOURCE + ", F^beta_exam",
            paper="0",
            ours=identity_gap(gap),
            tol=IDENTITY_TOL,
            digits=12,
            claim_id="ZZ006",
        ),
        led.number(
            "F^1_exam is the harmonic mean of Precision_exam and Recall_exam (|difference|)",
            SOURCE + ", F^beta_exam",
            paper="0",
            ours=identity_gap(harmonic),
            tol=IDENTITY_TOL,
            digits=12,
            note=f"the mean of per-instance F1 is another quantity: {other:.4f} away "
            "on the same pair",
            claim_id="ZZ006",
        ),
    ]


@validate_params(seed=Seed(), n=Int(10, 10**6), resamples=Int(1, 1000))
def add_subset_accuracy_strictness(
    led: Ledger,
    *,
    accuracy: float = 0.9,
    qs: tuple[int, ...] = (1, 2, 4, 8, 16, 32),
    n: int = 2000,
    seed: int = 0,
    resamples: int = 50,
) -> Entry:
    """Subset accuracy of a predictor right on each label with probability ``accuracy``.

    Labels are predicted independently (binary relevance with a fixed per-label
    accuracy), so the Hamming loss stays near ``1 - accuracy`` whatever q, while the
    expected subset accuracy is ``accuracy**q``.  The rule: subset accuracy falls
    strictly along ``qs`` on a sample of ``n`` instances; its robustness is over
    ``resamples`` further seeded samples.

    Parameters
    ----------
    led : mlcrepro.ledger.Ledger
        The chapter's ledger; the rows are appended to it.
    accuracy : float in (0, 1)
        Probability that a label is predicted right.
    qs : tuple of int
        The numbers of labels, increasing.
    n : int
        Instances per sample.
    seed : int
        Seed of the samples.
    resamples : int
        Further samples on which the rule is checked (the robustness).

    Returns
    -------
    Entry
        The row added.
    """
    led = check_ledger(led)
    accuracy = check_real(accuracy, "accuracy", low=0.0, high=1.0)
    if accuracy in (0.0, 1.0):
        raise ValueError(f"accuracy must lie strictly between 0 and 1, got {accuracy}")
    if len(qs) < 2 or any(check_positive_int(q, "qs") <= p for p, q in zip(qs, qs[1:])):
        raise ValueError(f"qs must be at least two increasing label counts, got {qs!r}")
    qs = tuple(check_positive_int(q, "qs") for q in qs)

    def curve(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        acc, ham = [], []
        for q in qs:
            Y = (rng.random((n, q)) < 0.3).astype(np.int8)
            P = np.where(rng.random((n, q)) < accuracy, Y, 1 - Y)
            acc.append(M.subset_accuracy(Y, P))
            ham.append(M.hamming_loss(Y, P))
        return np.array(acc), np.array(ham)

    seqs = np.random.SeedSequence(seed).spawn(resamples + 1)
    acc, ham = curve(np.random.default_rng(seqs[0]))
    holds = bool(np.all(np.diff(acc) < 0))
    hits = sum(bool(np.all(np.diff(curve(np.random.default_rng(s))[0]) < 0)) for s in seqs[1:])
    shown = ", ".join(f"q={q}: {a:.3f}" for q, a in zip(qs, acc))
    return led.ordering(
        "subset accuracy is overly strict when q is large (falls with q at a fixed "
        "per-label accuracy)",
        SOURCE + ", Subset Accuracy",
        paper="tends to be overly strict especially when q is large",
        rule=f"per-label accuracy {accuracy:g}, n = {n}: subset accuracy falls strictly "
        f"as q grows ({shown}; expected {accuracy:g}^q) while the Hamming loss stays "
        f"{ham.min():.3f}-{ham.max():.3f}",
        holds=holds,
        robustness=(hits, resamples),
        over="seeded samples",
        claim_id="ZZ008",
    )
