"""Wu & Zhou's Table 1 in the measures ledger: one-error against a brute-force count.

The definitions of Table 1 are checked in the ledger of the standard measures, on the
Reproduce page Wu & Zhou share with Zhang & Zhou (2014); that folder adds this row
(:func:`add_one_error_definition`, claim WZ007) until it holds the check itself.
"""

from __future__ import annotations

import numpy as np

from mlcbook import metrics as M
from mlcrepro.evidence_common import IDENTITY_TOL, check_ledger, identity_gap
from mlcrepro.ledger import Entry, Ledger

__all__ = ["add_one_error_definition"]


def _whole(value: object, name: str, low: int, high: int) -> int:
    """``value`` as an int in [low, high], or TypeError/ValueError naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if not low <= value <= high:
        raise ValueError(f"{name} must be in [{low}, {high}], got {value}")
    return int(value)


def add_one_error_definition(led: Ledger, *, seed: int = 0, draws: int = 20) -> Entry:
    """One-error (Wu & Zhou, Table 1) against a brute-force count, one row.

    ``draws`` seeded random (Y, F) pairs (n = 50, K = 2..9, continuous scores, so the
    top label is unique); the count loops over the instances and asks whether the
    top-scored label is irrelevant.  The row holds the largest absolute difference.
    """
    led = check_ledger(led)
    seed = _whole(seed, "seed", 0, 2**63 - 1)
    draws = _whole(draws, "draws", 1, 1000)
    worst = 0.0
    for d, ss in enumerate(np.random.SeedSequence(seed).spawn(draws)):
        rng = np.random.default_rng(ss)
        K = 2 + d % 8
        Y = (rng.random((50, K)) < 0.35).astype(np.int8)
        F = rng.normal(size=(50, K))
        count = sum(Y[i, int(np.argmax(F[i]))] == 0 for i in range(50)) / 50
        worst = max(worst, abs(M.one_error(Y, F) - count))
    return led.number(
        f"one-error as defined in Table 1 equals a brute-force count (largest "
        f"|difference|, {draws} random pairs)",
        "Wu & Zhou, Table 1",
        paper="0",
        ours=identity_gap(worst),
        tol=IDENTITY_TOL,
        digits=12,
        claim_id="WZ007",
    )
