"""BOOMER (Rapp et al. 2020) configured as in Hüllermeier et al. (2022, Sec. 5.2).

The real implementation, :class:`mlrl.boosting.Boomer` from the ``mlrl-boomer``
package, is used unchanged; this module only fixes its configuration:

* ``BOOMER-1`` minimises the label-wise (decomposable) logistic loss with
  single-label rule heads and predicts every label on its own
  (``binary_predictor="output-wise"``) — the Hamming-loss variant.
* ``BOOMER-K`` minimises the example-wise (non-decomposable) logistic loss with
  complete (multi-label) heads and predicts the known label vector closest to the
  scores (``binary_predictor="example-wise"``) — the subset 0/1 variant.

``mlrl-boomer`` requires ``random_state >= 1``; we pass ``random_state + 1``.
It is an optional dependency (``pip install 'mlcbook[boomer]'``): every other
module imports and works without it.
"""

from __future__ import annotations

from typing import Any

__all__ = ["BOOMER_VARIANTS", "make_boomer"]

#: The two configurations of the paper, as keyword arguments of ``Boomer``.
BOOMER_VARIANTS: dict[str, dict[str, Any]] = {
    "BOOMER-1": {
        "loss": "logistic-decomposable",
        "head_type": "single",
        "binary_predictor": "output-wise",
    },
    "BOOMER-K": {
        "loss": "logistic-non-decomposable",
        "head_type": "complete",
        "binary_predictor": "example-wise",
    },
}


def make_boomer(variant: str, random_state: int = 0, **options: Any):
    """A configured :class:`mlrl.boosting.Boomer`.

    Parameters
    ----------
    variant : {"BOOMER-1", "BOOMER-K"}
    random_state : int
        Seed (>= 0); BOOMER receives ``random_state + 1``.
    **options
        Further ``Boomer`` parameters (e.g. ``max_rules``, ``feature_binning``)
        that override the package defaults.
    """
    if variant not in BOOMER_VARIANTS:
        raise ValueError(f"variant must be one of {sorted(BOOMER_VARIANTS)}, got {variant!r}")
    if isinstance(random_state, bool) or not isinstance(random_state, int) or random_state < 0:
        raise ValueError(f"random_state must be a non-negative int, got {random_state!r}")
    try:
        from mlrl.boosting import Boomer
    except ImportError as err:
        raise ImportError(
            "the BOOMER learners need the optional package mlrl-boomer; install it with "
            "`pip install 'mlcbook[boomer]'` (the book's environment includes it)"
        ) from err
    return Boomer(random_state=random_state + 1, **BOOMER_VARIANTS[variant], **options)
