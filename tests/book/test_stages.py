"""`make test`'s stage runner (tools/stages.py) on a toy Makefile: lanes run side by side,
a lane's stages in order, outputs never interleave, and the first failure stops the rest."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("stages", ROOT / "tools" / "stages.py")
assert _spec is not None and _spec.loader is not None
stages = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(stages)

MAKEFILE = """\
a:
\t@echo a-start; for i in $$(seq 100); do test -e b-started && break; sleep 0.1; done; \\
\t  test -e b-started; echo a-end
b:
\t@echo b-start; touch b-started; echo b-end
c:
\t@echo c-ran
fail:
\t@echo fail-said-this; exit 3
slow:
\t@echo slow-start; sleep 30; touch slow-finished
"""


@pytest.fixture
def toy(tmp_path: Path) -> Path:
    (tmp_path / "Makefile").write_text(MAKEFILE)
    return tmp_path


def test_lanes_run_side_by_side_and_their_outputs_stay_whole(toy, capfd):
    # side by side: stage a waits (up to 10 s) for the file stage b writes, and fails
    # without it, so it passes only when b runs while a does
    assert stages.run([[["a"], ["b", "c"]]], root=toy) == 0
    out = capfd.readouterr().out
    # the second lane's stages are printed whole, in order, after the first lane's
    lane2 = out.index("---- make b")
    assert out.index("a-end") < lane2 < out.index("b-start") < out.index("b-end")
    assert out.index("b-end") < out.index("---- make c") < out.index("c-ran")
    assert "make test: stage a took" in out and "make test: stage c took" in out
    assert "all checks passed" in out


def test_a_failing_stage_stops_the_other_lane_and_the_next_rounds(toy, capfd):
    assert stages.run([[["slow"], ["fail"]], [["c"]]], root=toy) == 1
    cap = capfd.readouterr()
    # the slow stage was killed before its 30-s sleep ended, and the next round never ran
    assert not (toy / "slow-finished").exists()
    assert "c-ran" not in cap.out
    assert "fail-said-this" in cap.out and "stage fail failed" in cap.err
    assert "all checks passed" not in cap.out


def test_a_stage_that_fails_in_the_printed_lane_stops_its_lane(toy, capfd):
    assert stages.run([[["fail", "c"], ["b"]]], root=toy) == 1
    cap = capfd.readouterr()
    assert "c-ran" not in cap.out and "stage fail failed" in cap.err


def test_the_plan_names_every_stage_of_make_test_once():
    names = [s for lanes in stages.ROUNDS for lane in lanes for s in lane]
    assert sorted(names) == sorted(
        ["lint", "unit", "wheel", "java", "pairs", "pdf", "site", "portable-tests",
         "portable-notebooks", "handouts", "browser", "pdfcheck", "newest", "clean-tree"])
    # the site comes after the PDF it offers (in one lane), the notebooks (the site's
    # handouts) and the browser in a later round than the site, clean-tree last and alone
    def place(stage):
        return next((r, lane.index(stage), lane) for r, lanes in enumerate(stages.ROUNDS)
                    for lane in lanes if stage in lane)

    r_pdf, i_pdf, lane_pdf = place("pdf")
    r_site, i_site, lane_site = place("site")
    assert lane_pdf is lane_site and i_pdf < i_site
    assert place("portable-notebooks")[0] > r_site and place("browser")[0] > r_site
    assert place("handouts")[0] > r_site  # it runs the handouts and wheels the site built
    assert place("pdfcheck")[0] > r_pdf or place("pdfcheck")[2] is lane_pdf
    assert stages.ROUNDS[-1] == [["clean-tree"]]
