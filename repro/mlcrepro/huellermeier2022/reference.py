"""The authors' released material for Hüllermeier et al. (2022), read and verified.

Two things come from the authors' public repository KIuML/DependenceAwareMLCLoss (the
paper's footnote 1), see ``../shared/reference/README.md``:

* the pooled loss profiles of every (dataset, algorithm) they ran
  (``result-data/results.kvstore`` at commit :data:`COMMIT`,
  ``result-data/results_boomer.kvstore`` at :data:`COMMIT_BOOMER`):
  :func:`load_reference_results` returns them as a tidy table;
* their ten train/test splits with seed 42 (``datasets/NAME.zip``, MEKA ARFF):
  :func:`reference_folds` reads them, and :func:`verify_folds` checks that each split's
  rows are the rows of :func:`mlcbook.datasets.load_dataset`.

Where the files come from, in this order: a local mirror folder
(``$MLCBOOK_REFERENCE_MIRROR``, else ``../shared/reference/hullermeier2022`` beside the
checkout), the git-ignored cache ``data/cache/reference/``, then a download from the
raw GitHub URL of the named commit into that cache.  Every file's sha256 is checked
before it is read (a mismatch raises :class:`~mlcbook.datasets.ChecksumError` and
nothing is stored); downloads go through :func:`mlcbook.datasets.copy_verified`
(atomic; the temporary file of a killed download is removed by the next call).

The authors' names mapped to the book's (every key of the two files; the tests check):

=====================================  ===============================================
authors' algorithm key                  book learner
=====================================  ===============================================
``br``, ``cc``, ``lc``                  BR, CC, LP (MEKA's ``LC``), each with Weka's J48
``clus``, ``clus-ensemble``             PCT, EPCT (CLUS single tree, ``-forest``)
``boomer_label_wise_logistic_loss``     BOOMER-1
``boomer_example_wise_logistic_loss``   BOOMER-K
``rakel-k`` (k = 1..5, ⌊L/2⌋, L-1)      RAkEL-k{k}-m{L-k+1}: label sets of size k
``rakel``                               CC (extra: see below)
``fw``                                  FW (extra: MEKA's four-class pairwise ``FW``)
=====================================  ===============================================

Two keys are not learners of the paper (``include_extra=True`` keeps them):

* ``fw`` is MEKA's ``FW`` with J48, run by the authors' code, not reported in the paper.
* ``rakel`` (no k) holds CC predictions: in the experimenter
  (``DependenceAwareMLCLossExperimenter.java``, lines 200-261) the ``rakel`` case has no
  ``break`` and falls through ``rakel2`` into the ``cc`` case, which writes
  ``NAME-S-42-rakel.arff`` with a CC model.  On the five datasets where both keys
  pooled all 10 folds (birds, emotions, flags, scene, yeast) the ``rakel`` and ``cc``
  profiles are bit-for-bit identical (a test checks this).
  The same fall-through settles the size of the RAkEL ensembles: ``evaluateModel`` skips
  any output file that already exists (line 488), so the ``rakel2`` loop (m = ⌊3K/k⌋)
  finds the ``rakel-k`` files of k = 2..5 written by the ``rakel`` loop (m = L - k + 1)
  and skips them.  Every released ``rakel-k`` row therefore used m = L - k + 1, with L
  the experimenter's label count :data:`CODE_LABELS` (= K except flags: L = 12, K = 7).

Datasets: ``enron-f`` -> enron, ``llog-f`` -> llog (MEKA versions); flags is run with 7
labels (``L=7``).  Eleven Yahoo datasets (``arts1``, ...) appear only with CLUS and
RAkEL rows; they are not in the paper and kept only with ``include_extra=True``.

How a profile was computed (``DataToKVStorePreparer.java``): the test predictions of the
folds that finished (``size`` of them) are concatenated, thresholded at 0.5, and each
loss is the mean over all those instances -- pooled, not a mean of fold means.
"""

from __future__ import annotations

