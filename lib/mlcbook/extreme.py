r"""Measures at k of extreme multi-label classification, and Jain et al.'s propensities.

With :math:`K` in the hundreds of thousands, a classifier is judged by the few
labels it ranks highest for each instance.  For the truth :math:`\mathbf y_i`
(:math:`|\mathbf y_i|` relevant labels), the :math:`k` labels ranked highest by the
scores, :math:`r_1, \dots, r_k`, and the discount :math:`d_j = 1/\log_2(j + 1)`:

.. math::

   P@k_i = \frac1k\sum_{j=1}^k y_{i r_j}, \qquad
   R@k_i = \frac1{|\mathbf y_i|}\sum_{j=1}^k y_{i r_j}, \qquad
   \mathrm{nDCG}@k_i = \frac{\sum_{j=1}^k y_{i r_j} d_j}
                          {\sum_{j=1}^{\min(k, |\mathbf y_i|)} d_j},

averaged over instances, and with each hit weighted by the inverse propensity
:math:`1/p_l` of its label, Jain, Prabhu & Varma (2016, Sec. 3, *propensity scored*
precision and nDCG), :func:`psprecision_at_k` and :func:`psndcg_at_k`:

.. math::

   PSP@k_i = \frac1k\sum_{j=1}^k \frac{y_{i r_j}}{p_{r_j}}, \qquad
   PSnDCG@k_i = \frac{\sum_{j=1}^k y_{i r_j} d_j / p_{r_j}}
                     {\sum_{j=1}^{\min(k, |\mathbf y_i|)} d_j}.

:func:`coverage_at_k` is the fraction of the labels relevant somewhere in the data
that are correctly predicted in the top k of at least one instance.  The
propensity :math:`p_l` of label :math:`l` (the chance that a relevant label is
observed) is Jain et al.'s empirical model, :func:`jain_propensity`.

The scores ``F`` may be a dense ``(n, K)`` matrix, a sparse matrix (its stored
entries are the candidates) or a :class:`~mlcbook.topk.TopK`; the truth ``Y`` a
dense or sparse 0/1 matrix.  Memory and time are :math:`O(\mathrm{nnz}(Y) + nk)`
for top-k and sparse input (no Python loop over instances); a dense ``F`` costs one
partial sort of each row.

Conventions (they differ across the literature; each is a parameter or stated here)
------------------------------------------------------------------------------------
* **Ties.**  When scores tie across the cut-off, the value is the *average over
  the orders of the tied labels* (equivalently: each position held by a tie group
  gets the group's mean relevance, and coverage@k the probability that a label is
  covered), as scikit-learn's :func:`~sklearn.metrics.ndcg_score` does
  (``ignore_ties=False``).  pyxclib and napkinXC break ties by whatever order their
  sort returns.
* **Unlisted labels** (top-k and sparse scores) never enter the top k: a row that
  lists fewer than ``k`` labels has empty positions, which count as misses
  (pyxclib pads with a dummy label; napkinXC stops its ranking).
* **Rows with no true label**, ``empty_rows``: ``"zero"`` (default) counts them
  with value 0, as pyxclib, napkinXC (``zero_division=0``) and scikit-learn's
  ``ndcg_score`` do; ``"skip"`` leaves them out of the mean (pyxclib's
  ``Metrics(remove_invalid=True)``).
* **nDCG's normaliser**, ``normalization``: ``"ideal"`` (default) divides by the
  DCG of a perfect ranking, :math:`\sum_{j \le \min(k, |\mathbf y_i|)} d_j` (Jain et
  al. 2016; pyxclib; scikit-learn; napkinXC 0.7.2's ``napkinxc.metrics.ndcg_at_k``,
  tested against it to 1e-16); ``"k"`` by :math:`\sum_{j \le k} d_j`, so that an
  instance with fewer than k relevant labels cannot reach 1 (no library above uses
  it; it differs from ``"ideal"`` by up to a quarter).
* **Normalising the propensity-scored measures**, ``normalize``: ``True``
  (default) divides the mean over instances by the mean of the best achievable
  values (the true labels ranked by decreasing inverse propensity), so the result
  lies in [0, 1]: what pyxclib's ``psprecision``/``psndcg`` and napkinXC's
  ``psprecision_at_k(normalize=True)`` compute and the Extreme Classification
  Repository reports.  ``False`` is Jain et al.'s definition as printed, a mean of
  the per-instance values, unbounded above.
* **The discount** is :math:`1/\log_2(j+1)` (base 2, as pyxclib, napkinXC and
  scikit-learn; Jain et al. write :math:`\log(l+1)`).

For example:

>>> import numpy as np
>>> Y = np.array([[1, 0, 1, 0], [0, 1, 0, 0]])
>>> F = np.array([[0.9, 0.8, 0.1, 0.0], [0.2, 0.7, 0.3, 0.1]])
>>> precision_at_k(Y, F, 2)   # row 1: 1 of 2; row 2: 1 of 2
0.5
>>> float(np.round(ndcg_at_k(Y, F, 2), 4))   # (1 / (1 + 1/log2 3) + 1) / 2
0.8066
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _labelcounts as _lc
from . import _listed
from ._at_k import (
    NORMALIZATION,
    check_inputs,
    check_k,
    dcg,
    dense_rows,
    dense_top,
    hits,
    mean_at_k,
    ndcg_norm,
    normalised,
    ps_setup,
    psndcg_parts,
    psp_parts,
    safe_ratio,
    setup,
    top_groups,
)
from ._validation import (
    check_average,
    check_label_matrix,
    check_real,
)

__all__ = [
    "precision_at_k",
    "recall_at_k",
    "ndcg_at_k",
    "psprecision_at_k",
    "psndcg_at_k",
    "coverage_at_k",
    "jain_propensity",
    "JAIN_PARAMETERS",
]

#: Jain et al.'s (A, B) by data set family, as pyxclib's ``compute_inv_propesity``
#: and napkinXC's ``Jain_et_al_inverse_propensity`` document them (the paper fits A and B on
#: Wikipedia and Amazon and uses 0.55 and 1.5 elsewhere).
JAIN_PARAMETERS: dict[str, tuple[float, float]] = {
    "default": (0.55, 1.5),
    "wikipedia": (0.5, 0.4),
    "amazon": (0.6, 2.6),
}


# --------------------------------------------------------------------- propensities
def jain_propensity(Y: Any, A: float = 0.55, B: float = 1.5) -> np.ndarray:
    r"""Propensity of every label by Jain, Prabhu & Varma (2016, Sec. 3.2).

    .. math:: p_l = \frac{1}{1 + C e^{-A \log(N_l + B)}}
                  = \frac{1}{1 + C (N_l + B)^{-A}}, \qquad
              C = (\log N - 1)(B + 1)^A,

    with :math:`N` the number of instances of ``Y`` (usually the *training*
    labels), :math:`N_l` the number with label :math:`l` relevant, and natural
    logarithms.  Published parameters (:data:`JAIN_PARAMETERS`): ``A = 0.55, B =
    1.5`` in general, ``A = 0.5, B = 0.4`` for Wikipedia (WikiLSHTC) and ``A = 0.6,
    B = 2.6`` for Amazon; the same as pyxclib's ``compute_inv_propesity`` (which
    returns :math:`1/p_l`) and napkinXC's ``Jain_et_al_inverse_propensity``.

    Parameters
    ----------
    Y : array-like or sparse matrix of shape (n_samples, n_labels), 0/1
        Labels the frequencies are counted on; at least 3 rows (:math:`C > 0` needs
        :math:`\log N > 1`).
    A : float >= 0, default 0.55
    B : float > 0, default 1.5

    Returns
    -------
    ndarray of shape (n_labels,), values in (0, 1)

    Examples
    --------
    >>> import numpy as np
    >>> Y = np.array([[1, 0], [1, 0], [1, 1], [1, 0], [0, 0]])
    >>> jain_propensity(Y).round(4)   # N = 5; N_l = 4, and 1: p = 1 / log 5
    array([0.7168, 0.6213])
    """
    Yc = check_label_matrix(Y, "Y")
    a = check_real(A, "A", low=0.0)
    b = check_real(B, "B", low=0.0, low_inclusive=False)
    N = Yc.shape[0]
    if N < 3:
        raise ValueError(
            f"Y must have at least 3 rows for Jain et al.'s propensities "
            f"(C = (log N - 1)(B + 1)^A is positive only for N > e), got {N}"
        )
    freq = _listed.col_sums(Yc, None).astype(np.float64)
    C = (np.log(N) - 1.0) * (b + 1.0) ** a
    return 1.0 / (1.0 + C * (freq + b) ** -a)


# --------------------------------------------------------------------- the measures
def precision_at_k(
    Y: Any,
    F: Any,
    k: int,
    *,
    empty_rows: str = "zero",
    sample_weight: Any = None,
    per_instance: bool = False,
) -> float | np.ndarray:
    r"""Precision at k: the fraction of the k top-ranked labels that are relevant.

    :math:`P@k = \frac1n \sum_i \frac1k \sum_{j=1}^k y_{i r_j}` (module docstring;
    Jain et al. 2016, Sec. 3; pyxclib's ``precision``; napkinXC's
    ``precision_at_k``).  Ties across the cut-off count their mean relevance.

    Parameters
    ----------
    Y : array-like or sparse matrix of shape (n_samples, n_labels), 0/1
        True labels.
    F : array-like or sparse matrix of shape (n_samples, n_labels), or TopK
        Scores: dense, sparse (stored entries are the candidates) or a
        :class:`~mlcbook.topk.TopK`.
    k : int >= 1
        Cut-off (at most ``n_labels`` for dense ``F``).
    empty_rows : {"zero", "skip"}, default "zero"
        Rows without a true label: value 0, or left out of the mean.
    sample_weight : array-like of shape (n_samples,), optional
        Instance weights of the mean.
    per_instance : bool, default False
        Return the value of every instance (NaN for a skipped row).

    Returns
    -------
    float in [0, 1], or ndarray of shape (n_samples,)
    """
    Yc, S, k, w, per, empty = setup(Y, F, k, sample_weight, per_instance, empty_rows)
    T = top_groups(Yc, S, k, None)
    return mean_at_k(hits(T) / k, T.n_pos, empty, w, per)


def recall_at_k(
    Y: Any,
    F: Any,
    k: int,
    *,
    empty_rows: str = "zero",
    sample_weight: Any = None,
    per_instance: bool = False,
) -> float | np.ndarray:
    r"""Recall at k: the fraction of an instance's relevant labels ranked in its top k.

    :math:`R@k = \frac1n \sum_i \frac{1}{|\mathbf y_i|}\sum_{j=1}^k y_{i r_j}`
    (pyxclib's ``recall``, napkinXC's ``recall_at_k``).

    Parameters
    ----------
    Y : array-like or sparse matrix of shape (n_samples, n_labels), 0/1
        True labels.
    F : array-like or sparse matrix of shape (n_samples, n_labels), or TopK
        Scores: dense, sparse (stored entries are the candidates) or a
        :class:`~mlcbook.topk.TopK`.
    k : int >= 1
        Cut-off (at most ``n_labels`` for dense ``F``).
    empty_rows : {"zero", "skip"}, default "zero"
        Rows without a true label (0/0): value 0 (pyxclib; napkinXC's default
        ``zero_division=0``), or left out of the mean.
    sample_weight : array-like of shape (n_samples,), optional
    per_instance : bool, default False

    Returns
    -------
    float in [0, 1], or ndarray of shape (n_samples,)
    """
    Yc, S, k, w, per, empty = setup(Y, F, k, sample_weight, per_instance, empty_rows)
    T = top_groups(Yc, S, k, None)
    return mean_at_k(safe_ratio(hits(T), T.n_pos), T.n_pos, empty, w, per)


def ndcg_at_k(
    Y: Any,
    F: Any,
    k: int,
    *,
    normalization: str = "ideal",
    empty_rows: str = "zero",
    sample_weight: Any = None,
    per_instance: bool = False,
) -> float | np.ndarray:
    r"""Normalised discounted cumulative gain at k.

    :math:`\mathrm{nDCG}@k_i = \sum_{j=1}^k y_{i r_j} d_j / \sum_{j=1}^{\min(k,
    |\mathbf y_i|)} d_j` with :math:`d_j = 1/\log_2(j+1)` (Jain et al. 2016; pyxclib's
    ``ndcg``).  Equal to :func:`sklearn.metrics.ndcg_score` ``(Y, F, k=k)`` for a
    dense ``F`` (tested; both average tied scores).

    Parameters
    ----------
    Y : array-like or sparse matrix of shape (n_samples, n_labels), 0/1
        True labels.
    F : array-like or sparse matrix of shape (n_samples, n_labels), or TopK
        Scores: dense, sparse (stored entries are the candidates) or a
        :class:`~mlcbook.topk.TopK`.
    k : int >= 1
        Cut-off; above ``n_labels`` a dense ``F`` ranks all its labels (scikit-learn's
        ``ndcg_score`` with such a ``k``).
    normalization : {"ideal", "k"}, default "ideal"
        Divide by the DCG of a perfect ranking (:math:`\min(k, |\mathbf y_i|)`
        discounts, as pyxclib, scikit-learn and napkinXC), or by the first ``k``
        discounts.
    empty_rows : {"zero", "skip"}, default "zero"
        Rows without a true label: value 0 (pyxclib, scikit-learn), or left out.
    sample_weight : array-like of shape (n_samples,), optional
    per_instance : bool, default False

    Returns
    -------
    float in [0, 1], or ndarray of shape (n_samples,)
    """
    # a dense ranking holds K labels: its DCG at k > K is its DCG at K, as scikit-learn's
    # ndcg_score computes it; the ideal normaliser has min(k, |y|) = |y| terms either way
    Yc, S, k, w, per, empty = setup(
        Y, F, k, sample_weight, per_instance, empty_rows, beyond_labels=True
    )
    k_rank = k if isinstance(S, _listed.Listed) else min(k, Yc.shape[1])
    norm = check_average(normalization, NORMALIZATION, "normalization")
    T = top_groups(Yc, S, k_rank, None)
    return mean_at_k(safe_ratio(dcg(T), ndcg_norm(T.n_pos, k, norm)), T.n_pos, empty, w, per)


def psprecision_at_k(
    Y: Any,
    F: Any,
    k: int,
    *,
    propensity: Any,
    normalize: bool = True,
    empty_rows: str = "zero",
    sample_weight: Any = None,
    per_instance: bool = False,
) -> float | np.ndarray:
    r"""Propensity-scored precision at k (Jain, Prabhu & Varma 2016, Sec. 3).

    :math:`PSP@k = \frac1n\sum_i \frac1k \sum_{j=1}^k y_{i r_j} / p_{r_j}`; with
    ``normalize=True`` divided by the same mean for the best ranking (each
    instance's true labels by decreasing :math:`1/p_l`): pyxclib's
    ``psprecision`` and napkinXC's ``psprecision_at_k``, the values the Extreme
    Classification Repository reports.

    Parameters
    ----------
    Y : array-like or sparse matrix of shape (n_samples, n_labels), 0/1
        True labels.
    F : array-like or sparse matrix of shape (n_samples, n_labels), or TopK
        Scores: dense, sparse (stored entries are the candidates) or a
        :class:`~mlcbook.topk.TopK`.
    k : int >= 1
        Cut-off (at most ``n_labels`` for dense ``F``).
    propensity : array-like of shape (n_labels,), values in (0, 1]
        Label propensities :math:`p_l`, e.g. :func:`jain_propensity` of the
        training labels (not their inverses).
    normalize : bool, default True
        Divide by the best achievable value (a ratio of two sums over instances);
        False gives the paper's unnormalised mean.
    empty_rows : {"zero", "skip"}, default "zero"
        Rows without a true label: value 0 or left out.  Normalised, both give the
        same result (such a row adds 0 to both sums).
    sample_weight : array-like of shape (n_samples,), optional
    per_instance : bool, default False
        Per-instance values; only with ``normalize=False``.

    Returns
    -------
    float (in [0, 1] when normalised), or ndarray of shape (n_samples,)
    """
    Yc, S, k, w, per, empty, q, norm = ps_setup(
        Y, F, k, propensity, sample_weight, per_instance, empty_rows, normalize
    )
    num, best, n_pos = psp_parts(Yc, S, k, q)
    if norm:
        return normalised(num, best, n_pos, empty, w)
    return mean_at_k(num, n_pos, empty, w, per)


def psndcg_at_k(
    Y: Any,
    F: Any,
    k: int,
    *,
    propensity: Any,
    normalize: bool = True,
    normalization: str = "ideal",
    empty_rows: str = "zero",
    sample_weight: Any = None,
    per_instance: bool = False,
) -> float | np.ndarray:
    r"""Propensity-scored nDCG at k (Jain, Prabhu & Varma 2016, Sec. 3).

    :math:`PSnDCG@k_i = \sum_{j=1}^k y_{i r_j} d_j / p_{r_j} \,/\, \sum_{j=1}^{\min(k,
    |\mathbf y_i|)} d_j`, averaged over instances; with ``normalize=True`` divided
    by the same average for the best ranking (pyxclib's ``psndcg``).

    Parameters
    ----------
    Y : array-like or sparse matrix of shape (n_samples, n_labels), 0/1
        True labels.
    F : array-like or sparse matrix of shape (n_samples, n_labels), or TopK
        Scores: dense, sparse (stored entries are the candidates) or a
        :class:`~mlcbook.topk.TopK`.
    k : int >= 1
        Cut-off (at most ``n_labels`` for dense ``F``).
    propensity : array-like of shape (n_labels,), values in (0, 1]
        Label propensities :math:`p_l` (:func:`jain_propensity`).
    normalize : bool, default True
        Divide by the best achievable value (ratio of two sums over instances).
    normalization : {"ideal", "k"}, default "ideal"
        The per-instance denominator, as in :func:`ndcg_at_k`.
    empty_rows : {"zero", "skip"}, default "zero"
    sample_weight : array-like of shape (n_samples,), optional
    per_instance : bool, default False
        Per-instance values; only with ``normalize=False``.

    Returns
    -------
    float (in [0, 1] when normalised), or ndarray of shape (n_samples,)
    """
    Yc, S, k, w, per, empty, q, norm = ps_setup(
        Y, F, k, propensity, sample_weight, per_instance, empty_rows, normalize
    )
    nz = check_average(normalization, NORMALIZATION, "normalization")
    num, best, n_pos = psndcg_parts(Yc, S, k, q, nz)
    if norm:
        return normalised(num, best, n_pos, empty, w)
    return mean_at_k(num, n_pos, empty, w, per)


def coverage_at_k(Y: Any, F: Any, k: int, *, sample_weight: Any = None) -> float:
    r"""Coverage at k: the fraction of labels correctly predicted somewhere.

    .. math:: \mathrm{coverage}@k = \frac{|\bigcup_i (\{r_{i1},\dots,r_{ik}\}\cap
              \mathbf y_i)|}{|\bigcup_i \mathbf y_i|}

    the labels relevant to at least one instance that some instance ranks in its
    top k while relevant (napkinXC's ``coverage_at_k``; Wydmuch et al. 2018).
    With ties across the cut-off a label counts with the probability that it is
    covered.  NaN if no instance has a true label.  Not a mean over instances, so
    there are no per-instance values; an instance repeated covers nothing new, so
    instance weights only say which instances count (weight > 0).

    Parameters
    ----------
    Y : array-like or sparse matrix of shape (n_samples, n_labels), 0/1
        True labels.
    F : array-like or sparse matrix of shape (n_samples, n_labels), or TopK
        Scores: dense, sparse (stored entries are the candidates) or a
        :class:`~mlcbook.topk.TopK`.
    k : int >= 1
        Cut-off (at most ``n_labels`` for dense ``F``).
    sample_weight : array-like of shape (n_samples,), optional
        Instances of weight 0 are left out; the positive weights do not matter.

    Returns
    -------
    float in [0, 1] (or NaN)
    """
    Yc, S = check_inputs(Y, F)
    k = check_k(k, Yc.shape[1], not isinstance(S, _listed.Listed))
    w = _lc.check_sample_weight(sample_weight, Yc.shape[0])
    K = Yc.shape[1]
    live = None if w is None else w > 0
    seen = _listed.col_sums(Yc if live is None else Yc[live], None) > 0
    n_true = int(seen.sum())
    if n_true == 0:
        return float("nan")
    rows, labels, prob = _covered(Yc, S, k)
    if live is not None:
        keep = live[rows]
        labels, prob = labels[keep], prob[keep]
    sure = np.zeros(K, dtype=bool)
    sure[labels[prob == 1.0]] = True
    maybe = prob < 1.0
    logmiss = np.zeros(K)  # per label: log of the probability that no row covers it
    np.add.at(logmiss, labels[maybe], np.log1p(-prob[maybe]))
    covered = np.where(sure, 1.0, -np.expm1(logmiss))
    return float(covered[seen].sum() / n_true)


def _covered(Yc: Any, S: Any, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(row, label, probability) of every relevant label that may be in its row's top
    k: probability 1, or t/C for one of C tied labels sharing t places at the cut."""
    dense = not isinstance(S, _listed.Listed)
    L = dense_top(S, k) if dense else S
    rows = L.rows.ids
    rel = _listed.relevance(Yc, rows, L.labels)
    G = _listed.TieGroups(L)
    C = G.C.copy()
    last = G.seg.ptr[1:] - 1
    if dense:  # the tie group at the k-th place counted over the whole row
        vk = L.scores[L.rows.ptr[1:] - 1]
        C[last] = (S == vk[:, None]).sum(axis=1)
    t = np.clip(k - G.above(C), 0, C)
    p_group = t / C
    prob = np.repeat(p_group, G.C) if G.first is not None else p_group
    keep = rel & (prob > 0.0)
    out_rows, out_labels, out_prob = rows[keep], L.labels[keep], prob[keep]
    if dense:  # relevant labels of a cut tie group beyond the listed top k
        cut_rows = np.flatnonzero(C[last] > G.C[last])
        if cut_rows.size:
            eq = (S[cut_rows] == vk[cut_rows, None]) & dense_rows(Yc, cut_rows).astype(bool)
            np.put_along_axis(eq, L.labels.reshape(-1, k)[cut_rows], False, axis=1)
            r, c = np.nonzero(eq)
            out_rows = np.concatenate([out_rows, cut_rows[r]])
            out_labels = np.concatenate([out_labels, c])
            out_prob = np.concatenate([out_prob, p_group[last[cut_rows]][r]])
    return out_rows, out_labels, out_prob
