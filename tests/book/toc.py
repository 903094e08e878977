"""The pages of the book in reading order, from ``_toc.yml`` (shared by the site and PDF checks)."""

from __future__ import annotations

import yaml

from mlcrepro._paths import project_root


def toc_files() -> list[str]:
    """Every ``file`` of ``_toc.yml`` (root first, then chapters and sections in order)."""
    toc = yaml.safe_load((project_root() / "_toc.yml").read_text())
    files = [toc["root"]]

    def walk(entries):
        for e in entries or []:
            if "file" in e:
                files.append(e["file"])
            walk(e.get("sections"))

    walk(toc.get("chapters"))
    for part in toc.get("parts", []):
        walk(part.get("chapters"))
    return files