import os
import re
import tempfile
import zipfile
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
import scipy.sparse as sp

from mlcbook.datasets import cache_dir, copy_verified, load_dataset
from mlcbook.datasets.arff import DatasetFormatError, ParsedARFF, parse_arff, read_arff_header
from mlcbook.datasets.fetch import (
    ChecksumError,
    DataNotFoundError,
    sha256_of,
    sweep_stale_temporaries,
)
from mlcrepro import _paths
from mlcrepro.huellermeier2022.names import LEARNER_NAMES

__all__ = [
    "PAPERS",
    "COMMIT",
    "COMMIT_BOOMER",
    "FILES",
    "ALPHAS",
    "ALGORITHMS",
    "DATASETS",
    "CODE_LABELS",
    "FOLD_DATASETS",
    "RESULT_COLUMNS",
    "ReferenceSplit",
    "ReferenceFolds",
    "FoldsLayout",
    "FoldsMatch",
    "reference_file",
    "read_kvstore",
    "load_reference_results",
    "reference_folds",
    "reference_layout",
    "verify_folds",
]

#: Papers whose authors released material read here.
PAPERS = ("hullermeier2022",)

REPO = "KIuML/DependenceAwareMLCLoss"
#: The repository's commit of the folds and ``results.kvstore`` (2021-07-26).
COMMIT = "aa511e64a608495ce45f17ab9e45db899ca81be6"
#: The commit holding ``result-data/results_boomer.kvstore`` (2021-07-23).
COMMIT_BOOMER = "ec5921a90c47e09c354938551e83ab8cfae74dad"
_RAW = "https://raw.githubusercontent.com/{repo}/{commit}/{path}"

_FOLD_NAMES = ("birds", "emotions", "enron-f", "flags", "genbase", "llog-f", "medical")


def _spec(path: str, commit: str, sha: str) -> tuple[str, str]:
    return sha, _RAW.format(repo=REPO, commit=commit, path=path)


#: ``file name -> (sha256, download URL)``; names and sha256 as in the mirror's README.
FILES: dict[str, tuple[str, str]] = {
    "results.kvstore": _spec(
        "result-data/results.kvstore",
        COMMIT,
        "eaca6e87214f8ec948ebd6c1d1acbb22337748248e4d7953b6b6f1b4499b4a5a",
    ),
    "results_boomer.kvstore": _spec(
        "result-data/results_boomer.kvstore",
        COMMIT_BOOMER,
        "6b063aeb10dd949ed8ccd91b749d621438dfa153102414ccc1887aea28de480f",
    ),
    **{
        f"folds-{n}.zip": _spec(f"datasets/{n}.zip", COMMIT, sha)
        for n, sha in zip(
            _FOLD_NAMES,
            (
                "1c99d893e6d0be69c812c9780cb3a8f9fa8f5d92aa4b5cbcaaa48d602771f04b",
                "e837e34c4e4200266f34833f2bbee56b13ec047e4515b52334c3801cdd59993e",
                "719c1e217249de5505dc9b6caeea421edcd51ddd67187c730920cba31fe28e13",
                "999a5fcef8d1ace336f9630018f9ec894902908a533e8ff870a3e96956c6b320",
                "8985a4ea83c9bab57db28843285c8d91c9e9dd6734a8ef7e8e201bdd1ec2700d",
                "920f613468cac61f80c8dabb80706c97cef279e30ad3cc0895d7c3ae9ddcf55c",
                "a99d72f6944eb212628683fb8acf37cda65146f6cb4b3bccb3b74ac81322b024",
            ),
        )
    },
}


def _alpha_grid() -> tuple[float, ...]:
    """The 55 alphas of ``GeneralConfig.POLYNOMIAL_SCALES``, in the files' order."""
    hundredths = [1 + i / 100 for i in range(11)]  # 1, 1.01, ..., 1.1
    tenths = [1 + i / 10 for i in range(2, 11)]  # 1.2, ..., 2
    return tuple(round(a, 2) for a in hundredths + tenths) + tuple(
        float(a) for a in [*range(3, 21), *range(30, 101, 10), *range(200, 1001, 100)]
    )


