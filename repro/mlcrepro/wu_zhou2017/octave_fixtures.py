"""Reference outputs of the authors' MATLAB functions, computed by GNU Octave, as test fixtures.

Two JSON files under ``tests/data/`` let the tests compare our code with the authors'
without Octave:

* ``wu_zhou_thresholds_octave.json``: ``best_hloss_threshold.m``, ``best_f1_threshold.m``
  (on every row and column of a score matrix with ties, near-ties closer than the
  code's ``1e-8``, a row with every label and one with none, a label relevant once
  and one relevant for all rows but one), ``limo_column_threshold.m`` (``macro-F1``, ``micro-F1``,
  ``hloss``), ``limo_row_threshold.m`` with LIBSVM's epsilon-SVR and ``limo_predict.m``
  (``row_svm`` and ``column``) on a linear model -- run by
  ``repro/octave/threshold_cases.m``;
* ``wu_zhou_measures_octave.json``: the eleven measures of ``perform_measure.m`` on
  fixed random scores and on edge cases (each case says what it exercises, see
  :data:`MEASURE_CASES`) -- run by ``repro/octave/measure_cases.m``; a measure that
  fails in the authors' code records its error message.

Inputs are generated here from fixed seeds and stored in the fixture beside the
outputs; the provenance records Octave's version, the sha256 of every authors' file
and of our two ``.m`` scripts, and the date.  Regenerate (Octave needed, see
``make octave``)::

    python -m mlcrepro.wu_zhou2017.octave_fixtures
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from mlcbook.datasets.fetch import sha256_of
from mlcbook.files import atomic_write_text
from mlcrepro import _paths
from mlcrepro.wu_zhou2017 import authors, octave

__all__ = [
    "MEASURE_CASES",
    "MEASURES_FIXTURE",
    "THRESHOLDS_FIXTURE",
    "measure_case_inputs",
    "threshold_inputs",
    "write_fixtures",
]

THRESHOLDS_FIXTURE = _paths.project_root() / "tests" / "data" / "wu_zhou_thresholds_octave.json"
MEASURES_FIXTURE = _paths.project_root() / "tests" / "data" / "wu_zhou_measures_octave.json"


def threshold_inputs(seed: int = 2017) -> dict[str, np.ndarray]:
    """The fixed inputs of ``threshold_cases.m``.

    ``F`` (30 × 8 scores) and ``Y``: half the rows rounded to one decimal (ties within
    rows and columns), two scores of row 2 and of column 3 only ``5e-9`` apart (below
    the code's ``1e-8``), row 0 with every label, row 1 with none (the vector cases
    "all positive" and "no positive"), label 6 relevant for row 0 only and label 7 for
    every row but row 1.  ``Xtr`` (40 × 5), ``Xte`` (12 × 5), ``W`` (5 × 6) and
    ``Ytr`` (40 × 6) for the SVR and prediction steps (scores ``X @ W``), ``Ytr``
    with a row of every label and one of none.
    """
    rng = np.random.default_rng(seed)
    F = rng.normal(size=(30, 8))
    F[::2] = np.round(F[::2], 1)
    F[2, 4] = F[2, 5] + 5e-9
    F[7, 3] = F[9, 3] + 5e-9
    Y = (rng.random((30, 8)) < 0.4).astype(float)
    Y[:, 6], Y[:, 7] = 0, 1
    Y[0], Y[1] = 1, 0
    Xtr = rng.random((40, 5))
    Xte = rng.random((12, 5))
    W = rng.normal(size=(5, 6))
    Ytr = (Xtr @ W + 0.5 * rng.normal(size=(40, 6)) > 0.3).astype(float)
    Ytr[0], Ytr[1] = 1, 0
    return {"F": F, "Y": Y, "Xtr": Xtr, "Xte": Xte, "W": W, "Ytr": Ytr}


def _random_case(rng, n=30, K=6, p=0.4):
    v = rng.normal(size=(n, K))
    y = (rng.random((n, K)) < p).astype(float)
    return v, y


def _case_random(rng):
    v, y = _random_case(rng)
    y[y.sum(axis=1) == 0, 0] = 1  # every row has a relevant and an irrelevant label
    y[y.sum(axis=1) == y.shape[1], 0] = 0
    return (v > 0).astype(float), v, y


def _case_rows_all_and_none(rng):
    v, y = _random_case(rng)
    y[0], y[1] = 1, 0
    return (v > 0).astype(float), v, y


def _case_ties(rng):
    v, y = _random_case(rng)
    v = np.round(v * 2) / 2  # scores on a 0.5 grid: ties within rows, columns, overall
    v[2] = 0.0  # a row of equal scores
    return (v >= 0).astype(float), v, y


def _case_empty_predictions(rng):
    v, y = _random_case(rng)
    pred = (v > 0).astype(float)
    pred[3] = 0  # a row predicting nothing
    pred[:, 1] = 0  # a label never predicted
    return pred, v, y


def _case_nothing_predicted(rng):
    v, y = _random_case(rng)
    return np.zeros_like(y), v, y


def _case_labels_never_and_always(rng):
    v, y = _random_case(rng)
    y[:, 0], y[:, 1] = 0, 1
    return (v > 0).astype(float), v, y


def _case_every_row_all_or_none(rng):
    v, _ = _random_case(rng, n=8)
    y = np.zeros_like(v)
    y[::2] = 1
    return (v > 0).astype(float), v, y


def _case_single_instance(rng):
    v, _ = _random_case(rng, n=1)
    y = np.array([[1.0, 0, 1, 0, 0, 0]])
    return (v > 0).astype(float), v, y


#: name -> (what the case exercises, inputs from a seeded generator).
MEASURE_CASES: dict[str, tuple[str, Callable]] = {
    "random": (
        "continuous random scores, every row with a relevant and an irrelevant label, "
        "predictions [score > 0]",
        _case_random,
    ),
    "rows_all_and_none": (
        "row 0 has every label relevant, row 1 none (ranking measures skip or keep them)",
        _case_rows_all_and_none,
    ),
    "ties": (
        "scores on a 0.5 grid and one row of equal scores: how ties are ranked and "
        "counted (ranking loss, AUCs, one-error, coverage)",
        _case_ties,
    ),
    "empty_predictions": (
        "a row predicting nothing and a label never predicted (0/0 in instance-/macro-F1)",
        _case_empty_predictions,
    ),
    "nothing_predicted": (
        "no label predicted anywhere (micro-F1's 0/0)",
        _case_nothing_predicted,
    ),
    "labels_never_and_always": (
        "label 0 never relevant, label 1 always (macro-AUC skips them, macro-F1's 0/0)",
        _case_labels_never_and_always,
    ),
    "every_row_all_or_none": (
        "every row has all labels or none: nothing left for the ranking measures",
        _case_every_row_all_or_none,
    ),
    "single_instance": ("one instance only", _case_single_instance),
}


def measure_case_inputs(seed: int = 2017) -> dict[str, dict[str, np.ndarray]]:
    """The fixed inputs of every case of :data:`MEASURE_CASES` (0/1 ``y_pred``, ``y_true``)."""
    out = {}
    for k, (name, (_, make)) in enumerate(MEASURE_CASES.items()):
        pred, v, y = make(np.random.default_rng([seed, k]))
        out[name] = {"y_pred": pred, "v_pred": v, "y_true": y}
    return out


def _save(folder: Path, arrays: dict[str, np.ndarray]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, a in arrays.items():
        np.savetxt(folder / f"{name}.csv", np.atleast_2d(a), delimiter=",", fmt="%.17g")


def _octave_eval(script: str, variables: dict[str, str], cwd: Path) -> None:
    settings = "; ".join(f"{k}='{v}'" for k, v in variables.items())
    cmd = [
        octave.octave_executable(),
        "--no-gui",
        "--norc",
        "--eval",
        f"{settings}; addpath('{octave.scripts_dir()}'); {script}",
    ]
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(
            f"Octave failed on {script}:\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}"
        )


def _read_matrices(path: Path) -> dict[str, list[list[float]]]:
    cells: dict[str, dict[tuple[int, int], float]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        name, i, j, value = line.split(",")
        cells.setdefault(name, {})[(int(i), int(j))] = float(value)
    out = {}
    for name, entries in cells.items():
        rows = 1 + max(i for i, _ in entries)
        cols = 1 + max(j for _, j in entries)
        out[name] = [[entries[(i, j)] for j in range(cols)] for i in range(rows)]
    return out


def _provenance(script: str) -> dict:
    return {
        "made_by": "python -m mlcrepro.wu_zhou2017.octave_fixtures",
        "octave_script": f"repro/octave/{script}",
        "octave_script_sha256": sha256_of(octave.scripts_dir() / script),
        "octave": octave.octave_version(),
        "statistics": octave.statistics_version(),
        "reference": f"YuriWu/LIMO {authors.COMMIT} and LIBSVM 3.37, read in place",
        "reference_sha256": authors.reference_sha256(),
        "date": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }


def _listed(arrays: dict[str, np.ndarray]) -> dict[str, list]:
    return {k: np.atleast_2d(v).tolist() for k, v in arrays.items()}


def write_fixtures() -> tuple[Path, Path]:
    """Run both Octave scripts on the fixed inputs and write the two JSON fixtures."""
    limo = authors.reference_dir() / "limo"
    libsvm = octave.build_libsvm()
    with tempfile.TemporaryDirectory() as tmp:
        tmpdir = Path(tmp)
        # thresholds
        inputs = threshold_inputs()
        _save(tmpdir / "thresholds", inputs)
        out = tmpdir / "thresholds.csv"
        _octave_eval(
            "threshold_cases",
            {
                "MLCBOOK_LIMO": str(limo),
                "MLCBOOK_LIBSVM": str(libsvm),
                "MLCBOOK_IN": str(tmpdir / "thresholds"),
                "MLCBOOK_OUT": str(out),
            },
            tmpdir,
        )
        fixture: dict[str, object] = {
            "provenance": _provenance("threshold_cases.m"),
            "inputs": _listed(inputs),
            "outputs": _read_matrices(out),
        }
        atomic_write_text(THRESHOLDS_FIXTURE, json.dumps(fixture, indent=1) + "\n")
        # measures
        cases = measure_case_inputs()
        for name, arrays in cases.items():
            _save(tmpdir / "measures" / name, arrays)
        (tmpdir / "measures" / "cases.txt").write_text("\n".join(cases) + "\n")
        out = tmpdir / "measures.csv"
        _octave_eval(
            "measure_cases",
            {
                "MLCBOOK_LIMO": str(limo),
                "MLCBOOK_IN": str(tmpdir / "measures"),
                "MLCBOOK_OUT": str(out),
            },
            tmpdir,
        )
        results: dict[str, dict[str, float | str]] = {name: {} for name in cases}
        for line in out.read_text(encoding="utf-8").splitlines():
            case, measure, value = line.split(",", 2)
            results[case][measure] = value if value.startswith("ERROR") else float(value)
        fixture = {
            "provenance": _provenance("measure_cases.m"),
            "note": "0/1 labels as passed to perform_measure.m (it recodes 0 to -1); "
            "NaN is written as the JSON token NaN",
            "cases": {
                name: {
                    "exercises": MEASURE_CASES[name][0],
                    "inputs": _listed(cases[name]),
                    "outputs": results[name],
                }
                for name in cases
            },
        }
        atomic_write_text(MEASURES_FIXTURE, json.dumps(fixture, indent=1) + "\n")
    return THRESHOLDS_FIXTURE, MEASURES_FIXTURE


if __name__ == "__main__":
    for path in write_fixtures():
        print(path)
    sys.exit(0)
