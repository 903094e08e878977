"""Small, tested helpers for the tables chapters print."""

from __future__ import annotations

import math
from collections.abc import Mapping

import pandas as pd

__all__ = ["ranked"]


def ranked(values: pd.Series | Mapping[str, float], decimals: int = 3) -> str:
    """``"A < B = C < D"``: names ordered by value at the printed precision.

    Values equal after rounding to ``decimals`` are ties, written with ``=`` and
    ordered by name, so the printed ranking does not depend on the last bits of a
    floating-point sum (which differ between CPUs).

    Parameters
    ----------
    values : Series or mapping
        ``name -> value``; NaN is refused.
    decimals : int
        The printed precision (>= 0).
    """
    if isinstance(decimals, bool) or not isinstance(decimals, int) or decimals < 0:
        raise ValueError(f"decimals must be a non-negative int, got {decimals!r}")
    items = list(values.items())
    if not items:
        raise ValueError("values must not be empty")
    keyed = []
    for name, v in items:
        v = float(v)
        if not math.isfinite(v):
            raise ValueError(f"values must be finite, got {v!r} for {name!r}")
        keyed.append((round(v, decimals), str(name)))
    keyed.sort()
    out = keyed[0][1]
    for (prev, _), (v, name) in zip(keyed, keyed[1:]):
        out += (" = " if v == prev else " < ") + name
    return out
