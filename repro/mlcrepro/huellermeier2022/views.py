"""What the Reproduce page of Hüllermeier et al. (2022) shows: short tables of the evidence
and of the ledgers.

One job: shape the evidence (:mod:`~mlcrepro.huellermeier2022.collect`) and the ledgers
(:mod:`~mlcrepro.huellermeier2022.ledger_rows`) into the tables a reader scans, each number
with fixed decimals (:func:`mlcrepro.display.comparison_table`: ours, the paper's or the
authors', their difference, the tolerance and the verdict of the ledger row).  Every
verdict shown is the status of a ledger row; no status is decided here.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from mlcrepro.display import (
    BADGES,
    CompactTable,
    compact_table,
    comparison_table,
    format_number,
    ledger_ref,
    verdicts,
)
from mlcrepro.huellermeier2022 import authors_compare as ac
from mlcrepro.huellermeier2022.authors_study import DATASETS
from mlcrepro.huellermeier2022.evidence_datasets import table2_keys
from mlcrepro.huellermeier2022.evidence_dependence import (
    CLAIMS,
    EVERY,
    FAMILIES,
    SCENE,
    DependenceEvidence,
    Sec53,
)
from mlcrepro.huellermeier2022.evidence_knn import (
    HAMMING_RANK,
    SUBSET_RANK,
    SUBSET_ROWS,
    KnnEvidence,
)
from mlcrepro.huellermeier2022.experiments import KNN_DATASETS, TIE_BREAKS
from mlcrepro.huellermeier2022.printed import NAMES
from mlcrepro.huellermeier2022.record import PAPER
from mlcrepro.ledger import Entry, Ledger
from mlcrepro.sentences import findings_sentence

__all__ = [
    "TITLES",
    "outcome",
    "tally",
    "numbers",
    "LOSSES_NUMBERS",
    "LOSSES_VERDICTS",
    "losses_verdicts",
    "table2_verdicts",
    "CLAIM_WORDS",
    "claim_counts",
    "claim_exceptions",
    "folds_finished",
    "released",
    "released_by_learner",
    "worst_pairs",
    "cpu_minutes",
    "knn_verdicts",
    "tie_breaks",
    "subset_column_shift",
    "birds_labelled",
]

#: what each ledger of the paper is about, in words
TITLES = {
    "losses": "Secs. 3-4, the losses and their Bayes-optimal predictions",
    "datasets": "Table 2, the benchmark data",
    "dependence": "Sec. 5, which learners are dependence-aware (Figs 1-3)",
    "knn": "Sec. 6, minimising a loss with neighbours (Fig. 4)",
}
_ENDS = {"hamming": "Hamming", "subset01": "subset 0/1"}


def _check(led: object, name: str) -> Ledger:
    """The ledger ``name`` as its rows were built: what each is about is not saved, so a
    ledger read back from its file cannot be shown by it."""
    if not isinstance(led, Ledger) or led.chapter != name:
        raise TypeError(f"led must be the {name!r} Ledger, got {led!r}")
    if any(not e.about for e in led.entries):
        raise ValueError(
            f"led: the {name!r} ledger's rows do not say what they are about; build it "
            "from the evidence (ledgers(evidence())), not from its saved file"
        )
    return led


def outcome(ledgers: Mapping[str, Ledger]) -> str:
    """One line per ledger (Markdown): what it is about and its counts.

    The counts are :func:`mlcrepro.sentences.findings_sentence` of each ledger, in the
    order of ``PAPER.ledgers``.
    """
    if not isinstance(ledgers, Mapping) or list(ledgers) != list(PAPER.ledgers):
        raise TypeError(f"ledgers must map {list(PAPER.ledgers)} to their Ledgers, in order")
    return "\n".join(
        f"- **{TITLES[name]}.** {findings_sentence(led.to_frame())}"
        for name, led in ledgers.items()
    )


def _only(rows: list[Entry], what: str) -> Entry:
    if len(rows) != 1:
        raise ValueError(f"expected one ledger row about {what!r}, found {len(rows)}")
    return rows[0]


def _by_id(led: Ledger) -> dict[str, Entry]:
    out: dict[str, Entry] = {}
    for e in led.entries:
        for i in e.claim_ids:
            out.setdefault(i, e)
    return out


def tally(led: Ledger, ids: list[str] | None = None, *, source: str | None = None) -> str:
    """How many rows have each status, in words: the rows carrying ``ids`` (default all),
    of the source ``source`` (default any).

    >>> led = Ledger("demo", "A. Author (2020)")
    >>> _ = led.exact("a", "Sec. 1", paper=1, ours=1, claim_id="XA001")
    >>> tally(led)
    '1 row: 1 reproduced'
    """
    if not isinstance(led, Ledger):
        raise TypeError(f"led must be a Ledger, got {type(led).__name__}")
    es = list(led.entries)
    if ids is not None:
        rows = _by_id(led)
        missing = [i for i in ids if i not in rows]
        if missing:
            raise ValueError(f"no ledger row carries the claim ids {missing}")
        picked = {id(rows[i]) for i in ids}
        es = [e for e in es if id(e) in picked]
    if source is not None:
        es = [e for e in es if e.source == source]
    counts = pd.Series([e.status for e in es], dtype=object).value_counts()
    order = [s for s in BADGES if s in counts.index]
    noun = "row" if len(es) == 1 else "rows"
    words = [f"{counts[s]} {'differ' if s == 'differs' and counts[s] > 1 else s}" for s in order]
    return f"{len(es)} {noun}: " + ", ".join(words)


def numbers(
    led: Ledger, labels: Mapping[str, str], *, decimals: int = 3, caption: str = ""
) -> CompactTable:
    """Numeric rows of a ledger as ours / paper / difference / tolerance / verdict.

    Parameters
    ----------
    led : Ledger
        Any ledger of the paper.
    labels : mapping of str to str
        Claim id -> a short name, in the order to show; each id picks the first row that
        carries it, which must be a number (a ``number`` or ``spread`` row).
    decimals : int
        Decimals of every number shown.
    caption : str
        The table's caption.

    Returns
    -------
    CompactTable
        The tolerance is the one the verdict was judged by: the row's tolerance plus,
        for a spread row, its spread.
    """
    if not isinstance(led, Ledger):
        raise TypeError(f"led must be a Ledger, got {type(led).__name__}")
    rows = _by_id(led)
    missing = [i for i in labels if i not in rows]
    if missing:
        raise ValueError(f"no ledger row carries the claim ids {missing}")
    frame = []
    for i, label in labels.items():
        e = rows[i]
        if e.paper_value is None or e.ours_value is None or e.tol is None:
            raise ValueError(f"the row of {i} is not a number against the paper: {e.claim!r}")
        frame.append(
            {
                "claim": label,
                "ours": e.ours_value,
                "paper": e.paper_value,
                "tol": e.tol + (e.spread or 0.0),
                "status": e.status,
                **ledger_ref(e),
            }
        )
    return comparison_table(pd.DataFrame(frame), decimals=decimals, caption=caption)


#: the losses ledger's numbers against the paper's, by claim id, with a short name each
LOSSES_NUMBERS = {
    "HU013": "OWA example, uniform weights",
    "HU014": "OWA example, largest error",
    "HU015": "OWA example, weights (0,...,5)/15",
    "HU020": "learner A, k = 1",
    "HU021": "learner A, k = 2",
    "HU022": "learner A, k = 3",
    "EX002": "learner A, k = 1, simulated",
    "EX003": "learner A, k = 2, simulated",
    "EX004": "learner A, k = 3, simulated",
    "HU023": "learner B, k = 1",
    "HU024": "learner B, k = 2",
    "HU025": "learner B, k = 3",
    "HU035": "BR (accuracy 0.9), subset 0/1",
    "HU036": "LP (accuracy 0.4), subset 0/1",
}
#: the losses ledger's rows that are not numbers, by claim id, with a short name each
LOSSES_VERDICTS = {
    "HU001": "3 labels: P(y_j = 1)",
    "HU002": "3 labels: Hamming-optimal prediction",
    "HU003": "3 labels: subset 0/1-optimal prediction",
    "HU016": "binary loss as printed (Sec. 4.2)",
    "HU017": "polynomial loss → subset 0/1",
    "HU026": "A's subset 0/1 below B's",
    "HU028": "Table 1: optimum for k = 1",
    "HU029": "Table 1: optimum for k = 2",
    "HU030": "Table 1: optimum for k = 3",
    "HU031": "Table 1: optimum for k = 4",
    "HU032": "Table 1: optimum for k = 5",
    "HU037": "BR (accuracy 0.8) against LP",
    "EX008": "Table 1 sums to one",
}


def losses_verdicts(led: Ledger) -> CompactTable:
    """The losses ledger's rows that are not numbers (predictions, orderings) in short."""
    return verdicts(_check(led, "losses"), LOSSES_VERDICTS)


