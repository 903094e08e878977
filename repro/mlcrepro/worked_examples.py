"""The inputs of the papers' worked examples that more than one paper folder reads.

A paper folder never imports another, so an input two folders compute with has one
public owner here.  Park & Read's Table 1 is read by the blended metric's folder
(:mod:`mlcrepro.park_read2018`, the blend's limits) and by the standard measures'
folder (:mod:`mlcrepro.zhang_zhou2014`, the same table by Hamming loss, subset
accuracy and the Jaccard score of :mod:`mlcbook.metrics`).

The arrays are read-only: a caller that changes them gets an error, not another
table.

>>> PARK_READ_TABLE1_TRUTH.shape
(5, 4)
>>> PARK_READ_TABLE1_PREDICTIONS[0].tolist()
[1, 0, 1, 0]
"""

from __future__ import annotations

import numpy as np

__all__ = ["PARK_READ_TABLE1_PREDICTIONS", "PARK_READ_TABLE1_TRUTH"]


def _frozen(rows: list[list[int]]) -> np.ndarray:
    array = np.array(rows)
    array.setflags(write=False)
    return array


#: Park & Read (2018), Table 1: the predictions y_1..y_5 of five instances (four labels)
PARK_READ_TABLE1_PREDICTIONS = _frozen(
    [[1, 0, 1, 0], [0, 1, 0, 1], [1, 0, 0, 1], [0, 1, 1, 0], [1, 0, 0, 0]]
)
#: Park & Read (2018), Table 1: the truths t_1..t_5 of the same five instances
PARK_READ_TABLE1_TRUTH = _frozen(
    [[1, 0, 0, 1], [0, 1, 0, 1], [1, 0, 0, 1], [0, 1, 0, 0], [1, 0, 0, 1]]
)
