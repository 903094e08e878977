"""Whose software does each cell of the learner study's work (the rebuild's report)."""

from __future__ import annotations

import pytest

from mlcrepro.huellermeier2022.authors_study import LEARNERS
from mlcrepro.huellermeier2022.experiments import DEPENDENCE_TABLE, study_software
from mlcrepro.reproduce import experiments
from mlcrepro.runner import cells


def test_every_cell_of_the_study_is_named_by_its_learners_software():
    (e,) = experiments([DEPENDENCE_TABLE])
    assert e.software is study_software
    (spec,) = e.specs()
    names = [str(c) for c in cells(spec)]  # as the cells' log names them
    assert len(names) == 720
    by = {n: study_software(n) for n in names}
    for name, software in by.items():
        learner = name.split("/")[1]
        assert ("J48" in software) == learner.endswith("-J48")
        assert ("CLUS" in software) == learner.endswith("-CLUS")
        assert ("mlrl-boomer" in software) == learner.startswith("BOOMER")
    assert {n.split("/")[1] for n in names} == set(LEARNERS)
    assert len(set(by.values())) == 3


@pytest.mark.parametrize("cell", ["enron/MLkNN/0", "enron/BR-J48", "BR-J48"])
def test_a_name_that_is_no_cell_of_the_study_is_refused(cell):
    with pytest.raises(ValueError, match="dataset/learner/split"):
        study_software(cell)
