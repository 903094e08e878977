"""PCT and EPCT: the authors' CLUS (``Clus.jar``) run from Python at its defaults.

Hüllermeier et al. (2022, Sec. 5.2) ran predictive clustering trees with CLUS
(Blockeel et al. 1998; Kocev et al. 2013) through their experimenter
(``DependenceAwareMLCLossExperimenter.java`` of KIuML/DependenceAwareMLCLoss, below
"EXP:line"), with a settings file that names only the data and the targets
(EXP:270)::

    [Data]
    File = train.arff
    TestSet = test.arff
    [Attributes]
    Target = <the label columns>
    [Output]
    WritePredictions = Test

so every other setting is CLUS's default.  Their jar (``libs/Clus.jar`` of that
repository, built 2011-09-22) is on GitHub only; :class:`ClusPCT` runs by default the
CLUS that PyPI distributes, ``pyclus`` 1.0.2 (``clus/clus.jar``, a later CLUS,
sha256 :data:`PYCLUS_JAR_SHA256`, installed with the book's environment), with the same
settings file, and accepts the authors' jar instead (``jar=``).  Two defaults changed
between the two builds, both of the forest: the PyPI jar grows 100 trees and averages
their class distributions (``[Ensemble] Iterations = 100``, ``VotingType =
ProbabilityDistribution``), the 2011 jar 10 trees with majority votes (its prediction
file holds vote counts 0..10 and ten model names per row).  :class:`ClusPCT` restates
the 2011 values in the settings file when it runs the PyPI jar.  Every other setting
CLUS prints in its ``.out`` file is equal in both builds (diffed on flags, single tree
and forest; only the spelling of lists and two unused options differ), and the single
tree's prediction file is identical byte for byte on the authors' flags split 0.  The
forest's bootstrap samples are drawn differently by the two builds, so EPCT from the
PyPI jar is the same learner with other random draws, not the authors' forests.
The defaults in force, as CLUS prints themThe defaults in force, as CLUS prints them in its
``.out`` file:

* single tree (PCT): ``Heuristic = Gain`` (information gain summed over the
  targets), ``BinarySplit = Yes``, ``PruningMethod = C4.5`` (confidence 0.25 with
  subtree raising, ``clus.pruning.C45Pruner``), ``MinimalWeight = 2.0`` (at least two
  examples per leaf), no F-test stopping, no depth or size limit;
* ``-forest`` (EPCT, EXP:400-402): ``Bagging`` of 10 unpruned trees
  (``PruningMethod = Default``) on all features, ``RandomSeed = 0``.

Predictions follow the authors' post-processing exactly: for the single tree the
score of label j is the pruned leaf's relative frequency
``n_j(1) / (n_j(1) + n_j(0))`` (EXP:460-463), for the forest the number of trees
voting for label j divided by 10 (EXP:454-456, 472; ``normalizeBy`` = 10), and a label
is predicted relevant iff its score is ``>= 0.5``
(``ArrayUtil.thresholdDoubleToBinary*``
of jaicore, ``x >= threshold``).  A leaf without examples (score 0/0) predicts 0.

Why the jar and not a PCT written here: the jar is the authors' learner itself, and
driven this way it gives the authors' released numbers exactly (measured on their
folds, ``notes/clus_boomer_agreement.py``): EPCT's pooled binomial and polynomial
profiles on birds, genbase and llog (all ten folds) and on emotions, medical and
enron (one subset of nine folds; the authors pooled nine) equal the released ones to
rounding (|difference| <= 1.1e-15), as do PCT's on those six datasets for one subset
of as many folds as the authors pooled (6-8; which ones is not recorded).  A
re-implementation could at best equal that.  flags (7 labels) is the exception, not
yet explained: EPCT's pooled Hamming loss is 0.2526 against the authors' 0.2629 on
all ten folds.  The cost is one JVM start per fit (about 0.4 CPU-s): per fold 0.4-0.7
CPU-s on flags, 0.8-1.6 on emotions, 1.5-7 on birds, genbase and medical, 5-22 on
enron and llog (the forest the upper end), nearly all of it CLUS's own induction; the
ARFF files are written with each distinct number printed once (0.2 s on enron, where
printing every value took 2 s).

The data reach CLUS as the authors' wrapper wrote them
(``ClusWrapperClassification.makeClusCompliant``): a dense ARFF file with the
features first (nominal features declared nominal, see ``nominal_features``), then
one ``{0,1}`` attribute per label, numeric values printed with at most six digits
after the decimal point as Weka's ``Instance.toString`` does, ``?`` for a missing
value.  The training rows are written in the order given, which matters for the
forest (its bootstrap samples are drawn by row position).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted

from .._validation import check_label_matrix
from ..datasets.fetch import ChecksumError, cache_dir, copy_verified, fetch_file, sha256_of

__all__ = [
    "CLUS_COMMIT",
    "CLUS_SHA256",
    "PYCLUS_JAR_SHA256",
    "pyclus_jar",
    "CLUS_URL",
    "ClusPCT",
    "clus_jar",
    "java_executable",
]

#: The authors' repository commit holding ``libs/Clus.jar`` (2021-07-26).
CLUS_COMMIT = "aa511e64a608495ce45f17ab9e45db899ca81be6"
#: Where the jar is downloaded from.
CLUS_URL = (
    f"https://raw.githubusercontent.com/KIuML/DependenceAwareMLCLoss/{CLUS_COMMIT}/libs/Clus.jar"
)
#: sha256 of that file (2 049 603 bytes).
CLUS_SHA256 = "e732a75b885fda4558588620502c6e472bc67686ce670a3ff993822a6ad6e494"

#: sha256 of ``clus/clus.jar`` in the PyPI wheel ``pyclus`` 1.0.2 (14 782 639 bytes).
PYCLUS_JAR_SHA256 = "be05e2564c2b6eeb607b2565e4358fffa1a48beb5c5b359566b2ed8e69112a84"

#: The 2011 forest defaults, restated for the PyPI jar (see the module docstring).
_ENSEMBLE_2011 = "[Ensemble]\nIterations = 10\nVotingType = Majority\n"
#: The single tree's JVM compiles with C1 only: a PCT run lasts a few seconds, and
#: HotSpot's optimising C2 compiler cost more CPU than it saved there (measured on the
#: study's fold 0, CPU-s default -> C1: llog 5.7 -> 3.1, scene 6.6 -> 3.7, enron
#: 4.0 -> 2.3, emotions 1.2 -> 0.6), while the forest's longer runs gain from it (llog
#: 13.9 -> 16.3 with C1 only) and keep the default.  The compiler changes no result: Java
#: 17 computes floating point strictly whatever compiles the code, and the prediction
#: files were equal byte for byte.
_PCT_JIT = ("-XX:TieredStopAtLevel=1",)
#: CLUS's forest clones objects by reflection, which Java 17 allows only when asked.
_OPENS = (
    "--add-opens",
    "java.base/java.lang=ALL-UNNAMED",
    "--add-opens",
    "java.base/java.util=ALL-UNNAMED",
)


def pyclus_jar() -> Path:
    """``clus/clus.jar`` of the installed PyPI package ``pyclus``, sha256-verified.

    Raises
    ------
    ImportError
        ``pyclus`` is not installed (the book's environment has it).
    ChecksumError
        The file is not the registered 1.0.2 jar.
    """
    from importlib import metadata

    try:
        path = Path(str(metadata.distribution("pyclus").locate_file("clus/clus.jar")))
    except metadata.PackageNotFoundError as err:
        raise ImportError(
            "PCT/EPCT need CLUS: `pip install pyclus==1.0.2` (the book's environment "
            "includes it), or pass jar= the authors' Clus.jar"
        ) from err
    got = sha256_of(path)
    if got != PYCLUS_JAR_SHA256:
        raise ChecksumError(f"{path}: sha256 {got}, expected {PYCLUS_JAR_SHA256}")
    return path


def clus_jar(*, download: bool | None = None) -> Path:
    """A verified local copy of the authors' ``Clus.jar``.

    Looked for in this order: the cache ``data/cache/Clus.jar`` (``MLCBOOK_DATA``
    moves it), a local copy named by ``MLCBOOK_CLUS_JAR`` (verified, then copied into
    the cache), the dataset mirror, a download from :data:`CLUS_URL`.  Every copy is
    checked against :data:`CLUS_SHA256` before use.

    Parameters
    ----------
    download : bool, optional
        Allow downloading (default: unless ``MLCBOOK_DATA_DOWNLOAD=0``).

    Raises
    ------
    ChecksumError
        A copy does not have the registered sha256 (it is not used).
    DataNotFoundError, DownloadError
        No copy can be obtained; the message says how to get one.
    """
    local = os.environ.get("MLCBOOK_CLUS_JAR")
    if local:  # verified into the cache, where fetch_file finds it
        copy_verified(
            local, cache_dir() / "Clus.jar", CLUS_SHA256, origin=f"MLCBOOK_CLUS_JAR {local}"
        )
    return fetch_file("Clus.jar", CLUS_SHA256, CLUS_URL, download=download)[0]


def java_executable() -> str:
    """The ``java`` command (``$JAVA_HOME/bin/java`` first, then ``PATH``).

    Raises
    ------
    RuntimeError
        No Java runtime is installed; the message says how to get one.
    """
    home = os.environ.get("JAVA_HOME")
    if home and (Path(home) / "bin" / "java").is_file():
        return str(Path(home) / "bin" / "java")
    found = shutil.which("java")
    if found is None:
        raise RuntimeError(
            "CLUS needs a Java runtime and none was found; run `make weka` (it "
            "installs Debian's default-jdk-headless) or set JAVA_HOME"
        )
    return found


def _number(v: float) -> str:
    if np.isnan(v):
        return "?"
    text = f"{v:.6f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def _quote(name: str) -> str:
    if name and all(c.isalnum() or c in "._-+" for c in name):
        return name
    return "'" + name.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _write_arff(
    path: Path, X: np.ndarray, Y: np.ndarray, nominal: Mapping[int, Sequence[str]]
) -> None:
    lines = ["@relation mlcbook", ""]
    for j in range(X.shape[1]):
        if j in nominal:
            lines.append(f"@attribute a{j} {{{','.join(_quote(v) for v in nominal[j])}}}")
        else:
            lines.append(f"@attribute a{j} numeric")
    lines += [f"@attribute y{k} {{0,1}}" for k in range(Y.shape[1])]
    lines += ["", "@data"]
    cells = np.empty((X.shape[0], X.shape[1] + Y.shape[1]), dtype=object)
    numeric = [j for j in range(X.shape[1]) if j not in nominal]
    if numeric:  # each distinct value printed once (binary word counts: two strings)
        values, where = np.unique(X[:, numeric], return_inverse=True)
        printed = np.array([_number(v) for v in values], dtype=object)
        cells[:, numeric] = printed[where.reshape(-1)].reshape(X.shape[0], len(numeric))
    for j in nominal:
        col = X[:, j]
        names = np.array([_quote(v) for v in nominal[j]] + ["?"], dtype=object)
        idx = np.where(np.isnan(col), len(nominal[j]), col).astype(np.int64)
        cells[:, j] = names[idx]
    cells[:, X.shape[1] :] = np.where(Y > 0, "1", "0")
    lines += [",".join(r) for r in cells.tolist()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _read_predictions(path: Path, n: int, K: int, ensemble: bool) -> np.ndarray:
    """The authors' per-label scores from CLUS's ``.test.pred.arff`` (EXP:440-472)."""
    text = path.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(text) if line.strip().upper() == "@DATA") + 1
    rows = [line.split(",") for line in text[start:] if line.strip()]
    if len(rows) != n:
        raise RuntimeError(f"CLUS wrote {len(rows)} predictions for {n} test rows ({path})")
    # columns: K true labels, K predicted classes, 2K counts (value 1, value 0) of the
    # unpruned tree / forest, its model string, then (single tree) the same for the
    # pruned tree: K classes, 2K counts, model string.
    first = 2 * K if ensemble else 5 * K + 1
    counts = np.array([r[first : first + 2 * K] for r in rows], dtype=float).reshape(n, K, 2)
    if ensemble:
        return counts[:, :, 0] / 10.0
    total = counts.sum(axis=2)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, counts[:, :, 0] / np.where(total > 0, total, 1), 0.0)


class ClusPCT(ClassifierMixin, BaseEstimator):
    """CLUS's predictive clustering tree (PCT) or its bagged forest (EPCT).

    The authors' ``Clus.jar`` learns and predicts in one run, so :meth:`fit` checks
    and keeps the training data and :meth:`predict` runs CLUS on them together with
    the test rows (deterministic: CLUS's seed is fixed, so repeated calls agree).

    Parameters
    ----------
    ensemble : bool
        False: one pruned tree (PCT); True: CLUS ``-forest``, bagging of 10 unpruned
        trees (EPCT).
    nominal_features : dict of int -> list of str, optional
        Features that are nominal in the data file: column index -> value names;
        the column then holds value indices (as :func:`mlcbook.datasets.arff.parse_arff`
        returns them).  CLUS splits nominal features by value subsets, numeric ones
        by thresholds.  Default: every feature numeric.
    random_seed : int
        CLUS's ``RandomSeed`` (used by the forest's bootstrap samples); its default 0.
    java_options : tuple of str
        Extra options for the JVM (e.g. ``("-Xmx2g",)``).
    jar : str, optional
        Path of the authors' ``Clus.jar`` (sha256 :data:`CLUS_SHA256`, see
        :func:`clus_jar`); default: the PyPI build (:func:`pyclus_jar`) with the 2011
        forest defaults restated.

    Attributes
    ----------
    n_features_in_ : int
    n_outputs_ : int
        Number of labels K.

    Notes
    -----
    The wrapped defaults, how scores are read and thresholded, and the sources are in
    the module docstring (:mod:`mlcbook.learners.clus`).
    """

    def __init__(
        self,
        ensemble: bool = False,
        nominal_features: Mapping[int, Sequence[str]] | None = None,
        random_seed: int = 0,
        java_options: tuple[str, ...] = (),
        jar: str | None = None,
    ):
        self.ensemble = ensemble
        self.nominal_features = nominal_features
        self.random_seed = random_seed
        self.java_options = java_options
        self.jar = jar

    # -- validation
    def _check_params(self) -> dict[int, list[str]]:
        if not isinstance(self.ensemble, (bool, np.bool_)):
            raise TypeError(f"ensemble must be a bool, got {self.ensemble!r}")
        if (
            isinstance(self.random_seed, bool)
            or not isinstance(self.random_seed, (int, np.integer))
            or self.random_seed < 0
        ):
            raise ValueError(f"random_seed must be a non-negative int, got {self.random_seed!r}")
        if not isinstance(self.java_options, (tuple, list)) or not all(
            isinstance(o, str) for o in self.java_options
        ):
            raise TypeError(f"java_options must be a tuple of str, got {self.java_options!r}")
        nominal = {} if self.nominal_features is None else self.nominal_features
        if not isinstance(nominal, Mapping):
            raise TypeError(
                "nominal_features must be a dict column -> value names, "
                f"got {type(nominal).__name__}"
            )
        out = {}
        for j, values in nominal.items():
            if (
                isinstance(j, bool)
                or not isinstance(j, (int, np.integer, str))
                or not str(j).isdigit()
            ):
                raise ValueError(f"nominal_features keys must be column indices, got {j!r}")
            if (
                isinstance(values, str)
                or not all(isinstance(v, str) for v in values)
                or not values
            ):
                raise ValueError(f"nominal_features[{j}] must be a non-empty list of str")
            out[int(j)] = list(values)
        return out

    def _check_X(self, X, *, fitting: bool) -> np.ndarray:
        if sp.issparse(X):
            X = X.toarray()
        if isinstance(X, (str, bytes)) or X is None:
            raise TypeError(f"X must be a numeric array, got {type(X).__name__}")
        raw = np.asarray(X)
        # real numbers only: a cast to float would drop the imaginary part of complex
        # numbers and parse strings; an object array is cast element by element
        # (float() refuses complex numbers and None)
        if raw.dtype.kind not in "biufO":
            raise TypeError(f"X must hold real numbers, got dtype {raw.dtype}")
        try:
            X = raw.astype(float)
        except (TypeError, ValueError) as err:
            raise TypeError(f"X must hold real numbers: {err}") from err
        if raw.dtype == object and any(isinstance(v, (str, bytes)) for v in raw.flat):
            raise TypeError("X must hold real numbers, found text")
        if X.ndim != 2:
            raise ValueError(f"X must be 2-D (n_samples, n_features), got shape {X.shape}")
        if X.shape[0] < 1:
            raise ValueError("X must have at least one row")
        if X.shape[1] < 1:
            raise ValueError(
                f"X must have at least one feature, got shape {X.shape} (CLUS cannot "
                "learn from no attributes)"
            )
        if np.isinf(X).any():
            raise ValueError("X must be finite (NaN is read as a missing value)")
        if not fitting and X.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X has {X.shape[1]} features, but ClusPCT was fitted with {self.n_features_in_}"
            )
        for j, values in self._nominal.items() if not fitting else ():
            col = X[:, j][~np.isnan(X[:, j])]
            if ((col < 0) | (col >= len(values)) | (col != np.round(col))).any():
                raise ValueError(f"X[:, {j}] must hold indices into nominal_features[{j}]")
        return X

    def fit(self, X, Y) -> ClusPCT:
        """Check and keep the training data (CLUS learns when :meth:`predict` runs).

        Parameters
        ----------
        X : array or sparse matrix (n_samples, n_features)
        Y : 0/1 array (n_samples, n_labels)
        """
        nominal = self._check_params()
        X = self._check_X(X, fitting=True)
        Y = np.asarray(check_label_matrix(Y, "Y", allow_sparse=False), dtype=np.int8)
        if Y.ndim != 2 or Y.shape[0] != X.shape[0]:
            raise ValueError(
                f"Y must be (n_samples, n_labels) with {X.shape[0]} rows, got shape {Y.shape}"
            )
        if any(j >= X.shape[1] for j in nominal):
            raise ValueError(f"nominal_features names a column beyond the {X.shape[1]} of X")
        self._nominal = nominal
        self.n_features_in_ = X.shape[1]
        self.n_outputs_ = Y.shape[1]
        self._check_X(X, fitting=False)
        self.X_train_, self.Y_train_ = X, Y
        return self

    def predict_scores(self, X) -> np.ndarray:
        """Per-label scores as the authors read them (relative frequency or votes/10).

        Returns
        -------
        ndarray of float (n_samples, n_labels) in [0, 1]
        """
        check_is_fitted(self, "X_train_")
        X = self._check_X(X, fitting=False)
        java = java_executable()
        if self.jar is None:
            jar, extra = pyclus_jar(), _ENSEMBLE_2011 if self.ensemble else ""
        else:
            jar, extra = Path(self.jar), ""
            if sha256_of(jar) != CLUS_SHA256:
                raise ValueError(f"jar must be the authors' Clus.jar (sha256 {CLUS_SHA256})")
        K, F = self.n_outputs_, self.n_features_in_
        with tempfile.TemporaryDirectory(prefix="mlcbook-clus-") as tmp:
            d = Path(tmp)
            _write_arff(d / "train.arff", self.X_train_, self.Y_train_, self._nominal)
            # the test labels are unknown: CLUS reads them only to report its errors
            _write_arff(
                d / "test.arff",
                X,
                np.zeros((X.shape[0], K), dtype=np.int8),
                self._nominal,
            )
            (d / "train.s").write_text(
                "[General]\n"
                f"RandomSeed = {int(self.random_seed)}\n"
                "[Data]\nFile = train.arff\nTestSet = test.arff\n"
                f"[Attributes]\nTarget = {F + 1}-{F + K}\n"
                "[Output]\nWritePredictions = Test\n" + extra,
                encoding="utf-8",
            )
            cmd = [
                java,
                *self.java_options,
                *(_OPENS if self.ensemble else _PCT_JIT),
                "-jar",
                str(jar),
                *(["-forest"] if self.ensemble else []),
                "train.s",
            ]
            run = subprocess.run(cmd, cwd=d, capture_output=True, text=True, check=False)
            pred = d / "train.test.pred.arff"
            if run.returncode != 0 or not pred.is_file():
                tail = (run.stdout + run.stderr).strip().splitlines()[-15:]
                raise RuntimeError(
                    "CLUS failed (exit code {}):\n{}".format(run.returncode, "\n".join(tail))
                )
            return _read_predictions(pred, X.shape[0], K, bool(self.ensemble))

    def predict(self, X) -> np.ndarray:
        """0/1 predictions: a label is relevant iff its score is >= 0.5.

        Returns
        -------
        ndarray of int (n_samples, n_labels)
        """
        return (self.predict_scores(X) >= 0.5).astype(np.int64)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.multi_output = True
        tags.target_tags.single_output = False
        tags.classifier_tags.multi_label = True
        tags.input_tags.sparse = True
        tags.input_tags.allow_nan = True
        return tags
