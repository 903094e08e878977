"""Parsing multi-label ARFF files (MULAN and MEKA layouts) with liac-arff.

Conventions
-----------
* ``X`` is a float64 array; a sparse ARFF file (``{index value, ...}`` rows) gives a
  ``scipy.sparse.csr_matrix``, a dense one an ``ndarray``.  Missing values (``?``) are NaN.
* Nominal features are encoded **ordinally**: the value's position in the attribute's
  declaration (``{a, b, c}`` -> 0, 1, 2), which is liac-arff's ``encode_nominal``.  The
  categories are kept in ``nominal`` so that a one-hot encoding can be built afterwards
  (e.g. ``sklearn.preprocessing.OneHotEncoder(categories=...)``).  Ordinal keeps the number of
  features equal to the number of ARFF attributes, as in the MULAN statistics; e.g. genbase's
  ``{YES, NO}`` features become YES=0, NO=1, and its protein identifier one integer column.
* Label attributes must take the values 0/1 (nominal ``{0,1}`` in either order, or numeric);
  ``Y`` is a dense ``int64`` 0/1 matrix.
* Labels are found either by name (MULAN: the XML file lists them; names are compared after
  ARFF unescaping, so ``Swainson\\'s Thrush`` matches ``Swainson's Thrush``) or by the MEKA
  option ``-C n`` of the ``@relation`` line (first ``n`` attributes, last ``-n`` if negative).
"""

from __future__ import annotations

import csv
import io
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Any

import arff as liac_arff
import numpy as np
import pandas as pd
import scipy.sparse as sp

from .._io import read_csv_exact
from .._validation import Flag, validate_params
from .fetch import DatasetError

__all__ = [
    "ParsedARFF",
    "ArffHeader",
    "DatasetFormatError",
    "parse_arff",
    "read_arff_header",
    "read_mulan_labels",
    "meka_label_count",
    "unescape_arff",
    "is_sparse_arff",
]


class DatasetFormatError(DatasetError, ValueError):
    """The file is not a well-formed multi-label ARFF/XML file (corrupt or truncated)."""


@dataclass
class ParsedARFF:
    """The content of one multi-label ARFF file."""

    X: np.ndarray | sp.csr_matrix
    Y: np.ndarray
    feature_names: list[str]
    label_names: list[str]
    nominal: dict[str, list[str]] = field(default_factory=dict)
    relation: str = ""

    @property
    def sparse(self) -> bool:
        return sp.issparse(self.X)


@dataclass(frozen=True)
class ArffHeader:
    """The attributes of one multi-label ARFF file, as :func:`parse_arff` names them."""

    feature_names: list[str]
    label_names: list[str]
    nominal: dict[str, list[str]]
    relation: str = ""


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "0": "\0"}


def unescape_arff(name: str) -> str:
    r"""Undo ARFF/Weka backslash escapes in a quoted name (``\'`` -> ``'``, ``\\`` -> ``\``)."""
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), name)


def read_mulan_labels(path: str | PathLike) -> list[str]:
    """Label names listed by a MULAN XML file, in document order (nested labels included)."""
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as exc:
        raise DatasetFormatError(f"corrupt or truncated label file {path}: {exc}") from exc
    found = [el.get("name") for el in root.iter() if el.tag.split("}")[-1] == "label"]
    names = [n for n in found if n is not None]
    if not names or len(names) != len(found):
        raise DatasetFormatError(f"label file {path} lists no labels (or one without a name)")
    return names


_MEKA_C = re.compile(r"-C\s+(-?\d+)")


def meka_label_count(relation: str) -> int | None:
    """The ``n`` of MEKA's ``-C n`` in a relation name, or None when absent."""
    m = _MEKA_C.search(relation)
    return int(m.group(1)) if m else None


def is_sparse_arff(path: str | PathLike) -> bool:
    """True if the first data row of the file is in sparse ``{...}`` notation."""
    in_data = False
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            s = line.strip()
            if not s or s.startswith("%"):
                continue
            if in_data:
                return s.startswith("{")
            if s.lower().startswith("@data"):
                in_data = True
    return False


