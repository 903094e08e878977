"""The book's one vocabulary of verdicts: the word for each status and cause kind.

A ledger row's status (:data:`mlcrepro.ledger.STATUSES`) and, where it differs, its
cause kind (:data:`mlcrepro.ledger.CAUSE_KINDS`) are keys.  :data:`WORDS` gives each key
the word a reader sees: the term the glossary defines, and the word the front page, the
chapters' findings and the ledgers' badges print.  This module imports nothing of the
book, so that every module that shows a status can use it.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

__all__ = ["WORDS"]

#: the book's word for each status and cause kind.  Only the status *within spread* reads
#: differently from its key, so that it is never confused with *within our spread*: the
#: two are different rules (the spread the paper reports, against the spread of our own
#: folds or seeds)
WORDS: Mapping[str, str] = MappingProxyType(
    {
        "reproduced": "reproduced",
        "within spread": "within the paper's spread",
        "within our spread": "within our spread",
        "qualitative": "qualitative",
        "fragile": "fragile",
        "differs": "differs",
        "paper error": "paper error",
        "underspecified": "underspecified",
        "material unavailable": "material unavailable",
        "tested": "tested",
        "unknown": "unknown",
    }
)
