"""Where the library keeps its files: one per-user data home.

The library writes only into its data home — downloaded and parsed datasets, the
authors' released files, tool jars — never beside its own installed code.  Like
scikit-learn's :func:`sklearn.datasets.get_data_home`, the folder is
``$MLCBOOK_DATA`` when set, else a per-user cache folder
(``$XDG_CACHE_HOME/mlcbook``, by default ``~/.cache/mlcbook``).

Examples
--------
>>> import os
>>> from mlcbook import get_data_home
>>> os.environ["MLCBOOK_DATA"] = "/tmp/mlcbook-example"
>>> str(get_data_home())
'/tmp/mlcbook-example'
>>> del os.environ["MLCBOOK_DATA"]
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["get_data_home"]


def get_data_home() -> Path:
    """The library's data folder: ``$MLCBOOK_DATA``, else ``$XDG_CACHE_HOME/mlcbook``.

    ``$XDG_CACHE_HOME`` defaults to ``~/.cache``.  The folder is not created here; the
    first write creates it.

    Returns
    -------
    Path
    """
    env = os.environ.get("MLCBOOK_DATA")
    if env:
        return Path(env).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "mlcbook"
