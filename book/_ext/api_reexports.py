"""Sphinx extension: each name of the API reference is documented once, where it is imported.

``mlcbook.learners``, ``mlcbook.datasets`` and ``mlcbook.plots`` re-export their modules'
names; their pages document the package with ``:imported-members:`` (so that
``mlcbook.learners.LIMO`` is the documented name, the one users import) and then each
module with ``:members:``. A module's member that its package re-exports is skipped there:
documented twice it would be a duplicate object description, and the module's section keeps
only what the package does not offer.
"""

from __future__ import annotations

import sys


def _reexported(obj) -> bool:
    module = getattr(obj, "__module__", None) or ""
    name = getattr(obj, "__name__", None)
    if "." not in module or not name:
        return False
    package = sys.modules.get(module.rsplit(".", 1)[0])
    exported = getattr(package, "__all__", ()) if package is not None else ()
    return name in exported and getattr(package, name, None) is obj


def _skip(app, what, name, obj, skip, options):
    imported = options.get("imported-members", options.get("imported_members"))
    if what == "module" and not imported and _reexported(obj):
        return True
    return None


def setup(app):
    app.connect("autodoc-skip-member", _skip)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
