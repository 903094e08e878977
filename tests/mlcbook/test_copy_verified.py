"""mlcbook.datasets.copy_verified: the one verified, atomic copy (local file or download).

Every download here is served by an ``http.server`` on 127.0.0.1 in this process;
nothing touches the outside network.  The killed download is a real child process,
killed with SIGKILL (no handler, no ``finally`` runs) in the middle of its transfer.
"""

from __future__ import annotations

import hashlib
import http.server
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import mlcbook.datasets as ds
from mlcbook.datasets.fetch import CacheError, sweep_stale_temporaries

#: more than one read chunk of the copy (1 MiB), so that a stalled transfer has
#: written its first chunk into the temporary file before it waits
BODY = bytes(range(256)) * (6 * 1024)  # 1.5 MiB
SHA = hashlib.sha256(BODY).hexdigest()


class _Server:
    """An http.server on 127.0.0.1 serving :data:`BODY` at ``/body``: whole, or (while
    ``stall`` is set) its first 1.25 MiB and then nothing until the test ends."""

    def __init__(self) -> None:
        self.stall = threading.Event()
        self.release = threading.Event()
        self.requests = 0
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802
                outer.requests += 1
                if self.path != "/body":
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("Content-Length", str(len(BODY)))
                self.end_headers()
                if outer.stall.is_set():
                    self.wfile.write(BODY[: 5 * len(BODY) // 6])
                    self.wfile.flush()
                    outer.release.wait(120)
                    return
                self.wfile.write(BODY)

            def log_message(self, *a: object) -> None:
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/body"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> _Server:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release.set()
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(5)


@pytest.fixture
def server():
    with _Server() as s:
        yield s


@pytest.fixture(autouse=True)
def _downloads_allowed(monkeypatch):
    monkeypatch.delenv("MLCBOOK_DATA_DOWNLOAD", raising=False)


def _listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_a_local_copy_is_verified_and_a_wrong_one_not_stored(tmp_path):
    src = tmp_path / "src.bin"
    src.write_bytes(BODY)
    dest = tmp_path / "out" / "copy.bin"
    assert ds.copy_verified(src, dest, SHA) == dest
    assert hashlib.sha256(dest.read_bytes()).hexdigest() == SHA  # by an independent hash
    other = tmp_path / "out" / "other.bin"
    with pytest.raises(ds.ChecksumError, match="other.bin from the test's copy: expected"):
        ds.copy_verified(src, other, "0" * 64, origin="the test's copy")
    assert _listing(tmp_path / "out") == ["copy.bin"]  # no temporary, no other.bin


def test_a_verified_destination_is_returned_without_reading_the_source(tmp_path):
    dest = tmp_path / "copy.bin"
    dest.write_bytes(BODY)
    assert ds.copy_verified(tmp_path / "no such file", dest, SHA) == dest
    with pytest.raises(ds.DataNotFoundError, match="no such file"):
        ds.copy_verified(tmp_path / "no such file", tmp_path / "x.bin", SHA)


def test_a_wrong_destination_is_replaced_only_by_verified_bytes(tmp_path, server):
    dest = tmp_path / "copy.bin"
    dest.write_bytes(b"damaged")
    assert ds.copy_verified(server.url, dest, SHA).read_bytes() == BODY
    assert _listing(tmp_path) == ["copy.bin"]


def test_a_download_is_verified(tmp_path, server):
    dest = tmp_path / "copy.bin"
    with pytest.raises(ds.ChecksumError):
        ds.copy_verified(server.url, dest, "f" * 64)
    assert _listing(tmp_path) == []
    assert ds.copy_verified(server.url, dest, SHA).read_bytes() == BODY
    with pytest.raises(ds.DownloadError, match="404"):
        ds.copy_verified(server.url + "-missing", tmp_path / "y.bin", SHA)
    with pytest.raises(ds.DataNotFoundError, match="downloading is not allowed"):
        ds.copy_verified(server.url, tmp_path / "z.bin", SHA, download=False)
    assert _listing(tmp_path) == ["copy.bin"]


@pytest.mark.parametrize(
    "kwargs, error, words",
    [
        ({"source": 3}, TypeError, "source must be an http(s) URL or the path"),
        ({"source": ""}, TypeError, "source must be"),
        ({"dest": None}, TypeError, "dest must be the path"),
        ({"sha256": "ABC"}, ValueError, "sha256 must be 64 lowercase hex digits"),
        ({"download": "yes"}, TypeError, "download must be True or False"),
        ({"timeout": 0}, ValueError, "timeout"),
        ({"timeout": True}, TypeError, "timeout"),
        ({"origin": ""}, TypeError, "origin must be a non-empty str or None"),
    ],
)
def test_bad_arguments_are_named(tmp_path, kwargs, error, words):
    args = {"source": tmp_path / "a", "dest": tmp_path / "b", "sha256": SHA, **kwargs}
    with pytest.raises(error, match=words.replace("(", r"\(").replace(")", r"\)")):
        ds.copy_verified(**args)
    assert _listing(tmp_path) == []


_CHILD = (
    "import sys\n"
    "from mlcbook.datasets import copy_verified\n"
    "copy_verified(sys.argv[1], sys.argv[2], sys.argv[3], download=True, timeout=120)\n"
)


def _wait_for_chunk(folder: Path, proc: subprocess.Popen) -> Path:
    """The child's temporary file, once it holds the first chunk (1 MiB)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert proc.poll() is None, "the downloading child ended before it was killed"
        found = [p for p in folder.glob(".copy.bin.*.tmp") if p.stat().st_size >= 1 << 20]
        if found:
            return found[0]
        time.sleep(0.05)
    raise AssertionError("the child wrote no chunk within 60 s")


def test_a_download_killed_mid_way_leaves_nothing_after_the_next_call(tmp_path, server):
    server.stall.set()
    dest = tmp_path / "copy.bin"
    proc = subprocess.Popen([sys.executable, "-c", _CHILD, server.url, str(dest), SHA])
    try:
        left = _wait_for_chunk(tmp_path, proc)
    finally:
        proc.kill()  # SIGKILL: the child's finally does not run
        proc.wait(60)
    assert left.exists() and not dest.exists()  # the kill left half a file, under a tmp name
    assert f"-{proc.pid}-" in left.name  # the temporary names its owner
    server.stall.clear()
    assert ds.copy_verified(server.url, dest, SHA).read_bytes() == BODY
    assert _listing(tmp_path) == ["copy.bin"]  # the dead owner's file went at once


def test_a_live_download_is_not_swept(tmp_path, server):
    server.stall.set()
    dest = tmp_path / "copy.bin"
    proc = subprocess.Popen([sys.executable, "-c", _CHILD, server.url, str(dest), SHA])
    try:
        live = _wait_for_chunk(tmp_path, proc)
        old = time.time() - 10 * 3600
        os.utime(live, (old, old))  # stalled for ten hours, still alive: kept
        assert sweep_stale_temporaries(tmp_path) == [] and live.exists()
    finally:
        proc.kill()
        proc.wait(60)


def test_a_destination_that_cannot_be_written_is_a_cache_error(tmp_path):
    src = tmp_path / "src.bin"
    src.write_bytes(BODY)
    blocker = tmp_path / "file"
    blocker.write_bytes(b"")
    with pytest.raises(CacheError, match="MLCBOOK_DATA"):
        ds.copy_verified(src, blocker / "copy.bin", SHA)
