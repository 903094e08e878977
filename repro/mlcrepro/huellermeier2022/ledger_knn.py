"""The kNN chapter's ledger: Hüllermeier et al. (2022), Sec. 6 (Fig. 4).

One job: from the committed Fig. 4 tables (one per tie-break,
:func:`mlcrepro.huellermeier2022.knn_fig4.fig4_table`) and the consensus summary
(:func:`mlcrepro.huellermeier2022.knn_fig4.consensus_summary`), read the paper's
observations of Sec. 6 and write every row of the chapter's ledger
(:func:`knn_ledger`), each with the id of the claim it checks (``book/_claims``).

A statement about the datasets in general holds when it holds on most of them (more
than half), a statement about every dataset ("in any of the datasets") when it holds
on all.  The paper's flags is ``flags-12`` (Table 2: 12 labels).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from mlcrepro.display import CompactTable, verdicts
from mlcrepro.huellermeier2022 import knn_evidence as evk
from mlcrepro.huellermeier2022.knn_fig4 import loss_matrix
from mlcrepro.ledger import Ledger, underspecified, unknown
from mlcrepro.tables import robustness, surrogate_readings

__all__ = [
    "DATASETS",
    "PAPER",
    "TIE_BREAKS",
    "HAMMING_RANK",
    "SUBSET_RANK",
    "SUBSET_ROWS",
    "TIE_BREAK_CAUSE",
    "matrices",
    "readings",
    "knn_ledger",
    "verdict_table",
]

#: the datasets of the chapter: the paper's five and the 7-label MULAN flags
DATASETS = ("birds", "emotions", "flags", "flags-12", "scene", "yeast")
#: the paper's datasets (flags-12: Table 2's flags)
PAPER = ("birds", "emotions", "flags-12", "scene", "yeast")
#: how the minimiser chooses among label vectors of equal summed loss
TIE_BREAKS = ("hamming", "nearest", "lexicographic")
HAMMING_RANK = "Hamming surrogate rank at target K (1 = worst)"
SUBSET_RANK = "subset 0/1 surrogate rank at target K (1 = worst)"
SUBSET_ROWS = "rows where subset 0/1 surrogate is worst"
#: the consensus check's queries: all, except a seeded sample where 2**K is large
_SAMPLE = {"birds": 20, "yeast": 300}
_BIRDS_FLAGS = ["birds", "flags-12"]

TIE_BREAK_CAUSE = underspecified(
    "the paper does not state its tie-break: for k = K eq. (19) returns a most "
    "frequent label vector of the 9 neighbours, usually one of several tied ones, so "
    "the tie-break decides (section 'How much the tie-break matters')"
)


def _check_tables(tabs: object) -> Mapping[str, pd.DataFrame]:
    if not isinstance(tabs, Mapping) or set(tabs) != set(TIE_BREAKS):
        raise TypeError(f"tabs must map each tie-break {TIE_BREAKS} to its Fig. 4 table")
    for tb, t in tabs.items():
        if not isinstance(t, pd.DataFrame) or "dataset" not in t.columns:
            raise TypeError(f"tabs[{tb!r}] must be a Fig. 4 table (a DataFrame)")
    return tabs


def matrices(table: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Per dataset of ``table``: its pooled surrogate-by-target loss table (``loss_matrix``)."""
    if not isinstance(table, pd.DataFrame) or "dataset" not in table.columns:
        raise TypeError("table must be a Fig. 4 table with a column 'dataset'")
    return {d: loss_matrix(table[table["dataset"] == d]) for d in table["dataset"].unique()}


