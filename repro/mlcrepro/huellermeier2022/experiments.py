"""The experiments of Hüllermeier et al. (2022) whose committed tables the ledgers read.

One job: name each committed result table of this paper, with the specification that
keys it and the runner call that recomputes it, and load it through
:func:`mlcrepro.results.load_or_compute` (checked against its configuration; recomputed
only by ``make reproduce`` or ``make table NAME=...``).

==========================  =====================================================
``dependence_authors``      Sec. 5, Figs 1-3: the learner study on the authors' folds
                            (:mod:`~mlcrepro.huellermeier2022.authors_study`)
``knn_fig4``                Sec. 6, Fig. 4, with the Hamming tie-break
``knn_fig4_nearest``        the same with the nearest-neighbour tie-break
``knn_fig4_lexicographic``  the same with the lexicographic tie-break
``knn_consensus``           the reach of the consensus rule under Fig. 4's folds
``knn_queries``             Sec. 6, three statements read on every query of Fig. 4
                            (:mod:`~mlcrepro.huellermeier2022.knn_queries`)
``datasets_table2``         Table 2, the statistics of the benchmark files
                            (:mod:`~mlcrepro.huellermeier2022.dataset_files`)
``dependence_released``     the authors' released loss profiles (the paper's rows;
                            :mod:`~mlcrepro.huellermeier2022.reference`)
``knn_fig4_labelled``       Fig. 4 on birds' instances that have a relevant label
==========================  =====================================================

Each table is keyed by its specification and the sha256 recorded for the files it is
computed from: reading and checking it opens no data file and no released file.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from mlcrepro._paths import results_dir
from mlcrepro.experiment import Cells, Experiment, Tolerance, relative
from mlcrepro.huellermeier2022.authors_study import (
    LEARNERS,
    authors_study_config,
    run_authors_study,
    study_spec,
)
from mlcrepro.huellermeier2022.dataset_files import (
    STATISTICS_TABLE,
    statistics_config,
    statistics_spec,
)
from mlcrepro.huellermeier2022.knn_fig4 import (
    consensus_summary,
    fig4_config,
    fig4_spec,
    fig4_table,
)
from mlcrepro.huellermeier2022.knn_queries import QUERIES_TABLE, queries_config, queries_spec
from mlcrepro.huellermeier2022.names import study_learner
from mlcrepro.huellermeier2022.reference import RELEASED_TABLE, released_config, released_spec
from mlcrepro.results import load_or_compute, recompute_requested
from mlcrepro.runner import Spec, table
from mlcrepro.tolerances import BOOMER_K_FOLD_ATOL, CLOSED_FORM_RTOL

__all__ = [
    "EXPERIMENTS",
    "row_cells",
    "DEPENDENCE_TABLE",
    "KNN_DATASETS",
    "KNN_PAPER",
    "TIE_BREAKS",
    "EVERY_TIE_BREAK",
    "SETUP",
    "knn_table_name",
    "specification",
    "load",
    "dependence_table",
    "study_software",
    "knn_tables",
    "knn_consensus",
    "QUERY_QUANTITIES",
    "knn_queries",
    "dataset_statistics_table",
    "released_profiles",
    "LABELLED_TABLE",
    "labelled_fig4",
]

#: the learner study of Sec. 5
DEPENDENCE_TABLE = "dependence_authors"
#: the datasets of Fig. 4: the paper's five and MULAN's 7-label flags beside its 12-label one
KNN_DATASETS = ("birds", "emotions", "flags", "flags-12", "scene", "yeast")
#: the paper's datasets of Fig. 4 (flags-12: Table 2's flags)
KNN_PAPER = ("birds", "emotions", "flags-12", "scene", "yeast")
#: how the minimiser chooses among label vectors of equal summed loss (one table each)
TIE_BREAKS = ("hamming", "nearest", "lexicographic")
#: the ``setting`` of a ledger row read under every tie-break (on all three tables)
EVERY_TIE_BREAK = "every tie-break"
#: the ``quantity`` of the ledger rows on the setup of Sec. 5.2 (they rest on no cells)
SETUP = "setup"
#: the ``quantity`` of the kNN ledger's rows read on every query (the ``knn_queries``
#: table's cells, not Fig. 4's)
QUERY_QUANTITIES = (
    "exactness of the consensus rule",
    "minimiser unchanged in k",
    "tied modes at k = K",
)
#: Fig. 4 on birds without its instances that have no relevant label (46% of them):
#: whether those instances are why the Hamming surrogate is not among the two worst
LABELLED_TABLE = "knn_fig4_labelled"
#: the dataset of the quick tier's sample (one fold, every learner): the smallest, whose
#: fold of the learner study cost about 2.5 CPU-s in the committed rows
_QUICK_DATASET = "flags"


def knn_table_name(tie_break: str) -> str:
    """The committed Fig. 4 table of a tie-break.

    >>> knn_table_name("hamming"), knn_table_name("nearest")
    ('knn_fig4', 'knn_fig4_nearest')
    """
    if tie_break not in TIE_BREAKS:
        raise ValueError(f"tie_break must be one of {TIE_BREAKS}, got {tie_break!r}")
    return "knn_fig4" if tie_break == "hamming" else f"knn_fig4_{tie_break}"


def _fig4(tie_break: str) -> Callable[[], pd.DataFrame]:
    return lambda: fig4_table(list(KNN_DATASETS), tie_break=tie_break).drop(columns="n_free")


def _recorded(name: str) -> dict:
    """The configuration the committed table ``name``'s provenance records ({} if none:
    :func:`~mlcrepro.results.load_or_compute` then says what is missing)."""
    try:
        saved = json.loads((results_dir() / f"{name}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    config = saved.get("config") if isinstance(saved, dict) else None
    return config if isinstance(config, dict) else {}


def _specification(name: str) -> tuple[Callable[[], pd.DataFrame], dict]:
    """The runner call that computes the table ``name`` and the configuration keying it."""
    if name == DEPENDENCE_TABLE:
        if recompute_requested(name):
            return run_authors_study, authors_study_config()
        return run_authors_study, authors_study_config(recorded=_recorded(name))
    if name == "knn_consensus":
        datasets = list(KNN_DATASETS)
        return lambda: consensus_summary(datasets), fig4_config(datasets)
    made = {
        LABELLED_TABLE: (_labelled_spec, _labelled_config),
        QUERIES_TABLE: (queries_spec, queries_config),
        STATISTICS_TABLE: (statistics_spec, statistics_config),
        RELEASED_TABLE: (released_spec, released_config),
    }
    if name in made:
        spec, config = made[name]
        return lambda: table(spec(), desc=name), config()
    (tb,) = [tb for tb in TIE_BREAKS if knn_table_name(tb) == name]
    return _fig4(tb), fig4_config(list(KNN_DATASETS), tb)


def _labelled_config() -> dict:
    return fig4_config(["birds"], "hamming", labelled_only=True)


def _labelled_spec() -> Spec:
    return fig4_spec(["birds"], "hamming", labelled_only=True, name=LABELLED_TABLE)


def labelled_fig4() -> pd.DataFrame:
    """Fig. 4 (Hamming tie-break) on birds' instances with a relevant label only."""
    return load(LABELLED_TABLE)


