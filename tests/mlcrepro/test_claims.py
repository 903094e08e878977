"""The claims inventory (book/_claims) against the saved ledgers, and mlcrepro.claims itself."""

import csv
import re

import pandas as pd
import pytest

from mlcrepro import claims as C
from mlcrepro._paths import project_root
from mlcrepro.ledger import KINDS, load_ledgers

FOLDER = project_root() / "book" / "_claims"


def _count_lines(path):
    """Claims in one inventory file, counted with the csv module (not pandas)."""
    with open(path, newline="") as fh:
        return sum(1 for _ in csv.DictReader(fh))


# ----------------------------------------------------------------- the committed inventory
@pytest.fixture(scope="module")
def inventory():
    return C.load_inventory()


@pytest.fixture(scope="module")
def ledgers():
    return load_ledgers()


def test_every_reference_resolves_and_every_ledger_row_is_claimed(inventory, ledgers):
    # each `ledger` reference matches exactly one ledger row (claim text within its
    # chapter) unless its claim is announced (a todo says who adds the row); every ledger
    # row is referred to by a claim or listed in extra.csv with a reason
    assert C.problems(inventory, ledgers) == []


def test_coverage_counts_every_claim_of_every_paper_once(inventory, ledgers):
    table = C.coverage(inventory, ledgers)
    for key, paper in C.inventories().items():
        assert table.loc[paper, "claims"] == _count_lines(FOLDER / f"{key}.csv")
    parts = ["with ledger row", "not reproduced", "announced", "missing"]
    assert (table[parts].sum(axis=1) == table["claims"]).all()
    assert table.loc["all papers", "claims"] == sum(
        _count_lines(FOLDER / f"{k}.csv") for k in C.inventories()
    )


def _saved_rows():
    """Every saved ledger row as (chapter, claim, ids), read with the csv module."""
    rows = []
    for path in sorted((project_root() / "book" / "_ledgers").glob("*.csv")):
        with open(path, newline="") as fh:
            for r in csv.DictReader(fh):
                rows.append((r["chapter"], r["claim"].strip(), r.get("claim_ids", "").split()))
    return rows


def test_with_ledger_row_is_the_number_of_claims_whose_rows_carry_their_id(
    inventory, ledgers
):
    # an independent count: a claim is "with ledger row" iff a saved row carries its id,
    # or, for an id no row carries, every reference of its ledger cell names a
    # (chapter, claim) that occurs exactly once in the saved ledgers
    rows = _saved_rows()
    carried = {i for _, _, ids in rows for i in ids}
    texts = {}
    for chapter, claim, _ in rows:
        texts[chapter, claim] = texts.get((chapter, claim), 0) + 1
    expected = {}
    with_csv = {}
    for key in C.inventories():
        with open(FOLDER / f"{key}.csv", newline="") as fh:
            with_csv[key] = list(csv.DictReader(fh))
    for key, claims in with_csv.items():
        for r in claims:
            refs = [x.strip().split(":", 1) for x in r["ledger"].split("||") if x.strip()]
            by_text = bool(refs) and all(texts.get((c, t), 0) == 1 for c, t in refs)
            ok = r["id"] in carried or by_text
            expected[C.inventories()[key]] = expected.get(C.inventories()[key], 0) + ok
    table = C.coverage(inventory, ledgers)
    for paper, n in expected.items():
        assert table.loc[paper, "with ledger row"] == n


HU_CHAPTERS = ("losses", "datasets", "dependence", "knn")


def test_the_ids_of_the_hullermeier_chapters_agree_with_the_readers_references():
    # every row of these chapters carries an id; the inventory line (or extra.csv line)
    # of that id names the row, in words, as '<chapter>:<claim text>'
    with open(FOLDER / "huellermeier2022.csv", newline="") as fh:
        refs = {r["id"]: r["ledger"] for r in csv.DictReader(fh)}
    with open(FOLDER / "extra.csv", newline="") as fh:
        refs |= {r["id"]: r["ledger"] for r in csv.DictReader(fh) if r["id"]}
    rows = [r for r in _saved_rows() if r[0] in HU_CHAPTERS]
    assert len(rows) == 260  # 47 + 48 + 154 + 11
    for chapter, claim, ids in rows:
        assert ids, (chapter, claim)
        for i in ids:
            names = [x.strip() for x in refs[i].split("||")]
            assert f"{chapter}:{claim}" in names, (i, chapter, claim)


