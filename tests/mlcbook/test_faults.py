"""A fault harness over the public API: every array argument of every public function
replaced, one at a time, by each class of bad value -- NaN, an infinity, complex numbers
(even with a zero imaginary part), text, None, dates, no rows, no columns, the wrong
number of dimensions.

Each call must either refuse with a TypeError/ValueError whose message names the
argument, or (only where the value is legitimate, listed per case) return finite
numbers without a NumPy warning.  A result holding NaN, a ComplexWarning ("discards
the imaginary part"), a cast warning or any other exception is a fault.  The faults this
harness found when it was written (each fixed where the value enters): ``popcount`` and
``table2_check`` cast NaN, complex numbers and text to integers; ``bayes_optimal``'s
``('counts', L)`` dropped an imaginary part; ``evaluate_predictions`` dropped the
imaginary part of ``alphas`` and named its predictions ``S``.
"""

from __future__ import annotations

import re
import subprocess
import warnings

import numpy as np
import pytest

from mlcbook import bayes as BY
from mlcbook import blended as B
from mlcbook import intervals as IV
from mlcbook import losses as L
from mlcbook import margins as G
from mlcbook import metrics as M
from mlcbook import profiles as PR
from mlcbook.datasets import dataset_statistics, label_statistics
from mlcbook.learners import (
    GFM,
    LIMO,
    BlendedLinearClassifier,
    ClusPCT,
    LabelPowerset,
    LossMinimizingKNN,
    MLkNN,
    RAkEL,
)

_rng = np.random.default_rng(0)
Y = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 0], [0, 0, 1], [1, 0, 0], [0, 1, 0]])
P = np.array([[1, 0, 0], [0, 1, 1], [1, 0, 0], [0, 1, 1], [1, 0, 1], [0, 0, 0]])
F = _rng.random(Y.shape)
X = _rng.random((6, 4))
W = _rng.normal(size=(3, 4)) * 0.1
MU = L.hamming_capacity(3)
OWA = L.owa_weights(lambda t: t, 3)
SW = np.ones(6)


def _faults(a):
    """Each class of bad value for the array ``a`` (a copy with one fault each)."""
    a = np.asarray(a)
    f = a.astype(float)
    out = {}
    for name, value in (("NaN", np.nan), ("inf", np.inf), ("-inf", -np.inf)):
        x = f.copy()
        x.flat[0] = value
        out[name] = x
    none = a.astype(object)
    none.flat[0] = None
    out.update(
        {
            "complex": f + 0.5j,
            "complex, zero imaginary part": f.astype(complex),
            "numbers as text": a.astype(str),
            "words": np.where(a.astype(bool), "yes", "no"),
            "None": none,
            "dates": np.zeros(a.shape, dtype="datetime64[s]"),
            "no rows": a[:0],
            "3-D": a[..., None],
            "a scalar": np.float64(1.0),
        }
    )
    if a.ndim == 2:
        out["no columns"] = a[:, :0]
    return out


def _case(f, args, names=None, legit=()):
    """``f(**args)``; ``names``: arg -> regex its errors must match (default the arg's
    own name); ``legit``: (arg, fault) pairs that are valid input."""
    return f, args, names or {}, set(legit)


_LABELS_PRED = ("hamming_loss", "subset_zero_one_loss", "subset_accuracy", "instance_jaccard",
                "precision", "recall", "f_measure", "example_based_f_measure")
_LABELS_SCORES = ("ranking_loss", "one_error", "coverage", "label_ranking_average_precision",
                  "auc")
_MARGINS = ("label_wise_margins", "instance_wise_margins", "is_label_wise_effective",
            "is_instance_wise_effective", "is_double_effective")
_SCALAR_ALPHA = {("params", "a scalar"), ("params", "inf")}  # alpha = inf: the limit

