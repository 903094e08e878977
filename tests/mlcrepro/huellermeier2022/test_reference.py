"""The authors' released results and folds (mlcrepro.huellermeier2022.reference).

Expected values come from sources independent of the loader: the sha256 table of
``../shared/reference/README.md``, the raw kvstore lines split with plain string
operations, liac-arff parsing the fold files directly, and our own copy of the datasets.
"""

from __future__ import annotations

import dataclasses
import io
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path

import arff as liac_arff
import numpy as np
import pytest
import scipy.sparse as sp

from mlcrepro._paths import shared_dir
from mlcrepro.huellermeier2022 import folds as F
from mlcrepro.huellermeier2022 import reference as ref
from mlcrepro.huellermeier2022.experiments import released_profiles
from mlcrepro.runner import table
from mlcbook.datasets import ChecksumError, DataNotFoundError, load_dataset
from mlcbook.datasets.arff import DatasetFormatError, parse_arff

# the mirror the module reads (MLCBOOK_REFERENCE_MIRROR, else ../shared/reference/...)
MIRROR = Path(os.environ.get("MLCBOOK_REFERENCE_MIRROR") or shared_dir() / "reference" / "hullermeier2022")
SHARED = MIRROR.parent
needs_mirror = pytest.mark.skipif(not MIRROR.is_dir(), reason="no ../shared/reference")


def _raw_records(name: str) -> list[dict[str, str]]:
    """Records of a kvstore file split with str operations only (not the loader's)."""
    out = []
    for line in (MIRROR / name).read_text().split("\n"):
        if line.startswith("seed="):
            out.append(dict(f.split("=", 1) for f in line.rstrip(";").split(";")))
    return out


@pytest.fixture(scope="module")
def results():
    return ref.load_reference_results()


@pytest.fixture(scope="module")
def all_results():
    return ref.load_reference_results(include_extra=True)


# ------------------------------------------------------------------ checksums
@needs_mirror
def test_registered_sha256_equal_the_readme_table():
    text = (SHARED / "README.md").read_text()
    readme = {}
    for sha, name in re.findall(r"([0-9a-f]{64})  (folds-[\w-]+\.zip)", text):
        readme[name] = sha
    for name, sha in re.findall(
        r"\| (results\w*\.kvstore) \|[^|]*\| ([0-9a-f]{64}) \|", text
    ):
        readme[name] = sha
    assert readme == {name: sha for name, (sha, _) in ref.FILES.items()}


def test_urls_name_the_commits_of_the_readme():
    for name, (_, url) in ref.FILES.items():
        commit = ref.COMMIT_BOOMER if name == "results_boomer.kvstore" else ref.COMMIT
        assert url.startswith(
            f"https://raw.githubusercontent.com/KIuML/DependenceAwareMLCLoss/{commit}/"
        )
    assert ref.COMMIT.startswith("aa511e6") and ref.COMMIT_BOOMER.startswith("ec5921a")


@pytest.mark.skipif(not (shared_dir() / "reference" / "hullermeier2022").is_dir(),
                    reason="no ../shared/reference beside the checkout")
def test_mirror_copies_verify(monkeypatch):
    monkeypatch.delenv("MLCBOOK_REFERENCE_MIRROR", raising=False)
    for name in ref.FILES:
        path, source = ref.reference_file(name, download=False)
        assert source == f"mirror:{MIRROR / name}" and path == MIRROR / name


@needs_mirror
def test_corrupt_mirror_copy_is_refused(tmp_path, monkeypatch):
    data = bytearray((MIRROR / "results.kvstore").read_bytes())
    data[100] ^= 1
    (tmp_path / "results.kvstore").write_bytes(bytes(data))
    monkeypatch.setenv("MLCBOOK_REFERENCE_MIRROR", str(tmp_path))
    with pytest.raises(ChecksumError, match="checksum mismatch for results.kvstore"):
        ref.reference_file("results.kvstore", download=False)
    with pytest.raises(ChecksumError):
        ref.load_reference_results()


class _Response(io.BytesIO):
    def __init__(self, data: bytes):
        super().__init__(data)
        self.headers = {"Content-Length": str(len(data))}

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


