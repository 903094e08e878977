"""The record of a paper the book reproduces: the one spelling every other place reads.

Each paper folder of the reproduction holds one :class:`Paper` as ``PAPER`` (in its
``__init__``); :mod:`mlcrepro.papers` lists them in the book's order.  The record ties a
paper to its citation, its claim ids, its Reproduce page, the ledgers shown on that page
and the Learn chapters that teach it, so that no page, summary or test spells these out
again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Paper"]

_KEY = re.compile(r"^[a-z][a-z_]*[0-9]{4}$|^[a-z]+$")
_PREFIX = re.compile(r"^[A-Z]{2,3}$")


@dataclass(frozen=True)
class Paper:
    """What the book knows of one paper.

    Parameters
    ----------
    key : str
        The paper's one spelling: its folder in :mod:`mlcrepro` and the stem of its
        Reproduce page ``book/reproduce_<page>.md`` (``"huellermeier2022"``).
    citation : str
        How the prose and the summaries name it (``"Hüllermeier et al. (2022)"``).
    bibkey : str
        Its key in ``book/references.bib``.
    prefix : str
        The prefix of its claim ids (``"HU"`` for ``HU001``, ...).
    page : str
        The key of the Reproduce page that holds its comparisons and ledger (papers
        reproduced together share one, as Hivemall's page shares Zhang & Zhou's).
    ledgers : tuple of str
        The ledgers (file stems of ``book/_ledgers``) shown on that page, in order; a
        paper whose rows live in another paper's ledgers has none of its own.
    learn : tuple of str
        The Learn chapters (``book/<name>.md``) that teach what the paper contributes.

    Examples
    --------
    >>> p = Paper("example2020", "Example & Other (2020)", "example2020x", "XE",
    ...           "example2020", ("example",), ("measures",))
    >>> p.page_doc
    'book/reproduce_example2020'
    """

    key: str
    citation: str
    bibkey: str
    prefix: str
    page: str
    ledgers: tuple[str, ...] = ()
    learn: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for name in ("key", "page"):
            value = getattr(self, name)
            if not isinstance(value, str) or not _KEY.match(value):
                raise ValueError(
                    f"{name} must be lower-case letters and underscores ending in a year "
                    f"(e.g. 'park_read2018') or one lower-case word, got {value!r}"
                )
        if not isinstance(self.prefix, str) or not _PREFIX.match(self.prefix):
            raise ValueError(f"prefix must be two or three capitals, got {self.prefix!r}")
        for name in ("citation", "bibkey"):
            if not isinstance(getattr(self, name), str) or not getattr(self, name).strip():
                raise ValueError(f"{name} must be a non-empty string")
        for name in ("ledgers", "learn"):
            value = getattr(self, name)
            if not isinstance(value, tuple) or not all(
                isinstance(v, str) and v.isidentifier() for v in value
            ):
                raise ValueError(f"{name} must be a tuple of file stems, got {value!r}")

    @property
    def page_doc(self) -> str:
        """The Sphinx document name of the Reproduce page (``book/reproduce_<page>``)."""
        return f"book/reproduce_{self.page}"
