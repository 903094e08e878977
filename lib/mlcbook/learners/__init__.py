"""scikit-learn estimators of the papers, and thresholding of score matrices."""

from .blended import BlendedLinearClassifier, blended_grid, run_blended_grid
from .boomer import BOOMER_VARIANTS, make_boomer
from .gfm import GFM, gfm_predict
from .knn import LossMinimizingKNN, consensus_mask, minimize_summed_loss
from .limo import LIMO, limo_objective
from .mlknn import MLkNN
from .reductions import LabelPowerset, RAkEL
from .registry import LEARNERS, learner_config, learner_names, make_learner
from .thresholds import InstanceThreshold, LabelThreshold, column_thresholds, row_thresholds
