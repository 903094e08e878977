"""Atomic file writes: a reader sees the old file or the new one, never half of one.

Every file the library writes (result tables, provenance, cache entries, ledgers)
goes through :func:`atomic_write`: the content is written to a uniquely named
temporary file in the target folder (so two processes never share one), then
renamed over the target with :func:`os.replace`, which is atomic on POSIX and
Windows.  On any error the temporary file is removed and the target is left as
it was.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:  # pandas is imported lazily: only the CSV reader needs it
    import pandas as pd

__all__ = ["atomic_write", "atomic_write_text", "read_csv_exact", "remove_stale_temporaries"]


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def atomic_write(path: str | Path, mode: str = "w", **open_kwargs: Any) -> Iterator[IO[Any]]:
    """Open a temporary file beside ``path``; on success it replaces ``path``.

    Parameters
    ----------
    path : str or Path
        The file to write.  Its folder is created if missing.
    mode : {"w", "wb"}
        Text or binary.
    **open_kwargs
        Passed to :func:`open` (e.g. ``encoding``, ``newline``).

    Raises
    ------
    OSError
        With the original errno and reason, naming the target rather than the temporary
        file, when the folder cannot be created or written.
    """
    if mode not in ("w", "wb"):
        raise ValueError(f"mode must be 'w' or 'wb', got {mode!r}")
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as err:  # same errno and reason; names the target, not the temp file
        raise OSError(
            err.errno,
            f"{err.strerror or err} (cannot write {path}: its folder must be a writable "
            "directory)",
        ) from err
    try:
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; give the usual permissions
        if "b" not in mode:
            open_kwargs.setdefault("encoding", "utf-8")
        with os.fdopen(fd, mode, **open_kwargs) as fh:
            yield fh
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def remove_stale_temporaries(
    folder: str | Path, *, older_than: float = 3600.0, recursive: bool = True
) -> list[Path]:
    """Remove the temporary files of :func:`atomic_write` (``.NAME.*.tmp``) under
    ``folder`` that were not modified for ``older_than`` seconds: left by a process
    that was killed between creating and renaming them (a live writer renames them,
    or at least writes to them, within that time).

    The one sweep of the library: the runner's result cache, the dataset cache
    (:func:`mlcbook.datasets.fetch.fetch_file`, the parsed arrays) and the reference
    material's downloads call it before writing.

    Parameters
    ----------
    folder : str or Path
        Where to look; a missing folder holds nothing.
    older_than : float
        Age in seconds (from the last modification) beyond which a file is stale.
    recursive : bool
        Also look in sub-folders.

    Returns
    -------
    list of Path
        The removed files.  Files that cannot be removed (gone meanwhile, or someone
        else's) are left, silently.

    Examples
    --------
    >>> import os, tempfile, time
    >>> d = Path(tempfile.mkdtemp())
    >>> _ = (d / ".t.csv.killed.tmp").write_text("half"), (d / ".t.csv.live.tmp").write_text("")
    >>> os.utime(d / ".t.csv.killed.tmp", (time.time() - 7200,) * 2)
    >>> [p.name for p in remove_stale_temporaries(d)], sorted(p.name for p in d.iterdir())
    (['.t.csv.killed.tmp'], ['.t.csv.live.tmp'])
    """
    folder = Path(folder)
    if not folder.is_dir():
        return []
    cutoff = time.time() - older_than
    removed: list[Path] = []
    for p in folder.rglob(".*.tmp") if recursive else folder.glob(".*.tmp"):
        with contextlib.suppress(OSError):
            if p.is_file() and p.stat().st_mtime < cutoff:
                p.unlink()
                removed.append(p)
    return removed


def atomic_write_text(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (UTF-8)."""
    with atomic_write(path, "w") as fh:
        fh.write(text)


def _exact_floats() -> dict:
    """``read_csv`` keywords that parse every float to the nearest double.

    pandas < 3.1 needs ``float_precision="round_trip"`` for that; from 3.1 on every
    mode uses the exact converter and the argument is deprecated.
    """
    import pandas as pd

    major, minor = (int(p) for p in pd.__version__.split(".")[:2])
    return {} if (major, minor) >= (3, 1) else {"float_precision": "round_trip"}


def read_csv_exact(source: Any, **kwargs: Any) -> pd.DataFrame:
    """``pandas.read_csv`` with exact float parsing (the written 17 digits round-trip)."""
    import pandas as pd

    return pd.read_csv(source, **_exact_floats(), **kwargs)
