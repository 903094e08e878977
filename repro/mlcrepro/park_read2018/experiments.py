"""The experiments of Park & Read (2018) whose committed tables the evidence reads.

One record a table (:class:`mlcrepro.experiment.Experiment`): the function that loads it
through :func:`mlcrepro.results.load_or_compute`, the runner specs of its cells, and the
tolerance of a recomputation (:mod:`mlcrepro.tolerances`).  ``make reproduce`` rebuilds
them all from :data:`EXPERIMENTS`.

=====================================  ==================================================
``blended_grid_<dataset>``, ``..grid``  the earlier alpha x beta grid (:mod:`.grid`)
``blended_study_<reading>[_per_setting]``  the two readings of the training (:mod:`.readings`)
``blended_penalty``, ``..split_check``  fixed-gamma paths, other splits (:mod:`.readings`)
``blended_<variant>``                   the open hypotheses' variants (:mod:`.variants`)
``blended_literal``                     the literal fit budget (:mod:`.variants`)
``blended_lp``                          label powerset, the headline's rival (:mod:`.baselines`)
=====================================  ==================================================
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import pandas as pd

from mlcrepro.experiment import Cells, Experiment
from mlcrepro.park_read2018 import baselines as bb
from mlcrepro.park_read2018 import readings as bs
from mlcrepro.park_read2018 import variants as bv
from mlcrepro.park_read2018.grid import (
    GRID_DATASETS,
    grid_config,
    grid_spec,
    load_blended_grid,
    run_blended_grid,
)
from mlcrepro.results import load_or_compute
from mlcrepro.runner import Spec
from mlcrepro.tolerances import BLENDED_ATOL

__all__ = ["EXPERIMENTS", "row_cells"]

#: the similarities of a fit, on the training and test halves: an optimiser's outcome,
#: bounded by the measured machine-to-machine spread
_SCORES = {
    f"{half}_{m}": BLENDED_ATOL
    for half in ("train", "test")
    for m in ("hamming", "jaccard", "exact")
}
#: what a fit records of its optimiser and its time: not compared
_INTERNALS = (
    "cpu_seconds",
    "fit_seconds",
    "n_iter",
    "cv_converged",
    "cv_stalled",
    "cv_stopped",
    "cv_capped",
)


def _grid(dataset: str) -> pd.DataFrame:
    return load_or_compute(
        f"blended_grid_{dataset}",
        lambda: run_blended_grid([dataset]),
        grid_config([dataset]),
    )


def _grid_specs(dataset: str) -> list[Spec]:
    return [grid_spec([dataset])]


def _variant_specs(variant: str) -> list[Spec]:
    return [bv.variant_spec(variant)]


def _study(reading: str, gamma_per: str) -> pd.DataFrame:
    return bs.load_study(reading, gamma_per=gamma_per)


def _study_specs(reading: str, gamma_per: str) -> list[Spec]:
    per_alpha = gamma_per == "alpha"
    datasets = (bs.STUDY_DATASETS if per_alpha else bs.PER_SETTING_DATASETS)[reading]
    return [bs.readings_spec(reading, datasets, gamma_per=gamma_per)]


def _literal() -> pd.DataFrame:
    return bv.load_literal(bv.literal_gamma(bs.load_study("ascent")))


def _literal_specs() -> list[Spec]:
    return [bv.literal_spec(bv.literal_gamma(bs.load_study("ascent")))]


#: the columns that tell one fit from another in each kind of table
_STUDY_KEYS = ("dataset", "reading", "gamma_choice", "alpha", "beta")


#: the dataset of the quick tier's sample wherever a table has several: the smallest and
#: cheapest of the paper's five (every value of the other axes)
_QUICK_DATASET = "emotions"


def _quick_sample(datasets: tuple[str, ...]) -> dict:
    """The quick tier's sample of a table over ``datasets`` (every cell of one)."""
    return {"dataset": _QUICK_DATASET} if len(datasets) > 1 else {}


