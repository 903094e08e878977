"""Bad input, by class (issue 16): one section per class of defect, each with property
tests (hypothesis) so that the class cannot come back.

1. sparse matrices canonicalised before the 0/1 check; empty sparse shapes checked
2. numeric parameters: range and finiteness; flags are real booleans
3. enumeration guards bound the work left after pruning
4. temporary files removed on any exit, stale ones swept; corrupt cache entries rebuilt
5. names that become paths are validated
6. (the ledger's bad input: tests/mlcrepro/test_ledger_robustness.py)
7. disk errors name the user's path and what to do
8. errors are raised before long work starts
"""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import mlcbook.datasets as ds
from mlcbook import _io
from mlcbook import _validation as v
from mlcbook import bayes, blended, losses, margins, metrics
from mlcbook.datasets import fetch as fetch_mod
from mlcbook.datasets import load as load_mod
from mlcbook.learners import knn

MIRROR = ds.mirror_dir()


def _need_mirror():
    if MIRROR is None or not (MIRROR / "flags.arff").is_file():
        pytest.fail(
            "needs the local dataset mirror (../shared/datasets or MLCBOOK_DATA_MIRROR)"
        )


# =================================================================== 1. sparse input
@st.composite
def csr_with_duplicates(draw):
    """A CSR matrix whose stored entries (0/1 each) may repeat a coordinate."""
    n = draw(st.integers(1, 5))
    k = draw(st.integers(1, 5))
    cells = draw(
        st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, k - 1)), max_size=12)
    )
    values = draw(
        st.lists(st.sampled_from([0, 1]), min_size=len(cells), max_size=len(cells))
    )
    cells_sorted = sorted(zip(cells, values))
    indptr = np.zeros(n + 1, dtype=np.int64)
    for (i, _), _ in cells_sorted:
        indptr[i + 1] += 1
    indptr = np.cumsum(indptr)
    indices = np.array([j for (_, j), _ in cells_sorted], dtype=np.int64)
    data = np.array([x for _, x in cells_sorted], dtype=np.int64)
    M = sp.csr_matrix((data, indices, indptr), shape=(n, k))
    dense = np.zeros((n, k), dtype=np.int64)
    for (i, j), x in cells_sorted:
        dense[i, j] += x  # what the matrix means: duplicates add up
    return M, dense


@settings(max_examples=200, deadline=None)
@given(csr_with_duplicates())
def test_sparse_duplicates_are_summed_before_the_binary_check(case):
    M, dense = case
    before = (M.data.copy(), M.indices.copy(), M.indptr.copy())
    if ((dense == 0) | (dense == 1)).all():
        out = v.check_label_matrix(M, "Y")
        assert np.array_equal(out.toarray(), dense)
        P = np.zeros_like(dense)
        if dense.shape[1] > 1:  # K = 1: see test_sparse_single_column_hamming_loss
            assert metrics.hamming_loss(M, P) == np.mean(dense != P)
        assert losses.binomial_loss(M, P, 1) == pytest.approx(
            np.mean(dense != P), abs=1e-15
        )
    else:
        for call in (
            lambda: v.check_label_matrix(M, "Y"),
            lambda: metrics.hamming_loss(M, np.zeros(dense.shape, int)),
            lambda: losses.binomial_loss(M, np.zeros(dense.shape, int), 1),
        ):
            with pytest.raises(ValueError, match="Y must be binary"):
                call()
    # the caller's matrix is never modified (canonicalised on a copy)
    assert all(
        np.array_equal(a, b) for a, b in zip(before, (M.data, M.indices, M.indptr))
    )


def test_sparse_single_column_hamming_loss():
    Y = sp.csr_matrix(np.array([[1], [0]]))
    assert metrics.hamming_loss(Y, np.array([[1], [1]])) == 0.5


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(0, 4),
    k=st.integers(0, 4),
    fmt=st.sampled_from(["csr", "csc", "coo", "lil"]),
)
def test_sparse_empty_shapes_go_through_the_shape_checks(n, k, fmt):
    assume(n == 0 or k == 0)
    M = sp.random(n, k, density=0.0, format=fmt)
    msg = "at least one label column" if k == 0 else "at least one row"
    for call in (
        lambda: v.check_label_matrix(M, "Y"),
        lambda: v.check_score_matrix(M, "F"),
        lambda: metrics.hamming_loss(M, M),
        lambda: metrics.f_measure(M, M),
        lambda: losses.loss_profile(M, M, "binomial", [1]),
        lambda: margins.label_wise_margins(M, M),
    ):
        with pytest.raises(ValueError, match=msg):
            call()
    dense = np.zeros((n, k))
    with pytest.raises(ValueError, match=msg):
        v.check_label_matrix(dense, "Y")


