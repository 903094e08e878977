"""The evidence of the losses ledger: Hüllermeier et al. (2022), Secs. 3-4, recomputed.

One job: recompute, with :mod:`mlcbook.losses` and :mod:`mlcbook.bayes`, every number and
identity of the paper's Secs. 3-4 that the losses ledger checks, and gather them in one
frozen value (:func:`losses_evidence`).  Nothing here writes a ledger row
(:mod:`mlcrepro.huellermeier2022.ledger_rows` does).  Every random draw is seeded; the
largest computation, a simulation of a million instances, takes a second.

Identities are kept as their largest absolute difference over seeded random problems
(capacities, distributions, label and score matrices); the ledger compares each with 0
within :data:`mlcrepro.evidence_common.IDENTITY_TOL`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np
import pandas as pd
from scipy.stats import binom

from mlcbook import losses as L
from mlcbook import metrics as M
from mlcbook.bayes import bayes_optimal
from mlcrepro.huellermeier2022.printed import table1

__all__ = [
    "Y6",
    "S6",
    "BAYES_K",
    "MOEBIUS_K",
    "ADDITIVE_K_MAX",
    "OWA_K_MAX",
    "FAMILY_K_MAX",
    "LossesEvidence",
    "losses_evidence",
    "orientation_gaps",
    "telescoping_sums",
    "moebius_gap",
    "owa_printed_gap",
    "binomial_moebius_gap",
    "polynomial_gaps",
    "three_label_example",
    "learner_profiles",
    "table1_optima",
    "random_capacity",
    "bayes_modes",
    "moebius_pair_gap",
    "additive_choquet_gap",
    "owa_counting_gap",
    "worked_errors",
    "family_special_case_gaps",
    "profile_ordering",
]

#: the worked example of Sec. 4.2: truth and scores of one instance with six labels
Y6 = np.array([0, 1, 1, 0, 0, 0])
S6 = np.array([0.2, 0.3, 0.9, 0.1, 0.4, 0.3])
#: the label counts K of the checks on random problems (the ledger's rows name them)
BAYES_K = (3, 6)
MOEBIUS_K = (2, 6)
ADDITIVE_K_MAX = 8
OWA_K_MAX = 8
FAMILY_K_MAX = 10


def _values(v: np.ndarray) -> Sequence[float]:
    """The values v(j/K), j = 0..K, as the library's type hints name them (no copy)."""
    return cast("Sequence[float]", v)


def _ks(K_min: int, K_max: int) -> range:
    if K_min > K_max:
        raise ValueError(f"K_min must be <= K_max, got {K_min} and {K_max}")
    return range(K_min, K_max + 1)


def orientation_gaps(seed: int = 0, n: int = 1000, K: int = 4) -> pd.Series:
    """Sec. 4.1 and eqs. 8, 14 on random scores: the largest differences.

    ``1 - C_mu(u)`` against ``max_i e_i`` (mu = 1 on the full set only: subset 0/1),
    against ``C_dual(e)`` (the integral of the errors w.r.t. the dual capacity), and
    ``C_mu(e)`` (the wrong orientation) against ``min_i e_i``; and the Hamming
    identity of the additive capacity, all on the same seeded ``n x K`` problem.

    >>> bool((orientation_gaps(n=50) < 1e-12).all())
    True
    """
    rng = np.random.default_rng(seed)
    Y = rng.integers(0, 2, (n, K))
    S = rng.random((n, K))
    E = np.abs(Y - S)
    mu_subset = L.subset_capacity(K)
    full = (1 << K) - 1
    dual = 1 - mu_subset[full ^ np.arange(1 << K)]  # dual capacity over bitmasks
    loss_paper = L.choquet_loss(Y, S, mu_subset, per_instance=True)  # 1 - C_mu(u)
    loss_dual = L.choquet_integral(E, dual)  # C_dual(e)
    loss_wrong = L.choquet_integral(E, mu_subset)  # C_mu(e): not the loss
    return pd.Series(
        {
            "max |1 - C_mu(u) - max_i e_i|": np.abs(loss_paper - E.max(1)).max(),
            "max |1 - C_mu(u) - C_dual(e)|": np.abs(loss_paper - loss_dual).max(),
            "max |C_mu(e) - min_i e_i|": np.abs(loss_wrong - E.min(1)).max(),
            "max |Hamming capacity loss - mean e_i|": abs(
                L.choquet_loss(Y, S, L.hamming_capacity(K)) - E.mean()
            ),
        }
    )


