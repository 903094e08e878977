"""What every evidence function shares: the ledger check and the tolerance of identities."""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable
from typing import Any, TypeVar

from mlcrepro.ledger import Ledger

T = TypeVar("T")

#: Tolerance of an identity between two double-precision computations of a quantity
#: that lies in [0, 1] (a loss, a measure, a similarity, a capacity value): each side
#: sums at most a few thousand terms of size <= 1, so their rounding errors stay many
#: orders of magnitude below 1e-12, while any error of definition is far above it.
IDENTITY_TOL = 1e-12


def check_ledger(led: Any) -> Ledger:
    """``led`` itself, or TypeError if it is not a :class:`mlcrepro.ledger.Ledger`."""
    if not isinstance(led, Ledger):
        raise TypeError(f"led must be a mlcrepro.ledger.Ledger, got {type(led).__name__}")
    return led


def identity_gap(gap: float) -> float:
    """A largest absolute difference of an identity, rounded to 12 decimals.

    The last bits of such a gap (1e-17 here, 0 there) differ between CPUs, and the
    saved ledger is compared across machines to a relative 1e-9; rounded to 12
    decimals (the scale of :data:`IDENTITY_TOL`) the number is the same everywhere,
    and a gap that matters (>= 1e-12) survives the rounding.
    """
    return round(float(gap), 12)


def once(func: Callable[[], T]) -> Callable[[], T]:
    """Compute ``func()`` once per process; every call gets its own deep copy.

    The evidence of a chapter (a fitted table, a simulation) is read by several ledger
    rows and figures; each caller may change its copy without touching the others'.

    Examples
    --------
    >>> calls = []
    >>> @once
    ... def table():
    ...     calls.append(1)
    ...     return {"rows": [1, 2]}
    >>> a = table()
    >>> a["rows"].append(3)
    >>> table(), len(calls)
    ({'rows': [1, 2]}, 1)
    """
    cached = functools.cache(func)

    @functools.wraps(func)
    def wrapper() -> T:
        return copy.deepcopy(cached())

    return wrapper
