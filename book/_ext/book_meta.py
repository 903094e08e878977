"""Sphinx extension: the book's header shows the version of the installed ``mlcbook``.

The version is read from the package metadata (``pyproject.toml``), so the title, the
``version``/``release`` Sphinx variables, the MyST substitution ``{{ version }}`` and the
citation line never disagree with the library the chapters were executed with.

It also keeps scikit-learn's generated metadata-routing methods (``set_fit_request`` and
the like, identical on every estimator) out of the API reference: their docstrings refer
to scikit-learn's own glossary, which this book does not have.
"""

from __future__ import annotations

from importlib.metadata import version


def _set_version(app, config):
    release = version("mlcbook")
    config.version = config.release = release
    # pages quote it as the MyST substitution {{ version }} (Get the code, how to cite)
    config.myst_substitutions = {**(config.myst_substitutions or {}), "version": release}
    title = config.html_title or config.project
    if release not in title:
        config.html_title = f"{title} · v{release}"


def _skip_routing(app, what, name, obj, skip, options):
    if name.startswith("set_") and name.endswith("_request"):
        return True
    return None


def setup(app):
    app.connect("config-inited", _set_version, priority=900)
    app.connect("autodoc-skip-member", _skip_routing)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