def telescoping_sums(seed: int = 0, n: int = 200) -> pd.DataFrame:
    """Sec. 4.1's printed step, on random sorted correctness values.

    For each of ``n`` seeded vectors ``u`` (``K`` from 2 to 6), sorted increasingly with
    ``u_(0) = 0``: the sum of the differences ``sum_j (u_(j) - u_(j-1))`` against the
    largest value ``u_(K)`` (``to_largest``, what it telescopes to) and against the
    smallest ``u_(1)`` (``to_smallest``, what the paper prints).

    Examples
    --------
    >>> t = telescoping_sums(n=50)
    >>> bool(t["to_largest"].max() < 1e-12), bool(t["to_smallest"].max() > 0.1)
    (True, True)
    """
    rng = np.random.default_rng(seed)
    rows = []
    for _ in range(n):
        u = np.sort(rng.random(int(rng.integers(2, 7))))
        total = float(np.diff(np.concatenate([[0.0], u])).sum())
        rows.append({"to_largest": abs(total - u[-1]), "to_smallest": abs(total - u[0])})
    return pd.DataFrame(rows)


def moebius_gap(seed: int = 1, n: int = 200, K_max: int = 7) -> float:
    """Eq. 13 against eq. 14 on random belief functions, K = 1..K_max: largest difference."""
    rng = np.random.default_rng(seed)
    worst = 0.0
    for K in range(1, K_max + 1):
        m = rng.random(1 << K) * (rng.random(1 << K) < 0.5)  # mass >= 0: a belief function
        m[0], m[-1] = 0.0, m[-1] + 0.1
        mu = L.from_moebius(m / m.sum())
        Yr, Sr = rng.integers(0, 2, (n, K)), rng.random((n, K))
        a = L.choquet_loss(Yr, Sr, mu, per_instance=True)
        b = L.choquet_loss_moebius(Yr, Sr, L.moebius(mu), per_instance=True)
        worst = max(worst, np.abs(a - b).max())
    return float(worst)


def owa_printed_gap(K: int = 6) -> pd.DataFrame:
    """The printed sum of Sec. 4.2, ``sum_{i=K-m+1}^K w_i``, against the direct loss.

    Rows: a convex ``v`` (binomial k = 2) and a concave one (sqrt); columns: the
    number of wrong labels m = 0..K; cells: ``|printed sum - OWA loss|`` of a binary
    prediction with m wrong labels.
    """
    m_err = np.arange(K + 1)
    P_m = (np.arange(K) < m_err[:, None]).astype(int)  # row m: the first m labels wrong
    rows = {}
    for name, v in {
        "binomial k=2 (convex)": L.family_v("binomial", 2, K),
        "v(x)=sqrt(x) (concave)": np.sqrt(np.arange(K + 1) / K),
    }.items():
        w = L.owa_weights(_values(v), K)
        direct = L.owa_loss(0 * P_m, P_m, w, per_instance=True)
        as_printed = np.array([w[K - m :].sum() for m in m_err])
        rows[name] = np.abs(as_printed - direct)
    return pd.DataFrame(rows, index=pd.Index(m_err, name="m errors")).T


def binomial_moebius_gap(k: int = 3, K: int = 5) -> float:
    """Eq. 18: the binomial capacity's Moebius mass is 1/C(K,k) on k-sets, 0 elsewhere."""
    m_b = L.moebius(L.counting_measure(_values(L.family_v("binomial", k, K)), K))
    sizes = L.popcount(np.arange(1 << K))
    return float(np.abs(m_b - (sizes == k) / math.comb(K, k)).max())


def polynomial_gaps(
    alphas: tuple[int, ...] = (1, 2, 4, 8, 16, 64, 256, 1024), seed: int = 2, K: int = 5
) -> np.ndarray:
    """``|polynomial loss(alpha) - subset 0/1|`` on a seeded 2000 x K problem, per alpha."""
    rng = np.random.default_rng(seed)
    Yr, Sr = rng.integers(0, 2, (2000, K)), rng.random((2000, K))
    return np.abs(L.loss_profile(Yr, Sr, "polynomial", list(alphas)) - L.binomial_loss(Yr, Sr, K))


def three_label_example() -> tuple[np.ndarray, dict[int, np.ndarray]]:
    """Sec. 3: the marginals and the binomial (k = 1, 2, 3) Bayes-optimal predictions."""
    sup3 = np.array([[0, 0, 0], [1, 1, 1], [0, 1, 1], [1, 0, 1], [1, 1, 0]])
    p3 = np.array([4, 3, 3, 3, 3]) / 16
    return p3 @ sup3, {k: bayes_optimal(sup3, p3, ("binomial", k)).predictions for k in (1, 2, 3)}


