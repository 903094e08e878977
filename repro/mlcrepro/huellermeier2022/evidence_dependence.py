"""The evidence of the dependence ledger: Hüllermeier et al. (2022), Sec. 5 (Figs 1-3).

One job: from the committed learner study (``dependence_authors``, read by
:func:`mlcrepro.huellermeier2022.experiments.load`) and the authors' released profiles
(``dependence_released``, read by
:func:`mlcrepro.huellermeier2022.experiments.released_profiles`), compute
everything the dependence ledger reads, once (:func:`dependence_evidence`):
the profiles pooled over the folds, the Sec. 5.3 observations counted on both loss
families on our run and on the authors' (:func:`count_claims`, with their robustness
over bootstrap resamples of the folds, read on all resamples at once:
:func:`holding_resampled`), the two properties of every curve, and the
comparison with the released profiles.  Nothing here writes a ledger row.

The rule that decides an observation: a statement about the datasets in general
holds when it holds on most of them (more than half), a statement about every curve
or point when it holds on all of them, and the scene reading of Fig. 1 on scene.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from mlcbook.profiles import curve_summary
from mlcrepro.huellermeier2022 import authors_compare as ac
from mlcrepro.huellermeier2022.authors_study import DATASETS
from mlcrepro.huellermeier2022.experiments import (
    DEPENDENCE_TABLE,
    dataset_statistics_table,
    load,
    released_profiles,
)
from mlcrepro.huellermeier2022.names import paper_names
from mlcrepro.huellermeier2022.resampled_profiles import (
    CurveSummaries,
    ResampledProfiles,
    resampled_profiles,
)

__all__ = [
    "FAMILIES",
    "FIG",
    "CURVES",
    "SCENE",
    "CLAIMS",
    "BY_NAME",
    "EVERY",
    "Claim",
    "Sec53",
    "drift",
    "holding",
    "verdicts",
    "holding_resampled",
    "scene_losses",
    "exceptions",
    "exceptions_text",
    "count_claims",
    "curve_steps",
    "alpha_gap",
    "DependenceEvidence",
    "dependence_evidence",
]

FAMILIES = ("binomial", "polynomial")
#: the paper's figure of each family
FIG = {"binomial": 2, "polynomial": 3}
#: the (first, second) learner pairs whose ratio curves the claims read
CURVES = (
    ("BR", "LP"),
    ("BR", "CC"),
    ("CC", "LP"),
    ("BR", "PCT"),
    ("LP", "PCT"),
    ("RAkEL-k2", "RAkEL-k5"),
    ("BOOMER-1", "BOOMER-K"),
    ("BOOMER-K", "LP"),
)
#: the one ordering of Fig. 1, read on scene alone
SCENE = "scene: BR better than LP at Hamming loss, LP better at subset 0/1"
_N = len(DATASETS)


def drift(t: pd.DataFrame | CurveSummaries) -> Any:
    """How far a ratio curve moves from the Hamming end to the subset 0/1 end.

    On a curve summary (a Series per dataset) or on the summaries of all resamples
    (an array).

    >>> drift(pd.DataFrame({"start": [2.0, 1.0], "end": [1.0, 1.0]})).round(3).tolist()
    [0.693, 0.0]
    """
    return np.abs(np.log(t["end"] / t["start"]))


@dataclass(frozen=True)
class Claim:
    """A Sec. 5.3 observation: our wording, the paper's, our rule, where it holds.

    ``where(S)`` maps the curve summaries ``S`` (a dict ``(first, second) ->``
    :func:`mlcbook.profiles.curve_summary`) to a boolean per dataset, or those of
    every resample (``(first, second) ->``
    :class:`~mlcrepro.huellermeier2022.resampled_profiles.CurveSummaries`) to a boolean
    array (resamples x datasets); ``ids`` gives the
    claim id of its binomial (Fig. 2) and polynomial (Fig. 3) rows; ``learners``: the
    paper's names of the learners whose curves ``where`` reads; ``every``: the rule
    needs all datasets, not most.
    """

    name: str
    paper: str
    rule: str
    where: Callable[[Mapping[tuple[str, str], Any]], Any]
    ids: tuple[str, str]
    learners: tuple[str, ...]
    every: bool = False


CLAIMS: tuple[Claim, ...] = (
    Claim(
        "BR ahead of LP at Hamming loss (LP/BR > 1 at k=1)",
        "BR better for small k",
        "LP/BR > 1 at k=1",
        lambda S: S["BR", "LP"].start > 1,
        ("HU090", "EX014"),
        ("BR", "LP"),
    ),
    Claim(
        "LP catches up with BR as k grows (LP/BR falls from k=1 to k=K)",
        "BR tends to perform worse than LP with increasing k",
        "LP/BR falls",
        lambda S: S["BR", "LP"].falls,
        ("HU091", "HU102"),
        ("BR", "LP"),
    ),
    Claim(
        "LP beats BR at subset 0/1 (late crossing of y=1)",
        "late crossing of the horizontal",
        "LP/BR < 1 at k=K",
        lambda S: S["BR", "LP"].end < 1,
        ("HU092", "EX015"),
        ("BR", "LP"),
    ),
    Claim(
        "CC improves over BR with increasing k (CC/BR falls)",
        "CC improves over BR with increasing k",
        "CC/BR falls",
        lambda S: S["BR", "CC"].falls,
        ("HU093", "EX016"),
        ("BR", "CC"),
    ),
    Claim(
        "LP's advantage at subset 0/1 is smaller against CC than against BR",
        "advantage diminished if we compare to CC",
        "LP/CC > LP/BR at k=K",
        lambda S: S["CC", "LP"].end > S["BR", "LP"].end,
        ("HU094", "EX017"),
        ("BR", "CC", "LP"),
    ),
    Claim(
        "PCT closer to BR than to LP in dependence-awareness (flatter PCT/BR curve)",
        "PCT more in line with BR than with LP",
        "|log change| of PCT/BR < that of PCT/LP",
        lambda S: drift(S["BR", "PCT"]) < drift(S["LP", "PCT"]),
        ("HU095", "EX018"),
        ("BR", "LP", "PCT"),
    ),
    Claim(
        "RAkEL k=5 gains on k=2 as k grows (m = L-k+1)",
        "ratio RAkEL k=5 / k=2 decreases with increasing k",
        "k5/k2 falls",
        lambda S: S["RAkEL-k2", "RAkEL-k5"].falls,
        ("HU096", "HU097"),
        ("RAkEL-k2", "RAkEL-k5"),
    ),
    Claim(
        "BOOMER-K below BOOMER-1 everywhere (all points below y=1)",
        "all points are below the horizontal y = 1",
        "BOOMER-K/BOOMER-1 < 1 for all k",
        lambda S: S["BOOMER-1", "BOOMER-K"]["max"] < 1,
        ("HU098", "EX019"),
        ("BOOMER-1", "BOOMER-K"),
        every=True,
    ),
    Claim(
        "BOOMER-K's advantage grows with k (BOOMER-K/BOOMER-1 falls)",
        "advantage further increases with the dependence-awareness",
        "BOOMER-K/BOOMER-1 falls",
        lambda S: S["BOOMER-1", "BOOMER-K"].falls,
        ("HU099", "EX020"),
        ("BOOMER-1", "BOOMER-K"),
    ),
    Claim(
        "LP worse than BOOMER-K in absolute terms (LP/BOOMER-K > 1 for all k)",
        "LP is inferior in absolute terms",
        "LP/BOOMER-K > 1 for all k",
        lambda S: S["BOOMER-K", "LP"]["min"] > 1,
        ("HU100", "EX021"),
        ("LP", "BOOMER-K"),
    ),
    Claim(
        "LP's dependence-awareness more pronounced than BOOMER-K's (LP/BOOMER-K falls)",
        "its dependence-awareness is even more pronounced",
        "LP/BOOMER-K falls",
        lambda S: S["BOOMER-K", "LP"].falls,
        ("HU101", "EX022"),
        ("LP", "BOOMER-K"),
    ),
)
BY_NAME = {c.name: c for c in CLAIMS}
#: the claim whose datasets are those where RAkEL with k = 5 finished
_RAKEL = "RAkEL k=5 gains on k=2 as k grows (m = L-k+1)"


def scene_losses(pooled: pd.DataFrame, family: str) -> pd.DataFrame:
    sc = pooled[(pooled["dataset"] == "scene") & (pooled["family"] == family)]
    return sc.pivot(index="param", columns="learner", values="loss")


def holding(pooled: pd.DataFrame, family: str) -> dict[str, int]:
    """On how many datasets each claim holds on one family, and the scene claim (0/1).

    Parameters
    ----------
    pooled : pandas.DataFrame
        Pooled profiles (:func:`mlcbook.profiles.pooled_profiles`) with the paper's names.
    family : str
        ``"binomial"`` or ``"polynomial"``.
    """
    if family not in FAMILIES:
        raise ValueError(f"family must be one of {FAMILIES}, got {family!r}")
    S = {pair: curve_summary(pooled, *pair, family) for pair in CURVES}
    n = {c.name: int(c.where(S).sum()) for c in CLAIMS}
    loss = scene_losses(pooled, family)
    first, last = loss.iloc[0], loss.iloc[-1]
    n[SCENE] = int(first.BR < first.LP and last.LP < last.BR)
    return n


def verdicts(pooled: pd.DataFrame, needed: Callable[[str], int]) -> dict[tuple[str, str], bool]:
    """Whether each claim holds by its rule, per ``(claim, family)``, on one pooled profile.

    ``needed(claim)``: the datasets the rule needs (:meth:`Sec53.needed`).  The
    reference reading of one bootstrap resample (``pooled_profiles`` of the resampled
    folds); :func:`count_claims` reads all resamples at once (:func:`holding_resampled`).
    """
    return {(c, f): n >= needed(c) for f in FAMILIES for c, n in holding(pooled, f).items()}


def holding_resampled(profiles: ResampledProfiles, family: str) -> dict[str, np.ndarray]:
    """:func:`holding` on every bootstrap resample at once: one count per resample.

    Parameters
    ----------
    profiles : ResampledProfiles
        The resamples' pooled profiles
        (:func:`~mlcrepro.huellermeier2022.resampled_profiles.resampled_profiles`).
    family : str
        ``"binomial"`` or ``"polynomial"``.

    Returns
    -------
    dict
        Claim -> int array (resamples,): on how many datasets it holds, and the scene
        claim (0/1), as :func:`holding` gives on each resample's pooled profile.
    """
    if family not in FAMILIES:
        raise ValueError(f"family must be one of {FAMILIES}, got {family!r}")
    S = {pair: profiles.summary(*pair, family) for pair in CURVES}
    n = {c.name: np.asarray(c.where(S)).sum(axis=1) for c in CLAIMS}
    br_first, br_last = profiles.ends("scene", family, "BR")
    lp_first, lp_last = profiles.ends("scene", family, "LP")
    n[SCENE] = ((br_first < lp_first) & (lp_last < br_last)).astype(int)
    return n


#: the "every" claims: the ratio curve each reads (second / first) and its failing points
EVERY: dict[str, tuple[tuple[str, str], Callable[[pd.Series], pd.Series]]] = {
    "BOOMER-K below BOOMER-1 everywhere (all points below y=1)": (
        ("BOOMER-1", "BOOMER-K"),
        lambda r: r >= 1,
    ),
    "LP worse than BOOMER-K in absolute terms (LP/BOOMER-K > 1 for all k)": (
        ("BOOMER-K", "LP"),
        lambda r: r <= 1,
    ),
}


def exceptions(pooled: pd.DataFrame, claim: str, family: str) -> pd.DataFrame:
    """The points of the curves where an "every" claim fails, one row a point.

    Columns ``dataset, param, ratio`` (second learner's loss over the first's),
    ``first, second`` (the two losses) and ``hamming_end`` (the family's smallest
    parameter, where both families are Hamming loss); sorted by dataset and parameter.

    Examples
    --------
    >>> p = pd.DataFrame({"dataset": "d", "family": "binomial", "param": [1.0, 2.0] * 2,
    ...                   "learner": ["BOOMER-1"] * 2 + ["BOOMER-K"] * 2,
    ...                   "loss": [0.10, 0.20, 0.11, 0.15]})
    >>> exceptions(p, "BOOMER-K below BOOMER-1 everywhere (all points below y=1)",
    ...            "binomial")[["dataset", "param", "ratio"]].round(2).to_dict("records")
    [{'dataset': 'd', 'param': 1.0, 'ratio': 1.1}]
    """
    if claim not in EVERY:
        raise ValueError(f"claim must be one of the 'every' claims {list(EVERY)}, got {claim!r}")
    (first, second), fails = EVERY[claim]
    rows = pooled[pooled["family"] == family]
    loss = rows.pivot_table(index=["dataset", "param"], columns="learner", values="loss")
    out = pd.DataFrame(
        {"first": loss[first], "second": loss[second], "ratio": loss[second] / loss[first]}
    ).dropna()
    out = out[fails(out["ratio"])].reset_index()
    out["hamming_end"] = out["param"] == rows["param"].min()
    return out[["dataset", "param", "ratio", "first", "second", "hamming_end"]]


def _cells(dataset: str) -> int:
    """The label cells of a dataset (instances x labels), as its pooled folds cover them
    (the committed statistics of its file)."""
    stats = dataset_statistics_table().loc[dataset]
    return int(stats["instances"] * stats["labels"])


def exceptions_text(points: pd.DataFrame, family: str) -> str:
    """In words: where an "every" claim fails (:func:`exceptions`), with the label cells
    the Hamming end's difference amounts to."""
    if points.empty:
        return "nowhere"
    name = "k" if family == "binomial" else "alpha"
    parts = []
    for d, g in points.groupby("dataset", sort=False):
        lo, hi = g["param"].min(), g["param"].max()
        where = f"{name} = {lo:g}" if lo == hi else f"{name} = {lo:g}-{hi:g}"
        far = g["ratio"].iloc[int((g["ratio"] - 1).abs().argmax())]
        text = f"{d} at {where} (ratio as far as {far:.5f})"
        ham = g[g["hamming_end"]]
        if len(ham):
            r = ham.iloc[0]
            cells = _cells(d)
            diff = abs(r["second"] - r["first"]) * cells
            text += (
                f"; at the Hamming end the losses {r['second']:.6f} and {r['first']:.6f} "
                f"differ by {diff:.0f} of the {cells:,} label cells"
            )
        parts.append(text)
    return "; ".join(parts)


