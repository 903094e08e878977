"""The reproduction's command line: ``mlcrepro check ID``.

``mlcrepro check ID`` prints what the ledgers hold about one claim
(:func:`mlcrepro.check.describe`). Bad input (an id of the wrong form, an id no row
carries) is refused with a one-line message on standard error and exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from mlcrepro.check import describe

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mlcrepro",
        description="The reproduction behind mlcbook: check one claim by its id.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser(
        "check",
        help="print a claim's ledger rows: the paper's value, ours, status and cause",
        description=(
            "Print every ledger row that carries the claim id: the claim as the paper "
            "makes it, the paper's value, ours, the tolerance, the status, and for a row "
            "that differs its cause and the evidence behind it."
        ),
    )
    check.add_argument("claim_id", metavar="ID", help="a claim id such as HU098 or PR016")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0, or 2 for bad input)."""
    args = _parser().parse_args(argv)
    try:
        text = describe(args.claim_id)
    except ValueError as err:
        print(f"mlcrepro check: {err}", file=sys.stderr)
        return 2
    try:
        print(text)
    except BrokenPipeError:  # `mlcrepro check ID | head`: the reader left early
        sys.stderr.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