#: The polynomial loss family's alpha values (Eq. 17 of the paper), in the files' order.
ALPHAS: tuple[float, ...] = _alpha_grid()

#: Authors' algorithm key -> (book learner, in the paper): the paper's learners as
#: :data:`~mlcrepro.huellermeier2022.names.LEARNER_NAMES` names them, and two extras.
#: ``rakel-k`` keys are matched by their k; the learner is ``RAkEL-k{k}-m{L-k+1}``
#: (module docstring).
ALGORITHMS: dict[str, tuple[str, bool]] = {
    **{n.authors: (n.paper, True) for n in LEARNER_NAMES},
    "rakel": ("CC", False),
    "fw": ("FW", False),
}
_RAKEL = re.compile(r"rakel-([1-9]\d*)")

#: The label counts the experimenter uses for RAkEL's k and m (``numLabels``, lines
#: 144-168 of ``DependenceAwareMLCLossExperimenter.java``).  They equal the files' ``L``
#: except for flags: 12 in the code, 7 labels in the data, hence flags' ``rakel-6`` and
#: ``rakel-11`` (k = floor(12/2), 12 - 1) with m = 12 - k + 1 on 7 labels.
CODE_LABELS: dict[str, int] = {
    "arts1": 26,
    "bibtex": 159,
    "birds": 19,
    "bookmarks": 208,
    "business1": 30,
    "computers1": 33,
    "education1": 33,
    "emotions": 6,
    "enron-f": 53,
    "entertainment1": 21,
    "flags": 12,
    "genbase": 27,
    "health1": 32,
    "llog-f": 75,
    "mediamill": 101,
    "medical": 45,
    "recreation1": 22,
    "reference1": 33,
    "scene": 6,
    "science1": 40,
    "social1": 39,
    "society1": 27,
    "tmc2007": 22,
    "yeast": 14,
}

#: Authors' dataset name -> (book dataset name, in the paper).
DATASETS: dict[str, tuple[str, bool]] = {
    "birds": ("birds", True),
    "emotions": ("emotions", True),
    "enron-f": ("enron", True),
    "flags": ("flags", True),
    "genbase": ("genbase", True),
    "llog-f": ("llog", True),
    "medical": ("medical", True),
    "scene": ("scene", True),
    "yeast": ("yeast", True),
    **{
        y: (y, False)
        for y in (
            "arts1",
            "business1",
            "computers1",
            "education1",
            "entertainment1",
            "health1",
            "recreation1",
            "reference1",
            "science1",
            "social1",
            "society1",
        )
    },
}

#: Book dataset name -> authors' name, for the datasets whose folds were released.
FOLD_DATASETS: dict[str, str] = {DATASETS[n][0]: n for n in _FOLD_NAMES}

#: Columns of :func:`load_reference_results`.
RESULT_COLUMNS = (
    "dataset",
    "learner",
    "family",
    "param",
    "loss",
    "folds",
    "K",
    "rakel_k",
    "rakel_m",
    "algorithm",
    "dataset_key",
    "in_paper",
)

_N_SPLITS = 10
_SEED = 42


# ------------------------------------------------------------------ files
def _mirror_dir() -> Path | None:
    env = os.environ.get("MLCBOOK_REFERENCE_MIRROR")
    if env is not None:
        return Path(env) if env else None
    default = _paths.shared_dir() / "reference" / "hullermeier2022"
    return default if default.is_dir() else None


def _cache_dir() -> Path:
    return cache_dir() / "reference"