def table2_verdicts(led: Ledger) -> CompactTable:
    """Table 2 in short: per dataset, the file it is read from and how many of its five
    numbers are reproduced."""
    led = _check(led, "datasets")
    rows = []
    for name, key in zip(NAMES, table2_keys()):
        es = led.where(table="Table 2", dataset=key)
        n = sum(e.status == "reproduced" for e in es)
        rows.append((name, key, f"{n} of {len(es)}"))
    frame = pd.DataFrame(rows, columns=["dataset (paper)", "ours", "numbers reproduced"])
    return compact_table(frame)


# ------------------------------------------------------------------ Sec. 5 (dependence)
def _verdict(statuses: list[str]) -> str:
    """One badge if the families agree, else each family's."""
    if len(set(statuses)) == 1:
        return BADGES[statuses[0]]
    return " / ".join(f"{BADGES[s]} ({f[:4]}.)" for s, f in zip(statuses, FAMILIES))


#: the Sec. 5.3 claims in a few words, for a table that must fit the text column
CLAIM_WORDS = {
    SCENE: "scene: BR ahead at k = 1, LP at k = K",
    "BR ahead of LP at Hamming loss (LP/BR > 1 at k=1)": "BR ahead of LP at Hamming loss",
    "LP catches up with BR as k grows (LP/BR falls from k=1 to k=K)": "LP catches up with BR",
    "LP beats BR at subset 0/1 (late crossing of y=1)": "LP beats BR at subset 0/1",
    "CC improves over BR with increasing k (CC/BR falls)": "CC gains on BR as k grows",
    "LP's advantage at subset 0/1 is smaller against CC than against BR": (
        "LP's edge smaller against CC than BR"
    ),
    "PCT closer to BR than to LP in dependence-awareness (flatter PCT/BR curve)": (
        "PCT closer to BR than to LP"
    ),
    "RAkEL k=5 gains on k=2 as k grows (m = L-k+1)": "RAkEL k = 5 gains on k = 2",
    "BOOMER-K below BOOMER-1 everywhere (all points below y=1)": (
        "BOOMER-K below BOOMER-1 everywhere"
    ),
    "BOOMER-K's advantage grows with k (BOOMER-K/BOOMER-1 falls)": "BOOMER-K's edge grows",
    "LP worse than BOOMER-K in absolute terms (LP/BOOMER-K > 1 for all k)": (
        "LP worse than BOOMER-K at every k"
    ),
    "LP's dependence-awareness more pronounced than BOOMER-K's (LP/BOOMER-K falls)": (
        "LP gains on BOOMER-K as k grows"
    ),
}