@dataclass(frozen=True)
class Sec53:
    """The Sec. 5.3 claims counted on our run and on the authors' released profiles.

    ``ours``/``authors``: datasets on which a claim holds, per ``(claim, family)``;
    ``hits``: its robustness ``(hits, trials)`` over bootstrap resamples of the folds;
    ``n_of``: the datasets a claim is read on (all nine, or those where it ran);
    ``where``: for the "every" claims, ``(ours, authors)`` in words, the points
    where the claim fails (:func:`exceptions_text`), per ``(claim, family)``;
    ``points``: the same points as tables (:func:`exceptions`), ``(ours, authors)``.
    """

    ours: dict[tuple[str, str], int]
    authors: dict[tuple[str, str], int]
    hits: dict[tuple[str, str], tuple[int, int]]
    n_of: dict[str, int]
    where: dict[tuple[str, str], tuple[str, str]] = field(default_factory=dict)
    points: dict[tuple[str, str], tuple[pd.DataFrame, pd.DataFrame]] = field(default_factory=dict)

    def over(self, claim: str) -> int:
        """The number of datasets the claim is read on."""
        return self.n_of.get(claim, _N)

    def needed(self, claim: str) -> int:
        """The rule: all datasets for an 'every' claim, scene alone, else most."""
        n = self.over(claim)
        if claim == SCENE:
            return 1
        return n if BY_NAME[claim].every else n // 2 + 1

    def holds(self, claim: str, family: str) -> bool:
        """Whether the claim holds on our run by its rule."""
        return self.ours[claim, family] >= self.needed(claim)


