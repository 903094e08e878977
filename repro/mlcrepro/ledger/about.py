"""What a ledger row is about, as data: the keys a page's table or a recompute selects
rows by (:attr:`mlcrepro.ledger.Entry.about`), so that no code reads them back from the
wording of a claim.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

__all__ = ["ABOUT_KEYS", "row_about"]

#: the keys a row may be about: what a page's table or a recompute selects rows by
ABOUT_KEYS = (
    "table",
    "figure",
    "example",
    "dataset",
    "learner",
    "measure",
    "loss",
    "setting",
    "seed",
    "fold",
    "k",
    "quantity",
    "group",
)


def _plain(key: str, value: Any) -> Any:
    """One value of ``about``: a str or a number (numpy's made plain), or a tuple of them."""
    if isinstance(value, tuple):
        return tuple(_plain(key, v) for v in value)
    if isinstance(value, (bool, np.bool_)) or not isinstance(
        value, (str, int, float, np.integer, np.floating)
    ):
        raise TypeError(
            f"about[{key!r}] must be a str, a number or a tuple of them, got {value!r}"
        )
    return value.item() if isinstance(value, np.generic) else value


def row_about(about: Mapping[str, Any] | None) -> dict[str, Any]:
    """What a row is about, checked: keys from :data:`ABOUT_KEYS`, plain values (a tuple
    of them for a row about several, e.g. the learners whose curves it compares).

    Examples
    --------
    >>> row_about({"dataset": "emotions", "learner": "BR"})
    {'dataset': 'emotions', 'learner': 'BR'}
    >>> row_about({"learner": ("BR", "LP")})
    {'learner': ('BR', 'LP')}
    >>> row_about({"wording": "x"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: about: unknown key 'wording'; expected keys from ('table', ...
    """
    if about is None:
        return {}
    if not isinstance(about, Mapping):
        raise TypeError(f"about must be a mapping of key to value, got {type(about).__name__}")
    out: dict[str, Any] = {}
    for key, value in about.items():
        if key not in ABOUT_KEYS:
            raise ValueError(f"about: unknown key {key!r}; expected keys from {ABOUT_KEYS}")
        out[key] = _plain(key, value)
    return out
