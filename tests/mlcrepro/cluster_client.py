"""``mlcrepro reproduce`` with one more committed table, ``cluster_toy``, for the cluster
fault test: run as ``python -m tests.mlcrepro.cluster_client ARGS`` (the arguments of
``mlcrepro``), with ``CLUSTER_TOY_LOG`` naming the folder of the cells' log.

The table's cells are :func:`tests.mlcrepro.cluster_toy.sleepy_cell` over
:data:`DATASETS` x :data:`FOLDS`; its committed copy is written by the test.
"""

from __future__ import annotations

import os
import sys

import pandas as pd

from mlcrepro import cli, reproduce, results, runner
from mlcrepro.experiment import Experiment
from tests.mlcrepro.cluster_toy import sleepy_cell

NAME = "cluster_toy"
DATASETS = ("ab", "abc")
FOLDS = tuple(range(5))
SECONDS = 0.1
#: the table's specification (its provenance key); the log folder is not part of it
CONFIG = {"datasets": list(DATASETS), "folds": list(FOLDS), "seconds": SECONDS}


def toy_spec() -> runner.Spec:
    """The table's cells; the log folder is ``CLUSTER_TOY_LOG`` (part of the cells' key)."""
    return runner.Spec(
        NAME,
        sleepy_cell,
        {"dataset": DATASETS, "fold": FOLDS},
        params={"seconds": SECONDS, "log": os.environ["CLUSTER_TOY_LOG"]},
        table=NAME,
    )


def toy_load() -> pd.DataFrame:
    """The committed table, or recomputed from its cells when asked to."""
    return results.load_or_compute(NAME, lambda: runner.table(toy_spec()), CONFIG)


EXPERIMENT = Experiment(NAME, load=toy_load, specs=lambda: [toy_spec()])

if __name__ == "__main__":
    reproduce.EXPERIMENTS = (*reproduce.EXPERIMENTS, EXPERIMENT)
    sys.exit(cli.main(sys.argv[1:]))