@needs_mirror
def test_download_is_verified_and_atomic(tmp_path, monkeypatch):
    monkeypatch.setenv("MLCBOOK_REFERENCE_MIRROR", "")
    monkeypatch.setenv("MLCBOOK_DATA", str(tmp_path))
    good = (MIRROR / "results_boomer.kvstore").read_bytes()
    bad = good[:-10] + b"0123456789"
    calls = []

    def fake(payload):
        def urlopen(req, timeout):
            calls.append(req.full_url)
            return _Response(payload)

        return urlopen

    with pytest.raises(DataNotFoundError, match="downloading is not allowed"):
        ref.reference_file("results_boomer.kvstore", download=False)
    monkeypatch.setattr(urllib.request, "urlopen", fake(bad))
    with pytest.raises(ChecksumError):
        ref.reference_file("results_boomer.kvstore", download=True)
    cache = tmp_path / "reference"
    assert list(cache.iterdir()) == []  # nothing stored, temporary file removed
    monkeypatch.setattr(urllib.request, "urlopen", fake(good))
    path, source = ref.reference_file("results_boomer.kvstore", download=True)
    assert path == cache / "results_boomer.kvstore" and path.read_bytes() == good
    assert source == f"download:{ref.FILES['results_boomer.kvstore'][1]}"
    assert calls[-1] == ref.FILES["results_boomer.kvstore"][1]
    assert ref.reference_file("results_boomer.kvstore", download=False)[1] == "cache"


_STALLED_DOWNLOAD = """
import sys, time, urllib.request
from mlcrepro.huellermeier2022 import folds as F
from mlcrepro.huellermeier2022 import reference as ref
from mlcrepro.huellermeier2022.experiments import released_profiles
from mlcrepro.runner import table
class Stalled:
    headers = {}
    n = 0
    def __enter__(self):
        return self
    def __exit__(self, *exc):
        return False
    def read(self, k=-1):
        self.n += 1
        if self.n == 1:
            return b"seed=0;"
        print("writing", flush=True)
        time.sleep(600)
urllib.request.urlopen = lambda req, timeout: Stalled()
ref.reference_file("results_boomer.kvstore", download=True)
"""


@needs_mirror
def test_a_killed_download_leaves_a_temporary_the_next_call_removes(tmp_path, monkeypatch):
    """A download killed mid-transfer leaves its ``.NAME.*.tmp`` (no handler runs on
    SIGKILL); the next call removes it at once (its owner is dead), and keeps a young
    one whose owner it cannot tell (a download that may still be running elsewhere)."""
    monkeypatch.setenv("MLCBOOK_DATA", str(tmp_path))
    monkeypatch.setenv("MLCBOOK_REFERENCE_MIRROR", "")
    proc = subprocess.Popen([sys.executable, "-c", _STALLED_DOWNLOAD], stdout=subprocess.PIPE,
                            text=True, env={**os.environ})
    try:
        assert proc.stdout.readline().strip() == "writing"
    finally:
        proc.kill()
        proc.wait(60)
    cache = tmp_path / "reference"
    (left,) = cache.glob(".results_boomer.kvstore.*.tmp")  # the kill left it behind
    young = cache / ".results.kvstore.running.tmp"
    young.write_bytes(b"another download, still running")
    monkeypatch.setenv("MLCBOOK_REFERENCE_MIRROR", str(MIRROR))
    path, source = ref.reference_file("results_boomer.kvstore", download=False)
    assert source.startswith("mirror:")  # read in place: nothing written to the cache
    assert sorted(p.name for p in cache.iterdir()) == [young.name]


# ------------------------------------------------------------------ names
@needs_mirror
def test_every_key_of_the_files_is_mapped_and_none_invented():
    records = _raw_records("results.kvstore") + _raw_records("results_boomer.kvstore")
    algos = {r["algorithm"] for r in records}
    datasets = {r["dataset"] for r in records}
    fixed = set(ref.ALGORITHMS) - {"rakel-k"}
    rakel = {a for a in algos if re.fullmatch(r"rakel-\d+", a)}
    assert algos == fixed | rakel  # every key mapped ...
    assert fixed <= algos  # ... and no fixed key absent from the files
    assert datasets == set(ref.DATASETS)
    assert {d for d, (_, p) in ref.DATASETS.items() if p} == {
        "birds",
        "emotions",
        "enron-f",
        "flags",
        "genbase",
        "llog-f",
        "medical",
        "scene",
        "yeast",
    }
    assert ref.DATASETS["enron-f"][0] == "enron" and ref.DATASETS["llog-f"][0] == "llog"
    book = {
        ref.ALGORITHMS[k][0]
        for k in (
            "lc",
            "clus",
            "clus-ensemble",
            "br",
            "cc",
            "boomer_label_wise_logistic_loss",
            "boomer_example_wise_logistic_loss",
        )
    }
    assert book == {"LP", "PCT", "EPCT", "BR", "CC", "BOOMER-1", "BOOMER-K"}


