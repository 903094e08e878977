"""Writing and reading files as the library does, public for code built on it.

:func:`atomic_write` and :func:`atomic_write_text` write through a temporary file that
replaces the target only when complete, so a reader never sees half a file;
:func:`remove_stale_temporaries` removes what a killed writer left behind;
:func:`read_csv_exact` reads a CSV file so that every float is the nearest double to
its text (a table written with 17 significant digits reads back bit for bit).

Examples
--------
>>> import tempfile, pathlib
>>> from mlcbook.files import atomic_write_text
>>> path = pathlib.Path(tempfile.mkdtemp()) / "note.txt"
>>> atomic_write_text(path, "done\\n")
>>> path.read_text()
'done\\n'
"""

from ._io import atomic_write, atomic_write_text, read_csv_exact, remove_stale_temporaries

__all__ = ["atomic_write", "atomic_write_text", "read_csv_exact", "remove_stale_temporaries"]
