"""Progress bars for long work.

Bars are shown unless the environment variable ``MLCBOOK_PROGRESS`` is ``0``.
The Makefile sets it to ``0`` when it executes chapters (``make reproduce``,
nbval), so that committed notebook outputs hold no timing-dependent text.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import TypeVar

from tqdm import tqdm

T = TypeVar("T")

__all__ = ["progress", "progress_enabled"]


def progress_enabled() -> bool:
    """True unless ``MLCBOOK_PROGRESS=0`` is set."""
    return os.environ.get("MLCBOOK_PROGRESS", "1") != "0"


def progress(iterable: Iterable[T], *, desc: str = "", total: int | None = None) -> Iterable[T]:
    """Wrap ``iterable`` in a tqdm bar (or return it unchanged when disabled)."""
    if not progress_enabled():
        return iterable
    return tqdm(iterable, desc=desc, total=total, leave=False)