def _check_name(name: str) -> str:
    names = [e.name for e in EXPERIMENTS]
    if name not in names:
        raise ValueError(f"name must be one of {names}, got {name!r}")
    return name


def specification(name: str) -> dict:
    """The configuration that keys the committed table ``name`` (one of :data:`EXPERIMENTS`)."""
    return _specification(_check_name(name))[1]


def load(name: str) -> pd.DataFrame:
    """The committed table ``name``, checked against its configuration (or recomputed
    when ``make reproduce``/``make table`` ask for it)."""
    compute, config = _specification(_check_name(name))
    return load_or_compute(name, compute, config)


def dependence_table() -> pd.DataFrame:
    """The learner study of Sec. 5: per dataset, learner and fold, its losses."""
    return load(DEPENDENCE_TABLE)


def knn_tables() -> dict[str, pd.DataFrame]:
    """The Fig. 4 table of each tie-break of :data:`TIE_BREAKS`."""
    return {tb: load(knn_table_name(tb)) for tb in TIE_BREAKS}


def knn_consensus() -> pd.DataFrame:
    """The reach of the consensus rule on :data:`KNN_DATASETS` (one row per dataset)."""
    return load("knn_consensus")


def knn_queries() -> pd.DataFrame:
    """The statements read on every query of Fig. 4 on :data:`KNN_PAPER` (one row per
    dataset, :func:`~mlcrepro.huellermeier2022.knn_queries.query_statistics`)."""
    return load(QUERIES_TABLE)