def count_claims(profiles: ResampledProfiles, theirs: pd.DataFrame) -> Sec53:
    """Count every Sec. 5.3 claim on our run and the authors', with its robustness.

    Parameters
    ----------
    profiles : ResampledProfiles
        Our per-fold losses with the paper's learner names, pooled over the folds
        (``profiles.pooled``) and over each seeded bootstrap resample of the folds
        (:func:`~mlcrepro.huellermeier2022.resampled_profiles.resampled_profiles`: the
        resamples of ``robustness(named, lambda t: verdicts(pooled_profiles(t), ...),
        resamples=..., seed=...)``, :func:`mlcrepro.tables.robustness`, read on all
        resamples at once by :func:`holding_resampled`).
    theirs : pandas.DataFrame
        The authors' released profiles (pooled already), named as ours
        (``paper_names(released_profiles())``).
    """
    if not isinstance(profiles, ResampledProfiles):
        raise TypeError(f"profiles must be a ResampledProfiles, got {type(profiles).__name__}")
    if not isinstance(theirs, pd.DataFrame):
        raise TypeError(f"theirs must be a pandas DataFrame, got {type(theirs).__name__}")
    pooled, resamples = profiles.pooled, profiles.loss.shape[0]
    n_of = {_RAKEL: int(pooled[pooled["learner"] == "RAkEL-k5"]["dataset"].nunique())}
    ours = {(c, f): n for f in FAMILIES for c, n in holding(pooled, f).items()}
    authors = {(c, f): n for f in FAMILIES for c, n in holding(theirs, f).items()}
    ev = Sec53(ours, authors, {}, n_of)

    hits = {
        (c, f): (int((n >= ev.needed(c)).sum()), resamples)
        for f in FAMILIES
        for c, n in holding_resampled(profiles, f).items()
    }
    points = {
        (c, f): (exceptions(pooled, c, f), exceptions(theirs, c, f))
        for c in EVERY
        for f in FAMILIES
    }
    where = {
        key: (exceptions_text(p_ours, key[1]), exceptions_text(p_theirs, key[1]))
        for key, (p_ours, p_theirs) in points.items()
    }
    return Sec53(ours, authors, hits, n_of, where, points)


