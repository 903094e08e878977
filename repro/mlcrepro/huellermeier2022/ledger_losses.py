"""The losses chapter's ledger: Hüllermeier et al. (2022), Secs. 3-4.

One job: recompute, from :mod:`mlcbook.losses` and :mod:`mlcbook.bayes`, every number
and identity of the paper's Secs. 3-4 that the chapter checks, and write the chapter's
ledger (:func:`losses_ledger`), each row with the id of the claim it checks
(``book/_claims``).  The paper's printed values are read from
``book/_claims/huellermeier-2022.printed.csv`` (:func:`mlcrepro.claims.printed`), never
written here.  Each computation is seeded and small (the largest, a simulation of a
million instances, takes a second).

The evidence functions (:func:`orientation_gaps`, :func:`owa_printed_gap`,
:func:`learner_profiles`, :func:`table1_optima`, ...) are public: the chapter shows
what they compute.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from itertools import product
from typing import cast

import numpy as np
import pandas as pd

from mlcbook import losses as L
from mlcbook.bayes import bayes_optimal
from mlcrepro.claims import printed
from mlcrepro.display import CompactTable, verdicts
from mlcrepro.huellermeier2022 import evidence as ev
from mlcrepro.ledger import Ledger, paper_error

__all__ = [
    "paper_value",
    "orientation_gaps",
    "moebius_gap",
    "owa_printed_gap",
    "binomial_moebius_gap",
    "polynomial_gaps",
    "three_label_example",
    "learner_profiles",
    "table1",
    "table1_optima",
    "losses_ledger",
    "verdict_table",
]

_PAPER = "huellermeier-2022"
#: the worked example of Sec. 4.2
Y6 = np.array([0, 1, 1, 0, 0, 0])
S6 = np.array([0.2, 0.3, 0.9, 0.1, 0.4, 0.3])


def _values(v: np.ndarray) -> Sequence[float]:
    """The values v(j/K), j = 0..K, as the library's type hints name them (no copy)."""
    return cast("Sequence[float]", v)


def paper_value(table: str, row: str, column: str) -> str:
    """One value of the paper exactly as printed (``book/_claims/...printed.csv``).

    >>> paper_value("Sec. 4.4, example 1", "learner A", "binomial k=2")
    '0.32'
    """
    t = printed(_PAPER, table)
    hit = t[(t["row"] == row) & (t["column"] == column)]
    if len(hit) != 1:
        raise ValueError(f"no printed value at ({table!r}, {row!r}, {column!r})")
    return str(hit["value"].iloc[0])


def orientation_gaps(seed: int = 0, n: int = 1000, K: int = 4) -> pd.Series:
    """Sec. 4.1 and eqs. 8, 14 on random scores: the three largest differences.

    ``1 - C_mu(u)`` against ``max_i e_i`` (mu = 1 on the full set only: subset 0/1),
    against ``C_dual(e)`` (the integral of the errors w.r.t. the dual capacity), and
    ``C_mu(e)`` (the wrong orientation) against ``min_i e_i``; and the Hamming
    identity of the additive capacity, all on the same seeded ``n x K`` problem.
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


def table1() -> tuple[np.ndarray, np.ndarray]:
    """The paper's Table 1: its 32 label vectors of five labels and their probabilities."""
    t = printed(_PAPER, "Table 1")
    t = t[t["column"] == "probability"]
    support = np.array(list(product([0, 1], repeat=5)))
    probs = dict(zip(t["row"], t["value"]))
    return support, np.array([float(probs[" ".join(map(str, y))]) for y in support])


def table1_optima() -> dict[int, str]:
    """The Bayes-optimal prediction for each binomial k = 1..5 on Table 1 (first minimiser)."""
    support, probs = table1()
    return {
        k: " ".join(
            str(int(b)) for b in bayes_optimal(support, probs, ("binomial", k)).predictions[0]
        )
        for k in range(1, 6)
    }


