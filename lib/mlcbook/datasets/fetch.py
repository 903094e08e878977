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
from collections.abc import Callable
from importlib import metadata, resources
from pathlib import Path
from typing import Any, BinaryIO

from .. import _paths
from .._io import owned_temporary, remove_stale_temporaries
from .._validation import Flag, Real, check_name, validate_params

__all__ = [
    "cache_dir",
    "mirror_dir",
    "bundle_dir",
    "BUNDLE_PACKAGE",
    "fetch_file",
    "copy_verified",
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


def _sha256_arg(value: object, name: str) -> str:
    if not isinstance(value, str) or not re.fullmatch(r"[0-9a-f]{64}", value):
        raise ValueError(f"{name} must be 64 lowercase hex digits, got {value!r}")
    return value


def _source_arg(value: object, name: str) -> str | Path:
    if isinstance(value, str) and value.startswith(("http://", "https://")):
        return value
    if isinstance(value, (str, os.PathLike)) and str(value):
        return Path(value)
    raise TypeError(f"{name} must be an http(s) URL or the path of a local file, got {value!r}")


def _dest_arg(value: object, name: str) -> Path:
    if not isinstance(value, (str, os.PathLike)) or not str(value):
        raise TypeError(f"{name} must be the path of the file to write, got {value!r}")
    path = Path(value)
    check_name(path.name, f"{name}'s file name")
    return path


_VALIDATED: dict[str, Callable[[Any, str], Any]] = {
    "sha256": _sha256_arg,
    "download": Flag(allow_none=True),
    "timeout": Real(low=0, high=3600, low_inclusive=False),
}


def _origin_arg(value: object, name: str) -> str | None:
    if value is not None and not (isinstance(value, str) and value):
        raise TypeError(f"{name} must be a non-empty str or None, got {value!r}")
    return value


@validate_params(source=_source_arg, dest=_dest_arg, origin=_origin_arg, **_VALIDATED)
def copy_verified(
    source: str | os.PathLike,
    dest: str | os.PathLike,
    sha256: str,
    *,
    download: bool | None = None,
    timeout: float = 60.0,
    origin: str | None = None,
) -> Path:
    """A copy of ``source`` at ``dest`` whose sha256 is verified, written atomically.

    ``dest`` already holding bytes of that sha256 is returned as it is.  Otherwise the
    bytes of ``source`` (a local file, or an ``http(s)`` URL downloaded with ``urllib``)
    are streamed into a temporary file beside ``dest`` (``.NAME.<owner>.<random>.tmp``,
    naming its host and process), hashed while written, and renamed to ``dest`` only
    when the sha256 (and, for a download, the announced length) matches; on any error
    or interrupt the temporary file is removed, so ``dest`` is either absent, as it was,
    or complete.  A process killed mid-way (no handler runs) leaves its temporary file;
    the next call on the same folder removes it at once, its owner being dead
    (:func:`sweep_stale_temporaries`), and starts the copy again.

    Parameters
    ----------
    source : str or path-like
        An ``http://`` or ``https://`` URL, or the path of a local file.
    dest : str or path-like
        The file to write (its folder is created).
    sha256 : str
        The expected hex digest (64 lowercase hex digits).
    download : bool, optional
        Allow downloading a URL; default from ``MLCBOOK_DATA_DOWNLOAD`` (allowed unless
        ``0``).  A local ``source`` is always read.
    timeout : float
        Network timeout in seconds, in (0, 3600].
    origin : str, optional
        How the error messages name the source (e.g. ``"the data bundle"``); default
        the source itself.

    Returns
    -------
    Path
        ``dest``.

    Raises
    ------
    ChecksumError
        The bytes do not have the expected sha256 (nothing is stored).
    DownloadError
        The download failed or was truncated (nothing is stored).
    DataNotFoundError
        The local ``source`` does not exist, or downloading is not allowed.
    CacheError
        ``dest`` cannot be written.

    Examples
    --------
    >>> import hashlib, pathlib, tempfile
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "a.txt").write_bytes(b"some bytes")
    >>> digest = hashlib.sha256(b"some bytes").hexdigest()
    >>> copy_verified(d / "a.txt", d / "copy" / "b.txt", digest).read_bytes()
    b'some bytes'
    >>> copy_verified(d / "a.txt", d / "c.txt", "0" * 64)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mlcbook.datasets.fetch.ChecksumError: checksum mismatch for c.txt ...
    >>> sorted(p.name for p in d.rglob("*"))  # nothing half-written
    ['a.txt', 'b.txt', 'copy']
    """
    dest = Path(dest)  # validated: a URL (str) or a Path
    sweep_stale_temporaries(dest.parent)
    if dest.is_file() and sha256_of(dest) == sha256:
        return dest
    if not isinstance(source, str):
        try:
            f = open(source, "rb")
        except FileNotFoundError as exc:
            raise DataNotFoundError(f"{source} does not exist; {dest.name} needs it") from exc
        with f:
            return _copy_verified(f, dest, sha256, origin=origin or str(source))
    if not _download_allowed(download):
        raise DataNotFoundError(
            f"{dest.name} is not at {dest}, and downloading is not allowed (download=False "
            "or MLCBOOK_DATA_DOWNLOAD=0)"
        )
    try:
        req = urllib.request.Request(source, headers={"User-Agent": "mlcbook"})
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            length = resp.headers.get("Content-Length")
            size = int(length) if length and length.isdigit() else None
            return _copy_verified(resp, dest, sha256, origin=origin or source, expected_size=size)
    except (urllib.error.URLError, OSError, http.client.HTTPException) as exc:
        if isinstance(exc, DatasetError):
            raise
        raise DownloadError(f"download of {dest.name} from {source} failed: {exc}") from exc


@validate_params(**_VALIDATED)
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
    dest = cache_dir() / filename
    sweep_stale_temporaries(dest.parent)
    if dest.is_file():
        if sha256_of(dest) == sha256:
            return dest, "cache"
        try:
            dest.unlink()  # stale or damaged cache entry: fetch again
        except OSError as exc:
            raise cache_write_error(exc, f"a new copy of {filename}") from exc
    mirror, bundle = mirror_dir(), bundle_dir()
    tried = [
        "no mirror (MLCBOOK_DATA_MIRROR unset and ../shared/datasets absent)"
        if mirror is None
        else f"mirror {mirror}" + ("" if mirror.is_dir() else " (folder does not exist)"),
        "no data bundle installed"
        if bundle is None
        else f"the installed data bundle ({BUNDLE_PACKAGE})",
    ]
    if mirror is not None and (mirror / filename).is_file():
        src = mirror / filename
        return copy_verified(src, dest, sha256, origin=f"mirror {src}"), f"mirror:{src}"
    if bundle is not None and (bundle / filename).is_file():
        origin = f"the data bundle {BUNDLE_PACKAGE}"
        copy_verified(bundle / filename, dest, sha256, origin=origin)
        return dest, f"bundle:{BUNDLE_PACKAGE}"
    if url and _download_allowed(download):
        try:
            copy_verified(url, dest, sha256, download=True, timeout=timeout)
        except DownloadError as exc:
            raise DownloadError(f"{exc}. {_bundle_hint()}") from exc
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
