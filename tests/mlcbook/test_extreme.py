"""Tests of mlcbook.extreme: measures at k and Jain et al.'s propensities.

Evidence, each independent of the code under test:

* small cases computed by hand from the published definitions (Jain, Prabhu & Varma
  2016, Sec. 3);
* brute force over every order of tied labels (the tie convention: the average over
  those orders), per instance and for coverage@k over all rows at once;
* scikit-learn's ``ndcg_score`` (dense scores, ties averaged as here);
* pyxclib's formulas (kunaldahiya/pyxclib, ``xclib/evaluation/xc_metrics.py``:
  ``precision``, ``recall``, ``ndcg``, ``psprecision``, ``psndcg``,
  ``compute_inv_propesity``) and napkinXC's (0.7.2, ``napkinxc/metrics.py``:
  ``coverage_at_k``, ``ndcg_at_k`` (``NDCGAtK``: the ideal normaliser of
  ``min(k, |y|)`` discounts), ``psprecision_at_k``, ``recall_at_k``), re-implemented
  below line by line as loops: pyxclib is not on PyPI and napkinXC is not a
  dependency (``test_napkinxc_oracle.py`` calls napkinXC itself where it is installed);
* top-k and sparse scores against the dense matrix with the unlisted entries set
  below every listed score.

Tolerance 1e-12 unless stated: the values are sums of at most k (<= 8) discounts
or inverse propensities (each < 50 here) computed in another order than the
references (cumulative sums vs. loops), so they can differ by a few units in the
last place (k * 50 * 2**-52 ~ 1e-13).
"""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.metrics import ndcg_score

from mlcbook import extreme as X
from mlcbook import registry as R
from mlcbook.intervals import bootstrap_interval
from mlcbook.topk import TopK

TOL = 1e-12


# ------------------------------------------------------------------- references
def orders(f):
    """Every ranking (descending) consistent with the scores ``f``: ties permuted."""
    groups = [[j for j in range(len(f)) if f[j] == v] for v in sorted(set(f), reverse=True)]
    for perms in itertools.product(*(itertools.permutations(g) for g in groups)):
        yield [j for p in perms for j in p]


def brute_row(y, f, k, q, normalization="ideal"):
    """Every at-k value of one row, averaged over the orders of tied labels."""
    npos = int(sum(y))
    n_disc = min(k, npos) if normalization == "ideal" else k
    N = sum(1 / math.log2(r + 2) for r in range(n_disc))
    vals = []
    for o in orders(list(f)):
        top = o[:k]
        hits = sum(y[j] for j in top)
        dcg = sum(y[j] / math.log2(r + 2) for r, j in enumerate(top))
        ps = sum(y[j] * q[j] for j in top)
        psd = sum(y[j] * q[j] / math.log2(r + 2) for r, j in enumerate(top))
        vals.append((hits / k, hits / npos if npos else 0.0, dcg / N if N else 0.0,
                     ps / k, psd / N if N else 0.0))
    best = sorted((q[j] for j in range(len(y)) if y[j]), reverse=True)[:k]
    best_psd = sum(b / math.log2(r + 2) for r, b in enumerate(best))
    return (*np.mean(vals, axis=0), sum(best) / k, best_psd / N if N else 0.0)


def brute_coverage(Y, F, k):
    """coverage@k averaged over every combination of the rows' tie orders."""
    per_row = [list(orders(list(F[i]))) for i in range(Y.shape[0])]
    sizes = []
    for combo in itertools.product(*per_row):
        covered = set()
        for i, o in enumerate(combo):
            covered |= {j for j in o[:k] if Y[i, j]}
        sizes.append(len(covered))
    return np.mean(sizes) / (Y.sum(axis=0) > 0).sum()


