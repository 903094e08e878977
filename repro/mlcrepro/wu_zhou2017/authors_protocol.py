"""Our LIMO on the authors' own protocol, beside their code run by Octave and the paper.

``demo.m`` (YuriWu/LIMO) fixes everything around the learner: the data files and their
ten permutations (first 30% test), each feature divided by its largest absolute value
over the whole data set, LIMO at step 0.01, 10 epochs, λ1 = λ2 = 1, and three
thresholdings (:mod:`mlcbook.learners.released_thresholds`).  Here our
:class:`~mlcbook.learners.LIMO` runs inside exactly that protocol, in both readings of
its sampling (``"algorithm1"``, ``"released_code"``), one seed per split; the measures
are :func:`mlcbook.metrics.all_measures` with 0/0 = 0 (the authors'
``measure/*.m``: on these data, whose rows all have a relevant and an irrelevant
label and whose scores do not tie, the two agree; ``tests/data/wu_zhou_measures_octave.json``).

* :func:`protocol_spec` / :func:`protocol_table`: the runner experiment
  (dataset × split × sampling), committed as ``limo_authors_ours``;
* :func:`comparison`: per dataset and measure, the paper's Table B.3 value, the
  authors' code under Octave (mean, sd and range over seeds of the 10-split means,
  from ``limo_authors_octave``), and ours in both readings, with the cells where
  ours lies outside the range of the authors' seeds named.
* :func:`variants_spec` / :func:`variants_table`: LIMO-inst (λ1 = 0) and LIMO-label
  (λ2 = 0) in the same protocol on CAL500 and enron, both readings, committed as
  ``limo_authors_variants``.  ``demo.m`` runs neither (its ``limo_main`` takes the
  trade-offs, the script sets both to 1), so these have no authors' run beside them;
  :func:`variants_comparison` sets them beside Table B.3.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from mlcbook.learners.limo import LIMO, SAMPLINGS
from mlcbook.learners.released_thresholds import (
    RowThresholdSVR,
    column_cuts,
    predict_column,
)
from mlcbook.metrics import all_measures
from mlcrepro.results import load_or_compute, recompute_requested
from mlcrepro.runner import Spec, table
from mlcrepro.wu_zhou2017 import authors
from mlcrepro.wu_zhou2017.names import PAPER_COLUMN
from mlcrepro.wu_zhou2017.octave import authors_octave_tables
from mlcrepro.wu_zhou2017.printed import paper_b3

__all__ = [
    "OURS_TABLE",
    "VARIANTS",
    "VARIANTS_TABLE",
    "PAPER_NAMES",
    "SEED_BASE",
    "comparison",
    "protocol_cell",
    "protocol_config",
    "protocol_spec",
    "protocol_table",
    "variants_comparison",
    "variants_config",
    "variants_spec",
    "variants_table",
]

OURS_TABLE = "limo_authors_ours"
VARIANTS_TABLE = "limo_authors_variants"
#: the variants of Sec. 5.2 that demo.m does not run: name -> (λ1, λ2)
VARIANTS: dict[str, tuple[float, float]] = {"LIMO-inst": (0.0, 1.0), "LIMO-label": (1.0, 0.0)}
#: LIMO's seed on split ``k`` is ``SEED_BASE + k``.
SEED_BASE = 20170000
#: the authors' file stems -> the names of Table B.3 (``limo_paper_table_b3.csv``).
PAPER_NAMES = {"emotions": None, "CAL500": "CAL500", "enron": "enron"}


def protocol_cell(dataset: str, split: int, sampling: str, **limo: Any) -> pd.DataFrame:
    """Our LIMO on one of ``demo.m``'s splits: eleven measures, one row each."""
    data = authors.load_authors_dataset(dataset)
    X = authors.normalize_max_abs(data.X)
    train, test = authors.authors_splits(data.randperms)[split]
    Xtr, Xte, Ytr, Yte = X[train], X[test], data.Y[train], data.Y[test]
    est = LIMO(sampling=sampling, random_state=SEED_BASE + split, **limo)
    est.fit(Xtr, Ytr, fit_threshold=False)
    Ftr, Fte = est.decision_function(Xtr), est.decision_function(Xte)
    # demo.m: t(x) by SVR on Hamming-optimal cuts; per-label F1 cuts; one shared F1 cut
    P_h = RowThresholdSVR("hloss").fit(Ftr, Ytr, Xtr).predict(Fte, Xte)
    P_macro = predict_column(Fte, column_cuts(Ftr, Ytr, "macro-F1"))
    P_micro = predict_column(Fte, column_cuts(Ftr, Ytr, "micro-F1"))
    Y = Yte.astype(np.int64)
    out = all_measures(Y, Fte, P_h, zero_division=0.0)
    out["macro_f1"] = all_measures(Y, Fte, P_macro, zero_division=0.0)["macro_f1"]
    micro = all_measures(Y, Fte, P_micro, zero_division=0.0)
    out["micro_f1"], out["instance_f1"] = micro["micro_f1"], micro["instance_f1"]
    return pd.DataFrame(
        {
            "dataset": dataset,
            "split": split,
            "sampling": sampling,
            "measure": list(PAPER_COLUMN.values()),
            "value": [float(out[m]) for m in PAPER_COLUMN],
        }
    )


