"""The experiments of Wu & Zhou (2017) whose committed tables the evidence reads.

Every long computation of the folder is a runner spec (:mod:`mlcrepro.runner`) whose
table is committed under ``data/results/`` and read back by
:func:`mlcrepro.results.load_or_compute` with the configuration that keys it (so a
table made by other code fails at once, naming the command that recomputes it).
:data:`EXPERIMENTS` lists them, each with the function that loads it; :func:`load` reads
one by name for the evidence (:mod:`mlcrepro.wu_zhou2017.collect`):

=================================  ==============================================================
``limo_synthetic``                 Sec. 5.1: the three LIMO variants on our synthetic data
                                   (:func:`.benchmark.synthetic_table`)
``limo_benchmark``                 Sec. 5.2, Table B.3: six learners on four datasets, ten splits
                                   (:func:`.benchmark.benchmark_table`)
``limo_benchmark_released``        the LIMO variants with the released code's sampling on the
                                   same splits (:func:`.benchmark_sampling.sampling_table`)
``limo_thresholds``                the thresholding hypotheses on CAL500, medical, enron
                                   (:func:`.thresholds.threshold_hypotheses_table`)
``limo_thresholds_bibtex``         the hypotheses that matter on bibtex's first three splits
``limo_epochs``                    LIMO after 10 and 30 passes on bibtex's first split
                                   (:func:`.thresholds.epochs_table`)
``limo_benchmark_conventions``     BR, ML-kNN and GFM of the benchmark measured by the authors'
                                   conventions (:func:`.conventions.conventions_table`)
``limo_benchmark_solvers``         BR through LIBSVM and LIBLINEAR on medical's and bibtex's
                                   splits (:func:`.benchmark_solvers.solvers_table`)
``limo_authors_octave``            the authors' ``demo.m`` under GNU Octave, five seeds
                                   (:mod:`.octave`; ``make octave``), with its runs table
``limo_authors_ours``              our LIMO inside ``demo.m``'s protocol, both samplings
                                   (:func:`.authors_protocol.protocol_table`)
``limo_authors_variants``          LIMO-inst and LIMO-label inside that protocol
``limo_authors_baselines``         BR (LIBSVM, LIBLINEAR), ML-kNN and GFM inside that protocol
                                   (:func:`.authors_baselines.baselines_table`)
=================================  ==============================================================
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from mlcrepro.experiment import Cells, Experiment, by_column_value
from mlcrepro.results import load_or_compute
from mlcrepro.tolerances import BR_ATOL, LIMO_SEED_RANGE, LIMO_SYNTHETIC_ATOL
from mlcrepro.wu_zhou2017.authors_baselines import baselines_spec, baselines_table
from mlcrepro.wu_zhou2017.authors_protocol import (
    protocol_spec,
    protocol_table,
    variants_spec,
    variants_table,
)
from mlcrepro.wu_zhou2017.benchmark import (
    BENCHMARK_DATASETS,
    benchmark_config,
    benchmark_spec,
    benchmark_table,
    synthetic_config,
    synthetic_spec,
    synthetic_table,
)
from mlcrepro.wu_zhou2017.benchmark_sampling import sampling_spec, sampling_table
from mlcrepro.wu_zhou2017.benchmark_solvers import solvers_spec, solvers_table
from mlcrepro.wu_zhou2017.conventions import conventions_spec, conventions_table
from mlcrepro.wu_zhou2017.hypotheses import BIBTEX_HYPOTHESES, BIBTEX_REPLICATIONS
from mlcrepro.wu_zhou2017.octave import authors_octave_seconds, authors_octave_tables
from mlcrepro.wu_zhou2017.thresholds import (
    epochs_config,
    epochs_spec,
    epochs_table,
    threshold_hypotheses_config,
    threshold_hypotheses_spec,
    threshold_hypotheses_table,
)

__all__ = [
    "EXPERIMENTS",
    "REPS",
    "SYNTHETIC_REPLICATIONS",
    "load",
    "row_cells",
]

#: replications of the benchmark per dataset (ten splits, as in the paper)
REPS = {"cal500": 10, "medical": 10, "enron": 10, "bibtex": 10}
#: replications of the synthetic study (ten, as in the paper)
SYNTHETIC_REPLICATIONS = 10


def _synthetic() -> pd.DataFrame:
    n = SYNTHETIC_REPLICATIONS
    return load_or_compute("limo_synthetic", lambda: synthetic_table(n), synthetic_config(n))


def _benchmark() -> pd.DataFrame:
    return load_or_compute(
        "limo_benchmark",
        lambda: benchmark_table(BENCHMARK_DATASETS, REPS),
        benchmark_config(BENCHMARK_DATASETS, REPS),
    )


def _thresholds() -> pd.DataFrame:
    return load_or_compute(
        "limo_thresholds", threshold_hypotheses_table, threshold_hypotheses_config()
    )


def _thresholds_bibtex() -> pd.DataFrame:
    args = (("bibtex",), BIBTEX_REPLICATIONS, BIBTEX_HYPOTHESES)
    return load_or_compute(
        "limo_thresholds_bibtex",
        lambda: threshold_hypotheses_table(*args),
        threshold_hypotheses_config(*args),
    )


def _epochs() -> pd.DataFrame:
    return load_or_compute("limo_epochs", epochs_table, epochs_config())


#: the F1 measures of the thresholding tables
_F1 = ("macro_f1", "micro_f1", "instance_f1")
#: LIMO's measures move by at most its seed-to-seed range; the benchmark's BR rows by
#: their measured machine-to-machine bound (the larger of the two per measure)
_BENCHMARK = {m: max(LIMO_SEED_RANGE[m], BR_ATOL[m]) for m in LIMO_SEED_RANGE}
#: the Octave runs' own record: versions, dates and timings of the machine that ran them
_RUN_RECORD = ("cpu_seconds", "wall_seconds", "octave", "statistics", "date", "platform")

#: the quick tier's sample of the benchmark's tables: the first replication on medical,
#: whose replication cost the least of the four data sets in the committed rows (0.8 s of
#: fitting in limo_benchmark, 1.8 s in limo_benchmark_released)
_QUICK = {"dataset": "medical", "replication": 0}

#: every committed table of the folder, as :class:`mlcrepro.experiment.Experiment`
#: records for ``make reproduce`` (tolerances from :mod:`mlcrepro.tolerances`)
EXPERIMENTS: tuple[Experiment, ...] = (
    Experiment(
        "limo_synthetic",
        _synthetic,
        lambda: [synthetic_spec(SYNTHETIC_REPLICATIONS)],
        tolerance=LIMO_SYNTHETIC_ATOL,
        quick={"replication": 0},
    ),
    Experiment(
        "limo_benchmark",
        _benchmark,
        lambda: [benchmark_spec(BENCHMARK_DATASETS, REPS)],
        tolerance=_BENCHMARK,
        volatile=("seconds",),
        quick=_QUICK,
    ),
    Experiment(
        "limo_benchmark_released",
        sampling_table,
        lambda: [sampling_spec()],
        tolerance=dict(LIMO_SEED_RANGE),
        volatile=("seconds",),
        quick=_QUICK,
    ),
    Experiment(
        "limo_thresholds",
        _thresholds,
        lambda: [threshold_hypotheses_spec()],
        tolerance={m: LIMO_SEED_RANGE[m] for m in _F1},
        quick=_QUICK,
    ),
    Experiment(
        "limo_thresholds_bibtex",
        _thresholds_bibtex,
        lambda: [threshold_hypotheses_spec(("bibtex",), BIBTEX_REPLICATIONS, BIBTEX_HYPOTHESES)],
        tolerance={m: LIMO_SEED_RANGE[m] for m in _F1},
        quick={"replication": 0},
    ),
    Experiment(
        "limo_epochs",
        _epochs,
        lambda: [epochs_spec()],
        tolerance=dict(LIMO_SEED_RANGE),
        quick={},
    ),
    Experiment(
        "limo_authors_ours",
        protocol_table,
        lambda: [protocol_spec()],
        tolerance={"value": by_column_value("measure", LIMO_SEED_RANGE)},
        quick={"dataset": "emotions", "split": 0},
    ),
    Experiment(
        "limo_authors_variants",
        variants_table,
        lambda: [variants_spec()],
        tolerance={"value": by_column_value("measure", LIMO_SEED_RANGE)},
        quick={"dataset": "CAL500", "split": 0},
    ),
    Experiment(
        "limo_authors_baselines",
        baselines_table,
        lambda: [baselines_spec()],
        tolerance={"value": by_column_value("measure", BR_ATOL)},
        quick={"dataset": "emotions", "split": 0},
    ),
    Experiment(
        "limo_benchmark_conventions",
        conventions_table,
        lambda: [conventions_spec()],
        tolerance={"value": by_column_value("measure", BR_ATOL)},
        quick={"dataset": "medical", "replication": 0},
    ),
    Experiment(
        "limo_benchmark_solvers",
        solvers_table,
        lambda: [solvers_spec()],
        tolerance={"value": by_column_value("measure", BR_ATOL)},
        quick={"dataset": "medical", "replication": 0},
    ),
    Experiment(
        "limo_authors_octave",
        lambda: authors_octave_tables()[0],
        requires=("octave",),
        outside=authors_octave_seconds,
    ),
    Experiment(
        "limo_authors_octave_runs",
        lambda: authors_octave_tables()[1],
        volatile=_RUN_RECORD,
        requires=("octave",),
        after=("limo_authors_octave",),
    ),
)


def load(name: str) -> pd.DataFrame:
    """The committed table ``name`` of :data:`EXPERIMENTS`, checked against its configuration.

    Raises
    ------
    ValueError
        ``name`` is not one of this folder's tables.
    mlcrepro.results.StaleResultError
        The committed table was made from another configuration (or is missing).
    """
    by_name = {e.name: e for e in EXPERIMENTS}
    if name not in by_name:
        raise ValueError(f"name must be one of {sorted(by_name)}, got {name!r}")
    return by_name[name].load()


def row_cells(row: Mapping[str, Any]) -> tuple[Cells, ...]:
    """The committed tables' cells behind one row of the ``limo`` ledger.

    ``row`` holds the row's ``source`` and ``about`` (what it is about, as the ledger
    records it).  A Table B.3 row is the mean over the splits of its dataset and
    learner in ``limo_benchmark``; a row of the synthetic study (Tables B.1-B.2, Sec.
    5.1) rests on every replication of ``limo_synthetic``; the average ranks (Fig. 4,
    Sec. 5.2) on every cell of the benchmark.  Table 2, the theorems and Sec. 2 and 4
    are computed from the library, from no committed table.

    >>> row_cells({"source": "Table B.3",
    ...            "about": {"table": "Table B.3", "dataset": "cal500", "learner": "LIMO"}})
    (Cells(table='limo_benchmark', where={'dataset': 'cal500', 'method': 'LIMO'}),)
    >>> row_cells({"source": "Thm 4, App. A", "about": {}})
    ()
    """
    source, about = str(row["source"]), row["about"]
    if about.get("table") == "Table B.3":
        return (
            Cells("limo_benchmark", {"dataset": about["dataset"], "method": about["learner"]}),
        )
    if source.startswith(("Table B.1", "Table B.2", "Sec. 5.1")):
        return (Cells("limo_synthetic", {}),)
    if source.startswith(("Fig. 4", "Sec. 5.2")):
        return (Cells("limo_benchmark", {}),)
    return ()
