"""The front page's per-paper outcome: counts, words and figure agree with the saved ledgers.

The expected counts are read from the ledger CSV files with :mod:`csv` and attributed to
their papers here, not through :mod:`mlcrepro.summary`.
"""

from __future__ import annotations

import csv
import itertools
import re
from collections import Counter

import matplotlib
import pandas as pd
import pytest

from mlcrepro._paths import project_root
from mlcrepro.ledger import CAUSE_KINDS, load_ledgers
from mlcrepro.outcomes import (
    CAUSE_STYLE,
    OUTCOME_STYLE,
    OUTCOMES,
    TEXT_PT,
    outcomes_markdown,
    paper_outcomes,
    plot_outcomes,
)
from mlcrepro.papers import PAPERS

matplotlib.use("Agg")

LEDGERS = project_root() / "book" / "_ledgers"
#: how the front page counts each status: each under its own name (the paper's spread and
#: ours are two outcomes, never pooled)
GROUP: dict[str, str] = {}


def _paper_of(paper_ref: str, source: str) -> str:
    """The citation a saved row is about: its ledger's paper, or for a ledger of several
    papers (separated by ';') the one whose authors begin the row's source."""
    papers = [p.strip() for p in paper_ref.split(";")]
    if len(papers) == 1:
        return papers[0]
    (hit,) = [p for p in papers if source.startswith(p.split(" (")[0])]
    return hit


@pytest.fixture(scope="module")
def expected() -> dict[str, Counter]:
    out: dict[str, Counter] = {}
    for path in sorted(LEDGERS.glob("*.csv")):
        with open(path, newline="", encoding="utf-8") as f:
            for row in csv.DictReader(f):
                c = out.setdefault(_paper_of(row["paper_ref"], row["source"]), Counter())
                c["rows"] += 1
                c[GROUP.get(row["status"], row["status"])] += 1
                if row["status"] == "differs":
                    c[row["cause"]] += 1
    return out


@pytest.fixture(scope="module")
def table() -> pd.DataFrame:
    return paper_outcomes(load_ledgers())


def test_counts_are_the_saved_ledgers(table, expected):
    assert set(table["citation"]) == set(expected)
    for _, r in table.iterrows():
        want = expected[r["citation"]]
        for col in ("rows", *OUTCOMES, *CAUSE_KINDS):
            assert r[col] == want[col], (r["citation"], col)
        assert r[list(OUTCOMES)].sum() == r["rows"]
        assert r[list(CAUSE_KINDS)].sum() == r["differs"]
    assert table["rows"].sum() == len(load_ledgers())


def test_papers_in_the_books_order_with_their_pages(table):
    order = [p.key for p in PAPERS if p.key in table.index]
    assert list(table.index) == order
    for p in PAPERS:
        if p.key in table.index:
            assert table.loc[p.key, "page"] == f"book/reproduce_{p.page}"


def test_the_words_quote_each_papers_counts_and_link_each_term_once(table):
    text = outcomes_markdown(table)
    lines = text.splitlines()
    assert len(lines) == len(table)
    for line, (_, r) in zip(lines, table.iterrows()):
        assert line.startswith(f"* {{doc}}`{r['citation']} </{r['page']}>`")
        numbers = [int(n) for n in re.findall(r"\*\*(\d+)\*\*", line)]
        shown = [r["rows"]] + [r[c] for c in (*OUTCOMES, *CAUSE_KINDS) if r[c]]
        if r["reproduced"] == r["rows"]:
            shown = [r["rows"]]
        assert numbers == shown, line
    terms = re.findall(r"\{term\}`[^`<]*?(?:<([^>]+)>)?`", text)
    targets = [t or w for t, w in zip(terms, re.findall(r"\{term\}`([^`<]*?)\s*(?:<|`)", text))]
    assert len(targets) == len(set(targets)), "a term is linked twice"


def _panel_bars(ax) -> dict[float, list[float]]:
    """Bar segment widths per bar (y position), left to right."""
    bars: dict[float, list[tuple[float, float]]] = {}
    for patch in ax.patches:
        y = round(patch.get_y() + patch.get_height() / 2, 6)
        bars.setdefault(y, []).append((patch.get_x(), patch.get_width()))
    return {y: [w for _, w in sorted(segs)] for y, segs in bars.items()}


def test_the_figure_draws_the_counts(table):
    fig = plot_outcomes(table)
    upper, lower = fig.axes
    n = len(table)
    # bars from top to bottom are the papers in order (y = n-1, ..., 0)
    for k, (_, r) in enumerate(table.iterrows()):
        shares = _panel_bars(upper).get(float(n - 1 - k), [])
        assert shares == pytest.approx([r[o] / r["rows"] for o in OUTCOMES if r[o]], abs=1e-12)
        counts = _panel_bars(lower).get(float(n - 1 - k), [])
        assert counts == pytest.approx([r[c] for c in CAUSE_KINDS if r[c]], abs=1e-12)
    # the names from top to bottom, without their years
    ticks = sorted(upper.get_yticklabels(), key=lambda t: -t.get_position()[1])
    assert [t.get_text() for t in ticks] == [c.split(" (")[0] for c in table["citation"]]
    matplotlib.pyplot.close(fig)


def _grey(hex_colour: str) -> float:
    r, g, b = (int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b


@pytest.mark.parametrize("styles", [OUTCOME_STYLE, CAUSE_STYLE], ids=["outcomes", "causes"])
def test_every_category_is_told_apart_in_grey(styles):
    # printed in grey, two categories differ by their hatch or by a clearly other grey
    # level (0.15 of the scale: about 38 of 255 levels, well above what print shows)
    for a, b in itertools.combinations(styles, 2):
        sa, sb = styles[a], styles[b]
        assert sa["hatch"] != sb["hatch"] or abs(_grey(sa["color"]) - _grey(sb["color"])) >= 0.15


def test_the_figure_is_phone_sized_with_ten_point_type(table):
    fig = plot_outcomes(table)
    width = fig.get_size_inches()[0]
    # at 100 px an inch, 4.5 inches shown in a 358-px phone column keep 10-pt type
    # (13.9 px) at 11 px, above the 9 px the browser check asks for
    assert width <= 4.6
    sizes = {t.get_fontsize() for t in fig.findobj(matplotlib.text.Text) if t.get_text()}
    assert sizes == {TEXT_PT}
    matplotlib.pyplot.close(fig)


def test_bad_input_is_named():
    with pytest.raises(TypeError, match="ledgers must be a pandas DataFrame"):
        paper_outcomes([1])
    with pytest.raises(ValueError, match="lacks the columns"):
        paper_outcomes(pd.DataFrame({"status": ["reproduced"]}))
    rows = pd.DataFrame(
        {
            "paper_ref": ["Nobody (1999)"],
            "source": ["Table 1"],
            "status": ["reproduced"],
            "cause": [""],
        }
    )
    with pytest.raises(ValueError, match="does not list"):
        paper_outcomes(rows)
    with pytest.raises(ValueError, match="unknown cause kinds"):
        paper_outcomes(rows.assign(paper_ref="Wu & Zhou (2017)", status="differs"))
    with pytest.raises(TypeError, match="paper_outcomes"):
        outcomes_markdown(pd.DataFrame())
    with pytest.raises(ValueError, match="width"):
        plot_outcomes(paper_outcomes(rows.assign(paper_ref="Wu & Zhou (2017)")), width=2)
