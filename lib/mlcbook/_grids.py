"""Log-spaced parameter grids identified by their specification (light: NumPy only).

:class:`LogGrid` and :data:`ALPHAS` are public in :mod:`mlcbook.profiles`; they live here
so that the command line reads the grid without importing pandas and scikit-learn.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import Any, overload

import numpy as np

__all__ = ["LogGrid", "ALPHAS"]


class LogGrid(Sequence[float]):
    """``np.logspace(start, stop, num)``, identified by its specification.

    The values of ``np.logspace`` may differ in their last bit between machines
    (NumPy picks SIMD code paths by CPU), so a configuration that records the
    computed floats would change its key from one machine to the next.  A
    ``LogGrid`` records ``"logspace(start, stop, num)"`` instead, and behaves
    like the array everywhere else (``np.asarray``, iteration, indexing, ``len``).

    Parameters
    ----------
    start, stop : int or float
        Exponents of the first and last point (base 10).
    num : int
        Number of points (>= 2).
    """

    def __init__(self, start: float, stop: float, num: int) -> None:
        for name, v in (("start", start), ("stop", stop)):
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
                raise TypeError(f"{name} must be a finite int or float literal, got {v!r}")
        if isinstance(num, bool) or not isinstance(num, int) or num < 2:
            raise ValueError(f"num must be an int >= 2, got {num!r}")
        self.start, self.stop, self.num = start, stop, num
        self._values: np.ndarray | None = None

    @property
    def spec(self) -> str:
        """The machine-independent identity, e.g. ``'logspace(0, 3, 25)'``."""
        return f"logspace({self.start!r}, {self.stop!r}, {self.num})"

    @property
    def values(self) -> np.ndarray:
        """The points, computed on this machine (read-only)."""
        if self._values is None:
            v = np.logspace(self.start, self.stop, self.num)
            v.setflags(write=False)
            self._values = v
        return self._values

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        v = self.values
        return v.astype(dtype) if dtype is not None else v.copy()

    def __len__(self) -> int:
        return self.num

    @overload
    def __getitem__(self, i: int) -> float: ...
    @overload
    def __getitem__(self, i: slice) -> list[float]: ...
    def __getitem__(self, i: int | slice) -> float | list[float]:
        if isinstance(i, slice):
            return [float(x) for x in self.values[i]]
        return float(self.values[i])

    def __iter__(self) -> Iterator[float]:
        return (float(x) for x in self.values)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LogGrid) and other.spec == self.spec

    def __hash__(self) -> int:
        return hash(self.spec)

    def __repr__(self) -> str:
        return f"LogGrid({self.start!r}, {self.stop!r}, {self.num})"


# its public home, as NumPy's set_module does: the documentation and pickles name
# mlcbook.profiles.LogGrid (one description of the class, also where mlcrepro
# re-exports it)
LogGrid.__module__ = "mlcbook.profiles"

#: Log grid of the polynomial loss parameter, 1 <= alpha <= 1000 (8 points a decade),
#: identified by its specification ``"logspace(0, 3, 25)"`` (its floats differ in the
#: last bit between CPUs).
ALPHAS: LogGrid = LogGrid(0, 3, 25)