def test_claims_not_reproduced_say_why_and_missing_ones_say_what_to_do(inventory):
    assert set(inventory["kind"]) <= set(KINDS)
    no_row = inventory[inventory["ledger"] == ""]
    assert ((no_row["not_reproduced"] != "") | (no_row["todo"] != "")).all()
    # a reason is a sentence, not a flag
    assert (inventory["not_reproduced"].str.len().isin([0]) |
            (inventory["not_reproduced"].str.len() > 20)).all()


def test_resolved_rows_carry_the_ledger_anchor_and_status(inventory, ledgers):
    refs = C.resolve(inventory, ledgers)
    one = refs[refs["matches"] == 1]
    assert len(one) > 0
    for r in one.head(50).itertuples():
        rows = ledgers[ledgers["chapter"] == r.chapter].reset_index(drop=True)
        assert rows.loc[r.row - 1, "claim"] == r.ledger_claim
        assert rows.loc[r.row - 1, "status"] == r.status
        assert r.anchor == f"ledger-{r.chapter}-{r.row}"


def test_a_numeric_claim_quotes_the_value_its_ledger_row_holds(inventory, ledgers):
    # a reference pointed at the wrong row shows up here: a number (or spread) claim
    # whose row resolves quotes the paper's printed value that the row records
    refs = C.resolve(inventory, ledgers)
    refs = refs[refs["matches"] == 1].drop(columns="paper")
    # the paper's values as printed: read every column as text ("0.580", not 0.58)
    text = pd.concat(
        [pd.read_csv(f, dtype=str, keep_default_na=False)
         for f in sorted((project_root() / "book" / "_ledgers").glob("*.csv"))],
        ignore_index=True,
    )
    rows = text.assign(row=text.groupby("chapter").cumcount() + 1)
    both = refs.merge(rows[["chapter", "row", "paper"]], on=["chapter", "row"]).merge(
        inventory[["id", "claim", "kind"]], on="id"
    )
    numeric = both[both["kind"].isin(["number", "spread"])
                   & both["paper"].str.fullmatch(r"-?\d+(\.\d+)?")]
    assert len(numeric) > 150
    for r in numeric.itertuples():
        assert re.search(rf"(?<![\d.]){re.escape(r.paper)}(?!\d)", r.claim), (r.id, r.paper)


# ----------------------------------------------------------------- the functions, on toys
def _ledgers(*rows):
    return pd.DataFrame(rows, columns=["chapter", "claim", "status"])


def _inventory(*rows, paper="Hivemall"):
    frame = pd.DataFrame(rows, columns=list(C.COLUMNS))
    return frame.assign(paper=paper)


LED = _ledgers(
    ("a", "x", "reproduced"), ("a", "y", "differs"), ("b", "x", "reproduced"),
    ("b", "dup", "reproduced"), ("b", "dup", "differs"),
)
NO_EXTRAS = pd.DataFrame(columns=["ledger", "why"])


def test_parse_refs_splits_on_the_separator_and_the_first_colon():
    assert C.parse_refs("a: x:y || b:z") == [("a", "x:y"), ("b", "z")]
    with pytest.raises(ValueError, match="<chapter>:<claim text>"):
        C.parse_refs("no colon here")
    with pytest.raises(TypeError, match="text must be a string"):
        C.parse_refs(None)


def test_resolve_matches_claim_text_within_the_chapter():
    inv = _inventory(
        ("1", "T1", "c", "number", "a:y", "", ""),
        ("2", "T1", "c", "number", "b:x || a:x", "", ""),
        ("3", "T1", "c", "number", "b:dup", "", ""),
        ("4", "T1", "c", "number", "a:none", "", "someone adds it"),
    )
    refs = C.resolve(inv, LED)
    assert refs["matches"].tolist() == [1, 1, 1, 2, 0]
    assert refs["row"].tolist()[:3] == [2, 1, 1]
    assert refs["status"].tolist()[:3] == ["differs", "reproduced", "reproduced"]
    assert refs["anchor"].tolist()[:3] == ["ledger-a-2", "ledger-b-1", "ledger-a-1"]


