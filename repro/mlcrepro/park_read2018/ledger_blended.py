"""The reproduction ledger of the blended-metric chapter (Park & Read 2018), and its verdicts.

:func:`blended_ledger` builds every row of ``book/blended.md``'s ledger from the evidence
of :mod:`.blended_evidence`, each row carrying the id(s) of the claim(s) of the
inventory ``book/_claims/park-read-2018.csv`` it checks; the printed values and their
ids come from ``book/_claims/park-read-2018.printed.csv``
(:func:`mlcrepro.claims.printed`).  The experiment's rows use the reading the chapter's
rule chooses (:func:`.blended_evidence.chosen_reading`).  No status is written here:
each row goes through a claim kind of :class:`mlcrepro.ledger.Ledger`.
:func:`blended_verdicts` condenses the ledger to one line per group of claims.
"""

from __future__ import annotations

import pandas as pd

from mlcrepro.claims import printed
from mlcrepro.ledger import Ledger, paper_error
from mlcrepro.park_read2018 import blended_evidence as E
from mlcrepro.park_read2018 import evidence as evp
from mlcrepro.park_read2018 import findings as bf
from mlcrepro.park_read2018 import readings as bs
from mlcrepro.park_read2018.tables import PAPER_KEY
from mlcrepro.summary import verdict_table

__all__ = ["blended_ledger", "blended_verdicts", "GROUPS"]

#: the verdict table's groups: label -> pattern of the rows' sources (first match wins)
GROUPS = {
    "Table 1: worked example": r"^Table 1",
    "Sec. 2: counts, limits": r"^Sec\. 2",
    "Eq. 10: gradient": r"^eq\. 10",
    "Sec. 3.2: labels decouple": r"^Sec\. 3",
    "Sec. 4: datasets, trend": r"^Sec\. 4",
    "Table 2: Jaccard": r"^Table 2",
    "Table 3: Hamming": r"^Table 3",
    "Table 4: exact match": r"^Table 4",
    "Sec. 5: recommendations": r"^Sec\. 5",
    "Sec. 1, 5.1: blend beats LP": r"^Sec\. 1",
}


def _printed(table: str) -> dict[tuple[str, str], tuple[str, str]]:
    """(row, column) -> (value, id) of one place of the paper's printed numbers."""
    frame = printed(PAPER_KEY, table)
    return {(r.row, r.column): (r.value, r.id) for r in frame.itertuples()}


def _worked_rows(led: Ledger) -> None:
    t1, caption = E.table1().loc["mean"], _printed("Table 1 caption")
    for name in ("Hamming", "Exact", "Jaccard"):
        paper, cid = caption[("mean", name)]
        ours = t1[next(c for c in t1.index if c.startswith(name))]
        led.number(
            f"Table 1 mean {name} similarity", "Table 1", paper=paper, ours=ours, claim_id=cid
        )
    soft, hard = E.counts()
    sec22 = _printed("Sec. 2.2")
    for k in E.COUNTS:
        paper, cid = sec22[("undetermined", k.upper())]
        led.number(
            f"undetermined {k.upper()} for t=[1 0 1], z=[0.6 0.4 0.2]",
            "Sec. 2.2",
            paper=paper,
            ours=soft[k],
            claim_id=cid,
        )
    for k in E.COUNTS:  # z rounded to y = [1 0 0]
        paper, cid = sec22[("determined", k.upper())]
        led.exact(
            f"determined {k.upper()} for t=[1 0 1], z=[0.6 0.4 0.2]",
            "Sec. 2.2",
            paper=int(paper),
            ours=int(hard[k]),
            claim_id=cid,
        )
    total, cid = sec22[("both", "TP + TN + FP + FN")]
    led.exact(
        "TP + TN + FP + FN for the determined and undetermined counts",
        "Sec. 2.2",
        paper=f"{total}, {total}",
        ours=f"{int(hard.sum())}, {soft.sum():.10g}",
        claim_id=cid,
    )