def dataset_statistics_table() -> pd.DataFrame:
    """Table 2's statistics of the benchmark files, indexed by dataset
    (:func:`mlcbook.datasets.dataset_statistics` of each,
    :data:`~mlcrepro.huellermeier2022.dataset_files.STATISTICS_DATASETS`)."""
    return load(STATISTICS_TABLE).set_index("dataset")


def released_profiles() -> pd.DataFrame:
    """The authors' released loss profiles of the paper's datasets and learners
    (:func:`~mlcrepro.huellermeier2022.reference.load_reference_results`, the columns
    :data:`~mlcrepro.huellermeier2022.reference.RELEASED_COLUMNS`)."""
    return load(RELEASED_TABLE)


def study_software(cell: str) -> str:
    """The software that does the work of the learner study's cell ``cell`` (its name in
    the cells' log, ``dataset/learner/split``), for the rebuild's report.

    BOOMER is Rapp et al.'s rule learner (mlrl-boomer), Rapp being one of the paper's
    authors; CLUS (through pyclus) and Weka's J48 are others' software, J48 under our
    ports of MEKA's BR, CC, LP and RAkEL.

    >>> study_software("enron/RAkEL-J48/3")
    "MEKA's BR, CC, LP, RAkEL (our ports) on Weka's J48"
    """
    learner = cell.split("/")[1] if cell.count("/") == 2 else ""
    if learner not in LEARNERS:
        raise ValueError(f"cell must be 'dataset/learner/split' of the study, got {cell!r}")
    if learner.endswith("-J48"):
        return "MEKA's BR, CC, LP, RAkEL (our ports) on Weka's J48"
    if learner.endswith("-CLUS"):
        return "CLUS (PCT, EPCT)"
    return "mlrl-boomer (BOOMER-1, BOOMER-K; the authors' own)"


def _study_bounds(table: pd.DataFrame, column: str) -> np.ndarray:
    """BOOMER-K's folds may move by :data:`~mlcrepro.tolerances.BOOMER_K_FOLD_ATOL`;
    every other learner's losses are closed forms of equal predictions."""
    values = np.abs(table[column].to_numpy(dtype=float))
    boomer_k = (table["learner"] == "BOOMER-K-2021").to_numpy()
    return np.where(boomer_k, BOOMER_K_FOLD_ATOL, CLOSED_FORM_RTOL * values)


def _fig4_experiment(tie_break: str) -> Experiment:
    name = knn_table_name(tie_break)
    return Experiment(
        name,
        functools.partial(load, name),
        functools.partial(_fig4_specs, tie_break),
        tolerance={"loss": relative(CLOSED_FORM_RTOL)},
        quick={"dataset": _QUICK_DATASET, "fold": 0},
    )


def _fig4_specs(tie_break: str) -> list[Spec]:
    return [fig4_spec(list(KNN_DATASETS), tie_break)]