def learner_profiles(q: float = 0.2, n_sim: int = 1_000_000, seed: int = 44) -> pd.DataFrame:
    """Sec. 4.4, example 1: learners A and B on three labels, exact and simulated.

    Truth all-ones or all-zeros with probability 1/2; A flips each label with
    probability ``q``, B flips all three with probability 1/2.  Columns (index: the
    binomial k = 1, 2, 3): ``exact A``, ``simulated A``, ``std. error A`` (of the
    simulated mean), ``exact B``, ``simulated B``.
    """
    ks = [1, 2, 3]
    pm = np.array([math.comb(3, m) * q**m * (1 - q) ** (3 - m) for m in range(4)])
    exact_A = np.array([pm @ L.error_count_losses("binomial", k, 3) for k in ks])
    exact_B = np.array([0.5 * L.error_count_losses("binomial", k, 3)[3] for k in ks])
    rng = np.random.default_rng(seed)
    Y_sim = np.repeat(rng.integers(0, 2, (n_sim, 1)), 3, axis=1).astype(np.int8)
    P_A = Y_sim ^ (rng.random((n_sim, 3)) < q).astype(np.int8)
    P_B = Y_sim ^ np.repeat((rng.random((n_sim, 1)) < 0.5).astype(np.int8), 3, axis=1)
    per_A = L.loss_profile(Y_sim, P_A, "binomial", ks, per_instance=True)
    return pd.DataFrame(
        {
            "exact A": exact_A,
            "simulated A": L.loss_profile(Y_sim, P_A, "binomial", ks),
            "std. error A": per_A.std(axis=0) / np.sqrt(n_sim),
            "exact B": exact_B,
            "simulated B": L.loss_profile(Y_sim, P_B, "binomial", ks),
        },
        index=pd.Index(ks, name="k"),
    )


def table1_optima() -> dict[int, str]:
    """The Bayes-optimal prediction for each binomial k = 1..5 on Table 1 (first minimiser)."""
    support, probs = table1()
    return {
        k: " ".join(
            str(int(b)) for b in bayes_optimal(support, probs, ("binomial", k)).predictions[0]
        )
        for k in range(1, 6)
    }


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


def bayes_modes(
    *, seed: int = 0, trials: int = 25, K_min: int = BAYES_K[0], K_max: int = BAYES_K[1]
) -> tuple[int, int]:
    """Hamming -> marginal mode, subset 0/1 -> joint mode, on random distributions.

    For each K in ``K_min..K_max``, ``trials`` seeded distributions: up to 12 distinct
    random label vectors with Dirichlet(1) probabilities (ties have probability 0).
    A trial is a hit when :func:`mlcbook.bayes.bayes_optimal` returns exactly one
    minimiser under each loss, the label-wise marginal mode (Hamming) and the most
    probable vector (subset 0/1).  Returns ``(hits, trials in all)``.
    """
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
    return hits, total


def moebius_pair_gap(
    *, seed: int = 0, trials: int = 20, K_min: int = MOEBIUS_K[0], K_max: int = MOEBIUS_K[1]
) -> float:
    """Eqs. 10-11 are inverse: largest ``|from_moebius(moebius(mu)) - mu|``, random capacities."""
    ks = _ks(K_min, K_max)
    gap = 0.0
    for K, ss in zip(ks, np.random.SeedSequence(seed).spawn(len(ks))):
        rng = np.random.default_rng(ss)
        for _ in range(trials):
            mu = random_capacity(K, rng)
            gap = max(gap, float(np.abs(L.from_moebius(L.moebius(mu)) - mu).max()))
    return gap


def additive_choquet_gap(*, seed: int = 0, n: int = 200, K_max: int = ADDITIVE_K_MAX) -> float:
    """Eq. 12: for an additive mu the Choquet loss is the mu({i})-weighted mean error.

    For K = 1..``K_max``: random singleton weights w (Dirichlet), the additive
    capacity ``mu(A) = sum_{i in A} w_i``, random truth and scores (n x K); the
    largest difference between the loss (14) and ``sum_i w_i |y_i - s_i|`` per instance.
    """
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
    return gap


def owa_counting_gap(*, seed: int = 0, n: int = 200, K_max: int = OWA_K_MAX) -> float:
    """Eqs. 15-16: a counting measure's Choquet loss is the OWA loss of its weights.

    For K = 1..``K_max``: a random non-decreasing ``v`` with v(0) = 0, v(1) = 1; the
    largest absolute difference between ``owa_loss(Y, S, owa_weights(v, K))`` and
    ``choquet_loss(Y, S, counting_measure(v, K))`` per instance, and that between the
    sum of the weights and 1.
    """
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
    return gap


