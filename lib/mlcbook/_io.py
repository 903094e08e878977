"""Atomic file writes: a reader sees the old file or the new one, never half of one.

Every file the library writes (result tables, provenance, cache entries, ledgers)
goes through :func:`atomic_write`: the content is written to a uniquely named
temporary file in the target folder (so two processes never share one), then
renamed over the target with :func:`os.replace`, which is atomic on POSIX and
Windows.  On any error the temporary file is removed and the target is left as
it was.

A process killed between creating its temporary file and renaming it (``SIGKILL``,
a power cut) cannot remove it.  So every temporary file names its owner:
``.NAME.<host>-<pid>-<start>.<random>.tmp`` (``owned_temporary``), with a hash of
the host name, the writing process's id and, where the system tells it
(``/proc``), the process's start time, which tells a reused process id from the
original writer.  :func:`remove_stale_temporaries` removes a temporary file of this
host whose owner is dead at once, never one whose owner is alive, and one whose
owner it cannot check (another host sharing the folder, a name without an owner, a
system without ``/proc`` or ``kill(pid, 0)``) only once it has not been modified for
an hour.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import socket
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:  # pandas is imported lazily: only the CSV reader needs it
    import pandas as pd

__all__ = [
    "atomic_write",
    "atomic_write_text",
    "owned_temporary",
    "owner_alive",
    "read_csv_exact",
    "remove_stale_temporaries",
]

#: the owner part of a temporary file's name: host hash, process id, start time
_OWNER = re.compile(r"\.(?P<host>[0-9a-f]{8})-(?P<pid>[0-9]{1,10})-(?P<start>[0-9]*)\.[^.]+\.tmp$")


def _host() -> str:
    """Eight hex digits of the host name's sha256 (the same for every process here)."""
    return hashlib.sha256(socket.gethostname().encode("utf-8", "replace")).hexdigest()[:8]


def _proc_stat(pid: int) -> tuple[str, str] | None:
    """``(state, start time)`` of process ``pid`` from ``/proc``, or None (no such
    process, or no ``/proc`` on this system)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
    except OSError:
        return None
    fields = text.rsplit(")", 1)[-1].split()  # after the command name, which may hold ')'
    if len(fields) < 20:
        return None
    return fields[0], fields[19]  # field 3 (state) and field 22 (start time, in ticks)


def _owner_tag() -> str:
    """``<host>-<pid>-<start>`` of the calling process (start empty without ``/proc``)."""
    pid = os.getpid()
    stat = _proc_stat(pid)
    return f"{_host()}-{pid}-{stat[1] if stat else ''}"


def owned_temporary(folder: str | Path, name: str) -> tuple[int, Path]:
    """Create ``folder/.NAME.<owner>.<random>.tmp`` for writing; return ``(fd, path)``.

    The name says which process of which host owns the file (see the module
    docstring), so that :func:`remove_stale_temporaries` can remove it at once when
    that process is dead.  Raises what :func:`tempfile.mkstemp` raises.
    """
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{name}.{_owner_tag()}.", suffix=".tmp")
    return fd, Path(tmp)


def owner_alive(path: str | Path) -> bool | None:
    """Whether the process that created the temporary file ``path`` is alive.

    Returns
    -------
    bool or None
        True (alive, or the process id exists and cannot be told apart from the
        owner), False (no such process, a zombie, or the process id now belongs to a
        process started later), None (the name names no owner, the owner is on
        another host, or this system cannot tell).
    """
    m = _OWNER.search(Path(path).name)
    if m is None or m["host"] != _host() or os.name != "posix":
        return None
    pid, start = int(m["pid"]), m["start"]
    if not 0 < pid < 2**31:  # not a process id (pid_t is a 32-bit signed integer)
        return None
    try:
        os.kill(pid, 0)  # signal 0: an existence check, nothing is sent
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # it exists, as another user's process
    except OSError:
        return None
    stat = _proc_stat(pid)
    if stat is not None:
        state, started = stat
        if state == "Z" or (start and started != start):
            return False  # a zombie writes nothing; a later process reuses the id
    return True


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
        fd, tmp = owned_temporary(path.parent, path.name)
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
    """Remove the temporary files (``.NAME.*.tmp``) under ``folder`` that a killed
    process left behind.

    A file whose owner (``owned_temporary``) is dead is removed at once; one
    whose owner is alive is kept, however old; one whose owner cannot be checked
    (``owner_alive`` is None: another host, a name without an owner) is removed
    when it was not modified for ``older_than`` seconds (a live writer renames it, or
    at least writes to it, within that time).

    The one sweep of the library: the runner's result cache, the committed tables and
    ledgers, the dataset cache (:func:`mlcbook.datasets.fetch.fetch_file`, the parsed
    arrays) and the reference material's downloads call it before writing.

    Parameters
    ----------
    folder : str or Path
        Where to look; a missing folder holds nothing.
    older_than : float
        Age in seconds (from the last modification) beyond which a file whose owner
        cannot be checked is stale.
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
    >>> fd, mine = owned_temporary(d, "u.csv")  # owned by this process, which is alive
    >>> os.close(fd)
    >>> [p.name for p in remove_stale_temporaries(d)], mine.exists()
    (['.t.csv.killed.tmp'], True)
    """
    folder = Path(folder)
    if not folder.is_dir():
        return []
    cutoff = time.time() - older_than
    removed: list[Path] = []
    for p in folder.rglob(".*.tmp") if recursive else folder.glob(".*.tmp"):
        with contextlib.suppress(OSError):
            if not p.is_file():
                continue
            alive = owner_alive(p)
            if alive is False or (alive is None and p.stat().st_mtime < cutoff):
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
