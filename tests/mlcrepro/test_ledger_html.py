"""The ledger's HTML (mlcrepro.ledger.html): its rows with their mathematics, anchors
and badges, and a cause shared by several rows printed once, below the table."""

import pytest

from mlcrepro.display import BADGES
from mlcrepro.ledger import Ledger, row_anchor, tested, underspecified, unknown

CAUSE = tested("found by a test", ref="tests/test_ledger.py")


def test_a_row_is_rendered_with_its_mathematics_escaped_text_and_badge():
    led = Ledger("chap", "P & Q")
    led.number("$\\alpha$-weighted loss of <BR>", "Table 1", paper="0.43", ours=3 / 7)
    html = led._repr_html_()
    start = html.index(f'<tr id="{row_anchor("chap", 1)}">')
    row = html[start : html.index("</tr>", start)]
    assert '<span class="math notranslate nohighlight">\\(\\alpha\\)</span>' in row
    assert "-weighted loss of &lt;BR&gt;" in row and "<BR>" not in row
    assert "<td data-label='paper'>0.43</td>" in row
    assert "<td data-label='ours'>0.4286</td>" in row  # the paper's decimals + 2
    assert f"<td data-label='status' class='ledger-reproduced'>{BADGES['reproduced']}</td>" in row
    assert "Reproduction ledger: P &amp; Q (1 reproduced, 0 qualitative, 0 differs)" in html


def test_a_shared_cause_is_printed_once():
    led = Ledger("t", "P")
    shared = underspecified("the paper does not say when the optimiser stops")
    for i in range(3):
        led.number(f"x{i}", "Table 2", paper="0.40", ours=0.5 + i, cause=shared)
    led.number("y", "Table 2", paper="0.40", ours=0.9, cause=CAUSE)
    assert led.shared_causes() == {shared: "A"}
    html = led._repr_html_()
    assert html.count(shared.text) == 1 and html.count("note A</a>") == 3
    assert "found by a test" in html
    assert led.cause_counts()["underspecified"] == 3


def test_a_shared_note_says_tested_only_for_a_tested_cause():
    led = Ledger("t", "P")
    ruled_out = unknown("two seeds moved nothing", ref="data/results/x.csv")
    for cause in (ruled_out, ruled_out, CAUSE, CAUSE):
        led.number("x", "Table 2", paper="0.40", ours=0.9, cause=cause)
    html = led._repr_html_()
    assert "<i>See</i> data/results/x.csv." in html
    assert "<i>Tested in</i> tests/test_ledger.py." in html
    assert html.count("Tested in") == 1


def test_the_folded_ledger_holds_the_table_and_counts_its_rows():
    led = Ledger("t", "P")
    led.exact("count", "Sec. 2", paper=3, ours=3)
    led.exact("sign", "Sec. 2", paper="+", ours="-", cause=CAUSE)
    folded = led.collapsed("The ledger")
    html = folded._repr_html_()
    # the summary line: what is inside and how long, counted from the ledger
    assert html.startswith("<details class='ledger-chapter collapsed-section'><summary>"
                           "The ledger: 2 rows (1 reproduced, 1 differs)</summary>")
    assert led._repr_html_() in html
    assert repr(folded).splitlines()[1:] == repr(led).splitlines()
    with pytest.raises(ValueError, match="title"):
        led.collapsed(" ")


def test_each_row_shows_its_claim_ids_and_the_first_row_of_an_id_holds_its_anchor():
    led = Ledger("t", "P")
    led.exact("count", "Sec. 2", paper=3, ours=3, claim_id="PR016")
    led.exact("sign", "Sec. 2", paper="+", ours="-", cause=CAUSE, claim_id=["PR017", "PR018"])
    led.exact("sign again", "Sec. 3", paper="+", ours="+", claim_id="PR017")
    html = led._repr_html_()
    rows = html.split("<tr id=")[1:]
    assert '<a class="claim-id" href="#PR016" id="PR016">PR016</a>' in rows[0]
    assert 'id="PR017">PR017</a> <a class="claim-id" href="#PR018" id="PR018">' in rows[1]
    # a later row of the same id links to it but holds no second anchor (ids are unique)
    assert 'href="#PR017">PR017</a>' in rows[2] and 'id="PR017"' not in rows[2]
    assert html.count('id="PR017"') == 1
