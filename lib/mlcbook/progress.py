"""Progress bars of the library's long work, public for code built on it.

:func:`progress` wraps an iterable in a tqdm bar unless ``MLCBOOK_PROGRESS=0`` says not
to (:func:`progress_enabled`); executed notebooks set it, so that their outputs hold no
timing text.

Examples
--------
>>> from mlcbook.progress import progress
>>> list(progress(range(3), desc="demo"))  # the bar, if any, goes to standard error
[0, 1, 2]
"""

from ._progress import progress, progress_enabled

__all__ = ["progress", "progress_enabled"]
