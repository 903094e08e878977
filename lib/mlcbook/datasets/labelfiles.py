"""Reading a user's truth, prediction, score and label files (``mlcbook evaluate``).

The public home of the readers of ``mlcbook._labelfiles``, whose documentation
follows (they live outside :mod:`mlcbook.datasets` so that the command line reads a
CSV file without importing pandas).
"""

from .._labelfiles import (
    KINDS,
    SPARSE_CELLS,
    LabelFile,
    LabelFileError,
    LabelsInferredWarning,
    align_label_files,
    align_scores,
    read_label_file,
    read_label_names,
    read_score_file,
)
from .._labelfiles import __doc__ as _readers_doc

__doc__ = (__doc__ or "") + "\n" + (_readers_doc or "")

__all__ = [
    "KINDS",
    "SPARSE_CELLS",
    "LabelFile",
    "LabelFileError",
    "LabelsInferredWarning",
    "read_label_file",
    "read_score_file",
    "read_label_names",
    "align_label_files",
    "align_scores",
]