CASES = {
    **{f"metrics.{n}": _case(getattr(M, n), dict(Y=Y, P=P, sample_weight=SW))
       for n in _LABELS_PRED},
    **{f"metrics.{n}": _case(getattr(M, n), dict(Y=Y, F=F, sample_weight=SW))
       for n in _LABELS_SCORES},
    "metrics.all_measures": _case(M.all_measures, dict(Y=Y, F=F, P=P)),
    "losses.choquet_loss": _case(L.choquet_loss, dict(Y=Y, S=F, mu=MU, sample_weight=SW)),
    "losses.choquet_loss_moebius": _case(L.choquet_loss_moebius,
                                         dict(Y=Y, S=F, m=L.moebius(MU))),
    "losses.owa_loss": _case(L.owa_loss, dict(Y=Y, S=F, w=OWA, sample_weight=SW)),
    "losses.polynomial_loss": _case(
        lambda Y, S, sample_weight: L.polynomial_loss(Y, S, 2.0, sample_weight=sample_weight),
        dict(Y=Y, S=F, sample_weight=SW)),
    "losses.binomial_loss": _case(
        lambda Y, S, sample_weight: L.binomial_loss(Y, S, 2, sample_weight=sample_weight),
        dict(Y=Y, S=F, sample_weight=SW)),
    "losses.loss_profile": _case(
        lambda Y, S, params: L.loss_profile(Y, S, "polynomial", params),
        dict(Y=Y, S=F, params=np.array([1.0, 2.0])), {"params": "alpha|params"},
        legit=_SCALAR_ALPHA),
    "losses.covering_loss": _case(lambda Y, S: L.covering_loss(Y, S, [[0, 1], [2]]),
                                  dict(Y=Y, S=F)),
    "losses.choquet_integral": _case(L.choquet_integral, dict(U=F, mu=MU)),
    "losses.choquet_integral_moebius": _case(L.choquet_integral_moebius,
                                             dict(U=F, m=L.moebius(MU))),
    "losses.check_capacity": _case(L.check_capacity, dict(mu=MU)),
    "losses.moebius": _case(L.moebius, dict(mu=MU)),
    "losses.from_moebius": _case(L.from_moebius, dict(m=L.moebius(MU))),
    "losses.counting_measure": _case(lambda v: L.counting_measure(v, 3),
                                     dict(v=np.array([0, 0.3, 0.6, 1.0]))),
    "losses.owa_weights": _case(lambda v: L.owa_weights(v, 3),
                                dict(v=np.array([0, 0.3, 0.6, 1.0]))),
    "losses.popcount": _case(L.popcount, dict(a=np.arange(8)),
                             legit={("a", "no rows"), ("a", "3-D"), ("a", "a scalar")}),
    "blended.soft_confusion": _case(B.soft_confusion, dict(T=Y, Z=F)),
    "blended.blended_similarity": _case(B.blended_similarity, dict(T=Y, Z=F)),
    "blended.blended_similarity_grad": _case(B.blended_similarity_grad, dict(T=Y, Z=F)),
    "blended.blended_objective": _case(
        lambda W, X, T, intercept: B.blended_objective(W, X, T, intercept=intercept),
        dict(W=W, X=X, T=Y, intercept=np.zeros(3))),
    "blended.blended_gradient": _case(B.blended_gradient, dict(W=W, X=X, T=Y)),
    **{f"margins.{n}": _case(getattr(G, n), dict(Y=Y, F=F)) for n in _MARGINS},
    "margins.effective_scores": _case(lambda Y: G.effective_scores(Y, "label-wise", 0),
                                      dict(Y=Y)),
    "margins.threshold_with_errors": _case(
        lambda F, Y: G.threshold_with_errors(F, Y, "t(x)", 0), dict(F=F, Y=Y)),
    "margins.table2_check": _case(lambda Y: G.table2_check([Y], n_draws=1), dict(Y=Y),
                                  {"Y": re.escape("Y_list[0]")}),
    "bayes.bayes_optimal": _case(
        lambda support, probs: BY.bayes_optimal(support, probs, "hamming"),
        dict(support=Y[:2], probs=np.array([0.5, 0.5]))),
    "bayes.risk": _case(
        lambda prediction, support, probs: BY.risk(prediction, support, probs, "hamming"),
        dict(prediction=P[:1], support=Y[:2], probs=np.array([0.5, 0.5]))),
    "bayes.bayes_optimal owa": _case(
        lambda w: BY.bayes_optimal(Y[:2], [0.5, 0.5], ("owa", w)), dict(w=OWA)),
    "bayes.bayes_optimal counts": _case(
        lambda L: BY.bayes_optimal(Y[:2], [0.5, 0.5], ("counts", L)),
        dict(L=np.array([0, 0.3, 0.6, 1.0])), {"L": re.escape("('counts', L)")}),
    "bayes.bayes_optimal choquet": _case(
        lambda mu: BY.bayes_optimal(Y[:2], [0.5, 0.5], ("choquet", mu)), dict(mu=MU),
        {"mu": "capacity"}),
    "profiles.evaluate_predictions": _case(
        PR.evaluate_predictions, dict(Y=Y, P=P, alphas=np.array([1.0, 2.0])),
        {"alphas": "alpha"}, legit={("alphas", "inf")}),
    "intervals.bootstrap_interval": _case(
        lambda Y, S, sample_weight: IV.bootstrap_interval(
            "hamming_loss", Y, S, n_resamples=30, random_state=0, sample_weight=sample_weight),
        dict(Y=Y, S=P, sample_weight=SW)),
    "intervals.bootstrap_interval ranking": _case(
        lambda Y, S: IV.bootstrap_interval("ranking_loss", Y, S, n_resamples=30,
                                           random_state=0),
        dict(Y=Y, S=F)),
    "intervals.paired_comparison": _case(
        lambda Y, S_a, S_b: IV.paired_comparison(
            "hamming_loss", Y, S_a, S_b, n_resamples=30, n_permutations=30, random_state=0),
        dict(Y=Y, S_a=P, S_b=Y)),
    "datasets.dataset_statistics": _case(dataset_statistics, dict(data=Y), {"data": "Y"}),
    "datasets.label_statistics": _case(label_statistics, dict(Y=Y)),
}


