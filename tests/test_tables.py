import pandas as pd
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from mlcbook.tables import ranked


def test_ties_at_the_printed_precision_are_shown_and_ordered_by_name():
    s = pd.Series({"b": 0.2120000000000001, "a": 0.212, "c": 0.1, "d": 0.3})
    assert ranked(s) == "c < a = b < d"
    assert ranked({"x": 1.0}) == "x"
    assert ranked(s, decimals=0) == "a = b = c = d"


@given(st.dictionaries(st.text(min_size=1, max_size=3),
                       st.floats(-1e6, 1e6, allow_nan=False), min_size=1, max_size=8),
       st.floats(-1e-9, 1e-9))
def test_last_bit_perturbations_do_not_change_the_printed_ranking(values, eps):
    """A perturbation far below the printed precision leaves the text as it was,
    except where it pushes a value across a rounding boundary (excluded here)."""
    shifted = {k: v + eps for k, v in values.items()}
    assume(all(round(v, 3) == round(v + eps, 3) for v in values.values()))
    assert ranked(values) == ranked(shifted)


def test_bad_input():
    with pytest.raises(ValueError, match="decimals"):
        ranked({"a": 1.0}, decimals=-1)
    with pytest.raises(ValueError, match="finite"):
        ranked({"a": float("nan")})
    with pytest.raises(ValueError, match="empty"):
        ranked({})
