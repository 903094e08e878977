"""Getting a verified copy of a data file: cache, then mirror, then download.

Order of the sources for a file ``NAME`` with known sha256:

1. the cache: the library's data home (:func:`mlcbook.get_data_home`: ``$MLCBOOK_DATA``,
   else ``~/.cache/mlcbook``),
2. a local mirror folder, when ``MLCBOOK_DATA_MIRROR`` names one,
3. the book's data bundle, when installed: the wheel ``mlcbook_data`` offered on the
   book's page "Get the code", whose package holds every registered file
   (:func:`bundle_dir`),
4. a download from the dataset's public home (``urllib``), unless ``download=False`` or
   ``MLCBOOK_DATA_DOWNLOAD=0``.

Whatever the source, the bytes are written to a temporary file *inside the cache folder*,
hashed while written, and renamed to their final name only when the sha256 matches.  A
corrupt, truncated or interrupted transfer therefore never leaves a file that looks valid;
a cached file whose hash no longer matches is removed and fetched again.  The temporary
file has a unique name that names its owner (``mlcbook._io.owned_temporary``: host,
process id and start time) and is removed on every exit, error or interrupt; one left
behind by a killed process is swept at the next fetch, at once when its owner is seen
to be dead, never while it is alive (a file whose owner cannot be checked, e.g. written
from another host, after :data:`STALE_TMP_SECONDS` without a change).  A cache that
cannot be written (read-only, or a file where the folder should be) gives a
:class:`CacheError` naming the cache folder and how to choose another.  Nothing happens
at import time.
"""

from __future__ import annotations

import hashlib
import http.client
import importlib.util
import os
import re
import urllib.error
import urllib.request
from importlib import metadata, resources
from pathlib import Path
from typing import BinaryIO

from .. import _paths
from .._io import owned_temporary, remove_stale_temporaries
from .._validation import check_name

__all__ = [
    "cache_dir",
    "mirror_dir",
    "bundle_dir",
    "BUNDLE_PACKAGE",
    "fetch_file",
    "sha256_of",
    "DatasetError",
    "ChecksumError",
    "DataNotFoundError",
    "DownloadError",
    "CacheError",
    "STALE_TMP_SECONDS",
    "sweep_stale_temporaries",
    "cache_write_error",
]

_CHUNK = 1 << 20
#: A temporary file of the cache whose owner cannot be checked (another host, a name
#: without an owner) and that was not modified for this long belongs to a killed process
#: (a live transfer writes a chunk at least every few seconds) and is removed.  One whose
#: owner is known to be dead is removed at once (``mlcbook._io.owner_alive``).
STALE_TMP_SECONDS = 3600.0


class DatasetError(Exception):
    """Base class of the errors of :mod:`mlcbook.datasets`."""


class ChecksumError(DatasetError, ValueError):
    """A file's sha256 differs from the registered one (corrupt, truncated or another version)."""


class DataNotFoundError(DatasetError, FileNotFoundError):
    """No cache entry, no mirror copy, and downloading is not possible or not allowed."""


class DownloadError(DatasetError, OSError):
    """A download failed (network error, HTTP error, or fewer bytes than announced)."""


class CacheError(DatasetError, OSError):
    """The data cache cannot be written (read-only, full, or a file in the way)."""


def cache_write_error(exc: OSError, what: str) -> CacheError:
    """A :class:`CacheError` for a failed write, naming the user's cache folder."""
    folder = cache_dir()
    reason = exc.strerror or type(exc).__name__
    if folder.exists() and not folder.is_dir():
        reason = "the path exists but is a file, not a folder"
    return CacheError(
        f"cannot write {what} into the data cache {folder}: {reason}. Make that folder "
        "writable, or set the environment variable MLCBOOK_DATA to a writable "
        "folder."
    )


def sweep_stale_temporaries(folder: Path, max_age: float = STALE_TMP_SECONDS) -> list[Path]:
    """Remove the ``.*.tmp`` files of ``folder`` that killed processes left.

    ``mlcbook._io.remove_stale_temporaries`` on one folder (not its sub-folders): a
    file whose owning process is dead goes at once, one whose owner is alive stays, one
    whose owner cannot be checked goes after ``max_age`` seconds without a change.
    Returns the removed paths.
    """
    return remove_stale_temporaries(folder, older_than=max_age, recursive=False)


