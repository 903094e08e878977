"""Where the reproduction keeps its files: all inside the book's checkout.

The reproduction is not installed from a wheel; it lives in the checkout, next to the
chapters, the committed result tables and the git-ignored cache.  :func:`use_checkout_data`
points the library's data home and mirrors at the checkout's folders, unless the
environment already chooses them.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = [
    "project_root",
    "data_dir",
    "results_dir",
    "cache_dir",
    "shared_dir",
    "use_checkout_data",
]


def project_root() -> Path:
    """The checkout's root (the folder holding ``repro/`` and ``book/``)."""
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


def shared_dir() -> Path:
    """``../shared`` beside the checkout: the project's local mirror of public material."""
    return project_root().parent / "shared"


def use_checkout_data() -> None:
    """Point the library at the checkout's folders, where the environment does not.

    * ``MLCBOOK_DATA`` (the library's data home) → ``data/cache``;
    * ``MLCBOOK_DATA_MIRROR`` → ``../shared/datasets`` when that folder exists;
    * ``MLCBOOK_WEKA_JAR`` → the jar ``make weka`` unpacks into ``.weka/``, when present.

    A variable already set (even to the empty string) is left alone.
    """
    os.environ.setdefault("MLCBOOK_DATA", str(cache_dir()))
    mirror = shared_dir() / "datasets"
    if mirror.is_dir():
        os.environ.setdefault("MLCBOOK_DATA_MIRROR", str(mirror))
    jar = project_root() / ".weka" / "usr" / "share" / "java" / "weka-3.6.14.jar"
    if jar.is_file():
        os.environ.setdefault("MLCBOOK_WEKA_JAR", str(jar))
