"""Weka's J48 (C4.5, Quinlan 1993) as a scikit-learn classifier.

Hüllermeier et al. (2022, Sec. 5.2) ran BR, CC, LP and RAkEL through MEKA with
``new J48()``: Weka's defaults, a pruned C4.5 tree (confidence 0.25, at least 2
instances per leaf, subtree raising, multiway splits on nominal attributes).
:class:`J48Classifier` runs that very code -- Weka's own ``J48`` in one Java
process per Python process (see :mod:`mlcbook.learners._weka`; ``make weka``
installs it) -- so no re-implementation of C4.5 stands between the book and the
authors' learner.  Every J48 option that changes the tree is a parameter, with
Weka's default.
"""

from __future__ import annotations

from collections.abc import Mapping
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted

from ._contract import validate_data
from ._weka import server

__all__ = ["J48Classifier"]


class J48Classifier(ClassifierMixin, BaseEstimator):
    """Weka's J48 decision tree (single-label, any number of classes).

    Parameters
    ----------
    confidence_factor : float, default 0.25
        Weka ``-C``: confidence of the pessimistic error estimate used in pruning.
    min_num_obj : int, default 2
        Weka ``-M``: minimum number of instances per leaf.
    unpruned : bool, default False
        Weka ``-U``: grow the tree without pruning.
    reduced_error_pruning : bool, default False
        Weka ``-R``: reduced-error pruning on ``num_folds`` folds instead of C4.5's.
    num_folds : int, default 3
        Weka ``-N``: folds of reduced-error pruning (one is the pruning set).
    binary_splits : bool, default False
        Weka ``-B``: binary splits on nominal attributes.
    subtree_raising : bool, default True
        Weka ``-S`` unset: subtree raising while pruning.
    use_laplace : bool, default False
        Weka ``-A``: Laplace-smoothed leaf probabilities.
    seed : int, default 1
        Weka ``-Q``: seed of reduced-error pruning's data shuffling (unused otherwise).
    nominal : mapping of int to int, optional
        Nominal features: column index -> number of categories; such a column holds
        the category's index 0..v-1 (the order of the ARFF declaration), which J48
        splits multiway.  Other columns are numeric (binary splits on a threshold).
    classes : array-like, optional
        The class values in the order of the ARFF declaration (J48 breaks ties
        towards the first), which may include values absent from ``y`` -- as a MEKA
        label declared ``{0,1}`` whose training fold holds only zeros (Weka refuses
        a class attribute with one value).  Default: the sorted values of ``y``.

    Attributes
    ----------
    classes_ : ndarray
        Weka's class values: ``classes``, else the sorted values of ``y``.
    model_ : bytes
        The fitted Weka model, Java-serialised.
    n_features_in_ : int
    """

    def __init__(
        self,
        confidence_factor: float = 0.25,
        min_num_obj: int = 2,
        unpruned: bool = False,
        reduced_error_pruning: bool = False,
        num_folds: int = 3,
        binary_splits: bool = False,
        subtree_raising: bool = True,
        use_laplace: bool = False,
        seed: int = 1,
        nominal: Mapping[int, int] | None = None,
        classes=None,
    ):
        self.confidence_factor = confidence_factor
        self.min_num_obj = min_num_obj
        self.unpruned = unpruned
        self.reduced_error_pruning = reduced_error_pruning
        self.num_folds = num_folds
        self.binary_splits = binary_splits
        self.subtree_raising = subtree_raising
        self.use_laplace = use_laplace
        self.seed = seed
        self.nominal = nominal
        self.classes = classes

    # ------------------------------------------------------------------ options
    def weka_options(self) -> str:
        """The J48 command-line options these parameters stand for (Weka's syntax)."""
        cf = self.confidence_factor
        if isinstance(cf, bool) or not isinstance(cf, Real) or not 0 < cf < 1:
            raise ValueError(f"confidence_factor must be a float in (0, 1), got {cf!r}")
        for name in ("min_num_obj", "num_folds", "seed"):
            v = getattr(self, name)
            low = 2 if name == "num_folds" else (1 if name == "min_num_obj" else 0)
            if isinstance(v, bool) or not isinstance(v, Integral) or v < low:
                raise ValueError(f"{name} must be an int >= {low}, got {v!r}")
        for name in (
            "unpruned",
            "reduced_error_pruning",
            "binary_splits",
            "subtree_raising",
            "use_laplace",
        ):
            if not isinstance(getattr(self, name), (bool, np.bool_)):
                raise TypeError(f"{name} must be a bool, got {getattr(self, name)!r}")
        if self.unpruned and self.reduced_error_pruning:
            raise ValueError("unpruned and reduced_error_pruning exclude each other")
        opts = []
        if self.unpruned:
            opts.append("-U")
        elif self.reduced_error_pruning:
            opts += ["-R", "-N", str(int(self.num_folds)), "-Q", str(int(self.seed))]
        else:
            opts += ["-C", repr(float(cf))]
            if not self.subtree_raising:
                opts.append("-S")
        opts += ["-M", str(int(self.min_num_obj))]
        if self.binary_splits:
            opts.append("-B")
        if self.use_laplace:
            opts.append("-A")
        return " ".join(opts)

    def _nominal_vector(self, n_features: int) -> np.ndarray:
        out = np.zeros(n_features, dtype=np.int64)
        if self.nominal is None:
            return out
        if not isinstance(self.nominal, Mapping):
            raise TypeError(
                f"nominal must be a mapping column -> number of categories or None, "
                f"got {type(self.nominal).__name__}"
            )
        for col, v in self.nominal.items():
            if isinstance(col, bool) or not isinstance(col, Integral) or not 0 <= col < n_features:
                raise ValueError(f"nominal: column {col!r} is not in 0..{n_features - 1}")
            if isinstance(v, bool) or not isinstance(v, Integral) or v < 1:
                raise ValueError(f"nominal: column {col} needs a category count >= 1, got {v!r}")
            out[col] = int(v)
        return out

    def _input(self, X, reset: bool) -> np.ndarray:
        """``X`` validated and dense (its nominal columns are checked by
        :meth:`_check_nominal` when it is first sent to the server)."""
        X = validate_data(
            self,
            X,
            reset=reset,
            accept_sparse=("csr", "csc"),
            dtype=np.float64,
            ensure_all_finite="allow-nan",
        )
        return X.toarray() if sp.issparse(X) else np.asarray(X, dtype=np.float64)

    def _check_nominal(self, X: np.ndarray) -> None:
        cols = np.flatnonzero(self._nominal)
        if cols.size:
            V = X[:, cols]
            inside = (V == np.round(V)) & (V >= 0) & (V < self._nominal[cols])
            ok = np.isnan(V) | inside
            if not ok.all():
                bad = cols[np.flatnonzero(~ok.all(axis=0))[0]]
                raise ValueError(
                    f"X: nominal column {bad} must hold category indices "
                    f"0..{self._nominal[bad] - 1} (or NaN for missing)"
                )

    # ------------------------------------------------------------------ fit / predict
    def fit(self, X, y):
        """Grow (and prune) Weka's J48 on ``X``, ``y``."""
        options = self.weka_options()
        X = self._input(X, reset=True)
        self._nominal = self._nominal_vector(X.shape[1])
        y = np.asarray(y)
        if y.ndim != 1 or y.shape[0] != X.shape[0]:
            raise ValueError(f"y must be 1-D with {X.shape[0]} entries, got shape {y.shape}")
        if self.classes is None:
            self.classes_, codes = np.unique(y, return_inverse=True)
        else:
            self.classes_ = np.asarray(self.classes)
            c = self.classes_
            if c.ndim != 1 or len(np.unique(c)) != len(c):
                raise ValueError(f"classes must be distinct values, got {self.classes!r}")
            lookup = {v: i for i, v in enumerate(self.classes_.tolist())}
            try:
                codes = np.array([lookup[v] for v in y.tolist()], dtype=np.int64)
            except KeyError as exc:
                raise ValueError(f"y holds {exc.args[0]!r}, which is not in classes") from None
        srv = server()
        self._model_id, self.model_ = srv.fit(
            options, X, codes, self._nominal, len(self.classes_), check=self._check_nominal
        )
        self._token = srv.token
        return self

    def _ask(self, X) -> tuple[np.ndarray, np.ndarray]:
        check_is_fitted(self, "model_")
        X = self._input(X, reset=False)
        return self._on_server(
            lambda srv: srv.predict(self._model_id, X, self._nominal, check=self._check_nominal)
        )

    def _on_server(self, request):
        """``request(server)``, re-loading the model where the server lacks it."""
        srv = server()
        for _ in range(2):
            if getattr(self, "_token", None) == srv.token:
                out = request(srv)
                if out is not None:
                    return out
            self._model_id, self._token = srv.load(self.model_), srv.token
        raise RuntimeError("the Weka server lost the model twice")  # pragma: no cover

    def predict(self, X) -> np.ndarray:
        """Weka's ``classifyInstance``: the most probable class (ties: the first)."""
        return self.classes_[self._ask(X)[1]]

    def predict_proba(self, X) -> np.ndarray:
        """Weka's ``distributionForInstance`` (the leaf's class frequencies)."""
        return self._ask(X)[0]

    def weka_tree(self) -> str:
        """The tree as Weka prints it (``J48.toString()``)."""
        check_is_fitted(self, "model_")
        return self._on_server(lambda srv: srv.tree(self._model_id))

    def __getstate__(self):
        state = self.__dict__.copy()
        state.pop("_token", None)  # a model id is only valid in this process's server
        return state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.input_tags.sparse = True
        return tags