def claim_counts(ev: Sec53, led: Ledger) -> CompactTable:
    """The Sec. 5.3 claims counted, with the verdict of their ledger rows.

    Per claim: on how many datasets it holds on each family, ours / the authors'
    (``binomial``, ``polynomial``); the count the rule needs; on how many of the
    bootstrap resamples of the folds it holds on ours, binomial · polynomial; the
    verdict of its two rows (one badge when the families agree).
    """
    if not isinstance(ev, Sec53):
        raise TypeError(f"ev must be a Sec53, got {type(ev).__name__}")
    led = _check(led, "dependence")
    rows: list[dict[str, str]] = []
    links: dict[int, tuple[str, str]] = {}
    for claim in [SCENE, *(c.name for c in CLAIMS)]:
        row = {"claim": CLAIM_WORDS[claim]}
        for f in FAMILIES:
            row[f] = f"{ev.ours[claim, f]} / {ev.authors[claim, f]}"
        row["needed"] = "scene" if claim == SCENE else f"{ev.needed(claim)} of {ev.over(claim)}"
        row["resamples"] = " · ".join(str(ev.hits[claim, f][0]) for f in FAMILIES)
        entries = [_only(led.where(quantity=claim, loss=f), claim) for f in FAMILIES]
        row["verdict"] = _verdict([e.status for e in entries])
        # a verdict that does not agree names the cause of its first such row and links it
        off = [e for e in entries if e.status not in ("reproduced", "qualitative")]
        if off:
            ref = ledger_ref(off[0])
            end = f" ({ref['cause']}, {ref['claim_id']})" if ref["cause"] else ""
            end = end or f" ({ref['claim_id']})"
            links[len(rows)] = (end, ref["claim_id"])
            row["verdict"] += end
        rows.append(row)
    table = compact_table(pd.DataFrame(rows))
    table.links = links
    return table


