"""Test-suite settings.

Hypothesis explores new examples on every local run; under CI (``CI=true``) it is
derandomised, so a submission's check is repeatable. The examples it has found that
once failed stay in the tests as explicit cases.
"""

import os
from pathlib import Path

from hypothesis import HealthCheck, settings

settings.register_profile("local", deadline=None)
settings.register_profile(
    "ci", deadline=None, derandomize=True, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("ci" if os.environ.get("CI") else "local")

# The tests read data through the checkout: the library's data home is data/cache, the
# mirror ../shared/datasets, Weka's jar the one `make weka` unpacked (the defaults the
# Makefile exports; set here so that the library's tests need nothing of mlcrepro).
# A variable already set, even to the empty string, is left alone.
_ROOT = Path(__file__).resolve().parents[1]
os.environ.setdefault("MLCBOOK_DATA", str(_ROOT / "data" / "cache"))
if (_ROOT.parent / "shared" / "datasets").is_dir():
    os.environ.setdefault("MLCBOOK_DATA_MIRROR", str(_ROOT.parent / "shared" / "datasets"))
_JAR = _ROOT / ".weka" / "usr" / "share" / "java" / "weka-3.6.14.jar"
if _JAR.is_file():
    os.environ.setdefault("MLCBOOK_WEKA_JAR", str(_JAR))


def _boomer_param(name):
    """A learner name as a test parameter, marked ``boomer`` when it needs mlrl-boomer."""
    import pytest

    return pytest.param(name, marks=pytest.mark.boomer) if name.startswith("BOOMER") else name