# =================================================================== 2. parameters
non_finite = st.sampled_from(
    [float("nan"), float("inf"), -float("inf"), np.float64("nan")]
)
huge = st.floats(min_value=1.0001e100, max_value=1e308) | st.floats(
    max_value=-1.0001e100, min_value=-1e308
)
not_a_number = st.sampled_from(
    [True, False, np.bool_(True), "1", "0.5", None, [1.0], b"1"]
)


@settings(max_examples=100, deadline=None)
@given(x=non_finite | huge | not_a_number)
def test_reals_must_be_finite_bounded_and_not_bool(x):
    with pytest.raises((TypeError, ValueError), match="beta"):
        v.check_real(x, "beta")
    # through public entry points that share the check
    Y = np.array([[1, 0, 1], [0, 1, 1]])
    with pytest.raises((TypeError, ValueError), match="beta"):
        metrics.f_measure(Y, Y, beta=x)
    with pytest.raises((TypeError, ValueError), match="atol"):
        bayes.bayes_optimal(Y, [0.5, 0.5], "hamming", atol=x)
    with pytest.raises((TypeError, ValueError), match="alpha"):
        blended.blended_similarity(Y, Y * 0.5, alpha=x)


@settings(max_examples=100, deadline=None)
@given(
    beta=st.floats(min_value=1e-100, max_value=1e100), seed=st.integers(0, 2**32 - 1)
)
def test_any_accepted_beta_gives_a_finite_f_measure(beta, seed):
    rng = np.random.default_rng(seed)
    Y, P = rng.integers(0, 2, (6, 4)), rng.integers(0, 2, (6, 4))
    for avg in ("micro", "macro", "instance"):
        f = metrics.f_measure(Y, P, beta=beta, average=avg)
        assert np.isfinite(f) and 0.0 <= f <= 1.0


@settings(max_examples=100, deadline=None)
@given(x=st.floats(allow_nan=True) | st.sampled_from([True, False, "3", 2.0, -1, -7]))
def test_indices_and_counts_reject_fractions_negatives_and_bools(x):
    Y = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 0]])
    with pytest.raises((TypeError, ValueError), match="boundary"):
        margins.effective_scores(Y, "label-wise", 0, boundary=x)
    with pytest.raises((TypeError, ValueError), match="toward"):
        margins.threshold_with_errors(Y * 0.5, Y, "t(x)", 0, toward=x)
    with pytest.raises((TypeError, ValueError), match=r"^m must"):
        margins.random_label_matrix(x, 3)
    with pytest.raises((TypeError, ValueError), match="seed"):
        margins.effective_scores(Y, "double", x)


def test_index_past_the_end_is_refused_not_wrapped():
    Y = np.array([[1, 0, 1], [0, 1, 1]])
    with pytest.raises(ValueError, match=r"boundary must be an integer in \[0, 2\]"):
        margins.effective_scores(Y, "label-wise", 0, boundary=3)
    with pytest.raises(ValueError, match=r"toward must be an integer in \[0, 1\]"):
        margins.threshold_with_errors(Y * 0.5, Y, "t_j", 0, toward=2)


@settings(max_examples=60, deadline=None)
@given(flag=st.sampled_from(["yes", "no", "False", "", 0, 1, 1.0, None, [True]]))
def test_flags_must_be_real_booleans(flag):
    Y = np.array([[1, 0, 1], [0, 1, 1]])
    with pytest.raises(TypeError, match="must be True or False"):
        v.check_bool(flag, "prune")
    with pytest.raises(TypeError, match="prune must be True or False"):
        bayes.bayes_optimal(Y, [0.5, 0.5], "hamming", prune=flag)
    with pytest.raises(TypeError, match="allow_sparse must be True or False"):
        v.check_label_matrix(Y, "Y", allow_sparse=flag)
    with pytest.raises(TypeError, match="cache must be True or False"):
        ds.load_dataset("flags", cache=flag)
    if flag is not None:  # None means "from the environment" for download
        with pytest.raises(TypeError, match="download must be True or False"):
            ds.load_dataset("flags", download=flag)
    assert v.check_bool(np.bool_(True), "x") is True