def pyxclib_reference(Y, F, k, inv_psp):
    """pyxclib's precision, recall, ndcg, psprecision and psndcg at k (its formulas,
    as loops; scores without ties, so its arbitrary tie order does not matter).

    _precision: mean over rows of cumsum(flags)/(1..k); _recall: cumsum(flags) / |y|
    (|y| = 0 -> 1); _ndcg: DCG / min(sum of |y| discounts, sum of k discounts);
    ps*: the same with flags weighted by inv_psp, divided by the same for the
    top-k of the truth ranked by inv_psp."""
    n, K = Y.shape
    disc = [1 / math.log2(r + 2) for r in range(max(K, k))]
    cum = np.cumsum(disc)
    prec = rec = nd = psp = psp_best = psn = psn_best = 0.0
    for i in range(n):
        top = sorted(range(K), key=lambda j: -F[i, j])[:k]
        flags = [Y[i, j] for j in top]
        wflags = [Y[i, j] * inv_psp[j] for j in top]
        ideal = sorted(range(K), key=lambda j: -(Y[i, j] * inv_psp[j]))[:k]
        bflags = [Y[i, j] * inv_psp[j] for j in ideal]
        npos = int(Y[i].sum())
        norm = min(cum[npos - 1] if npos else cum[-1], cum[k - 1])  # its index -1 quirk
        prec += sum(flags) / k
        rec += sum(flags) / (npos if npos else 1)
        nd += sum(f * disc[r] for r, f in enumerate(flags)) / norm
        psp += sum(wflags) / k
        psp_best += sum(bflags) / k
        psn += sum(f * disc[r] for r, f in enumerate(wflags)) / norm
        psn_best += sum(f * disc[r] for r, f in enumerate(bflags)) / norm
    return dict(precision=prec / n, recall=rec / n, ndcg=nd / n,
                psprecision=psp / psp_best, psndcg=psn / psn_best)


def pyxclib_inv_propensity(Y, A, B):
    """pyxclib's compute_inv_propesity: 1 + C (freq + B)^-A, C = (log N - 1)(B+1)^A."""
    N = Y.shape[0]
    C = (math.log(N) - 1) * (B + 1) ** A
    return np.array([1.0 + C * (Y[:, j].sum() + B) ** -A for j in range(Y.shape[1])])


def napkinxc_reference(Y, F, k, inv_ps):
    """napkinXC 0.7.2's coverage_at_k, ndcg_at_k (normaliser: min(k, |y|) discounts,
    0 for an empty row), psprecision_at_k (normalised) and recall_at_k
    (zero_division=0) at place k."""
    n, K = Y.shape
    uniq_t, uniq_tp = set(), set()
    nd = rec = psp = best = 0.0
    for i in range(n):
        t = {j for j in range(K) if Y[i, j]}
        p = list(np.argsort(-F[i]))[:k]
        uniq_t |= t
        uniq_tp |= {j for j in p if j in t}
        dcg = sum(1 / math.log2(r + 2) for r, j in enumerate(p) if j in t)
        norm = sum(1 / math.log2(r + 2) for r in range(min(k, len(t))))
        nd += dcg / norm if t else 0.0
        rec += len(t & set(p)) / len(t) if t else 0.0
        psp += sum(inv_ps[j] for j in p if j in t) / k
        best += sum(sorted((inv_ps[j] for j in t), reverse=True)[:k]) / k
    return dict(coverage=len(uniq_tp) / len(uniq_t), ndcg=nd / n, recall=rec / n,
                psprecision=psp / best)


def at_k_values(Y, F, k, p, **kw):
    return dict(
        precision=X.precision_at_k(Y, F, k, **kw),
        recall=X.recall_at_k(Y, F, k, **kw),
        ndcg=X.ndcg_at_k(Y, F, k, **kw),
        psprecision=X.psprecision_at_k(Y, F, k, propensity=p),
        psndcg=X.psndcg_at_k(Y, F, k, propensity=p),
        coverage=X.coverage_at_k(Y, F, k),
    )