def test_coverage_by_hand():
    inv = _inventory(
        ("1", "T1", "c", "number", "a:y", "", ""),  # with ledger row
        ("2", "T1", "c", "number", "b:x || a:none", "", ""),  # one ref fails: missing
        ("3", "T1", "c", "number", "", "data not available: the link is dead", ""),
        ("4", "T1", "c", "number", "a:new", "", "helper adds it"),  # announced
        ("5", "T1", "c", "number", "", "", "compute it in chapter a"),  # missing
    )
    table = C.coverage(inv, LED)
    row = table.loc["Hivemall"]
    assert row[["claims", "with ledger row", "not reproduced", "announced", "missing"]].tolist() == [
        5, 1, 1, 1, 2
    ]
    assert row["ledger %"] == 20.0 and row["accounted %"] == 40.0
    assert table.loc["all papers", "claims"] == 5


def test_problems_names_each_kind_of_mismatch():
    inv = _inventory(
        ("1", "T1", "c", "number", "a:none", "", ""),
        ("2", "T1", "c", "number", "b:dup", "", ""),
        ("3", "T1", "c", "number", "a:x", "", "stale todo"),
        ("4", "T1", "c", "number", "a:later", "", "a helper adds it"),
    )
    extras = pd.DataFrame({"ledger": ["b:x", "a:x", "b:gone"], "why": ["w", "w", "w"]})
    out = C.problems(inv, LED, extras)
    assert any("1 -> a:'none' matches no ledger row" in p for p in out)
    assert any("2 -> b:'dup' matches 2 ledger rows" in p for p in out)
    assert any("3: its ledger row exists now; drop the todo" in p for p in out)
    assert not any(" 4 " in p or "'later'" in p for p in out)  # announced is not a problem
    assert any("extra b:'gone' matches no ledger row" in p for p in out)
    assert any("extra a:'x' is also a claim's ledger row" in p for p in out)
    assert any("ledger row a 2 'y' is referred to by no claim" in p for p in out)
    assert not any("ledger row b 1" in p for p in out)  # listed as extra


def _write(folder, key, rows):
    with open(folder / f"{key}.csv", "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(C.COLUMNS)
        w.writerows(rows)


def _full(folder, bad_rows):
    for i, key in enumerate(C.inventories()):
        _write(folder, key, [(f"K{i}", "T1", "c", "number", "a:x", "", "")])
    _write(folder, "hivemall", bad_rows)


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([("", "T1", "c", "number", "a:x", "", "")], "empty id"),
        ([("Z1", "T1", "c", "number", "a:x", "", ""), ("Z1", "T1", "d", "number", "a:y", "", "")],
         "id Z1 is used twice"),
        ([("Z1", "T1", "c", "guess", "a:x", "", "")], "kind 'guess'"),
        ([("Z1", "T1", "c", "number", "a:x", "lost", "")], "has both"),
        ([("Z1", "T1", "c", "number", "", "", "")], "needs a ledger reference"),
        ([("Z1", "T1", "c", "number", "nocolon", "", "")], "<chapter>:<claim text>"),
    ],
)
def test_load_inventory_refuses_a_malformed_file(tmp_path, rows, message):
    _full(tmp_path, rows)
    with pytest.raises(ValueError, match=message):
        C.load_inventory(tmp_path)


def test_load_inventory_needs_every_paper_and_its_columns(tmp_path):
    with pytest.raises(ValueError, match="no inventory for"):
        C.load_inventory(tmp_path)
    _full(tmp_path, [("Z1", "T1", "c", "number", "a:x", "", "")])
    (tmp_path / "hivemall.csv").write_text("id,claim\nZ1,c\n")
    with pytest.raises(ValueError, match="must have the columns"):
        C.load_inventory(tmp_path)
    with pytest.raises(TypeError, match="folder must be a path"):
        C.load_inventory(3)


def test_extras_need_a_reason_and_one_reference(tmp_path):
    assert C.load_extras(tmp_path).empty  # no file: no extras
    (tmp_path / "extra.csv").write_text("ledger,why\na:x,\n")
    with pytest.raises(ValueError, match="say why"):
        C.load_extras(tmp_path)
    (tmp_path / "extra.csv").write_text("ledger,why\na:x || a:y,two rows\n")
    with pytest.raises(ValueError, match="one ledger reference per line"):
        C.load_extras(tmp_path)


def test_coverage_and_resolve_refuse_other_input():
    with pytest.raises(TypeError, match="inventory must be"):
        C.coverage(pd.DataFrame(), LED)
    with pytest.raises(TypeError, match="ledgers must be a pandas DataFrame"):
        C.resolve(_inventory(), [])
    with pytest.raises(ValueError, match="lacks the columns"):
        C.resolve(_inventory(), pd.DataFrame({"claim": []}))


