"""Every chapter source (book/NAME.md) is paired with book/NAME.ipynb and the two agree."""

from pathlib import Path

import jupytext
import pytest

from mlcrepro._paths import project_root

BOOK = project_root() / "book"
SOURCES = sorted(BOOK.glob("*.md"))


def _cells(nb):
    return [(c.cell_type, c.source.strip()) for c in nb.cells]


def test_there_are_chapters():
    assert len(SOURCES) >= 3


@pytest.mark.parametrize("md", SOURCES, ids=lambda p: p.name)
def test_pair_in_sync(md: Path):
    ipynb = md.with_suffix(".ipynb")
    assert ipynb.exists(), f"{md.name} has no paired notebook: run `make chapter NB=book/{md.name}`"
    text = jupytext.read(md)
    paired = jupytext.read(ipynb)
    assert text.metadata.get("jupytext", {}).get("formats") == "md:myst,ipynb", md.name
    assert _cells(text) == _cells(paired), (
        f"{md.name} and {ipynb.name} differ: run `make chapter NB=book/{md.name}`"
    )


@pytest.mark.parametrize("md", SOURCES, ids=lambda p: p.name)
def test_code_cells_were_executed(md: Path):
    nb = jupytext.read(md.with_suffix(".ipynb"))
    code = [c for c in nb.cells if c.cell_type == "code"]
    for c in code:
        assert c.get("execution_count") is not None, f"{md.name}: a code cell was never executed"
        for out in c.get("outputs", []):
            assert out.get("output_type") != "error", f"{md.name}: a cell raised an error"
            if out.get("output_type") == "stream":
                assert out.get("name") != "stderr" or "Warning" not in out.get("text", ""), (
                    f"{md.name}: a cell printed a warning: {out.get('text')[:200]}"
                )