# ------------------------------------------------------------------- by hand
def test_hand_computed_case():
    """Two instances, four labels, k = 2, propensities p = (1/2, 1/4, 1, 1/2).

    Row 0: relevant {0, 2}; ranked 0 (0.9), 1 (0.8): one hit at place 1.
    Row 1: relevant {1};    ranked 1 (0.7), 2 (0.3): one hit at place 1.
    P@2 = (1/2 + 1/2)/2; R@2 = (1/2 + 1)/2; nDCG@2 = (1/(1 + 1/log2 3) + 1)/2.
    PSP@2 unnormalised: row 0: 2/2, row 1: 4/2 -> 1.5; best: row 0 ranks 0 (q 2) and
    2 (q 1): 3/2; row 1: 4/2 -> normalised 1.5 / 1.75.
    PSnDCG@2: row 0: 2 / (1 + 1/log2 3), best (2 + 1/log2 3)/(1 + 1/log2 3); row 1:
    4 / 1, best 4.  coverage@2: labels 0 and 1 covered of {0, 1, 2}: 2/3."""
    Y = np.array([[1, 0, 1, 0], [0, 1, 0, 0]])
    F = np.array([[0.9, 0.8, 0.1, 0.0], [0.2, 0.7, 0.3, 0.1]])
    p = np.array([0.5, 0.25, 1.0, 0.5])
    d2 = 1 / math.log2(3)
    assert X.precision_at_k(Y, F, 2) == 0.5
    assert X.recall_at_k(Y, F, 2) == 0.75
    assert X.ndcg_at_k(Y, F, 2) == pytest.approx((1 / (1 + d2) + 1) / 2, abs=TOL)
    assert X.psprecision_at_k(Y, F, 2, propensity=p, normalize=False) == 1.5
    assert X.psprecision_at_k(Y, F, 2, propensity=p) == pytest.approx(1.5 / 1.75, abs=TOL)
    row0, best0 = 2 / (1 + d2), (2 + d2) / (1 + d2)
    assert X.psndcg_at_k(Y, F, 2, propensity=p, normalize=False) == pytest.approx(
        (row0 + 4) / 2, abs=TOL)
    assert X.psndcg_at_k(Y, F, 2, propensity=p) == pytest.approx(
        (row0 + 4) / (best0 + 4), abs=TOL)
    assert X.coverage_at_k(Y, F, 2) == pytest.approx(2 / 3, abs=TOL)


def test_ties_across_the_cut_off_count_their_mean_relevance():
    """Row: scores (0.9, 0.5, 0.5, 0.5), relevant {1}; k = 2: place 1 is label 0
    (a miss), place 2 one of three tied labels, relevant with probability 1/3."""
    Y = np.array([[0, 1, 0, 0]])
    F = np.array([[0.9, 0.5, 0.5, 0.5]])
    assert X.precision_at_k(Y, F, 2) == pytest.approx(1 / 6, abs=TOL)
    assert X.recall_at_k(Y, F, 2) == pytest.approx(1 / 3, abs=TOL)
    assert X.ndcg_at_k(Y, F, 2) == pytest.approx((1 / 3) / math.log2(3), abs=TOL)
    assert X.coverage_at_k(Y, F, 2) == pytest.approx(1 / 3, abs=TOL)