def protocol_config(datasets: Sequence[str] = authors.DATASETS) -> dict:
    """Everything ``limo_authors_ours`` depends on."""
    return {
        "experiment": "our LIMO inside demo.m's protocol (YuriWu/LIMO 4135cf5)",
        "data_sha256": {d: authors.SHA256[f"limo/data/{d}.mat"] for d in datasets},
        "datasets": list(datasets),
        "splits": "randperms rows 1-10, first round(0.3 n) test",
        "normalisation": "each feature / max |value| over the whole data set (normalize.m)",
        "limo": {"eta": 0.01, "n_epochs": 10, "lambda1": 1.0, "lambda2": 1.0},
        "samplings": list(SAMPLINGS),
        "seed": f"{SEED_BASE} + split",
        "thresholds": "hamming: t(x) eps-SVR on best_hloss cuts; macro-F1: best_f1 per "
        "label; micro/instance-F1: one best_f1 cut of the flattened matrix",
        "measures": "mlcbook.metrics.all_measures, zero_division=0",
    }


def protocol_spec(datasets: Sequence[str] = authors.DATASETS) -> Spec:
    """dataset × split × sampling, one cell each (:func:`protocol_cell`)."""
    config = protocol_config(datasets)
    return Spec(
        OURS_TABLE,
        protocol_cell,
        {"dataset": list(datasets), "split": range(10), "sampling": list(SAMPLINGS)},
        params={"eta": 0.01, "n_epochs": 10, "lambda1": 1.0, "lambda2": 1.0},
        key={k: v for k, v in config.items() if k not in ("datasets", "data_sha256")},
        cell_key=lambda c: {"data": config["data_sha256"][c["dataset"]]},
        cost=lambda c: {"emotions": 1.0, "enron": 2.0, "CAL500": 3.0}[c["dataset"]],
        table=OURS_TABLE,
    )


def protocol_table(*, n_jobs: int = 1, cache_dir: Any = None) -> pd.DataFrame:
    """The committed ``limo_authors_ours`` (computed through the runner only when asked)."""
    return load_or_compute(
        OURS_TABLE,
        lambda: table(protocol_spec(), n_jobs=n_jobs, cache_dir=cache_dir, desc="LIMO, authors"),
        protocol_config(),
    )


def _variant_cell(
    dataset: str, split: int, sampling: str, variant: str, **limo: Any
) -> pd.DataFrame:
    lambda1, lambda2 = VARIANTS[variant]
    out = protocol_cell(dataset, split, sampling, lambda1=lambda1, lambda2=lambda2, **limo)
    out.insert(3, "variant", variant)
    return out


def variants_config(datasets: Sequence[str] = ("CAL500", "enron")) -> dict:
    """Everything ``limo_authors_variants`` depends on (:func:`protocol_config`'s protocol)."""
    config = protocol_config(datasets)
    config["experiment"] = "our LIMO-inst and LIMO-label inside demo.m's protocol"
    config["limo"] = {"eta": 0.01, "n_epochs": 10}
    config["variants"] = {k: list(v) for k, v in VARIANTS.items()}
    return config


def variants_spec(datasets: Sequence[str] = ("CAL500", "enron")) -> Spec:
    """dataset × split × sampling × variant, one cell each (:func:`protocol_cell`)."""
    config = variants_config(datasets)
    return Spec(
        VARIANTS_TABLE,
        _variant_cell,
        {
            "dataset": list(datasets),
            "split": range(10),
            "sampling": list(SAMPLINGS),
            "variant": list(VARIANTS),
        },
        params={"eta": 0.01, "n_epochs": 10},
        key={k: v for k, v in config.items() if k not in ("datasets", "data_sha256")},
        cell_key=lambda c: {"data": config["data_sha256"][c["dataset"]]},
        table=VARIANTS_TABLE,
    )


