"""Pooled profiles of bootstrap resamples of the folds: all resamples at once, as arrays.

One job: the robustness of the Sec. 5.3 claims
(:func:`mlcrepro.huellermeier2022.evidence_dependence.count_claims`) reads the claims
on bootstrap resamples of the folds.  A resample's pooled profile
(:func:`mlcbook.profiles.pooled_profiles` of the resampled folds) is, at every curve
point (dataset, learner, family, parameter),

.. math:: \\bar L = \\frac{\\sum_f m_f\\, L_f n_f}{\\sum_f m_f\\, n_f},

with :math:`m_f` the number of times fold :math:`f` is drawn, :math:`L_f` its loss and
:math:`n_f` its test size.  :func:`resampled_profiles` draws the folds as
:func:`mlcrepro.tables.robustness` does (:func:`mlcrepro.tables.bootstrap_draws`, same
seed, same sequence) and pools every resample and point at once with the library's
:func:`mlcbook.profiles.pooled_mean_draws`; :meth:`ResampledProfiles.summary` summarises
each ratio curve as :func:`mlcbook.profiles.curve_summary` does, one (resamples x
datasets) array per field.

The sums are those of pandas' ``groupby(...).sum()`` over the concatenated resample
(the reference path): the drawn folds' ``L_f n_f`` added in draw order with Kahan's
compensation, as pandas does since 1.3, so each pooled loss is the same to the bit.  The
cheaper product of a (resamples x folds) multiplicity matrix with (folds x points)
matrices rounds differently, and that matters: on genbase, resamples' LP/BR, CC/BR and
RAkEL k5/k2 curves often start and end at mathematically equal ratios, where "the curve
falls" (end < start) is decided by the last bit; summed by multiplicities,
the per-resample counts of the committed study differed from the reference's on 40 of
the 2,400 resamples of seeds 0-11.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from mlcbook.profiles import pooled_mean_draws, pooled_profiles
from mlcrepro.tables import bootstrap_draws

__all__ = ["KEYS", "CurveSummaries", "ResampledProfiles", "resampled_profiles"]

#: the columns naming a curve point, as :func:`mlcbook.profiles.pooled_profiles` groups
KEYS = ["dataset", "K", "learner", "family", "param"]
_FIELDS = ("start", "end", "min", "max", "falls")


@dataclass(frozen=True)
class CurveSummaries:
    """:func:`mlcbook.profiles.curve_summary` of one ratio curve on every resample.

    Each field is an array (resamples x datasets), read like the summary's column
    (``S.start`` or ``S["start"]``); a dataset without a point of the curve in a
    resample holds NaN (``falls``: False), so that no comparison counts it, as the
    summary leaves it out.
    """

    datasets: tuple[str, ...]
    start: np.ndarray
    end: np.ndarray
    min: np.ndarray
    max: np.ndarray
    falls: np.ndarray

    def __getitem__(self, name: str) -> np.ndarray:
        if name not in _FIELDS:
            raise KeyError(f"name must be one of {_FIELDS}, got {name!r}")
        value: np.ndarray = getattr(self, name)
        return value


@dataclass(frozen=True)
class ResampledProfiles:
    """The pooled loss of every curve point on every resample.

    ``points``: one row per curve point, columns :data:`KEYS`, with ``d`` (the
    dataset's position in ``datasets``) and ``p`` (the parameter's position among the
    dataset's parameters of the family, ascending); ``loss``: (resamples x points),
    NaN where a point's folds were not drawn; ``datasets``: in order of first
    appearance; ``width``: the most parameters of a dataset's family; ``pooled``: the
    profiles of the folds as they are (:func:`mlcbook.profiles.pooled_profiles`, every
    fold once), computed here once for every reader.
    """

    points: pd.DataFrame
    loss: np.ndarray
    datasets: tuple[str, ...]
    width: int
    pooled: pd.DataFrame

    def curves(self, learner: str, family: str) -> np.ndarray:
        """The learner's losses (resamples x datasets x parameters), NaN where absent."""
        rows = self.points[(self.points["learner"] == learner) & (self.points["family"] == family)]
        out = np.full((self.loss.shape[0], len(self.datasets), self.width), np.nan)
        out[:, rows["d"].to_numpy(), rows["p"].to_numpy()] = self.loss[:, rows.index]
        return out

    def summary(self, first: str, second: str, family: str) -> CurveSummaries:
        """Each dataset's curve of ``loss(second) / loss(first)`` in short, per resample.

        Start and end are the ratio at the smallest and largest parameter where both
        losses exist, ``min``/``max`` over those points, ``falls`` = end < start:
        :func:`mlcbook.profiles.curve_summary` on each resample's pooled profile.
        """
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = self.curves(second, family) / self.curves(first, family)
        seen = ~np.isnan(ratio)
        any_seen = seen.any(axis=2)
        first_at = seen.argmax(axis=2)[..., None]
        last_at = (self.width - 1 - seen[..., ::-1].argmax(axis=2))[..., None]
        start = np.where(any_seen, np.take_along_axis(ratio, first_at, 2)[..., 0], np.nan)
        end = np.where(any_seen, np.take_along_axis(ratio, last_at, 2)[..., 0], np.nan)
        return CurveSummaries(
            datasets=self.datasets,
            start=start,
            end=end,
            min=np.fmin.reduce(ratio, axis=2),
            max=np.fmax.reduce(ratio, axis=2),
            falls=end < start,
        )

    def ends(self, dataset: str, family: str, learner: str) -> tuple[np.ndarray, np.ndarray]:
        """The learner's loss at the dataset's smallest and largest parameter, per resample.

        The smallest and largest parameter at which any learner has a point on the
        dataset in the resample (the first and last rows of the resample's profile
        pivoted to parameter x learner); NaN where the learner has none there.
        """
        if dataset not in self.datasets:
            raise ValueError(f"dataset must be one of {self.datasets}, got {dataset!r}")
        d = self.datasets.index(dataset)
        rows = self.points[(self.points["d"] == d) & (self.points["family"] == family)]
        grid = np.zeros((self.loss.shape[0], self.width), dtype=bool)
        for p in np.unique(rows["p"]):
            grid[:, p] = ~np.isnan(self.loss[:, rows.index[rows["p"] == p]]).all(axis=1)
        mine = self.curves(learner, family)[:, d]
        lo = grid.argmax(axis=1)[:, None]
        hi = (self.width - 1 - grid[:, ::-1].argmax(axis=1))[:, None]
        empty = ~grid.any(axis=1)
        first = np.where(empty, np.nan, np.take_along_axis(mine, lo, 1)[:, 0])
        last = np.where(empty, np.nan, np.take_along_axis(mine, hi, 1)[:, 0])
        return first, last


def resampled_profiles(
    table: pd.DataFrame, *, by: str = "fold", resamples: int = 200, seed: int = 0
) -> ResampledProfiles:
    """The pooled profiles of ``resamples`` bootstrap resamples of the folds, at once.

    Parameters
    ----------
    table : pandas.DataFrame
        Per-fold losses as :func:`mlcbook.profiles.pooled_profiles` takes them, with
        the fold in column ``by``.
    by : str
        The column whose groups are resampled (as :func:`mlcrepro.tables.robustness`).
    resamples : int
        Number of bootstrap resamples (>= 1).
    seed : int
        Seed of the draws: the same resamples as ``robustness(table, ..., by=by,
        resamples=resamples, seed=seed)``.

    Examples
    --------
    >>> t = pd.DataFrame({"dataset": "d", "K": 2, "learner": "A", "family": "binomial",
    ...                   "param": 1.0, "fold": [0, 1], "loss": [0.2, 0.4],
    ...                   "n_test": [10, 30]})
    >>> r = resampled_profiles(t, resamples=3, seed=0)
    >>> r.loss.shape
    (3, 1)
    >>> bool(np.isin(r.loss.round(12), [0.2, 0.4, 0.35]).all())
    True
    """
    if not isinstance(table, pd.DataFrame) or by not in table.columns:
        raise ValueError(f"table must be a DataFrame with a column {by!r}")
    pooled = pooled_profiles(table)  # also checks the columns and values, before any work
    folds = np.sort(table[by].unique())
    draws = bootstrap_draws(len(folds), resamples, seed)
    per_fold = table.groupby([*KEYS, by], sort=False)[["loss", "n_test"]]
    if (per_fold.size() > 1).any():
        raise ValueError(f"table: a curve point repeats a {by}")
    per_fold = per_fold.first().unstack(by)
    points = per_fold.index.to_frame(index=False)
    loss = pooled_mean_draws(  # (folds x points) each, NaN: the fold has no row
        per_fold["loss"].reindex(columns=folds).to_numpy().T,
        per_fold["n_test"].reindex(columns=folds).fillna(0).to_numpy(dtype=float).T,
        draws,
    )
    datasets = tuple(pd.unique(table["dataset"]))
    points["d"] = points["dataset"].map({d: i for i, d in enumerate(datasets)})
    points["p"] = points.groupby(["dataset", "family"])["param"].rank(method="dense") - 1
    points["p"] = points["p"].astype(int)
    return ResampledProfiles(points, loss, datasets, int(points["p"].max()) + 1, pooled)
