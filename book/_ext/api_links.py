"""Sphinx extension: a Python reference the py domain cannot resolve still finds its target.

Three kinds of reference in docstrings and chapters link nowhere with Sphinx alone:

- a short name (``BlendedLinearClassifier`` in a "See Also" of a module page) whose object
  is documented under another module: resolved when exactly one documented object has
  that last name (the same package preferred);
- a path through a package that re-exports the object, or through the module that defines
  it (``mlcbook.datasets.parse_arff``), or a name relative to the module the reference is
  written in or one of its packages (``ledger_rows.ledgers``): the object is imported and
  found under the name it is documented by;
- a name of Python, NumPy or scikit-learn (``ValueError``, ``numpy.argmax``,
  ``sklearn.metrics.hamming_loss``, ``GridSearchCV``): linked to that project's documentation
  (a link only: the site loads nothing from outside).
"""

from __future__ import annotations

import builtins
import importlib
import inspect

from docutils import nodes

_EXTERNAL = {
    "numpy": "https://numpy.org/doc/stable/reference/generated/{full}.html",
    "sklearn": "https://scikit-learn.org/stable/modules/generated/{full}.html",
    "scipy": "https://docs.scipy.org/doc/scipy/reference/generated/{full}.html",
    "pandas": "https://pandas.pydata.org/docs/reference/api/{full}.html",
}
_STDLIB = "https://docs.python.org/3/library/{module}.html#{full}"
# short names of scikit-learn that the docstrings use without their module
_SKLEARN_SHORT = ("sklearn.model_selection", "sklearn.metrics", "sklearn.multioutput",
                  "sklearn.tree", "sklearn.base")


def _import(path: str):
    """The object at the dotted ``path``, or None."""
    parts = path.split(".")
    for k in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:k]))
        except Exception:
            continue
        try:
            for attr in parts[k:]:
                obj = getattr(obj, attr)
        except AttributeError:
            return None
        return obj
    return None


def _external_url(target: str) -> str | None:
    target = target.rstrip("()")
    if "." not in target and hasattr(builtins, target):
        kind = "exceptions" if isinstance(getattr(builtins, target), type) and issubclass(
            getattr(builtins, target), BaseException) else "functions"
        return _STDLIB.format(module=kind, full=target)
    if "." not in target:
        for mod in _SKLEARN_SHORT:
            if _import(f"{mod}.{target}") is not None:
                return _EXTERNAL["sklearn"].format(full=f"{mod}.{target}")
        return None
    top = target.split(".")[0]
    if top in _EXTERNAL and _import(target) is not None:
        return _EXTERNAL[top].format(full=target)
    if top in ("difflib", "tempfile", "pathlib", "json", "hashlib", "itertools", "functools",
               "collections", "random", "math", "statistics", "os", "re", "typing"):
        if _import(target) is not None:
            return _STDLIB.format(module=top, full=target)
    return None


def _documented(domain, name: str):
    return domain.objects.get(name)


def _documented_name(domain, obj) -> str | None:
    """The name ``obj`` is documented by: where it is defined, or under a package of that
    module that re-exports it."""
    candidate = f"{getattr(obj, '__module__', '')}.{getattr(obj, '__qualname__', '')}"
    if _documented(domain, candidate):
        return candidate
    parts = (getattr(obj, "__module__", "") or "").split(".")
    for k in range(len(parts) - 1, 0, -1):
        candidate = ".".join(parts[:k]) + "." + (getattr(obj, "__name__", "") or "")
        if _documented(domain, candidate):
            return candidate
    return None


def _resolve(app, env, node, contnode):
    if node.get("refdomain") != "py":
        return None
    target = node.get("reftarget", "")
    if not target or target.startswith("_"):
        return None
    domain = env.get_domain("py")
    builder = app.builder
    fromdoc = node.get("refdoc")
    name = None
    # 1. a path the object is not documented under: find it by what it is
    obj = _import(target) if "." in target else None
    if obj is not None and not inspect.ismodule(obj):
        name = _documented_name(domain, obj)
    # 1b. a name relative to the module the reference is written in, or to one of its
    # packages (``evidence`` in a paper's ``collect``, ``ledger_rows.ledgers`` in its
    # package): the object found there, or the data documented there
    module = node.get("py:module") or ""
    if name is None and module.startswith(("mlcbook", "mlcrepro")):
        short = target.rstrip("()")
        parts = module.split(".")
        for k in range(len(parts), 0, -1):
            full = ".".join(parts[:k]) + "." + short
            if _documented(domain, full):
                name = full
                break
            found = _import(full)
            if found is not None and not inspect.ismodule(found):
                name = _documented_name(domain, found)
                if name is not None:
                    break
    # 1c. data re-exported by a package (``mlcrepro.ledger.STATUSES``), documented in the
    # one module of the package that defines it: data carry no ``__module__``
    if name is None and "." in target.rstrip("()"):
        prefix, last = target.rstrip("()").rsplit(".", 1)
        inside = [h for h in domain.objects
                  if h.startswith(prefix + ".") and h.rsplit(".", 1)[-1] == last]
        if len(inside) == 1:
            name = inside[0]
    # 2. a short name documented once
    if name is None and "." not in target.rstrip("()"):
        hits = [full for full in domain.objects if full.rsplit(".", 1)[-1] == target]
        under = [h for h in hits if module and h.startswith(module + ".")]
        same = [h for h in hits if module and h.startswith(module.split(".")[0] + ".")]
        if len(hits) == 1:
            name = hits[0]
        elif len(under) == 1:  # data of a module of the package the text is written in
            name = under[0]
        elif len(same) == 1:
            name = same[0]
    if name is not None:
        entry = domain.objects[name]
        return _make(builder, fromdoc, entry.docname, entry.node_id, name, contnode)
    # 3. Python, NumPy, scikit-learn: a link to their documentation
    url = _external_url(target)
    if url:
        ref = nodes.reference("", "", internal=False, refuri=url, reftitle=target)
        ref += contnode
        return ref
    return None


def _make(builder, fromdoc, todoc, anchor, title, contnode):
    from sphinx.util.nodes import make_refnode

    return make_refnode(builder, fromdoc, todoc, anchor, contnode, title)


def setup(app):
    app.connect("missing-reference", _resolve)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
