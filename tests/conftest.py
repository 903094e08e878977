"""Test-suite settings.

Hypothesis explores new examples on every local run; under CI (``CI=true``) it is
derandomised, so a submission's check is repeatable. The examples it has found that
once failed stay in the tests as explicit cases.
"""

import os

from hypothesis import HealthCheck, settings

from mlcrepro._paths import use_checkout_data

settings.register_profile("local", deadline=None)
settings.register_profile(
    "ci", deadline=None, derandomize=True, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("ci" if os.environ.get("CI") else "local")

# The tests read data through the checkout: the library's data home is data/cache, the
# mirror ../shared/datasets, Weka's jar the one `make weka` unpacked (the same defaults
# the chapters get from importing mlcrepro).
use_checkout_data()


def _boomer_param(name):
    """A learner name as a test parameter, marked ``boomer`` when it needs mlrl-boomer."""
    import pytest

    return pytest.param(name, marks=pytest.mark.boomer) if name.startswith("BOOMER") else name
