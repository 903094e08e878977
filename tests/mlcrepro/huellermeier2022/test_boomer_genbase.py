"""The genbase filter of BOOMER's 2021 runs, on the authors' released folds
(:func:`mlcrepro.huellermeier2022.folds.reference_folds`)."""

from __future__ import annotations

import numpy as np
import pytest

from mlcbook.learners import boomer as boomer_module
from mlcrepro.huellermeier2022.folds import reference_folds

pytestmark = pytest.mark.boomer


# The 112 feature names of ``data/genbase-without-useless-features.arff`` in the
# Boomer repository (mrapp-ke/Boomer, git blob 68199b2d, present from 0.1.0 to
# 2021-12-05; relation "protein-weka.filters.unsupervised.attribute.Remove-R1-
# weka.filters.unsupervised.attribute.RemoveUseless-M100.0"), copied in file order.
BOOMER_GENBASE_112 = """
PS00014 PS00017 PS00018 PS00027 PS00066 PS00120 PS00136 PS00190 PS00197 PS00215
PS00228 PS00284 PS00294 PS00318 PS00402 PS00430 PS00467 PS00496 PS00589 PS00652
PS00832 PS00845 PS00856 PS00879 PS01031 PS01186 PS01192 PS50001 PS50002 PS50003
PS50004 PS50005 PS50006 PS50007 PS50008 PS50011 PS50012 PS50017 PS50030 PS50035
PS50043 PS50049 PS50050 PS50051 PS50052 PS50053 PS50056 PS50063 PS50065 PS50067
PS50069 PS50072 PS50079 PS50081 PS50083 PS50091 PS50099 PS50101 PS50102 PS50106
PS50107 PS50111 PS50119 PS50120 PS50128 PS50131 PS50133 PS50146 PS50152 PS50153
PS50154 PS50156 PS50165 PS50167 PS50168 PS50177 PS50186 PS50192 PS50196 PS50199
PS50222 PS50227 PS50229 PS50235 PS50245 PS50270 PS50273 PS50293 PS50296 PS50303
PS50305 PS50310 PS50311 PS50312 PS50313 PS50314 PS50315 PS50316 PS50317 PS50318
PS50319 PS50320 PS50321 PS50322 PS50323 PS50324 PS50325 PS50326 PS50328 PS50600
PS50804 PS50821
""".split()


def test_genbase_filter_is_the_boomer_repository_file():

    folds = reference_folds("genbase")
    split = folds.splits[0]
    # train and test rows of one split together are all 662 examples, the rows
    # Weka's filter saw when it wrote the Boomer file
    X = np.vstack([split.X_train, split.X_test])
    assert X.shape == (662, 1186)
    kept = boomer_module.useless_features_removed(X, drop=(0,))
    assert [folds.feature_names[j] for j in kept] == BOOMER_GENBASE_112
    assert len(BOOMER_GENBASE_112) == 112