def _experiment(
    name, load, specs=lambda: [], after=(), keys=_STUDY_KEYS, quick=None
) -> Experiment:
    return Experiment(
        name,
        load,
        specs,
        tolerance=_SCORES,
        volatile=_INTERNALS,
        after=tuple(after),
        keys=tuple(keys),
        quick=quick,
    )


#: every committed table of the folder, in an order in which each finds what it reads
EXPERIMENTS: tuple[Experiment, ...] = (
    *(
        _experiment(
            f"blended_grid_{d}",
            functools.partial(_grid, d),
            functools.partial(_grid_specs, d),
            keys=("dataset", "alpha", "beta"),
            quick={},
        )
        for d in GRID_DATASETS
    ),
    _experiment(
        "blended_grid",
        load_blended_grid,
        after=[f"blended_grid_{d}" for d in GRID_DATASETS],
        keys=("dataset", "alpha", "beta"),
    ),
    *(
        _experiment(
            bs.table_name(reading, gamma_per),
            functools.partial(_study, reading, gamma_per),
            functools.partial(_study_specs, reading, gamma_per),
            quick={"dataset": _QUICK_DATASET},
        )
        for reading in bs.READINGS
        for gamma_per in bs.GAMMA_PER
    ),
    _experiment(
        "blended_penalty",
        bs.load_penalty,
        lambda: [bs.penalty_spec()],
        keys=("dataset", "alpha", "beta", "gamma"),
        quick={"dataset": _QUICK_DATASET},
    ),
    _experiment(
        "blended_split_check",
        bs.load_split_check,
        lambda: [bs.split_spec()],
        keys=("dataset", "seed", "features", "alpha", "beta", "gamma"),
        quick={"seed": 0},
    ),
    *(
        _experiment(
            bv.variant_table(v),
            functools.partial(bv.load_variant, v),
            functools.partial(_variant_specs, v),
            quick=_quick_sample(bv.VARIANT_DATASETS[v]),
        )
        for v in bv.VARIANT_ARGS
    ),
    _experiment(
        "blended_literal",
        _literal,
        _literal_specs,
        after=["blended_study_ascent"],
        keys=("dataset", "rate", "alpha", "beta"),
        quick={},
    ),
    _experiment(
        "blended_lp",
        bb.load_lp,
        lambda: [bb.lp_spec()],
        keys=("dataset",),
        quick={"dataset": _QUICK_DATASET},
    ),
)

#: the two readings' tables (gamma per alpha), whose every cell the chosen reading and
#: its numbers are read from
_READINGS = tuple(bs.table_name(r) for r in bs.READINGS)


def row_cells(row: Mapping[str, Any]) -> tuple[Cells, ...]:
    """The committed tables' cells behind one row of the ``blended`` ledger.

    ``row`` holds the row's ``source`` and ``about`` (what it is about, as the ledger
    records it).  A number of Tables 2-4, and a reading of Sec. 4 or 5 or of Figs 1-2
    about one dataset, rests on that dataset's cells of both readings' tables (the
    evidence reads the chosen reading's numbers; the choice is made between the two);
    a reading about no dataset on every cell of both; the headline (Sec. 1) on those
    and label powerset's.  A dataset that was not available (Stare) rests on nothing;
    Table 1, Sec. 2-3 and eq. 10 are computed from the library, from no committed table.

    >>> [c.where for c in row_cells({"source": "Table 2", "about": {"dataset": "enron"}})]
    [{'dataset': 'enron'}, {'dataset': 'enron'}]
    >>> row_cells({"source": "Sec. 2.2", "about": {}})
    ()
    """
    source, about = str(row["source"]), row["about"]
    if not source.startswith(("Table 2", "Table 3", "Table 4", "Sec. 1", "Sec. 4", "Sec. 5")):
        return ()
    where: dict[str, Any] = {}
    if "dataset" in about:
        if about["dataset"] not in GRID_DATASETS:
            return ()  # the dataset is not available: nothing was computed
        where["dataset"] = about["dataset"]
    cells = tuple(Cells(t, where) for t in _READINGS)
    if source.startswith("Sec. 1"):
        cells += (Cells("blended_lp", where),)
    return cells