def reference_file(
    filename: str, *, download: bool | None = None, timeout: float = 60.0
) -> tuple[Path, str]:
    """A verified local copy of one released file, and where it came from.

    Parameters
    ----------
    filename : str
        One of :data:`FILES` (``"results.kvstore"``, ``"folds-emotions.zip"``, ...).
    download : bool, optional
        Allow downloading from GitHub; default: allowed unless MLCBOOK_DATA_DOWNLOAD=0.
    timeout : float
        Network timeout in seconds.

    Returns
    -------
    path : Path
        The mirror copy (read in place) or the cached copy.
    source : str
        ``"mirror:<path>"``, ``"cache"`` or ``"download:<url>"``.

    Raises
    ------
    ValueError
        Unknown file name (the message lists the known ones).
    ChecksumError
        The mirror copy or the downloaded bytes do not have the registered sha256 (a
        corrupt copy is refused, never used and never stored).
    DownloadError, DataNotFoundError
        The download failed, or no copy exists and downloading is not allowed.
    """
    if not isinstance(filename, str):
        raise TypeError(f"filename must be a str, got {type(filename).__name__}")
    if filename not in FILES:
        raise ValueError(f"filename must be one of {', '.join(sorted(FILES))}; got {filename!r}")
    sha, url = FILES[filename]
    sweep_stale_temporaries(_cache_dir())  # what a killed download left: at once
    mirror = _mirror_dir()
    if mirror is not None and (mirror / filename).is_file():
        src = mirror / filename
        got = sha256_of(src)
        if got != sha:
            raise ChecksumError(
                f"checksum mismatch for {filename} in the mirror {mirror}: expected "
                f"sha256 {sha}, got {got}. The copy is corrupt or another version; it "
                "was not used."
            )
        return src, f"mirror:{src}"
    dest = _cache_dir() / filename
    if dest.is_file() and sha256_of(dest) == sha:
        return dest, "cache"
    try:
        copy_verified(url, dest, sha, download=download, timeout=timeout)
    except DataNotFoundError as exc:
        raise DataNotFoundError(
            f"{filename} is in neither the mirror ({mirror or 'none'}) nor the cache: {exc}."
            " Set MLCBOOK_REFERENCE_MIRROR to a folder holding it."
        ) from exc
    return dest, f"download:{url}"


# ------------------------------------------------------------------ results
def read_kvstore(path: str | os.PathLike) -> list[dict[str, str]]:
    """The records of a jaicore ``KVStoreCollection`` file (one ``k=v;...`` line each).

    The first line (``collectionID=...``) and blank lines are skipped.

    Raises
    ------
    ValueError
        A record line without ``=`` in one of its fields.
    """
    records = []
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    for no, line in enumerate(lines, 1):
        s = line.strip()
        if not s or s.startswith(("collectionID=", "collectinID=")):
            continue
        fields = [f for f in s.split(";") if f]
        if any("=" not in f for f in fields):
            raise ValueError(f"{path}, line {no}: malformed key=value record")
        records.append(dict(f.split("=", 1) for f in fields))
    return records


def _learner_of(key: str, L: int) -> tuple[str, int | None, int | None, bool]:
    """``(learner, rakel_k, rakel_m, in_paper)`` of an authors' algorithm key.

    ``L`` is the experimenter's label count (:data:`CODE_LABELS`), which sets RAkEL's m.
    """
    m = _RAKEL.fullmatch(key)
    if m is not None:
        k = int(m.group(1))
        if not 1 <= k < L:
            raise ValueError(f"algorithm key {key!r}: label-set size outside 1..{L - 1}")
        return f"RAkEL-k{k}-m{L - k + 1}", k, L - k + 1, True
    if key not in ALGORITHMS or key == "rakel-k":
        raise ValueError(
            f"unknown algorithm key {key!r} in the released results; known: "
            f"{', '.join(ALGORITHMS)}"
        )
    learner, in_paper = ALGORITHMS[key]
    return learner, None, None, in_paper


def _profile(record: dict[str, str], field: str, n: int, where: str) -> np.ndarray:
    values = np.array([float(v) for v in record[field].split(",")])
    if values.shape != (n,) or not np.all((values >= 0) & (values <= 1)):
        raise ValueError(
            f"{where}: {field} must hold {n} losses in [0, 1], got {values.size} values"
        )
    return values