def test_empty_rows_and_normalisation_conventions():
    Y = np.array([[1, 1, 0], [0, 0, 0]])
    F = np.array([[0.9, 0.1, 0.5], [0.3, 0.2, 0.1]])
    # row 0, k = 2: hits at place 1 only
    assert X.precision_at_k(Y, F, 2) == 0.25  # the empty row counts 0
    assert X.precision_at_k(Y, F, 2, empty_rows="skip") == 0.5
    assert np.isnan(X.precision_at_k(Y, F, 2, empty_rows="skip", per_instance=True)[1])
    assert X.ndcg_at_k(Y, F, 2, empty_rows="skip") == pytest.approx(
        1 / (1 + 1 / math.log2(3)), abs=TOL)
    # normalization="k" for a row with 1 relevant label of k = 2: 1 / (1 + d2), the
    # ideal normaliser gives 1 (one relevant label ranked first)
    Y1, F1 = np.array([[1, 0, 0]]), np.array([[0.9, 0.5, 0.1]])
    assert X.ndcg_at_k(Y1, F1, 2) == 1.0
    assert X.ndcg_at_k(Y1, F1, 2, normalization="k") == pytest.approx(
        1 / (1 + 1 / math.log2(3)), abs=TOL)
    p = np.array([0.5, 0.2, 0.9])
    for fn in (X.psprecision_at_k, X.psndcg_at_k):  # normalised: empty rows add 0 / 0
        assert fn(Y, F, 2, propensity=p) == fn(Y, F, 2, propensity=p, empty_rows="skip")
    assert np.isnan(X.precision_at_k(np.zeros((2, 3), int), F, 1, empty_rows="skip"))
    assert np.isnan(X.coverage_at_k(np.zeros((2, 3), int), F, 1))


# ------------------------------------------------------------------- brute force
@pytest.mark.parametrize("seed", range(60))
def test_every_measure_equals_the_mean_over_tie_orders(seed):
    rng = np.random.default_rng(seed)
    n, K = int(rng.integers(1, 5)), int(rng.integers(1, 6))
    k = int(rng.integers(1, K + 1))
    Y = (rng.random((n, K)) < 0.5).astype(np.int64)
    F = rng.integers(0, 3, size=(n, K)).astype(float) if seed % 3 else rng.random((n, K))
    p = rng.uniform(0.1, 1.0, K)
    for norm in ("ideal", "k"):
        ref = np.array([brute_row(Y[i], F[i], k, 1 / p, norm) for i in range(n)])
        Yin = sp.csr_matrix(Y) if seed % 2 else Y
        got = [X.precision_at_k(Yin, F, k, per_instance=True),
               X.recall_at_k(Yin, F, k, per_instance=True),
               X.ndcg_at_k(Yin, F, k, normalization=norm, per_instance=True),
               X.psprecision_at_k(Yin, F, k, propensity=p, normalize=False,
                                  per_instance=True),
               X.psndcg_at_k(Yin, F, k, propensity=p, normalize=False, normalization=norm,
                             per_instance=True)]
        for col, g in enumerate(got):
            np.testing.assert_allclose(g, ref[:, col], atol=TOL, rtol=0)
        if ref[:, 5].sum() > 0:
            assert X.psprecision_at_k(Yin, F, k, propensity=p) == pytest.approx(
                ref[:, 3].sum() / ref[:, 5].sum(), abs=TOL)
            assert X.psndcg_at_k(Yin, F, k, propensity=p, normalization=norm) == \
                pytest.approx(ref[:, 4].sum() / ref[:, 6].sum(), abs=TOL)
    if Y.sum() and n * K <= 10:
        assert X.coverage_at_k(Y, F, k) == pytest.approx(brute_coverage(Y, F, k), abs=TOL)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 30), K=st.integers(2, 12),
       ties=st.booleans())
def test_ndcg_equals_scikit_learn(seed, n, K, ties):
    rng = np.random.default_rng(seed)
    k = int(rng.integers(1, K + 1))
    Y = (rng.random((n, K)) < 0.3).astype(np.int64)
    F = rng.integers(0, 3, size=(n, K)).astype(float) if ties else rng.normal(size=(n, K))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scikit-learn warns about all-zero rows
        ref = ndcg_score(Y, F, k=k)
    assert X.ndcg_at_k(Y, F, k) == pytest.approx(ref, abs=TOL)


