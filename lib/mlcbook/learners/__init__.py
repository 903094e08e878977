"""scikit-learn estimators of the papers, and thresholding of score matrices."""

from ._weka import JAR_SHA256 as WEKA_JAR_SHA256
from ._weka import WekaError
from ._weka import server_cpu_seconds as weka_server_cpu_seconds
from .blended import BlendedLinearClassifier
from .boomer import BOOMER_2021, BOOMER_VARIANTS, Boomer2021, make_boomer
from .clus import ClusPCT
from .gfm import GFM, gfm_predict
from .j48 import J48Classifier
from .knn import LossMinimizingKNN, consensus_mask, minimize_summed_loss
from .limo import LIMO, limo_objective
from .meka import MekaBR, MekaCC, MekaLC, MekaRAkEL
from .mlknn import MLkNN
from .reductions import LabelPowerset, RAkEL
from .registry import LEARNERS, learner_config, learner_names, make_learner
from .thresholds import InstanceThreshold, LabelThreshold, column_thresholds, row_thresholds
from .tuned import TunedThresholdMultiLabelCV

__all__ = [
    "BOOMER_2021",
    "BOOMER_VARIANTS",
    "Boomer2021",
    "ClusPCT",
    "GFM",
    "LEARNERS",
    "LIMO",
    "BlendedLinearClassifier",
    "InstanceThreshold",
    "J48Classifier",
    "LabelPowerset",
    "LabelThreshold",
    "LossMinimizingKNN",
    "MLkNN",
    "MekaBR",
    "MekaCC",
    "MekaLC",
    "MekaRAkEL",
    "RAkEL",
    "TunedThresholdMultiLabelCV",
    "WEKA_JAR_SHA256",
    "WekaError",
    "column_thresholds",
    "consensus_mask",
    "gfm_predict",
    "learner_config",
    "learner_names",
    "limo_objective",
    "make_boomer",
    "make_learner",
    "minimize_summed_loss",
    "row_thresholds",
    "weka_server_cpu_seconds",
]