def worked_errors() -> str:
    """The label errors ``|y - s|`` of the worked example of Sec. 4.2, as text.

    Each error is rounded to 12 decimals before it is written (``1 - 0.9`` is
    0.09999999999999998 in double precision); the paper prints one decimal.

    >>> worked_errors()
    '0.2, 0.7, 0.1, 0.1, 0.4, 0.3'
    """
    return ", ".join(f"{round(float(e), 12):g}" for e in np.abs(Y6 - S6))


def family_special_case_gaps(
    *, seed: int = 0, n: int = 300, K_max: int = FAMILY_K_MAX
) -> tuple[float, float]:
    """Eqs. 17-18 at their ends, on random binary Y, P for K = 1..``K_max``.

    Returns the largest differences ``(Hamming, subset)``: of binomial k = 1 and
    polynomial alpha = 1 from the Hamming loss, and of binomial k = K from the subset
    0/1 loss (:mod:`mlcbook.metrics`).
    """
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
    return ham, sub


def profile_ordering(
    q: float = 0.2, p_b: float = 0.5
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sec. 4.4, example 1: exact binomial profiles (k = 1, 2, 3) of A and B, and A/B.

    A errs on each of three labels independently with probability ``q``
    (``m ~ Bin(3, q)`` errors), B errs on all three with probability ``p_b``; the
    loss of m errors is :func:`mlcbook.losses.error_count_losses`.
    """
    for name, val in (("q", q), ("p_b", p_b)):
        if not (isinstance(val, (int, float)) and 0 < float(val) < 1):
            raise ValueError(f"{name} must be a probability in (0, 1), got {val!r}")
    pm = binom.pmf(np.arange(4), 3, q)
    a = np.array([pm @ L.error_count_losses("binomial", k, 3) for k in (1, 2, 3)])
    b = np.array([p_b * L.error_count_losses("binomial", k, 3)[3] for k in (1, 2, 3)])
    return a, b, a / b


@dataclass(frozen=True)
class LossesEvidence:
    """Everything the losses ledger reads: each field the function of the same name.

    ``owa_losses``: the binomial loss of the worked example (``Y6``, ``S6``)
    for k = 1, 6, 2 (the three rows of the paper's table); ``owa_weights_15``: 15 times
    the weights of the binomial loss with k = 2 on six labels, ascending;
    ``table1_sum``: the sum of Table 1's printed probabilities.
    """

    owa_losses: dict[int, float]
    owa_weights_15: str
    owa_printed_gap: pd.DataFrame
    orientation_gaps: pd.Series
    telescoping_sums: pd.DataFrame
    moebius_gap: float
    binomial_moebius_gap: float
    polynomial_gaps: np.ndarray
    three_label_example: tuple[np.ndarray, dict[int, np.ndarray]]
    learner_profiles: pd.DataFrame
    table1_optima: dict[int, str]
    table1_sum: float
    bayes_modes: tuple[int, int]
    moebius_pair_gap: float
    additive_choquet_gap: float
    owa_counting_gap: float
    worked_errors: str
    family_special_case_gaps: tuple[float, float]
    profile_ordering: tuple[np.ndarray, np.ndarray, np.ndarray]


def losses_evidence() -> LossesEvidence:
    """Recompute every number and identity the losses ledger checks (a few seconds)."""
    w_b2 = L.owa_weights(_values(L.family_v("binomial", 2, 6)), 6)
    return LossesEvidence(
        owa_losses={k: float(L.binomial_loss(Y6, S6, k)) for k in (1, 6, 2)},
        owa_weights_15=",".join(f"{x:.0f}" for x in np.sort(15 * w_b2)),
        owa_printed_gap=owa_printed_gap(),
        orientation_gaps=orientation_gaps(),
        telescoping_sums=telescoping_sums(),
        moebius_gap=moebius_gap(),
        binomial_moebius_gap=binomial_moebius_gap(),
        polynomial_gaps=polynomial_gaps(),
        three_label_example=three_label_example(),
        learner_profiles=learner_profiles(),
        table1_optima=table1_optima(),
        table1_sum=float(table1()[1].sum()),
        bayes_modes=bayes_modes(),
        moebius_pair_gap=moebius_pair_gap(),
        additive_choquet_gap=additive_choquet_gap(),
        owa_counting_gap=owa_counting_gap(),
        worked_errors=worked_errors(),
        family_special_case_gaps=family_special_case_gaps(),
        profile_ordering=profile_ordering(),
    )