def _read_text(path: Path, repairs: tuple[tuple[str, str], ...]) -> str:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise DatasetFormatError(f"corrupt ARFF file {path} (not UTF-8): {exc}") from exc
    for old, new in repairs:
        if text.count(old) != 1:
            raise DatasetFormatError(f"{path}: expected exactly one {old!r} to repair")
        text = text.replace(old, new)
    return text


_DATA_LINE = re.compile(r"^[ \t]*@data[ \t]*\r?$", re.IGNORECASE | re.MULTILINE)


def _split_header(text: str) -> tuple[str, str] | None:
    """``(header, data section)`` split after the ``@data`` line, or None if absent."""
    m = _DATA_LINE.search(text)
    if m is None:
        return None
    return text[: m.end()], text[m.end() :]


def _liac(text: str, sparse: bool, path: Path) -> dict:
    rtype = liac_arff.COO if sparse else liac_arff.DENSE
    try:
        return liac_arff.loads(text, encode_nominal=True, return_type=rtype)
    except (liac_arff.ArffException, ValueError, IndexError, TypeError) as exc:
        raise DatasetFormatError(f"corrupt or truncated ARFF file {path}: {exc}") from exc


class _NoFastPath(Exception):
    """The data section uses a feature the fast reader does not handle: use liac-arff."""


def _data_lines(data: str) -> list[str]:
    lines = [ln.strip() for ln in data.splitlines()]
    return [ln for ln in lines if ln and not ln.startswith("%")]


def _fast_dense(data: str, attrs: list) -> np.ndarray:
    """Dense rows without quotes: ``pandas.read_csv`` for the numeric attributes, the
    nominal ones split from the text and looked up in their declarations."""
    n_attr = len(attrs)
    lines = _data_lines(data)
    if any(ln.count(",") != n_attr - 1 for ln in lines):
        raise _NoFastPath("rows with a wrong number of values")
    if not lines:
        return np.zeros((0, n_attr))
    groups: dict[tuple[str, ...], list[int]] = {}
    for i, (_, t) in enumerate(attrs):
        if isinstance(t, list):
            groups.setdefault(tuple(t), []).append(i)
    nominal = {i for cols in groups.values() for i in cols}
    numeric = [i for i in range(n_attr) if i not in nominal]
    A = np.empty((len(lines), n_attr))
    if numeric:
        df = read_csv_exact(
            io.StringIO("\n".join(lines)),
            header=None,
            sep=",",
            usecols=numeric,
            dtype=float,
            na_values=["?"],
            keep_default_na=False,
            skipinitialspace=True,
            quoting=csv.QUOTE_NONE,
            engine="c",
        )
        if df.shape != (len(lines), len(numeric)):
            raise _NoFastPath("unexpected shape")
        A[:, numeric] = df.to_numpy(dtype=float)
    if groups:
        # one pandas column per attribute costs more than the parse for files of many
        # nominal attributes (genbase: 1186); every row has n_attr values (checked above)
        text = ",".join(lines)
        tokens = text.split(",")
        if " " in text or "\t" in text:
            tokens = [t.strip() for t in tokens]
        cells = np.array(tokens, dtype=object).reshape(len(lines), n_attr)
    for cats, cols in groups.items():
        A[:, cols] = _nominal_codes(cells[:, cols], cats)
    return A


def _nominal_codes(block: np.ndarray, cats: tuple[str, ...]) -> np.ndarray:
    """The position of each value of ``block`` (strings) in ``cats`` (``?``: NaN), as
    floats: the distinct values hashed once (``pandas.factorize``), then looked up."""
    codes = {v: float(k) for k, v in enumerate(cats)}
    codes["?"] = np.nan
    inv, uniq = pd.factorize(block.ravel())
    if any(u not in codes for u in uniq):
        raise _NoFastPath("value outside a nominal attribute's categories")
    table = np.array([codes[u] for u in uniq])
    return table[inv].reshape(block.shape)


