"""The experiments of Wu & Zhou (2017), Sec. 5: LIMO on synthetic and benchmark data.

* Sec. 5.2 (benchmark data, Table B.3): :func:`benchmark_spec` crosses datasets x
  replications (70/30 splits) x methods; :func:`benchmark_cell` computes one cell's
  rows of eleven measures; :func:`benchmark_table` runs them all through
  :mod:`mlcrepro.runner`.  :func:`benchmark_config` is the key of the
  committed table ``limo_benchmark``; the cells' parameters are read from it, so the
  configuration that names the table is the one that computes it.
* Sec. 5.1 (synthetic data, Tables B.1-B.2): :func:`synthetic_replication` per
  replication, :func:`synthetic_table` through the runner, :func:`synthetic_config`.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.multiclass import OneVsRestClassifier
from sklearn.preprocessing import MaxAbsScaler
from sklearn.svm import LinearSVC

from mlcbook.datasets import load_dataset
from mlcbook.datasets.synthetic import make_limo_synthetic
from mlcbook.learners.gfm import GFM
from mlcbook.learners.limo import LIMO
from mlcbook.learners.mlknn import MLkNN
from mlcbook.learners.thresholds import InstanceThreshold, LabelThreshold
from mlcbook.metrics import all_measures
from mlcbook.validation import check_positive_int
from mlcrepro.results import dataset_fingerprints
from mlcrepro.runner import Spec, table
from mlcrepro.wu_zhou2017.names import PAPER_COLUMN

__all__ = [
    "BASELINE_METHODS",
    "BENCHMARK_DATASETS",
    "BENCHMARK_METHODS",
    "LIMO_VARIANTS",
    "SYNTHETIC_LAMBDA",
    "baseline_predictions",
    "benchmark_cell",
    "benchmark_config",
    "benchmark_spec",
    "benchmark_table",
    "benchmark_unit",
    "limo_benchmark_predictions",
    "split_indices",
    "scaled_split",
    "synthetic_config",
    "synthetic_replication",
    "synthetic_spec",
    "synthetic_table",
]

#: The six learners of Sec. 5.2, with LIMO's trade-offs (λ1, λ2).
BENCHMARK_METHODS: tuple[str, ...] = ("BR", "ML-kNN", "GFM", "LIMO-inst", "LIMO-label", "LIMO")
LIMO_VARIANTS: dict[str, tuple[float, float]] = {
    "LIMO-inst": (0.0, 1.0),
    "LIMO-label": (1.0, 0.0),
    "LIMO": (1.0, 1.0),
}
#: The benchmark datasets of Sec. 5.2 that are available.
BENCHMARK_DATASETS: tuple[str, ...] = ("cal500", "medical", "enron", "bibtex")
#: λ1 = λ2 of the synthetic experiment (Sec. 5.1).
SYNTHETIC_LAMBDA = 100.0


def split_indices(
    n: int, replication: int, train_fraction: float = 0.7
) -> tuple[np.ndarray, np.ndarray]:
    """Random train/test split of replication ``replication`` (seeded by it)."""
    rng = np.random.default_rng(20170000 + int(replication))
    perm = rng.permutation(n)
    n_train = round(train_fraction * n)
    return np.sort(perm[:n_train]), np.sort(perm[n_train:])


def _measures(Y: np.ndarray, F: np.ndarray, P_by_measure: dict) -> dict:
    """The eleven measures under the paper's columns; each classification measure uses
    its own 0/1 prediction."""
    out = all_measures(Y, F, P_by_measure["hamming_loss"])
    seen: dict[int, dict] = {}
    for key in ("macro_f1", "micro_f1", "instance_f1"):
        P = P_by_measure[key]
        pid = id(P)
        if pid not in seen:
            seen[pid] = all_measures(Y, F, P)
        out[key] = seen[pid][key]
    return {PAPER_COLUMN[m]: v for m, v in out.items()}


def limo_benchmark_predictions(
    Xtr: Any,
    Ytr: np.ndarray,
    Xte: Any,
    lambda1: float,
    lambda2: float,
    *,
    eta: float = 0.01,
    random_state: Any = None,
    n_epochs: int = 10,
    sampling: str = "algorithm1",
) -> tuple[np.ndarray, dict]:
    """Scores and the thresholded predictions LIMO is evaluated with on benchmark data.

    The thresholds follow the authors' released experiment script (``demo.m``):
    Hamming loss with a per-instance ``t(x)`` minimising each training instance's
    errors (RBF-SVR regression); macro-F1 with per-label ``t_j`` maximising each
    label's F1; micro- and instance-F1 with one threshold maximising micro-F1.
    ``sampling`` is LIMO's reading of its draws (:class:`~mlcbook.learners.LIMO`).
    """
    model = LIMO(
        lambda1,
        lambda2,
        eta=eta,
        n_epochs=n_epochs,
        random_state=random_state,
        sampling=sampling,
    )
    model.fit(Xtr, Ytr, fit_threshold=False)
    Ftr = model.decision_function(Xtr)
    Fte = model.decision_function(Xte)
    P_ham = InstanceThreshold("hamming").fit(Ftr, Ytr, Xtr).predict(Fte, Xte)
    P_macro = LabelThreshold("f1").fit(Ftr, Ytr).predict(Fte)
    P_shared = LabelThreshold("f1", shared=True).fit(Ftr, Ytr).predict(Fte)
    return Fte, {
        "hamming_loss": P_ham,
        "macro_f1": P_macro,
        "micro_f1": P_shared,
        "instance_f1": P_shared,
    }


#: The benchmark's methods that predict their own 0/1 labels (no thresholds of Sec. 3.2).
BASELINE_METHODS: tuple[str, ...] = ("BR", "ML-kNN", "GFM")


def baseline_predictions(
    method: str, Xtr: Any, Ytr: np.ndarray, Xte: Any, *, k: int = 10, C: float = 1.0
) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Scores and 0/1 predictions of a baseline of the benchmark: ``row -> (F, P)``.

    ``BR``: LIBLINEAR's linear SVM (``LinearSVC(C)``) per label, scored by its decision
    values; ``ML-kNN``: :class:`~mlcbook.learners.MLkNN` (``k``, s = 1), scored by its
    posteriors; ``GFM``: :class:`~mlcbook.learners.GFM` (``k``), whose 0/1 prediction is
    also its score (row ``GFM``) or is ranked by the neighbour marginals (``GFM-marg``).
    """
    if method == "BR":
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # labels constant on the training part
            br = OneVsRestClassifier(LinearSVC(C=C, random_state=0)).fit(Xtr, Ytr)
            F, P = br.decision_function(Xte), br.predict(Xte)
        return {"BR": (F, np.asarray(P.toarray() if sp.issparse(P) else P, dtype=np.int8))}
    if method == "ML-kNN":
        mk = MLkNN(k=k, s=1.0).fit(Xtr, Ytr)
        return {"ML-kNN": (mk.predict_proba(Xte), mk.predict(Xte))}
    if method == "GFM":
        g = GFM(k=k).fit(Xtr, Ytr)
        P = g.predict(Xte)
        return {"GFM": (P.astype(float), P), "GFM-marg": (g.predict_marginals(Xte), P)}
    raise ValueError(f"method must be one of {list(BASELINE_METHODS)}, got {method!r}")


