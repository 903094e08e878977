"""Where the reproduction keeps its files: inside the book's checkout, or its wheel.

In the checkout (``make install`` installs it editable) the reproduction lives next to the
chapters, the committed result tables (``data/results/``, their single home) and the
git-ignored cache.  Installed from its wheel (the site's page "Get the code"), it carries
a copy of the committed tables as package data, put there when the wheel is built, and
finds them by name (``importlib.resources``), never by a path relative to the install
prefix.  :func:`use_checkout_data` points the library's data home and mirrors at the
checkout's folders, unless the environment already chooses them.
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

__all__ = [
    "project_root",
    "data_dir",
    "results_dir",
    "in_checkout",
    "packaged_results",
    "PACKAGED_RESULTS",
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


#: the folder of the package that holds the committed tables in the reproduction's wheel
PACKAGED_RESULTS = "committed_tables"


def in_checkout() -> bool:
    """Whether this copy of the reproduction is the book's checkout (``repro/`` beside
    ``data/results/``), not a copy installed from the wheel."""
    return (project_root() / "repro" / "pyproject.toml").is_file() and (
        data_dir() / "results"
    ).is_dir()


def packaged_results() -> Path:
    """The committed tables the reproduction's wheel carries (package data, found by name)."""
    return Path(str(resources.files("mlcrepro").joinpath(PACKAGED_RESULTS)))


def results_dir() -> Path:
    """The committed result tables of the long experiments.

    ``MLCBOOK_RESULTS_DIR`` when set (used by tests to stage a stale table); else, in the
    checkout, ``data/results/``; else (installed from the wheel) the copy the wheel carries
    (:func:`packaged_results`).
    """
    env = os.environ.get("MLCBOOK_RESULTS_DIR")
    if env:
        return Path(env)
    return data_dir() / "results" if in_checkout() else packaged_results()


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