def _fast_sparse(data: str, attrs: list):
    """Sparse ``{i v, ...}`` rows: split the pairs and read them with ``pandas.read_csv``."""
    for _, t in attrs:
        if isinstance(t, list) and list(t) != ["0", "1"]:
            raise _NoFastPath("sparse nominal attribute other than {0,1}")
    lines = _data_lines(data)
    if any(not (ln.startswith("{") and ln.endswith("}")) for ln in lines):
        raise _NoFastPath("a row is not in sparse notation")
    bodies = [ln[1:-1].strip() for ln in lines]
    counts = np.array([b.count(",") + 1 if b else 0 for b in bodies], dtype=np.int64)
    rows = np.repeat(np.arange(len(lines), dtype=np.int64), counts)
    text = "\n".join(b.replace(",", "\n") for b in bodies if b)
    if not text:
        return np.zeros(0), rows, np.zeros(0, dtype=np.int64), len(lines)
    df = pd.read_csv(
        io.StringIO(text),
        header=None,
        sep=r"\s+",
        names=["i", "v"],
        dtype={"i": np.int64, "v": str},
        keep_default_na=False,
        na_filter=False,
        engine="c",
    )
    if len(df) != counts.sum() or df["v"].eq("").any():
        raise _NoFastPath("malformed index/value pairs")
    values = df["v"].replace("?", "nan").to_numpy().astype(float)
    cols = df["i"].to_numpy()
    if cols.size and (cols.min() < 0 or cols.max() >= len(attrs)):
        raise _NoFastPath("attribute index out of range")
    return values, rows, cols, len(lines)


def _layout(
    path: Path, attrs: list, relation: str, label_names: list[str] | None, meka: bool
) -> tuple[list[str], list[int], list[int], dict[int, np.ndarray]]:
    """Attribute names, label and feature columns, and the 0/1 value of each nominal
    label's categories, from a decoded header (the MULAN or MEKA layout)."""
    names = [unescape_arff(a[0]) for a in attrs]
    n_attr = len(names)

    if meka:
        c = meka_label_count(relation)
        if c is None or c == 0 or abs(c) > n_attr:
            raise DatasetFormatError(
                f"{path}: no usable MEKA '-C n' option in @relation {relation[:80]!r}"
            )
        label_idx = list(range(c)) if c > 0 else list(range(n_attr + c, n_attr))
    else:
        assert label_names is not None  # the callers check: label_names xor meka
        pos = {n: i for i, n in enumerate(names)}
        missing = [n for n in label_names if n not in pos]
        if missing:
            raise DatasetFormatError(
                f"{path}: label attributes not found in the ARFF header: {missing[:5]}"
                + (f" and {len(missing) - 5} more" if len(missing) > 5 else "")
            )
        label_idx = [pos[n] for n in label_names]
    label_set = set(label_idx)
    feat_idx = [i for i in range(n_attr) if i not in label_set]

    for i, (_, typ) in enumerate(attrs):
        if isinstance(typ, str) and typ.upper() == "STRING":
            raise DatasetFormatError(f"{path}: string attribute {names[i]!r} is not supported")

    # numeric value of every nominal index for label columns ({0,1} or {1,0})
    label_maps = {}
    for i in label_idx:
        typ = attrs[i][1]
        if isinstance(typ, list):
            try:
                vals = [float(v) for v in typ]
            except ValueError:
                vals = None
            if vals is None or not set(vals) <= {0.0, 1.0}:
                raise DatasetFormatError(f"{path}: label {names[i]!r} has values {typ}, not 0/1")
            label_maps[i] = np.asarray(vals)

    return names, label_idx, feat_idx, label_maps


