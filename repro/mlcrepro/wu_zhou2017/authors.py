"""The authors' released LIMO material (YuriWu/LIMO at commit 4135cf5), read and verified.

Wu & Zhou (2017) released MATLAB code for LIMO with three data sets and the ten
train/test permutations their ``demo.m`` uses (see ``../shared/reference/wu_zhou2017/``
and its README).  The repository has no licence: the project reads and runs it in
place and never copies its code.  This module

* finds the local mirror (``$MLCBOOK_WU_ZHOU_REFERENCE``, else
  ``../shared/reference/wu_zhou2017`` beside the checkout or beside its parent folder)
  and checks every file it uses against the sha256 pinned in :data:`SHA256`
  (a mismatch raises :class:`~mlcbook.datasets.fetch.ChecksumError`);
* loads a data set's ``.mat`` file (:func:`load_authors_dataset`): the features
  ``data`` (n × d), the labels ``targets`` (n × K, coded 0/1 in the three files) and
  the ten permutations ``randperms`` (10 × n, MATLAB's 1-based row numbers).  The
  files store whole numbers compactly (SciPy reports ``uint8``/``uint16``; MATLAB and
  Octave load them as double), and hold a ``folds`` column that ``demo.m`` does not
  use.  Features and rows are those of the registry's data sets, in the same order;
  enron's label columns come in another order (the tests check both);
* turns a permutation into ``demo.m``'s split (:func:`authors_splits`): the first
  ``round(0.3 n)`` rows of the permutation are the test set, the rest (in row order)
  the training set;
* divides each feature by its largest absolute value over the whole data set, as
  ``normalize.m`` does (:func:`normalize_max_abs`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import scipy.io

from mlcbook.datasets.fetch import ChecksumError, DataNotFoundError, sha256_of
from mlcrepro import _paths

__all__ = [
    "COMMIT",
    "DATASETS",
    "SHA256",
    "AuthorsDataset",
    "authors_splits",
    "load_authors_dataset",
    "normalize_max_abs",
    "reference_dir",
    "reference_file",
    "reference_sha256",
]

#: The commit of YuriWu/LIMO mirrored in ``../shared/reference/wu_zhou2017/limo``.
COMMIT = "4135cf5"

#: The data sets of ``demo.m``, in its order (the ``.mat`` file stems).
DATASETS: tuple[str, ...] = ("emotions", "CAL500", "enron")

# ``sha256sum`` lines of every file of the mirror that the project reads or runs
# (the three ``.mat`` digests are the mirror README's)
_SHA256SUMS = """
958fd47be5e5b94dabeb68b077fbe2adbbd49c015fe2e453fe11afeb4a73c7e5  libsvm/COPYRIGHT
c7d2ddc36758b95fdfc00c8116e69bcc18ed458b20037f9a49db1ac535ac9cfd  libsvm/matlab/libsvmread.c
c08fa41b19d6c3ea1a2e181523c3ec44ec218ff82eaab793a9e25d219da11499  libsvm/matlab/libsvmwrite.c
fca2c129af11acc9069d925773c0b359adaa4a3387c737aed58398ccc2c46faf  libsvm/matlab/make.m
aa33c9f2b5fba355cae0685b062f8b044c26682ac3af61a882a4f89db0a6ed84  libsvm/matlab/svm_model_matlab.c
5596b8bb66b57c0a954f40c10c3cbfb902fd416ed2df1537fc1adfe711a82e85  libsvm/matlab/svm_model_matlab.h
e6a2c6302049df7717f43269ae77892753a07548887b7d7907f97609586fb3de  libsvm/matlab/svmpredict.c
4d748224262bd161baf54044be9a3e3a29272100c499e397666f44a0c46d1392  libsvm/matlab/svmtrain.c
bfe02a7c001151ab703c206ff6a9136c75eb704b4427536e3f65d3ac90bd0eb6  libsvm/svm.cpp
597aff50cfb9a04922736472bd125862439c87408a83cb57fb04980744dffd51  libsvm/svm.h
f14c8acb04ad0e48694e06510adf270425ec1ec0b384ca5ef6aed7b137fad605  limo/best_f1_threshold.m
a09dc5c03fc5d68b64e0ab02d93f0cb698cbae76ab7c60e177a522ac5365af61  limo/best_hloss_threshold.m
1094a958dafab803f8495435593ba8aedcce2848b953af11b4c87d6af45d76f5  limo/data/CAL500.mat
01c9771c5d1bc1f024a6686dda976f2c3878b40bff0f98107e3212b14055d587  limo/data/emotions.mat
7955d9a85ea51dc049bc68f4bb4d0cc770d6d51d668eeb8c5554fb0e1c9c5370  limo/data/enron.mat
ad39ef2981a2fa2db392b38e9f5bd5cfe1e70249091087b60234e1d79f29836d  limo/demo.m
205eff9827886970850de965e1edbceaaefe0f3d7e9f7586612ec9da0413f7af  limo/limo_column_threshold.m
d1c59a7895443963703bb1bcab2cff92b5ee2e2c72775252d5b61de4746ee335  limo/limo_init.m
3ece75517fcdb3a4a5f3a479abd1dacee9a38f8dc6e00daf28a1669385fcbd44  limo/limo_main.m
1b88babb9036f584e5432b3c91da041f52ee825ed94b2e4d16a97c09b495d842  limo/limo_predict.m
519b3ffa71ed3709f2535139a759db325b96203d16b17527f23a70f46007dbd8  limo/limo_row_threshold.m
341681e483148a6a22c27b27fe4d2500bf7401ebf95c2e1ae224d3dfa5b69e02  limo/measure/Average_precision.m
39f35a292ddfcd71e355a9f7490655013ba799439f2fb7ddd8dcd95dc3e817a7  limo/measure/Coverage.m
3c69709317371af6ac1bf59aef3ef16514f49309326bad523cd07af1da744568  limo/measure/Hamming_loss.m
a93a5bc82b3dba5f726fc92d0d254ffed2c11e99d648f63c66376476f8fff3a8  limo/measure/Instance_AUC.m
c830133a60cb93d2d559b5e307a7b545117c91ef51cd43ee6691c4c84ca35383  limo/measure/Instance_F1.m
027c045ae8fc6d7bb9a7c42e0e5c6cbc2659a538ee95f876e3f3fb6510abb0f2  limo/measure/Macro_AUC.m
f6b3859d04f3aeafe067660dbb5377990b439fcd45799c60be62ac828064225b  limo/measure/Macro_F1.m
c1c0d7ae24695daddce8c81eba980b030a2aa7be52c3aca65214c53d2cbd9684  limo/measure/Micro_AUC.m
2abc6eceb914c1ac4d36b3d481606c644cc1b7dd8d02d7b848086c35c09a75b6  limo/measure/Micro_F1.m
0d7500d9e93ce5b4599b115f89c2d64fabbebc3859f7bff8db1a4f0bb09e5cac  limo/measure/One_error.m
c916bb243061b52ee0f687e77a2c43bf94046d543369a85e7f008febbf1655f7  limo/measure/Ranking_loss.m
fd1ab7735c2369ffe954006f1536c24b5d4e6c1576e3d4513fb79d0ccd209eae  limo/measure/fast_AUC.m
4e028ce2ef241f314da0893663066ce162d502a063cffde2893b3d8bf9905d3c  limo/measure/perform_measure.m
9cade40b798a45b79464c72b9ee4c3ecef2f5f6cd35e8faab70b8f3ceaf57237  limo/normalize.m
5da3541e50c49612a3e266a70a8a9c3fc7f5fea361728f9f36abea4f4a8516d0  limo/sgd_limo_train.m
"""

#: sha256 of each pinned file, by its path relative to the mirror folder.
SHA256: dict[str, str] = {
    path: digest for digest, path in (line.split() for line in _SHA256SUMS.strip().splitlines())
}

#: The fraction of each permutation that ``demo.m`` takes as test set.
TEST_FRACTION = 0.3

_ENV = "MLCBOOK_WU_ZHOU_REFERENCE"


def reference_dir() -> Path:
    """The local mirror of the authors' material (holding ``limo/`` and ``libsvm/``).

    ``$MLCBOOK_WU_ZHOU_REFERENCE`` names it; otherwise ``shared/reference/wu_zhou2017``
    beside the checkout, or beside the checkout's parent folder (a git worktree).

    Raises
    ------
    DataNotFoundError
        No such folder exists.
    """
    env = os.environ.get(_ENV)
    candidates = (
        [Path(env)]
        if env
        else [
            _paths.shared_dir() / "reference" / "wu_zhou2017",
            _paths.project_root().parents[1] / "shared" / "reference" / "wu_zhou2017",
        ]
    )
    for folder in candidates:
        if (folder / "limo").is_dir():
            return folder
    raise DataNotFoundError(
        "the authors' LIMO material (a folder holding limo/ and libsvm/) was not found at "
        f"{', '.join(str(c) for c in candidates)}; set {_ENV} to the folder"
    )


def reference_file(relative: str) -> Path:
    """The mirror's file ``relative`` (a key of :data:`SHA256`), its sha256 checked.

    Raises
    ------
    ValueError
        ``relative`` is not a pinned file.
    ChecksumError
        The file's content differs from the pinned digest.
    """
    if relative not in SHA256:
        raise ValueError(f"relative must be one of the pinned files of SHA256, got {relative!r}")
    path = reference_dir() / relative
    if not path.is_file():
        raise DataNotFoundError(f"{path} is missing from the authors' material")
    digest = sha256_of(path)
    if digest != SHA256[relative]:
        raise ChecksumError(
            f"{path} has sha256 {digest}, expected {SHA256[relative]} "
            f"(YuriWu/LIMO {COMMIT} / LIBSVM 3.37)"
        )
    return path


def reference_sha256(prefix: str = "") -> dict[str, str]:
    """Verify every pinned file under ``prefix`` and return ``{path: sha256}`` (provenance)."""
    chosen = [rel for rel in sorted(SHA256) if rel.startswith(prefix)]
    for rel in chosen:
        reference_file(rel)
    return {rel: SHA256[rel] for rel in chosen}


@dataclass(frozen=True)
class AuthorsDataset:
    """One of the authors' ``.mat`` files.

    Attributes
    ----------
    name : str
        The file stem (``"emotions"``, ``"CAL500"``, ``"enron"``).
    X : ndarray of shape (n, d)
        The features as stored (not normalised; see :func:`normalize_max_abs`).
    Y : ndarray of shape (n, K), int8
        The labels, 1 = relevant, 0 = irrelevant.
    randperms : ndarray of shape (10, n), int64
        The ten permutations as stored: MATLAB's 1-based row numbers.
    """

    name: str
    X: np.ndarray
    Y: np.ndarray
    randperms: np.ndarray


def _dense(a: object) -> np.ndarray:
    if hasattr(a, "toarray"):
        a = a.toarray()
    return np.asarray(a)


def load_authors_dataset(name: str) -> AuthorsDataset:
    """Load ``limo/data/NAME.mat`` (sha256 checked) with the labels coded 0/1.

    Parameters
    ----------
    name : {"emotions", "CAL500", "enron"}
        A data set of ``demo.m``.

    Raises
    ------
    ValueError
        Unknown ``name``, or a file whose arrays do not fit together
        (shapes, label coding other than 0/1 or -1/1, permutations that are not
        permutations of 1..n).
    """
    if name not in DATASETS:
        raise ValueError(f"name must be one of {DATASETS}, got {name!r}")
    path = reference_file(f"limo/data/{name}.mat")
    mat = scipy.io.loadmat(str(path))
    X = _dense(mat["data"]).astype(np.float64)
    targets = _dense(mat["targets"]).astype(np.float64)
    perms = _dense(mat["randperms"])
    n = X.shape[0]
    if targets.shape[0] != n and targets.shape[1] == n:  # K x n, as older MATLAB code keeps it
        targets = targets.T
    if targets.shape[0] != n:
        raise ValueError(f"{path}: targets {targets.shape} do not fit data {X.shape}")
    values = set(np.unique(targets).tolist())
    if not values <= {0.0, 1.0} and not values <= {-1.0, 1.0}:
        raise ValueError(f"{path}: targets must be coded 0/1 or -1/1, found {sorted(values)}")
    Y = (targets == 1).astype(np.int8)  # limo_main.m: targets == -1 -> 0
    if perms.ndim != 2 or perms.shape[1] != n:
        raise ValueError(f"{path}: randperms {perms.shape} is not (splits, {n})")
    perms = perms.astype(np.int64)
    expected = np.arange(1, n + 1)
    for row, perm in enumerate(perms):
        if not np.array_equal(np.sort(perm), expected):
            raise ValueError(f"{path}: randperms row {row} is not a permutation of 1..{n}")
    return AuthorsDataset(name=name, X=X, Y=Y, randperms=perms)


def authors_splits(randperms: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """``demo.m``'s (train, test) row indices (0-based) for each permutation.

    ``test_idx = perm(1:round(0.3*n))``; the training rows are all others in
    increasing order (``train_idx = 1:n; train_idx(test_idx) = []``).  MATLAB's
    ``round`` rounds halves away from zero, which :func:`numpy.floor` of
    ``x + 0.5`` reproduces for positive ``x``.

    Examples
    --------
    >>> import numpy as np
    >>> [(tr.tolist(), te.tolist()) for tr, te in authors_splits(np.array([[3, 1, 4, 2, 5]]))]
    [([1, 3, 4], [2, 0])]
    """
    perms = np.asarray(randperms)
    if perms.ndim != 2 or not np.issubdtype(perms.dtype, np.integer):
        raise ValueError(f"randperms must be a 2-D integer array, got {perms.dtype} {perms.shape}")
    n = perms.shape[1]
    n_test = int(np.floor(TEST_FRACTION * n + 0.5))
    splits = []
    for perm in perms:
        test = perm[:n_test] - 1
        mask = np.ones(n, dtype=bool)
        mask[test] = False
        splits.append((np.flatnonzero(mask), test.astype(np.int64)))
    return splits


def normalize_max_abs(X: np.ndarray) -> np.ndarray:
    """Divide each column by its largest absolute value, as ``normalize.m`` does.

    A column of zeros gives 0/0 = NaN in MATLAB; here too (NumPy warns nothing,
    the division is done with ``errstate(invalid="ignore")``), so that a data set
    where that happens is seen rather than silently repaired.

    Examples
    --------
    >>> normalize_max_abs(np.array([[1.0, -4.0], [-2.0, 2.0]])).tolist()
    [[0.5, -1.0], [-1.0, 0.5]]
    """
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D, got shape {X.shape}")
    with np.errstate(invalid="ignore", divide="ignore"):
        return X / np.abs(X).max(axis=0)