def scaled_split(name: str, replication: int) -> tuple[Any, Any, np.ndarray, np.ndarray]:
    """The 70/30 split of one replication, features scaled to [-1, 1] on the training part."""
    X, Y, _ = load_dataset(name)
    Y = np.asarray(Y, dtype=np.int8)
    tr, te = split_indices(X.shape[0], replication)
    scaler = MaxAbsScaler().fit(X[tr])
    Xtr, Xte = scaler.transform(X[tr]), scaler.transform(X[te])
    if sp.issparse(Xtr):
        Xtr, Xte = sp.csr_matrix(Xtr), sp.csr_matrix(Xte)
    return Xtr, Xte, Y[tr], Y[te]


def benchmark_cell(
    name: str,
    replication: int,
    method: str,
    *,
    eta: float = 0.01,
    k: int = 10,
    C: float = 1.0,
    n_epochs: int = 10,
    data: tuple | None = None,
    sampling: str = "algorithm1",
) -> list[dict]:
    """One method on one 70/30 split of one dataset: its rows of eleven measures.

    Features are scaled to [-1, 1] per column (``MaxAbsScaler`` fitted on the training
    part; the authors' code divides by the column's maximum absolute value).
    GFM has no scores: its 0/1 prediction is also its score matrix (row ``GFM``); row
    ``GFM-marg`` scores it by the neighbour-estimated marginals instead (not ranked).
    ``data`` may pass the split of :func:`scaled_split` to avoid reloading it;
    ``sampling`` is the LIMO variants' reading of their draws (:class:`~mlcbook.learners.LIMO`).
    """
    if method not in BENCHMARK_METHODS:
        raise ValueError(f"method must be one of {list(BENCHMARK_METHODS)}, got {method!r}")
    Xtr, Xte, Ytr, Yte = scaled_split(name, replication) if data is None else data
    rows = []
    keys = ("hamming_loss", "macro_f1", "micro_f1", "instance_f1")

    def add(label: str, F: Any, P_by: dict, seconds: float) -> None:
        r = {"dataset": name, "replication": int(replication), "method": label}
        r.update(_measures(Yte, np.asarray(F, dtype=float), P_by))
        r["seconds"] = seconds
        rows.append(r)

    t0 = time.perf_counter()
    if method in BASELINE_METHODS:
        scored = baseline_predictions(method, Xtr, Ytr, Xte, k=k, C=C)
        sec = time.perf_counter() - t0
        for label, (F, P) in scored.items():
            add(label, F, dict.fromkeys(keys, P), sec)
    else:
        l1, l2 = LIMO_VARIANTS[method]
        F, Pby = limo_benchmark_predictions(
            Xtr,
            Ytr,
            Xte,
            l1,
            l2,
            eta=eta,
            random_state=int(replication),
            n_epochs=n_epochs,
            sampling=sampling,
        )
        add(method, F, Pby, time.perf_counter() - t0)
    return rows


