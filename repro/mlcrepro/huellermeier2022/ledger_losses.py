"""The losses ledger of Hüllermeier et al. (2022): Secs. 3-4, rows added in the order of
the losses chapter.

The worked OWA table and the binary-loss formula, the identities of the loss family,
the 3-label example, learners A and B (exact and simulated), Table 1's Bayes-optimal
predictions and the BR/LP example.  Every row records what it is about (``about``:
the example, table or section, the loss and its parameter); no number is computed here
beyond formatting what the evidence
(:func:`~mlcrepro.huellermeier2022.evidence_losses.losses_evidence`) holds.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd

from mlcrepro.evidence_common import IDENTITY_TOL, identity_gap
from mlcrepro.huellermeier2022 import causes as C
from mlcrepro.huellermeier2022.evidence_losses import (
    ADDITIVE_K_MAX,
    BAYES_K,
    FAMILY_K_MAX,
    MOEBIUS_K,
    OWA_K_MAX,
    LossesEvidence,
)
from mlcrepro.huellermeier2022.printed import paper_value
from mlcrepro.ledger import Ledger

__all__ = ["ROWS"]


def _identity(led: Ledger, claim: str, source: str, gap: float, claim_id: str, **about) -> None:
    """An identity row: the largest difference against 0 within IDENTITY_TOL."""
    led.number(
        claim,
        source,
        paper="0",
        ours=identity_gap(gap),
        tol=IDENTITY_TOL,
        digits=12,
        claim_id=claim_id,
        about={"quantity": "identity", **about},
    )


def _owa_rows(led: Ledger, ev: LossesEvidence) -> None:
    t = "Sec. 4.2 table"
    for label, k, cid in [
        ("uniform weights (Hamming)", 1, "HU013"),
        ("all weight on the largest error", 6, "HU014"),
        ("weights (0,...,5)/15", 2, "HU015"),
    ]:
        led.number(
            f"OWA example, {label}",
            t,
            paper=paper_value(t, label, "loss"),
            ours=ev.owa_losses[k],
            claim_id=cid,
            about={"table": t, "loss": "binomial", "k": k},
        )
    led.exact(
        "third row of the OWA table: weights of the binomial loss with k=2, ascending",
        t,
        paper=paper_value(t, "weights (0,...,5)/15", "weights"),
        ours=f"({ev.owa_weights_15})/15",
        note="the paper does not name the row; x**2 would give the loss 0.411, so it is "
        "not the polynomial family",
        claim_id="EX001",
        about={"table": t, "loss": "binomial", "k": 2, "quantity": "weights"},
    )
    gap = ev.owa_printed_gap
    agrees = bool(gap.to_numpy().max() < 1e-12)
    led.qualitative(
        "binary loss = sum of the m largest weights, sum_{i=K-m+1}^K w_i",
        "Sec. 4.2",
        paper="sum_{i=K-m+1}^K w_i",
        evidence=f"printed sum vs direct loss: up to {gap.max(axis=1).max():.3f} "
        "apart (binomial k=2 and sqrt v)",
        agrees=agrees,
        cause=C.OWA_SUM,
        note="the paper also reuses k for the error count",
        claim_id="HU016",
        about={"example": "Sec. 4.2", "loss": "OWA", "quantity": "binary loss"},
    )


def _identity_rows(led: Ledger, ev: LossesEvidence) -> None:
    o = ev.orientation_gaps
    identities = [  # claim, source, gap, note, id, loss
        (
            "subset 0/1 from mu = 1 on the full set: loss = max_i |y_i - s_i|",
            "Sec. 4.1",
            o.iloc[0],
            "the conclusion holds; the printed intermediate sum_i "
            "(u_(i)-u_(i-1)) = u_(1) is a slip (it telescopes to u_(K)): see the errata",
            "HU010",
            "subset01",
        ),
        (
            "loss = 1 - Choquet integral of correctness (= integral of errors w.r.t. the dual "
            "capacity)",
            "eqs. 8, 14",
            o.iloc[1],
            "",
            "HU008",
            "Choquet",
        ),
        (
            "Hamming from the additive mu(A) = |A|/K: loss = mean |y_i - s_i|",
            "Sec. 4.1",
            o.iloc[3],
            "",
            "HU009",
            "hamming",
        ),
        (
            "Moebius form (eq. 13) equals the sorted form (eq. 14)",
            "Sec. 3.3",
            ev.moebius_gap,
            "",
            "HU007",
            "Choquet",
        ),
    ]
    _telescoping_row(led, ev)
    for claim, source, gap, note, cid, loss in identities:
        led.number(
            f"{claim}: largest difference",
            source,
            paper="0",
            ours=round(float(gap), 12),
            tol=1e-12,
            digits=1,
            note=note,
            claim_id=cid,
            about={"loss": loss, "quantity": "identity"},
        )


def _telescoping_row(led: Ledger, ev: LossesEvidence) -> None:
    telescoped = ev.telescoping_sums
    agrees = bool(telescoped["to_smallest"].max() < 1e-12)
    led.qualitative(
        "printed step of the subset 0/1 case: sum_j (u_(j) - u_(j-1)) = u_(1)",
        "Sec. 4.1",
        paper="sum_j (u_(j) - u_(j-1)) = u_(1)",
        evidence=f"on {len(telescoped)} random sorted u (K = 2..6): the sum equals u_(K) to "
        f"{telescoped['to_largest'].max():.0e} and differs from u_(1) by up to "
        f"{telescoped['to_smallest'].max():.3f}",
        agrees=agrees,
        cause=C.TELESCOPED,
        claim_id="HU112",
        about={"example": "Sec. 4.1", "loss": "subset01", "quantity": "telescoping sum"},
    )


def _family_rows(led: Ledger, ev: LossesEvidence) -> None:
    led.number(
        "binomial k=3, K=5: Moebius mass 1/C(K,k) on k-sets, 0 elsewhere (eq. 18): "
        "largest difference",
        "eq. 18",
        paper="0",
        ours=round(ev.binomial_moebius_gap, 12),
        tol=1e-12,
        digits=1,
        claim_id="HU018",
        about={"loss": "binomial", "k": 3, "quantity": "Moebius mass"},
    )
    gap = ev.polynomial_gaps
    led.ordering(
        "polynomial loss tends to subset 0/1 as alpha grows",
        "Sec. 4.3",
        paper="alpha -> inf",
        rule=f"|poly - subset 0/1| never grows along alpha = 1..1024 ({gap[0]:.3f} -> "
        f"{gap[-1]:.4f}) and is below 1e-4 at 1024",
        holds=bool(np.all(np.diff(gap) <= 0) and gap[-1] < 1e-4),
        claim_id="HU017",
        about={"loss": "polynomial", "quantity": "limit in alpha"},
    )


def _three_label_rows(led: Ledger, ev: LossesEvidence) -> None:
    t = "Sec. 3, 3-label example"
    marg, preds = ev.three_label_example
    led.number(
        "marginal probability of each label",
        "Sec. 3",
        paper=float(Fraction(paper_value(t, "each label", "P(relevant)"))),
        ours=marg[0],
        tol=1e-12,
        note="the paper prints 9/16; tol: rounding",
        claim_id="HU001",
        about={"example": t, "quantity": "marginal probability"},
    )
    for claim, k, row, cid, loss in [
        ("Hamming Bayes-optimal prediction (marginal mode)", 1, "Hamming", "HU002", "hamming"),
        ("subset 0/1 Bayes-optimal prediction (joint mode)", 3, "subset 0/1", "HU003", "subset01"),
    ]:
        led.exact(
            claim,
            "Sec. 3",
            paper=paper_value(t, row, "Bayes-optimal prediction"),
            ours=str(tuple(int(b) for b in preds[k][0])),
            claim_id=cid,
            about={"example": t, "loss": loss, "quantity": "Bayes-optimal prediction"},
        )


def _learner_rows(led: Ledger, ev: LossesEvidence) -> None:
    t = "Sec. 4.4, example 1"
    prof = ev.learner_profiles
    for learner in ("A", "B"):
        for k in prof.index:
            _learner_k_rows(led, prof, learner, k)
    a, b = prof.loc[3, "exact A"], prof.loc[3, "exact B"]
    led.ordering(
        "A's subset 0/1 loss is a bit below B's",
        "Sec. 4.4",
        paper="A < B, both about 0.5",
        rule=f"exact A {a:.3f} < exact B {b:.3f}",
        holds=bool(a < b),
        claim_id="HU026",
        about={"example": t, "learner": ("A", "B"), "loss": "subset01"},
    )


def _learner_k_rows(led: Ledger, prof: pd.DataFrame, learner: str, k: int) -> None:
    """Learner A's or B's loss for binomial k, exact and simulated (n = 10^6)."""
    t, a = "Sec. 4.4, example 1", learner == "A"
    paper = paper_value(t, f"learner {learner}", f"binomial k={k}")
    about = {"example": t, "learner": learner, "loss": "binomial", "k": k}
    exact = led.number(
        f"learner {learner}, binomial k={k} (exact)",
        "Sec. 4.4",
        paper=paper,
        ours=prof.loc[k, f"exact {learner}"],
        cause=C.PAIR_PROBABILITY if a and k == 2 else None,  # the one value the paper misprints
        claim_id=f"HU{(19 if a else 22) + k:03d}",
        about={**about, "setting": "exact"},
    )
    led.number(
        f"learner {learner}, binomial k={k} (simulation, n=10^6)",
        "Sec. 4.4",
        paper=paper,
        ours=prof.loc[k, f"simulated {learner}"],
        tol=4 * prof.loc[k, "std. error A"] if a else None,
        cause=exact.cause,
        note="tol: 4 standard errors of the simulated mean" if a else "",
        claim_id=f"EX{(1 if a else 4) + k:03d}",
        about={**about, "setting": "simulated"},
    )


def _table1_rows(led: Ledger, ev: LossesEvidence) -> None:
    opt = ev.table1_optima
    for k in range(1, 6):
        led.exact(
            f"Bayes-optimal prediction, binomial k={k}",
            "Sec. 4.4, Table 1",
            paper=paper_value("Table 1", "Bayes-optimal prediction", f"binomial k={k}"),
            ours=opt[k],
            claim_id=f"HU{27 + k:03d}",
            about={"table": "Table 1", "loss": "binomial", "k": k},
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
            about={"table": "Table 1", "loss": "binomial", "k": (a, b), "quantity": "changes"},
        )
    led.number(
        "Table 1 probabilities sum to one",
        "Table 1",
        paper="1",
        ours=ev.table1_sum,
        tol=1e-9,
        note="tol: floating-point addition of the 32 printed values",
        claim_id="EX008",
        about={"table": "Table 1", "quantity": "sum of probabilities"},
    )


def _surrogate_rows(led: Ledger, ev: LossesEvidence) -> None:
    t = "Sec. 4.4, example 3"
    br09, br08, lp = 1 - 0.9**5, 1 - 0.8**5, 1 - 0.4  # closed forms of the example
    led.number(
        "subset 0/1 of BR with per-label accuracy 0.9 (independent)",
        "Sec. 4.4",
        paper=paper_value(t, "BR, per-label accuracy 0.9", "subset 0/1"),
        ours=br09,
        claim_id="HU035",
        about={"example": t, "learner": "BR", "loss": "subset01", "setting": "accuracy 0.9"},
    )
    led.number(
        "subset 0/1 of LP with accuracy 0.4",
        "Sec. 4.4",
        paper=paper_value(t, "LP, accuracy 0.4", "subset 0/1"),
        ours=lp,
        claim_id="HU036",
        about={"example": t, "learner": "LP", "loss": "subset01", "setting": "accuracy 0.4"},
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
        about={
            "example": t,
            "learner": ("BR", "LP"),
            "loss": "subset01",
            "setting": "accuracy 0.8",
        },
    )


def _random_problem_rows(led: Ledger, ev: LossesEvidence) -> None:
    hits, total = ev.bayes_modes
    led.exact(
        f"Bayes-optimal: marginal mode for Hamming, joint mode for subset 0/1 "
        f"(random distributions, K = {BAYES_K[0]}..{BAYES_K[1]})",
        "Sec. 3",
        paper=f"{total} of {total} distributions",
        ours=f"{hits} of {total} distributions",
        claim_id="HU004",
        about={"loss": ("hamming", "subset01"), "quantity": "Bayes-optimal prediction"},
    )
    _identity(
        led,
        f"Moebius transform (11) and its inverse (10) are a pair: largest "
        f"|from_moebius(moebius(mu)) - mu| (random capacities, K = "
        f"{MOEBIUS_K[0]}..{MOEBIUS_K[1]})",
        "Sec. 3.2, eqs. 10-11",
        ev.moebius_pair_gap,
        claim_id="HU005",
        example="Moebius transform",
    )
    _identity(
        led,
        "additive mu: Choquet loss = weighted mean error sum_i mu({i}) |y_i - s_i| "
        f"(largest |difference|, K = 1..{ADDITIVE_K_MAX})",
        "Sec. 3.3, eq. 12",
        ev.additive_choquet_gap,
        claim_id="HU006",
        loss="Choquet",
    )
    _identity(
        led,
        "counting measure mu(A) = v(|A|/K): Choquet loss (14) = OWA loss (16) with "
        f"w_i = v((K-i+1)/K) - v((K-i)/K), summing to 1 (largest gap, K = 1..{OWA_K_MAX})",
        "Sec. 4.2, eqs. 15-16",
        ev.owa_counting_gap,
        claim_id="HU011",
        loss="OWA",
    )


def _worked_rows(led: Ledger, ev: LossesEvidence) -> None:
    led.exact(
        "worked example: label errors |y - s| of y = (0,1,1,0,0,0), s = (0.2,0.3,0.9,0.1,0.4,0.3)",
        "Sec. 4.2",
        paper=paper_value("Sec. 4.2, worked example", "label errors", "|y - s|"),
        ours=ev.worked_errors,
        claim_id="HU012",
        about={"example": "Sec. 4.2, worked example", "quantity": "label errors"},
    )
    ham, sub = ev.family_special_case_gaps
    _identity(
        led,
        f"binomial k = 1 and polynomial alpha = 1 are the Hamming loss (largest "
        f"|difference|, K = 1..{FAMILY_K_MAX})",
        "Sec. 4.3, eqs. 17-18",
        ham,
        claim_id="HU019",
        loss="hamming",
    )
    _identity(
        led,
        f"binomial k = K is the subset 0/1 loss (largest |difference|, K = 1..{FAMILY_K_MAX})",
        "Sec. 4.3, eq. 18",
        sub,
        claim_id="HU019",
        loss="subset01",
    )
    a, b, ratio = ev.profile_ordering
    holds = bool(np.all(np.diff(a) > 0) and np.ptp(b) == 0 and np.all(np.diff(ratio) > 0))
    led.ordering(
        "learner A is less dependence-aware than B: its loss rises with k, B's is flat",
        "Sec. 4.4",
        paper="A's loss grows with k while B's stays constant; A loses ground to B",
        rule="A's exact binomial loss strictly increases over k = 1, 2, 3 "
        f"({', '.join(f'{x:.3f}' for x in a)}), B's is constant ({b[0]:.3f}) and "
        f"A/B rises ({', '.join(f'{x:.3f}' for x in ratio)})",
        holds=holds,
        claim_id="HU027",
        about={"example": "Sec. 4.4, example 1", "learner": ("A", "B"), "loss": "binomial"},
    )


#: the losses ledger's rows (Secs. 3-4), added in this order (the losses chapter's):
#: each function adds its rows to the ledger from the losses evidence
ROWS = (
    _owa_rows,
    _identity_rows,
    _family_rows,
    _three_label_rows,
    _learner_rows,
    _table1_rows,
    _surrogate_rows,
    _random_problem_rows,
    _worked_rows,
)
