"""Re-point the claims inventory at ledger rows whose claim text a chapter reworded.

    python tools/relink_claims.py                 # print the suggested pairs
    python tools/relink_claims.py --apply         # rewrite book/_claims with them
    python tools/relink_claims.py --map pairs.csv --apply   # add reviewed pairs by hand

Run it after merging a chapter whose ledger rows were reworded or added, read the pairs,
then apply them (which also drops the todo of every pending claim whose row now exists)
and run tests/test_claims.py.  A file given with --map (columns chapter, old,
new) is applied as well, for rewordings too different for the similarity to find.
"""

import argparse

import pandas as pd

from mlcrepro.claims import clear_done_todos, load_inventory, problems, relink, suggest_relinks
from mlcrepro.ledger import load_ledgers


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ledgers", help="folder of the saved ledgers (default book/_ledgers)")
    ap.add_argument("--cutoff", type=float, default=0.6, help="least similarity, 0-1")
    ap.add_argument("--map", help="CSV of reviewed pairs: chapter, old, new")
    ap.add_argument("--apply", action="store_true", help="rewrite book/_claims")
    args = ap.parse_args()
    ledgers = load_ledgers(args.ledgers)
    pairs = suggest_relinks(load_inventory(), ledgers, cutoff=args.cutoff)
    if args.map:
        extra = pd.read_csv(args.map, dtype=str, keep_default_na=False)
        pairs = pd.concat([pairs, extra[["chapter", "old", "new"]]], ignore_index=True)
    with pd.option_context("display.max_colwidth", 70, "display.width", 200):
        print(pairs.to_string() if len(pairs) else "no suggestions")
    if args.apply:
        print(f"{relink(pairs)} references rewritten")
        print(f"{clear_done_todos(ledgers)} todos dropped (their rows exist now)")
        left = problems(load_inventory(), ledgers)
        print("\n".join(left) if left else "the inventory and the ledgers match")


if __name__ == "__main__":
    main()
