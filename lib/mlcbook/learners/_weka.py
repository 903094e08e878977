"""The bridge to Weka: one Java process serving many J48 fits.

Weka's jar comes from Debian's ``weka`` package (3.6.14), which ``make weka``
downloads with ``apt-get download``, checks against a sha256 and unpacks into
the git-ignored folder ``.weka/`` of the book's checkout; ``MLCBOOK_WEKA_JAR``
names the jar (else it is looked for under ``weka/`` of the data home,
:func:`mlcbook.get_data_home`).  The small driver ``java/J48Server.java`` is
compiled with ``javac`` against that jar on first use (into ``weka/driver/`` of
the data home, one folder per sha256 of source and jar path) and started once
per Python process; requests go through its stdin/stdout in a
binary protocol described at the top of the Java file.  A fitted model travels
back as Java-serialised bytes, so an estimator pickled into another process
(joblib) re-loads it there.

A feature matrix crosses the pipe once: the server keeps it under an id, which
this process finds again by the sha256 of the matrix and its attribute kinds, so
the many fits and predictions of one matrix (MEKA's BR, CC's first link, LC, every
member of RAkEL) send only their class column.  A fit repeated with the same
options, matrix and class column (RAkEL draws some label subsets twice) returns the
model of the first: J48 is deterministic, so it is the same model.
"""

from __future__ import annotations

import atexit
import hashlib
import os
import shutil
import struct
import subprocess
import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path

import numpy as np

from .._paths import get_data_home

__all__ = [
    "JAR_SHA256",
    "WekaError",
    "WekaNotFoundError",
    "server",
    "server_cpu_seconds",
    "weka_jar",
]

_SOURCE = Path(__file__).with_name("java") / "J48Server.java"
#: sha256 of the jar in Debian's weka_3.6.14-3_all.deb (checked by make weka)
JAR_SHA256 = "fcdc5315cb9054b396d2e1bac7e007800b01b3d2221cca6afb065f6821e60b42"


class WekaNotFoundError(RuntimeError):
    """Java, javac or Weka's jar is missing: run ``make weka``."""


def _weka_dir() -> Path:
    return get_data_home() / "weka"


def weka_jar() -> Path:
    """The Weka jar: ``MLCBOOK_WEKA_JAR``, else the one ``make weka`` unpacked."""
    env = os.environ.get("MLCBOOK_WEKA_JAR")
    jar = Path(env) if env else _weka_dir() / "usr/share/java/weka-3.6.14.jar"
    if not jar.is_file():
        raise WekaNotFoundError(
            f"Weka's jar was not found at {jar}: set MLCBOOK_WEKA_JAR to a weka.jar "
            "(Debian's weka 3.6.14 package ships one; in the book's checkout `make weka` "
            "unpacks it into .weka/)"
        )
    return jar


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise WekaNotFoundError(
            f"`{name}` was not found on PATH: J48 runs in Java; install a JDK "
            "(Debian: default-jdk-headless) and run `make weka`"
        )
    return path


def _driver(jar: Path) -> Path:
    """The compiled driver's class folder, compiling it when absent."""
    src = _SOURCE.read_bytes()
    key = hashlib.sha256(src + str(jar).encode()).hexdigest()[:16]
    out = _weka_dir() / "driver" / key
    if (out / "J48Server.class").is_file():
        return out
    tmp = out.with_name(f"{key}.tmp{os.getpid()}")
    tmp.mkdir(parents=True, exist_ok=True)
    res = subprocess.run(
        [
            _tool("javac"),
            "-nowarn",
            "-encoding",
            "UTF-8",
            "-cp",
            str(jar),
            "-d",
            str(tmp),
            str(_SOURCE),
        ],
        check=False,
        capture_output=True,
        text=True,
    )
    if res.returncode != 0:
        shutil.rmtree(tmp, ignore_errors=True)
        raise WekaNotFoundError(f"javac could not compile {_SOURCE.name}: {res.stderr[-2000:]}")
    try:
        tmp.replace(out)
    except OSError:  # another process compiled it first
        shutil.rmtree(tmp, ignore_errors=True)
    return out


