"""Wu & Zhou (2017)'s names for the measures of its Table 1: the paper's symbol map.

The committed tables of this paper keep the paper's column names; the library keys the
same measures by the registry's names (:func:`mlcbook.registry.group`, ``"wu_zhou"``).
The two meet here, once, for the folder's code and for the Learn chapter that reads the
committed tables.
"""

from __future__ import annotations

from collections.abc import Mapping

from mlcbook.registry import group

__all__ = ["PAPER_COLUMN"]

#: the paper's column of each measure of its Table 1, keyed by the registry's name (the
#: keys of ``mlcbook.metrics.all_measures``).  The paper calls the label-ranking average
#: precision "average precision", which is scikit-learn's name of another measure (the
#: area under each label's precision-recall curve); our tables keep the paper's column.
#:
#: >>> PAPER_COLUMN["label_ranking_average_precision"], PAPER_COLUMN["hamming_loss"]
#: ('average_precision', 'hamming_loss')
PAPER_COLUMN: Mapping[str, str] = {
    m: {"label_ranking_average_precision": "average_precision"}.get(m, m) for m in group("wu_zhou")
}
