"""``python -m mlcbook``: the command line of :mod:`mlcbook.cli`."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
