"""`make test`'s stage runner (tools/stages.py) on a toy Makefile: stages run side by
side up to the slots, each once what it needs has passed, outputs never interleave, and
the first failure stops the rest."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("stages", ROOT / "tools" / "stages.py")
assert _spec is not None and _spec.loader is not None
stages = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(stages)

# a waits (up to 5 s) for the file b writes and fails without it: it passes only when
# b runs while a does; after-b passes only when b has finished before it starts
MAKEFILE = """\
a:
\t@echo a-start; for i in $$(seq 50); do test -e b-started && break; sleep 0.1; done; \\
\t  test -e b-started && echo a-end
b:
\t@echo b-start; touch b-started; sleep 0.5; touch b-finished; echo b-end
after-b:
\t@test -e b-finished && echo after-b-ran
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


def test_stages_run_side_by_side_and_their_outputs_stay_whole(toy, capfd):
    assert stages.run(["a", "b", "c"], needs={}, slots=3, root=toy) == 0
    out = capfd.readouterr().out
    # each stage's output is printed whole, under its heading, with its time
    for name, first, last in [("a", "a-start", "a-end"), ("b", "b-start", "b-end")]:
        head = out.index(f"---- make {name} ----")
        assert head < out.index(first) < out.index(last) < out.index(f"stage {name} took")
    assert out.index("---- make c") < out.index("c-ran")
    assert "all checks passed" in out


def test_no_more_stages_run_at_once_than_the_slots(toy, capfd):
    # with one slot, a runs alone and b never runs beside it: a fails
    assert stages.run(["a", "b"], needs={}, slots=1, root=toy) == 1
    assert "stage a failed" in capfd.readouterr().err


def test_a_stage_starts_only_after_what_it_needs_has_passed(toy, capfd):
    # after-b comes first in the order and a slot is free, yet it waits for b
    assert stages.run(["after-b", "b"], needs={"after-b": ("b",)}, slots=2, root=toy) == 0
    out = capfd.readouterr().out
    assert out.index("b-end") < out.index("stage after-b started") < out.index("after-b-ran")


def test_a_failing_stage_stops_the_others_and_starts_nothing_more(toy, capfd):
    assert stages.run(["slow", "fail", "c"], needs={"c": ("fail",)}, slots=2,
                      root=toy) == 1
    cap = capfd.readouterr()
    # the slow stage was killed before its 30-s sleep ended; c, which needs fail, never ran
    assert not (toy / "slow-finished").exists()
    assert "c-ran" not in cap.out and "stage c started" not in cap.out
    assert "fail-said-this" in cap.out and "stage fail failed" in cap.err
    assert "all checks passed" not in cap.out


def test_needs_naming_a_stage_that_is_not_run_is_refused(toy):
    with pytest.raises(ValueError, match="not run: \\['b'\\]"):
        stages.run(["a"], needs={"a": ("b",)}, slots=2, root=toy)


def test_the_plan_names_every_stage_of_make_test_once():
    assert sorted(stages.STAGES) == sorted(
        ["lint", "unit", "wheel", "java", "pairs", "pdf", "site", "portable-tests",
         "portable-notebooks", "handouts", "browser", "pdfcheck", "newest", "clean-tree"])
    # the site after the PDF it offers; the notebooks (the site's handouts and wheels)
    # and the browser after the site; pdfcheck after the PDF; clean-tree after all
    assert stages.NEEDS["site"] == ("pdf",)
    for stage in ("portable-notebooks", "handouts", "browser"):
        assert "site" in stages.NEEDS[stage]
    assert "pdf" in stages.NEEDS["pdfcheck"]
    assert set(stages.NEEDS["clean-tree"]) == set(stages.STAGES) - {"clean-tree"}
    assert stages.STAGES[-1] == "clean-tree"
    lines = stages.plan()
    assert all(any(line.split()[0] == s for line in lines[1:]) for s in stages.STAGES)
