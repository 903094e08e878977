"""The experiments of Zhang & Zhou (2014): none.

Every claim of the measures ledger is computed in seconds from the library (seeded
problems, worked examples, identities), so the folder commits no result table;
:data:`EXPERIMENTS` is empty and ``make reproduce`` has nothing of it to rebuild.
"""

from mlcrepro.experiment import Experiment

__all__ = ["EXPERIMENTS"]

#: the folder's committed tables: none
EXPERIMENTS: tuple[Experiment, ...] = ()