# ------------------------------------------------------------------- other libraries
@pytest.mark.parametrize("seed", range(10))
def test_agrees_with_pyxclib_formulas(seed):
    rng = np.random.default_rng(seed)
    n, K, k = 40, 15, int(rng.integers(1, 6))
    Y = (rng.random((n, K)) < 0.2).astype(np.int64)
    Y[0] = 0  # pyxclib counts an empty row as 0 (our empty_rows="zero")
    Y[1, 0] = 1
    F = rng.random((n, K))  # no ties
    inv = pyxclib_inv_propensity(Y, 0.55, 1.5)
    ref = pyxclib_reference(Y, F, k, inv)
    p = X.jain_propensity(Y)
    np.testing.assert_allclose(1 / p, inv, rtol=1e-14, atol=0)
    ours = at_k_values(Y, F, k, p)
    for name, v in ref.items():
        assert ours[name] == pytest.approx(v, abs=TOL), name


@pytest.mark.parametrize("seed", range(10))
def test_agrees_with_napkinxc_formulas(seed):
    rng = np.random.default_rng(seed + 100)
    n, K, k = 40, 15, int(rng.integers(1, 6))
    Y = (rng.random((n, K)) < 0.2).astype(np.int64)
    Y[1, 0] = 1
    F = rng.random((n, K))
    p = rng.uniform(0.05, 1.0, K)
    ref = napkinxc_reference(Y, F, k, 1 / p)
    assert X.coverage_at_k(Y, F, k) == pytest.approx(ref["coverage"], abs=TOL)
    assert X.ndcg_at_k(Y, F, k) == pytest.approx(ref["ndcg"], abs=TOL)
    assert X.recall_at_k(Y, F, k) == pytest.approx(ref["recall"], abs=TOL)
    assert X.psprecision_at_k(Y, F, k, propensity=p) == pytest.approx(
        ref["psprecision"], abs=TOL)


# ------------------------------------------------------------------- input kinds
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 12), K=st.integers(1, 9),
       ties=st.booleans(), sparse_y=st.booleans())
def test_topk_and_sparse_equal_dense_when_k_fits_the_listing(seed, n, K, ties, sparse_y):
    rng = np.random.default_rng(seed)
    width = int(rng.integers(1, K + 1))
    k = int(rng.integers(1, width + 1))
    Y = (rng.random((n, K)) < 0.4).astype(np.int64)
    Y[0, 0] = 1
    idx = np.array([rng.permutation(K)[:width] for _ in range(n)])
    S = (rng.integers(1, 4, size=(n, width)).astype(float) if ties
         else rng.uniform(0.1, 1.0, size=(n, width)))
    D = np.zeros((n, K))  # unlisted entries 0, below every listed score (>= 0.1)
    np.put_along_axis(D, idx, S, axis=1)
    if ties:  # a tie straddling the listing's end would include unlisted labels
        cut = np.sort(S, axis=1)[:, ::-1]
        if width < K and (cut[:, k - 1] == cut[:, width - 1]).any():
            return
    p = rng.uniform(0.1, 1.0, K)
    Yin = sp.csr_matrix(Y) if sparse_y else Y
    ref = at_k_values(Y, D, k, p)
    for F in (TopK(idx, S, K), sp.csr_matrix(D)):
        got = at_k_values(Yin, F, k, p)
        for name in ref:
            assert got[name] == pytest.approx(ref[name], abs=TOL), name


@pytest.mark.parametrize("per_row", [1, 3, 6])
def test_propensity_scored_best_values_of_rows_of_one_length(per_row):
    """Sparse truth with the same number of labels in every row takes an (n, w) path
    for the best achievable values; dense truth and ragged sparse truth others."""
    rng = np.random.default_rng(per_row)
    n, K, k = 30, 8, 4
    Y = np.zeros((n, K), dtype=np.int64)
    for i in range(n):
        Y[i, rng.permutation(K)[:per_row]] = 1
    F = rng.random((n, K))
    p = rng.uniform(0.1, 1.0, K)
    ragged = Y.copy()
    ragged[0] = 0  # one row of another length
    for fn in (X.psprecision_at_k, X.psndcg_at_k):
        for T in (Y, ragged):
            dense = fn(T, F, k, propensity=p, normalize=False, per_instance=True)
            sparse = fn(sp.csr_matrix(T), F, k, propensity=p, normalize=False,
                        per_instance=True)
            np.testing.assert_allclose(sparse, dense, atol=TOL, rtol=0)
            assert fn(sp.csr_matrix(T), F, k, propensity=p) == pytest.approx(
                fn(T, F, k, propensity=p), abs=TOL)