def test_suggest_relinks_pairs_reworded_rows_one_to_one_most_similar_first():
    led = _ledgers(
        ("a", "marginal probability of each label (exact)", "reproduced"),
        ("a", "joint mode of the example", "reproduced"),
        ("a", "something else entirely", "reproduced"),
        ("b", "marginal probability of each label", "reproduced"),
    )
    inv = _inventory(
        ("1", "T1", "c", "number", "a:marginal probability of each label", "", ""),
        ("2", "T1", "c", "number", "a:joint mode of the examples", "", ""),
        ("3", "T1", "c", "number", "b:marginal probability of each label", "", ""),
    )
    sug = C.suggest_relinks(inv, led, NO_EXTRAS)
    assert sug[["chapter", "old", "new", "row"]].values.tolist() == [
        ["a", "joint mode of the examples", "joint mode of the example", 2],
        ["a", "marginal probability of each label",
         "marginal probability of each label (exact)", 1],
    ]
    # b's row resolves already; 'something else entirely' is below the cutoff for both
    assert sug["similarity"].is_monotonic_decreasing
    with pytest.raises(ValueError, match="cutoff"):
        C.suggest_relinks(inv, led, NO_EXTRAS, cutoff=2)


def test_relink_rewrites_references_and_leaves_the_rest_byte_for_byte(tmp_path):
    import shutil

    for path in FOLDER.glob("*.csv"):
        shutil.copy(path, tmp_path / path.name)
    before = {p.name: p.read_bytes() for p in tmp_path.glob("*.csv")}
    assert C.relink(pd.DataFrame(columns=["chapter", "old", "new"]), tmp_path) == 0
    assert {p.name: p.read_bytes() for p in tmp_path.glob("*.csv")} == before
    pairs = pd.DataFrame({"chapter": ["losses"], "old": ["marginal probability of each label"],
                          "new": ["marginal probability of each label, renamed"]})
    assert C.relink(pairs, tmp_path) == 1
    inv = C.load_inventory(tmp_path)
    assert (inv["ledger"] == "losses:marginal probability of each label, renamed").sum() == 1
    changed = [n for n, b in before.items() if (tmp_path / n).read_bytes() != b]
    assert changed == ["huellermeier2022.csv"]
    with pytest.raises(TypeError, match="pairs must be a DataFrame"):
        C.relink({"old": []}, tmp_path)


def test_a_reference_must_point_at_a_row_about_its_own_paper():
    # a chapter drawing on several papers names each row's paper at the head of its
    # source (summary.row_paper); a claim of one paper checked by a row of another fails
    led = pd.DataFrame({
        "chapter": ["m", "m"], "claim": ["x", "y"], "status": ["reproduced"] * 2,
        "paper_ref": ["Hivemall; Wu & Zhou (2017)"] * 2,
        "source": ["Hivemall guide, fmeasure", "Wu & Zhou, Table 1"],
    })
    inv = _inventory(("1", "T1", "c", "number", "m:x", "", ""),
                     ("2", "T1", "c", "number", "m:y", "", ""))
    out = C.problems(inv, led, NO_EXTRAS)
    assert out == ["Hivemall 2 -> m:'y' is a row about Wu & Zhou (2017) (by its source), "
                   "not Hivemall"]
    assert C.resolve(inv, led)["row_paper"].tolist() == ["Hivemall", "Wu & Zhou (2017)"]


def test_clear_done_todos_drops_only_the_todos_of_claims_now_checked(tmp_path):
    for i, key in enumerate(C.inventories()):
        _write(tmp_path, key, [(f"K{i}", "T1", "c", "number", "a:x", "", "")])
    _write(tmp_path, "hivemall", [
        ("Z1", "T1", "c", "number", "a:x", "", "helper adds it"),      # done now
        ("Z2", "T1", "c", "number", "a:later", "", "helper adds it"),  # still announced
        ("Z3", "T1", "c", "number", "", "", "compute it in chapter a"),  # missing
    ])
    assert C.clear_done_todos(LED, tmp_path) == 1
    inv = C.load_inventory(tmp_path).set_index("id")
    assert inv.loc[["Z1", "Z2", "Z3"], "todo"].tolist() == [
        "", "helper adds it", "compute it in chapter a"
    ]
    assert C.clear_done_todos(LED, tmp_path) == 0