def _decode(path: Path, text: str, header: str, data: str, sparse: bool, fast: bool) -> tuple:
    """liac-arff's decoded header and the data: read by pandas when ``fast`` and the data
    hold no quotes (values, rows, columns and row count if sparse), else by liac-arff."""
    if fast and "'" not in data and '"' not in data:
        d = _liac(header + "\n", sparse, path)
        try:
            return d, (_fast_sparse if sparse else _fast_dense)(data, d["attributes"])
        except (_NoFastPath, ValueError, pd.errors.ParserError):
            pass
    d = _liac(text, sparse, path)
    return d, d["data"]


def _sparse_columns(
    path: Path, decoded: tuple, data: str, n_attr: int, feat_idx: list[int], label_idx: list[int]
) -> tuple[sp.csr_matrix, np.ndarray]:
    """The features (CSR) and the label columns (dense) of sparse ``{i v}`` rows."""
    if len(decoded) == 4:  # fast path: values, rows, cols, n_rows
        values, rows, cols, n = decoded
    else:
        values, rows, cols = decoded
        values = np.array([np.nan if v is None else v for v in values], dtype=float)
        rows = np.asarray(rows, dtype=np.int64)
        cols = np.asarray(cols, dtype=np.int64)
        n = len(_data_lines(data))  # empty rows ({}) leave no trace in the triplets
    if rows.size and int(rows.max()) >= n:
        raise DatasetFormatError(f"{path}: inconsistent sparse rows")
    M = sp.csc_matrix((values, (rows, cols)), shape=(n, n_attr))
    Xf = sp.csr_matrix(M[:, feat_idx])
    Xf.sum_duplicates()
    Xf.eliminate_zeros()
    Xf.sort_indices()
    return Xf, M[:, label_idx].toarray()


def _dense_columns(
    path: Path, decoded: Any, n_attr: int, feat_idx: list[int], label_idx: list[int]
) -> tuple[np.ndarray, np.ndarray]:
    """The features and the label columns of dense rows."""
    try:
        A = np.array(decoded, dtype=float)
    except (TypeError, ValueError) as exc:
        raise DatasetFormatError(f"{path}: rows of unequal length or non-numeric: {exc}") from exc
    if A.size == 0:
        A = A.reshape(0, n_attr)
    if A.ndim != 2 or A.shape[1] != n_attr:
        raise DatasetFormatError(f"{path}: data rows do not match the {n_attr} attributes")
    return np.ascontiguousarray(A[:, feat_idx]), A[:, label_idx]


@validate_params(meka=Flag(), fast=Flag())
def parse_arff(
    path: str | PathLike,
    *,
    label_names: list[str] | None = None,
    meka: bool = False,
    repairs: tuple[tuple[str, str], ...] = (),
    fast: bool = True,
) -> ParsedARFF:
    """Read a multi-label ARFF file into ``X``, ``Y`` and names.

    Parameters
    ----------
    path : path-like
        The ARFF file.
    label_names : list of str, optional
        MULAN layout: the names of the label attributes (from the XML file).
    meka : bool
        MEKA layout: take the labels from ``-C n`` in the ``@relation`` line.
        Exactly one of ``label_names`` and ``meka`` must be given.
    repairs : tuple of (old, new)
        Literal text replacements applied before parsing, each of which must occur exactly
        once (for known, registered defects of a file with a fixed sha256).
    fast : bool
        liac-arff always reads the header.  With ``fast=True`` a data section without
        quotes (and, if sparse, with only ``{0,1}`` nominal attributes) is read by
        ``pandas.read_csv`` instead of liac-arff, several times faster on the large files;
        anything else falls back to liac-arff.  The tests check that both give identical
        arrays on every registered file.

    Returns
    -------
    ParsedARFF

    Raises
    ------
    DatasetFormatError
        Malformed file, labels not found, non-0/1 label values, string attributes.
    """
    path = Path(path)
    if (label_names is None) == (not meka):
        raise ValueError("give exactly one of label_names (MULAN) and meka=True (MEKA)")
    text = _read_text(path, repairs)
    parts = _split_header(text)
    if parts is None:
        raise DatasetFormatError(f"corrupt or truncated ARFF file {path}: no @data line")
    header, data = parts
    sparse = data.lstrip().startswith("{")
    d, decoded = _decode(path, text, header, data, sparse, fast)
    attrs = d["attributes"]
    relation = d.get("relation", "") or ""
    names, label_idx, feat_idx, label_maps = _layout(path, attrs, relation, label_names, meka)
    if sparse:
        Xf, Ylab = _sparse_columns(path, decoded, data, len(names), feat_idx, label_idx)
    else:
        Xf, Ylab = _dense_columns(path, decoded, len(names), feat_idx, label_idx)
    for j, i in enumerate(label_idx):
        if i in label_maps:
            col = Ylab[:, j]
            ok = ~np.isnan(col)
            col[ok] = label_maps[i][col[ok].astype(np.int64)]
    if np.isnan(Ylab).any() or not np.isin(Ylab, (0.0, 1.0)).all():
        raise DatasetFormatError(f"{path}: label columns hold values other than 0/1 (or missing)")
    nominal = {names[i]: list(attrs[i][1]) for i in feat_idx if isinstance(attrs[i][1], list)}
    return ParsedARFF(
        X=Xf,
        Y=Ylab.astype(np.int64),
        feature_names=[names[i] for i in feat_idx],
        label_names=[names[i] for i in label_idx],
        nominal=nominal,
        relation=relation,
    )


