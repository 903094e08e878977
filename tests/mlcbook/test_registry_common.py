"""Every registered measure on every surface (scikit-learn's ``test_common.py`` style).

For each measure of :mod:`mlcbook.registry` the same checks run: ``all_measures(...,
measures=[name])``, the scorer (and its pickle), the bootstrap interval and the paired
comparison (or the documented reason why there is none), ``mlcbook evaluate`` and
``mlcbook compare`` with ``--measures name``, ``mlcbook measures`` and the table of names
that the documentation builds.  Each surface must give the measure's own value
(``MeasureSpec.compute``).  A measure registered without its surfaces fails here; a
measure whose parameters have no default must have them in ``PARAMS``.

The last test registers a toy measure for its duration and runs the same checks: the
whole of adding a measure is one ``MeasureSpec`` and a test of its value.
"""

from __future__ import annotations

import json
import pickle
import warnings
from pathlib import Path

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin

from mlcbook import intervals as I
from mlcbook import losses as L
from mlcbook import registry as R
from mlcbook.metrics import all_measures
from mlcbook.registry import MeasureSpec
from mlcbook.scorers import get_scorer

from .cli_run import run_in_process as run

ROOT = Path(__file__).resolve().parents[2]
K = 4
#: values of the parameters without a default, for K = 4 labels (JSON-able: the command
#: line reads them from --param NAME=VALUE)
PARAMS = {
    "k": 2,
    "alpha": 3.0,
    "w": [0.4, 0.3, 0.2, 0.1],
    "mu": L.subset_capacity(K).tolist(),
    "covering": [[0, 1], [2, 3]],
    "propensity": [0.5, 0.4, 0.9, 0.2],
}


def data(seed=0, n=40):
    rng = np.random.default_rng(seed)
    Y = (rng.random((n, K)) < 0.4).astype(int)
    Y[0], Y[1] = 1, 0
    F = rng.random((n, K)) + 0.5 * Y
    P = (F > 0.75).astype(int)
    return Y, P, F


class Fixed(ClassifierMixin, BaseEstimator):
    """A fitted classifier whose ``predict`` is ``P`` and whose scores are ``F``."""

    def __init__(self, P=None, F=None):
        self.P, self.F = P, F

    def fit(self, X, Y):
        self.classes_ = [np.array([0, 1])] * K
        return self

    def predict(self, X):
        return self.P

    def decision_function(self, X):
        return self.F


def params_of(spec: MeasureSpec) -> dict:
    missing = [p for p in spec.required_params if p not in PARAMS]
    assert not missing, f"{spec.name}: add a value of {missing} to PARAMS of this test"
    return {p: PARAMS[p] for p in spec.required_params}


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("common")
    Y, P, F = data()
    head = ",".join(f"c{j}" for j in range(K))
    for name, A, fmt in (("y.csv", Y, "%d"), ("p.csv", P, "%d"), ("f.csv", F, "%.17g")):
        np.savetxt(tmp / name, A, fmt=fmt, delimiter=",", header=head, comments="")
    return tmp


def check_every_surface(name: str, files: Path) -> None:
    spec = R.get_measure(name)
    Y, P, F = data()
    X = F if spec.inputs == "scores" else P
    params = params_of(spec)
    value = spec.compute(Y, X, **params)
    sign = 1.0 if spec.greater_is_better else -1.0

    # all_measures
    if not spec.required_params:
        got = all_measures(Y, F, P, measures=[name])
        assert list(got) == [name] and _same(got[name], value), "all_measures"
        assert name in all_measures(Y, F, P, measures="all"), "all_measures('all')"
    elif spec.required_params == ("k",):  # a measure at k: once per cut-off given
        row = spec.display_name(params)
        got = all_measures(Y, F, P, measures=[name], k=params["k"])
        assert list(got) == [row] and _same(got[row], value), "all_measures(k=)"
        assert row in all_measures(Y, F, P, measures="all", k=params["k"]), "('all', k=)"

    # the scorer, also after pickling (grid searches in worker processes)
    model = Fixed(P, F).fit(None, Y)
    scorer = get_scorer(name, **params)
    assert _same(scorer(model, None, Y), sign * value), "scorer"
    assert _same(pickle.loads(pickle.dumps(scorer))(model, None, Y), sign * value), "pickle"

    # the interval and the paired comparison, or the reason why there are none
    if spec.has_interval:
        assert name in R.measure_names(interval=True)
        ci = I.bootstrap_interval(name, Y, X, n_resamples=99, random_state=0, **params)
        # the same means / the same counts, summed in another order
        assert ci.estimate == pytest.approx(value, rel=1e-12, abs=1e-15), "interval"
        cmp = I.paired_comparison(name, Y, X, X, n_resamples=49, n_permutations=49,
                                  random_state=0, **params)
        assert cmp.difference == 0 and cmp.p_value == 1.0, "paired comparison"
    else:
        assert spec.no_interval, f"{name}: say why it has no interval (no_interval=)"
        with pytest.raises(ValueError, match="no bootstrap interval here"):
            I.bootstrap_interval(name, Y, X, **params)

    # the command line: evaluate and compare with --measures NAME
    opts = [a for p, v in params.items() for a in ("--param", f"{p}={json.dumps(v)}")]
    scores = ["--scores", files / "f.csv"] if spec.inputs == "scores" else []
    res = run("evaluate", files / "y.csv", files / "p.csv", *scores, "--measures", name,
              *opts, "--format", "json", "--profile", "none")
    assert res.returncode == 0, res.stderr
    row = spec.display_name(params)
    assert _same(json.loads(res.stdout)["measures"][row], value), "mlcbook evaluate"
    both = ["--scores-a", files / "f.csv", "--scores-b", files / "f.csv"] if scores else []
    res = run("compare", files / "y.csv", files / "p.csv", files / "p.csv", *both,
              "--measures", name, *opts, "--format", "json", "--resamples", "49",
              "--permutations", "49")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    if spec.has_interval:
        assert _same(out["comparison"][row]["a"], value), "mlcbook compare"
    else:
        assert any(n.startswith(f"{row}: not compared") for n in out["notes"])

    # mlcbook measures and the documentation's table (built from name_table())
    assert name in [r["name"] for r in R.name_table()], "name table"
    listed = json.loads(run("measures", "--format", "json").stdout)
    assert name in [r["name"] for r in listed], "mlcbook measures"


