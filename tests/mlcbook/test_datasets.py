"""Tests of mlcbook.datasets: registry, verified fetching, ARFF parsing, statistics.

The shape tests read the real files of the local mirror (``../shared/datasets`` or
``MLCBOOK_DATA_MIRROR``) through the project cache; they are skipped where no mirror exists.
The failure tests work in ``tmp_path`` (cache and mirror redirected with environment
variables) and check that nothing is left behind.  Downloading is tested against a local
``http.server`` on 127.0.0.1; nothing here touches the outside network.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import http.server
import os
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

import mlcbook.datasets as ds
from mlcbook.datasets import load as load_mod
from mlcbook.datasets.arff import (
    DatasetFormatError,
    parse_arff,
    read_arff_header,
    read_mulan_labels,
    unescape_arff,
)
from mlcbook.datasets.registry import SHA256

MIRROR = ds.mirror_dir()
HAVE_MIRROR = MIRROR is not None and (MIRROR / "flags.arff").is_file()


@pytest.fixture
def _mirror():
    """Tests that read the real benchmark files need the local mirror: fail, never skip."""
    if not HAVE_MIRROR:
        pytest.fail("these tests read the benchmark files: set MLCBOOK_DATA_MIRROR to a folder "
                    "holding them (SOURCES.md), or place ../shared/datasets beside the project")


needs_mirror = pytest.mark.usefixtures("_mirror")

# (name, subset) -> (instances, features, labels, sparse): the documented shapes
SHAPES = {
    ("birds", "all"): (645, 260, 19, False),
    ("birds", "train"): (322, 260, 19, False),
    ("birds", "test"): (323, 260, 19, False),
    ("emotions", "all"): (593, 72, 6, False),
    ("emotions", "train"): (391, 72, 6, False),
    ("emotions", "test"): (202, 72, 6, False),
    ("enron", "all"): (1702, 1001, 53, True),
    ("enron", "train"): (1123, 1001, 53, True),
    ("enron", "test"): (579, 1001, 53, True),
    ("flags", "all"): (194, 19, 7, False),
    ("flags", "train"): (129, 19, 7, False),
    ("flags", "test"): (65, 19, 7, False),
    ("flags-12", "all"): (194, 14, 12, False),
    ("flags-12", "train"): (129, 14, 12, False),
    ("flags-12", "test"): (65, 14, 12, False),
    ("genbase", "all"): (662, 1186, 27, False),
    ("genbase", "train"): (463, 1186, 27, False),
    ("genbase", "test"): (199, 1186, 27, False),
    ("llog", "all"): (1460, 1004, 75, True),
    ("medical", "all"): (978, 1909, 45, True),
    ("medical-cmc", "all"): (1954, 1909, 45, True),
    ("medical-cmc", "train"): (978, 1909, 45, True),
    ("medical-cmc", "test"): (976, 1909, 45, True),
    ("scene", "all"): (2407, 294, 6, False),
    ("scene", "train"): (1211, 294, 6, False),
    ("scene", "test"): (1196, 294, 6, False),
    ("yeast", "all"): (2417, 103, 14, False),
    ("yeast", "train"): (1500, 103, 14, False),
    ("yeast", "test"): (917, 103, 14, False),
    ("slashdot", "all"): (3782, 3125, 20, True),
    ("slashdot", "train"): (3025, 3125, 20, True),
    ("slashdot", "test"): (757, 3125, 20, True),
    ("cal500", "all"): (502, 68, 174, False),
    ("bibtex", "all"): (7395, 1836, 159, True),
    ("bibtex", "train"): (4880, 1836, 159, True),
    ("bibtex", "test"): (2515, 1836, 159, True),
}

# Table 2 of Hüllermeier et al. (2022): n, K, K/n, distinct combinations, cardinality
TABLE2 = {
    "birds": (645, 19, 0.0295, 133, 1.01),
    "emotions": (593, 6, 0.0101, 27, 1.87),
    "enron": (1702, 53, 0.0311, 753, 3.38),
    "flags-12": (194, 12, 0.0619, 103, 4.12),
    "genbase": (662, 27, 0.0408, 32, 1.25),
    "llog": (1460, 75, 0.0514, 304, 1.18),
    "medical": (978, 45, 0.0460, 94, 1.25),
    "scene": (2407, 6, 0.0025, 15, 1.07),
    "yeast": (2417, 14, 0.0058, 198, 4.24),
}


# ------------------------------------------------------------------ fixtures / helpers
@pytest.fixture
def sandbox(tmp_path, monkeypatch):
    """Cache and mirror in tmp_path; downloads forbidden unless a test allows them."""
    cache = tmp_path / "cache"
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    monkeypatch.setenv("MLCBOOK_DATA", str(cache))
    monkeypatch.setenv("MLCBOOK_DATA_MIRROR", str(mirror))
    monkeypatch.setenv("MLCBOOK_DATA_DOWNLOAD", "0")
    return cache, mirror


def cache_files(cache: Path) -> list[Path]:
    """Every file under the cache (including hidden temporaries)."""
    return sorted(p for p in cache.rglob("*") if p.is_file()) if cache.exists() else []


def copy_from_mirror(mirror: Path, *names: str) -> None:
    for n in names:
        shutil.copyfile(MIRROR / n, mirror / n)


def with_spec(monkeypatch, name: str, **changes) -> ds.DatasetSpec:
    """Make load_dataset see a modified registry entry for ``name``."""
    spec = dataclasses.replace(ds.get_spec(name), **changes)
    real = load_mod.get_spec
    monkeypatch.setattr(load_mod, "get_spec", lambda n: spec if n == name else real(n))
    return spec


def same_matrix(a, b) -> bool:
    if sp.issparse(a) != sp.issparse(b) or a.shape != b.shape:
        return False
    if sp.issparse(a):
        return (np.array_equal(a.indptr, b.indptr) and np.array_equal(a.indices, b.indices)
                and np.array_equal(a.data, b.data, equal_nan=True))
    return np.array_equal(a, b, equal_nan=True)


# ------------------------------------------------------------------ registry
def test_registry_lists_every_dataset_of_sources_md():
    names = set(ds.list_datasets())
    assert {"birds", "emotions", "enron", "flags", "genbase", "llog", "medical", "scene",
            "yeast", "slashdot", "cal500", "bibtex", "corel5k"} <= names
    assert "corel5k" not in ds.list_datasets(available_only=True)
    for spec in ds.REGISTRY.values():
        assert spec.citation and spec.home.startswith("http") and spec.url.startswith("https://")
        assert set(spec.sha256) >= set(spec.files.values())


@needs_mirror
def test_registered_sha256_match_sources_md_and_files():
    text = (MIRROR / "SOURCES.md").read_text(encoding="utf-8")
    table = dict(re.findall(r"^\| (\S+\.(?:arff|xml)) \| \d+ \| ([0-9a-f]{64}) \|$", text, re.M))
    assert table == SHA256
    for name, digest in SHA256.items():
        assert ds.fetch.sha256_of(MIRROR / name) == digest, name


def test_unknown_name_lists_known_datasets():
    with pytest.raises(ds.UnknownDatasetError) as exc:
        ds.load_dataset("no-such-set")
    msg = str(exc.value)
    assert "no-such-set" in msg and "emotions" in msg and "yeast" in msg
    assert isinstance(exc.value, KeyError)
    with pytest.raises(TypeError, match="name"):
        ds.load_dataset(3)


def test_bad_subset_and_unavailable_dataset():
    with pytest.raises(ValueError, match="subset must be one of"):
        ds.load_dataset("llog", subset="train")
    with pytest.raises(ds.DatasetUnavailableError, match="corel5k"):
        ds.load_dataset("corel5k")


# ------------------------------------------------------------------ real files
@needs_mirror
@pytest.mark.parametrize("key", sorted(SHAPES), ids=lambda k: f"{k[0]}-{k[1]}")
def test_every_dataset_loads_with_documented_shape(key):
    name, subset = key
    n, d, k, sparse = SHAPES[key]
    X, Y, info = ds.load_dataset(name, subset=subset)
    assert X.shape == (n, d) and Y.shape == (n, k)
    assert sp.isspmatrix_csr(X) if sparse else isinstance(X, np.ndarray)
    assert X.dtype == np.float64
    assert isinstance(Y, np.ndarray) and Y.dtype == np.int64
    assert np.isin(Y, (0, 1)).all()
    assert info.sparse == sparse and info.n_features == d and info.n_labels == k
    assert len(set(info.feature_names)) == d and len(set(info.label_names)) == k
    assert all(info.sha256[f] == SHA256[f] for f in info.files)


@needs_mirror
def test_every_subset_of_the_registry_is_covered_by_the_shape_table():
    keys = {(n, s) for n in ds.list_datasets(True) for s in ds.get_spec(n).subsets}
    assert keys == set(SHAPES)


@needs_mirror
def test_birds_label_name_is_unescaped():
    _, _, info = ds.load_dataset("birds")
    assert "Swainson's Thrush" in info.label_names
    assert list(info.label_names) == read_mulan_labels(MIRROR / "birds.xml")


@needs_mirror
def test_scene_all_is_train_then_test():
    X, Y, _ = ds.load_dataset("scene")
    Xa, Ya, _ = ds.load_dataset("scene", "train")
    Xb, Yb, _ = ds.load_dataset("scene", "test")
    assert np.array_equal(X, np.vstack([Xa, Xb])) and np.array_equal(Y, np.vstack([Ya, Yb]))


def _row_multiset(X, Y):
    X = X.toarray() if sp.issparse(X) else X
    rows = np.hstack([np.round(X, 6), Y])
    return rows[np.lexsort(rows.T[::-1])]


@needs_mirror
@pytest.mark.parametrize("name", ["birds", "emotions", "enron", "flags", "yeast", "slashdot"])
def test_full_file_holds_the_rows_of_train_plus_test(name):
    X, Y, _ = ds.load_dataset(name)
    Xa, Ya, _ = ds.load_dataset(name, "train")
    Xb, Yb, _ = ds.load_dataset(name, "test")
    Xu = sp.vstack([Xa, Xb]) if sp.issparse(Xa) else np.vstack([Xa, Xb])
    assert np.allclose(_row_multiset(X, Y), _row_multiset(Xu, np.vstack([Ya, Yb])),
                       atol=1e-5, equal_nan=True)


@needs_mirror
def test_genbase_split_files_are_not_a_partition():
    X, Y, info = ds.load_dataset("genbase")
    Xa, _, ia = ds.load_dataset("genbase", "train")
    Xb, _, ib = ds.load_dataset("genbase", "test")
    full = {info.nominal["protein"][int(v)] for v in X[:, 0]}
    split = [ia.nominal["protein"][int(v)] for v in Xa[:, 0]]
    split += [ib.nominal["protein"][int(v)] for v in Xb[:, 0]]
    assert len(full) == 662 and len(split) == 662 and len(set(split)) == 661
    assert full - set(split) == {"O88658"} and split.count("Q9XEL8") == 2


@needs_mirror
def test_medical_findings():
    """medical.arff = 978 challenge training + 976 test reports; train/test files identical."""
    labels = read_mulan_labels(MIRROR / "medical.xml")
    full = parse_arff(MIRROR / "medical.arff", label_names=labels)
    tr = parse_arff(MIRROR / "medical-train.arff", label_names=labels)
    te = parse_arff(MIRROR / "medical-test.arff", label_names=labels)
    for other in (tr, te):
        assert same_matrix(full.X, other.X) and np.array_equal(full.Y, other.Y)
    rows = np.hstack([full.X.toarray(), full.Y])
    assert len(np.unique(rows, axis=0)) == 1910
    X, Y, _ = ds.load_dataset("medical")
    Xc, Yc, _ = ds.load_dataset("medical-cmc", "train")
    assert same_matrix(X, Xc) and np.array_equal(Y, Yc)
    assert same_matrix(X, full.X[:978]) and np.array_equal(Y, full.Y[:978])
    st_ = ds.dataset_statistics({"m": Y})
    assert st_.loc["m", "distinct_combinations"] == 94
    assert st_.loc["m", "cardinality"] == pytest.approx(1.2454, abs=5e-5)


@needs_mirror
def test_flags_12_are_colours_plus_symbol_attributes():
    X7, Y7, i7 = ds.load_dataset("flags")
    X12, Y12, i12 = ds.load_dataset("flags-12")
    assert i12.label_names[:7] == i7.label_names
    assert i12.label_names[7:] == ("crescent", "triangle", "icon", "animate", "text")
    cols = [i7.feature_names.index(c) for c in i12.label_names[7:]]
    assert np.array_equal(Y12, np.hstack([Y7, X7[:, cols].astype(np.int64)]))


@needs_mirror
def test_table2_statistics_of_the_paper():
    stats = ds.dataset_statistics(list(TABLE2))
    for name, (n, k, ratio, combos, card) in TABLE2.items():
        row = stats.loc[name]
        assert (row["instances"], row["labels"], row["distinct_combinations"]) == (n, k, combos)
        assert abs(row["label_to_instance_ratio"] - ratio) <= 5e-5
        assert abs(row["cardinality"] - card) <= 5e-3


@needs_mirror
def test_nominal_features_are_ordinal_codes():
    X, _, info = ds.load_dataset("genbase")
    assert info.nominal["PS00010"] == ("YES", "NO")
    assert len(info.nominal["protein"]) == 662
    j = info.feature_names.index("protein")
    assert len(np.unique(X[:, j])) == 662 and X[:, j].min() == 0
    assert set(np.unique(X[:, 1:])) <= {0.0, 1.0}


@needs_mirror
def test_parsed_cache_gives_identical_arrays(sandbox):
    cache, mirror = sandbox
    copy_from_mirror(mirror, "emotions.arff", "emotions.xml")
    X1, Y1, i1 = ds.load_dataset("emotions")
    assert i1.source["emotions.arff"].startswith("mirror:")
    X2, Y2, i2 = ds.load_dataset("emotions")
    assert i2.source["emotions.arff"].startswith("parsed-cache:")
    assert np.array_equal(X1, X2) and np.array_equal(Y1, Y2) and i1.label_names == i2.label_names
    # a damaged .npz is dropped and rebuilt
    (npz,) = (cache / "parsed").glob("*.npz")
    npz.write_bytes(b"not a zip file")
    with pytest.warns(RuntimeWarning, match="corrupt parsed-cache entry"):
        X3, Y3, i3 = ds.load_dataset("emotions")
    assert np.array_equal(X1, X3) and not i3.source["emotions.arff"].startswith("parsed-cache")
    assert not list(cache.rglob("*.tmp"))


@needs_mirror
@pytest.mark.parametrize("f", ["flags.arff", "emotions-test.arff", "enron-test.arff",
                               "medical.arff", "slashdot-train.arff", "genbase-test.arff"])
def test_fast_reader_equals_liac_arff_on_real_files(f):
    spec = next(s for s in ds.REGISTRY.values() if f in s.files.values())
    labels = read_mulan_labels(MIRROR / spec.xml)
    kw = dict(label_names=labels, repairs=spec.repairs.get(f, ()))
    a = parse_arff(MIRROR / f, fast=True, **kw)
    b = parse_arff(MIRROR / f, fast=False, **kw)
    assert same_matrix(a.X, b.X) and np.array_equal(a.Y, b.Y)
    assert (a.feature_names, a.label_names, a.nominal) == (b.feature_names, b.label_names, b.nominal)
    # the header alone names the same columns and categories, without reading the rows
    h = read_arff_header(MIRROR / f, label_names=labels)
    assert (h.feature_names, h.label_names, h.nominal, h.relation) == (
        a.feature_names, a.label_names, a.nominal, a.relation)


def test_the_header_reader_refuses_what_parse_arff_refuses(tmp_path):
    path = tmp_path / "toy.arff"
    path.write_text("@relation 'toy: -C 1'\n@attribute a {0,1}\n@attribute x numeric\n")
    with pytest.raises(DatasetFormatError, match="no @data line"):
        read_arff_header(path, meka=True)
    with pytest.raises(ValueError, match="exactly one of label_names"):
        read_arff_header(path)
    path.write_text("@relation 'toy: -C 1'\n@attribute a {0,2}\n@attribute x numeric\n@data\n")
    for read in (read_arff_header, parse_arff):
        with pytest.raises(DatasetFormatError, match="not 0/1"):
            read(path, meka=True)
    path.write_text("@relation toy\n@attribute a {0,1}\n@attribute x numeric\n@data\n")
    for read in (read_arff_header, parse_arff):
        with pytest.raises(DatasetFormatError, match="label attributes not found"):
            read(path, label_names=["b"])


@needs_mirror
@pytest.mark.slow
def test_fast_reader_equals_liac_arff_on_every_registered_file():
    for spec in ds.REGISTRY.values():
        if not spec.available:
            continue
        labels = read_mulan_labels(MIRROR / spec.xml) + list(spec.extra_labels)
        for f in set(spec.files.values()):
            kw = dict(label_names=labels, repairs=spec.repairs.get(f, ()))
            a = parse_arff(MIRROR / f, fast=True, **kw)
            b = parse_arff(MIRROR / f, fast=False, **kw)
            assert same_matrix(a.X, b.X) and np.array_equal(a.Y, b.Y), f
            assert a.feature_names == b.feature_names and a.nominal == b.nominal, f


# ------------------------------------------------------------------ parsing (synthetic files)
HEADER = """% a comment
@relation 'toy: -C {c}'
@attribute 'lab\\'a' {{0,1}}
@attribute colour {{red, 'dark blue', green}}
@attribute x numeric
@attribute lab_b {{1,0}}
@data
"""


def test_mulan_and_meka_layouts(tmp_path):
    f = tmp_path / "toy.arff"
    f.write_text(HEADER.format(c=1) + "1,red,0.5,0\n0,green,?,1\n0,'dark blue',2,1\n")
    p = parse_arff(f, label_names=["lab'a", "lab_b"])
    assert p.label_names == ["lab'a", "lab_b"] and p.feature_names == ["colour", "x"]
    assert np.array_equal(p.Y, [[1, 0], [0, 1], [0, 1]])
    assert np.array_equal(p.X, [[0, 0.5], [2, np.nan], [1, 2]], equal_nan=True)
    assert p.nominal == {"colour": ["red", "dark blue", "green"]}
    q = parse_arff(f, meka=True)  # -C 1: the first attribute
    assert q.label_names == ["lab'a"] and q.Y[:, 0].tolist() == [1, 0, 0]
    g = tmp_path / "toy2.arff"
    g.write_text(HEADER.format(c=-1) + "1,red,0.5,0\n")
    r = parse_arff(g, meka=True)  # -C -1: the last attribute
    assert r.label_names == ["lab_b"] and r.Y.tolist() == [[0]]
    with pytest.raises(ValueError, match="exactly one"):
        parse_arff(f)
    with pytest.raises(ds.DatasetFormatError, match="not found"):
        parse_arff(f, label_names=["nope"])
    with pytest.raises(ds.DatasetFormatError, match="0/1"):
        parse_arff(f, label_names=["x"])


def test_meka_layout_through_the_registry(sandbox, monkeypatch):
    """A registry entry with label_layout='meka' needs no XML: -C n locates the labels."""
    cache, mirror = sandbox
    text = HEADER.format(c=-2) + "1,red,0,0\n0,green,1,1\n"
    (mirror / "toy.arff").write_text(text)
    digest = hashlib.sha256(text.encode()).hexdigest()
    with_spec(monkeypatch, "flags", files={"all": "toy.arff"}, sha256={"toy.arff": digest},
              label_layout="meka", xml=None, n_labels=2, extra_labels=(), rows={})
    X, Y, info = ds.load_dataset("flags")
    assert info.label_names == ("x", "lab_b") and np.array_equal(Y, [[0, 0], [1, 1]])
    assert info.files == ("toy.arff",) and info.sha256 == {"toy.arff": digest}
    assert X.shape == (2, 2) and info.feature_names == ("lab'a", "colour")


def test_info_is_json_serialisable():
    import json

    info = ds.DatasetInfo(name="t", subset="all", feature_names=("a",), label_names=("y",),
                          nominal={"a": ("p", "q")}, sparse=False, files=("t.arff",),
                          sha256={"t.arff": "0" * 64}, source={}, home="h", url="u",
                          citation="c", n_samples=1)
    assert json.loads(json.dumps(info.as_dict()))["nominal"] == {"a": ["p", "q"]}
    assert (info.n_features, info.n_labels) == (1, 1)


def test_unescape_arff():
    assert unescape_arff(r"Swainson\'s Thrush") == "Swainson's Thrush"
    assert unescape_arff(r"a\\b") == "a\\b" and unescape_arff(r"tab\there") == "tab\there"


def test_sparse_with_empty_rows(tmp_path):
    f = tmp_path / "s.arff"
    f.write_text("@relation s\n@attribute a numeric\n@attribute b numeric\n"
                 "@attribute y {0,1}\n@data\n{0 1.5,2 1}\n{}\n{1 2}\n{}\n")
    for fast in (True, False):
        p = parse_arff(f, label_names=["y"], fast=fast)
        assert sp.isspmatrix_csr(p.X) and p.X.shape == (4, 2)
        assert np.array_equal(p.X.toarray(), [[1.5, 0], [0, 0], [0, 2], [0, 0]])
        assert p.Y.ravel().tolist() == [1, 0, 0, 0]


@st.composite
def arff_texts(draw):
    n_num = draw(st.integers(0, 3))
    n_nom = draw(st.integers(0, 2))
    k = draw(st.integers(1, 3))
    n = draw(st.integers(0, 6))
    sparse = draw(st.booleans())
    cats = ["0", "1"] if sparse else ["a", "b", "c"]
    attrs = [(f"x{i}", "numeric") for i in range(n_num)]
    attrs += [(f"c{i}", "{" + ",".join(cats) + "}") for i in range(n_nom)]
    attrs += [(f"y{i}", "{0,1}") for i in range(k)]
    num = st.one_of(st.integers(-5, 5).map(str),
                    st.floats(-1e3, 1e3, allow_nan=False).map(repr), st.just("?"))
    rows = []
    for _ in range(n):
        vals = [draw(num) for _ in range(n_num)] + [draw(st.sampled_from(cats)) for _ in range(n_nom)]
        vals += [draw(st.sampled_from(["0", "1"])) for _ in range(k)]
        if sparse:
            rows.append("{" + ",".join(f"{j} {v}" for j, v in enumerate(vals)
                                       if v not in ("0", "0.0", "-0.0")) + "}")
        else:
            rows.append(",".join(vals))
    head = "@relation t\n" + "".join(f"@attribute {a} {t}\n" for a, t in attrs) + "@data\n"
    return head + "\n".join(rows) + "\n", [f"y{i}" for i in range(k)]


@settings(max_examples=60, deadline=None)
@given(arff_texts())
def test_fast_reader_equals_liac_arff_on_generated_files(tmp_path_factory, case):
    text, labels = case
    f = tmp_path_factory.mktemp("arff") / "t.arff"
    f.write_text(text)
    a = parse_arff(f, label_names=labels, fast=True)
    b = parse_arff(f, label_names=labels, fast=False)
    assert same_matrix(a.X, b.X) and np.array_equal(a.Y, b.Y) and a.nominal == b.nominal


# ------------------------------------------------------------------ integrity failures
@needs_mirror
def test_corrupted_byte_is_refused_and_nothing_is_cached(sandbox):
    cache, mirror = sandbox
    copy_from_mirror(mirror, "flags.arff", "flags.xml")
    data = bytearray((mirror / "flags.arff").read_bytes())
    data[len(data) // 2] ^= 0x01
    (mirror / "flags.arff").write_bytes(bytes(data))
    with pytest.raises(ds.ChecksumError, match="flags.arff.*expected sha256"):
        ds.load_dataset("flags")
    assert not any(p.name.startswith(("flags.arff", ".flags.arff")) for p in cache_files(cache))
    assert not [p for p in cache_files(cache) if p.suffix in (".tmp", ".npz")]


@needs_mirror
def test_truncated_file_is_refused_and_nothing_is_cached(sandbox):
    cache, mirror = sandbox
    copy_from_mirror(mirror, "emotions.arff", "emotions.xml")
    data = (mirror / "emotions.arff").read_bytes()
    (mirror / "emotions.arff").write_bytes(data[: len(data) // 3])
    with pytest.raises(ds.ChecksumError, match="truncated"):
        ds.load_dataset("emotions")
    assert [p.name for p in cache_files(cache)] == ["emotions.xml"]


@needs_mirror
def test_wrong_registered_checksum_is_refused(sandbox, monkeypatch):
    cache, mirror = sandbox
    copy_from_mirror(mirror, "flags.arff", "flags.xml")
    sha = dict(ds.get_spec("flags").sha256)
    sha["flags.arff"] = "0" * 64
    with_spec(monkeypatch, "flags", sha256=sha)
    with pytest.raises(ds.ChecksumError, match="0{64}"):
        ds.load_dataset("flags")
    assert [p.name for p in cache_files(cache)] == ["flags.xml"]


@needs_mirror
def test_damaged_cache_entry_is_replaced(sandbox):
    cache, mirror = sandbox
    copy_from_mirror(mirror, "flags.arff", "flags.xml")
    cache.mkdir()
    (cache / "flags.arff").write_bytes(b"@relation broken\n")
    X, Y, info = ds.load_dataset("flags", cache=False)
    assert X.shape == (194, 19) and info.source["flags.arff"].startswith("mirror:")
    assert ds.fetch.sha256_of(cache / "flags.arff") == SHA256["flags.arff"]


def test_missing_mirror_without_download_is_a_clear_error(sandbox, monkeypatch, tmp_path):
    cache, _ = sandbox
    gone = tmp_path / "no-such-mirror"
    monkeypatch.setenv("MLCBOOK_DATA_MIRROR", str(gone))
    with pytest.raises(ds.DataNotFoundError) as exc:
        ds.load_dataset("emotions", download=False)
    msg = str(exc.value)
    assert "emotions" in msg and str(gone) in msg and "does not exist" in msg
    assert "download disabled" in msg and "MLCBOOK_DATA_MIRROR" in msg
    assert cache_files(cache) == []


def test_corrupt_arff_with_matching_checksum_is_a_format_error(sandbox, monkeypatch):
    cache, mirror = sandbox
    bad = b"@relation x\n@attribute a numeric\n@attribute y {0,1}\n@data\n1,0\n2\n"
    (mirror / "flags.arff").write_bytes(bad)
    (mirror / "flags.xml").write_text(
        '<labels xmlns="http://mulan.sourceforge.net/labels"><label name="y"></label></labels>')
    sha = {"flags.arff": hashlib.sha256(bad).hexdigest(),
           "flags.xml": ds.fetch.sha256_of(mirror / "flags.xml")}
    with_spec(monkeypatch, "flags", sha256=sha, n_labels=1)
    with pytest.raises(ds.DatasetFormatError, match="corrupt or truncated"):
        ds.load_dataset("flags", subset="all")
    assert not (cache / "parsed").exists()


# ------------------------------------------------------------------ download (local server)
@pytest.fixture
def http_root(tmp_path):
    """An http.server on 127.0.0.1 serving tmp_path/www; yields (folder, base URL)."""
    root = tmp_path / "www"
    root.mkdir()
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    handler.log_message = lambda *a, **k: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield root, f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


@needs_mirror
def test_download_from_local_http_server(sandbox, monkeypatch, http_root):
    cache, _ = sandbox
    root, url = http_root
    shutil.copyfile(MIRROR / "flags.arff", root / "flags.arff")
    shutil.copyfile(MIRROR / "flags.xml", root / "flags.xml")
    monkeypatch.setenv("MLCBOOK_DATA_MIRROR", "")  # no mirror
    with_spec(monkeypatch, "flags", url=url)
    with pytest.raises(ds.DataNotFoundError):
        ds.load_dataset("flags")  # MLCBOOK_DATA_DOWNLOAD=0 in the sandbox
    X, Y, info = ds.load_dataset("flags", download=True)
    assert X.shape == (194, 19) and Y.shape == (194, 7)
    assert info.source["flags.arff"] == f"download:{url}flags.arff"
    assert ds.fetch.sha256_of(cache / "flags.arff") == SHA256["flags.arff"]
    _, _, again = ds.load_dataset("flags", download=False, cache=False)
    assert again.source["flags.arff"] == "cache"


@needs_mirror
def test_download_of_corrupt_copy_leaves_nothing(sandbox, monkeypatch, http_root):
    cache, _ = sandbox
    root, url = http_root
    data = bytearray((MIRROR / "flags.arff").read_bytes())
    data[100] ^= 0x20
    (root / "flags.arff").write_bytes(bytes(data))
    shutil.copyfile(MIRROR / "flags.xml", root / "flags.xml")
    monkeypatch.setenv("MLCBOOK_DATA_MIRROR", "")
    with_spec(monkeypatch, "flags", url=url)
    with pytest.raises(ds.ChecksumError, match="flags.arff"):
        ds.load_dataset("flags", download=True)
    assert [p.name for p in cache_files(cache)] == ["flags.xml"]


def test_download_http_error_and_refused_connection(sandbox, monkeypatch, http_root):
    cache, _ = sandbox
    _, url = http_root
    monkeypatch.setenv("MLCBOOK_DATA_MIRROR", "")
    with pytest.raises(ds.DownloadError, match="404"):
        ds.fetch_file("flags.arff", SHA256["flags.arff"], url + "flags.arff", download=True)
    with pytest.raises(ds.DownloadError, match="failed"):
        ds.fetch_file("flags.arff", SHA256["flags.arff"], "http://127.0.0.1:9/flags.arff",
                      download=True, timeout=5)
    assert cache_files(cache) == []


@needs_mirror
def test_interrupted_download_leaves_nothing(sandbox, monkeypatch, tmp_path):
    """The server announces the full length but closes the connection half way."""
    cache, _ = sandbox
    body = (MIRROR / "flags.arff").read_bytes()

    class Half(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.close_connection = True

        def log_message(self, *a):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Half)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/flags.arff"
        monkeypatch.setenv("MLCBOOK_DATA_MIRROR", "")
        with pytest.raises(ds.DownloadError):
            ds.fetch_file("flags.arff", SHA256["flags.arff"], url, download=True, timeout=10)
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
    assert cache_files(cache) == []


def test_no_network_at_import():
    code = ("import socket\n"
            "def refuse(*a, **k): raise AssertionError('network at import')\n"
            "socket.socket.connect = refuse\n"
            "socket.create_connection = refuse\n"
            "import mlcbook.datasets\n")
    env = dict(os.environ, MLCBOOK_DATA="/nonexistent-cache-dir")
    subprocess.run([sys.executable, "-c", code], check=True, env=env)


# ------------------------------------------------------------------ statistics
def test_statistics_by_hand():
    Y = np.array([[1, 0, 1], [0, 0, 1], [1, 0, 1], [0, 0, 0]])
    t = ds.dataset_statistics({"toy": (np.zeros((4, 5)), Y)})
    row = t.loc["toy"]
    assert (row["instances"], row["features"], row["labels"]) == (4, 5, 3)
    assert row["label_to_instance_ratio"] == pytest.approx(3 / 4)
    assert row["distinct_combinations"] == 3
    assert row["cardinality"] == pytest.approx(5 / 4)
    assert row["density"] == pytest.approx(5 / 12)
    assert list(t.columns) == list(ds.STATISTICS_COLUMNS)
    s = ds.dataset_statistics(sp.csr_matrix(Y))
    assert s.loc["Y", "distinct_combinations"] == 3 and np.isnan(s.loc["Y", "features"])
    with pytest.raises(ValueError, match="Y"):
        ds.dataset_statistics([[0, 2]])


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 30), st.integers(1, 12), st.integers(0, 2**31 - 1))
def test_distinct_combinations_match_a_set_of_tuples(n, k, seed):
    Y = np.random.default_rng(seed).integers(0, 2, size=(n, k))
    row = ds.label_statistics(Y)
    assert row["distinct_combinations"] == len({tuple(r) for r in Y})
    assert row["cardinality"] == pytest.approx(Y.sum() / n)