def cache_dir() -> Path:
    """The cache folder: the library's data home (:func:`mlcbook.get_data_home`)."""
    return _paths.get_data_home()


def mirror_dir() -> Path | None:
    """The local mirror of the dataset files: ``$MLCBOOK_DATA_MIRROR``, or none.

    An explicitly set ``MLCBOOK_DATA_MIRROR`` is returned even when it does not exist (the
    error then names it); unset or empty, there is no mirror.  The book's checkout points
    it at ``../shared/datasets`` when that folder is present.
    """
    env = os.environ.get("MLCBOOK_DATA_MIRROR")
    return Path(env) if env else None


#: the package of the book's data bundle (the wheel ``mlcbook_data-VERSION-py3-none-any.whl``)
BUNDLE_PACKAGE = "mlcbook_data"


def _bundle_hint() -> str:
    """What a reader with no network installs: the data bundle of this library's version."""
    try:
        release = metadata.version("mlcbook")
    except metadata.PackageNotFoundError:  # pragma: no cover - a copy without metadata
        release = "VERSION"
    return (
        "With no network, install the book's data bundle, the wheel "
        f'mlcbook_data-{release}-py3-none-any.whl from the book\'s page "Get the code" '
        "(pip install it beside the library), or set MLCBOOK_DATA_MIRROR to a folder "
        "holding the file."
    )


def bundle_dir() -> Path | None:
    """The dataset files of the book's data bundle when it is installed, else None.

    The bundle is a wheel (package :data:`BUNDLE_PACKAGE`) whose folder ``files`` holds
    every file the registry lists; it is found by name (``importlib.resources``), and
    every file read from it is checked against the registry's sha256 like any other.

    Examples
    --------
    >>> found = bundle_dir()
    >>> found is None or (found / "SHA256SUMS").is_file()
    True
    """
    if importlib.util.find_spec(BUNDLE_PACKAGE) is None:
        return None
    return Path(str(resources.files(BUNDLE_PACKAGE).joinpath("files")))


def _download_allowed(download: bool | None) -> bool:
    if download is not None:
        return bool(download)
    return os.environ.get("MLCBOOK_DATA_DOWNLOAD", "1").strip().lower() not in ("0", "no", "false")


