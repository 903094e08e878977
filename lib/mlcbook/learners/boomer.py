"""BOOMER (Rapp et al. 2020) configured as in Hüllermeier et al. (2022, Sec. 5.2).

The real implementation, :class:`mlrl.boosting.Boomer` from the ``mlrl-boomer``
package (version 0.12.3 in the book's lock), is used unchanged; this module only
fixes its configuration to the defaults of the 2021 version the authors ran.

Which version the authors ran
-----------------------------
The paper says "the GitHub implementation" at its default parameters (Sec. 5.2,
footnote 6).  The authors' result keys ``boomer_label_wise_logistic_loss`` and
``boomer_example_wise_logistic_loss`` name the losses of Boomer 0.2.0 (2020-06-28)
and later (0.1.0 called them ``macro-logistic-loss`` / ``example-based-logistic-loss``);
the results file was committed on 2021-07-23, so the version is one of 0.2.0, 0.3.0,
0.4.0, 0.5.0 (``mrapp-ke/Boomer``).  Their defaults below are the same in all four
(0.5.0: ``python/args.py`` lines 196-210, ``python/mlrl/boosting/boosting_learners.py``
lines 93-101, 264-272, 316, 444-452).

The two variants
----------------
* ``BOOMER-1`` minimises the label-wise (decomposable) logistic loss with
  single-label rule heads and predicts every label on its own
  (``binary_predictor="output-wise"``): the Hamming-loss variant.
* ``BOOMER-K`` minimises the example-wise (non-decomposable) logistic loss with
  complete (multi-label) heads and predicts the training label vector closest to
  the scores (``binary_predictor="example-wise"``): the subset 0/1 variant.

Both share :data:`BOOMER_2021`: 1000 rules (the default rule included), shrinkage
0.3, L2 regularisation weight 1.0, bagging of the training examples, log2 feature
sampling at every refinement, exact thresholds, no label binning, unlimited head
refinements, no pruning, a default rule, random state 1 -- as ``Boomer`` arguments:
``max_rules=1000``, ``shrinkage=0.3``, ``l2_regularization_weight=1.0``,
``instance_sampling="with-replacement"``, ``feature_sampling="without-replacement"``,
``feature_binning="none"``, ``label_binning="none"``, ``rule_pruning="none"``,
``global_pruning="none"``, ``default_rule="true"``,
``rule_induction="top-down-greedy{max_head_refinements=0}"``, ``random_state=1``.

Defaults that differ between the 2021 version and mlrl-boomer 0.12.3
--------------------------------------------------------------------
Every parameter the two versions do not default alike is set here explicitly
(0.12.3 defaults: ``learner_boomer_classifier.cpp`` lines 22-51 in
``cpp/subprojects/boosting/src/mlrl/boosting/`` and
``doc/user_guide/boosting/parameters.md`` at tag 0.12.3).  Format: 2021 /
0.12.3 default / what is set here.

instance sampling
    ``bagging`` (with replacement, sample size 1.0) / ``none`` /
    ``instance_sampling="with-replacement"`` (sample size defaults to 1.0).
label binning
    none (0.5.0; absent before) / ``auto``: equal-width bins (bin ratio 0.04) for
    the non-decomposable loss, i.e. **on for BOOMER-K** / ``label_binning="none"``.
head refinements
    unlimited (command line ``--max-head-refinements -1``; the class default was 1)
    / 1 (``max_head_refinements`` of ``top-down-greedy``) /
    ``rule_induction="top-down-greedy{max_head_refinements=0}"`` (0 = unlimited in
    0.12.3, ``rule_induction_top_down_greedy.cpp`` line 96).
default rule
    always learned / ``auto`` (dropped where it would prevent sparse statistics) /
    ``default_rule="true"``.
feature binning
    none (0.4.0+; absent before): exact thresholds / ``auto``: none unless dense
    and > 200 000 examples / ``feature_binning="none"`` (the same on our data).
heads, binary predictor
    single-label heads and label-wise prediction for the decomposable loss, full
    heads and example-wise prediction for the example-wise loss / ``auto``: the
    same rule / ``head_type``, ``binary_predictor`` set per variant (same values).
feature sampling
    ``random-feature-selection``, size 0: floor(log2(F - 1) + 1) features per
    refinement / ``without-replacement``, size 0: the same count /
    ``feature_sampling="without-replacement"`` (same).
rule and global pruning
    none / ``none`` / ``"none"`` (same).

Nominal features are not a constructor parameter: the 2021 testbed read them from the
ARFF header and gave them to the learner (``mlrl/testbed/experiments.py`` line 73 at
0.5.0, ``nominal_attribute_indices``; one-hot encoding off by default); with 0.12.3 pass
them to ``fit`` as ``nominal_feature_indices=[...]`` (a list: 0.12.3 refuses a NumPy
array there).  It matters: on the authors' flags split 0, BOOMER-1 stops after 9 rules
when its nominal features are read as numbers (a rule induction that finds no
condition ends learning) and learns all 1000 when they are declared nominal (measured).

A known gap: on genbase (1080 of its 1186 features constant in the training rows of
the authors' split 0) BOOMER-1 learns one or two rules and stops: each rule draws
floor(log2(1185) + 1) = 11 features, with probability about (1080/1186)^11 = 0.36
all of them constant, and a rule induction that finds no condition ends learning
(0.12.3 ``rule_model_assemblage_sequential.cpp`` lines 63-69; 0.5.0 stops the same
way, ``rule_model_induction_sequential.cpp`` lines 90-99).  The authors' released
genbase BOOMER-1 (subset 0/1 loss 0.026) cannot have stopped; why is not found
(with ``feature_sampling="none"`` 0.12.3 learns all 1000 rules there, measured on
split 0).

Not reproducible across versions: the random streams of bagging and feature
sampling (the 2021 C++ generator is not the one of 0.12.3), so our ensembles are
different draws from the same configuration.  The authors' command line versus
class default for head refinements is not recorded; we follow the command line,
which the paper's "default parameters" of "the GitHub implementation" suggests.

``mlrl-boomer`` requires ``random_state >= 1``; we pass ``random_state + 1`` (so
our seed 0 is BOOMER's default 1).  It is an optional dependency
(``pip install 'mlcbook[boomer]'``): every other module imports and works without it.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

__all__ = ["BOOMER_2021", "BOOMER_VARIANTS", "make_boomer"]

#: The 2021 defaults shared by both variants, as keyword arguments of ``Boomer``
#: 0.12.3 (see the module docstring for the source of each value).
BOOMER_2021: MappingProxyType = MappingProxyType(
    {
        "max_rules": 1000,
        "shrinkage": 0.3,
        "l2_regularization_weight": 1.0,
        "instance_sampling": "with-replacement",
        "feature_sampling": "without-replacement",
        "feature_binning": "none",
        "label_binning": "none",
        "rule_pruning": "none",
        "global_pruning": "none",
        "default_rule": "true",
        "rule_induction": "top-down-greedy{max_head_refinements=0}",
    }
)

#: The two configurations of the paper (variant-specific part of the parameters).
BOOMER_VARIANTS: MappingProxyType = MappingProxyType(
    {
        "BOOMER-1": MappingProxyType(
            {
                "loss": "logistic-decomposable",
                "head_type": "single",
                "binary_predictor": "output-wise",
            }
        ),
        "BOOMER-K": MappingProxyType(
            {
                "loss": "logistic-non-decomposable",
                "head_type": "complete",
                "binary_predictor": "example-wise",
            }
        ),
    }
)


def make_boomer(variant: str, random_state: int = 0, **options: Any):
    """A :class:`mlrl.boosting.Boomer` at the 2021 defaults of the paper's variant.

    Parameters
    ----------
    variant : {"BOOMER-1", "BOOMER-K"}
    random_state : int
        Seed (>= 0); BOOMER receives ``random_state + 1``.
    **options
        Further ``Boomer`` parameters overriding :data:`BOOMER_2021` (e.g. a smaller
        ``max_rules`` in a quick test).

    Returns
    -------
    mlrl.boosting.Boomer
        Unfitted.

    Raises
    ------
    ValueError
        Unknown ``variant`` or a negative ``random_state``.
    ImportError
        ``mlrl-boomer`` is not installed (names the extra that brings it).
    """
    if variant not in BOOMER_VARIANTS:
        raise ValueError(f"variant must be one of {sorted(BOOMER_VARIANTS)}, got {variant!r}")
    if isinstance(random_state, bool) or not isinstance(random_state, int) or random_state < 0:
        raise ValueError(f"random_state must be a non-negative int, got {random_state!r}")
    try:
        from mlrl.boosting import Boomer
    except ImportError as err:
        raise ImportError(
            "the BOOMER learners need the optional package mlrl-boomer; install it "
            "with `pip install 'mlcbook[boomer]'` (the book's environment includes it)"
        ) from err
    params = {**BOOMER_2021, **BOOMER_VARIANTS[variant], **options}
    return Boomer(random_state=random_state + 1, **params)
