"""A committed table as CSV bytes, and back: the same values, dtypes, index and names.

:func:`table_record` writes a table as CSV bytes (floats with 17 significant digits)
and records what its provenance keeps of them (hash, rows, every column's exact dtype,
a non-default index and column names), refusing a table that would not read back as
itself; :func:`parse_table` reads such bytes back exactly (``mlcbook.files.read_csv_exact``).
:mod:`mlcrepro.results` writes and checks the committed tables with them, and
:mod:`mlcrepro.runner` keeps its cells' dtypes by the same rules
(:data:`NULLABLE_DTYPES`, :data:`STRING_DTYPES`, :func:`has_default_index`).
"""

from __future__ import annotations

import hashlib
import io
from typing import Any

import numpy as np
import pandas as pd

from mlcbook.files import read_csv_exact

__all__ = [
    "NULLABLE_DTYPES",
    "STRING_DTYPES",
    "has_default_index",
    "parse_table",
    "table_record",
]


def _csv_bytes(table: pd.DataFrame) -> bytes:
    buf = io.StringIO()
    table.to_csv(buf, index=False, float_format="%.17g", lineterminator="\n")
    return buf.getvalue().encode("utf-8")


#: pandas' nullable dtypes (a value and a missing-value mask each): a committed table
#: reads an empty field of such a column as NA, the runner's cache stores the mask
NULLABLE_DTYPES = frozenset(
    [f"{s}Int{b}" for s in ("", "U") for b in (8, 16, 32, 64)] + ["Float32", "Float64", "boolean"]
)
#: pandas' string dtypes
STRING_DTYPES = frozenset(["str", "string"])
_TEXT = STRING_DTYPES | {"object"}


def has_default_index(frame: pd.DataFrame) -> bool:
    """Whether ``frame``'s index is the unnamed 0, 1, ..., n-1 that a table read back
    gets anyway (any other index is stored with the table and restored)."""
    index = frame.index
    return (
        index.nlevels == 1
        and index.name is None
        and index.dtype.kind == "i"
        and index.equals(pd.RangeIndex(len(frame)))
    )


def _dtypes(table: pd.DataFrame) -> dict[str, str]:
    out = {}
    for col, dt in table.dtypes.items():
        kind = np.dtype(dt).kind if not isinstance(dt, pd.api.extensions.ExtensionDtype) else "O"
        out[str(col)] = {"f": "float", "i": "int", "u": "int", "b": "bool"}.get(kind, "str")
    return out


def _storable(name: str, col: Any, dt: Any) -> str:
    """The dtype's name if a CSV keeps it (numbers, booleans, text, pandas' nullable
    numbers); otherwise a ValueError naming the column."""
    text = str(dt)
    if isinstance(dt, np.dtype) and dt.kind in "biuf" and dt.itemsize <= 8:
        return text
    if text in NULLABLE_DTYPES or text in _TEXT:
        return text
    raise ValueError(
        f"the table {name!r} has the column {col!r} of dtype {text}, which its CSV does "
        "not keep (numbers, booleans, text and pandas' nullable numbers are kept); "
        "convert it (e.g. .astype(str)) before committing; nothing was written"
    )


def _flatten(name: str, table: pd.DataFrame) -> tuple[pd.DataFrame, dict]:
    """The table as written (a non-default index as leading columns) and what the record
    needs to restore it: index levels, column names that are not strings, dtypes."""
    extra: dict[str, Any] = {}
    for c in table.columns:
        if isinstance(c, bool) or not isinstance(c, (str, int, np.integer)):
            raise ValueError(
                f"the table {name!r} has a column named {c!r} ({type(c).__name__}); "
                "column names must be strings or integers; nothing was written"
            )
    if len({str(c) for c in table.columns}) != table.shape[1]:
        raise ValueError(f"the table {name!r} repeats a column name: {list(table.columns)}")
    if not all(isinstance(c, str) for c in table.columns):
        extra["columns"] = [c if isinstance(c, str) else int(c) for c in table.columns]
    index = table.index
    if not has_default_index(table):
        heads = [
            n if isinstance(n, str) and n else f"__index_{i}__" for i, n in enumerate(index.names)
        ]
        clash = set(heads) & {str(c) for c in table.columns}
        if clash or len(set(heads)) != len(heads):
            raise ValueError(
                f"the table {name!r} has index levels named like its columns "
                f"({sorted(clash) or heads}); rename them; nothing was written"
            )
        for n in index.names:
            if n is not None and not isinstance(n, str):
                raise ValueError(
                    f"the table {name!r} has an index level named {n!r}; index names "
                    "must be strings or None; nothing was written"
                )
        extra["index"] = [{"column": h, "name": n} for h, n in zip(heads, index.names)]
        flat = table.copy()
        flat.index = index.set_names(heads)
        flat = flat.reset_index()
    else:
        flat = table.reset_index(drop=True)
    flat.columns = [str(c) for c in flat.columns]
    extra["exact_dtypes"] = {str(c): _storable(name, c, dt) for c, dt in flat.dtypes.items()}
    for c, d in extra["exact_dtypes"].items():
        if d in _TEXT:  # a CSV reader ends a row at a bare carriage return
            cr = flat[c].map(lambda v: isinstance(v, str) and "\r" in v).to_numpy(dtype=bool)
            if cr.any():
                raise ValueError(
                    f"the table {name!r} has a carriage return in the text of column "
                    f"{c!r}, row {int(np.flatnonzero(cr)[0])}, which its CSV would split "
                    "into two rows; remove it; nothing was written"
                )
    return flat, extra