def claim_exceptions(ev: Sec53) -> pd.DataFrame:
    """Where the two claims about every point fail, on our run and the authors' profiles."""
    if not isinstance(ev, Sec53):
        raise TypeError(f"ev must be a Sec53, got {type(ev).__name__}")
    rows = [
        {"claim": c, "family": f, "ours": ev.where[c, f][0], "the authors'": ev.where[c, f][1]}
        for c in EVERY
        for f in FAMILIES
    ]
    return pd.DataFrame(rows).set_index(["claim", "family"])


def folds_finished(ev: DependenceEvidence) -> pd.DataFrame:
    """Per learner (rows) and dataset (columns): the folds that finished in our run."""
    if not isinstance(ev, DependenceEvidence):
        raise TypeError(f"ev must be a DependenceEvidence, got {type(ev).__name__}")
    cells = ev.named.drop_duplicates(["dataset", "learner", "fold"])
    learners = ["BR", "CC", "LP", "RAkEL-k2", "RAkEL-k5", "PCT", "EPCT", "BOOMER-1", "BOOMER-K"]
    folds = cells.pivot_table(index="learner", columns="dataset", values="fold", aggfunc="nunique")
    return folds.reindex(index=learners, columns=list(DATASETS)).rename_axis(None, axis=1)


def _released_rows(led: Ledger) -> list[Entry]:
    return [e for e in _check(led, "dependence").entries if e.source == "released profiles"]


def released(led: Ledger, caption: str = "") -> CompactTable:
    """Every comparison with the authors' released profiles: ours / authors / difference /
    tolerance (two standard errors of our folds plus half a printed unit) / verdict."""
    rows = []
    for e in _released_rows(led):
        rows.append(
            {
                "dataset": e.about["dataset"],
                "learner": e.about["learner"],
                "loss": _ENDS[e.about["loss"]],
                "ours": e.ours_value,
                "authors": e.paper_value,
                "tol": (e.tol or 0.0) + (e.spread or 0.0),
                "status": e.status,
                **ledger_ref(e),
            }
        )
    return comparison_table(pd.DataFrame(rows), theirs="authors", decimals=4, caption=caption)


def released_by_learner(led: Ledger, ev: DependenceEvidence) -> pd.DataFrame:
    """Per learner, its comparison rows by verdict, and the datasets on which its whole
    profile equals the authors' to rounding (every |difference| below 1e-12)."""
    if not isinstance(ev, DependenceEvidence):
        raise TypeError(f"ev must be a DependenceEvidence, got {type(ev).__name__}")
    es = _released_rows(led)
    learner = [e.about["learner"] for e in es]
    t = pd.crosstab(pd.Series(learner, name="learner"), pd.Series([e.status for e in es]))
    exact = ev.comparison.groupby(["dataset", "learner"])["diff"].apply(
        lambda d: bool((d.abs() < 1e-12).all())
    )
    t = t[[s for s in BADGES if s in t.columns]]
    t["equal to rounding"] = exact.groupby("learner").sum().reindex(t.index).astype(int)
    t.columns.name = None
    return t.reindex(list(ac.MAIN_LEARNERS))


def worst_pairs(ev: DependenceEvidence, n: int = 6) -> CompactTable:
    """The ``n`` (dataset, learner) pairs of the main learners
    (:data:`~mlcrepro.huellermeier2022.authors_compare.MAIN_LEARNERS`) farthest from the
    authors: at the end (Hamming or
    subset 0/1) farther away in our tolerances, ours, the authors', the difference, the
    tolerance, and how many tolerances away."""
    if not isinstance(ev, DependenceEvidence):
        raise TypeError(f"ev must be a DependenceEvidence, got {type(ev).__name__}")
    rows = []
    main = ev.summary[ev.summary["learner"].isin(ac.MAIN_LEARNERS)]
    for r in ac.worst_pairs(main, n).itertuples():
        with np.errstate(divide="ignore", invalid="ignore"):  # a zero tolerance: inf
            h = np.float64(abs(r.hamming_diff)) / r.hamming_tol
            z = np.float64(abs(r.subset01_diff)) / r.subset01_tol
        end = "hamming" if h >= z else "subset01"
        rows.append(
            {
                "pair": f"{r.learner} on {r.dataset}",
                "loss": "Hamming" if end == "hamming" else "subset 0/1",
                "ours": format_number(getattr(r, f"{end}_ours"), 4),
                "authors": format_number(getattr(r, f"{end}_theirs"), 4),
                "difference": format_number(getattr(r, f"{end}_diff"), 4),
                "tol.": format_number(getattr(r, f"{end}_tol"), 4),
                "× tol.": format_number(float(r.tols), 1),
            }
        )
    return compact_table(pd.DataFrame(rows))