def test_real_numbers_in_range_are_accepted_and_normalised():
    assert v.Real(low=0, high=1)(np.float32(0.5), "a") == 0.5
    assert v.Real(low=1, allow_inf=True)(float("inf"), "alpha") == float("inf")
    assert v.Int(0, 5)(np.int64(3), "k") == 3 and v.Seed()(None, "seed") is None
    with pytest.raises(ValueError, match="alpha must be finite"):
        v.Real(low=1, allow_inf=True)(-float("inf"), "alpha")


# =================================================================== 3. enumeration
def _brute_force(support, probs, L):
    K = support.shape[1]
    cands = np.array(list(itertools.product([0, 1], repeat=K)), dtype=np.int64)
    errs = (cands[:, None, :] != support[None, :, :]).sum(axis=2)
    r = L[errs] @ probs
    return cands[r <= r.min() + 1e-12], r.min()


@settings(max_examples=80, deadline=None)
@given(
    K=st.integers(1, 9),
    t=st.integers(1, 4),
    seed=st.integers(0, 2**32 - 1),
    degenerate=st.booleans(),
)
def test_bayes_guard_returns_every_minimiser_or_refuses(K, t, seed, degenerate):
    rng = np.random.default_rng(seed)
    support = rng.integers(0, 2, (t, K))
    support[:, : K // 2] = support[0, : K // 2]  # consensus labels to prune
    probs = rng.dirichlet(np.ones(t))
    L = np.sort(rng.random(K + 1))
    if degenerate:  # zero loss unless (nearly) everything is wrong: huge tie sets
        L = (np.arange(K + 1) >= K).astype(float)
    L[0], L[-1] = 0.0, 1.0
    best, rmin = _brute_force(support, probs, L)
    try:
        got = bayes.bayes_optimal(support, probs, ("counts", L))
    except ValueError as exc:
        assert "MAX_MINIMISERS" in str(exc) and len(best) > bayes.MAX_MINIMISERS
        return
    assert got.risk == pytest.approx(rmin, abs=1e-12)  # same sums, another order
    assert {tuple(r) for r in got.predictions} == {tuple(r) for r in best}


@settings(max_examples=20, deadline=None)
@given(K=st.integers(30, 62), free=st.integers(1, 8), seed=st.integers(0, 2**32 - 1))
def test_bayes_with_many_labels_refuses_a_tie_set_it_cannot_list(K, free, seed):
    rng = np.random.default_rng(seed)
    support = np.zeros((2, K), dtype=int)
    support[1, :free] = 1
    L = (np.arange(K + 1) >= K).astype(float)  # every other prediction costs nothing
    with pytest.raises(ValueError, match="MAX_MINIMISERS"):
        bayes.bayes_optimal(support, [0.5, 0.5], ("counts", L))
    # the minimum itself is still available through risk() on any one vector
    assert bayes.risk(support[0], support, [0.5, 0.5], ("counts", L)) == 0.0


def test_bayes_k40_refuses_in_a_subprocess_without_hanging():
    """K = 40 used to search 2**38 ties; a timeout turns a hang into a failure."""
    code = (
        "import numpy as np\nfrom mlcbook.bayes import bayes_optimal\n"
        "s = np.zeros((2, 40), int); s[1, :2] = 1\n"
        "L = np.r_[np.zeros(40), 1.0]\n"
        "try:\n    bayes_optimal(s, [0.5, 0.5], ('counts', L))\n"
        "except ValueError as e:\n    print('refused:', e)\n"
    )
    res = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300
    )
    assert res.returncode == 0 and res.stdout.startswith("refused:")
    assert "2**38" in res.stdout


@settings(max_examples=30, deadline=None)
@given(K=st.integers(26, 62), c=st.integers(2, 6), seed=st.integers(0, 2**32 - 1))
def test_knn_free_label_search_refuses_what_it_cannot_allocate(K, c, seed):
    rng = np.random.default_rng(seed)
    N = rng.integers(0, 2, (2, c, K))
    N[:, 1, :] = 1 - N[:, 0, :]  # neighbours disagree on every label: K free labels
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(knn, "_search", lambda *a: pytest.fail("search started"))
        with pytest.raises(
            ValueError, match="free labels left after consensus pruning"
        ):
            knn.minimize_summed_loss(
                N, losses.error_count_losses("binomial", 1, K), max_free_labels=62
            )


