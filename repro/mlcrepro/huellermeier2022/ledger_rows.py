"""The four ledgers of Hüllermeier et al. (2022), keyed and ordered as the paper's record.

One job: hand each part of the evidence (:func:`mlcrepro.huellermeier2022.collect.evidence`)
to the module that adds its ledger's rows, each row with the id(s) of the claim(s) it
checks (``book/_claims``), the paper's value as printed
(:mod:`~mlcrepro.huellermeier2022.printed`), what it is about (``about``) and, only
where it differs, its cause (:mod:`~mlcrepro.huellermeier2022.causes`):

==============  ==============================================================
``losses``      :mod:`~mlcrepro.huellermeier2022.ledger_losses` (Secs. 3-4)
``datasets``    :mod:`~mlcrepro.huellermeier2022.ledger_datasets` (Table 2)
``dependence``  :mod:`~mlcrepro.huellermeier2022.ledger_dependence` (Sec. 5)
``knn``         :mod:`~mlcrepro.huellermeier2022.ledger_knn` (Sec. 6)
==============  ==============================================================
"""

from __future__ import annotations

from mlcrepro.huellermeier2022.collect import Evidence
from mlcrepro.huellermeier2022.evidence_datasets import datasets_evidence
from mlcrepro.huellermeier2022.evidence_dependence import dependence_evidence
from mlcrepro.huellermeier2022.evidence_knn import knn_evidence
from mlcrepro.huellermeier2022.evidence_losses import losses_evidence
from mlcrepro.huellermeier2022.ledger_datasets import datasets_ledger
from mlcrepro.huellermeier2022.ledger_dependence import dependence_ledger
from mlcrepro.huellermeier2022.ledger_knn import knn_ledger
from mlcrepro.huellermeier2022.ledger_losses import losses_ledger
from mlcrepro.huellermeier2022.record import PAPER
from mlcrepro.ledger import Ledger

__all__ = ["LEDGER_PARTS", "ledgers"]


def ledgers(ev: Evidence) -> dict[str, Ledger]:
    """Every ledger of the paper, keyed and ordered as ``PAPER.ledgers``.

    Parameters
    ----------
    ev : Evidence
        :func:`mlcrepro.huellermeier2022.collect.evidence` (or one built from other
        committed tables, in the tests).

    Returns
    -------
    dict of str to Ledger
        ``losses``, ``datasets``, ``dependence``, ``knn``.
    """
    if not isinstance(ev, Evidence):
        raise TypeError(f"ev must be the paper's Evidence, got {type(ev).__name__}")
    built = {
        "losses": losses_ledger(ev.losses),
        "datasets": datasets_ledger(ev.datasets),
        "dependence": dependence_ledger(ev.dependence),
        "knn": knn_ledger(ev.knn),
    }
    return {name: built[name] for name in PAPER.ledgers}


def _losses() -> Ledger:
    return losses_ledger(losses_evidence())


def _datasets() -> Ledger:
    return datasets_ledger(datasets_evidence())


def _dependence() -> Ledger:
    return dependence_ledger(dependence_evidence())


def _knn() -> Ledger:
    return knn_ledger(knn_evidence())


#: each ledger built from its own part of the evidence alone (``mlcrepro check ID
#: --recompute`` rebuilds only the ledger of the row it checks: the dependence part,
#: the costliest, is not computed for a row of another ledger)
LEDGER_PARTS = {"losses": _losses, "datasets": _datasets, "dependence": _dependence, "knn": _knn}
