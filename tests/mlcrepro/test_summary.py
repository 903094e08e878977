"""The results-at-a-glance tables agree with the ledgers they summarise."""

from __future__ import annotations

import re

import pandas as pd
import pytest

from mlcrepro.ledger import Ledger, load_ledgers, paper_error, row_anchor
from mlcrepro.outcomes import ledger_pages
from mlcrepro.papers import ledger_page
from mlcrepro._paths import project_root
from mlcrepro.summary import (
    claim_group,
    errata,
    errata_html,
    ledger_summary,
    paper_summary,
    row_paper,
    summary_html,
    ledger_counts_html,
    VERDICT_SYMBOLS,
)

ORDER = ["b", "a"]


def _ledgers() -> pd.DataFrame:
    a = Ledger("a", "Smith & Jones (2001)")
    a.number("x", "Table 2", paper="0.5", ours=0.5)
    a.number("y", "Table 2, Thm 1", paper="0.5", ours=0.7,
             cause=paper_error("typo in the paper; see text"))
    a.qualitative("z", "Sec. 4.2", paper="", evidence="seen", agrees=True, note="shape only")
    a.number("w", "Table 2", paper="1", ours=1.0)
    b = Ledger("b", "Smith & Jones (2001); Doe (2010)")
    b.number("u", "Doe, Table 1", paper="0.25", ours=0.25)
    frames = [led.to_frame().assign(chapter=led.chapter, paper_ref=led.paper) for led in (a, b)]
    return pd.concat(frames, ignore_index=True)


def test_groups_and_papers_of_sources():
    assert claim_group("Sec. 5.3, Fig. 2") == "Sec. 5"
    assert claim_group("Table B.3") == "Table B.3"
    assert claim_group("Tables 2-4") == "Tables 2-4"
    assert claim_group("Park & Read, Table 1 caption") == "Table 1"
    assert claim_group("nowhere in particular") == "nowhere in particular"
    assert row_paper("Smith & Jones (2001); Doe (2010)", "Doe, Table 1") == "Doe (2010)"
    with pytest.raises(ValueError, match="does not start with one of the papers"):
        row_paper("Smith & Jones (2001); Doe (2010)", "Roe, Table 1")
    with pytest.raises(TypeError, match="source"):
        claim_group(3)


def test_summary_counts_verdicts_rows_and_order():
    s = ledger_summary(_ledgers(), chapters=ORDER)
    assert list(s["chapter"]) == ["b", "a", "a"]  # reading order, then ledger order
    assert list(s["paper"]) == ["Doe (2010)", "Smith & Jones (2001)", "Smith & Jones (2001)"]
    t2 = s[(s.chapter == "a") & (s.claims == "Table 2")].iloc[0]
    assert (t2.n, t2.reproduced, t2.qualitative, t2.differs) == (3, 2, 0, 1)
    assert t2.rows == [1, 2, 4] and t2.verdict == "partly"
    assert t2.reason == "typo in the paper"  # the first clause of the note
    sec4 = s[s.claims == "Sec. 4"].iloc[0]
    assert sec4.verdict == "qualitatively" and sec4.reason == "shape only"
    assert s[s.chapter == "b"].iloc[0].verdict == "reproduced"


def test_paper_summary_adds_up():
    led = _ledgers()
    p = paper_summary(led, chapters=ORDER)
    assert p.loc["all papers", "n"] == len(led)
    for status in ("reproduced", "qualitative", "differs"):
        assert p.loc["all papers", status] == (led["status"] == status).sum()
    assert p.loc["Smith & Jones (2001)", "chapters"] == "a"
    # Doe's home chapter (b) comes first in reading order
    assert list(p.index) == ["Doe (2010)", "Smith & Jones (2001)", "all papers"]