def test_a_short_listing_leaves_empty_places_that_count_as_misses():
    """A row listing 2 labels has no 3rd place: P@3 = hits / 3 (pyxclib's padding)."""
    Y = np.array([[1, 1, 1, 0, 0]])
    top = TopK([[0, 3]], [[0.9, 0.8]], n_labels=5)
    assert X.precision_at_k(Y, top, 3) == pytest.approx(1 / 3, abs=TOL)
    assert X.recall_at_k(Y, top, 3) == pytest.approx(1 / 3, abs=TOL)
    Fs = sp.csr_matrix(([0.9, 0.8], [0, 3], [0, 2]), shape=(1, 5))
    assert X.precision_at_k(Y, Fs, 3) == pytest.approx(1 / 3, abs=TOL)


@pytest.mark.parametrize("seed", range(5))
def test_integer_weights_equal_repeated_rows(seed):
    rng = np.random.default_rng(seed)
    n, K, k = 12, 8, 3
    Y = (rng.random((n, K)) < 0.3).astype(np.int64)
    F = rng.integers(0, 4, size=(n, K)).astype(float)
    w = rng.integers(0, 4, n)
    w[0] = 1
    rep = np.repeat(np.arange(n), w)
    p = rng.uniform(0.1, 1.0, K)
    for fn, kw in ((X.precision_at_k, {}), (X.recall_at_k, {}), (X.ndcg_at_k, {}),
                   (X.psprecision_at_k, {"propensity": p}),
                   (X.psndcg_at_k, {"propensity": p, "normalize": False})):
        a = fn(Y, F, k, sample_weight=w.astype(float), **kw)
        b = fn(Y[rep], F[rep], k, **kw)
        assert a == pytest.approx(b, abs=TOL), fn.__name__
    # coverage@k: a union; repeating an instance adds nothing, weight 0 removes it
    # (without ties: with ties each copy would draw its own order of the tied labels)
    G = rng.random((n, K))
    assert X.coverage_at_k(Y, G, k, sample_weight=w.astype(float)) == pytest.approx(
        X.coverage_at_k(Y[rep], G[rep], k), abs=TOL)


def test_coverage_has_no_bootstrap_interval_and_says_why():
    """A bootstrap resample repeats instances and so covers fewer labels: on 60
    instances and 300 labels (k = 1) coverage@1 is 0.248 while resamples average
    0.215 and the 95% percentile interval, [0.194, 0.235], misses the value.  The
    registry declares no interval, with the reason, and the intervals refuse."""
    rng = np.random.default_rng(0)
    Y = (rng.random((60, 300)) < 0.02).astype(np.int64)
    F = rng.random((60, 300)) + 0.5 * Y
    est = X.coverage_at_k(Y, F, 1)
    boot = [X.coverage_at_k(Y[i], F[i], 1)
            for i in np.random.default_rng(1).integers(0, 60, (200, 60))]
    assert np.mean(boot) < est - 0.02  # the bias, several standard errors (~0.01)
    spec = R.get_measure("coverage_at_k")
    assert not spec.has_interval and "biased" in spec.no_interval
    with pytest.raises(ValueError, match="coverage_at_k"):
        bootstrap_interval("coverage_at_k", Y, F, k=1)


