"""Multi-label benchmark datasets: registry, verified files, ARFF loading, statistics.

>>> from mlcbook.datasets import load_dataset, dataset_statistics
>>> X, Y, info = load_dataset("scene", subset="train")
>>> X.shape, Y.shape, info.subset
((1211, 294), (1211, 6), 'train')
>>> dataset_statistics({"scene (train)": Y})[["instances", "labels", "cardinality"]].round(3)
               instances  labels  cardinality
dataset
scene (train)       1211       6        1.062

Submodules
----------
registry  the datasets, their files, sha256, label layout, home and citation
fetch     cache -> mirror -> download, sha256-verified, atomic
arff      liac-arff parsing into X (dense or CSR), Y (0/1) and names
load      ``load_dataset`` and the parsed-array (.npz) cache
stats     ``dataset_statistics``
"""

from .arff import ArffHeader, DatasetFormatError, parse_arff, read_arff_header, read_mulan_labels
from .fetch import (
    ChecksumError,
    DataNotFoundError,
    DatasetError,
    DownloadError,
    cache_dir,
    copy_verified,
    fetch_file,
    mirror_dir,
)
from .load import DatasetInfo, load_dataset
from .registry import (
    REGISTRY,
    DatasetSpec,
    DatasetUnavailableError,
    UnknownDatasetError,
    get_spec,
    list_datasets,
)
from .stats import STATISTICS_COLUMNS, dataset_statistics, label_statistics

__all__ = [
    "load_dataset",
    "dataset_statistics",
    "label_statistics",
    "STATISTICS_COLUMNS",
    "list_datasets",
    "get_spec",
    "REGISTRY",
    "DatasetSpec",
    "DatasetInfo",
    "parse_arff",
    "read_arff_header",
    "ArffHeader",
    "read_mulan_labels",
    "fetch_file",
    "copy_verified",
    "cache_dir",
    "mirror_dir",
    "DatasetError",
    "ChecksumError",
    "DataNotFoundError",
    "DownloadError",
    "DatasetFormatError",
    "DatasetUnavailableError",
    "UnknownDatasetError",
]

# Synthetic data generators (other modules) are imported below this line.
from .synthetic import make_limo_synthetic

__all__ += ["make_limo_synthetic"]