@needs_mirror
def test_rakel_keys_follow_the_experimenter():
    """k in {1..5, floor(L/2), L-1} with the code's L (12 for flags), per dataset."""
    records = _raw_records("results.kvstore")
    for ds in {r["dataset"] for r in records}:
        ks = {
            int(r["algorithm"][6:])
            for r in records
            if r["dataset"] == ds and re.fullmatch(r"rakel-\d+", r["algorithm"])
        }
        if len(ks) <= 1:
            continue  # a Yahoo set with only rakel-1
        L = ref.CODE_LABELS[ds]
        assert ks == {1, 2, 3, 4, 5, L // 2, L - 1}, ds
    assert ref.CODE_LABELS["flags"] == 12


@needs_mirror
def test_rakel_key_holds_cc_predictions():
    """Fall-through: 'rakel' equals 'cc' bit for bit wherever both pooled 10 folds."""
    recs = {(r["dataset"], r["algorithm"]): r for r in _raw_records("results.kvstore")}
    full = [
        d
        for (d, a), r in recs.items()
        if a == "rakel" and r["size"] == "10" and recs[d, "cc"]["size"] == "10"
    ]
    assert sorted(full) == ["birds", "emotions", "flags", "scene", "yeast"]
    for d in full:
        for field in ("moebius", "polynomial"):
            assert recs[d, "rakel"][field] == recs[d, "cc"][field]


@needs_mirror
def test_boomer_rows_of_both_files_agree():
    a = {(r["dataset"], r["algorithm"]): r for r in _raw_records("results.kvstore")}
    b = {
        (r["dataset"], r["algorithm"]): r
        for r in _raw_records("results_boomer.kvstore")
    }
    assert len(b) == 18 and all(a[k] == b[k] for k in b)


# ------------------------------------------------------------------ tidy table
def test_alpha_grid():
    expected = np.concatenate(
        [
            np.arange(100, 111) / 100,
            np.arange(12, 21) / 10,
            np.arange(3, 21),
            np.arange(30, 101, 10),
            np.arange(200, 1001, 100),
        ]
    )
    assert len(ref.ALPHAS) == 55
    np.testing.assert_array_equal(
        ref.ALPHAS, expected
    )  # exact: the decimals round-trip


@needs_mirror
def test_table_shape_per_dataset_and_learner(results):
    assert tuple(results.columns) == ref.RESULT_COLUMNS
    assert results["in_paper"].all()
    assert set(results["dataset"]) == {d for d, p in ref.DATASETS.values() if p}
    for (ds, learner), g in results.groupby(["dataset", "learner"]):
        K = g["K"].iloc[0]
        b = g[g["family"] == "binomial"]
        p = g[g["family"] == "polynomial"]
        assert len(g) == K + 55, (ds, learner)
        np.testing.assert_array_equal(b["param"], np.arange(1, K + 1))
        np.testing.assert_array_equal(p["param"], ref.ALPHAS)
        assert g["folds"].nunique() == 1 and 1 <= g["folds"].iloc[0] <= 10
    K = results.groupby("dataset")["K"].first().to_dict()
    assert K == {
        "birds": 19,
        "emotions": 6,
        "enron": 53,
        "flags": 7,
        "genbase": 27,
        "llog": 75,
        "medical": 45,
        "scene": 6,
        "yeast": 14,
    }


@needs_mirror
def test_table_values_equal_the_raw_lines(all_results):
    raw = _raw_records("results.kvstore")
    assert len(all_results) == sum(int(r["L"]) + 55 for r in raw)
    r = next(x for x in raw if (x["dataset"], x["algorithm"]) == ("flags", "rakel-11"))
    g = all_results[
        (all_results["algorithm"] == "rakel-11") & (all_results["dataset"] == "flags")
    ]
    assert set(g["learner"]) == {"RAkEL-k11-m2"} and g["folds"].iloc[0] == 10
    np.testing.assert_array_equal(
        g["loss"],
        [float(v) for v in r["moebius"].split(",")]
        + [float(v) for v in r["polynomial"].split(",")],
    )


@needs_mirror
def test_profiles_meet_at_hamming_and_subset_loss(results):
    """alpha = 1 and k = 1 are both the Hamming loss; k = K is the subset 0/1 loss and
    the polynomial family approaches it as alpha grows (Sec. 4 of the paper).  The files
    were written by two Java loops; 1e-12 allows their different summation orders."""
    for _, g in results.groupby(["dataset", "learner"]):
        b = g[g["family"] == "binomial"]["loss"].to_numpy()
        p = g[g["family"] == "polynomial"]["loss"].to_numpy()
        assert abs(b[0] - p[0]) < 1e-12
        assert np.all(np.diff(b) >= -1e-12) and np.all(np.diff(p) >= -1e-12)
        assert p[-1] <= b[-1] + 1e-12 and b[-1] - p[-1] < 1e-3


@needs_mirror
def test_extra_rows(all_results, results):
    extra = all_results[~all_results["in_paper"]]
    assert set(extra["algorithm"]) >= {"fw", "rakel"}
    new = set(all_results["learner"]) - set(results["learner"])
    assert new == {"FW", "RAkEL-k1-m26"}  # arts1 (Yahoo, L = 26) has rakel-1 only
    assert len(all_results) > len(results)


# ------------------------------------------------------------------ folds
FOLD_SETS = ["birds", "emotions", "enron", "flags", "genbase", "llog", "medical"]


@pytest.fixture(scope="module")
def folds():
    return {n: F.reference_folds(n) for n in FOLD_SETS}


def _d(X):
    return X.toarray() if sp.issparse(X) else np.asarray(X)


@needs_mirror
@pytest.mark.parametrize("name", FOLD_SETS)
def test_folds_are_the_authors_files_as_they_are(folds, results, name):
    f = folds[name]
    K = results.loc[results["dataset"] == name, "K"].iloc[0]
    assert f.dataset == name and [s.split for s in f.splits] == list(range(10))
    assert len(f.label_names) == K
    for s in f.splits:
        assert s.Y_train.shape[1] == s.Y_test.shape[1] == K
        assert s.X_train.shape[1] == s.X_test.shape[1] == len(f.feature_names)
    assert set(f.nominal) <= set(range(len(f.feature_names)))


@needs_mirror
@pytest.mark.slow
@pytest.mark.parametrize("name", FOLD_SETS)
def test_verify_folds_finds_our_rows_in_every_split(folds, name):
    """Each split's train and test rows together are our copy's rows (a multiset)."""
    f = folds[name]
    got = F.verify_folds(f)
    X, Y, _ = load_dataset(name)
    assert got.dataset == name and got.n_rows == Y.shape[0]
    for s in f.splits:
        assert s.Y_train.shape[0] + s.Y_test.shape[0] == Y.shape[0]
    # medical: the authors' MULAN copy has 1449 word features, ours 1909 (1430 shared)
    assert got.exact == (name != "medical")
    assert got.shared_features == (1430 if name == "medical" else len(f.feature_names))


@needs_mirror
def test_verify_folds_refuses_a_split_that_is_not_our_rows(folds):
    f = folds["flags"]
    s = f.splits[3]
    Y = s.Y_test.copy()
    Y[0] = 1 - Y[0]  # one test row's labels flipped: no longer a row of our copy
    bad = dataclasses.replace(f, splits=(*f.splits[:3], dataclasses.replace(s, Y_test=Y),
                                         *f.splits[4:]))
    with pytest.raises(DatasetFormatError, match="flags split 3"):
        F.verify_folds(bad)
    swap = [1, 0, *range(2, s.Y_train.shape[0])]  # the order of rows is not checked
    moved = dataclasses.replace(s, X_train=s.X_train[swap], Y_train=s.Y_train[swap])
    assert F.verify_folds(dataclasses.replace(f, splits=(moved,))).exact
    with pytest.raises(TypeError, match="folds must be a ReferenceFolds"):
        F.verify_folds("flags")


@needs_mirror
def test_meka_parse_agrees_with_liac_arff(tmp_path):
    """parse_arff(meka=True) against liac-arff reading the same fold files directly."""
    for key, member in (
        ("flags", "flags_42_0_test.arff"),
        ("medical", "medical_42_0_test.arff"),
        ("llog-f", "llog-f_42_3_test.arff"),
    ):
        with zipfile.ZipFile(MIRROR / f"folds-{key}.zip") as z:
            z.extract(member, tmp_path)
        path = tmp_path / member
        sparse = path.read_text().split("@data", 1)[1].lstrip().startswith("{")
        d = liac_arff.loads(
            path.read_text(),
            encode_nominal=True,
            return_type=liac_arff.COO if sparse else liac_arff.DENSE,
        )
        n_attr = len(d["attributes"])
        if sparse:
            vals, rows, cols = d["data"]
            A = sp.coo_matrix(
                (vals, (rows, cols)), shape=(max(rows) + 1, n_attr)
            ).toarray()
        else:
            A = np.array(d["data"], dtype=float)
        c = int(re.search(r"-C (-?\d+)", d["relation"]).group(1))
        lab = list(range(c)) if c > 0 else list(range(n_attr + c, n_attr))
        feat = [i for i in range(n_attr) if i not in lab]
        p = parse_arff(path, meka=True)
        np.testing.assert_array_equal(_d(p.X), A[:, feat])
        np.testing.assert_array_equal(p.Y, A[:, lab])


@needs_mirror
def test_corrupt_fold_zip_is_refused(tmp_path, monkeypatch):
    shutil.copy(MIRROR / "folds-flags.zip", tmp_path / "folds-flags.zip")
    with open(tmp_path / "folds-flags.zip", "r+b") as fh:
        fh.seek(500)
        b = fh.read(1)
        fh.seek(500)
        fh.write(bytes([b[0] ^ 0xFF]))
    monkeypatch.setenv("MLCBOOK_REFERENCE_MIRROR", str(tmp_path))
    with pytest.raises(ChecksumError, match="folds-flags.zip"):
        F.reference_folds("flags", download=False)


# ------------------------------------------------------------------ bad input
def test_bad_input_names_the_choices():
    with pytest.raises(
        ValueError, match="birds, emotions, enron, flags, genbase, llog, medical"
    ):
        F.reference_folds("scene")
    with pytest.raises(ValueError, match="name must be a dataset with released folds"):
        F.reference_folds("nope")
    with pytest.raises(TypeError, match="name must be a dataset name"):
        F.reference_folds(3)
    with pytest.raises(ValueError, match="paper must be one of hullermeier2022"):
        ref.load_reference_results("zhang2014")
    with pytest.raises(TypeError, match="include_extra must be a bool"):
        ref.load_reference_results(include_extra="yes")
    with pytest.raises(ValueError, match="filename must be one of"):
        ref.reference_file("results.csv")
    with pytest.raises(ValueError, match="unknown algorithm key 'foo'"):
        ref._learner_of("foo", 6)


@needs_mirror
def test_authors_names_accepted():
    # the book's name, the authors' and any case name the same files
    assert F.reference_layout("enron-f") == F.reference_layout("ENRON") == F.reference_layout("enron")
    assert F.reference_layout("llog") == F.reference_layout("llog-f")
    with pytest.raises(ValueError, match="name must be a dataset with released folds"):
        F.reference_layout("scene")


# ------------------------------------------------------------------ committed table
def test_the_committed_profiles_are_the_papers_rows_of_the_files(results):
    # the whole table against the loader (the two files parsed: about 0.1 CPU-s); the
    # released numbers are parsed decimals, written with 17 digits: equal
    saved = released_profiles()
    assert list(saved.columns) == list(ref.RELEASED_COLUMNS)
    assert saved.equals(results[list(ref.RELEASED_COLUMNS)])
    assert tuple(saved["dataset"].unique()) == ref.RELEASED_DATASETS


@pytest.mark.recompute
def test_committed_profiles_match_a_recomputation():
    # medical's cell through the runner, uncached (0.08 CPU-s): equal
    spec = dataclasses.replace(ref.released_spec(), include=lambda c: c["dataset"] == "medical")
    fresh = table(spec, cache_dir=False)
    saved = released_profiles()
    saved = saved[saved["dataset"] == "medical"].reset_index(drop=True)
    assert fresh.equals(saved) and len(fresh) == 1400
    with pytest.raises(ValueError, match="dataset must be one of"):
        ref.released_cell("arts1")