def readings(Md: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """:func:`mlcrepro.tables.surrogate_readings` of every dataset: one row per dataset."""
    rows = {d: surrogate_readings(L) for d, L in Md.items()}
    return pd.DataFrame(rows).T.infer_objects()


def _monotone_everywhere(t: pd.DataFrame) -> bool:
    """The first observation's rule, on a (resampled) table of the paper's datasets."""
    r = (surrogate_readings(loss_matrix(t[t["dataset"] == d])) for d in PAPER)
    return all(x["best k non-decreasing"] for x in r)


def _add_observations(
    led: Ledger, main: pd.DataFrame, M: Mapping[str, pd.DataFrame], o: pd.DataFrame, seed: int
) -> None:
    paper = list(PAPER)
    mono = o.loc[paper, "best k non-decreasing"]
    hits = robustness(
        main[main["dataset"].isin(paper)], _monotone_everywhere, resamples=200, seed=seed
    )
    flags7 = "yes" if o.loc["flags", "best k non-decreasing"] else "no"
    led.ordering(
        "best surrogate k increases with the target k",
        "Sec. 6, Fig. 4",
        paper="monotonically increasing",
        rule=f"best k non-decreasing on all {len(paper)} datasets ({', '.join(paper)})",
        holds=bool(mono.all()),
        robustness=hits,
        over="bootstrap resamples of the folds",
        note=f"7-label flags: {flags7}. Point estimates; neighbouring surrogates often "
        "differ by less than two standard errors.",
        claim_id="HU103",
    )
    sat = o.loc[paper, "best k at target K"] < o.loc[paper, "K"]
    led.ordering(
        "best surrogate k saturates early (below K)",
        "Sec. 6, Fig. 4",
        paper="does not increase linearly in the target k but saturates early",
        rule=f"best k at target K below K on most datasets: {int(sat.sum())} of {len(paper)}",
        holds=bool(sat.sum() > len(paper) / 2),
        note="best k at target K: "
        + ", ".join(f"{d} {o.loc[d, 'best k at target K']}/{o.loc[d, 'K']}" for d in paper),
        claim_id="HU104",
    )
    exceed = o.loc[list(DATASETS), "targets with best k > target"]
    n_rows = sum(M[d].shape[0] for d in paper)
    n_exc = int(exceed[paper].sum())
    led.ordering(
        "best surrogate k exceeds the target k only in a few rows",
        "Sec. 6",
        paper="exceptions, e.g. on emotions, scene and flags",
        rule=f"in at most one target row in ten: {n_exc} of {n_rows}",
        holds=bool(n_exc <= n_rows / 10),
        note="on " + ", ".join(d for d in paper if exceed[d] > 0) + "; which datasets show "
        "it rests on differences of a few thousandths",
        claim_id="HU105",
    )
    ham = o.loc[paper, HAMMING_RANK]
    birds_gap = M["birds"].iloc[-1, 0] - M["birds"].iloc[-1].min()
    birds_cause = unknown(
        f"not tested: on birds the Hamming surrogate is {birds_gap:.4f} above the best; "
        "46% of birds instances have no label, for which the per-label majority already "
        "predicts the whole (empty) set -- a plausible reason, not checked"
    )
    holds = bool((ham <= 2).all())
    led.ordering(
        "target subset 0/1: Hamming surrogate among the two worst",
        "Sec. 6",
        paper="one of the worst two solutions in any of the datasets",
        rule=f"rank from worst <= 2 on every dataset: on {int((ham <= 2).sum())} of "
        f"{len(paper)} (" + ", ".join(f"{d} {r}" for d, r in ham.items()) + ")",
        holds=holds,
        cause=None if holds else birds_cause,
        claim_id="HU106",
    )
    holds = bool((o.loc[_BIRDS_FLAGS, SUBSET_RANK] == 1).all())
    led.ordering(
        "birds, flags: subset 0/1 surrogate worst of all, even for the subset 0/1 target",
        "Sec. 6",
        paper="worst configuration of all on birds and flags",
        rule="rank 1 from worst at target K on birds and flags-12: "
        + ", ".join(f"{d} {o.loc[d, SUBSET_RANK]} of {o.loc[d, 'K']}" for d in _BIRDS_FLAGS),
        holds=holds,
        cause=None if holds else TIE_BREAK_CAUSE,
        claim_id="HU107",
    )


def _add_tie_breaks(led: Ledger, obs: Mapping[str, pd.DataFrame]) -> None:
    robust = {tb: bool(obs[tb].loc[list(PAPER), "best k non-decreasing"].all()) for tb in obs}
    led.ordering(
        "best surrogate k increases with the target k, under every tie-break",
        "Sec. 6, Fig. 4 (our check of an unstated detail)",
        paper="monotonically increasing",
        rule=f"best k non-decreasing on all {len(PAPER)} datasets, for each tie-break",
        holds=all(robust.values()),
        robustness=(sum(robust.values()), len(robust)),
        over="tie-breaks",
        note="our robustness check of the first observation",
        claim_id="EX011",
    )
    lex = obs["lexicographic"]
    holds = bool((lex.loc[_BIRDS_FLAGS, SUBSET_RANK] == 1).all())
    led.ordering(
        "birds, flags: subset 0/1 surrogate worst at target K, lexicographic tie-break",
        "Sec. 6",
        paper="worst configuration of all on birds and flags",
        rule="rank 1 from worst at target K on birds and flags-12: "
        + ", ".join(f"{d} {lex.loc[d, SUBSET_RANK]}" for d in _BIRDS_FLAGS),
        holds=holds,
        cause=None if holds else TIE_BREAK_CAUSE,
        note="a plain enumeration keeping the first minimum, a guess at the paper's "
        "tie-break. Rows where the subset 0/1 surrogate is the worst: "
        + ", ".join(
            f"{d} {lex.loc[d, SUBSET_ROWS]}/{lex.loc[d, 'K']}"
            for d in ["birds", "flags", "flags-12"]
        ),
        claim_id="EX012",
    )


def _add_consensus(led: Ledger, reach: pd.DataFrame) -> None:
    r = reach.set_index("dataset")
    led.qualitative(
        "with c = 9 the consensus rule still prunes considerably",
        "Sec. 6",
        paper="considerable reduction, especially for the prevalent negative labels",
        evidence="labels fixed: "
        + ", ".join(f"{d} {r.loc[d, 'fixed_fraction']:.0%}" for d in DATASETS)
        + "; the most on birds, whose labels are rarest",
        agrees=True,
        note="exactness proved above and tested against brute force",
        claim_id="HU108",
    )


def knn_ledger(
    tabs: Mapping[str, pd.DataFrame],
    reach: pd.DataFrame,
    neighbors: Mapping[str, np.ndarray] | None = None,
    *,
    seed: int = 0,
) -> Ledger:
    """Every row of the kNN chapter's ledger, in the chapter's order.

    Parameters
    ----------
    tabs : mapping of str to pandas.DataFrame
        The Fig. 4 table of each tie-break of :data:`TIE_BREAKS` (datasets
        :data:`DATASETS`).
    reach : pandas.DataFrame
        The consensus summary (``dataset``, ``fixed_fraction``, ...).
    neighbors : mapping of str to ndarray, optional
        The neighbour label vectors of every query of the paper's datasets
        (:func:`mlcrepro.huellermeier2022.knn_evidence.fig4_neighbor_labels`); computed
        when not given.
    seed : int
        Seed of the 200 bootstrap resamples of the first observation's robustness.

    Returns
    -------
    Ledger
        ``Ledger("knn", ...)``: the five observations on the Hamming tie-break, the
        two tie-break checks, the consensus rule's pruning, and the three statements
        about the minimiser read on every query (consensus exactness, invariance in
        k, tied modes).
    """
    tabs = _check_tables(tabs)
    if not isinstance(reach, pd.DataFrame) or "fixed_fraction" not in reach.columns:
        raise TypeError("reach must be the consensus summary (a DataFrame)")
    Ms = {tb: matrices(t) for tb, t in tabs.items()}
    obs = {tb: readings(Ms[tb]) for tb in TIE_BREAKS}
    led = Ledger("knn", "Hüllermeier et al. (2022)")
    _add_observations(led, tabs["hamming"], Ms["hamming"], obs["hamming"], seed)
    _add_tie_breaks(led, obs)
    _add_consensus(led, reach)
    if neighbors is None:
        neighbors = {d: evk.fig4_neighbor_labels(d) for d in PAPER}
    evk.add_consensus_exactness(led, neighbors, sample=_SAMPLE, claim_id="HU109")
    evk.add_k_invariance(led, neighbors, claim_id="HU110")
    evk.add_tied_modes(led, neighbors, claim_id="HU111")
    return led


def verdict_table(led: Ledger) -> CompactTable:
    """The paper's Sec. 6 claims in short: claim, paper, ours, verdict."""
    return verdicts(
        led,
        {
            "HU103": "best surrogate k as the target k grows",
            "HU104": "best surrogate k at the subset 0/1 target",
            "HU105": "best surrogate k above the target k",
            "HU106": "Hamming surrogate at the subset 0/1 target",
            "HU107": "subset 0/1 surrogate on birds and flags",
            "HU108": "pruning by the consensus rule (c = 9)",
            "HU109": "the consensus rule is exact",
            "HU110": "minimiser unchanged in k",
            "HU111": "tied modes at k = K",
        },
    )