def _records() -> dict[tuple[str, str], dict[str, str]]:
    """All records of both files; a pair present in both must be identical."""
    out: dict[tuple[str, str], dict[str, str]] = {}
    for filename in ("results.kvstore", "results_boomer.kvstore"):
        path, _ = reference_file(filename)
        for r in read_kvstore(path):
            missing = {
                "seed",
                "size",
                "moebius",
                "polynomial",
                "L",
                "dataset",
                "algorithm",
            } - set(r)
            if missing:
                raise ValueError(f"{filename}: a record lacks {sorted(missing)}")
            key = (r["dataset"], r["algorithm"])
            if key in out and out[key] != r:
                raise ValueError(f"{filename}: {key} differs from an earlier record")
            out[key] = r
    return out


def load_reference_results(
    paper: str = "hullermeier2022", *, include_extra: bool = False
) -> pd.DataFrame:
    """The authors' released loss profiles as a tidy table.

    Parameters
    ----------
    paper : {'hullermeier2022'}
        Whose results.
    include_extra : bool
        Also return the rows that are not in the paper: the Yahoo datasets, MEKA's
        ``FW`` and the ``rakel`` key (CC predictions, see the module docstring).

    Returns
    -------
    DataFrame
        One row per (dataset, learner, family, param), columns :data:`RESULT_COLUMNS`:
        ``family`` is ``'binomial'`` (Eq. 15 of the paper, ``param`` = k = 1..K, the
        files' ``moebius``) or ``'polynomial'`` (Eq. 17, ``param`` = alpha of
        :data:`ALPHAS`); ``loss`` the pooled mean over the ``folds`` test folds that
        finished (the files' ``size``); ``K`` the number of labels (``L``);
        ``rakel_k``/``rakel_m`` RAkEL's label-set size and ensemble size (else NA);
        ``algorithm``/``dataset_key`` the authors' names; ``in_paper`` False for extra
        rows.  Sorted by dataset, learner, family, then in the files' order.

    Raises
    ------
    ValueError
        Unknown ``paper``; a file whose records are malformed or hold unknown names.
    ChecksumError, DownloadError, DataNotFoundError
        See :func:`reference_file`.
    """
    if not isinstance(paper, str):
        raise TypeError(f"paper must be a str, got {type(paper).__name__}")
    if paper not in PAPERS:
        raise ValueError(f"paper must be one of {', '.join(PAPERS)}; got {paper!r}")
    if not isinstance(include_extra, (bool, np.bool_)):
        raise TypeError(f"include_extra must be a bool, got {type(include_extra).__name__}")
    cols: dict[str, list] = defaultdict(list)
    for (ds_key, algo), r in _records().items():
        if ds_key not in DATASETS:
            raise ValueError(
                f"unknown dataset {ds_key!r} in the released results; known: {', '.join(DATASETS)}"
            )
        dataset, ds_in_paper = DATASETS[ds_key]
        K, folds = int(r["L"]), int(r["size"])
        if int(r["seed"]) != _SEED or not 1 <= folds <= _N_SPLITS:
            raise ValueError(f"{(ds_key, algo)}: seed {r['seed']} / size {folds} unexpected")
        learner, rk, rm, algo_in_paper = _learner_of(algo, CODE_LABELS[ds_key])
        in_paper = ds_in_paper and algo_in_paper
        if not (in_paper or include_extra):
            continue
        where = f"{(ds_key, algo)}"
        for family, params, values in (
            (
                "binomial",
                np.arange(1, K + 1, dtype=float),
                _profile(r, "moebius", K, where),
            ),
            (
                "polynomial",
                np.array(ALPHAS),
                _profile(r, "polynomial", len(ALPHAS), where),
            ),
        ):
            n = len(params)
            cols["dataset"] += [dataset] * n
            cols["learner"] += [learner] * n
            cols["family"] += [family] * n
            cols["param"] += list(params)
            cols["loss"] += list(values)
            cols["folds"] += [folds] * n
            cols["K"] += [K] * n
            cols["rakel_k"] += [rk] * n
            cols["rakel_m"] += [rm] * n
            cols["algorithm"] += [algo] * n
            cols["dataset_key"] += [ds_key] * n
            cols["in_paper"] += [in_paper] * n
    df = pd.DataFrame({c: cols[c] for c in RESULT_COLUMNS})
    df = df.astype(
        {
            "param": float,
            "loss": float,
            "folds": int,
            "K": int,
            "rakel_k": "Int64",
            "rakel_m": "Int64",
            "in_paper": bool,
        }
    )
    df["_order"] = df.groupby(["dataset", "algorithm", "family"]).cumcount()
    df = df.sort_values(["dataset", "learner", "algorithm", "family", "_order"])
    return df.drop(columns="_order").reset_index(drop=True)