# ================================================================= 4. temp files, cache
@pytest.fixture
def sandbox(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv("MLCBOOK_DATA", str(cache))
    monkeypatch.delenv("MLCBOOK_DATA_MIRROR", raising=False)
    monkeypatch.setenv("MLCBOOK_DATA_DOWNLOAD", "0")
    return cache


class _Exploding:
    """A response that delivers one chunk, then raises (a kill, a ^C, a lost disk)."""

    headers: dict = {}

    def __init__(self, exc: BaseException):
        self.exc, self.calls = exc, 0

    def __enter__(self):
        return self

    def __exit__(self, *a):
        return False

    def read(self, n):
        self.calls += 1
        if self.calls == 1:
            return b"x" * 100
        raise self.exc


@pytest.mark.parametrize(
    "exc",
    [KeyboardInterrupt(), SystemExit(1), MemoryError(), ConnectionResetError("reset")],
)
def test_temporary_file_removed_on_any_exit(sandbox, monkeypatch, exc):
    sandbox.mkdir()
    monkeypatch.setattr(urllib.request, "urlopen", lambda req, timeout: _Exploding(exc))
    # a reset connection is a failed download; the others pass through unchanged
    expected = ds.DownloadError if isinstance(exc, OSError) else type(exc)
    with pytest.raises(expected):
        ds.copy_verified("http://127.0.0.1:9/f.arff", sandbox / "f.arff", "0" * 64, download=True)
    assert list(sandbox.iterdir()) == []


def test_stale_temporaries_are_swept_fresh_ones_kept(sandbox, monkeypatch):
    _need_mirror()
    sandbox.mkdir()
    stale = sandbox / ".flags.arff.killed.tmp"
    fresh = sandbox / ".flags.arff.running.tmp"
    stale.write_bytes(b"half a download")
    fresh.write_bytes(b"a download in progress")
    old = time.time() - fetch_mod.STALE_TMP_SECONDS - 60
    os.utime(stale, (old, old))
    monkeypatch.setenv("MLCBOOK_DATA_MIRROR", str(MIRROR))
    ds.fetch_file("flags.arff", ds.get_spec("flags").sha256["flags.arff"])
    assert not stale.exists() and fresh.exists() and (sandbox / "flags.arff").is_file()


@settings(max_examples=12, deadline=None)
@given(cut=st.floats(0.0, 0.999))
def test_corrupt_parsed_cache_entry_is_discarded_and_rebuilt(tmp_path_factory, cut):
    _need_mirror()
    cache = tmp_path_factory.mktemp("cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("MLCBOOK_DATA", str(cache))
        mp.setenv("MLCBOOK_DATA_MIRROR", str(MIRROR))
        X0, Y0, _ = ds.load_dataset("flags")
        (npz,) = (cache / "parsed").glob("*.npz")
        data = npz.read_bytes()
        npz.write_bytes(data[: int(cut * len(data))])  # empty (cut = 0) or truncated
        with pytest.warns(RuntimeWarning, match="corrupt parsed-cache entry"):
            X1, Y1, info = ds.load_dataset("flags")
        assert np.array_equal(X0, X1, equal_nan=True) and np.array_equal(Y0, Y1)
        assert not info.source["flags.arff"].startswith("parsed-cache")
        _, _, again = ds.load_dataset("flags")  # rebuilt: read from the cache again
        assert again.source["flags.arff"].startswith("parsed-cache")
        assert not list(cache.rglob("*.tmp"))


def test_altered_parsed_cache_with_valid_zip_is_rejected(sandbox, monkeypatch):
    _need_mirror()
    monkeypatch.setenv("MLCBOOK_DATA_MIRROR", str(MIRROR))
    X0, Y0, _ = ds.load_dataset("flags")
    (npz,) = (sandbox / "parsed").glob("*.npz")
    with np.load(npz) as z:
        arrays = dict(z)
    # a well-formed file whose arrays do not fit together
    arrays["Y"] = arrays["Y"][:-1]
    with open(npz, "wb") as f:
        np.savez(f, **arrays)
    with pytest.warns(RuntimeWarning, match="inconsistent shapes"):
        _, Y1, _ = ds.load_dataset("flags")
    assert np.array_equal(Y0, Y1)


# =================================================================== 5. names and paths
SAFE_FOLDER_PROBES = [
    "../x",
    "..",
    ".",
    "",
    "a/b",
    "a\\b",
    "/etc/passwd",
    ".hidden",
    "-rf",
    "x\0y",
    "name with space",
    "é",
]


@pytest.mark.parametrize("name", SAFE_FOLDER_PROBES)
def test_path_names_refused_everywhere(name, tmp_path, sandbox):
    with pytest.raises(ValueError, match="filename"):
        ds.fetch_file(name, "0" * 64)
    if name.strip():
        with pytest.raises(ValueError, match="name"):
            ds.get_spec(name)
        with pytest.raises(ValueError, match="name"):
            ds.load_dataset(name)
    assert not sandbox.exists()  # nothing was written, not even the cache folder


# =================================================================== 7. disk errors
def test_cache_path_that_is_a_file(tmp_path, monkeypatch):
    _need_mirror()
    blocker = tmp_path / "cache"
    blocker.write_text("not a folder")
    monkeypatch.setenv("MLCBOOK_DATA", str(blocker))
    monkeypatch.setenv("MLCBOOK_DATA_MIRROR", str(MIRROR))
    with pytest.raises(ds.fetch.CacheError) as info:
        ds.load_dataset("flags")
    msg = str(info.value)
    assert str(blocker) in msg and "is a file, not a folder" in msg
    assert "MLCBOOK_DATA" in msg and ".tmp" not in msg


def test_read_only_cache(tmp_path, monkeypatch):
    """Root ignores file modes: the refusal is injected where the OS would raise it."""
    _need_mirror()
    cache = tmp_path / "cache"
    cache.mkdir()
    monkeypatch.setenv("MLCBOOK_DATA", str(cache))
    monkeypatch.setenv("MLCBOOK_DATA_MIRROR", str(MIRROR))

    def refuse(*a, dir=None, **k):
        raise PermissionError(13, "Permission denied", str(Path(dir) / ".x.abc123.tmp"))

    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    with pytest.raises(ds.fetch.CacheError) as info:
        ds.load_dataset("flags")
    msg = str(info.value)
    assert str(cache) in msg and "Permission denied" in msg and "writable" in msg
    assert ".x.abc123.tmp" not in msg
    assert isinstance(info.value, OSError)  # still an OSError for callers that catch it


def test_parsed_cache_folder_blocked_suggests_cache_false(tmp_path, monkeypatch):
    _need_mirror()
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / "parsed").write_text("in the way")
    monkeypatch.setenv("MLCBOOK_DATA", str(cache))
    monkeypatch.setenv("MLCBOOK_DATA_MIRROR", str(MIRROR))
    with pytest.raises(ds.fetch.CacheError, match="cache=False"):
        ds.load_dataset("flags")
    X, Y, _ = ds.load_dataset("flags", cache=False)
    assert Y.shape == (194, 7)


# =================================================================== 8. fail early
def test_parameters_checked_before_enumeration(monkeypatch):
    monkeypatch.setattr(bayes, "_parse_loss", lambda *a: pytest.fail("work started"))
    support = np.eye(20, dtype=int)
    with pytest.raises(ValueError, match="atol"):
        bayes.bayes_optimal(support, np.full(20, 0.05), "hamming", atol=float("nan"))
    with pytest.raises(TypeError, match="prune"):
        bayes.bayes_optimal(support, np.full(20, 0.05), "hamming", prune="yes")


def test_dataset_arguments_checked_before_any_file_is_touched(monkeypatch):
    monkeypatch.setattr(
        load_mod, "fetch_file", lambda *a, **k: pytest.fail("fetch started")
    )
    with pytest.raises(TypeError, match="cache"):
        ds.load_dataset("bibtex", cache="no")
    with pytest.raises(ValueError, match="name"):
        ds.load_dataset("../bibtex")
    with pytest.raises(ValueError, match="subset"):
        ds.load_dataset("bibtex", subset="validation")


@settings(max_examples=40, deadline=None)
@given(bad=st.sampled_from([-1, 1.5, True, "3", float("nan"), None]))
def test_dataset_helpers_declare_their_parameters(bad):
    Y = [[1, 0], [0, 1]]
    if bad is not None:
        with pytest.raises((TypeError, ValueError), match="n_features"):
            ds.label_statistics(Y, n_features=bad)
        with pytest.raises((TypeError, ValueError), match="seed"):
            ds.make_limo_synthetic(10, seed=bad)
    with pytest.raises((TypeError, ValueError), match="^n must"):
        ds.make_limo_synthetic(bad)
    if bad is not True:  # True is a valid flag
        with pytest.raises(TypeError, match="available_only must be True or False"):
            ds.list_datasets(available_only=bad)
        with pytest.raises(TypeError, match="fast must be True or False"):
            ds.parse_arff("x.arff", meka=True, fast=bad)


@settings(max_examples=20, deadline=None)
@given(K=st.integers(bayes.MAX_BAYES_LABELS + 1, 10**5))
def test_bayes_refuses_before_building_the_loss_table(K):
    support = np.zeros((2, K), dtype=np.int8)
    support[1] = 1  # no consensus label: all K labels would be enumerated
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(bayes, "_parse_loss", lambda *a: pytest.fail("loss table built"))
        with pytest.raises(ValueError, match="MAX_BAYES_LABELS"):
            bayes.bayes_optimal(support, [0.5, 0.5], ("binomial", K // 2))
        with pytest.raises(ValueError, match="MAX_CALLABLE_LABELS"):
            bayes.bayes_optimal(support, [0.5, 0.5], lambda Y, P: (Y != P).mean(1))


@pytest.mark.parametrize("call", ["loss_profile", "from_moebius", "check_capacity"])
def test_losses_flags_and_tolerances_are_declared(call):
    Y = np.array([[1, 0, 1], [0, 1, 1]])
    with pytest.raises((TypeError, ValueError)):
        if call == "loss_profile":
            losses.loss_profile(Y, Y, "binomial", [1], per_instance="no")
        elif call == "from_moebius":
            losses.from_moebius(losses.moebius(losses.hamming_capacity(2)), check="no")
        else:
            losses.check_capacity(losses.hamming_capacity(3), tol=float("nan"))


_STALLED_WRITER = (
    "import sys, time, urllib.request\nfrom pathlib import Path\n"
    "from mlcbook.datasets import copy_verified\n"
    "class Stalled:\n"
    "    n = 0\n"
    "    headers = {}\n"
    "    def __enter__(self): return self\n"
    "    def __exit__(self, *a): return False\n"
    "    def read(self, k):\n"
    "        self.n += 1\n"
    "        if self.n == 1:\n"
    "            return b'@relation half'\n"
    "        print('writing', flush=True); time.sleep(600)\n"
    "urllib.request.urlopen = lambda req, timeout: Stalled()\n"
    "copy_verified('http://127.0.0.1:9/flags.arff', Path(sys.argv[1]) / 'flags.arff', "
    "'0' * 64, download=True)\n"
)


def _start_stalled_writer(folder):
    """A real process in the middle of a transfer into ``folder`` (it sleeps there)."""
    proc = subprocess.Popen(
        [sys.executable, "-c", _STALLED_WRITER, str(folder)], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout.readline().strip() == "writing"
    return proc


def test_killed_download_leaves_a_temporary_that_the_next_fetch_sweeps_at_once(
    sandbox, monkeypatch
):
    """A real process is killed (SIGKILL: no finally runs) in the middle of a transfer;
    the next fetch, a moment later, removes what it left (its owner is dead)."""
    _need_mirror()
    sandbox.mkdir()
    proc = _start_stalled_writer(sandbox)
    proc.kill()
    proc.wait(60)
    (left,) = sandbox.glob(".flags.arff.*.tmp")  # the kill left it behind
    assert f"-{proc.pid}-" in left.name  # it names its owner
    assert _io.owner_alive(left) is False
    monkeypatch.setenv("MLCBOOK_DATA_MIRROR", str(MIRROR))
    ds.fetch_file("flags.arff", ds.get_spec("flags").sha256["flags.arff"])
    assert [p.name for p in sandbox.iterdir()] == ["flags.arff"]


def test_a_live_transfer_is_never_swept_however_old(sandbox, monkeypatch):
    _need_mirror()
    sandbox.mkdir()
    proc = _start_stalled_writer(sandbox)
    try:
        (live,) = sandbox.glob(".flags.arff.*.tmp")
        old = time.time() - 10 * fetch_mod.STALE_TMP_SECONDS
        os.utime(live, (old, old))  # a writer stalled for ten hours is still a writer
        assert _io.owner_alive(live) is True
        monkeypatch.setenv("MLCBOOK_DATA_MIRROR", str(MIRROR))
        ds.fetch_file("flags.arff", ds.get_spec("flags").sha256["flags.arff"])
        assert live.exists() and (sandbox / "flags.arff").is_file()
    finally:
        proc.kill()
        proc.wait(60)


@pytest.mark.parametrize(
    "name, expected",
    [
        (".t.csv.q1w2e3r4.tmp", None),  # no owner in the name: judged by its age
        (".t.csv.{host}-{pid}-{start}.abc.tmp", True),  # this process
        (".t.csv.{host}-{pid}-1.abc.tmp", False),  # this id, another start: a reused id
        (".t.csv.{host}-2147480000-.abc.tmp", False),  # no such process
        (".t.csv.00000000-{pid}-{start}.abc.tmp", None),  # another host: cannot tell
    ],
)
def test_owner_of_a_temporary_is_read_from_its_name(name, expected):
    host, pid, start = _io._owner_tag().split("-")
    if host == "00000000":
        pytest.fail("this host's name hashes to the test's 'other host'")
    assert _io.owner_alive(name.format(host=host, pid=pid, start=start)) is expected


@settings(max_examples=30, deadline=None)
@given(
    stage=st.sampled_from(["mkdir", "mkstemp", "write", "replace"]),
    err=st.sampled_from([13, 28, 30, 122]),
)  # EACCES, ENOSPC, EROFS, EDQUOT
def test_any_disk_error_names_the_cache_folder(tmp_path_factory, stage, err):
    _need_mirror()
    cache = tmp_path_factory.mktemp("cache")
    hidden = str(cache / ".flags.arff.q1w2e3.tmp")
    exc = OSError(err, os.strerror(err), hidden)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("MLCBOOK_DATA", str(cache))
        if stage == "mkdir":
            mp.setattr(Path, "mkdir", lambda *a, **k: (_ for _ in ()).throw(exc))
        elif stage == "mkstemp":
            mp.setattr(
                tempfile,
                "mkstemp",
                lambda *a, **k: (_ for _ in ()).throw(exc),
            )
        elif stage == "write":
            real_fdopen = os.fdopen

            class Full:
                def __init__(self, f):
                    self.f = f

                def __enter__(self):
                    return self

                def __exit__(self, *a):
                    self.f.close()

                def write(self, chunk):
                    raise exc

            mp.setattr(
                fetch_mod.os, "fdopen", lambda fd, mode: Full(real_fdopen(fd, mode))
            )
        else:
            mp.setattr(Path, "replace", lambda *a, **k: (_ for _ in ()).throw(exc))
        sha = ds.get_spec("flags").sha256["flags.arff"]
        with pytest.raises(ds.fetch.CacheError) as info:
            ds.copy_verified(MIRROR / "flags.arff", cache / "flags.arff", sha)
    msg = str(info.value)
    assert str(cache) in msg and "MLCBOOK_DATA" in msg and hidden not in msg
    assert os.strerror(err) in msg
    assert not list(cache.glob(".*.tmp"))  # and nothing left behind


def test_the_next_fetch_on_the_command_line_sweeps_a_killed_download(sandbox):
    """The same through `mlcbook datasets fetch`: exit 0, the dead writer's file gone."""
    _need_mirror()
    sandbox.mkdir()
    proc = _start_stalled_writer(sandbox)
    proc.kill()
    proc.wait(60)
    assert len(list(sandbox.glob(".flags.arff.*.tmp"))) == 1
    env = {**os.environ, "MLCBOOK_DATA_MIRROR": str(MIRROR)}
    res = subprocess.run(
        [sys.executable, "-m", "mlcbook", "datasets", "fetch", "flags"],
        capture_output=True, text=True, env=env, timeout=300,
    )
    assert res.returncode == 0, res.stderr
    assert not list(sandbox.glob(".*.tmp")) and (sandbox / "flags.arff").is_file()
