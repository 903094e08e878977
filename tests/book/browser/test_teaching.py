"""What a student sees in every chapter: exercises with hidden solutions, and links onward.

Every chapter ends with exercises written with sphinx-exercise: ``.exercise`` admonitions,
each with a solution that is closed until the reader opens it (a dropdown: a ``details``
element that is not ``open``, or sphinx-exercise's ``dropdown`` class with its content
hidden). Every chapter also links to at least one other chapter.
"""

from __future__ import annotations

import pytest

from .conftest import SITE

CHAPTERS = ["measures", "losses", "datasets", "dependence", "knn", "blended", "limo",
            "own_predictions"]

_EXERCISES = """() => {
  const exercises = document.querySelectorAll('.exercise');
  const solutions = [...document.querySelectorAll('.solution')];
  const hidden = s => {
    if (s.tagName === 'DETAILS') return !s.open;
    const d = s.closest('details');
    if (d) return !d.open;
    if (s.classList.contains('dropdown')) {
      const body = s.querySelector('.admonition-body, section, div:not(.admonition-title)');
      return !!body && body.offsetHeight === 0;
    }
    return false;
  };
  return {exercises: exercises.length, solutions: solutions.length,
          shown: solutions.filter(s => !hidden(s)).length};
}"""


@pytest.fixture(scope="module")
def desktop(browser):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    yield ctx
    ctx.close()


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_chapter_has_exercises_with_hidden_solutions(desktop, site_url, chapter):
    assert (SITE / "book" / f"{chapter}.html").exists(), f"{chapter}.html was not built"
    pg = desktop.new_page()
    pg.goto(f"{site_url}/book/{chapter}.html", wait_until="load")
    res = pg.evaluate(_EXERCISES)
    pg.close()
    assert res["exercises"] >= 3, f"{chapter}: {res['exercises']} exercises (at least 3 wanted)"
    assert res["solutions"] >= res["exercises"], f"{chapter}: an exercise has no solution"
    assert res["shown"] == 0, f"{chapter}: {res['shown']} solutions are open on arrival"


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_chapter_links_to_another_chapter(desktop, site_url, chapter):
    pg = desktop.new_page()
    pg.goto(f"{site_url}/book/{chapter}.html", wait_until="load")
    hrefs = pg.evaluate(
        "[...document.querySelectorAll('article a[href]')]"
        ".map(a => a.getAttribute('href').split('#')[0])"
    )
    pg.close()
    others = {f"{c}.html" for c in CHAPTERS} - {f"{chapter}.html"}
    assert others & set(hrefs), f"{chapter}: the text links to no other chapter"
