"""Sphinx extension: a repository button only where a real address is configured.

The book names no address it does not know. ``html_theme_options.repository_url`` in
``_config.yml`` is left empty; a build that knows the address sets it there or in the
environment variable ``MLCBOOK_REPOSITORY_URL``, and only then does every page get the
theme's repository button (and the run-this-chapter note a link to it, see ``run_note``).
"""

from __future__ import annotations

import os
from urllib.parse import urlparse

ENV = "MLCBOOK_REPOSITORY_URL"


def repository_url(config) -> str:
    """The configured address of the repository, or ``""`` when none is configured."""
    url = os.environ.get(ENV, "").strip() or str(
        (config.html_theme_options or {}).get("repository_url") or ""
    ).strip()
    if url and urlparse(url).scheme not in ("https", "http"):
        raise ValueError(f"{ENV} / repository_url must be an http(s) address, got {url!r}")
    return url


def _configure(app, config):
    url = repository_url(config)
    opts = dict(config.html_theme_options or {})
    opts["repository_url"] = url
    opts["use_repository_button"] = bool(url)
    config.html_theme_options = opts
    config.mlcbook_repository_url = url


def setup(app):
    app.add_config_value("mlcbook_repository_url", "", "html")
    app.connect("config-inited", _configure, priority=950)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
