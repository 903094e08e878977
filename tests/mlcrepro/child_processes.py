"""Child processes of a test that cannot outlive it: a cluster's scheduler and workers.

A test that starts ``dask scheduler`` and ``dask worker`` processes stops them when it
ends; :func:`die_with_parent`, given as ``preexec_fn``, also kills them when the test's
process is killed outright (a failing ``make test`` stage stops its neighbours so), where
no ``finally`` runs.
"""

from __future__ import annotations

import ctypes
import signal
import sys

#: Linux's prctl, looked up before any fork (a child calls it, and must load nothing)
_PRCTL = ctypes.CDLL(None).prctl if sys.platform == "linux" else None


def die_with_parent() -> None:
    """In a child before it runs its program: SIGKILL it when its parent dies
    (``PR_SET_PDEATHSIG``), so that a test killed outright leaves no process behind."""
    if _PRCTL is not None:
        _PRCTL(1, signal.SIGKILL)  # 1: PR_SET_PDEATHSIG