class WekaError(RuntimeError):
    """Weka refused a request (the Java exception's text)."""


#: Matrices and fits this process remembers per server (most recently used kept).
_MAX_DATA_KEYS = 64
_MAX_FITS = 64


def _remember(cache: OrderedDict, key: bytes, value, limit: int) -> None:
    cache[key] = value
    cache.move_to_end(key)
    while len(cache) > limit:
        cache.popitem(last=False)


class _Server:
    """One running ``J48Server``; requests are serialised by a lock."""

    def __init__(self) -> None:
        jar = weka_jar()
        java = _tool("java")
        classes = _driver(jar)
        self.proc = subprocess.Popen(
            [java, "-Xss16m", "-cp", f"{classes}{os.pathsep}{jar}", "J48Server"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.lock = threading.Lock()
        self.token = f"{os.getpid()}:{id(self)}"
        #: sha256 of (attribute kinds, matrix) -> the server's data id
        self._data: OrderedDict[bytes, int] = OrderedDict()
        #: sha256 of (options, data, classes, y) -> (model id, model bytes)
        self._fits: OrderedDict[bytes, tuple[int, bytes]] = OrderedDict()

    # -- low-level I/O
    def _send(self, *chunks: bytes) -> None:
        assert self.proc.stdin is not None
        for c in chunks:
            self.proc.stdin.write(c)
        self.proc.stdin.flush()

    def _read(self, n: int) -> bytes:
        assert self.proc.stdout is not None
        buf = self.proc.stdout.read(n)
        if buf is None or len(buf) != n:
            raise WekaError(f"the Java process ended unexpectedly (exit {self.proc.poll()})")
        return buf

    def _int(self) -> int:
        return struct.unpack(">i", self._read(4))[0]

    def _status(self) -> int:
        status = self._int()
        if status == 1:
            n = struct.unpack(">H", self._read(2))[0]
            raise WekaError(self._read(n).decode("utf-8", "replace"))
        return status

    @staticmethod
    def _utf(s: str) -> bytes:
        b = s.encode("utf-8")
        return struct.pack(">H", len(b)) + b

    @staticmethod
    def _data_key(X: np.ndarray, kinds: np.ndarray) -> bytes:
        h = hashlib.sha256(struct.pack(">qq", *X.shape))
        h.update(np.ascontiguousarray(kinds, np.int64).data)
        h.update(np.ascontiguousarray(X, np.float64).data)
        return h.digest()

    def _data_id(self, key: bytes, X: np.ndarray, kinds: np.ndarray, check) -> int:
        """The server's id of ``X`` (held under ``key``), sent and ``check``-ed first
        when the server does not hold it (call with the lock held)."""
        known = self._data.get(key)
        if known is not None:
            self._data.move_to_end(key)
            return known
        if check is not None:
            check(X)
        n, d = X.shape
        self._send(
            b"D",
            struct.pack(f">i{d}ii", d, *map(int, kinds), n),
            np.ascontiguousarray(X, ">f8").tobytes(),
        )
        self._status()
        data_id = self._int()
        _remember(self._data, key, data_id, _MAX_DATA_KEYS)
        return data_id

    # -- commands
    def fit(
        self,
        options: str,
        X: np.ndarray,
        y: np.ndarray,
        nominal: np.ndarray,
        n_classes: int,
        check: Callable[[np.ndarray], None] | None = None,
    ) -> tuple[int, bytes]:
        """Fit J48 on ``X``, ``y``: ``(model id, model bytes)``.

        ``check(X)`` runs before ``X`` is first sent (a matrix the server holds was
        checked when it was sent).
        """
        n = X.shape[0]
        codes = np.ascontiguousarray(y, ">i4")
        if codes.shape != (n,):
            raise ValueError(f"y must have {n} entries, got shape {codes.shape}")
        key = self._data_key(X, nominal)
        fit_key = hashlib.sha256(
            self._utf(options) + key + struct.pack(">i", int(n_classes)) + codes.tobytes()
        ).digest()
        with self.lock:
            done = self._fits.get(fit_key)
            if done is not None:
                self._fits.move_to_end(fit_key)
                return done
            for _ in range(2):
                data_id = self._data_id(key, X, nominal, check)
                self._send(
                    b"F",
                    self._utf(options),
                    struct.pack(">iii", data_id, int(n_classes), n),
                    codes.tobytes(),
                )
                if self._status() == 3:  # the server dropped the matrix: send it again
                    self._data.pop(key, None)
                    continue
                model_id = self._int()
                done = model_id, self._read(self._int())
                _remember(self._fits, fit_key, done, _MAX_FITS)
                return done
        raise WekaError("the Java process dropped the data twice")  # pragma: no cover

    def load(self, model: bytes) -> int:
        with self.lock:
            self._send(b"L", struct.pack(">i", len(model)), model)
            self._status()
            return self._int()

    def predict(
        self,
        model_id: int,
        X: np.ndarray,
        nominal: np.ndarray,
        check: Callable[[np.ndarray], None] | None = None,
    ) -> tuple[np.ndarray, np.ndarray] | None:
        """``(distributions, classes)`` of model ``model_id`` on ``X``; None when the
        server does not hold the model (``check`` as in :meth:`fit`)."""
        n = X.shape[0]
        key = self._data_key(X, nominal)
        with self.lock:
            for _ in range(2):
                data_id = self._data_id(key, X, nominal, check)
                self._send(b"P", struct.pack(">ii", model_id, data_id))
                status = self._status()
                if status == 3:
                    self._data.pop(key, None)
                    continue
                if status == 2:
                    return None
                k = self._int()
                dist = np.frombuffer(self._read(8 * n * k), ">f8").astype(np.float64)
                cls = np.frombuffer(self._read(4 * n), ">i4").astype(np.intp)
                return dist.reshape(n, k), cls
        raise WekaError("the Java process dropped the data twice")  # pragma: no cover

    def tree(self, model_id: int) -> str | None:
        with self.lock:
            self._send(b"T", struct.pack(">i", model_id))
            if self._status() == 2:
                return None
            return self._read(self._int()).decode("utf-8")

    def hashmap_order(self, label_sets: list[list[int]]) -> list[int]:
        """Iteration order of ``java.util.HashMap`` keyed by the label sets."""
        chunks = [struct.pack(">i", len(label_sets))]
        chunks += [struct.pack(f">i{len(s)}i", len(s), *s) for s in label_sets]
        with self.lock:
            self._send(b"H", *chunks)
            self._status()
            m = self._int()
            return list(struct.unpack(f">{m}i", self._read(4 * m)))

    def java_random(self, seed: int, bounds: list[int]) -> list[int]:
        """``new java.util.Random(seed).nextInt(b)`` for each ``b`` of ``bounds``."""
        n = len(bounds)
        with self.lock:
            self._send(b"R", struct.pack(f">qi{n}i", seed, n, *bounds))
            self._status()
            return list(struct.unpack(f">{n}i", self._read(4 * n)))

    def cpu_seconds(self) -> float:
        """User + system CPU time of the Java process so far (Linux ``/proc``)."""
        try:
            stat = Path(f"/proc/{self.proc.pid}/stat").read_text()
            fields = stat.rsplit(")", 1)[1].split()
        except OSError:  # pragma: no cover - not Linux
            return float("nan")
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self._send(b"Q")
                self.proc.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()


_SERVER: _Server | None = None
_SERVER_LOCK = threading.Lock()


def server_cpu_seconds() -> float:
    """CPU seconds (user + system) the running J48 server of this process has used so far.

    ``0.0`` when no server runs: a cell that times itself adds this to its own CPU time,
    since the JVM is a long-lived helper process that no ``getrusage`` of a finished
    child counts.
    """
    srv = _SERVER
    return srv.cpu_seconds() if srv is not None and srv.proc.poll() is None else 0.0


def server() -> _Server:
    """The process's J48 server, started on first use (after a fork: a new one)."""
    global _SERVER
    with _SERVER_LOCK:
        if (
            _SERVER is None
            or _SERVER.proc.poll() is not None
            or not _SERVER.token.startswith(f"{os.getpid()}:")
        ):
            _SERVER = _Server()
            atexit.register(_SERVER.close)
        return _SERVER