def cpu_minutes(ev: DependenceEvidence) -> pd.DataFrame:
    """CPU minutes of the study per learner (RAkEL: all its k) and dataset, with totals."""
    if not isinstance(ev, DependenceEvidence):
        raise TypeError(f"ev must be a DependenceEvidence, got {type(ev).__name__}")
    cpu = ac.cpu_seconds(ev.named)
    rows = ["BR", "CC", "LP", "RAkEL", "PCT", "EPCT", "BOOMER-1", "BOOMER-K", "total"]
    return (cpu / 60).reindex(index=rows, columns=[*DATASETS, "total"]).round(1)


# ------------------------------------------------------------------------ Sec. 6 (kNN)
def knn_verdicts(led: Ledger) -> CompactTable:
    """The paper's Sec. 6 claims in short: claim, paper, ours, verdict."""
    return verdicts(
        _check(led, "knn"),
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


def tie_breaks(ev: KnnEvidence) -> pd.DataFrame:
    """What Fig. 4 shows under each tie-break: the best surrogate k per target k, the ranks
    (1 = worst) of the Hamming and the subset 0/1 surrogates at the subset 0/1 target,
    and the rows in which the subset 0/1 surrogate is the worst."""
    if not isinstance(ev, KnnEvidence):
        raise TypeError(f"ev must be a KnnEvidence, got {type(ev).__name__}")
    parts = {}
    for tb in TIE_BREAKS:
        o = ev.readings[tb]
        best = {
            d: " ".join(str(int(k)) for k in ev.matrices[tb][d].idxmin(axis=1))
            for d in KNN_DATASETS
        }
        parts[tb] = pd.DataFrame(
            {
                "best k per target": pd.Series(best),
                "Hamming rank": o[HAMMING_RANK],
                "subset 0/1 rank": o[SUBSET_RANK],
                "subset 0/1 worst in rows": [
                    f"{o.loc[d, SUBSET_ROWS]} of {o.loc[d, 'K']}" for d in o.index
                ],
            }
        ).reindex(list(KNN_DATASETS))
    return pd.concat(parts, names=["tie-break", "dataset"])


def birds_labelled(ev: KnnEvidence) -> str:
    """What Fig. 4 says on birds' instances with a relevant label (Markdown, one paragraph)."""
    lab, n_all = ev.birds_labelled, ev.birds_instances
    n, rank = int(lab["instances"]), int(lab[HAMMING_RANK])
    before = int(ev.readings["hamming"].loc["birds", HAMMING_RANK])
    return (
        f"**Birds without its unlabelled instances.** {n_all - n} of birds' {n_all} "
        "instances have no relevant label. Fig. 4 run again on the "
        f"{n} with a label (the same protocol, the Hamming tie-break) puts the Hamming "
        f"surrogate {rank} from the worst at the subset 0/1 target (1 = worst; {before} "
        "on all instances)."
    )


def subset_column_shift(ev: KnnEvidence) -> pd.DataFrame:
    """The mean target loss of the subset 0/1 surrogate (k = K, over all targets) under
    the nearest and the lexicographic tie-break, minus that under the Hamming tie-break."""
    if not isinstance(ev, KnnEvidence):
        raise TypeError(f"ev must be a KnnEvidence, got {type(ev).__name__}")
    base = {d: ev.matrices["hamming"][d].iloc[:, -1].mean() for d in KNN_DATASETS}
    out = pd.DataFrame(
        {
            tb: {d: ev.matrices[tb][d].iloc[:, -1].mean() - base[d] for d in KNN_DATASETS}
            for tb in TIE_BREAKS[1:]
        }
    )
    return out.astype(np.float64)
