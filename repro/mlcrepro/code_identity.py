"""The identity of the code a computation runs, for the runner's cache keys.

:func:`code_hash` hashes the source of functions and classes, normalised through
Python's abstract syntax tree so that docstrings, comments and formatting do not
count, and follows what that code names: the first-party functions and classes a
function's body refers to by a global name, and the first-party classes of a class's
method resolution order (MRO) with everything their methods name.  *First-party*
means defined outside the interpreter's standard library and installed packages
(mlcbook and mlcrepro, or a module of one's own); third-party code (NumPy,
scikit-learn, mlrl-boomer, Weka's jar) is identified by its version instead, in the
spec's ``key``.

What is not followed: attributes of modules (``reference.ALPHAS``), data and code
reached only through objects built at run time.  The hash therefore tells an edited
estimator or cell function from the old one; it is not a proof that nothing the
cell computes has changed.

The normalised tree is written with ``ast.dump``, whose text may differ between
Python versions: a hash is stable on one interpreter, which is what a cache needs
(another interpreter computes its own entries), and it is not machine-independent
enough for a committed table's specification (see :mod:`mlcrepro.runner`).
"""

from __future__ import annotations

import ast
import functools
import hashlib
import inspect
import os
import sys
import sysconfig
import textwrap
import types
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

__all__ = ["code_hash", "first_party", "normalised_source"]

_FIRST_PARTY = ("mlcbook", "mlcrepro")


