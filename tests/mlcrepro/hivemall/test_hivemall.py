"""Hivemall's worked example by hand, and its rows in the ledger that hosts them."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from mlcrepro import hivemall
from mlcrepro.printed_numbers import printed


def test_the_counts_and_values_by_hand():
    ev = hivemall.evidence()
    # per post tp/fn/fp by reading the two columns of the guide's table
    assert ev.counts[["tp", "fn", "fp"]].values.tolist() == [
        [1, 1, 1],
        [1, 1, 1],
        [0, 1, 0],
        [1, 0, 0],
        [2, 0, 0],
        [2, 0, 1],
        [1, 1, 0],
    ]
    assert (ev.tp, ev.fn, ev.fp) == (8, 4, 3)
    # F1 = 2*8 / (2*8 + 4 + 3) = 16/23, F2 = 5*8 / (4*(8 + 4) + 8 + 3) = 40/59: the
    # library divides the pooled counts once, so the doubles are the correctly rounded ones
    assert ev.f1 == 16 / 23 and ev.f2 == 40 / 59 and ev.sk_f2 == 40 / 59
    assert (ev.precision, ev.recall) == (8 / 11, 8 / 12)
    # 5PR/(4P+R) rounds differently in the last bit (one unit in the last place)
    assert ev.f2_via_pr != ev.f2 and abs(ev.f2_via_pr - ev.f2) == np.spacing(ev.f2)
    # the labels in the order they first appear in the guide's table (binarize keeps it)
    assert ev.labels == ("cat", "bird", "dog")


def test_the_printed_values_are_ours_to_the_last_digit():
    values = printed("hivemall")["value"].tolist()
    ev = hivemall.evidence()
    assert values == [repr(ev.f1), repr(ev.f2)]


def test_the_rows_are_reproduced_and_see_a_wrong_value():
    led = hivemall.rows(hivemall.evidence())
    assert [e.status for e in led.entries] == ["reproduced"] * 4
    assert [e.claim_ids for e in led.entries] == [("HM001",), ("HM002",), ("HM003",), ("HM004",)]
    # a number row forgives 1e-15 (the ledger's floating-point slack), so its power is
    # shown one printed unit in the 15th decimal off; the last digit itself is held by
    # the exact row HM003 and by the test above
    wrong = dataclasses.replace(hivemall.evidence(), f1=16 / 23 + 2e-15)
    with pytest.raises(ValueError, match="differs"):
        hivemall.rows(wrong)
    wrong = dataclasses.replace(hivemall.evidence(), sk_f2=float(np.nextafter(40 / 59, 1)))
    with pytest.raises(ValueError, match="differs"):
        hivemall.rows(wrong)


def test_the_rows_cannot_be_saved_on_their_own(tmp_path):
    led = hivemall.rows(hivemall.evidence())
    with pytest.raises(ValueError, match="chapter"):
        led.save(tmp_path)


def test_rows_refuse_other_evidence():
    with pytest.raises(TypeError, match="evidence must be"):
        hivemall.rows({"f1": 16 / 23})  # type: ignore[arg-type]


def test_the_tags_are_the_guides_and_frozen():
    assert len(hivemall.TRUTH) == len(hivemall.PREDICTED) == 7
    assert hivemall.PREDICTED[2] == ()  # the post with no predicted tag
    with pytest.raises(dataclasses.FrozenInstanceError):
        hivemall.evidence().f1 = 0.0  # type: ignore[misc]
