"""``python -m mlcrepro``: the reproduction's command line (:mod:`mlcrepro.cli`)."""

import sys

from mlcrepro.cli import main

sys.exit(main())
