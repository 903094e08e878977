"""LIMO (Algorithm 1), ML-kNN and GFM against plain reference implementations."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import scipy.sparse as sp

from mlcbook.learners import GFM, LIMO, MLkNN, column_thresholds, limo_objective, row_thresholds
from mlcbook.learners.limo import _sample_triplets


def _toy(seed=0, m=120, d=5, l=4):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, d))
    Y = (X @ rng.normal(size=(d, l)) + 0.3 * rng.normal(size=(m, l)) > 0.2).astype(int)
    return X, Y


def _naive_limo(X, Y, lam1, lam2, eta, T, seed):
    """Algorithm 1 line by line: the same random draws, the full average of W^1..W^T."""
    rng = np.random.default_rng(seed)
    l, d = Y.shape[1], X.shape[1]
    W = rng.normal(0.0, 1.0 / np.sqrt(d), size=(l, d))
    lab = _sample_triplets(Y, T, rng) if lam1 > 0 else None
    ins = _sample_triplets(Y.T, T, rng) if lam2 > 0 else None
    total = np.zeros_like(W)
    for t in range(T):
        if lab is not None:
            i, u, v = (a[t] for a in lab)
            x = X[i]
            if 1 - W[u] @ x + W[v] @ x > 0:
                wu, wv = W[u].copy(), W[v].copy()
                W[u] = wu - eta * (-lam1 * x + wu)
                W[v] = wv - eta * (lam1 * x + wv)
        if ins is not None:
            j, a, b = (arr[t] for arr in ins)
            if 1 - W[j] @ X[a] + W[j] @ X[b] > 0:
                W[j] = W[j] - eta * (lam2 * (X[b] - X[a]) + W[j])
        total += W
    return total / T


@pytest.mark.parametrize("lams", [(1.0, 1.0), (1.0, 0.0), (0.0, 1.0), (100.0, 100.0)])
def test_limo_equals_line_by_line_algorithm(lams):
    X, Y = _toy()
    T = 700
    ref = _naive_limo(X, Y, *lams, eta=0.01, T=T, seed=3)
    got = LIMO(*lams, eta=0.01, n_iter=T, random_state=3).fit(X, Y, fit_threshold=False).coef_
    np.testing.assert_allclose(got, ref, rtol=1e-10, atol=1e-12)


def test_limo_sparse_equals_dense():
    X, Y = _toy(1)
    X[np.abs(X) < 0.8] = 0.0
    a = LIMO(n_iter=500, random_state=0).fit(X, Y, fit_threshold=False).coef_
    b = LIMO(n_iter=500, random_state=0).fit(sp.csr_matrix(X), Y, fit_threshold=False).coef_
    np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)


def test_limo_is_deterministic_given_seed():
    X, Y = _toy(2)
    a = LIMO(n_iter=400, random_state=7).fit(X, Y).predict(X)
    b = LIMO(n_iter=400, random_state=7).fit(X, Y).predict(X)
    c = LIMO(n_iter=400, random_state=8).fit(X, Y, fit_threshold=False).coef_
    np.testing.assert_array_equal(a, b)
    assert not np.allclose(c, LIMO(n_iter=400, random_state=7).fit(X, Y, fit_threshold=False).coef_)


def test_averaged_sgd_decreases_the_objective():
    X, Y = _toy(4)
    d = X.shape[1]
    W0 = np.random.default_rng(5).normal(0.0, 1.0 / np.sqrt(d), size=(Y.shape[1], d))
    values = [limo_objective(W0, X, Y, 1.0, 1.0)]
    for T in (200, 2000, 20000):
        W = LIMO(1.0, 1.0, eta=0.01, n_iter=T, random_state=5).fit(X, Y, fit_threshold=False).coef_
        values.append(limo_objective(W, X, Y, 1.0, 1.0))
    # every averaged iterate is far below the start, and more iterations help at first;
    # Algorithm 1 shrinks only the rows of violated triplets, so it is not exact SGD on
    # Eq. (3) and need not decrease it monotonically to the end
    assert all(v < 0.5 * values[0] for v in values[1:]), values
    assert values[2] < values[1], values


def test_limo_rejects_bad_input():
    X, Y = _toy()
    with pytest.raises(ValueError, match="lambda1"):
        LIMO(lambda1=-1).fit(X, Y)
    with pytest.raises(ValueError, match="X and Y"):
        LIMO().fit(X[:5], Y)
    with pytest.raises(ValueError, match="Y must be binary"):
        LIMO().fit(X, Y * 2)


# ------------------------------------------------------------------ thresholds
def _brute_cut(f, y, measure):
    cands = np.concatenate([[f.max() + 1], (np.sort(np.unique(f))[1:] + np.sort(np.unique(f))[:-1]) / 2,
                            [f.min() - 1]])
    best, val = None, -np.inf
    for t in cands:
        h = f > t
        if measure == "f1":
            tp, den = (h & (y == 1)).sum(), h.sum() + y.sum()
            v = 1.0 if den == 0 else 2 * tp / den
        else:
            v = -(h != y).sum()
        if v > val + 1e-12:
            best, val = t, v
    return val


def _value(f, y, t, measure):
    h = f > t
    if measure == "f1":
        den = h.sum() + y.sum()
        return 1.0 if den == 0 else 2 * (h & (y == 1)).sum() / den
    return -(h != y).sum()


@pytest.mark.parametrize("measure", ["f1", "hamming"])
def test_thresholds_are_optimal_by_brute_force(measure):
    rng = np.random.default_rng(0)
    F = np.round(rng.normal(size=(30, 6)), 1)  # ties on purpose
    Y = (rng.random((30, 6)) < 0.3).astype(int)
    Y[:, 0] = 0
    tj = column_thresholds(F, Y, measure)
    for j in range(F.shape[1]):
        assert _value(F[:, j], Y[:, j], tj[j], measure) == pytest.approx(_brute_cut(F[:, j], Y[:, j], measure))
    ti = row_thresholds(F, Y, measure)
    for i in range(F.shape[0]):
        assert _value(F[i], Y[i], ti[i], measure) == pytest.approx(_brute_cut(F[i], Y[i], measure))


# ---------------------------------------------------------------------- ML-kNN
def _mlknn_reference(Xtr, Ytr, Xte, k=3, s=1.0):
    """Zhang & Zhou (2007), Fig. 1, with explicit loops and distances."""
    m, l = Ytr.shape
    D = ((Xtr[:, None, :] - Xtr[None, :, :]) ** 2).sum(-1)
    np.fill_diagonal(D, np.inf)
    N = np.argsort(D, axis=1, kind="stable")[:, :k]
    prior = np.array([(s + Ytr[:, j].sum()) / (2 * s + m) for j in range(l)])
    c1 = np.zeros((l, k + 1))
    c0 = np.zeros((l, k + 1))
    for i in range(m):
        for j in range(l):
            delta = Ytr[N[i], j].sum()
            if Ytr[i, j] == 1:
                c1[j, delta] += 1
            else:
                c0[j, delta] += 1
    post = np.zeros((Xte.shape[0], l))
    pred = np.zeros((Xte.shape[0], l), dtype=int)
    for t in range(Xte.shape[0]):
        dt = ((Xtr - Xte[t]) ** 2).sum(-1)
        nt = np.argsort(dt, kind="stable")[:k]
        for j in range(l):
            c = Ytr[nt, j].sum()
            p1 = prior[j] * (s + c1[j, c]) / (s * (k + 1) + c1[j].sum())
            p0 = (1 - prior[j]) * (s + c0[j, c]) / (s * (k + 1) + c0[j].sum())
            post[t, j] = p1 / (p1 + p0)
            pred[t, j] = int(p1 > p0)
    return post, pred


def test_mlknn_matches_reference():
    rng = np.random.default_rng(1)
    Xtr, Xte = rng.random((40, 3)), rng.random((15, 3))
    Ytr = (rng.random((40, 4)) < 0.4).astype(int)
    post, pred = _mlknn_reference(Xtr, Ytr, Xte, k=3)
    mk = MLkNN(k=3).fit(Xtr, Ytr)
    np.testing.assert_allclose(mk.predict_proba(Xte), post, rtol=1e-12)
    np.testing.assert_array_equal(mk.predict(Xte), pred)


@pytest.mark.parametrize("sparse", [False, True])
def test_mlknn_matches_reference_on_tied_binary_data(sparse):
    """0/1 features: most queries tie at the k-th neighbour; the reference breaks ties
    by training index (stable argsort), the library's one neighbour policy."""
    import scipy.sparse as sps

    rng = np.random.default_rng(7)
    Xtr = (rng.random((60, 6)) < 0.3).astype(float)
    Xte = (rng.random((20, 6)) < 0.3).astype(float)
    Ytr = (rng.random((60, 4)) < 0.4).astype(int)
    post, pred = _mlknn_reference(Xtr, Ytr, Xte, k=5)
    fit_X, test_X = (sps.csr_matrix(Xtr), sps.csr_matrix(Xte)) if sparse else (Xtr, Xte)
    mk = MLkNN(k=5).fit(fit_X, Ytr)
    # integer data: the distances are exact, so the probabilities equal the reference's
    # up to the rounding of the few products and quotients (rtol 1e-12)
    np.testing.assert_allclose(mk.predict_proba(test_X), post, rtol=1e-12)
    np.testing.assert_array_equal(mk.predict(test_X), pred)