def benchmark_unit(
    name: str, replication: int, methods: Sequence[str] = BENCHMARK_METHODS, **kw: Any
) -> list[dict]:
    """All ``methods`` on one 70/30 split of one dataset (:func:`benchmark_cell` each)."""
    data = scaled_split(name, replication)
    return [r for m in methods for r in benchmark_cell(name, replication, m, data=data, **kw)]


def _reps(datasets: Sequence[str], replications: int | Mapping[str, int]) -> dict[str, int]:
    if isinstance(replications, Mapping):
        missing = [d for d in datasets if d not in replications]
        if missing:
            raise ValueError(f"replications has no number for the datasets {missing}")
        return {d: check_positive_int(replications[d], f"replications[{d!r}]") for d in datasets}
    n = check_positive_int(replications, "replications")
    return {d: n for d in datasets}


def benchmark_config(
    datasets: Sequence[str] = BENCHMARK_DATASETS, replications: int | Mapping[str, int] = 10
) -> dict:
    """Everything the benchmark table depends on (the key of ``load_or_compute``).

    ``replications`` is a number for every dataset or a dict ``dataset -> number``.
    """
    return {
        "experiment": "Wu & Zhou (2017) Sec. 5.2",
        "datasets": list(datasets),
        "data": dataset_fingerprints(list(datasets)),
        "replications": _reps(datasets, replications),
        "split": "70/30, seed 20170000 + replication",
        "methods": list(BENCHMARK_METHODS),
        "limo": {
            "eta": 0.01,
            "lambda": 1.0,
            "n_epochs": 10,
            "init_std": "1/sqrt(d)",
            "sampling": "Algorithm 1 (weighted)",
        },
        "knn": 10,
        "neighbours": "euclidean, equal distances by training index",
        "br_C": 1.0,
        "scaling": "MaxAbsScaler(train)",
        "thresholds": "hamming: t(x) SVR; macro-F1: t_j; micro/instance-F1: shared t",
    }


def _benchmark_rows(dataset: str, replication: int, method: str, **params: Any) -> pd.DataFrame:
    # looked up at call time, so tests can count the cells computed
    return pd.DataFrame(benchmark_cell(dataset, replication, method, **params))


def benchmark_spec(
    datasets: Sequence[str] = BENCHMARK_DATASETS, replications: int | Mapping[str, int] = 10
) -> Spec:
    """The benchmark as a runner spec: datasets x replications x methods.

    The cells' parameters are read from :func:`benchmark_config`; a cell's key holds
    the protocol (the configuration without the dataset list) and its own dataset's
    file checksums, so adding a dataset or replications reuses every finished cell.
    """
    config = benchmark_config(datasets, replications)
    reps = config["replications"]
    protocol = {k: v for k, v in config.items() if k not in ("datasets", "replications", "data")}
    params = {
        "eta": config["limo"]["eta"],
        "n_epochs": config["limo"]["n_epochs"],
        "k": config["knn"],
        "C": config["br_C"],
    }
    return Spec(
        "limo_benchmark",
        _benchmark_rows,
        {
            "dataset": list(datasets),
            "replication": range(max(reps.values(), default=0)),
            "method": list(config["methods"]),
        },
        params=params,
        key=protocol,
        cell_key=lambda c: {"data": config["data"][c["dataset"]]},
        include=lambda c: c["replication"] < reps[c["dataset"]],
        table="limo_benchmark",
    )


