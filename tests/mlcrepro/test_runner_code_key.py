"""The runner's cache key follows the code a cell runs (mlcrepro.code_identity)."""

from __future__ import annotations

import importlib.util
import sys
import textwrap

import numpy as np
import pytest
from sklearn.base import BaseEstimator

from mlcbook.learners.mlknn import MLkNN
from mlcrepro import runner as R
from mlcrepro.code_identity import _closure, code_hash, first_party, normalised_source
from mlcrepro.runner import Spec, run

# a module of one's own: an estimator subclassing one of mlcbook's, a helper it calls,
# and the cell function.  Variants below edit one piece of it.
MODULE = '''
"""A user's estimators."""
import numpy as np
from mlcbook.learners.mlknn import MLkNN


def shift(P):
    """The helper the estimator calls."""
    return P  # unchanged


class Edited(MLkNN):
    """An MLkNN whose predictions are post-processed."""

    def predict(self, X):
        return shift(super().predict(X))


def cell(split, *, est):
    X = np.arange(12.0).reshape(6, 2)
    Y = np.array([[1, 0], [1, 0], [0, 1], [0, 1], [1, 1], [0, 0]])
    return est.fit(X, Y).predict(X).astype(float)
'''

def _load(folder, source, name):
    """Import ``source`` as module ``name`` from a file in ``folder`` (as a user's
    edited module is imported again in a new session)."""
    folder.mkdir()
    path = folder / f"{name}.py"
    path.write_text(textwrap.dedent(source))
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def _spec(mod) -> Spec:
    return Spec("code_key", mod.cell, {"split": [0, 1]}, inputs=lambda c: {"est": mod.Edited(k=2)},
                code=lambda c: [mod.Edited(k=2)])


@pytest.fixture
def modules(tmp_path):
    """Each call: one version of the module ``user_estimators`` (its own file)."""
    versions = []

    def load(source):
        versions.append(source)
        return _load(tmp_path / f"v{len(versions)}", source, "user_estimators")

    yield load
    sys.modules.pop("user_estimators", None)


def _keys(mod):
    s = _spec(mod)
    return [R.cell_key(s, c) for c in R.cells(s)]


def test_a_docstring_or_comment_edit_keeps_the_key_a_code_edit_changes_it(modules):
    base = modules(MODULE)
    docs = modules(
        MODULE.replace('"""An MLkNN whose predictions are post-processed."""',
                       '"""Reworded: MLkNN, predictions post-processed."""')
        .replace("# unchanged", "# the identity, for now")
        .replace("    return P", "\n    return P")
    )
    assert _keys(docs) == _keys(base)
    # the estimator's own method, a helper it names, the cell function: each edit
    # gives new keys for every cell
    edits = [
        MODULE.replace("return shift(super().predict(X))", "return 1 - shift(super().predict(X))"),
        MODULE.replace("    return P  # unchanged", "    return P[:, ::-1]"),
        MODULE.replace("astype(float)", "astype(np.float32)"),
    ]
    for source in edits:
        changed = _keys(modules(source))
        assert all(a != b for a, b in zip(changed, _keys(base), strict=True))


def test_an_edited_estimator_is_not_served_its_old_predictions(modules, tmp_path):
    cache = tmp_path / "cache"
    old = modules(MODULE)
    first = run(_spec(old), cache_dir=cache)
    edited = modules(MODULE.replace("    return P  # unchanged", "    return 1 - P"))
    second = run(_spec(edited), cache_dir=cache)
    # the edited estimator's predictions are computed, not read: the complement
    for a, b in zip(first.values(), second.values(), strict=True):
        np.testing.assert_array_equal(b, 1 - a)
    reworded = modules(MODULE.replace("The helper the estimator calls.", "Helper."))
    assert len(list(cache.rglob("*.npz"))) == 4  # two cells, two versions of the code
    third = run(_spec(reworded), cache_dir=cache)  # same code as the first: cache hits
    assert len(list(cache.rglob("*.npz"))) == 4
    for a, b in zip(first.values(), third.values(), strict=True):
        np.testing.assert_array_equal(a, b)


def test_a_hit_is_not_recomputed(modules, tmp_path, monkeypatch):
    mod = modules(MODULE)
    calls = []
    real = mod.cell
    monkeypatch.setattr(mod, "cell", lambda split, *, est: calls.append(split) or real(split, est=est))
    s = Spec("hits", mod.cell, {"split": [0, 1]}, inputs=lambda c: {"est": mod.Edited(k=2)},
             code=lambda c: [mod.Edited])
    run(s, cache_dir=tmp_path)
    run(s, cache_dir=tmp_path)
    assert calls == [0, 1]


def test_what_counts_as_ours():
    assert first_party(MLkNN) and first_party(code_hash)
    assert not first_party(BaseEstimator) and not first_party(np.mean) and not first_party(len)
    # third-party code is left to the package versions in the key; an instance runs
    # its class's code
    assert code_hash(MLkNN, BaseEstimator) == code_hash(MLkNN) == code_hash(MLkNN(k=3))
    assert code_hash(MLkNN) != code_hash(first_party)


def test_closure_names_the_mro_and_helpers(modules):
    mod = modules(MODULE)
    names = {f"{o.__module__}.{o.__qualname__}" for o in _closure([mod.Edited])}
    assert {f"{mod.__name__}.Edited", f"{mod.__name__}.shift",
            "mlcbook.learners.mlknn.MLkNN"} <= names
    assert not any(n.startswith("sklearn.") for n in names)


def test_normalised_source_ignores_only_docstrings_and_formatting():
    def f(x, y=1):
        """Doc."""
        return x + y  # comment

    def g(x, y=1):
        return x+y

    def h(x, y=2):
        return x + y

    same = normalised_source(f).replace("'f'", "'g'")
    assert same == normalised_source(g)
    assert normalised_source(h).replace("'h'", "'g'") != normalised_source(g)
