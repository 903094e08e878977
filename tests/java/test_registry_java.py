"""The registry's learners that run Java (Weka's J48 through MEKA, CLUS): fit and predict."""

import pytest

from mlcbook.learners import learner_names

from ..mlcbook.test_learners import JAVA, fits_and_predicts_binary_matrices


@pytest.mark.parametrize("name", [n for n in learner_names() if any(j in n for j in JAVA)])
def test_every_java_learner_fits_and_predicts_binary_matrices(name):
    fits_and_predicts_binary_matrices(name)