def _add_owa(led: Ledger) -> None:
    t = "Sec. 4.2 table"
    for label, k, row in [
        ("uniform weights (Hamming)", 1, "uniform weights (Hamming)"),
        ("all weight on the largest error", 6, "all weight on the largest error"),
        ("weights (0,...,5)/15", 2, "weights (0,...,5)/15"),
    ]:
        led.number(
            f"OWA example, {label}",
            t,
            paper=paper_value(t, row, "loss"),
            ours=L.binomial_loss(Y6, S6, k),
            claim_id={1: "HU013", 6: "HU014", 2: "HU015"}[k],
        )
    w_b2 = L.owa_weights(_values(L.family_v("binomial", 2, 6)), 6)
    fifteen_w = ",".join(f"{x:.0f}" for x in np.sort(15 * w_b2))
    led.exact(
        "third row of the OWA table: weights of the binomial loss with k=2, ascending",
        t,
        paper=paper_value(t, "weights (0,...,5)/15", "weights"),
        ours=f"({fifteen_w})/15",
        note="the paper does not name the row; x**2 would give the loss 0.411, so it is "
        "not the polynomial family",
        claim_id="EX001",
    )
    gap = owa_printed_gap()
    eq16 = paper_error(
        "with the weights of eq. 15 the printed sum is v(m/K), not the loss w_1+...+w_m; "
        "it is right only with weights re-indexed by increasing error (as in the paper's "
        "table) and, as 'the m largest weights', only for convex v",
        ref="losses chapter, OWA table",
    )
    agrees = bool(gap.to_numpy().max() < 1e-12)
    led.qualitative(
        "binary loss = sum of the m largest weights, sum_{i=K-m+1}^K w_i",
        "Sec. 4.2",
        paper="sum_{i=K-m+1}^K w_i",
        evidence=f"printed sum vs direct loss: up to {gap.max(axis=1).max():.3f} "
        "apart (binomial k=2 and sqrt v)",
        agrees=agrees,
        cause=None if agrees else eq16,
        note="the paper also reuses k for the error count",
        claim_id="HU016",
    )


def _add_identities(led: Ledger) -> None:
    o = orientation_gaps()
    identities = [
        (
            "subset 0/1 from mu = 1 on the full set: loss = max_i |y_i - s_i|",
            "Sec. 4.1",
            o.iloc[0],
            "the conclusion holds; the printed intermediate sum_i "
            "(u_(i)-u_(i-1)) = u_(1) is a slip (it telescopes to u_(K)): see the errata",
            "HU010",
        ),
        (
            "loss = 1 - Choquet integral of correctness (= integral of errors w.r.t. the dual "
            "capacity)",
            "eqs. 8, 14",
            o.iloc[1],
            "",
            "HU008",
        ),
        (
            "Hamming from the additive mu(A) = |A|/K: loss = mean |y_i - s_i|",
            "Sec. 4.1",
            o.iloc[3],
            "",
            "HU009",
        ),
        (
            "Moebius form (eq. 13) equals the sorted form (eq. 14)",
            "Sec. 3.3",
            moebius_gap(),
            "",
            "HU007",
        ),
    ]
    telescoped = telescoping_sums()
    led.qualitative(
        "printed step of the subset 0/1 case: sum_j (u_(j) - u_(j-1)) = u_(1)",
        "Sec. 4.1",
        paper="sum_j (u_(j) - u_(j-1)) = u_(1)",
        evidence=f"on {len(telescoped)} random sorted u (K = 2..6): the sum equals u_(K) to "
        f"{telescoped['to_largest'].max():.0e} and differs from u_(1) by up to "
        f"{telescoped['to_smallest'].max():.3f}",
        agrees=bool(telescoped["to_smallest"].max() < 1e-12),
        cause=paper_error(
            "without the capacities the sum of the differences telescopes to u_(K), not "
            "u_(1); what is meant is that only the first term survives because "
            "mu(A_(j)) = 0 for j > 1, and the conclusion loss = max_i |y_i - s_i| holds",
            ref="losses chapter, special cases",
        ),
        claim_id="HU112",
    )
    for claim, source, gap, note, cid in identities:
        led.number(
            f"{claim}: largest difference",
            source,
            paper="0",
            ours=round(float(gap), 12),
            tol=1e-12,
            digits=1,
            note=note,
            claim_id=cid,
        )
    led.number(
        "binomial k=3, K=5: Moebius mass 1/C(K,k) on k-sets, 0 elsewhere (eq. 18): "
        "largest difference",
        "eq. 18",
        paper="0",
        ours=round(binomial_moebius_gap(), 12),
        tol=1e-12,
        digits=1,
        claim_id="HU018",
    )
    gap = polynomial_gaps()
    led.ordering(
        "polynomial loss tends to subset 0/1 as alpha grows",
        "Sec. 4.3",
        paper="alpha -> inf",
        rule=f"|poly - subset 0/1| never grows along alpha = 1..1024 ({gap[0]:.3f} -> "
        f"{gap[-1]:.4f}) and is below 1e-4 at 1024",
        holds=bool(np.all(np.diff(gap) <= 0) and gap[-1] < 1e-4),
        claim_id="HU017",
    )


