"""Argument checks of :mod:`mlcbook`, public for code built on the library.

The same checks every public function of the library runs at its boundary: ``check_*``
functions validate one value (a label or score matrix, an integer or real number in a
range, a flag, a name that becomes a file name), and :func:`validate_params` declares,
beside a function, what each parameter may be (:class:`Real`, :class:`Int`,
:class:`Flag`, :class:`OneOf`, :class:`Name`, :class:`Seed`), as scikit-learn's
``validate_params`` does.  Errors are :class:`TypeError` (wrong kind of object) or
:class:`ValueError` (right kind, wrong content), naming the argument.

Examples
--------
>>> from mlcbook.validation import Int, validate_params
>>> @validate_params(k=Int(1, None))
... def top(k):
...     return k
>>> top(3)
3
>>> top(0)
Traceback (most recent call last):
...
ValueError: k must be an integer >= 1, got 0
"""

from ._validation import (
    MAX_MAGNITUDE,
    Flag,
    Int,
    Name,
    OneOf,
    Real,
    Seed,
    as_2d,
    check_average,
    check_bool,
    check_label_matrix,
    check_name,
    check_positive_int,
    check_real,
    check_same_shape,
    check_score_matrix,
    validate_params,
)

__all__ = [
    "check_label_matrix",
    "check_score_matrix",
    "check_same_shape",
    "check_average",
    "check_positive_int",
    "check_real",
    "check_bool",
    "check_name",
    "as_2d",
    "validate_params",
    "Real",
    "Int",
    "Flag",
    "OneOf",
    "Name",
    "Seed",
    "MAX_MAGNITUDE",
]