def _same(a: float, b: float) -> bool:
    return (np.isnan(a) and np.isnan(b)) or a == pytest.approx(b, rel=1e-12, abs=1e-15)


@pytest.mark.filterwarnings("ignore::UserWarning")  # scikit-learn's 0/0 and one-class warnings
@pytest.mark.parametrize("name", R.measure_names())
def test_every_surface_knows_every_measure(name, files):
    check_every_surface(name, files)


def test_the_documentation_builds_its_table_from_the_registry():
    page = (ROOT / "book" / "api" / "library" / "registry.md").read_text(encoding="utf-8")
    assert ".. mlcbook-measure-table::" in page
    rows = R.name_table()
    names = [r["name"] for r in rows]
    assert names[: len(R.measure_names())] == R.measure_names()
    assert set(names) - set(R.measure_names()) == set(R.deprecated_names())
    for old, (new, _, _) in R.deprecated_names().items():
        row = rows[names.index(old)]
        assert row["convention"] == "deprecated" and row["equals"].startswith(new)


def test_deprecated_names_still_work_on_every_surface_with_a_warning(files):
    Y, P, F = data()
    for old, (new, _, _) in R.deprecated_names().items():
        spec = R.get_measure(new)
        X = F if spec.inputs == "scores" else P
        with pytest.warns(FutureWarning, match=f"'{new}'"):
            scorer = get_scorer(old)
        assert scorer(Fixed(P, F).fit(None, Y), None, Y) == spec.compute(Y, X)
        if spec.has_interval:
            with pytest.warns(FutureWarning):
                assert I.bootstrap_interval(old, Y, X, n_resamples=9).measure == new


# ---------------------------------------------------------------------- a toy measure
def false_positive_rate(Y, P, *, sample_weight=None):
    """Fraction of (instance, label) pairs predicted but not true."""
    return float(np.average(fpr_per_instance(Y, P), weights=sample_weight))


def fpr_per_instance(Y, P):
    Y, P = np.asarray(Y), np.asarray(P)
    return ((P == 1) & (Y == 0)).mean(axis=1)


TOY = MeasureSpec(
    name="false_positive_rate",
    function=false_positive_rate,
    kind="classification",
    inputs="predictions",
    greater_is_better=False,
    per_instance=fpr_per_instance,
    description="fraction of (instance, label) pairs predicted but not true",
)


def test_a_toy_measure_is_one_entry_and_every_surface_sees_it(files):
    Y, P, _ = data()
    fp = int(((P == 1) & (Y == 0)).sum())
    assert TOY.compute(Y, P) == pytest.approx(fp / Y.size, rel=1e-15)  # its test: by hand
    assert "false_positive_rate" not in R.measure_names()
    with R.registered(TOY):
        check_every_surface("false_positive_rate", files)
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # a loss: scikit-learn's neg_ spelling works
            assert get_scorer("neg_false_positive_rate")(Fixed(P, None).fit(None, Y), None,
                                                         Y) == -TOY.compute(Y, P)
    assert "false_positive_rate" not in R.measure_names()