def parse_table(source: Any, record: dict) -> pd.DataFrame:
    """Read a table written by ``_csv_bytes`` back to the same values: strings stay
    strings ("NA", "None", "007"); only an empty field of a number column is missing.

    A record made by :func:`table_record` names every column's exact dtype
    (``exact_dtypes``), and the index and column names where they are not the default:
    the table is read back with exactly those.  A record written before (only the
    coarse ``dtypes``) reads as it always did: a float column whose values are all
    whole numbers then reads as integers, as the committed tables always have.

    Examples
    --------
    >>> t = pd.DataFrame({"name": ["NA", "007"], "x": [0.1, None]})
    >>> data, record = table_record("t", t)
    >>> parse_table(io.BytesIO(data), record).equals(t)
    True
    """
    dtypes = record.get("dtypes", {})
    exact = record.get("exact_dtypes")
    if exact is None:
        strings = {c: str for c, t in dtypes.items() if t == "str"}
        floats = {c: [""] for c, t in dtypes.items() if t == "float"}
        table = read_csv_exact(
            source, dtype=strings, keep_default_na=False, na_values=floats or None
        )
        for c, t in dtypes.items():  # an empty string column is read as ""
            if t == "str" and c in table:
                table[c] = table[c].astype(object)
        return table
    read_as: dict[str, Any] = {}
    missing: dict[str, list[str]] = {}
    for c, d in exact.items():
        if d in NULLABLE_DTYPES:
            read_as[c], missing[c] = d, [""]
        elif d in _TEXT:
            read_as[c] = str
        elif np.dtype(d).kind == "f":
            read_as[c], missing[c] = np.float64, [""]  # then cast: the exact value
        else:
            read_as[c] = d
    table = read_csv_exact(source, dtype=read_as, keep_default_na=False, na_values=missing or None)
    for c, d in exact.items():
        if str(table[c].dtype) != d:
            table[c] = table[c].astype(d)
    return _restore(table, record)


def _restore(flat: pd.DataFrame, record: dict) -> pd.DataFrame:
    """The table from its columns as written: the index and the column names back."""
    levels = record.get("index")
    if levels:
        flat = flat.set_index([level["column"] for level in levels])
        flat.index = flat.index.set_names([level["name"] for level in levels])
    if record.get("columns") is not None:
        flat.columns = pd.Index(record["columns"])
    return flat


def table_record(name: str, table: pd.DataFrame) -> tuple[bytes, dict]:
    """The CSV bytes of ``table`` and what provenance records of them; refuses a table
    that is empty or would not read back as the same table (values, dtypes, index,
    column names).

    Examples
    --------
    >>> data, record = table_record("t", pd.DataFrame({"k": [1, 2], "v": [0.5, 0.25]}))
    >>> data.decode().splitlines(), record["rows"], record["dtypes"]
    (['k,v', '1,0.5', '2,0.25'], 2, {'k': 'int', 'v': 'float'})
    """
    if table.shape[0] == 0 or table.shape[1] == 0:
        raise ValueError(
            f"compute returned an empty table ({table.shape[0]} rows, {table.shape[1]} "
            f"columns) for {name!r}; the committed table is left as it was"
        )
    flat, extra = _flatten(name, table)
    data = _csv_bytes(flat)
    record = {
        "sha256": hashlib.sha256(data).hexdigest(),
        "rows": int(table.shape[0]),
        "dtypes": _dtypes(flat),
        **extra,
    }
    try:
        back = parse_table(io.BytesIO(data), {**record, "index": None, "columns": None})
    except (ValueError, TypeError, OverflowError) as err:
        raise ValueError(
            f"the table {name!r} does not survive its CSV: reading it back fails ({err}); "
            "nothing was written"
        ) from err
    back.columns = flat.columns
    for col in flat.columns:  # the values, cell by cell, to name the first that changes
        a, b = flat[col].to_numpy(dtype=object), back[col].to_numpy(dtype=object)
        same = [_same_cell(x, y) for x, y in zip(a, b)]
        if not all(same):
            i = same.index(False)
            raise ValueError(
                f"the table {name!r} does not survive its CSV: column {col!r}, row {i}: "
                f"{_cell_words(a[i])} reads back as {_cell_words(b[i])} (use a float NaN or "
                "a nullable dtype for a missing number, strings for text, '' for no text); "
                "nothing was written"
            )
    try:  # and the whole: dtypes, index, column names and their types
        pd.testing.assert_frame_equal(_restore(back, record), table, check_exact=True)
    except AssertionError as err:
        raise ValueError(
            f"the table {name!r} does not read back as written from its CSV: "
            + " ".join(str(err).split())
            + "; nothing was written"
        ) from None
    return data, record


def _cell_words(x: Any) -> str:
    """A cell as a refusal names it: its repr, or "a missing value" for any of pandas'
    missing markers (None, NaN, NA), which pandas 2 and 3 store differently in a text
    column (pandas 3's ``str`` dtype turns None into NaN)."""
    if not isinstance(x, str) and pd.isna(x):
        return "a missing value"
    return repr(x)


def _same_cell(x: Any, y: Any) -> bool:
    """Two cells are the same value: equal, or both missing numbers (a missing number
    never equals the text "NA")."""
    if isinstance(x, str) or isinstance(y, str):
        return isinstance(x, str) and isinstance(y, str) and x == y
    x_missing, y_missing = pd.isna(x), pd.isna(y)
    if x_missing or y_missing:
        return bool(x_missing and y_missing)
    return bool(x == y)