def sha256_of(path: str | os.PathLike) -> str:
    """Hex sha256 of a file, read in chunks."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(_CHUNK), b""):
            h.update(chunk)
    return h.hexdigest()


def _copy_verified(
    src: BinaryIO, dest: Path, sha256: str, origin: str, expected_size: int | None = None
) -> Path:
    """Stream ``src`` into a temporary file next to ``dest``; rename only if the hash matches."""
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = owned_temporary(dest.parent, dest.name)
    except OSError as exc:
        raise cache_write_error(exc, dest.name) from exc
    try:
        h = hashlib.sha256()
        n = 0
        with os.fdopen(fd, "wb") as out:
            for chunk in iter(lambda: src.read(_CHUNK), b""):
                h.update(chunk)
                try:
                    out.write(chunk)
                except OSError as exc:  # disk full, quota: the cache's problem
                    raise cache_write_error(exc, dest.name) from exc
                n += len(chunk)
            try:  # a full disk often shows only when the buffers are written
                out.flush()
                os.fsync(out.fileno())
            except OSError as exc:
                raise cache_write_error(exc, dest.name) from exc
        if expected_size is not None and n != expected_size:
            raise DownloadError(
                f"truncated transfer of {dest.name} from {origin}: "
                f"got {n} of {expected_size} bytes"
            )
        got = h.hexdigest()
        if got != sha256:
            raise ChecksumError(
                f"checksum mismatch for {dest.name} from {origin}: expected sha256 {sha256}, "
                f"got {got} ({n} bytes). The file is corrupt, truncated or another version; "
                "it was not stored."
            )
        try:
            tmp.replace(dest)
        except OSError as exc:
            raise cache_write_error(exc, dest.name) from exc
        return dest
    finally:  # any exit, including KeyboardInterrupt: no temporary file stays
        try:
            tmp.unlink()
        except FileNotFoundError:
            pass


def fetch_file(
    filename: str,
    sha256: str,
    url: str | None = None,
    *,
    download: bool | None = None,
    timeout: float = 60.0,
) -> tuple[Path, str]:
    """Return a verified local copy of ``filename`` and where it came from.

    Parameters
    ----------
    filename : str
        File name (no folders), e.g. ``"birds.arff"``.
    sha256 : str
        Expected hex digest.
    url : str, optional
        Full download URL; without it no download is attempted.
    download : bool, optional
        Allow downloading; default from ``MLCBOOK_DATA_DOWNLOAD`` (allowed unless ``0``).
    timeout : float
        Network timeout in seconds.

    Returns
    -------
    path : Path
        The file in the cache.
    source : str
        ``"cache"``, ``"mirror:<path>"``, ``"bundle:mlcbook_data"`` or ``"download:<url>"``.

    Raises
    ------
    ChecksumError
        The mirror copy or the downloaded bytes do not have the expected sha256.
    DownloadError
        The download failed or was truncated.
    DataNotFoundError
        No cached copy, no mirror copy, and downloading impossible or not allowed.
    """
    check_name(filename, "filename")
    if not isinstance(sha256, str) or not re.fullmatch(r"[0-9a-f]{64}", sha256):
        raise ValueError(f"sha256 must be 64 lowercase hex digits, got {sha256!r}")
    if download is not None and not isinstance(download, bool):
        raise TypeError(f"download must be True, False or None, got {download!r}")
    if (
        isinstance(timeout, bool)
        or not isinstance(timeout, (int, float))
        or not (0 < timeout <= 3600)
    ):
        raise ValueError(f"timeout must be a number of seconds in (0, 3600], got {timeout!r}")
    dest = cache_dir() / filename
    sweep_stale_temporaries(dest.parent)
    if dest.is_file():
        if sha256_of(dest) == sha256:
            return dest, "cache"
        try:
            dest.unlink()  # stale or damaged cache entry: fetch again
        except OSError as exc:
            raise cache_write_error(exc, f"a new copy of {filename}") from exc
    mirror = mirror_dir()
    tried = []
    if mirror is not None:
        src = mirror / filename
        tried.append(f"mirror {mirror}" + ("" if mirror.is_dir() else " (folder does not exist)"))
        if src.is_file():
            with open(src, "rb") as f:
                _copy_verified(f, dest, sha256, origin=f"mirror {src}")
            return dest, f"mirror:{src}"
    else:
        tried.append("no mirror (MLCBOOK_DATA_MIRROR unset and ../shared/datasets absent)")
    bundle = bundle_dir()
    if bundle is not None:
        src = bundle / filename
        tried.append(f"the installed data bundle ({BUNDLE_PACKAGE})")
        if src.is_file():
            with open(src, "rb") as f:
                _copy_verified(f, dest, sha256, origin=f"the data bundle {BUNDLE_PACKAGE}")
            return dest, f"bundle:{BUNDLE_PACKAGE}"
    else:
        tried.append("no data bundle installed")
    if url and _download_allowed(download):
        try:
            req = urllib.request.Request(url, headers={"User-Agent": "mlcbook"})
            with urllib.request.urlopen(req, timeout=timeout) as resp:
                length = resp.headers.get("Content-Length")
                size = int(length) if length and length.isdigit() else None
                _copy_verified(resp, dest, sha256, origin=url, expected_size=size)
        except (urllib.error.URLError, OSError, http.client.HTTPException) as exc:
            if isinstance(exc, DatasetError):
                raise
            raise DownloadError(
                f"download of {filename} from {url} failed: {exc}. " + _bundle_hint()
            ) from exc
        return dest, f"download:{url}"
    if url:
        tried.append("download disabled (download=False or MLCBOOK_DATA_DOWNLOAD=0)")
    raise DataNotFoundError(
        f"{filename} is not in the cache {cache_dir()} and could not be obtained: "
        + "; ".join(tried)
        + ". "
        + _bundle_hint()
        + " Or allow downloading."
    )