# ------------------------------------------------------------------ folds
@dataclass(frozen=True)
class ReferenceSplit:
    """One of the authors' train/test splits: the arrays of their files, in their row
    and column order (sparse files give CSR)."""

    split: int
    X_train: np.ndarray | sp.csr_matrix
    Y_train: np.ndarray
    X_test: np.ndarray | sp.csr_matrix
    Y_test: np.ndarray


@dataclass(frozen=True)
class ReferenceFolds:
    """The authors' ten splits of one dataset, as their files hold them.

    Attributes
    ----------
    dataset, dataset_key : str
        The book's name and the authors' name.
    splits : tuple of ReferenceSplit
        Splits 0..9 (files ``NAME_42_S_train/test.arff``).
    feature_names, label_names : tuple of str
        The authors' column names.
    nominal : dict of int -> tuple of str
        The nominal features of the authors' files: column (their feature order) ->
        value names (the arrays hold value indices 0, 1, ...).
    """

    dataset: str
    dataset_key: str
    splits: tuple[ReferenceSplit, ...]
    feature_names: tuple[str, ...]
    label_names: tuple[str, ...]
    nominal: dict[int, tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class FoldsMatch:
    """How the authors' splits of a dataset match our copy (:func:`verify_folds`).

    Attributes
    ----------
    dataset : str
    n_rows : int
        Rows of our copy; every split's train and test files hold that many.
    shared_features : int
        The authors' features that our copy has too (by name).
    exact : bool
        Every split's train and test rows together are our rows, as a multiset, on all
        features and labels (columns aligned by name).  False where the feature sets
        differ (medical: the authors' MULAN copy has 1449 word features, ours 1909);
        there the label counts per row are compared instead.
    """

    dataset: str
    n_rows: int
    shared_features: int
    exact: bool


def _dataset_key(name: str) -> str:
    if not isinstance(name, str):
        raise TypeError(f"name must be a dataset name (str), got {type(name).__name__}")
    key = name.strip().lower()
    if key in FOLD_DATASETS:
        return FOLD_DATASETS[key]
    if key in FOLD_DATASETS.values():
        return key
    raise ValueError(
        f"name must be a dataset with released folds, one of "
        f"{', '.join(sorted(FOLD_DATASETS))} (or the authors' "
        f"{', '.join(sorted(FOLD_DATASETS.values()))}); got {name!r}"
    )


def _read_splits(key: str, download: bool | None) -> list[tuple[ParsedARFF, ParsedARFF]]:
    path, _ = reference_file(f"folds-{key}.zip", download=download)
    expected = {
        f"{key}_{_SEED}_{s}_{part}.arff" for s in range(_N_SPLITS) for part in ("train", "test")
    }
    with zipfile.ZipFile(path) as z:
        members = set(z.namelist())
        if members != expected:
            raise DatasetFormatError(
                f"{path.name}: expected the members {sorted(expected)[:2]}..., got "
                f"{sorted(members - expected)[:3]} extra, "
                f"{sorted(expected - members)[:3]} missing"
            )
        with tempfile.TemporaryDirectory(prefix="mlcbook-folds-") as tmp:
            z.extractall(tmp)
            out = []
            for s in range(_N_SPLITS):
                tr, te = (
                    parse_arff(Path(tmp) / f"{key}_{_SEED}_{s}_{part}.arff", meka=True)
                    for part in ("train", "test")
                )
                if (tr.feature_names, tr.label_names) != (
                    te.feature_names,
                    te.label_names,
                ):
                    raise DatasetFormatError(
                        f"{path.name}: split {s} train and test files have different attributes"
                    )
                out.append((tr, te))
    first = out[0][0]
    for tr, _ in out[1:]:
        if (tr.feature_names, tr.label_names) != (
            first.feature_names,
            first.label_names,
        ):
            raise DatasetFormatError(f"{path.name}: splits have different attributes")
    return out


_MEDICAL_LABEL = re.compile(r"Class-\d+-(.+)")


def _align_labels(theirs: list[str], ours: tuple[str, ...]) -> np.ndarray:
    """Our column of each of their labels: by name, else by medical's ICD-9 code.

    MULAN's medical names a label ``Class-0-593_70``; our copy ``593.70:Name``.
    """
    pos = {n: i for i, n in enumerate(ours)}
    if set(theirs) == set(pos):
        return np.array([pos[n] for n in theirs])
    codes = {n.split(":", 1)[0]: i for i, n in enumerate(ours)}
    idx = []
    for n in theirs:
        m = _MEDICAL_LABEL.fullmatch(n)
        code = m.group(1).replace("_", ".") if m else None
        if code not in codes:
            raise DatasetFormatError(
                f"label {n!r} of the authors' file has no counterpart in our copy"
            )
        idx.append(codes[code])
    if sorted(idx) != list(range(len(ours))):
        raise DatasetFormatError("the authors' labels do not map one-to-one onto ours")
    return np.array(idx)


def _dense(X) -> np.ndarray:
    return X.toarray() if sp.issparse(X) else np.asarray(X, dtype=float)


def reference_folds(name: str, *, download: bool | None = None) -> ReferenceFolds:
    """The authors' ten train/test splits of a dataset, read from their files.

    Only the authors' zip is read (its sha256 checked); :func:`verify_folds` checks
    that the splits are splits of our copy of the dataset.

    Parameters
    ----------
    name : str
        birds, emotions, enron, flags, genbase, llog or medical (the authors'
        ``enron-f`` and ``llog-f`` are accepted too).  scene, yeast and bibtex have no
        released folds.
    download : bool, optional
        Allow downloading the zip when no local copy exists.

    Returns
    -------
    ReferenceFolds

    Raises
    ------
    ValueError
        Unknown name (the message lists the choices), before any file is read.
    ChecksumError, DownloadError, DataNotFoundError, DatasetFormatError
        A corrupt or unavailable file, or train and test files that disagree.
    """
    key = _dataset_key(name)
    splits = _read_splits(key, download)
    first = splits[0][0]
    return ReferenceFolds(
        dataset=DATASETS[key][0],
        dataset_key=key,
        splits=tuple(
            ReferenceSplit(s, tr.X, tr.Y, te.X, te.Y) for s, (tr, te) in enumerate(splits)
        ),
        feature_names=tuple(first.feature_names),
        label_names=tuple(first.label_names),
        nominal=_nominal_by_column(first.feature_names, first.nominal),
    )


def _nominal_by_column(
    feature_names: list[str], nominal: dict[str, list[str]]
) -> dict[int, tuple[str, ...]]:
    """A parsed file's nominal features keyed by column (feature order) instead of name."""
    return {i: tuple(nominal[f]) for i, f in enumerate(feature_names) if f in nominal}


@dataclass(frozen=True)
class FoldsLayout:
    """The columns of the authors' split files of one dataset, without their rows.

    Attributes
    ----------
    feature_names, label_names : tuple of str
        The authors' column names (as :class:`ReferenceFolds` has them).
    nominal : dict of int -> tuple of str
        The nominal features, as :class:`ReferenceFolds` holds them.
    """

    feature_names: tuple[str, ...]
    label_names: tuple[str, ...]
    nominal: dict[int, tuple[str, ...]]


def reference_layout(name: str, *, download: bool | None = None) -> FoldsLayout:
    """The columns of the authors' splits of a dataset, read from the header of the
    first training file alone (the zip's sha256 checked).

    What a learner's configuration needs (names, labels, nominal categories), at a few
    milliseconds instead of the seconds :func:`reference_folds` takes to read all twenty
    files; :func:`reference_folds` checks that every file has the same columns.

    Parameters
    ----------
    name : str
        A dataset with released folds (as :func:`reference_folds`).
    download : bool, optional
        Allow downloading the zip when no local copy exists.

    Returns
    -------
    FoldsLayout
    """
    key = _dataset_key(name)
    path, _ = reference_file(f"folds-{key}.zip", download=download)
    member = f"{key}_{_SEED}_0_train.arff"
    with zipfile.ZipFile(path) as z, tempfile.TemporaryDirectory(prefix="mlcbook-folds-") as tmp:
        if member not in z.namelist():
            raise DatasetFormatError(f"{path.name}: no member {member}")
        head = read_arff_header(z.extract(member, tmp), meka=True)
    return FoldsLayout(
        feature_names=tuple(head.feature_names),
        label_names=tuple(head.label_names),
        nominal=_nominal_by_column(head.feature_names, head.nominal),
    )


def verify_folds(folds: ReferenceFolds, *, download: bool | None = None) -> FoldsMatch:
    """Check that the authors' splits are splits of our copy (``load_dataset``).

    For every split, the train and test rows together must be the rows of our copy:
    as a multiset of (features, labels) rows where the feature sets agree (columns
    aligned by name; labels by name, or by medical's ICD-9 code), else as a multiset
    of label counts per row.

    Parameters
    ----------
    folds : ReferenceFolds
        From :func:`reference_folds`.
    download : bool, optional
        Allow downloading our copy of the dataset when no local copy exists.

    Returns
    -------
    FoldsMatch

    Raises
    ------
    DatasetFormatError
        A split whose rows are not the rows of our copy, or labels without a
        one-to-one counterpart.
    """
    if not isinstance(folds, ReferenceFolds):
        raise TypeError(f"folds must be a ReferenceFolds, got {type(folds).__name__}")
    X, Y, info = load_dataset(folds.dataset, download=download)
    label_index = _align_labels(list(folds.label_names), info.label_names)
    fpos = {n: i for i, n in enumerate(info.feature_names)}
    exact = all(n in fpos for n in folds.feature_names)
    if exact:
        columns = [fpos[n] for n in folds.feature_names]
        ours = _row_counts(_dense(X)[:, columns], np.asarray(Y)[:, label_index])
    else:
        ours = Counter(np.asarray(Y).sum(1).tolist())
    n = Y.shape[0]
    for s in folds.splits:
        if exact:
            got = _row_counts(_dense(s.X_train), s.Y_train) + _row_counts(
                _dense(s.X_test), s.Y_test
            )
        else:
            got = Counter(np.asarray(s.Y_train).sum(1).tolist()) + Counter(
                np.asarray(s.Y_test).sum(1).tolist()
            )
        if got != ours:
            raise DatasetFormatError(
                f"{folds.dataset_key} split {s.split}: its train and test rows are not the "
                f"{n} rows of our copy"
            )
    return FoldsMatch(folds.dataset, n, sum(f in fpos for f in folds.feature_names), exact)


def _row_counts(X: np.ndarray, Y: np.ndarray) -> Counter:
    A = np.ascontiguousarray(np.hstack([X, np.asarray(Y, dtype=float)]))
    A[np.isnan(A)] = np.inf  # NaN != NaN: give missing values one comparable code
    return Counter(row.tobytes() for row in A)
