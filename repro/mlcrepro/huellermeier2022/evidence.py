"""Hüllermeier et al. (2022): identities of the loss family and readings of Secs. 1-4.

Each function draws seeded random instances (capacities, distributions, label and
score matrices), evaluates both sides of a statement of the paper with
:mod:`mlcbook.losses` / :mod:`mlcbook.bayes` / :mod:`mlcbook.metrics`, and adds the
result to a ledger as a rule-based row.  Identities are rows of the largest
absolute difference against 0 within :data:`IDENTITY_TOL`.  Every function takes
``claim_id``, the inventory id(s) of the claim its row checks (``book/_claims``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.stats import binom

from mlcbook import losses as L
from mlcbook import metrics as M
from mlcbook._validation import Int, Seed, validate_params
from mlcbook.bayes import bayes_optimal
from mlcrepro.claims import printed
from mlcrepro.evidence_common import IDENTITY_TOL, check_ledger, identity_gap
from mlcrepro.ledger import Cause, Entry, Ledger

#: the inventory id(s) of the claim a row checks (``book/_claims``; :class:`Ledger`)
ClaimId = str | list[str]

__all__ = [
    "random_capacity",
    "add_bayes_modes",
    "add_moebius_pair",
    "add_additive_choquet",
    "add_owa_counting",
    "add_worked_errors",
    "add_family_special_cases",
    "add_profile_ordering",
    "add_empty_prediction_hamming",
]


def random_capacity(K: int, rng: np.random.Generator) -> np.ndarray:
    """A random capacity on K labels (eq. 9), as an array over bitmasks.

    Uniform values on the subsets, made monotone by taking for each set the largest
    value of its subsets, then scaled so that the full set has 1; the empty set has 0.
    """
    mu = rng.random(1 << K)
    mu[0] = 0.0
    for i in range(K):
        v = mu.reshape(-1, 2, 1 << i)
        v[:, 1, :] = np.maximum(v[:, 1, :], v[:, 0, :])
    mu /= mu[-1]
    mu[-1] = 1.0
    return mu


def _ks(K_min: int, K_max: int) -> range:
    if K_min > K_max:
        raise ValueError(f"K_min must be <= K_max, got {K_min} and {K_max}")
    return range(K_min, K_max + 1)


def _identity(
    led: Ledger, claim: str, source: str, gap: float, note: str = "", claim_id: ClaimId = ""
) -> Entry:
    return led.number(
        claim,
        source,
        paper="0",
        ours=identity_gap(gap),
        tol=IDENTITY_TOL,
        digits=12,
        note=note,
        claim_id=claim_id,
    )


@validate_params(seed=Seed(), trials=Int(1, 10_000), K_min=Int(1, 10), K_max=Int(1, 10))
def add_bayes_modes(
    led: Ledger,
    *,
    seed: int = 0,
    trials: int = 25,
    K_min: int = 3,
    K_max: int = 6,
    claim_id: ClaimId = "",
) -> Entry:
    """Hamming -> marginal mode, subset 0/1 -> joint mode, on random distributions.

    For each K in ``K_min..K_max``, ``trials`` seeded distributions: up to 12 distinct
    random label vectors with Dirichlet(1) probabilities (ties have probability 0).
    A trial is a hit when :func:`mlcbook.bayes.bayes_optimal` returns exactly one
    minimiser under each loss, the label-wise marginal mode (Hamming) and the most
    probable vector (subset 0/1).
    """
    led = check_ledger(led)
    ks = _ks(K_min, K_max)
    hits = total = 0
    for K, ss in zip(ks, np.random.SeedSequence(seed).spawn(len(ks))):
        rng = np.random.default_rng(ss)
        for _ in range(trials):
            codes = rng.choice(1 << K, size=min(12, 1 << K), replace=False)
            support = ((codes[:, None] >> np.arange(K)) & 1).astype(np.int8)
            p = rng.dirichlet(np.ones(len(codes)))
            ham = bayes_optimal(support, p, "hamming").predictions
            sub = bayes_optimal(support, p, "subset").predictions
            marginal = (p @ support > 0.5).astype(np.int8)
            joint = support[np.argmax(p)]
            hits += bool(
                len(ham) == 1
                and len(sub) == 1
                and np.array_equal(ham[0], marginal)
                and np.array_equal(sub[0], joint)
            )
            total += 1
    return led.exact(
        f"Bayes-optimal: marginal mode for Hamming, joint mode for subset 0/1 "
        f"(random distributions, K = {K_min}..{K_max})",
        "Sec. 3",
        paper=f"{total} of {total} distributions",
        ours=f"{hits} of {total} distributions",
        claim_id=claim_id,
    )


@validate_params(seed=Seed(), trials=Int(1, 10_000), K_min=Int(1, 10), K_max=Int(1, 10))
def add_moebius_pair(
    led: Ledger,
    *,
    seed: int = 0,
    trials: int = 20,
    K_min: int = 2,
    K_max: int = 6,
    claim_id: ClaimId = "",
) -> Entry:
    """Eqs. 10-11 are inverse: ``from_moebius(moebius(mu)) == mu`` on random capacities."""
    led = check_ledger(led)
    ks = _ks(K_min, K_max)
    gap = 0.0
    for K, ss in zip(ks, np.random.SeedSequence(seed).spawn(len(ks))):
        rng = np.random.default_rng(ss)
        for _ in range(trials):
            mu = random_capacity(K, rng)
            gap = max(gap, float(np.abs(L.from_moebius(L.moebius(mu)) - mu).max()))
    return _identity(
        led,
        f"Moebius transform (11) and its inverse (10) are a pair: largest "
        f"|from_moebius(moebius(mu)) - mu| (random capacities, K = {K_min}..{K_max})",
        "Sec. 3.2, eqs. 10-11",
        gap,
        claim_id=claim_id,
    )


@validate_params(seed=Seed(), n=Int(1, 100_000), K_max=Int(1, 12))
def add_additive_choquet(
    led: Ledger, *, seed: int = 0, n: int = 200, K_max: int = 8, claim_id: ClaimId = ""
) -> Entry:
    """Eq. 12: for an additive mu the Choquet loss is the mu({i})-weighted mean error.

    For K = 1..``K_max``: random singleton weights w (Dirichlet), the additive
    capacity ``mu(A) = sum_{i in A} w_i``, random truth and scores (n x K); the loss
    (14) against ``sum_i w_i |y_i - s_i|`` per instance.
    """
    led = check_ledger(led)
    gap = 0.0
    for K, ss in zip(range(1, K_max + 1), np.random.SeedSequence(seed).spawn(K_max)):
        rng = np.random.default_rng(ss)
        w = rng.dirichlet(np.ones(K))
        bits = (np.arange(1 << K)[:, None] >> np.arange(K)) & 1
        mu = bits @ w
        mu[-1] = 1.0
        Y = rng.integers(0, 2, (n, K))
        S = rng.random((n, K))
        ours = L.choquet_loss(Y, S, mu, per_instance=True)
        gap = max(gap, float(np.abs(ours - np.abs(Y - S) @ w).max()))
    return _identity(
        led,
        "additive mu: Choquet loss = weighted mean error sum_i mu({i}) |y_i - s_i| "
        f"(largest |difference|, K = 1..{K_max})",
        "Sec. 3.3, eq. 12",
        gap,
        claim_id=claim_id,
    )


@validate_params(seed=Seed(), n=Int(1, 100_000), K_max=Int(1, 12))
def add_owa_counting(
    led: Ledger, *, seed: int = 0, n: int = 200, K_max: int = 8, claim_id: ClaimId = ""
) -> Entry:
    """Eqs. 15-16: a counting measure's Choquet loss is the OWA loss of its weights.

    For K = 1..``K_max``: a random non-decreasing ``v`` with v(0) = 0, v(1) = 1; the
    row holds the largest absolute difference between ``owa_loss(Y, S, owa_weights(v, K))``
    and ``choquet_loss(Y, S, counting_measure(v, K))`` per instance, and that between the
    sum of the weights and 1.
    """
    led = check_ledger(led)
    gap = 0.0
    for K, ss in zip(range(1, K_max + 1), np.random.SeedSequence(seed).spawn(K_max)):
        rng = np.random.default_rng(ss)
        v = np.concatenate([[0.0], np.sort(rng.random(K - 1)), [1.0]])
        w = L.owa_weights(v.tolist(), K)
        Y = rng.integers(0, 2, (n, K))
        S = rng.random((n, K))
        a = L.owa_loss(Y, S, w, per_instance=True)
        b = L.choquet_loss(Y, S, L.counting_measure(v.tolist(), K), per_instance=True)
        gap = max(gap, float(np.abs(a - b).max()), abs(float(w.sum()) - 1.0))
    return _identity(
        led,
        "counting measure mu(A) = v(|A|/K): Choquet loss (14) = OWA loss (16) with "
        f"w_i = v((K-i+1)/K) - v((K-i)/K), summing to 1 (largest gap, K = 1..{K_max})",
        "Sec. 4.2, eqs. 15-16",
        gap,
        claim_id=claim_id,
    )


def _printed_errors() -> str:
    t = printed("huellermeier-2022", "Sec. 4.2, worked example")
    return str(t.loc[(t["row"] == "label errors") & (t["column"] == "|y - s|"), "value"].item())


def add_worked_errors(led: Ledger, *, claim_id: ClaimId = "") -> Entry:
    """The label errors ``|y - s|`` of the worked example of Sec. 4.2, as the paper prints them.

    Each error is rounded to 12 decimals before it is written (``1 - 0.9`` is
    0.09999999999999998 in double precision); the paper prints one decimal.  The printed
    errors are read from ``book/_claims/huellermeier-2022.printed.csv``.
    """
    led = check_ledger(led)
    y = np.array([0, 1, 1, 0, 0, 0])
    s = np.array([0.2, 0.3, 0.9, 0.1, 0.4, 0.3])
    errors = np.abs(y - s)
    return led.exact(
        "worked example: label errors |y - s| of y = (0,1,1,0,0,0), s = (0.2,0.3,0.9,0.1,0.4,0.3)",
        "Sec. 4.2",
        paper=_printed_errors(),
        ours=", ".join(f"{round(float(e), 12):g}" for e in errors),
        claim_id=claim_id,
    )


@validate_params(seed=Seed(), n=Int(1, 100_000), K_max=Int(1, 20))
def add_family_special_cases(
    led: Ledger, *, seed: int = 0, n: int = 300, K_max: int = 10, claim_id: ClaimId = ""
) -> list[Entry]:
    """Eqs. 17-18 at their ends: binomial k = 1 and polynomial alpha = 1 are Hamming,
    binomial k = K is subset 0/1 (random binary Y, P for K = 1..``K_max``); two rows."""
    led = check_ledger(led)
    ham = sub = 0.0
    for K, ss in zip(range(1, K_max + 1), np.random.SeedSequence(seed).spawn(K_max)):
        rng = np.random.default_rng(ss)
        Y = rng.integers(0, 2, (n, K))
        P = np.where(rng.random((n, K)) < 0.25, 1 - Y, Y)
        h = M.hamming_loss(Y, P)
        ham = max(
            ham,
            abs(L.binomial_loss(Y, P, 1) - h),
            abs(L.polynomial_loss(Y, P, 1.0) - h),
        )
        sub = max(sub, abs(L.binomial_loss(Y, P, K) - M.subset_zero_one_loss(Y, P)))
    return [
        _identity(
            led,
            f"binomial k = 1 and polynomial alpha = 1 are the Hamming loss (largest "
            f"|difference|, K = 1..{K_max})",
            "Sec. 4.3, eqs. 17-18",
            ham,
            claim_id=claim_id,
        ),
        _identity(
            led,
            f"binomial k = K is the subset 0/1 loss (largest |difference|, K = 1..{K_max})",
            "Sec. 4.3, eq. 18",
            sub,
            claim_id=claim_id,
        ),
    ]


def add_profile_ordering(
    led: Ledger, *, q: float = 0.2, p_b: float = 0.5, claim_id: ClaimId = ""
) -> Entry:
    """Sec. 4.4, example 1: A's binomial loss rises with k, B's is flat, A/B rises.

    Exact profiles on K = 3 labels: A errs on each label independently with
    probability ``q`` (``m ~ Bin(3, q)`` errors), B errs on all three with probability
    ``p_b``; the loss of m errors is :func:`mlcbook.losses.error_count_losses`.
    """
    led = check_ledger(led)
    for name, val in (("q", q), ("p_b", p_b)):
        if not (isinstance(val, (int, float)) and 0 < float(val) < 1):
            raise ValueError(f"{name} must be a probability in (0, 1), got {val!r}")
    pm = binom.pmf(np.arange(4), 3, q)
    a = np.array([pm @ L.error_count_losses("binomial", k, 3) for k in (1, 2, 3)])
    b = np.array([p_b * L.error_count_losses("binomial", k, 3)[3] for k in (1, 2, 3)])
    ratio = a / b
    holds = bool(np.all(np.diff(a) > 0) and np.ptp(b) == 0 and np.all(np.diff(ratio) > 0))
    return led.ordering(
        "learner A is less dependence-aware than B: its loss rises with k, B's is flat",
        "Sec. 4.4",
        paper="A's loss grows with k while B's stays constant; A loses ground to B",
        rule="A's exact binomial loss strictly increases over k = 1, 2, 3 "
        f"({', '.join(f'{x:.3f}' for x in a)}), B's is constant ({b[0]:.3f}) and "
        f"A/B rises ({', '.join(f'{x:.3f}' for x in ratio)})",
        holds=holds,
        claim_id=claim_id,
    )


def add_empty_prediction_hamming(
    led: Ledger, stats: pd.DataFrame, cause: Cause | None = None, *, claim_id: ClaimId = ""
) -> Entry:
    """Sec. 1 and 3: predicting no label has a low Hamming loss on typical data.

    The Hamming loss of the empty prediction is the label density, cardinality / K.
    ``stats`` has one row per dataset (its index names it) and the columns
    ``labels`` and ``cardinality`` (:func:`mlcbook.datasets.dataset_statistics`).
    The reading agrees when the value is below 0.5 (better than predicting every
    label) on every dataset and below 0.1 on most of them; ``cause`` goes to the row
    only if it differs.

    Parameters
    ----------
    led : mlcrepro.ledger.Ledger
        The chapter's ledger; the rows are appended to it.
    stats : pandas.DataFrame
        One row per dataset, with the columns ``labels`` and ``cardinality``.
    cause : mlcrepro.ledger.Cause, optional
        The chapter's cause, given to the row only if it differs (required then).

    Returns
    -------
    Entry
        The row added.
    """
    led = check_ledger(led)
    if not isinstance(stats, pd.DataFrame):
        raise TypeError(f"stats must be a pandas DataFrame, got {type(stats).__name__}")
    missing = {"labels", "cardinality"} - set(stats.columns)
    if missing or stats.empty:
        raise ValueError(
            f"stats must have rows and the columns labels and cardinality; lacks {missing}"
        )
    density = stats["cardinality"].astype(float) / stats["labels"].astype(float)
    low = int((density < 0.1).sum())
    agrees = bool((density < 0.5).all() and low > len(density) / 2)
    shown = ", ".join(f"{d} {v:.3f}" for d, v in density.items())
    return led.qualitative(
        "predicting no label has a low Hamming loss on typical data (= cardinality / K)",
        "Sec. 1, Sec. 3",
        paper="the all-irrelevant prediction has a low Hamming loss on typical MLC data",
        evidence=f"Hamming loss of the empty prediction: {shown}; below 0.1 on {low} of "
        f"{len(density)}, below 0.5 on {int((density < 0.5).sum())} of {len(density)}",
        agrees=agrees,
        cause=None if agrees else cause,
        claim_id=claim_id,
    )
