"""The evidence of Hüllermeier et al. (2022): everything its four ledgers need, computed once.

One job: :func:`evidence` computes, from the committed result tables
(:mod:`~mlcrepro.huellermeier2022.experiments`: among them the authors' released
profiles and the benchmark files' statistics; no data file is opened) and the library,
all that :func:`mlcrepro.huellermeier2022.ledger_rows.ledgers` turns into rows, and returns
it as one frozen value, computed once per process and deep-copied for each caller
(:func:`mlcrepro.evidence_common.once`, as every paper's evidence): a page that shows
the comparisons and the ledgers calls it once, and nothing a notebook computed is
passed in.

==============  =====================================================================
``losses``      :func:`~mlcrepro.huellermeier2022.evidence_losses.losses_evidence`
``datasets``    :func:`~mlcrepro.huellermeier2022.evidence_datasets.datasets_evidence`
``dependence``  :func:`~mlcrepro.huellermeier2022.evidence_dependence.dependence_evidence`
``knn``         :func:`~mlcrepro.huellermeier2022.evidence_knn.knn_evidence`
==============  =====================================================================

The whole takes about 5 s of CPU (the robustness of Fig. 4's first observation over
bootstrap resamples of the folds takes most of it).
"""

from __future__ import annotations

from dataclasses import dataclass

from mlcrepro.evidence_common import once
from mlcrepro.huellermeier2022.evidence_datasets import DatasetsEvidence, datasets_evidence
from mlcrepro.huellermeier2022.evidence_dependence import (
    DependenceEvidence,
    dependence_evidence,
)
from mlcrepro.huellermeier2022.evidence_knn import KnnEvidence, knn_evidence
from mlcrepro.huellermeier2022.evidence_losses import LossesEvidence, losses_evidence

__all__ = ["Evidence", "evidence"]


@dataclass(frozen=True)
class Evidence:
    """Everything the ledgers of Hüllermeier et al. (2022) read, one part per ledger.

    :func:`evidence` hands every caller its own copy: a caller may change it without
    touching another's.
    """

    losses: LossesEvidence
    datasets: DatasetsEvidence
    dependence: DependenceEvidence
    knn: KnnEvidence

    def __post_init__(self) -> None:
        parts = {
            "losses": LossesEvidence,
            "datasets": DatasetsEvidence,
            "dependence": DependenceEvidence,
            "knn": KnnEvidence,
        }
        for name, kind in parts.items():
            if not isinstance(getattr(self, name), kind):
                raise TypeError(
                    f"{name} must be a {kind.__name__}, got {type(getattr(self, name)).__name__}"
                )


@once
def evidence() -> Evidence:
    """The evidence of the four ledgers, computed on the first call; each call gets its
    own deep copy (:func:`mlcrepro.evidence_common.once`)."""
    return Evidence(
        losses=losses_evidence(),
        datasets=datasets_evidence(),
        dependence=dependence_evidence(),
        knn=knn_evidence(),
    )
