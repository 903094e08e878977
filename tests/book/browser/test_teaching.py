"""What a student sees in every chapter: exercises with hidden solutions, and links onward.

Every chapter ends with exercises written with sphinx-exercise: ``.exercise`` admonitions,
each with a solution that is closed until the reader opens it (a dropdown: a ``details``
element that is not ``open``, or sphinx-exercise's ``dropdown`` class with its content
hidden). Every chapter also links to at least one other chapter.  Both are read from the
page's one visit (visit.py).
"""

from __future__ import annotations

import pytest

from .conftest import SITE

CHAPTERS = ["measures", "losses", "datasets", "dependence", "knn", "blended", "limo",
            "own_predictions"]

@pytest.mark.parametrize("chapter", CHAPTERS)
def test_chapter_has_exercises_with_hidden_solutions(page_visit, chapter):
    assert (SITE / "book" / f"{chapter}.html").exists(), f"{chapter}.html was not built"
    res = page_visit(f"book/{chapter}.html").exercises
    assert res["exercises"] >= 3, f"{chapter}: {res['exercises']} exercises (at least 3 wanted)"
    assert res["solutions"] >= res["exercises"], f"{chapter}: an exercise has no solution"
    assert res["shown"] == 0, f"{chapter}: {res['shown']} solutions are open on arrival"


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_chapter_links_to_another_chapter(page_visit, chapter):
    hrefs = page_visit(f"book/{chapter}.html").article_hrefs
    others = {f"{c}.html" for c in CHAPTERS} - {f"{chapter}.html"}
    assert others & set(hrefs), f"{chapter}: the text links to no other chapter"