def test_papers_follow_their_home_chapter():
    led = _ledgers()
    extra = led.iloc[[0, 0, 0]].assign(chapter="b", paper_ref="Smith & Jones (2001); Doe (2010)",
                                        source="Smith & Jones, Table 9")
    # Smith & Jones now has 4 rows in a and 3 in b: home a; Doe (1 row, home b) comes first
    # when b is read first, and after when a is
    both = pd.concat([led, extra], ignore_index=True)
    assert list(dict.fromkeys(ledger_summary(both, ["b", "a"])["paper"])) == [
        "Doe (2010)", "Smith & Jones (2001)"]
    assert list(dict.fromkeys(ledger_summary(both, ["a", "b"])["paper"])) == [
        "Smith & Jones (2001)", "Doe (2010)"]


PAGES = {"a": "page_a.html", "b": "page_b.html"}


def test_every_link_of_the_summary_finds_its_ledger_row():
    led = _ledgers()
    html = summary_html(ledger_summary(led, ORDER), pages=PAGES)
    targets = re.findall(r"href='page_[ab].html#([^']+)'", html)
    # each ledger's rows on the page that shows that ledger
    assert re.findall(r"href='(page_[ab]).html#ledger-([ab])-", html) == [
        ("page_b", "b"), ("page_a", "a"), ("page_a", "a"), ("page_a", "a")]
    assert targets == ["ledger-b-1", "ledger-a-1", "ledger-a-4", "ledger-a-3"]
    shown = "".join(
        Ledger.from_frame(rows, ch)._repr_html_() for ch, rows in led.groupby("chapter")
    )
    ids = set(re.findall(r'id="([^"]+)"', shown))
    assert set(targets) <= ids and row_anchor("a", 2) in ids


def test_committed_ledgers_are_summarised_completely():
    led = load_ledgers()
    s = ledger_summary(led)
    assert s["n"].sum() == len(led)
    per_chapter = s.explode("rows").groupby("chapter")["rows"].apply(sorted)
    for chapter, rows in per_chapter.items():
        assert rows == list(range(1, (led["chapter"] == chapter).sum() + 1)), chapter


def test_the_errata_are_the_saved_rows_whose_cause_is_the_paper():
    """Read from the saved CSV files, not through the summary: every row whose cause is
    an error of the paper, and only those, with its row number in its chapter's ledger."""
    expected = set()
    for path in sorted((project_root() / "book" / "_ledgers").glob("*.csv")):
        rows = pd.read_csv(path, dtype=str, keep_default_na=False)
        for i, r in enumerate(rows.itertuples(), 1):
            if r.cause == "paper error":
                expected.add((path.stem, i, r.claim))
    table = errata(load_ledgers())
    assert set(zip(table["chapter"], table["row"], table["claim"])) == expected
    assert len(expected) >= 5  # the losses, dependence, blended and limo chapters find some
    html = errata_html(table, pages=ledger_pages(table["chapter"].unique()))
    # each row linked on its paper's Reproduce page (read from the Paper records)
    for chapter, row, _ in expected:
        page = f"reproduce_{ledger_page(chapter).page}.html"
        assert f"href='{page}#{row_anchor(chapter, row)}'" in html
    # an erratum recorded by several rows with one proof is listed once
    assert html.count("<li>") == table["proof"].nunique()
    # no TeX outside the maths MathJax typesets (the errata hold formulas, each in a span)
    outside = re.sub(r'<span class="math[^"]*">.*?</span>', "", html)
    assert "$" not in outside and "\\" not in outside


def test_bad_input_is_named():
    with pytest.raises(TypeError, match="ledgers must be a pandas DataFrame"):
        ledger_summary([1, 2])
    with pytest.raises(ValueError, match="lacks the columns"):
        ledger_summary(pd.DataFrame({"chapter": ["a"]}))
    with pytest.raises(ValueError, match="does not list"):
        ledger_summary(_ledgers(), chapters=["a"])
    with pytest.raises(TypeError, match="summary must be"):
        summary_html(pd.DataFrame(), pages={})
    with pytest.raises(ValueError, match="no page for the ledgers"):
        summary_html(ledger_summary(_ledgers(), ORDER), pages={"a": "x.html"})
    with pytest.raises(TypeError, match="pages must map each ledger"):
        summary_html(ledger_summary(_ledgers(), ORDER), pages=["x.html"])


