"""The causes of the LIMO ledger's differing rows (mlcrepro.wu_zhou2017.causes)."""

from __future__ import annotations

import pytest

from mlcrepro.ledger import tested
from mlcrepro.wu_zhou2017 import causes as C


def test_cause_only_where_the_rule_says_differs():
    c = tested("x", ref="y")
    assert C.cause_if_differs("0.27", 0.2704, c) is None  # within half a unit
    assert C.cause_if_differs("0.27", 0.28, c) is c
    assert C.cause_if_differs("0.27", 0.28, c, spread="0.011") is None  # within spread
    assert C.cause_if_differs("0.27", 0.29, c, spread="0.011") is c
    with pytest.raises(ValueError, match="finite printed number"):
        C.cause_if_differs("inf", 0.1, c)


def test_b3_cause_prefers_a_cells_own_cause():
    causes = C.make_causes()
    own = tested("one cell", ref="here")
    cause_of = C.b3_cause(causes, cells={("cal500", "LIMO", "macro_f1"): own})
    assert cause_of("cal500", "LIMO", "macro_f1") is own
    assert cause_of("enron", "LIMO", "macro_f1") is causes["f1_threshold"]
    assert cause_of("bibtex", "LIMO", "macro_f1") is causes["f1_untested"]
    assert cause_of("bibtex", "LIMO", "coverage") is causes["limo_other"]
    assert cause_of("medical", "GFM", "coverage") is causes["gfm"]
