"""The authors' released material for Hüllermeier et al. (2022), read and verified.

Two things come from the authors' public repository KIuML/DependenceAwareMLCLoss (the
paper's footnote 1), see ``../shared/reference/README.md``:

* the pooled loss profiles of every (dataset, algorithm) they ran
  (``result-data/results.kvstore`` at commit :data:`COMMIT`,
  ``result-data/results_boomer.kvstore`` at :data:`COMMIT_BOOMER`):
  :func:`load_reference_results` returns them as a tidy table;
* their ten train/test splits with seed 42 (``datasets/NAME.zip``, MEKA ARFF), read by
  :mod:`~mlcrepro.huellermeier2022.folds`.

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
from collections import defaultdict
from pathlib import Path

import numpy as np
import pandas as pd

from mlcbook.datasets import cache_dir, copy_verified
from mlcbook.datasets.fetch import (
    ChecksumError,
    DataNotFoundError,
    sha256_of,
    sweep_stale_temporaries,
)
from mlcrepro import _paths
from mlcrepro.huellermeier2022.names import LEARNER_NAMES
from mlcrepro.runner import Spec

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
    "N_SPLITS",
    "SEED",
    "reference_file",
    "read_kvstore",
    "load_reference_results",
    "RELEASED_TABLE",
    "RELEASED_COLUMNS",
    "RELEASED_DATASETS",
    "released_cell",
    "released_config",
    "released_spec",
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

#: The authors' protocol: ten train/test splits, drawn with seed 42.
N_SPLITS = 10
SEED = 42

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


def _add_record(
    cols: dict[str, list], ds_key: str, algo: str, r: dict[str, str], *, include_extra: bool
) -> None:
    """Append one released record's rows (both loss families) to the columns ``cols``;
    a record not in the paper is skipped unless ``include_extra``."""
    if ds_key not in DATASETS:
        raise ValueError(
            f"unknown dataset {ds_key!r} in the released results; known: {', '.join(DATASETS)}"
        )
    dataset, ds_in_paper = DATASETS[ds_key]
    K, folds = int(r["L"]), int(r["size"])
    if int(r["seed"]) != SEED or not 1 <= folds <= N_SPLITS:
        raise ValueError(f"{(ds_key, algo)}: seed {r['seed']} / size {folds} unexpected")
    learner, rk, rm, algo_in_paper = _learner_of(algo, CODE_LABELS[ds_key])
    in_paper = ds_in_paper and algo_in_paper
    if not (in_paper or include_extra):
        return
    where = f"{(ds_key, algo)}"
    head = {
        "dataset": dataset,
        "learner": learner,
        "folds": folds,
        "K": K,
        "rakel_k": rk,
        "rakel_m": rm,
        "algorithm": algo,
        "dataset_key": ds_key,
        "in_paper": in_paper,
    }
    for family, params, values in (
        ("binomial", np.arange(1, K + 1, dtype=float), _profile(r, "moebius", K, where)),
        ("polynomial", np.array(ALPHAS), _profile(r, "polynomial", len(ALPHAS), where)),
    ):
        n = len(params)
        for column, value in head.items():
            cols[column] += [value] * n
        cols["family"] += [family] * n
        cols["param"] += list(params)
        cols["loss"] += list(values)


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
        _add_record(cols, ds_key, algo, r, include_extra=bool(include_extra))
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


# ------------------------------------------------------------------ committed table
#: the committed table of the released profiles (:func:`released_spec`)
RELEASED_TABLE = "dependence_released"
#: its columns: what :func:`~mlcrepro.huellermeier2022.authors_compare.compare_with_authors`
#: and the Sec. 5.3 counts read of :func:`load_reference_results`
RELEASED_COLUMNS = ("dataset", "learner", "family", "param", "loss", "folds", "K")
#: its datasets (book names, the paper's nine), in :func:`load_reference_results`'s order
RELEASED_DATASETS: tuple[str, ...] = tuple(
    sorted(d for d, in_paper in DATASETS.values() if in_paper)
)
_KVSTORES = ("results.kvstore", "results_boomer.kvstore")


def released_cell(dataset: str) -> pd.DataFrame:
    """One dataset's rows of the committed table: :func:`load_reference_results` (the
    paper's rows) of ``dataset``, its :data:`RELEASED_COLUMNS`, in the same order.

    Raises
    ------
    ValueError
        ``dataset`` is not one of :data:`RELEASED_DATASETS`.
    """
    if dataset not in RELEASED_DATASETS:
        raise ValueError(f"dataset must be one of {RELEASED_DATASETS}, got {dataset!r}")
    rows = load_reference_results()
    rows = rows.loc[rows["dataset"] == dataset, list(RELEASED_COLUMNS)]
    return rows.reset_index(drop=True)


def released_config() -> dict:
    """The specification of the committed table: the key of ``results.load_or_compute``,
    from the two files' recorded sha256 and download addresses (no file read).

    >>> sorted(released_config()["files"])
    ['results.kvstore', 'results_boomer.kvstore']
    """
    return {
        "experiment": "Hüllermeier et al. (2022): the authors' released loss profiles",
        "files": {f: {"sha256": FILES[f][0], "url": FILES[f][1]} for f in _KVSTORES},
        "datasets": list(RELEASED_DATASETS),
        "columns": list(RELEASED_COLUMNS),
        "rows": "the paper's learners and datasets (include_extra=False)",
    }


def released_spec() -> Spec:
    """The table as a runner spec: one cell per dataset, keyed by the files' sha256."""
    config = released_config()
    return Spec(
        RELEASED_TABLE,
        released_cell,
        {"dataset": list(RELEASED_DATASETS)},
        key={k: v for k, v in config.items() if k != "datasets"},
    )