def test_papers_come_in_the_order_asked_for():
    html = summary_html(ledger_summary(_ledgers(), ORDER), pages=PAGES,
                        order=["Smith & Jones (2001)", "Doe (2010)"])
    assert html.index("<caption>Smith &amp; Jones") < html.index("<caption>Doe")


def test_rows_within_the_papers_spread_are_counted_apart():
    led = Ledger("c", "Wu & Zhou (2017)")
    led.spread("a", "Table B.3", paper="0.20", spread="0.05", ours=0.24)
    led.number("b", "Table B.3", paper="0.20", ours=0.2)
    table = ledger_summary(led.to_frame().assign(chapter="c", paper_ref=led.paper))
    row = table.iloc[0]
    assert (row["reproduced"], row["within spread"], row["differs"]) == (1, 1, 0)
    assert row["verdict"] == "reproduced"  # nothing differs, nothing merely qualitative
    html = summary_html(table, pages={"c": "c.html"})
    assert "1&nbsp;±</span>" in html and "1&nbsp;✔</span>" in html


def test_fragile_and_our_spread_get_columns_only_where_rows_have_them():
    base = _ledgers()
    assert "fragile" not in paper_summary(base, ORDER).columns
    assert "± ours" not in summary_html(ledger_summary(base, ORDER), pages=PAGES)
    c = Ledger("c", "Smith & Jones (2001)")
    c.ordering("o", "Sec. 5", paper="A beats B", rule="A < B", holds=True,
               robustness=(57, 200))
    c.spread("s", "Table 3", paper="0.50", spread=0.1, spread_of="ours", ours=0.55)
    rows = pd.concat([base, c.to_frame().assign(chapter="c", paper_ref=c.paper)],
                     ignore_index=True)
    table = paper_summary(rows, ["b", "a", "c"])
    assert table.loc["all papers", "fragile"] == 1
    assert table.loc["all papers", "within our spread"] == 1
    html = summary_html(ledger_summary(rows, ["b", "a", "c"]), pages={**PAGES, "c": "c.html"})
    assert "1&nbsp;fragile</span>" in html and "1&nbsp;± ours</span>" in html
    # a group of claims with a fragile row and no difference is only partly reproduced;
    # one within our spread counts as reproduced, as one within the paper's does
    s = ledger_summary(rows, ["b", "a", "c"]).set_index(["chapter", "claims"])
    assert s.loc[("c", "Sec. 5"), "verdict"] == "partly"
    assert s.loc[("c", "Table 3"), "verdict"] == "reproduced"


def test_every_ledgers_counts_link_it_on_its_reproduce_page():
    led = load_ledgers()
    html = ledger_counts_html(led, pages=ledger_pages(led["chapter"].unique()))
    for path in sorted((project_root() / "book" / "_ledgers").glob("*.csv")):
        rows = pd.read_csv(path, dtype=str, keep_default_na=False)
        page = f"reproduce_{ledger_page(path.stem).page}.html"
        m = re.search(rf"<tr><td data-label='ledger'><a href='{page}#ledger-{path.stem}-1'>"
                      rf"{path.stem}</a></td>.*?</tr>", html)
        assert m, path.stem
        row = m.group(0)
        assert f"<td data-label='rows'>{len(rows)}</td>" in row
        for status, n in rows["status"].value_counts().items():
            assert f"{n}&nbsp;{VERDICT_SYMBOLS[status]}</span>" in row, (path.stem, status)


def test_without_pages_the_rows_are_linked_on_the_same_page():
    # a Reproduce page lists its own errata: the links stay on that page
    html = errata_html(errata(_ledgers(), ORDER), titles={"a": "this page"})
    assert "(this page: row <a href='#ledger-a-2'>2</a>)" in html
    assert "href='#ledger-b-1'" in summary_html(ledger_summary(_ledgers(), ORDER))