def _add_three_labels(led: Ledger) -> None:
    t = "Sec. 3, 3-label example"
    marg, preds = three_label_example()
    led.number(
        "marginal probability of each label",
        "Sec. 3",
        paper=float(Fraction(paper_value(t, "each label", "P(relevant)"))),
        ours=marg[0],
        tol=1e-12,
        note="the paper prints 9/16; tol: rounding",
        claim_id="HU001",
    )
    for claim, k, row, cid in [
        ("Hamming Bayes-optimal prediction (marginal mode)", 1, "Hamming", "HU002"),
        ("subset 0/1 Bayes-optimal prediction (joint mode)", 3, "subset 0/1", "HU003"),
    ]:
        led.exact(
            claim,
            "Sec. 3",
            paper=paper_value(t, row, "Bayes-optimal prediction"),
            ours=str(tuple(int(b) for b in preds[k][0])),
            claim_id=cid,
        )


def _add_learners(led: Ledger) -> None:
    t = "Sec. 4.4, example 1"
    prof = learner_profiles()
    pair_wrong = paper_error(
        "the paper's 0.32 = 2*0.8*0.2 = P(exactly one label of a pair wrong); the loss is "
        "P(pair not entirely right) = 1 - 0.8^2 = 0.36",
        ref="losses chapter, Sec. 4.4",
    )
    for k in prof.index:
        paper = paper_value(t, "learner A", f"binomial k={k}")
        exact = led.number(
            f"learner A, binomial k={k} (exact)",
            "Sec. 4.4",
            paper=paper,
            ours=prof.loc[k, "exact A"],
            cause=pair_wrong if k == 2 else None,  # the one row the paper gets wrong
            claim_id=f"HU{19 + k:03d}",
        )
        led.number(
            f"learner A, binomial k={k} (simulation, n=10^6)",
            "Sec. 4.4",
            paper=paper,
            ours=prof.loc[k, "simulated A"],
            tol=4 * prof.loc[k, "std. error A"],
            cause=exact.cause,
            note="tol: 4 standard errors of the simulated mean",
            claim_id=f"EX{1 + k:03d}",
        )
    for k in prof.index:
        paper = paper_value(t, "learner B", f"binomial k={k}")
        led.number(
            f"learner B, binomial k={k} (exact)",
            "Sec. 4.4",
            paper=paper,
            ours=prof.loc[k, "exact B"],
            claim_id=f"HU{22 + k:03d}",
        )
        led.number(
            f"learner B, binomial k={k} (simulation, n=10^6)",
            "Sec. 4.4",
            paper=paper,
            ours=prof.loc[k, "simulated B"],
            claim_id=f"EX{4 + k:03d}",
        )
    a, b = prof.loc[3, "exact A"], prof.loc[3, "exact B"]
    led.ordering(
        "A's subset 0/1 loss is a bit below B's",
        "Sec. 4.4",
        paper="A < B, both about 0.5",
        rule=f"exact A {a:.3f} < exact B {b:.3f}",
        holds=bool(a < b),
        claim_id="HU026",
    )


