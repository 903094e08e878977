"""Speed of the dependence-aware losses (mlcbook.losses) and Bayes-optimal enumeration (mlcbook.bayes).

1. Binomial loss profile for every k = 1..K of binary predictions (n = 10**6, K = 20),
   as a ratio to ``sklearn.metrics.hamming_loss`` on the same arrays (target <= 1.5x for the
   whole profile: the loss of a binary prediction is looked up from its number of errors).
2. The same profile for soft scores, as a ratio to ``np.sort`` of the score matrix alone
   (the profile costs one sort of the errors and one small matrix product).
3. Bayes-optimal prediction for K = 20 with a 1000-point support: wall time.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from sklearn.metrics import hamming_loss

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import best_of, ratio_line  # noqa: E402

from mlcbook.bayes import bayes_optimal  # noqa: E402
from mlcbook.losses import loss_profile  # noqa: E402

N, K, T = 10**6, 20, 1000


def main() -> None:
    rng = np.random.default_rng(0)
    Y = (rng.random((N, K)) < 0.3).astype(np.int8)
    flip = (rng.random((N, K)) < 0.1).astype(np.int8)
    P = Y ^ flip
    ks = list(range(1, K + 1))

    prof = loss_profile(Y, P, "binomial", ks)
    assert abs(prof[0] - hamming_loss(Y, P)) < 1e-12
    t_ref = best_of(lambda: hamming_loss(Y, P), repeat=3)
    t_ours = best_of(lambda: loss_profile(Y, P, "binomial", ks), repeat=3)
    print(ratio_line(f"binomial profile k=1..{K}, binary", t_ours, t_ref, "sklearn hamming_loss"))
    print(f"  (n={N}, K={K}; target <= 1.5x: {'met' if t_ours <= 1.5 * t_ref else 'NOT met'})")
    # sklearn spends most of its time validating (type_of_target); bare NumPy for honesty:
    t_np = best_of(lambda: np.mean(Y != P), repeat=3)
    print(ratio_line(f"binomial profile k=1..{K}, binary", t_ours, t_np, "bare np.mean(Y != P)"))

    S = np.clip(P + rng.normal(0, 0.3, (N, K)) * (1 - 2 * P), 0, 1)  # soft scores
    t_sort = best_of(lambda: np.sort(S, axis=1), repeat=3)
    t_soft = best_of(lambda: loss_profile(Y, S, "binomial", ks), repeat=3)
    print(ratio_line(f"binomial profile k=1..{K}, soft", t_soft, t_sort, "np.sort(S, axis=1) alone"))
    alphas = [1, 1.5, 2, 3, 5, 8, 13, 21, 34, 55]
    t_poly = best_of(lambda: loss_profile(Y, S, "polynomial", alphas), repeat=3)
    print(ratio_line(f"polynomial profile {len(alphas)} alphas, soft", t_poly, t_sort, "np.sort(S, axis=1) alone"))

    sup = (rng.random((T, K)) < rng.uniform(0.05, 0.6, K)).astype(np.int8)
    p = rng.random(T)
    p /= p.sum()
    for spec in [("binomial", 1), ("binomial", 5), ("polynomial", 3.0), ("binomial", K)]:
        t = best_of(lambda: bayes_optimal(sup, p, spec), repeat=2)
        print(f"bayes_optimal K={K}, support {T}, {spec!s:<18s} {t * 1e3:10.1f} ms  (no consensus labels)")
    sup2 = sup.copy()
    sup2[:, :8] = 0  # 8 labels on which the support agrees: pruned
    t = best_of(lambda: bayes_optimal(sup2, p, ("binomial", 5)), repeat=2)
    print(f"bayes_optimal K={K}, support {T}, 8 consensus labels {t * 1e3:10.1f} ms  (pruned to 12)")


if __name__ == "__main__":
    main()
