"""Committed result tables of long experiments, with provenance.

A chapter whose experiment is too long to run inside the test budget calls
:func:`load_or_compute`.  The first run (or ``make reproduce``, which sets
``MLCBOOK_RECOMPUTE=1``) computes the table and writes ``data/results/NAME.csv``
and ``NAME.json`` (configuration, its hash, package versions, date).  Later
runs load the CSV when the configuration hash matches; a changed
configuration is recomputed.  Floats are written with 17 significant digits,
so a loaded table equals the computed one exactly.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
from collections.abc import Callable
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import Any

import pandas as pd

from ._paths import results_dir

__all__ = ["config_hash", "load_or_compute", "provenance", "recompute_requested"]

_PACKAGES = ("mlcbook", "numpy", "scipy", "pandas", "scikit-learn", "mlrl-boomer", "liac-arff")


def config_hash(config: Any) -> str:
    """A short, stable hash of a JSON-serialisable configuration."""
    text = json.dumps(config, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def recompute_requested() -> bool:
    """True when ``MLCBOOK_RECOMPUTE=1`` (set by ``make reproduce``)."""
    return os.environ.get("MLCBOOK_RECOMPUTE", "0") == "1"


def provenance(config: Any) -> dict:
    """Configuration, its hash, package versions, Python, and the date."""
    versions = {}
    for pkg in _PACKAGES:
        try:
            versions[pkg] = metadata.version(pkg)
        except metadata.PackageNotFoundError:
            versions[pkg] = None
    return {
        "config": config,
        "config_hash": config_hash(config),
        "versions": versions,
        "python": platform.python_version(),
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }


def _atomic_write_text(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    tmp.replace(path)


def load_or_compute(
    name: str,
    compute: Callable[[], pd.DataFrame],
    config: Any,
    *,
    folder: str | Path | None = None,
) -> pd.DataFrame:
    """Load the committed table ``NAME`` or compute (and save) it.

    Parameters
    ----------
    name : str
        File stem under ``data/results/``.
    compute : callable
        Returns the table (a DataFrame with a default RangeIndex).
    config : JSON-serialisable
        Everything the result depends on; its hash decides whether the saved
        table is still valid.
    folder : path, optional
        Where to keep the files (default ``data/results``).
    """
    folder = Path(folder) if folder is not None else results_dir()
    csv, meta = folder / f"{name}.csv", folder / f"{name}.json"
    h = config_hash(config)
    if not recompute_requested() and csv.exists() and meta.exists():
        saved = json.loads(meta.read_text())
        if saved.get("config_hash") == h:
            return pd.read_csv(csv, float_precision="round_trip")
    table = compute()
    if not isinstance(table, pd.DataFrame):
        raise TypeError(f"compute must return a pandas DataFrame, got {type(table).__name__}")
    folder.mkdir(parents=True, exist_ok=True)
    tmp = csv.with_name(csv.name + ".tmp")
    table.to_csv(tmp, index=False, float_format="%.17g")
    tmp.replace(csv)
    _atomic_write_text(meta, json.dumps(provenance(config), indent=2, sort_keys=True, default=str) + "\n")
    return pd.read_csv(csv, float_precision="round_trip")
