"""Evidence for claims of the papers that no chapter computed yet, as ledger rows.

One module per paper; each public ``add_*`` function computes its evidence from the
library (seeded random draws, closed forms, committed tables passed in by the
chapter) and adds rule-based rows to the chapter's :class:`mlcbook.ledger.Ledger`,
returning the entries it added.  The claims inventory (``book/_claims``) points at
these rows by their claim text.
"""

from .dependence import add_polynomial_trends, polynomial_gains
from .huellermeier import (
    add_additive_choquet,
    add_bayes_modes,
    add_empty_prediction_hamming,
    add_family_special_cases,
    add_moebius_pair,
    add_owa_counting,
    add_profile_ordering,
    add_worked_errors,
)
from .knn import (
    add_consensus_exactness,
    add_k_invariance,
    add_tied_modes,
    fig4_neighbor_labels,
)
from .park_read import (
    add_confusion_sums,
    add_diagonal_reading,
    add_exact_alpha_count,
    add_exact_resembles_jaccard,
    add_independent_gradient,
    add_slashdot_test_corner,
    add_vector_form,
)
from .wu_zhou import add_one_error_definition, add_rescaling_consistency, rescaling_ranges
from .zhang_zhou import (
    add_example_based_definitions,
    add_f_beta_combination,
    add_subset_accuracy_strictness,
)

__all__ = [
    "add_polynomial_trends",
    "polynomial_gains",
    "add_consensus_exactness",
    "add_k_invariance",
    "add_tied_modes",
    "fig4_neighbor_labels",
    "add_confusion_sums",
    "add_diagonal_reading",
    "add_exact_alpha_count",
    "add_exact_resembles_jaccard",
    "add_independent_gradient",
    "add_slashdot_test_corner",
    "add_vector_form",
    "add_additive_choquet",
    "add_bayes_modes",
    "add_empty_prediction_hamming",
    "add_family_special_cases",
    "add_moebius_pair",
    "add_owa_counting",
    "add_profile_ordering",
    "add_worked_errors",
    "add_one_error_definition",
    "add_rescaling_consistency",
    "rescaling_ranges",
    "add_example_based_definitions",
    "add_f_beta_combination",
    "add_subset_accuracy_strictness",
]
