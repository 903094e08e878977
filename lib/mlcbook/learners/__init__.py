"""scikit-learn estimators of the papers, and thresholding of score matrices."""

from .gfm import GFM, gfm_predict
from .limo import LIMO, limo_objective
from .mlknn import MLkNN
from .thresholds import InstanceThreshold, LabelThreshold, column_thresholds, row_thresholds
from .knn import LossMinimizingKNN, consensus_mask, minimize_summed_loss
from .blended import BlendedLinearClassifier, blended_grid, run_blended_grid
from .reductions import LabelPowerset, RAkEL
from .boomer import BOOMER_2021, BOOMER_VARIANTS, make_boomer
from .clus import ClusPCT
from .registry import LEARNERS, learner_config, learner_names, make_learner
