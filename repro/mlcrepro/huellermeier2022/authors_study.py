"""The learner study of Hüllermeier et al. (2022, Sec. 5) as the authors ran it.

The paper's question (how do the loss profiles of the learners move from Hamming,
k = 1, to subset 0/1, k = K?), asked with the authors' own protocol so that our
numbers can be put beside their released ones
(:func:`mlcrepro.huellermeier2022.reference.load_reference_results`):

* **Folds.**  The authors' ten train/test files
  (:func:`mlcrepro.huellermeier2022.folds.reference_folds`)
  for the seven datasets they released (birds, emotions, enron, flags, genbase, llog,
  medical), in the files' row and column order; scene and yeast, whose folds were not
  released, get :func:`~mlcbook.profiles.cv_folds` (10 folds, seed 0).
* **flags.**  The authors' experimenter ran MEKA with L = 12 on their 7-label file, so
  MEKA took the last 12 attributes as labels (crescent, triangle, icon, animate, text
  and the 7 colours); the released profiles score the 7 colours.  The learners their
  Java experimenter ran (MEKA's and CLUS) are trained here on those 12 labels and
  scored on the 7 colours (``SCORED_FROM``); BOOMER ran in its own Python testbed,
  which has no such label count and reads the file's 7 labels (:data:`FILE_AS_IS`).
* **Nominal features** are declared as in the authors' files (J48, CLUS and BOOMER
  split them by value; a numeric reading would give other trees).
* **Learners** (:data:`LEARNERS`): MEKA's BR, CC and LC (``LP``) on Weka's J48, MEKA's
  RAkEL with the authors' (k, m) (:func:`mlcbook.learners.registry.authors_rakel_settings`),
  CLUS's PCT and bagged PCTs (EPCT), and BOOMER at its 2021 defaults, each as the
  registry configures it.
* **Failed folds.**  J48 refuses a class attribute with a single value, and MEKA then
  fails the whole fold; the authors pooled the folds that finished.  Their experimenter
  ran all ks of RAkEL in one job per fold, in the iteration order of a
  ``java.util.HashSet<Integer>`` (:func:`mlcbook.learners.meka.java_hashmap_order`), so
  a failure at one k also ends the later ks of that fold.  One RAkEL cell is therefore
  one fold with all its ks, stopped at the first failure, as theirs was.
* **Losses** are pooled as the authors pooled them (the test predictions of the
  finished folds concatenated): the table holds per-fold means with ``n_test``, and
  :func:`~mlcbook.profiles.pooled_profiles` weights them.  The polynomial
  family uses the authors' 55 alphas (:data:`mlcrepro.huellermeier2022.reference.ALPHAS`).

Every cell's CPU time (this process, its child processes and the J48 server) is stored
beside its losses, so the chapter can report the cost per learner and dataset.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.base import clone

from mlcbook.datasets import load_dataset
from mlcbook.learners import WEKA_JAR_SHA256, WekaError
from mlcbook.learners.j48 import J48Classifier
from mlcbook.learners.meka import MekaRAkEL, java_hashmap_order
from mlcbook.learners.registry import authors_rakel_settings, learner_config, make_learner
from mlcbook.profiles import cv_folds, evaluate_predictions
from mlcrepro.huellermeier2022 import reference
from mlcrepro.huellermeier2022.folds import reference_folds, reference_layout
from mlcrepro.huellermeier2022.names import LEARNER_NAMES
from mlcrepro.results import dataset_fingerprints, package_versions
from mlcrepro.runner import Cell, Spec, table
from mlcrepro.timing import process_cpu_seconds

__all__ = [
    "AS_RUN",
    "AUTHORS_FOLDED",
    "FILE_AS_IS",
    "DATASETS",
    "LEARNERS",
    "SEEDED",
    "COLUMNS",
    "StudyData",
    "StudyLayout",
    "as_run",
    "authors_cell",
    "authors_study_config",
    "members",
    "rakel_order",
    "run_authors_study",
    "study_data",
    "study_layout",
    "study_spec",
]

#: Datasets whose ten splits the authors released (the book's names).
AUTHORS_FOLDED: tuple[str, ...] = (
    "flags",
    "emotions",
    "birds",
    "genbase",
    "medical",
    "enron",
    "llog",
)
#: Datasets of Table 2 without released splits: 10 seeded folds of our copy.
SEEDED: tuple[str, ...] = ("scene", "yeast")
#: Every dataset of the study: the authors' folds first, then the seeded ones.
DATASETS: tuple[str, ...] = AUTHORS_FOLDED + SEEDED

#: The learners of Sec. 5.2 as the authors ran them (registry names); ``RAkEL-J48``
#: stands for all of the authors' (k, m), one cell per fold.
LEARNERS: tuple[str, ...] = tuple(n.study for n in LEARNER_NAMES)

#: The experimenter's label count where it differs from the file's (flags: 12).
EXPERIMENTER_L: Mapping[str, int] = {"flags": 12}
#: flags: the first 5 of the 12 labels of the authors' run are not scored.
SCORED_FROM: Mapping[str, int] = {"flags": 5}
#: Learners the authors did not run through their Java experimenter: they read the
#: authors' files as they are (flags: 19 features, 7 labels).
FILE_AS_IS: tuple[str, ...] = ("BOOMER-1-2021", "BOOMER-K-2021")
#: flags: the authors' file has 14 features before the 5 symbol attributes.
_FLAGS_FEATURES = 14

#: The columns of the study's table (one row per fold, member run and loss).
COLUMNS: tuple[str, ...] = (
    "dataset",
    "folds",
    "K",
    "learner",
    "fold",
    "n_test",
    "cpu_seconds",
    "family",
    "param",
    "loss",
)

Split = tuple[Any, np.ndarray, Any, np.ndarray]


@dataclass(frozen=True)
class StudyData:
    """The splits of one dataset as the study runs them.

    Attributes
    ----------
    dataset : str
        The book's name.
    folds : str
        ``"authors"`` or ``"cv_folds(seed=0)"``.
    splits : tuple of (X_train, Y_train, X_test, Y_test)
        Ten splits, labels as trained (flags: 12 columns).
    nominal : dict of int -> tuple of str
        Nominal features (column -> value names); values are coded 0, 1, ...
    scored_from : int
        The first label column that is scored (flags: 5; else 0).
    file_splits : tuple of (X_train, Y_train, X_test, Y_test)
        The splits as the file holds them, for the learners of :data:`FILE_AS_IS`
        (flags: 19 features and 7 labels; elsewhere the very arrays of ``splits``).
    file_nominal : dict of int -> tuple of str
        Nominal features of the file as it is (flags: also the 5 symbol attributes).
    """

    dataset: str
    folds: str
    splits: tuple[Split, ...]
    nominal: dict[int, tuple[str, ...]]
    scored_from: int
    file_splits: tuple[Split, ...]
    file_nominal: dict[int, tuple[str, ...]]

    @property
    def n_labels(self) -> int:
        """Labels as trained (the experimenter's L)."""
        return int(self.splits[0][1].shape[1])

    def as_is(self, learner: str) -> bool:
        """Whether ``learner`` sees the file's own view, where it differs (flags)."""
        return learner in FILE_AS_IS and self.file_splits is not self.splits


def _check_dataset(name: Any) -> str:
    if not isinstance(name, str):
        raise TypeError(f"dataset must be a str, got {type(name).__name__}")
    if name not in DATASETS:
        raise ValueError(f"dataset must be one of {list(DATASETS)}, got {name!r}")
    return name


@functools.cache
def study_data(name: str) -> StudyData:
    """The splits, nominal features and scored labels of one dataset (see module).

    flags gets both its views here, once: the file as it is (for :data:`FILE_AS_IS`)
    and the experimenter's, whose 12 labels are the 5 symbol attributes followed by the
    file's 7 labels.
    """
    name = _check_dataset(name)
    if name in AUTHORS_FOLDED:
        folds = reference_folds(name)
        as_is = tuple(
            (
                s.X_train,
                np.asarray(s.Y_train).astype(np.uint8),
                s.X_test,
                np.asarray(s.Y_test).astype(np.uint8),
            )
            for s in folds.splits
        )
        nominal = dict(folds.nominal)
        if name not in SCORED_FROM:
            return StudyData(name, "authors", as_is, nominal, 0, as_is, nominal)
        f = _FLAGS_FEATURES  # the 5 symbol attributes are labels of their run
        trained = tuple(
            (
                Xtr[:, :f],
                np.hstack([Xtr[:, f:].astype(np.uint8), Ytr]),
                Xte[:, :f],
                np.hstack([Xte[:, f:].astype(np.uint8), Yte]),
            )
            for Xtr, Ytr, Xte, Yte in as_is
        )
        kept = {c: v for c, v in nominal.items() if c < f}
        return StudyData(name, "authors", trained, kept, SCORED_FROM[name], as_is, nominal)
    X, Y, info = load_dataset(name)
    X = sp.csr_matrix(X) if sp.issparse(X) else np.asarray(X)
    Y = np.asarray(Y).astype(np.uint8)
    nominal = {
        i: tuple(info.nominal[f]) for i, f in enumerate(info.feature_names) if f in info.nominal
    }
    splits = tuple((X[tr], Y[tr], X[te], Y[te]) for tr, te in cv_folds(X.shape[0], 10, 0))
    return StudyData(name, "cv_folds(seed=0)", splits, nominal, 0, splits, nominal)


@dataclass(frozen=True)
class StudyLayout:
    """What the study's configuration reads of a dataset: the columns as trained, no rows.

    The fields of :class:`StudyData` of the same name (``n_labels`` as trained;
    ``two_views``: flags, whose file and trained views differ).
    """

    nominal: dict[int, tuple[str, ...]]
    scored_from: int
    file_nominal: dict[int, tuple[str, ...]]
    n_labels: int
    two_views: bool

    def as_is(self, learner: str) -> bool:
        """Whether ``learner`` sees the file's own view, where it differs (flags)."""
        return learner in FILE_AS_IS and self.two_views


@functools.cache
def study_layout(name: str) -> StudyLayout:
    """The layout of one dataset as :func:`study_data` gives it, from the authors' file
    headers alone where they released folds
    (:func:`~mlcrepro.huellermeier2022.folds.reference_layout`: the configuration of the
    study reads in milliseconds what reading the twenty split files took seconds for);
    elsewhere from :func:`study_data`."""
    name = _check_dataset(name)
    if name not in AUTHORS_FOLDED:
        d = study_data(name)
        return StudyLayout(d.nominal, d.scored_from, d.file_nominal, d.n_labels, False)
    head = reference_layout(name)
    nominal = dict(head.nominal)
    n_labels = len(head.label_names)
    if name not in SCORED_FROM:
        return StudyLayout(nominal, 0, nominal, n_labels, False)
    f = _FLAGS_FEATURES  # the symbol attributes after the first f features become labels
    kept = {c: v for c, v in nominal.items() if c < f}
    n_trained = len(head.feature_names) - f + n_labels
    return StudyLayout(kept, SCORED_FROM[name], nominal, n_trained, True)


def rakel_order(n_labels: int) -> list[tuple[int, int]]:
    """The authors' RAkEL (k, m) in the order their experimenter ran them.

    Their job loops over a ``HashSet<Integer>`` of the ks {1..5, L // 2, L - 1}, whose
    iteration order is that of a ``java.util.HashMap`` keyed by the ints; m = L - k + 1.
    """
    m = dict(authors_rakel_settings(n_labels))
    ks = list(dict.fromkeys([*range(1, 6), n_labels // 2, n_labels - 1]))
    return [(ks[i], m[ks[i]]) for i in java_hashmap_order(ks)]


def as_run(
    learner: str, data: StudyData, split: int
) -> tuple[Any, np.ndarray, Any, np.ndarray, int]:
    """``(X_train, Y_train, X_test, Y_test, scored_from)`` as ``learner`` was run.

    flags as MEKA and CLUS ran it has 12 labels, the first 5 not scored; BOOMER
    (:data:`FILE_AS_IS`) reads the file as it is: the 5 symbol attributes are features.
    """
    if data.as_is(learner):
        return (*data.file_splits[split], 0)
    return (*data.splits[split], data.scored_from)


@functools.cache
def members(learner: str, dataset: str) -> tuple[tuple[str, Any, dict], ...]:
    """``(row name, estimator, fit keywords)`` of one cell (RAkEL: one per k, in the
    experimenter's order), built once per process; :func:`authors_cell` fits clones."""
    data = study_layout(dataset)
    nominal = data.file_nominal if data.as_is(learner) else data.nominal
    counts = {c: len(v) for c, v in nominal.items()}
    if learner == "RAkEL-J48":
        return tuple(
            (f"RAkEL-J48-k{k}-m{m}", MekaRAkEL(k, m, J48Classifier(nominal=counts or None)), {})
            for k, m in rakel_order(data.n_labels)
        )
    est = make_learner(learner, 0)
    fit: dict = {}
    if learner.endswith("-J48") and counts:
        est.set_params(estimator__nominal=counts)
    elif learner.endswith("-CLUS"):
        est.set_params(nominal_features={c: list(v) for c, v in nominal.items()} or None)
    elif learner.startswith("BOOMER") and counts:
        fit["nominal_feature_indices"] = sorted(counts)
    return ((learner, est, fit),)


def authors_cell(dataset: str, learner: str, split: int) -> pd.DataFrame:
    """One fold of one learner: the losses of each member run that finished.

    A member that fails (MEKA: J48 refused a class with a single value) ends the
    fold's job, as the authors' experimenter did: it and the later members have no
    rows.  Each finished member's predictions on the scored labels are evaluated
    with :func:`~mlcbook.profiles.evaluate_predictions` (binomial k = 1..K, the
    authors' alphas).

    Returns
    -------
    DataFrame
        The study's rows of this cell, columns :data:`COLUMNS`.
    """
    data = study_data(dataset)
    Xtr, Ytr, Xte, Yte, first = as_run(learner, data, split)
    scored = Yte[:, first:]
    frames = []
    for row, est, fit in members(learner, dataset):
        t0 = process_cpu_seconds(helper=True)
        try:
            model = clone(est).fit(Xtr, Ytr, **fit)
        except WekaError as exc:  # MEKA fails the fold: J48 refused a class
            if "unary class" not in str(exc):
                raise
            break  # the experimenter's job for this fold ends here
        pred = model.predict(Xte)
        pred = pred.toarray() if sp.issparse(pred) else np.asarray(pred)
        if pred.shape != Yte.shape:
            raise ValueError(f"{learner} predicted shape {pred.shape}, expected {Yte.shape}")
        if not np.isin(pred, (0, 1)).all():  # never threshold a score or a label code
            raise ValueError(f"{learner} predicted values other than 0 and 1 on {dataset}")
        P = pred.astype(np.int8)
        cpu = process_cpu_seconds(helper=True) - t0
        ev = evaluate_predictions(scored, P[:, first:], reference.ALPHAS)
        head = {
            "dataset": dataset,
            "folds": data.folds,
            "K": scored.shape[1],
            "learner": row,
            "fold": split,
            "n_test": scored.shape[0],
            "cpu_seconds": float(cpu),
        }
        frames.append(ev.assign(**head)[list(COLUMNS)])
    if not frames:
        return _empty()
    return pd.concat(frames, ignore_index=True)


def _empty() -> pd.DataFrame:
    types = {"K": int, "fold": int, "n_test": int, "cpu_seconds": float, "param": float}
    return pd.DataFrame(
        {c: pd.Series([], dtype=types.get(c, float if c == "loss" else object)) for c in COLUMNS}
    )


def _software(learner: str) -> dict[str, str | None]:
    """The software a learner runs on, part of its cells' keys (J48: Weka's jar)."""
    if learner.endswith("-J48"):
        return {"weka.jar sha256": WEKA_JAR_SHA256}
    if learner.endswith("-CLUS"):
        return package_versions(["pyclus"])
    return package_versions(["mlrl-boomer"])


def _data_key(name: str) -> dict:
    key: dict = {"dataset": dataset_fingerprints([name])}
    if name in AUTHORS_FOLDED:
        zname = f"folds-{reference.FOLD_DATASETS[name]}.zip"
        key["folds"] = {zname: reference.FILES[zname][0]}
    else:
        key["folds"] = "cv_folds(n_folds=10, seed=0)"
    return key


def _view(learner: str, name: str) -> dict:
    """How a learner saw the data, where it differs from the experimenter's view."""
    if study_layout(name).as_is(learner):
        return {"view": "the authors' file as it is"}
    return {}


def _configs(learner: str, name: str) -> list:
    return [[row, learner_config(est), fit] for row, est, fit in members(learner, name)]


def _spec(
    datasets: Sequence[str],
    learners: Sequence[str],
    splits: Sequence[int],
    omit: Iterable[tuple[str, str]] = (),
) -> Spec:
    left_out = {(str(d), str(m)) for d, m in omit}

    def check(c: Cell, out: Any) -> None:
        names = {row for row, _, _ in members(c["learner"], c["dataset"])}
        if not (
            isinstance(out, pd.DataFrame)
            and tuple(out.columns) == COLUMNS
            and set(out["learner"]) <= names
            and (out["dataset"] == c["dataset"]).all()
            and (out["fold"] == c["split"]).all()
        ):
            raise ValueError(f"cell result is not the table of {c}")

    def cost(c: Cell) -> float:
        Xtr, Ytr, _, _ = study_data(c["dataset"]).splits[c["split"]]
        weight = 40.0 if c["learner"].startswith(("BOOMER-K", "RAkEL")) else 1.0
        return weight * Xtr.shape[0] * Xtr.shape[1] * Ytr.shape[1]

    return Spec(
        "authors_study",
        authors_cell,
        {"dataset": list(datasets), "learner": list(learners), "split": list(splits)},
        # a cell holds its losses (a table), no longer its predictions
        key={"cell": "losses per member"},
        cell_key=lambda c: {
            "data": _data_key(c["dataset"]),
            "learner": _configs(c["learner"], c["dataset"]),
            "software": _software(c["learner"]),
            **_view(c["learner"], c["dataset"]),
        },
        # the estimators' own code (first-party classes and their MRO) in the cache key
        code=lambda c: [est for _, est, _ in members(c["learner"], c["dataset"])],
        check=check,
        cost=cost,
        include=lambda c: (c["dataset"], c["learner"]) not in left_out,
        table="dependence_authors",
    )


def _validated(datasets: Iterable[str], learners: Iterable[str]) -> tuple[list, list]:
    ds = [_check_dataset(d) for d in datasets]
    ls = list(learners)
    for name in ls:
        if name not in LEARNERS:
            raise ValueError(f"learners must be among {list(LEARNERS)}, got {name!r}")
    return ds, ls


def run_authors_study(
    datasets: Iterable[str] = DATASETS,
    learners: Iterable[str] = LEARNERS,
    *,
    splits: Iterable[int] = range(10),
    omit: Iterable[tuple[str, str]] = (),
    n_jobs: int = 1,
    cache_dir: str | Path | bool | None = None,
) -> pd.DataFrame:
    """Run the study (see module) through the runner; per-fold losses as a tidy table.

    Parameters
    ----------
    datasets : names among :data:`DATASETS`
    learners : names among :data:`LEARNERS`
    splits : the split numbers 0..9 to run
    omit : (dataset, learner) pairs left out (a partial study; none by default)
    n_jobs : joblib workers over the cells
    cache_dir : path, True/None (the default cache folder) or False (no cache)

    Returns
    -------
    DataFrame
        :func:`mlcrepro.runner.table` of the study's spec, columns :data:`COLUMNS`:
        the fold's mean loss over its test rows on the scored labels (K of them), one
        row per k of the binomial and per alpha of the polynomial family.  A fold that
        failed has no rows (the authors pooled the finished ones).
    """
    return table(
        study_spec(datasets, learners, splits=splits, omit=omit),
        n_jobs=n_jobs,
        cache_dir=cache_dir,
        desc="study cells",
    )


def study_spec(
    datasets: Iterable[str] = DATASETS,
    learners: Iterable[str] = LEARNERS,
    *,
    splits: Iterable[int] = range(10),
    omit: Iterable[tuple[str, str]] = (),
) -> Spec:
    """The study's :class:`~mlcrepro.runner.Spec` (arguments as :func:`run_authors_study`)."""
    ds, ls = _validated(datasets, learners)
    split_ids = [int(s) for s in splits]
    for s in split_ids:
        if not 0 <= s < 10:
            raise ValueError(f"splits must be in 0..9, got {s}")
    return _spec(ds, ls, split_ids, omit)


#: the entries of the study's configuration that say how its cells were run: each
#: learner's configuration (which reads the dataset's layout from its files) and the
#: software; a committed table's provenance records them (see :func:`authors_study_config`)
AS_RUN: tuple[str, ...] = ("learners", "software")


def authors_study_config(
    datasets: Iterable[str] = DATASETS,
    learners: Iterable[str] = LEARNERS,
    omit: Iterable[tuple[str, str]] = (),
    *,
    recorded: Mapping[str, Any] | None = None,
) -> dict:
    """Everything :func:`run_authors_study` depends on, for ``results.load_or_compute``.

    Parameters
    ----------
    datasets, learners, omit
        As :func:`run_authors_study`.
    recorded : mapping, optional
        The configuration a committed table's provenance records.  Given, the entries of
        :data:`AS_RUN` (how the cells were run: the learners' configurations, built from
        each dataset's layout in its files, and the software) are read from it, for the
        learners and datasets asked for (``None`` where it has none); every other entry
        (protocol, datasets and the sha256 of their files and folds, alphas, omitted
        pairs) is derived here from the specification and the registered sha256, so
        checking a committed table opens no data file and builds no learner.  Without
        it (recomputing), every entry is computed from the raw material.
    """
    ds, ls = _validated(datasets, learners)
    omitted = sorted({(str(d), str(m)) for d, m in omit})
    ran = [(d, name) for d in ds for name in ls if (d, name) not in set(omitted)]
    config: dict = {
        "omitted": [list(p) for p in omitted],
        "protocol": "Hullermeier et al. (2022) Sec. 5 as the authors ran it (authors_study)",
        "datasets": {d: _data_key(d) for d in ds},
        "alphas": [float(a) for a in reference.ALPHAS],
    }
    if recorded is None:
        config["learners"] = {d: {} for d in ds}
        for d, name in ran:
            config["learners"][d][name] = [_configs(name, d), _view(name, d)]
        config["software"] = {name: _software(name) for name in ls}
        return config
    if not isinstance(recorded, Mapping):
        raise TypeError(f"recorded must be a mapping, got {type(recorded).__name__}")
    was: dict[str, Mapping] = {}
    for k in AS_RUN:
        entry = recorded.get(k)
        was[k] = entry if isinstance(entry, Mapping) else {}
    config["learners"] = {d: {} for d in ds}
    for d, name in ran:
        on = was["learners"].get(d)
        config["learners"][d][name] = on.get(name) if isinstance(on, Mapping) else None
    config["software"] = {name: was["software"].get(name) for name in ls}
    return config
