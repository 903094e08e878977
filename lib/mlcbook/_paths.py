"""Where the project keeps its files."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["project_root", "data_dir", "results_dir", "cache_dir"]


def project_root() -> Path:
    """The checkout's root (the folder holding ``pyproject.toml`` above ``lib/``)."""
    return Path(__file__).resolve().parents[2]


def data_dir() -> Path:
    """``data/`` at the project root: committed small data and the git-ignored cache."""
    return project_root() / "data"


def results_dir() -> Path:
    """``data/results/``: committed result tables of the long experiments.

    ``MLCBOOK_RESULTS_DIR`` points elsewhere (used by tests to stage a stale table).
    """
    env = os.environ.get("MLCBOOK_RESULTS_DIR")
    return Path(env) if env else data_dir() / "results"


def cache_dir() -> Path:
    """``data/cache/`` (git-ignored): memoised cells; ``MLCBOOK_CACHE_DIR`` overrides it."""
    env = os.environ.get("MLCBOOK_CACHE_DIR")
    return Path(env) if env else data_dir() / "cache"