@validate_params(meka=Flag())
def read_arff_header(
    path: str | PathLike, *, label_names: list[str] | None = None, meka: bool = False
) -> ArffHeader:
    """Read only the header of a multi-label ARFF file: names, labels, nominal features.

    The lines up to ``@data`` are read and decoded as :func:`parse_arff` decodes them,
    so the names, the label columns and the nominal categories are those of
    ``parse_arff(path, ...)``, without reading the rows (for a file's layout, as a
    learner's configuration needs it).

    Parameters
    ----------
    path : path-like
        The ARFF file.
    label_names : list of str, optional
        MULAN layout: the names of the label attributes.
    meka : bool
        MEKA layout: the labels from ``-C n`` in the ``@relation`` line.  Exactly one of
        ``label_names`` and ``meka`` must be given.

    Returns
    -------
    ArffHeader

    Raises
    ------
    DatasetFormatError
        No ``@data`` line, a malformed header, labels not found or not 0/1, string
        attributes.

    Examples
    --------
    >>> from pathlib import Path
    >>> _ = Path("toy.arff").write_text(
    ...     "@relation 'toy: -C 2'\\n@attribute a {0,1}\\n@attribute b {0,1}\\n"
    ...     "@attribute colour {red,green}\\n@attribute x numeric\\n@data\\n0,1,red,0.5\\n")
    >>> h = read_arff_header("toy.arff", meka=True)
    >>> h.label_names, h.feature_names, h.nominal
    (['a', 'b'], ['colour', 'x'], {'colour': ['red', 'green']})
    """
    path = Path(path)
    if (label_names is None) == (not meka):
        raise ValueError("give exactly one of label_names (MULAN) and meka=True (MEKA)")
    lines = []
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                lines.append(line)
                if _DATA_LINE.match(line.rstrip("\n")):
                    break
            else:
                raise DatasetFormatError(f"corrupt or truncated ARFF file {path}: no @data line")
    except UnicodeDecodeError as exc:
        raise DatasetFormatError(f"corrupt ARFF file {path} (not UTF-8): {exc}") from exc
    d = _liac("".join(lines) + "\n", False, path)
    attrs = d["attributes"]
    relation = d.get("relation", "") or ""
    names, label_idx, feat_idx, _ = _layout(path, attrs, relation, label_names, meka)
    return ArffHeader(
        feature_names=[names[i] for i in feat_idx],
        label_names=[names[i] for i in label_idx],
        nominal={names[i]: list(attrs[i][1]) for i in feat_idx if isinstance(attrs[i][1], list)},
        relation=relation,
    )