def _add_table1(led: Ledger) -> None:
    opt = table1_optima()
    for k in range(1, 6):
        led.exact(
            f"Bayes-optimal prediction, binomial k={k}",
            "Sec. 4.4, Table 1",
            paper=paper_value("Table 1", "Bayes-optimal prediction", f"binomial k={k}"),
            ours=opt[k],
            claim_id=f"HU{27 + k:03d}",
        )
    for a, b, cid in [(1, 2, "HU033"), (3, 4, "HU034")]:
        changes = sum(x != y for x, y in zip(opt[a].split(), opt[b].split()))
        paper = paper_value("Sec. 4.4, example 2", "labels that change", f"k={a} to k={b}")
        led.exact(
            f"labels that change from k={a} to k={b}",
            "Sec. 4.4",
            paper=int(paper),
            ours=changes,
            claim_id=cid,
        )
    led.number(
        "Table 1 probabilities sum to one",
        "Table 1",
        paper="1",
        ours=float(table1()[1].sum()),
        tol=1e-9,
        note="tol: floating-point addition of the 32 printed values",
        claim_id="EX008",
    )


def _add_surrogates(led: Ledger) -> None:
    t = "Sec. 4.4, example 3"
    br09, br08, lp = 1 - 0.9**5, 1 - 0.8**5, 1 - 0.4
    led.number(
        "subset 0/1 of BR with per-label accuracy 0.9 (independent)",
        "Sec. 4.4",
        paper=paper_value(t, "BR, per-label accuracy 0.9", "subset 0/1"),
        ours=br09,
        claim_id="HU035",
    )
    led.number(
        "subset 0/1 of LP with accuracy 0.4",
        "Sec. 4.4",
        paper=paper_value(t, "LP, accuracy 0.4", "subset 0/1"),
        ours=lp,
        claim_id="HU036",
    )
    led.ordering(
        "with per-label accuracy 0.8, LP would be better",
        "Sec. 4.4",
        paper="case would be different",
        rule=f"subset 0/1 of BR(0.8) = {br08:.3f} > LP's {lp:.1f} (break-even accuracy "
        f"{0.4**0.2:.3f})",
        holds=bool(br08 > lp),
        note="the paper's 'third case' for LP must mean the second",
        claim_id="HU037",
    )


def losses_ledger() -> Ledger:
    """Every row of the losses chapter's ledger, in the chapter's order.

    The worked OWA table (Sec. 4.2) and the binary-loss formula, the identities of
    Secs. 3.3-4.3, the 3-label example of Sec. 3, learners A and B (exact and by
    simulation), Table 1's Bayes-optimal predictions, the BR/LP example, and the
    statements checked on random problems by :mod:`mlcrepro.huellermeier2022.evidence`.
    """
    led = Ledger("losses", "Hüllermeier et al. (2022)")
    _add_owa(led)
    _add_identities(led)
    _add_three_labels(led)
    _add_learners(led)
    _add_table1(led)
    _add_surrogates(led)
    ev.add_bayes_modes(led, claim_id="HU004")
    ev.add_moebius_pair(led, claim_id="HU005")
    ev.add_additive_choquet(led, claim_id="HU006")
    ev.add_owa_counting(led, claim_id="HU011")
    ev.add_worked_errors(led, claim_id="HU012")
    ev.add_family_special_cases(led, claim_id="HU019")
    ev.add_profile_ordering(led, claim_id="HU027")
    return led


def verdict_table(led: Ledger) -> CompactTable:
    """The chapter's main claims in short: claim, paper, ours, verdict."""
    return verdicts(
        led,
        {
            "HU001": "3 labels: marginal of each label",
            "HU002": "3 labels: Hamming-optimal prediction",
            "HU003": "3 labels: subset 0/1-optimal prediction",
            "HU013": "OWA example, uniform weights",
            "HU014": "OWA example, largest error only",
            "HU015": "OWA example, weights (0,...,5)/15",
            "HU016": "binary loss as printed (Sec. 4.2)",
            "HU017": "polynomial loss → subset 0/1",
            "HU020": "learner A, k = 1",
            "HU021": "learner A, k = 2",
            "HU022": "learner A, k = 3",
            "HU023": "learner B, k = 1 (and 2, 3)",
            "HU026": "A's subset 0/1 below B's",
            "HU028": "Table 1: optimum for k = 1",
            "HU029": "Table 1: optimum for k = 2",
            "HU030": "Table 1: optimum for k = 3",
            "HU031": "Table 1: optimum for k = 4",
            "HU032": "Table 1: optimum for k = 5",
            "HU035": "BR (accuracy 0.9), subset 0/1",
            "HU036": "LP (accuracy 0.4), subset 0/1",
            "HU037": "BR (accuracy 0.8) against LP",
        },
    )
