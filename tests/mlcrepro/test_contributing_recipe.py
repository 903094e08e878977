"""CONTRIBUTING.md's recipe "Add a paper", followed step by step on a toy paper.

The toy paper ``toy2020`` is written as the recipe says, into a temporary folder: a
folder with ``record.py`` (its :class:`~mlcrepro.paper.Paper`), ``experiments.py`` (no
committed table), ``collect.py`` (``evidence()``: two measures of a 2 × 2 example from the
library), ``ledger_rows.py`` (``ledgers(evidence)``: one row per claim, statuses derived
by the ledger's rules), ``__init__.py`` and a README; its claims inventory
``toy2020.csv`` beside a copy of the book's inventories.  It is registered by the one
edit the recipe names -- the folder imported in ``mlcrepro/papers.py`` and added to
``FOLDERS`` -- applied to that file's text, in a fresh interpreter (so that every module
that reads the papers sees the registered one, as after the edit).  Its ledger is built
and saved as its Reproduce page would save it (into a copy of the saved ledgers), and
the functions the book's pages call then show the paper: the claims coverage and the
ledgers page's tables, the front page's counts, ``mlcrepro check``'s rows and the pages
``make reproduce`` executes.

The recipe "Add a measure" is followed by
``tests/mlcbook/test_registry_common.py::test_a_toy_measure_is_one_entry_and_every_surface_sees_it``.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from mlcrepro._paths import project_root
from mlcrepro.papers import experiments

ROOT = project_root()
KEY = "toy2020"
CITATION = "Toy & Example (2020)"

#: the toy folder, file by file, as the recipe lays it out
FOLDER = {
    "record.py": f'''
        """The record of the toy paper."""

        from mlcrepro.paper import Paper

        __all__ = ["PAPER"]

        PAPER = Paper(
            key="{KEY}",
            citation="{CITATION}",
            bibkey="toy2020example",
            prefix="TY",
            page="{KEY}",
            ledgers=("toy",),
        )
    ''',
    "experiments.py": '''
        """The toy paper's committed tables: none."""

        from mlcrepro.experiment import Experiment

        __all__ = ["EXPERIMENTS"]

        EXPERIMENTS: tuple[Experiment, ...] = ()
    ''',
    "collect.py": '''
        """evidence(): the toy paper's two measures of its 2 x 2 example, from the library."""

        from dataclasses import dataclass

        import numpy as np

        from mlcbook.metrics import hamming_loss, subset_accuracy

        __all__ = ["Evidence", "evidence", "TRUTH", "PREDICTED"]

        TRUTH = np.array([[1, 0], [0, 1]])
        PREDICTED = np.array([[1, 1], [0, 1]])


        @dataclass(frozen=True)
        class Evidence:
            hamming: float
            subset: float


        def evidence() -> Evidence:
            return Evidence(
                hamming=hamming_loss(TRUTH, PREDICTED),
                subset=subset_accuracy(TRUTH, PREDICTED),
            )
    ''',
    "ledger_rows.py": f'''
        """ledgers(evidence): the toy paper's ledger, one row per claim."""

        from mlcrepro.ledger import Ledger, paper_error
        from mlcrepro.{KEY}.record import PAPER

        __all__ = ["ledgers"]


        def ledgers(ev):
            led = Ledger("toy", PAPER.citation)
            led.number("Hamming loss of the 2 x 2 example", "Sec. 1", paper="0.25",
                       ours=ev.hamming, claim_id="TY001")
            led.number("subset accuracy of the 2 x 2 example", "Sec. 1", paper="0.0",
                       ours=ev.subset, claim_id="TY002",
                       cause=paper_error("the first row is predicted exactly"))
            return {{"toy": led}}
    ''',
    "__init__.py": f'''
        """The toy paper: its record and its contract."""

        from mlcrepro.{KEY}.collect import Evidence, evidence
        from mlcrepro.{KEY}.experiments import EXPERIMENTS
        from mlcrepro.{KEY}.ledger_rows import ledgers
        from mlcrepro.{KEY}.record import PAPER

        __all__ = ["PAPER", "EXPERIMENTS", "Evidence", "evidence", "ledgers"]
    ''',
    "README.md": "# `mlcrepro.toy2020` — a toy paper\n",
}

#: the toy paper's claims inventory (book/_claims/toy2020.csv)
INVENTORY = (
    "id,location,claim,kind,ledger,not_reproduced,todo\n"
    "TY001,Sec. 1,Hamming loss of the example is 0.25,number,"
    "toy:Hamming loss of the 2 x 2 example,,\n"
    "TY002,Sec. 1,subset accuracy of the example is 0.0,number,"
    "toy:subset accuracy of the 2 x 2 example,,\n"
)


def register(source: str, key: str) -> str:
    """The recipe's one registration, applied to the text of ``mlcrepro/papers.py``: the
    folder imported beside the others and named last in ``FOLDERS``."""
    source, n_import = re.subn(
        r"^(from mlcrepro import [a-z0-9_, ]+)$", rf"\1, {key}", source, count=1, flags=re.M
    )
    source, n_folder = re.subn(
        r"^(FOLDERS: tuple\[ModuleType, \.\.\.\] = \(\n(?:    [a-z0-9_]+,\n)+)\)",
        rf"\1    {key},\n)",
        source,
        count=1,
        flags=re.M,
    )
    assert (n_import, n_folder) == (1, 1), "papers.py no longer has the lines the recipe edits"
    return source


#: run in a fresh interpreter: the registered papers.py replaces the installed one before
#: any module reads it; then what the book's pages call, with the copied folders
SCRIPT = """
import importlib.util, json, sys
from pathlib import Path

import mlcrepro

tmp = Path(sys.argv[1])
mlcrepro.__path__.append(str(tmp / "folders"))  # repro/mlcrepro/<key>/ of the recipe
spec = importlib.util.spec_from_file_location("mlcrepro.papers", tmp / "papers.py")
papers = importlib.util.module_from_spec(spec)
sys.modules["mlcrepro.papers"] = papers
spec.loader.exec_module(papers)
mlcrepro.papers = papers

from mlcrepro import summary as S
from mlcrepro.check import rows_of
from mlcrepro.claims import coverage, load_extras, load_inventory, problems
from mlcrepro.ledger import load_ledgers
from mlcrepro.outcomes import ledger_pages, paper_outcomes
from mlcrepro.papers import LEDGERS, PAPERS, build_ledgers, experiments, pages, paper

claims, saved = tmp / "_claims", tmp / "_ledgers"
ledger = build_ledgers("toy2020")["toy"]  # the Reproduce page's cell
ledger.save(saved)
ledger.check()
ledgers = load_ledgers(saved)
inventory = load_inventory(claims)
counts = coverage(inventory, ledgers)
summary = S.ledger_summary(ledgers, chapters=LEDGERS)
toy = summary[summary["chapter"] == "toy"]
outcomes = paper_outcomes(ledgers)
print(json.dumps({
    "papers": [p.key for p in PAPERS],
    "ledgers": list(LEDGERS),
    "citation": paper("toy2020").citation,
    "built": ledger.to_frame()[["claim", "ours", "status"]].to_dict("records"),
    "coverage": {k: int(v) for k, v in counts.loc["Toy & Example (2020)"].items()
                 if k in ("claims", "with ledger row", "missing")},
    "problems": problems(inventory, ledgers, load_extras(claims)),
    "counts_html": S.ledger_counts_html(ledgers, chapters=LEDGERS,
                                        pages=ledger_pages(LEDGERS)),
    "summary_rows": int(len(toy)),
    "outcomes": {k: int(outcomes.loc["toy2020", k]) for k in ("rows", "reproduced",
                                                                "differs", "paper error")},
    "check": rows_of("TY001", ledgers)["status"].tolist(),
    "experiments": [e.name for e in experiments()],
    "pages": pages(),
}))
"""


def write_toy_paper(tmp: Path) -> None:
    """The recipe's steps, into ``tmp``: the folder, the claims file, the registration."""
    folder = tmp / "folders" / KEY
    folder.mkdir(parents=True)
    for name, text in FOLDER.items():
        (folder / name).write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    shutil.copytree(ROOT / "book" / "_claims", tmp / "_claims")
    (tmp / "_claims" / f"{KEY}.csv").write_text(INVENTORY, encoding="utf-8")
    shutil.copytree(ROOT / "book" / "_ledgers", tmp / "_ledgers")
    papers = ROOT / "repro" / "mlcrepro" / "papers.py"
    (tmp / "papers.py").write_text(register(papers.read_text("utf-8"), KEY), "utf-8")


def rule(paper: str, ours: float) -> str:
    """The number rule, independently: reproduced within half a unit of the last printed
    digit of ``paper``."""
    decimals = len(paper.split(".")[1]) if "." in paper else 0
    return "reproduced" if abs(float(paper) - ours) <= 0.5 * 10.0**-decimals else "differs"


@pytest.fixture(scope="module")
def shown(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("recipe")
    write_toy_paper(tmp)
    run = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.strip().splitlines()[-1])


def test_the_registration_line_lists_the_paper_last_in_the_books_order(shown):
    assert shown["papers"][-1] == KEY and shown["citation"] == CITATION
    assert shown["ledgers"][-1] == "toy"
    assert f"book/reproduce_{KEY}.md" in shown["pages"]  # make reproduce executes its page
    # the other folders' committed tables are all still listed, the toy adds none
    assert shown["experiments"] == [e.name for e in experiments()]


def test_its_statuses_are_derived_from_the_library_values(shown):
    # by hand: one of the four (instance, label) pairs is wrong; one of two rows exact
    hamming, subset = 1 / 4, 1 / 2
    built = {r["claim"]: r for r in shown["built"]}
    row = built["Hamming loss of the 2 x 2 example"]
    assert float(row["ours"]) == pytest.approx(hamming, abs=1e-15)  # float of a ratio
    assert row["status"] == rule("0.25", hamming)
    row = built["subset accuracy of the 2 x 2 example"]
    assert float(row["ours"]) == pytest.approx(subset, abs=1e-15)
    assert row["status"] == rule("0.0", subset)
    assert shown["check"] == [rule("0.25", hamming)]  # `mlcrepro check TY001`


def test_the_claims_page_counts_its_claims(shown):
    assert shown["coverage"] == {"claims": 2, "with ledger row": 2, "missing": 0}
    assert shown["problems"] == []  # every claim has its row and every row its claim


def test_the_ledgers_page_and_the_front_page_show_its_ledger(shown):
    assert f"reproduce_{KEY}.html" in shown["counts_html"]
    assert shown["summary_rows"] >= 1
    statuses = [rule("0.25", 1 / 4), rule("0.0", 1 / 2)]
    assert shown["outcomes"] == {
        "rows": 2,
        "reproduced": statuses.count("reproduced"),
        "differs": statuses.count("differs"),
        "paper error": statuses.count("differs"),  # the only cause the toy rows give
    }