def _mlknn_exact(Xtr, Ytr, Xte, k, s):
    """ML-kNN's posterior and MAP decision in exact rational arithmetic (the neighbours
    by the reference's stable argsort): no product can underflow here."""
    from fractions import Fraction

    s = Fraction(s)
    m, l = Ytr.shape
    D = ((Xtr[:, None, :] - Xtr[None, :, :]) ** 2).sum(-1)
    np.fill_diagonal(D, np.inf)
    N = np.argsort(D, axis=1, kind="stable")[:, :k]
    C = Ytr[N].sum(axis=1)
    post = np.zeros((Xte.shape[0], l))
    pred = np.zeros((Xte.shape[0], l), dtype=int)
    for t in range(Xte.shape[0]):
        nt = np.argsort(((Xtr - Xte[t]) ** 2).sum(-1), kind="stable")[:k]
        for j in range(l):
            c, pos = int(Ytr[nt, j].sum()), Ytr[:, j] == 1
            n1 = int(pos.sum())
            k1 = int((C[pos, j] == c).sum())
            k0 = int((C[~pos, j] == c).sum())
            p1 = (s + n1) / (2 * s + m) * (s + k1) / (s * (k + 1) + n1)
            p0 = (s + m - n1) / (2 * s + m) * (s + k0) / (s * (k + 1) + m - n1)
            post[t, j] = float(p1 / (p1 + p0))
            pred[t, j] = int(p1 > p0)
    return post, pred


