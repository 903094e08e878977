"""Wu & Zhou's Table 1 row of the measures ledger (mlcrepro.wu_zhou2017.table1)."""

from __future__ import annotations

import pytest

from mlcbook import metrics as M
from mlcrepro.ledger import Ledger
from mlcrepro.wu_zhou2017 import table1 as T1


def _led():
    return Ledger("demo", "A. Author (2020)")


def test_one_error_row_and_its_power(monkeypatch):
    e = T1.add_one_error_definition(_led(), draws=4)
    assert e.status == "reproduced" and e.source == "Wu & Zhou, Table 1"
    orig = M.one_error
    monkeypatch.setattr(T1.M, "one_error", lambda Y, F: 1.0 - orig(Y, F))
    with pytest.raises(ValueError, match="differs"):
        T1.add_one_error_definition(_led(), draws=4)


@pytest.mark.parametrize(
    "led, kw, err, match",
    [
        (object(), {}, TypeError, "led must be"),
        (None, {"draws": 0}, ValueError, "draws"),
        (None, {"draws": 2.0}, TypeError, "draws"),
        (None, {"seed": -1}, ValueError, "seed"),
        (None, {"seed": True}, TypeError, "seed"),
    ],
)
def test_one_error_row_refuses_bad_input(led, kw, err, match):
    with pytest.raises(err, match=match):
        T1.add_one_error_definition(_led() if led is None else led, **kw)