def curve_steps(pooled: pd.DataFrame) -> pd.Series:
    """Per (dataset, learner, family) curve: is it non-decreasing in its parameter?

    A step down of at most 1e-12 is rounding (the curve points are means of a few
    thousand losses in [0, 1]).  Sec. 5.3: "naturally, the curves are increasing".
    """
    curves = pooled.sort_values("param").groupby(["dataset", "learner", "family"])["loss"]
    return curves.apply(lambda v: bool(np.all(np.diff(v.to_numpy()) >= -1e-12)))


def alpha_gap(pooled: pd.DataFrame) -> float:
    """The largest gap between the polynomial loss at alpha = 1000 and the subset 0/1 loss.

    Over all datasets and learners: alpha = 1000 stands in for subset 0/1, which the
    polynomial family reaches only as alpha -> infinity (Sec. 5.3).
    """
    keys = ["dataset", "learner"]
    poly = pooled[(pooled["family"] == "polynomial") & np.isclose(pooled["param"], 1000)]
    binom = pooled[(pooled["family"] == "binomial") & (pooled["param"] == pooled["K"])]
    return float((binom.set_index(keys)["loss"] - poly.set_index(keys)["loss"]).abs().max())


@dataclass(frozen=True)
class DependenceEvidence:
    """What the dependence ledger reads, each computed once.

    ``table``: the committed study (registry names); ``named``: the same with the
    paper's names (:func:`~mlcrepro.huellermeier2022.names.paper_names`);
    ``pooled``: ``pooled_profiles(named)``; ``theirs``: the authors' released
    profiles, named as ours; ``sec53``: :func:`count_claims`; ``steps``:
    :func:`curve_steps`; ``alpha_gap``: :func:`alpha_gap`; ``comparison``:
    :func:`~mlcrepro.huellermeier2022.authors_compare.compare_with_authors`;
    ``summary``: its two ends per (dataset, learner)
    (:func:`~mlcrepro.huellermeier2022.authors_compare.endpoint_summary`).
    """

    table: pd.DataFrame
    named: pd.DataFrame
    pooled: pd.DataFrame
    theirs: pd.DataFrame
    sec53: Sec53
    steps: pd.Series
    alpha_gap: float
    comparison: pd.DataFrame
    summary: pd.DataFrame


def dependence_evidence(
    table: pd.DataFrame | None = None, *, resamples: int = 200, seed: int = 0
) -> DependenceEvidence:
    """Everything the dependence ledger reads, from the committed study (about 10 s).

    Parameters
    ----------
    table : pandas.DataFrame, optional
        The study's per-fold losses; default the committed table
        (:func:`~mlcrepro.huellermeier2022.experiments.load` of ``dependence_authors``).
    resamples, seed : int
        The bootstrap resamples of the folds behind each claim's robustness.
    """
    table = load(DEPENDENCE_TABLE) if table is None else table
    named = paper_names(table)
    profiles = resampled_profiles(named, resamples=resamples, seed=seed)
    pooled = profiles.pooled  # pooled once, for every reader
    theirs = paper_names(released_profiles())
    comparison = ac.compare_with_authors(table)
    return DependenceEvidence(
        table=table,
        named=named,
        pooled=pooled,
        theirs=theirs,
        sec53=count_claims(profiles, theirs),
        steps=curve_steps(pooled),
        alpha_gap=alpha_gap(pooled),
        comparison=comparison,
        summary=ac.endpoint_summary(comparison),
    )