def test_mlknn_refuses_no_smoothing():
    """s = 0 used to give NaN posteriors for a label no training instance has (0/0)."""
    rng = np.random.default_rng(3)
    X, Y = rng.random((20, 3)), np.zeros((20, 2), dtype=int)
    Y[:10, 0] = 1  # label 1 is never relevant
    with pytest.raises(ValueError, match=r"^s must be > 0, got 0"):
        MLkNN(k=3, s=0).fit(X, Y)
    with pytest.raises(ValueError, match=r"^s must be >= 0"):
        MLkNN(k=3, s=-1.0).fit(X, Y)


@pytest.mark.parametrize("s", [1.0, 1e-3, 1e-150, 1e-200, 1e-300, 5e-324])
def test_mlknn_with_any_positive_smoothing_is_the_exact_posterior(s):
    """A label never relevant, one always relevant, counts a class never showed: the
    products underflow for s below about 1e-150, where the logarithms take over."""
    rng = np.random.default_rng(4)
    Xtr, Xte = rng.random((30, 3)), rng.random((12, 3))
    Ytr = (rng.random((30, 4)) < 0.4).astype(int)
    Ytr[:, 1], Ytr[:, 2] = 0, 1
    post, pred = _mlknn_exact(Xtr, Ytr, Xte, k=3, s=s)
    mk = MLkNN(k=3, s=s).fit(Xtr, Ytr)
    got = mk.predict_proba(Xte)
    assert np.isfinite(got).all()
    # a few products and quotients, or exp of a sum of a few logarithms (whose
    # rounding, ~1e-16 relative on terms up to 745, moves the posterior by < 1e-12)
    np.testing.assert_allclose(got, post, rtol=1e-12, atol=0)
    # the MAP decision wherever doubles can resolve it: a count neither class showed
    # gives p1/p0 = 1 + O(s), a difference no double holds once s < 1e-16
    clear = np.abs(post - 0.5) > 1e-12
    assert clear.sum() >= 30
    np.testing.assert_array_equal(mk.predict(Xte)[clear], pred[clear])


# ------------------------------------------------------------------------- GFM
def _f1(y, h):
    den = y.sum() + h.sum()
    return 1.0 if den == 0 else 2.0 * (y & h).sum() / den


def test_gfm_maximises_expected_f1_by_enumeration():
    rng = np.random.default_rng(2)
    l, k = 5, 6
    Xtr, Xte = rng.random((60, 2)), rng.random((25, 2))
    Ytr = (rng.random((60, l)) < 0.35).astype(int)
    Ytr[:5] = 0  # some empty label sets
    g = GFM(k=k, batch_size=7).fit(Xtr, Ytr)
    H = g.predict(Xte)
    neigh = g.kneighbors(Xte)
    all_h = np.array(list(itertools.product([0, 1], repeat=l)), dtype=bool)
    for t in range(Xte.shape[0]):
        Yn = Ytr[neigh[t]].astype(bool)
        exp_f = [np.mean([_f1(y, h) for y in Yn]) for h in all_h]
        ours = np.mean([_f1(y, H[t].astype(bool)) for y in Yn])
        assert ours == pytest.approx(max(exp_f), abs=1e-12)
