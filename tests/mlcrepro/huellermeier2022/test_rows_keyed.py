"""Rows carry what they are about as data: rewording every claim of the paper's ledgers
changes no table of its Reproduce page and no cell that ``mlcrepro check --recompute``
reruns; and every row of the four ledgers says what it is about."""

from __future__ import annotations

import copy

import pandas as pd
import pytest

from mlcrepro.experiment import Cells
from mlcrepro.huellermeier2022 import views as V
from mlcrepro.huellermeier2022.collect import evidence
from mlcrepro.huellermeier2022.evidence_dependence import CLAIMS, CURVES
from mlcrepro.huellermeier2022.experiments import row_cells
from mlcrepro.huellermeier2022.ledger_rows import ledgers
from mlcrepro.huellermeier2022.names import study_learner
from mlcrepro.ledger import Ledger


@pytest.fixture(scope="module")
def ev():
    return evidence()


@pytest.fixture(scope="module")
def built(ev):
    return ledgers(ev)


def _reworded(leds: dict[str, Ledger]) -> dict[str, Ledger]:
    """The same ledgers with every claim's words reversed and numbered: no wording left."""
    out = copy.deepcopy(leds)
    for led in out.values():
        for i, e in enumerate(led.entries):
            e.claim = f"row {i}: " + " ".join(reversed(e.claim.split()))
    return out


def _tables(ev, leds: dict[str, Ledger]) -> dict[str, object]:
    """Every table of the Reproduce page that selects ledger rows, as plain data."""
    cc = V.claim_counts(ev.dependence.sec53, leds["dependence"])
    return {
        "table2": V.table2_verdicts(leds["datasets"]).frame,
        "claim_counts": cc.frame,
        "claim_links": cc.links,
        "released": V.released(leds["dependence"]).frame,
        "by_learner": V.released_by_learner(leds["dependence"], ev.dependence),
        "losses": V.losses_verdicts(leds["losses"]).frame,
        "numbers": V.numbers(leds["losses"], V.LOSSES_NUMBERS).frame,
        "knn": V.knn_verdicts(leds["knn"]).frame,
        "tally": V.tally(leds["dependence"], source="released profiles"),
    }


def _selection(leds: dict[str, Ledger]) -> list[tuple[Cells, ...]]:
    """What a recompute of each row would rerun: its folder's ``row_cells``."""
    return [
        row_cells({"chapter": name, "claim": e.claim, "source": e.source, "about": e.about})
        for name, led in leds.items()
        for e in led.entries
    ]


def test_rewording_every_claim_changes_no_page_table_and_no_recompute(ev, built):
    again = _reworded(built)
    # the rewording reached every row
    old = [e.claim for led in built.values() for e in led.entries]
    new = [e.claim for led in again.values() for e in led.entries]
    assert len(old) == len(new) > 250 and not set(old) & set(new)
    before, after = _tables(ev, built), _tables(ev, again)
    for name in before:
        if isinstance(before[name], pd.DataFrame):
            pd.testing.assert_frame_equal(before[name], after[name], obj=name)
        else:
            assert before[name] == after[name], name
    assert _selection(built) == _selection(again)


def test_every_row_says_what_it_is_about(built):
    for name, led in built.items():
        for e in led.entries:
            assert e.about, (name, e.claim_ids)
    # the comparison rows and the Sec. 5.3 readings select as the page reads them
    dep = built["dependence"]
    assert len(dep.where(dataset="emotions", learner="BR")) == 2  # Hamming and subset 0/1
    for c in CLAIMS:
        rows = [e for f in ("binomial", "polynomial") for e in dep.where(quantity=c.name, loss=f)]
        assert [e.claim_ids[0] for e in rows] == list(c.ids)


def test_recompute_selects_the_cells_of_what_a_row_is_about(built):
    dep = {e.claim_ids[0]: e for e in built["dependence"].entries}
    (ex037,) = row_cells({"chapter": "dependence", "about": dep["EX037"].about})
    assert ex037 == Cells("dependence_authors", {"learner": ("BR-J48",), "dataset": ("emotions",)})
    (hu096,) = row_cells({"chapter": "dependence", "about": dep["HU096"].about})
    assert hu096.where == {"learner": ("RAkEL-J48",)}  # k = 2 and k = 5: one study learner
    assert row_cells({"chapter": "dependence", "about": dep["HU085"].about}) == ()  # setup
    knn = {e.claim_ids[0]: e for e in built["knn"].entries}
    (hu107,) = row_cells({"chapter": "knn", "about": knn["HU107"].about})
    assert hu107 == Cells("knn_fig4", {"dataset": ("birds", "flags-12")})
    assert [c.table for c in row_cells({"chapter": "knn", "about": knn["EX012"].about})] == [
        "knn_fig4_lexicographic"
    ]
    assert row_cells({"chapter": "losses", "about": {"table": "Table 1"}}) == ()
    with pytest.raises(TypeError, match="about"):
        row_cells({"chapter": "dependence", "about": "BR on emotions"})


class _Reading(float):
    """A stand-in for a curve summary: every field and item a number, 1.0."""

    def __getattr__(self, name: str) -> float:
        return 1.0

    def __getitem__(self, name: str) -> float:
        return 1.0


class _Watch(dict):
    """The curve summaries a claim's rule reads, noting the learners of each curve read."""

    def __init__(self, curves: dict) -> None:
        super().__init__(curves)
        self.seen: set[str] = set()

    def __getitem__(self, pair: tuple[str, str]) -> _Reading:
        self.seen.update(pair)
        return dict.__getitem__(self, pair)


def test_each_sec53_claim_names_the_learners_whose_curves_it_reads():
    # a claim's rule must read only the curves between its learners (a KeyError
    # otherwise), and read a curve of each of them
    for c in CLAIMS:
        mine = {p: _Reading(1.0) for p in CURVES if set(p) <= set(c.learners)}
        assert mine, c.name
        watch = _Watch(mine)
        c.where(watch)
        assert watch.seen == set(c.learners), c.name
        for n in c.learners:
            study_learner(n)  # each a learner of the study (a ValueError otherwise)
