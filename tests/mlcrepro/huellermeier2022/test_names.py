"""mlcrepro.huellermeier2022.names: the one table of learner names, read both ways."""

from __future__ import annotations

import pandas as pd
import pytest

from mlcbook.learners.registry import learner_config, make_learner
from mlcrepro.huellermeier2022 import names as N
from mlcrepro.huellermeier2022.authors_study import LEARNERS
from mlcrepro.huellermeier2022.reference import load_reference_results


def test_the_table_is_one_to_one_both_ways():
    assert len(N.PAPER_NAMES) == len(N.STUDY_NAMES) == len(N.LEARNER_NAMES)
    for n in N.LEARNER_NAMES:
        assert N.paper_name(n.study) == n.paper
        assert N.study_name(n.paper) == n.study
        assert N.study_learner(n.paper) == n.study


def test_rakel_members_round_trip():
    for k, m in [(1, 6), (2, 5), (26, 28)]:
        study = f"RAkEL-J48-k{k}-m{m}"
        assert N.paper_name(study) == f"RAkEL-k{k}-m{m}"
        assert N.paper_name(study, rakel_m=False) == f"RAkEL-k{k}"
        assert N.study_name(N.paper_name(study)) == study
        assert N.study_learner(f"RAkEL-k{k}") == "RAkEL-J48"


@pytest.mark.parametrize("bad", ["BR", "RAkEL-J48-k0-m3", "RAkEL-J48-k2", "", 3, None])
def test_paper_name_refuses_what_is_no_study_name(bad):
    with pytest.raises(ValueError, match="study must be"):
        N.paper_name(bad)


@pytest.mark.parametrize("bad", ["BR-J48", "RAkEL-k2", "FW", 3])
def test_study_name_refuses_what_is_no_paper_name(bad):
    with pytest.raises(ValueError, match="paper must be"):
        N.study_name(bad)


def test_study_names_are_the_study_learners_and_the_registrys():
    assert tuple(N.STUDY_NAMES.values()) == LEARNERS
    for name in LEARNERS:
        if name != "RAkEL-J48":  # built per (k, m) by the study, not by the registry
            assert learner_config(make_learner(name, 0))


def test_paper_names_are_those_of_the_released_results():
    released = set(load_reference_results()["learner"])
    short = set(N.paper_names(pd.DataFrame({"learner": sorted(released)}))["learner"])
    assert {n.paper for n in N.LEARNER_NAMES if n.paper != "RAkEL"} <= released
    assert {s for s in short if s.startswith("RAkEL-k")}
    assert short <= set(N.STUDY_NAMES) | {s for s in short if s.startswith("RAkEL-k")}


def test_paper_names_checks_its_table():
    with pytest.raises(TypeError, match="table must be"):
        N.paper_names([("BR-J48",)])
    with pytest.raises(ValueError, match="learner"):
        N.paper_names(pd.DataFrame({"x": [1]}))
    with pytest.raises(TypeError, match="learner names must be str"):
        N.paper_names(pd.DataFrame({"learner": [1]}))
    with pytest.raises(ValueError, match="study must be"):
        N.paper_names(pd.DataFrame({"learner": ["FW"]}))