#: every committed table of this paper, as :class:`mlcrepro.experiment.Experiment`
#: records for ``make reproduce`` (tolerances from :mod:`mlcrepro.tolerances`)
EXPERIMENTS: tuple[Experiment, ...] = (
    Experiment(
        DEPENDENCE_TABLE,
        dependence_table,
        lambda: [study_spec()],
        tolerance={"loss": Tolerance(_study_bounds, "BOOMER-K per fold; others relative")},
        volatile=("cpu_seconds",),
        requires=("java", "mlrl-boomer"),
        keys=("dataset", "learner", "fold", "family", "param"),
        quick={"dataset": _QUICK_DATASET, "split": 0},
        software=study_software,
    ),
    *(_fig4_experiment(tb) for tb in TIE_BREAKS),
    Experiment(
        LABELLED_TABLE,
        labelled_fig4,
        lambda: [_labelled_spec()],
        tolerance={"loss": relative(CLOSED_FORM_RTOL)},
        quick={"fold": 0},
    ),
    Experiment(
        "knn_consensus",
        knn_consensus,
        tolerance=relative(CLOSED_FORM_RTOL),
    ),
    # shares of queries: exact counts of the exact minimiser, as Fig. 4's losses
    Experiment(
        QUERIES_TABLE,
        knn_queries,
        lambda: [queries_spec()],
        tolerance=relative(CLOSED_FORM_RTOL),
        quick={"dataset": "emotions"},  # its cell: 0.2 CPU-s (birds 4.5, yeast 6.1)
    ),
    # counts and ratios of integer counts: equal on every machine
    Experiment(
        STATISTICS_TABLE,
        functools.partial(load, STATISTICS_TABLE),
        lambda: [statistics_spec()],
        quick={"dataset": "flags-12"},  # the smallest file: 0.003 CPU-s
    ),
    # the released files' numbers, parsed: equal
    Experiment(
        RELEASED_TABLE,
        released_profiles,
        lambda: [released_spec()],
        keys=("dataset", "learner", "family", "param"),
        quick={"dataset": "medical"},  # every cell parses both files: about 0.08 CPU-s
    ),
)


def _values(value: Any) -> tuple:
    return value if isinstance(value, tuple) else (value,)


def row_cells(row: Mapping[str, Any]) -> tuple[Cells, ...]:
    """The committed tables' cells behind one row of the paper's ledgers.

    Read from what the row is about (``row["about"]``, the row's
    :attr:`~mlcrepro.ledger.Entry.about`), never from its wording.  A ``dependence``
    row rests on the study's cells of the learners it is about (their paper's names,
    :func:`~mlcrepro.huellermeier2022.names.study_learner`) on the datasets it is about
    (every learner, every dataset when it names none), except the rows about the
    :data:`SETUP`, which rest on none; a ``knn`` row on Fig. 4's cells of the datasets
    it is about, in the table of its tie-break (its ``setting``; the three tables for
    :data:`EVERY_TIE_BREAK`), except the rows read on every query
    (:data:`QUERY_QUANTITIES`), which rest on the ``knn_queries`` cells.  The ``losses``
    ledger is computed from the library alone; the ``datasets`` ledger reads
    ``datasets_table2``, whose cells no row selects: the whole table (a file's
    statistics per cell, seconds in all) is recomputed by ``make table``.

    >>> row_cells({"chapter": "dependence", "about": {"learner": "BR", "dataset": "flags"}})
    (Cells(table='dependence_authors', where={'learner': ('BR-J48',), 'dataset': ('flags',)}),)
    >>> [c.table for c in row_cells({"chapter": "knn", "about": {"setting": EVERY_TIE_BREAK}})]
    ['knn_fig4', 'knn_fig4_nearest', 'knn_fig4_lexicographic']
    """
    chapter, about = str(row["chapter"]), row["about"]
    if not isinstance(about, Mapping):
        raise TypeError(f"row['about'] must be the row's about mapping, got {about!r}")
    where: dict[str, Any] = {}
    if "dataset" in about:
        where["dataset"] = _values(about["dataset"])
    if chapter == "dependence":
        if about.get("quantity") == SETUP:
            return ()  # the setup's description: read from the study's code, not its cells
        if "learner" in about:
            learners = (study_learner(n) for n in _values(about["learner"]))
            where = {"learner": tuple(dict.fromkeys(learners)), **where}
        return (Cells(DEPENDENCE_TABLE, where),)
    if chapter == "knn":
        if about.get("quantity") in QUERY_QUANTITIES:
            return (Cells(QUERIES_TABLE, where),)
        setting = about.get("setting", "hamming")
        ties = TIE_BREAKS if setting == EVERY_TIE_BREAK else (setting,)
        return tuple(Cells(knn_table_name(tb), where) for tb in ties)
    return ()