def variants_table(*, n_jobs: int = 1, cache_dir: Any = None) -> pd.DataFrame:
    """The committed ``limo_authors_variants`` (computed through the runner only when asked)."""
    return load_or_compute(
        VARIANTS_TABLE,
        lambda: table(
            variants_spec(), n_jobs=n_jobs, cache_dir=cache_dir, desc="LIMO variants, authors"
        ),
        variants_config(),
    )


def variants_comparison(variants: pd.DataFrame | None = None) -> pd.DataFrame:
    """LIMO-inst and LIMO-label inside the authors' protocol beside Table B.3.

    Columns ``dataset, variant, measure, paper, paper_std`` (as printed, strings) and the
    10-split means ``ours_algorithm1``, ``ours_released_code``.
    """
    variants = variants_table() if variants is None else variants
    mine = (
        variants.groupby(["dataset", "variant", "measure", "sampling"])["value"]
        .mean()
        .unstack("sampling")
    )
    mine.columns = [f"ours_{c}" for c in mine.columns]
    b3 = paper_b3().set_index(["dataset", "method", "measure"])
    out = mine.reset_index()
    out.insert(3, "paper", [b3.loc[k, "mean"] for k in zip(out.dataset, out.variant, out.measure)])
    out.insert(
        4, "paper_std", [b3.loc[k, "std"] for k in zip(out.dataset, out.variant, out.measure)]
    )
    order = {m: i for i, m in enumerate(PAPER_COLUMN.values())}
    return out.sort_values(
        ["dataset", "variant", "measure"],
        key=lambda c: c.map(order) if c.name == "measure" else c,
    ).reset_index(drop=True)


def _paper() -> pd.Series:
    b3 = paper_b3()  # Table B.3 as printed
    b3 = b3[b3.method == "LIMO"].set_index(["dataset", "measure"])["mean"]
    return b3.astype(float)


def comparison(
    ours: pd.DataFrame | None = None, octave: pd.DataFrame | None = None
) -> pd.DataFrame:
    """Per dataset and measure: paper, the authors' code (Octave seeds), ours (both readings).

    Columns: ``dataset, measure, paper, authors_mean, authors_sd, authors_min,
    authors_max, n_seeds, ours_algorithm1, ours_released_code`` and for each reading
    ``outside_<reading>``: whether ours lies outside ``[authors_min, authors_max]``,
    the range of the 10-split means over the Octave seeds (NA with fewer than two
    seeds).  Ours is one LIMO seed per split, so its own seed noise is of the same
    order as the authors' spread: a cell just outside the range is weak evidence.
    ``paper`` is NaN where Table B.3 has no such data set (emotions).
    """
    ours = protocol_table() if ours is None else ours
    octave = authors_octave_tables()[0] if octave is None else octave
    per_seed = octave.groupby(["dataset", "measure", "seed"])["value"].mean()
    stats = per_seed.groupby(["dataset", "measure"]).agg(["mean", "std", "min", "max", "count"])
    stats.columns = ["authors_mean", "authors_sd", "authors_min", "authors_max", "n_seeds"]
    mine = ours.groupby(["dataset", "measure", "sampling"])["value"].mean().unstack("sampling")
    mine.columns = [f"ours_{c}" for c in mine.columns]
    out = stats.join(mine, how="outer").reset_index()
    paper = _paper()
    out.insert(
        2,
        "paper",
        [
            paper.get((PAPER_NAMES.get(d), m), np.nan) if PAPER_NAMES.get(d) else np.nan
            for d, m in zip(out.dataset, out.measure)
        ],
    )
    spread = out.n_seeds >= 2  # one seed has no spread: NA
    for s in SAMPLINGS:
        col = out[f"ours_{s}"]
        flag = pd.Series(pd.NA, index=out.index, dtype="boolean")
        flag[spread] = ((col < out.authors_min) | (col > out.authors_max))[spread]
        out[f"outside_{s}"] = flag
    order = {m: i for i, m in enumerate(PAPER_COLUMN.values())}
    dorder = {d: i for i, d in enumerate(authors.DATASETS)}
    out = out.sort_values(
        ["dataset", "measure"], key=lambda s: s.map(dorder if s.name == "dataset" else order)
    )
    return out.reset_index(drop=True)


def _main(argv: Sequence[str] | None = None) -> int:
    names = list(argv or []) or [OURS_TABLE, VARIANTS_TABLE]
    for name, make in ((OURS_TABLE, protocol_table), (VARIANTS_TABLE, variants_table)):
        if name not in names:
            continue
        if not recompute_requested(name):
            print(f"set MLCBOOK_RECOMPUTE={name} to recompute the table")
        print(f"{name}: {len(make())} rows")
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