def benchmark_table(
    datasets: Sequence[str] = BENCHMARK_DATASETS,
    replications: int | Mapping[str, int] = 10,
    *,
    n_jobs: int = 1,
    cache_dir: Any = None,
) -> pd.DataFrame:
    """The long table of Sec. 5.2: one row per dataset, replication and method.

    Every (dataset, replication, method) cell is memoised by the runner
    (:mod:`mlcrepro.runner`), written as it finishes, so an interrupted
    run resumes; cells run in parallel through joblib (``n_jobs``).  The memo is
    not read while the table is being recomputed (``make reproduce`` / ``make
    table``) unless ``MLCBOOK_RESUME=1`` says that it was filled by the same,
    interrupted recomputation.
    """
    return table(
        benchmark_spec(datasets, replications),
        n_jobs=n_jobs,
        cache_dir=cache_dir,
        desc="LIMO benchmark",
    )


def synthetic_config(replications: int = 10) -> dict:
    """Everything the synthetic tables depend on."""
    replications = check_positive_int(replications, "replications")
    return {
        "experiment": "Wu & Zhou (2017) Sec. 5.1",
        "data": "make_limo_synthetic(2000, seed=replication), quadrant design v1",
        "replications": int(replications),
        "test_fraction": 0.5,
        "lambda": SYNTHETIC_LAMBDA,
        "limo": {"eta": 0.01, "n_epochs": 10, "init_std": "1/sqrt(d)", "intercept": False},
        "thresholds": {
            "t": "per-label t_j",
            "t(x)": "per-instance, RBF-SVR",
            "optimised": "hamming for Hamming loss, F1 for the F-measures",
        },
    }


def synthetic_replication(
    replication: int, lam: float = SYNTHETIC_LAMBDA, *, eta: float = 0.01, n_epochs: int = 10
) -> list[dict]:
    """LIMO-inst, LIMO-label and LIMO on one draw of the synthetic data (50 % held out).

    One row per (variant, thresholding) with the eleven measures: ``threshold`` is
    ``'t'`` (per label) or ``'t(x)'`` (per instance); the ranking measures do not
    depend on it.  Hamming loss is computed with thresholds minimising training
    errors, the F-measures with thresholds maximising training F1 (per label for
    ``t``, per instance for ``t(x)``).
    """
    X, Y = make_limo_synthetic(2000, seed=int(replication))
    n_train = X.shape[0] // 2
    Xtr, Xte, Ytr, Yte = X[:n_train], X[n_train:], Y[:n_train], Y[n_train:]
    rows = []
    for name, (a1, a2) in LIMO_VARIANTS.items():
        model = LIMO(lam * a1, lam * a2, eta=eta, n_epochs=n_epochs, random_state=int(replication))
        model.fit(Xtr, Ytr, fit_threshold=False)
        Ftr, Fte = model.decision_function(Xtr), model.decision_function(Xte)
        for tname in ("t", "t(x)"):
            P = {}
            for measure in ("hamming", "f1"):
                if tname == "t":
                    P[measure] = LabelThreshold(measure).fit(Ftr, Ytr).predict(Fte)
                else:
                    P[measure] = InstanceThreshold(measure).fit(Ftr, Ytr, Xtr).predict(Fte, Xte)
            Pby = {
                "hamming_loss": P["hamming"],
                "macro_f1": P["f1"],
                "micro_f1": P["f1"],
                "instance_f1": P["f1"],
            }
            r = {"replication": int(replication), "method": name, "threshold": tname}
            r.update(_measures(Yte, Fte, Pby))
            rows.append(r)
    return rows


def _synthetic_rows(replication: int, **params: Any) -> pd.DataFrame:
    return pd.DataFrame(synthetic_replication(replication, **params))


def synthetic_spec(replications: int = 10) -> Spec:
    """The synthetic study as a runner spec: one cell per replication."""
    config = synthetic_config(replications)
    return Spec(
        "limo_synthetic",
        _synthetic_rows,
        {"replication": range(config["replications"])},
        params={
            "lam": config["lambda"],
            "eta": config["limo"]["eta"],
            "n_epochs": config["limo"]["n_epochs"],
        },
        key={k: v for k, v in config.items() if k != "replications"},
        table="limo_synthetic",
    )


def synthetic_table(
    replications: int = 10, *, n_jobs: int = 1, cache_dir: Any = None
) -> pd.DataFrame:
    """All replications of :func:`synthetic_replication` as one long table."""
    return table(
        synthetic_spec(replications), n_jobs=n_jobs, cache_dir=cache_dir, desc="synthetic"
    )