def _finite(r) -> bool:
    if isinstance(r, dict):
        return all(_finite(v) for v in r.values())
    if isinstance(r, tuple):
        return all(_finite(v) for v in r)
    a = np.asarray(r)
    return a.dtype.kind not in "fc" or bool(np.isfinite(a).all())


def _outcome(f, args):
    """('refused', message) | ('returned', result, warnings) | ('crashed', exception)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            r = f(**args)
        except (TypeError, ValueError) as exc:
            return "refused", str(exc)
        except Exception as exc:  # noqa: BLE001 - any other exception is the fault
            return "crashed", f"{type(exc).__name__}: {exc}"
    shown = [w for w in caught if not issubclass(w.category, DeprecationWarning)]
    return "returned", r, shown


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_bad_value_is_refused_by_name_or_is_legitimate(case):
    f, args, names, legit = CASES[case]
    kind, *_ = _outcome(f, args)
    assert kind == "returned", f"{case}: the valid base call fails"
    faults = []
    for arg, base in args.items():
        for fault, value in _faults(base).items():
            got = _outcome(f, {**args, arg: value})
            if got[0] == "refused":
                if not re.search(names.get(arg, rf"\b{arg}\b"), got[1]):
                    faults.append(f"{arg} = {fault}: refused without naming it: {got[1]}")
            elif got[0] == "crashed":
                faults.append(f"{arg} = {fault}: crashed with {got[1]}")
            elif (arg, fault) not in legit:
                faults.append(f"{arg} = {fault}: accepted")
            elif not _finite(got[1]) or got[2]:
                warned = [str(w.message)[:60] for w in got[2]]
                faults.append(f"{arg} = {fault}: returned {got[1]!r:.60} with {warned}")
    assert not faults, f"{case}:\n  " + "\n  ".join(faults)


# ---------------------------------------------------------------- estimators' labels
ESTIMATORS = {
    "LIMO": lambda: LIMO(),
    "BlendedLinearClassifier": lambda: BlendedLinearClassifier(),
    "LossMinimizingKNN": lambda: LossMinimizingKNN(n_neighbors=3),
    "MLkNN": lambda: MLkNN(k=3),
    "GFM": lambda: GFM(k=3),
    "LabelPowerset": lambda: LabelPowerset(),
    "RAkEL": lambda: RAkEL(k=2),
    "ClusPCT": lambda: ClusPCT(),  # fit only checks and keeps the data: no Java runs
}


@pytest.mark.parametrize("name", sorted(ESTIMATORS))
def test_every_bad_label_matrix_is_refused_by_fit(name):
    """X's bad values are scikit-learn's common checks (test_estimator_checks.py)."""
    Xf = np.random.default_rng(1).random((30, 4))
    Yf = (np.random.default_rng(2).random((30, 3)) < 0.5).astype(int)
    faults = []
    for fault, value in _faults(Yf).items():
        got = _outcome(lambda Y: ESTIMATORS[name]().fit(Xf, Y), {"Y": value})
        if got[0] != "refused" or not re.search(r"\bY\b|\by\b", got[1]):
            faults.append(f"Y = {fault}: {got[0]} {got[1]!r:.100}")
    assert not faults, f"{name}:\n  " + "\n  ".join(faults)


@pytest.mark.parametrize(
    "fault, match",
    [
        ("complex", "X must hold real numbers, got dtype complex128"),
        ("complex, zero imaginary part", "X must hold real numbers, got dtype complex128"),
        ("numbers as text", "X must hold real numbers, got dtype <U"),
        ("words", "X must hold real numbers"),
        ("dates", "X must hold real numbers, got dtype datetime64"),
        ("no rows", "X must have at least one row"),
        ("no columns", "X must have at least one feature"),
        ("3-D", "X must be 2-D"),
        ("inf", "X must be finite"),
    ],
)
def test_clus_refuses_bad_features_before_java_runs(monkeypatch, fault, match):
    """Before: complex X lost its imaginary part, and no features ended in a Java stack
    trace from CLUS."""
    Xf = np.random.default_rng(1).random((10, 3))
    Yf = (Xf > 0.5).astype(int)
    monkeypatch.setattr(subprocess, "run", lambda *a, **k: pytest.fail("CLUS was started"))
    bad = _faults(Xf)[fault]
    with pytest.raises((TypeError, ValueError), match=match):
        ClusPCT().fit(bad, Yf[: len(bad)] if len(bad) else Yf)
    model = ClusPCT().fit(Xf, Yf)
    if fault not in ("no rows", "no columns"):
        with pytest.raises((TypeError, ValueError), match=match):
            model.predict(bad)