@functools.cache
def _third_party_roots() -> tuple[Path, ...]:
    paths = sysconfig.get_paths()
    roots = {paths[k] for k in ("stdlib", "platstdlib", "purelib", "platlib") if k in paths}
    roots |= {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    return tuple(Path(r).resolve() for r in roots)


def first_party(obj: Any) -> bool:
    """Whether a function or class is ours: mlcbook, mlcrepro, or outside every
    installed package and the standard library.

    Examples
    --------
    >>> import numpy as np
    >>> from mlcbook.metrics import hamming_loss
    >>> first_party(hamming_loss), first_party(np.mean), first_party(dict)
    (True, False, False)
    """
    module = getattr(obj, "__module__", None)
    if not isinstance(module, str) or module == "builtins":
        return False
    if module.split(".")[0] in _FIRST_PARTY:
        return True
    mod = sys.modules.get(module)
    file = getattr(mod, "__file__", None)
    if not file:
        return False
    path = Path(file).resolve()
    return not any(path.is_relative_to(root) for root in _third_party_roots())


_SCOPES = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


def _strip_docstrings(tree: ast.AST) -> ast.AST:
    """``tree`` without the docstrings of its module, classes and functions (in place).

    Only statement bodies are walked: a docstring is the first statement of one.
    """
    stack = [tree]
    while stack:
        node = stack.pop()
        body = getattr(node, "body", None)
        if isinstance(node, _SCOPES) and body:
            first = body[0]
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                node.body = body[1:] or [ast.Pass()]
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            for child in getattr(node, field, None) or ():
                if isinstance(child, ast.AST):
                    stack.append(child)
    return tree


def normalised_source(obj: Any) -> str:
    """The syntax tree of a function's or class's source, without docstrings.

    Comments, blank lines, formatting and docstrings do not change it; any change to
    what the code does (a statement, a name, a constant, a default) does.  Code whose
    source cannot be read (built in, or defined interactively) is named by its
    qualified name.

    Examples
    --------
    >>> def f(x):
    ...     "Twice x."
    ...     return 2 * x  # a comment
    >>> def g(x):
    ...     return 2*x
    >>> normalised_source(f) == normalised_source(g).replace("'g'", "'f'")
    True
    """
    try:
        source = inspect.getsource(obj)
    except (OSError, TypeError):
        return f"<no source: {getattr(obj, '__module__', '?')}.{obj.__qualname__}>"
    tree = _strip_docstrings(ast.parse(textwrap.dedent(source)))
    return ast.dump(tree, annotate_fields=False, include_attributes=False)


def _unwrap(obj: Any) -> Any:
    """The function or class whose source ``obj`` runs (an instance: its class)."""
    while True:
        if isinstance(obj, functools.partial):
            obj = obj.func
        elif isinstance(obj, (types.MethodType, staticmethod, classmethod)):
            obj = obj.__func__
        elif isinstance(obj, property):
            obj = obj.fget
        elif not isinstance(obj, type) and hasattr(obj, "__wrapped__"):
            obj = obj.__wrapped__  # functools.cache, functools.wraps
        else:
            break
    if isinstance(obj, (types.FunctionType, type)):
        return obj
    return type(obj)


def _code_objects(code: types.CodeType) -> Iterator[types.CodeType]:
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _code_objects(const)


def _named(obj: Any) -> Iterator[Any]:
    """The functions and classes ``obj``'s code names by a global name."""
    if isinstance(obj, type):
        yield from obj.__mro__[1:]
        module = sys.modules.get(obj.__module__)
        namespace = vars(module) if module is not None else {}
        methods = [
            _unwrap(v)
            for v in vars(obj).values()
            if callable(v) or isinstance(v, (staticmethod, classmethod, property))
        ]
        codes = [
            c
            for m in methods
            if isinstance(m, types.FunctionType)
            for c in _code_objects(m.__code__)
        ]
    elif isinstance(obj, types.FunctionType):
        namespace = obj.__globals__
        codes = list(_code_objects(obj.__code__))
    else:
        return
    for code in codes:
        for name in code.co_names:
            target = namespace.get(name)
            if (
                target is not None
                and not isinstance(target, types.ModuleType)
                and (isinstance(target, type) or callable(target))
            ):
                yield target


def _closure(objects: Iterable[Any]) -> list[Any]:
    seen: dict[int, Any] = {}
    stack = [_unwrap(o) for o in objects]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or not first_party(obj):
            continue
        seen[id(obj)] = obj
        stack.extend(_unwrap(t) for t in _named(obj))
    return sorted(seen.values(), key=lambda o: (o.__module__, o.__qualname__))


@functools.cache
def _module_definitions(path: str, mtime_ns: int, size: int) -> dict[str, ast.AST]:
    """``qualname -> syntax tree`` of every function and class of a source file, parsed
    once, docstrings removed; nested definitions under their dotted qualified names."""
    tree = ast.parse(Path(path).read_bytes())
    _strip_docstrings(tree)
    out: dict[str, ast.AST] = {}

    def visit(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                out[prefix + node.name] = node
                if isinstance(node, ast.ClassDef):
                    visit(node.body, prefix + node.name + ".")

    visit(tree.body, "")
    return out


def _hash_tree(node: ast.AST) -> str:
    text = ast.dump(node, annotate_fields=False, include_attributes=False)
    return hashlib.sha256(text.encode()).hexdigest()


def _source_file(obj: Any) -> str | None:
    """The file ``obj`` was compiled from: a function's code says so; a class's
    methods do (its module may since have been imported again from elsewhere)."""
    if isinstance(obj, types.FunctionType):
        return obj.__code__.co_filename
    for v in vars(obj).values():
        f = _unwrap(v) if not isinstance(v, type) else None
        if isinstance(f, types.FunctionType) and f.__qualname__.startswith(obj.__qualname__):
            return f.__code__.co_filename
    module = sys.modules.get(getattr(obj, "__module__", ""))
    return getattr(module, "__file__", None)


@functools.cache
def _one(obj: Any) -> str:
    """The hash of one function's or class's normalised source."""
    file = _source_file(obj)
    if file and file.endswith(".py") and "<locals>" not in obj.__qualname__:
        try:
            st = os.stat(file)
            found = _module_definitions(file, st.st_mtime_ns, st.st_size).get(obj.__qualname__)
        except (OSError, SyntaxError, ValueError):
            found = None
        if found is not None:
            return _hash_tree(found)
    # defined in a function, made at run time, or not found in its module's file
    return hashlib.sha256(normalised_source(obj).encode()).hexdigest()


def code_hash(*objects: Any) -> str:
    """A hash of the first-party code ``objects`` run (functions, classes, instances).

    The closure of what they name (see the module) is collected, each member's
    :func:`normalised_source` hashed, and the hashes combined with the members'
    qualified names.  Hashes of one object are computed once per process, from the
    source of the code that was imported.

    Examples
    --------
    >>> from mlcbook.learners.mlknn import MLkNN
    >>> a, b = code_hash(MLkNN), code_hash(MLkNN(k=3))  # an instance runs its class
    >>> a == b, len(a)
    (True, 16)
    """
    return _code_hash(tuple(dict.fromkeys(_unwrap(o) for o in objects)))


@functools.cache
def _code_hash(objects: tuple[Any, ...]) -> str:
    h = hashlib.sha256()
    for obj in _closure(objects):
        h.update(f"{obj.__module__}.{obj.__qualname__}={_one(obj)}\n".encode())
    return h.hexdigest()[:16]
