"""mlrl-boomer is optional: every module imports without it; BOOMER names the extra."""

import subprocess
import sys
import textwrap

import pytest

from mlcbook.learners import make_boomer, make_learner

_BLOCK = "import sys; sys.modules['mlrl'] = None; sys.modules['mlrl.boosting'] = None\n"


def test_every_module_imports_and_works_without_mlrl_boomer():
    code = _BLOCK + textwrap.dedent("""
        import importlib, pkgutil
        import numpy as np
        import mlcbook
        names = [m.name for m in pkgutil.walk_packages(mlcbook.__path__, "mlcbook.")
                 if m.name != "mlcbook.__main__"]
        for name in names:
            importlib.import_module(name)
        from mlcbook.metrics import hamming_loss
        from mlcbook.learners import make_learner
        Y = np.array([[1, 0], [0, 1]])
        assert hamming_loss(Y, Y) == 0.0
        make_learner("BR", 0).fit(np.eye(2), Y)
        print(len(names))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert int(out.stdout) >= 20  # every submodule of the package was imported


def test_boomer_learner_names_the_extra_when_the_package_is_missing(monkeypatch):
    monkeypatch.setitem(sys.modules, "mlrl", None)
    monkeypatch.setitem(sys.modules, "mlrl.boosting", None)
    with pytest.raises(ImportError, match=r"mlcbook\[boomer\]"):
        make_boomer("BOOMER-1")
    with pytest.raises(ImportError, match=r"mlcbook\[boomer\]"):
        make_learner("BOOMER-K-2021", 0)
    # argument errors still come first and say what was expected
    with pytest.raises(ValueError, match="variant"):
        make_boomer("BOOMER-2")
