"""scikit-learn's estimator contract for the multi-label learners, in one place.

:class:`MultiLabelMixin` gives every estimator of :mod:`mlcbook.learners` the
same entry checks and declarations, without touching the algorithms:

* ``fit`` validates ``X`` through scikit-learn's ``validate_data`` (numeric,
  finite, 2-D, at least one sample; sparse where the estimator supports it),
  sets ``n_features_in_`` (and ``feature_names_in_`` for a DataFrame), checks
  that ``Y`` is a 0/1 label matrix with as many rows as ``X``, and, for a
  classifier, sets ``classes_`` by scikit-learn's multi-label convention: one
  array ``[0, 1]`` per label, as ``ClassifierChain`` and
  ``MultiOutputClassifier`` do;
* ``predict`` (and the score methods) raise
  :class:`~sklearn.exceptions.NotFittedError` before ``fit`` and validate
  ``X`` against ``n_features_in_``;
* tags: multi-output only (``Y`` is a matrix), multi-label, sparse input where
  supported -- ``__sklearn_tags__`` (scikit-learn >= 1.6) and ``_more_tags``
  (1.4, 1.5).

``validate_data`` is a function from scikit-learn 1.6 on and the method
``BaseEstimator._validate_data`` before; :func:`validate_data` here calls
whichever exists.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from sklearn.base import is_classifier
from sklearn.utils.validation import check_is_fitted

from .._validation import check_label_matrix

try:  # scikit-learn >= 1.6
    from sklearn.utils.validation import validate_data as _sk_validate_data
except ImportError:  # pragma: no cover - scikit-learn 1.4, 1.5
    _sk_validate_data = None

__all__ = ["MultiLabelMixin", "validate_data"]


def validate_data(estimator, X, **kwargs):
    """scikit-learn's ``validate_data`` (1.6+), else ``estimator._validate_data``."""
    if _sk_validate_data is not None:
        return _sk_validate_data(estimator, X, **kwargs)
    return estimator._validate_data(X, **kwargs)  # pragma: no cover


class MultiLabelMixin:
    """Entry validation, ``classes_`` and tags of a multi-label estimator.

    Subclasses set ``_accept_sparse`` (False, or the sparse formats ``fit`` and
    ``predict`` take) and ``_x_dtype`` (``"numeric"`` keeps the caller's
    numeric dtype, so the algorithm sees exactly what it saw before; or a
    dtype), and call :meth:`_fit_input` at the start of ``fit`` and
    :meth:`_predict_input` at the start of every prediction method.
    """

    _accept_sparse: Any = False
    _accept_large_sparse: bool = True  # False: refuse 64-bit sparse indices up front
    _x_dtype: Any = "numeric"
    _fitted_attr: str | None = None  # checked by NotFittedError; None: any "xxx_"

    def _fit_input(self, X: Any, Y: Any):
        """Validated ``(X, Y)``: ``X`` numeric and finite, ``Y`` dense 0/1 int8."""
        X = validate_data(
            self,
            X,
            reset=True,
            accept_sparse=self._accept_sparse,
            accept_large_sparse=self._accept_large_sparse,
            dtype=self._x_dtype,
            ensure_min_samples=1,
        )
        if Y is None:
            raise ValueError(
                f"{type(self).__name__} requires y to be passed, but the "
                "target y is None (Y: the 0/1 label matrix)"
            )
        Y_given = Y
        try:
            Y = check_label_matrix(Y, "Y", allow_sparse=False)
        except (TypeError, ValueError) as exc:
            # scikit-learn's wording for a target a classifier cannot take
            raise type(exc)(f"Unknown label type: {exc}") from None
        if X.shape[0] != Y.shape[0]:
            one_d = np.asarray(Y_given).ndim == 1 if not hasattr(Y_given, "nnz") else False
            hint = (
                (
                    " (a 1-D Y is read as the labels of one instance; pass "
                    "Y.reshape(-1, 1) for one label per instance)"
                )
                if one_d
                else ""
            )
            raise ValueError(
                f"X and Y must have the same number of rows, got "
                f"{X.shape[0]} and {Y.shape[0]}{hint}"
            )
        if is_classifier(self):
            self.classes_ = [np.array([0, 1]) for _ in range(Y.shape[1])]
        return X, Y

    def _predict_input(self, X: Any):
        """``X`` validated against the fitted number of features."""
        check_is_fitted(self, self._fitted_attr)
        return validate_data(
            self,
            X,
            reset=False,
            accept_sparse=self._accept_sparse,
            accept_large_sparse=self._accept_large_sparse,
            dtype=self._x_dtype,
        )

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        tags.target_tags.multi_output = True
        tags.target_tags.single_output = False
        if tags.classifier_tags is not None:
            tags.classifier_tags.multi_label = True
            tags.classifier_tags.multi_class = False
        tags.input_tags.sparse = bool(self._accept_sparse)
        return tags

    def _more_tags(self) -> dict:  # scikit-learn < 1.6
        return {
            "multioutput": True,
            "multioutput_only": True,
            "multilabel": True,
            "requires_y": True,
            "binary_only": True,
            "X_types": ["2darray"] + (["sparse"] if self._accept_sparse else []),
        }