def _identity_rows(led: Ledger) -> None:
    worst = float(E.limits().abs().max())
    led.ordering(
        "s = Hamming at alpha = beta = 1; Jaccard as alpha -> 0 (1 for empty/empty); "
        "Exact as beta -> inf",
        "Sec. 2.1, 2.3",
        paper="the limits",
        holds=worst < 1e-8,
        rule=f"|s - measure| < 1e-8, 500 random instances ({worst:.0e})",
        claim_id=["PR019", "PR020", "PR021"],
    )
    led.ordering(
        "s increases with alpha",
        "Sec. 2.3, eq. 8",
        paper="s(a) <= s(a + d)",
        rule="non-decreasing in 21 alphas, 500 random undetermined predictions",
        holds=E.monotone_in_alpha(),
        claim_id="PR032",
    )
    eq8 = E.eq8_increment()
    led.qualitative(
        "eq. 8: raising alpha by delta adds delta(1 - t_k) to numerator and denominator",
        "Sec. 2.3, eq. 8",
        paper="[p'a + delta(1 - t_k)] / [L + p'b + delta(1 - t_k)]",
        evidence="largest difference from s(alpha + delta) on 500 random undetermined "
        f"predictions: as printed {eq8.iloc[0]:.3f}, with delta p_k'(1 - t_k) {eq8.iloc[1]:.0e}",
        agrees=bool(eq8.iloc[0] < 1e-12),
        cause=paper_error(
            "delta(1 - t_k) is a vector added to scalars; raising alpha adds delta to each "
            "irrelevant label's entry of a_k and b_k, so numerator and denominator grow by "
            "delta p_k'(1 - t_k), which equals s(alpha + delta) to rounding (read as delta "
            "times the number of irrelevant labels, the printed term does not); the "
            "inequality after it also has y_k for z_k. The conclusion, s increasing in "
            "alpha, holds (row above)",
            ref="blended chapter, the blend",
        ),
        claim_id="PR159",
    )
    errors = E.gradient_errors()
    led.ordering(
        "gradient of the penalised mean similarity",
        "eq. 10, Sec. 3.3",
        paper="eq. 10",
        rule=f"within 1e-5 (relative) of finite differences in all {len(errors)} settings",
        holds=max(errors) < 1e-5,
        note="loose: the penalty's indices run over K; -gamma w belongs to the mean's "
        "derivative; a/N divides by 0 at alpha = 0 without labels",
        claim_id="PR034",
    )


def _experiment_rows(led: Ledger) -> None:
    c, (full, earlier) = E.causes(), E.full_grid()
    led.exact(
        "Stare dataset",
        "Sec. 4",
        paper="6 datasets",
        ours=f"{full['dataset'].nunique()} datasets",
        cause=c["stare"],
        claim_id="PR036",
    )
    ranges = bf.split_ranges(bs.load_split_check())
    explained = bf.explained_by_penalty(E.penalty_match())
    bases = E.family_grid("Table 4 bases at beta = 2^7")
    bf.add_table_rows(led, full, c, explained, tuple(earlier), ranges, bases_grid=bases)
    bf.add_location_rows(led, full, c, tuple(earlier))
    whole = E.family_grid("whole grid (best exact match against the bases)")
    bf.add_recommendation_rows(led, full, c, exact_grid=whole)
    bf.add_headline_row(led, E.headline(), c["headline"])
    bf.add_trend_row(led, E.grids(), E.chosen_reading(), cause=c["trend"])
    panel = E.family_grid("Slashdot panel (corner against the rest)")
    bf.add_sweet_spot_row(led, panel, c["slashdot"])
    evp.add_vector_form(led)
    evp.add_independent_gradient(led)
    evp.add_diagonal_reading(led, full, c["train"])
    evp.add_slashdot_test_corner(led, panel, c["slashdot"])
    evp.add_exact_resembles_jaccard(led, full, c["train"])


def blended_ledger() -> Ledger:
    """Every row of the blended chapter's ledger, in the chapter's order, with claim ids.

    Table 1's means and Sec. 2.2's counts; the limits, the monotonicity in alpha and the
    gradient (eq. 10); the experiment of Sec. 4 under the chosen reading (the Stare
    row, every printed number and optimum of Tables 2-4, the recommendations of Sec. 5,
    the Emotions trend and Slashdot's sweet spot); and the statements made in passing
    (:mod:`mlcrepro.park_read2018.evidence`).
    """
    led = Ledger("blended", "Park & Read (2018)")
    _worked_rows(led)
    _identity_rows(led)
    _experiment_rows(led)
    return led


def blended_verdicts(led: Ledger) -> pd.DataFrame:
    """The ledger in one line per group of claims (:data:`GROUPS`): counts and verdict."""
    return verdict_table(led.to_frame(), GROUPS)