# ------------------------------------------------------------------- propensities
def test_jain_propensity_by_hand_and_published_parameters():
    # N = 5; label 0 in 4 rows, label 1 in 1 row, label 2 in none
    Y = np.array([[1, 0, 0], [1, 0, 0], [1, 1, 0], [1, 0, 0], [0, 0, 0]])
    for A, B in X.JAIN_PARAMETERS.values():
        C = (math.log(5) - 1) * (B + 1) ** A
        expected = [1 / (1 + C * math.exp(-A * math.log(Nl + B))) for Nl in (4, 1, 0)]
        np.testing.assert_allclose(X.jain_propensity(Y, A, B), expected, rtol=1e-14)
        # a label seen once: C (1 + B)^-A = log N - 1, so p = 1 / log N
        assert X.jain_propensity(Y, A, B)[1] == pytest.approx(1 / math.log(5), rel=1e-14)
    assert X.JAIN_PARAMETERS == {"default": (0.55, 1.5), "wikipedia": (0.5, 0.4),
                                 "amazon": (0.6, 2.6)}
    p = X.jain_propensity(sp.csr_matrix(Y))
    assert np.all((p > 0) & (p < 1)) and p[0] > p[1] > p[2]  # rarer: less likely seen


# ------------------------------------------------------------------- bad input
def test_bad_input_names_the_argument():
    Y, F = np.array([[1, 0, 0]]), np.array([[0.3, 0.2, 0.1]])
    with pytest.raises(ValueError, match="k must be at most the number of labels 3"):
        X.precision_at_k(Y, F, 4)
    with pytest.raises(ValueError, match="k must be a positive integer"):
        X.ndcg_at_k(Y, F, 0)
    with pytest.raises(TypeError, match="k must be a positive integer"):
        X.recall_at_k(Y, F, 2.0)
    with pytest.raises(ValueError, match="empty_rows must be one of"):
        X.precision_at_k(Y, F, 1, empty_rows="drop")
    with pytest.raises(ValueError, match="normalization must be one of"):
        X.ndcg_at_k(Y, F, 1, normalization="min")
    with pytest.raises(ValueError, match=r"propensity must have shape \(3,\)"):
        X.psprecision_at_k(Y, F, 1, propensity=[0.5, 0.5])
    with pytest.raises(ValueError, match=r"inverse propensities\? pass 1 / inv"):
        X.psprecision_at_k(Y, F, 1, propensity=[2.0, 3.0, 1.5])
    with pytest.raises(ValueError, match=r"propensity must lie in \(0, 1\]"):
        X.psndcg_at_k(Y, F, 1, propensity=[0.0, 0.5, 0.5])
    with pytest.raises(TypeError, match="propensity must be an array"):
        X.psndcg_at_k(Y, F, 1, propensity=None)
    with pytest.raises(ValueError, match="per_instance=True needs normalize=False"):
        X.psprecision_at_k(Y, F, 1, propensity=[0.5] * 3, per_instance=True)
    with pytest.raises(ValueError, match="Y and F must have the same shape"):
        X.precision_at_k(Y, np.zeros((1, 4)), 1)
    with pytest.raises(ValueError, match="F must not contain NaN"):
        X.precision_at_k(Y, np.array([[np.nan, 0, 0]]), 1)
    with pytest.raises(ValueError, match="Y must be binary"):
        X.precision_at_k(np.array([[2, 0, 0]]), F, 1)
    with pytest.raises(ValueError, match="at least 3 rows"):
        X.jain_propensity(np.ones((2, 3), int))
    with pytest.raises(ValueError, match="B must be > 0"):
        X.jain_propensity(np.ones((4, 3), int), B=0.0)
    with pytest.raises(ValueError, match="sample_weight must have shape"):
        X.coverage_at_k(Y, F, 1, sample_weight=[1.0, 2.0])
    with pytest.raises(ValueError, match="A must be >= 0"):
        X.jain_propensity(np.ones((4, 3), int), A=-1.0)
