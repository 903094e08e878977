"""The four ledgers of Hüllermeier et al. (2022), keyed and ordered as the paper's record.

One job: add each ledger's rows from its part of the evidence
(:func:`mlcrepro.huellermeier2022.collect.evidence`), each row with the id(s) of the
claim(s) it checks (``book/_claims``), the paper's value as printed
(:mod:`~mlcrepro.huellermeier2022.printed`), what it is about (``about``) and, only
where it differs, its cause (:mod:`~mlcrepro.huellermeier2022.causes`).  The functions
that add a ledger's rows are listed, in order, by its module's ``ROWS``:

==============  ==============================================================
``losses``      :mod:`~mlcrepro.huellermeier2022.ledger_losses` (Secs. 3-4)
``datasets``    :mod:`~mlcrepro.huellermeier2022.ledger_datasets` (Table 2)
``dependence``  :mod:`~mlcrepro.huellermeier2022.ledger_dependence` (Sec. 5)
``knn``         :mod:`~mlcrepro.huellermeier2022.ledger_knn` (Sec. 6)
==============  ==============================================================
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from mlcrepro.huellermeier2022 import ledger_datasets, ledger_dependence, ledger_knn, ledger_losses
from mlcrepro.huellermeier2022.collect import Evidence
from mlcrepro.huellermeier2022.evidence_datasets import DatasetsEvidence, datasets_evidence
from mlcrepro.huellermeier2022.evidence_dependence import (
    DependenceEvidence,
    dependence_evidence,
)
from mlcrepro.huellermeier2022.evidence_knn import KnnEvidence, knn_evidence
from mlcrepro.huellermeier2022.evidence_losses import LossesEvidence, losses_evidence
from mlcrepro.huellermeier2022.record import PAPER
from mlcrepro.ledger import Ledger

__all__ = ["LEDGER_PARTS", "ledgers"]

#: per ledger: the type of its part of the evidence, the function computing that part
#: alone, and the functions adding its rows in order
_LEDGERS: dict[str, tuple[type, Callable[[], Any], tuple[Callable[[Ledger, Any], None], ...]]] = {
    "losses": (LossesEvidence, losses_evidence, ledger_losses.ROWS),
    "datasets": (DatasetsEvidence, datasets_evidence, ledger_datasets.ROWS),
    "dependence": (DependenceEvidence, dependence_evidence, ledger_dependence.ROWS),
    "knn": (KnnEvidence, knn_evidence, ledger_knn.ROWS),
}


def ledgers(ev: Evidence | Mapping[str, object]) -> dict[str, Ledger]:
    """Every ledger of the paper, keyed and ordered as ``PAPER.ledgers``.

    Parameters
    ----------
    ev : Evidence or mapping
        :func:`mlcrepro.huellermeier2022.collect.evidence` (or one built from other
        committed tables, in the tests); or a mapping of some ledgers' names to their
        parts of the evidence (``{"dependence": DependenceEvidence(...)}``), which
        builds those ledgers alone.

    Returns
    -------
    dict of str to Ledger
        ``losses``, ``datasets``, ``dependence``, ``knn`` (those given).
    """
    if isinstance(ev, Evidence):
        parts: Mapping[str, object] = {name: getattr(ev, name) for name in PAPER.ledgers}
    elif isinstance(ev, Mapping) and set(ev) <= set(_LEDGERS):
        parts = ev
    else:
        raise TypeError(
            f"ev must be the paper's Evidence or a mapping of ledger names {list(_LEDGERS)} "
            f"to their parts, got {type(ev).__name__}"
        )
    built = {}
    for name in (n for n in PAPER.ledgers if n in parts):
        kind, _, rows = _LEDGERS[name]
        if not isinstance(parts[name], kind):
            raise TypeError(f"ev[{name!r}] must be a {kind.__name__}, got {parts[name]!r:.60}")
        built[name] = led = Ledger(name, PAPER.citation)
        for add in rows:
            add(led, parts[name])
    return built


def _alone(name: str) -> Ledger:
    return ledgers({name: _LEDGERS[name][1]()})[name]


#: each ledger built from its own part of the evidence alone (``mlcrepro check ID
#: --recompute`` rebuilds only the ledger of the row it checks: the dependence part,
#: the costliest, is not computed for a row of another ledger)
LEDGER_PARTS = {name: partial(_alone, name) for name in _LEDGERS}
