"""The nu formulations (chapter "Regression and novelty detection"):
svmlib.NuSVC, svmlib.NuSVR and the solver's pairs within a label, against
independent answers: a brute-force working-set selection, cvxopt on the
two duals, C-SVC and epsilon-SVR solved from scratch at the parameters the
nu solutions imply, the nu-property, scikit-learn's NuSVC and NuSVR
(LIBSVM), and scikit-learn's own estimator checks; bad input refused
before any solver runs.

The comparisons with LIBSVM run both solvers at tol=1e-6, so that what is
compared is the solution, not where each stopping rule happens to stop.
They avoid values of nu for which nu n / 2 is a whole number: then a
label's multipliers can all end on a bound, its threshold is any point of
an interval, and LIBSVM (which may leave 1e-14 in one multiplier and count
it as free) reports an end of it where svmlib takes the middle.
"""

import functools
import warnings

import numpy as np
import pytest
from sklearn import svm
from sklearn.datasets import (
    load_breast_cancer,
    load_diabetes,
    load_iris,
    load_wine,
    make_classification,
)
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics.pairwise import (
    polynomial_kernel,
    rbf_kernel,
    sigmoid_kernel,
)
from sklearn.utils import estimator_checks
from sklearn.utils.estimator_checks import parametrize_with_checks

import svmlib.estimators.nu_estimators
import svmlib.estimators.one_problem
import svmlib.training.fast
from svmlib import Kernel, NuSVC, NuSVR, solve_qp
from svmlib.derivation.intercept import BoundStatus
from svmlib.formulations.nu import (
    check_nu_feasible,
    fill_in_order,
    label_thresholds,
    nu_svc_problem,
    nu_svr_problem,
    within_label_pair,
)
from svmlib.formulations.svr_one_class import svr_coefficients, svr_problem
from svmlib.kernels.kernel_cache import MEGABYTE
from svmlib.result import Status
from svmlib.smo.solver import solve
from svmlib.smo.working_set import TAU
from svmlib.training.batched import (
    block_size,
    c_svc_block_problem,
    solve_batched,
)
from svmlib.training.compiled import (
    flag_bounds,
    pair_groups,
    select_pair_by_label,
    shrink,
)
from svmlib.training.fast import gram_fits, solve_auto

TIGHT = 1e-6  # the tol of both solvers in the comparisons with LIBSVM
EXACT = 1e-8  # the tol of the comparisons with cvxopt
TINY_CACHE = 0.05  # megabytes: the Gram matrices below do not fit

# --------------------------------------------------------------------------
# Helpers: the up and low sets, an independent kernel, the duals


def up_low(alpha, y, C):
    """I_up and I_low of eq. (eq-up-low), written out."""
    up = ((y > 0) & (alpha < C)) | ((y < 0) & (alpha > 0))
    low = ((y > 0) & (alpha > 0)) | ((y < 0) & (alpha < C))
    return up, low


def kernel_matrix(A, B, params, X_fit):
    """k(A, B) for the estimator parameters ``params``, by scikit-learn's
    pairwise kernels (not svmlib's), gamma="scale" resolved as
    1 / (n_features * X_fit.var()); for a precomputed kernel, A itself."""
    kernel = params.get("kernel", "rbf")
    if kernel == "precomputed":
        return A
    if kernel == "linear":
        return A @ B.T
    gamma = params.get("gamma", "scale")
    if gamma == "scale":
        gamma = 1 / (X_fit.shape[1] * X_fit.var())
    if kernel == "rbf":
        return rbf_kernel(A, B, gamma=gamma)
    coef0 = params.get("coef0", 0.0)
    if kernel == "poly":
        return polynomial_kernel(
            A, B, degree=params.get("degree", 3), gamma=gamma, coef0=coef0
        )
    return sigmoid_kernel(A, B, gamma=gamma, coef0=coef0)


def cvxopt_core(Q, p, labels, C, totals):
    """min 1/2 a'Qa + p'a subject to labels'a = totals[0], sum(a) =
    totals[1] and 0 <= a <= C, by cvxopt (the two equality rows as they
    stand); returns the solution and the minimum."""
    m = p.size
    a = solve_qp(
        Q,
        p,
        np.vstack([np.eye(m), -np.eye(m)]),
        np.r_[np.full(m, C), np.zeros(m)],
        A_eq=np.vstack([labels, np.ones(m)]),
        b_eq=np.array(totals, dtype=float),
    ).x
    return a, 0.5 * a @ Q @ a + p @ a


def two_classes(seed, n, separation=1.0, d=2):
    """Two overlapping Gaussian classes (labels +1 and -1, alternating)."""
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    X = rng.normal(size=(n, d))
    X[:, 0] += separation * y
    return X, y


def noisy_sinc(seed=0, n=121):
    """A noisy 1-D sinc on [-5, 5], and a grid to predict on."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(-5, 5, size=(n, 1))
    y = np.sinc(X[:, 0]) + 0.1 * rng.normal(size=n)
    return X, y, np.linspace(-6, 6, 241)[:, None]


# --------------------------------------------------------------------------
# 1. The working-set selection within each label


def random_state(rng, integer):
    """A small random solver state: S PSD (some points repeated, so that
    some a_it are exactly 0), labels, alphas in {0, 0.5, 1} with bounds 1,
    psi; with ``integer``, S and psi are exact (multiples of 1/4), so that
    ties are real ties in both implementations."""
    n = int(rng.integers(2, 13))
    d = int(rng.integers(1, 4))
    distinct = int(rng.integers(1, n + 1))
    if integer:
        points = rng.integers(-2, 3, size=(distinct, d)).astype(float)
        psi = rng.integers(-8, 9, size=n) / 4
    else:
        points = rng.normal(size=(distinct, d))
        psi = rng.normal(size=n)
    which = rng.integers(0, distinct, size=n)
    # entries of repeated points are copies of one computed value
    S = np.ascontiguousarray((points @ points.T)[np.ix_(which, which)])
    y = rng.choice([-1.0, 1.0], size=n)
    alpha = rng.choice([0.0, 0.5, 1.0], size=n)
    up, low = up_low(alpha, y, 1.0)
    return S, psi, y, up, low


def brute_force_pairs(S, psi, y, up, low):
    """Every candidate (i, j, gain) of eq. (eq-nu-wss), one label at a
    time, by explicit loops; and each label's m_s - M_s."""
    candidates, gaps = [], []
    for label in (1.0, -1.0):
        ups = [t for t in range(y.size) if up[t] and y[t] == label]
        lows = [t for t in range(y.size) if low[t] and y[t] == label]
        m = max((psi[t] for t in ups), default=-np.inf)
        M = min((psi[t] for t in lows), default=np.inf)
        gaps.append(m - M)
        if not ups:
            continue
        i = next(t for t in ups if psi[t] == m)  # the first maximiser
        for t in lows:
            if psi[t] < m:
                a = S[i, i] + S[t, t] - 2 * S[i, t]
                gain = (m - psi[t]) ** 2 / (a if a > 0 else TAU)
                candidates.append((i, t, gain))
    return candidates, gaps


@pytest.mark.parametrize("integer", [False, True])
def test_within_label_pair_matches_compiled_and_brute_force(integer):
    """within_label_pair (numpy) and select_pair_by_label (numba) give the
    same (i, j, found) on random states, and that pair is the best
    candidate of a brute-force search, i and j of one label; found is
    False exactly when both labels' m_s - M_s are below eps."""
    rng = np.random.default_rng(1 if integer else 0)
    outcomes, zero_curvature = set(), 0
    for _ in range(600):
        S, psi, y, up, low = random_state(rng, integer)
        candidates, gaps = brute_force_pairs(S, psi, y, up, low)
        largest = max(gaps)
        # eps below, near or above the largest gap
        eps = float(
            rng.choice([1e-3, abs(largest) * rng.uniform(0.5, 1.5) + 1e-9])
        )
        ours = within_label_pair(S, psi, y, up, low, eps)
        compiled = select_pair_by_label(
            S, np.diag(S).copy(), psi, y, up, low, eps
        )
        assert (ours[0], ours[1], bool(ours[2])) == (
            compiled[0],
            compiled[1],
            bool(compiled[2]),
        )
        i, j, found = compiled
        assert found == (largest >= eps)
        outcomes.add(found)
        if not candidates:
            assert (i, j, found) == (-1, -1, False)
            continue
        best = max(gain for _, _, gain in candidates)
        gain = {(a, b): g for a, b, g in candidates}[(i, j)]
        assert gain >= best * (1 - 1e-12)
        assert y[i] == y[j] and up[i] and low[j] and psi[j] < psi[i]
        zero_curvature += S[i, i] + S[j, j] - 2 * S[i, j] <= 0
    assert outcomes == {True, False}
    assert zero_curvature > 0  # the rule a <= 0 -> TAU was exercised


def test_flag_bounds_and_shrink_within_each_label():
    """flag_bounds: m and M per group; shrink: the variables of eq.
    (eq-shrink) leave both sets, judged against their own group's m and
    M; pair_groups: one group, or one per label."""
    rng = np.random.default_rng(2)
    for _ in range(300):
        _, psi, y, up, low = random_state(rng, integer=False)
        group = pair_groups(y, True)
        np.testing.assert_array_equal(group, (y < 0).astype(int))
        np.testing.assert_array_equal(pair_groups(y, False), 0)
        m, M = flag_bounds(psi, group, up, low)
        for g, label in enumerate((1.0, -1.0)):
            mine = y == label
            assert m[g] == np.max(psi, where=up & mine, initial=-np.inf)
            assert M[g] == np.min(psi, where=low & mine, initial=np.inf)
        m_t, M_t = m[group], M[group]
        leave = (up & ~low & (psi < M_t)) | (low & ~up & (psi > m_t))
        new_up, new_low = up.copy(), low.copy()
        left = shrink(psi, group, new_up, new_low, m, M)
        np.testing.assert_array_equal(new_up, up & ~leave)
        np.testing.assert_array_equal(new_low, low & ~leave)
        assert left == np.sum((up | low) & ~leave)


# --------------------------------------------------------------------------
# 2. The solver against cvxopt


def nu_svc_data():
    """150 points in two overlapping classes (rbf, gamma 0.5)."""
    X, y = two_classes(3, 150, separation=1.0)
    return X, y, rbf_kernel(X, gamma=0.5)


def nu_svr_data():
    """The sinc, 90 points (rbf, gamma 0.5)."""
    X, y, _ = noisy_sinc(seed=4, n=90)
    return X, y, rbf_kernel(X, gamma=0.5)


def svc_dual(K, y, nu):
    """eq. (eq-nu-svc-core) as (Q, p, labels, bound, totals)."""
    n = y.size
    return np.outer(y, y) * K, np.zeros(n), y, 1.0, (0.0, nu * n)


def svr_dual(K, y, C, nu):
    """eq. (eq-nu-svr-core) as (Q, p, labels, bound, totals): variables
    (alpha, alpha*), labels (+1, -1)."""
    n = y.size
    D = np.hstack([np.eye(n), -np.eye(n)])  # alpha - alpha*
    return (
        D.T @ K @ D,
        np.concatenate([-y, y]),
        np.concatenate([np.ones(n), -np.ones(n)]),
        C,
        (0.0, C * nu * n),
    )


SVR_C = 2.0  # the bound of the nu-SVR cases
CVXOPT_CASES = [("svc", 0.3), ("svc", 0.75), ("svr", 0.2), ("svr", 0.6)]


def dual_of(case):
    """A case ("svc" or "svr", nu) as (Q, p, labels, bound, totals)."""
    kind, nu = case
    if kind == "svc":
        _, y, K = nu_svc_data()
        return svc_dual(K, y, nu)
    _, y, K = nu_svr_data()
    return svr_dual(K, y, SVR_C, nu)


@functools.cache
def cvxopt_answer(case):
    """cvxopt's optimum of a case (solved once)."""
    return cvxopt_core(*dual_of(case))


def nu_problem(kind, nu, precomputed=False):
    """svmlib's problem of a case, from the points (or the Gram)."""
    X, y, K = nu_svc_data() if kind == "svc" else nu_svr_data()
    data = K if precomputed else X
    kernel = "precomputed" if precomputed else Kernel("rbf", gamma=0.5)
    if kind == "svc":
        return nu_svc_problem(data, y, nu, kernel)
    return nu_svr_problem(data, y, SVR_C, nu, kernel)


def solve_by(problem, path, shrinking=True):
    """solve_auto on the dense Gram matrix, or in rounds (tiny cache);
    checks that the path asked for is the one taken."""
    m = problem.y.size
    if path == "dense":
        return solve_auto(problem, tol=EXACT, shrinking=shrinking)
    assert not gram_fits(m, TINY_CACHE)
    assert block_size(m, problem.Q.storage.itemsize, 1024, TINY_CACHE) < m
    rounds = []
    result = solve_auto(
        problem,
        tol=EXACT,
        cache_size=TINY_CACHE,
        callback=lambda round_, gap: rounds.append(gap),
    )
    assert len(rounds) > 2
    return result


def check_against_cvxopt(case, result, rel=1e-6):
    """The objective of ``result`` is cvxopt's, the label sums and the
    bounds hold."""
    Q, p, labels, C, (_, total) = dual_of(case)
    _, cvx_objective = cvxopt_answer(case)
    alpha = result.alpha
    assert result.status == Status.OPTIMAL
    ours = 0.5 * alpha @ Q @ alpha + p @ alpha
    assert ours == pytest.approx(cvx_objective, rel=rel)
    # (rounds in single precision: the solver's objective is as accurate
    # as its rows)
    assert result.objective == pytest.approx(ours, rel=rel, abs=1e-12)
    for label in (1.0, -1.0):
        assert abs(alpha[labels == label].sum() - total / 2) <= 1e-9 * total
    assert np.all((alpha >= 0) & (alpha <= C))


@pytest.mark.parametrize("case", CVXOPT_CASES)
@pytest.mark.parametrize(
    "path, shrinking",
    [("dense", True), ("dense", False), ("rounds", True)],
)
def test_nu_duals_match_cvxopt(case, path, shrinking):
    """nu-SVC and nu-SVR duals: solve_auto (dense with and without
    shrinking, or in rounds) reaches cvxopt's optimum, keeps each label's
    sum and the bounds."""
    kind, nu = case
    result = solve_by(nu_problem(kind, nu), path, shrinking)
    check_against_cvxopt(case, result)


@pytest.mark.parametrize("case", [("svc", 0.3), ("svr", 0.6)])
@pytest.mark.parametrize("path", ["dense", "rounds"])
def test_precomputed_kernel_matches_cvxopt(case, path):
    """The same duals from a precomputed Gram matrix (GramRows)."""
    kind, nu = case
    result = solve_by(nu_problem(kind, nu, precomputed=True), path)
    check_against_cvxopt(case, result)
    from_points = solve_by(nu_problem(kind, nu), "dense")
    np.testing.assert_allclose(
        result.alpha, from_points.alpha, rtol=0, atol=1e-4
    )


class Stalled(Exception):
    """The rounds stopped making progress."""


def stall_detector(repeats=100):
    """A solve_batched callback that raises Stalled once m - M has had
    the same value for ``repeats`` rounds in a row: the rounds then make
    no pair update at all (each update changes psi), and would go on
    forever."""
    last = {"gap": None, "count": 0}

    def callback(round_, gap):
        same = gap == last["gap"]
        last["gap"], last["count"] = gap, last["count"] + 1 if same else 0
        if last["count"] >= repeats:
            raise Stalled(
                f"m - M = {gap:.3g} unchanged for {repeats} rounds "
                f"(round {round_})"
            )

    return callback


@pytest.mark.parametrize("rows", [4, 6, 7, 10])
@pytest.mark.parametrize("case", [("svc", 0.3), ("svr", 0.6)])
def test_rounds_with_the_smallest_caches_reach_the_optimum(case, rows):
    """A cache that holds only ``rows`` rows: the rounds still reach
    cvxopt's optimum, and never stall.  (With blocks of 4 to 6 variables,
    an earlier solve_batched gave one label a single new slot per round,
    its lowest psi in I_low but never its I_up end, and then repeated the
    same round forever: max_iter counts pair updates, and none were
    made.)"""
    kind, nu = case
    problem = nu_problem(kind, nu)
    m, itemsize = problem.y.size, problem.Q.storage.itemsize
    cache_size = (rows + 0.5) * itemsize * m / MEGABYTE
    assert block_size(m, itemsize, 1024, cache_size) == rows
    watch, rounds = stall_detector(), []

    def callback(round_, gap):
        rounds.append(gap)
        watch(round_, gap)

    result = solve_auto(
        problem,
        tol=TIGHT,
        cache_size=cache_size,
        max_iter=10**6,
        callback=callback,
    )
    assert len(rounds) > 10  # the rounds, in small blocks
    check_against_cvxopt(case, result, rel=1e-5)


def test_nu_svr_with_a_tiny_cache_fits(monkeypatch):
    """NuSVR(cache_size=0.01) on 200 points (a few rows of the 400
    variables at a time), as in scikit-learn's check_regressors_train,
    ends, with the dense path's answer (the rounds are watched for a
    stall)."""
    original = svmlib.training.fast.solve_batched
    calls = []

    def watched(*args, **kwargs):
        calls.append(1)
        return original(*args, **{**kwargs, "callback": stall_detector()})

    monkeypatch.setattr(svmlib.training.fast, "solve_batched", watched)
    rng = np.random.default_rng(19)
    X = rng.normal(size=(200, 10))
    y = X[:, 0] + 0.1 * rng.normal(size=200)
    model = NuSVR(cache_size=0.01, tol=TIGHT).fit(X, y)
    assert calls and model.fit_status_ == 0
    reference = NuSVR(tol=TIGHT).fit(X, y)
    assert len(calls) == 1  # the dense path for the reference
    np.testing.assert_allclose(
        model.predict(X), reference.predict(X), rtol=0, atol=1e-4
    )


# --------------------------------------------------------------------------
# 3. The two thresholds


def test_label_thresholds_by_the_kkt_rule():
    """label_thresholds: r_+ the mean G over label +1's free variables,
    r_- the middle of the interval label -1's bounded ones allow (max G
    at the upper bound, min G at 0); rho and r their half difference and
    half sum."""
    y = np.array([1, 1, 1, 1, -1, -1, -1, -1.0])
    alpha = np.array([0.0, 0.3, 0.6, 1.0, 0.0, 0.0, 1.0, 1.0])
    G = np.array([2.0, 1.0, 1.2, 0.4, 3.0, 2.5, 0.5, 0.9])
    lower, upper = alpha == 0, alpha == 1
    status = BoundStatus(lower=lower, free=~lower & ~upper, upper=upper)
    r_plus = (1.0 + 1.2) / 2
    r_minus = (0.9 + 2.5) / 2
    rho, r = label_thresholds(G, y, status)
    assert rho == pytest.approx((r_plus - r_minus) / 2, rel=1e-15)
    assert r == pytest.approx((r_plus + r_minus) / 2, rel=1e-15)


def gradient(Q, p, alpha):
    """G = Q alpha + p, from scratch."""
    return Q @ alpha + p


@pytest.mark.parametrize("case", CVXOPT_CASES)
def test_thresholds_satisfy_the_kkt_conditions(case):
    """At a solution (tol 1e-8), G_t = r - b y_t on the free variables,
    >= on those at 0, <= on those at the bound, with the solver's b and r,
    and label_thresholds on the exact gradient gives the same b and r."""
    kind, nu = case
    Q, p, labels, C, _ = dual_of(case)
    result = solve_by(nu_problem(kind, nu), "dense")
    alpha, b, r = result.alpha, result.b, result.r
    residual = gradient(Q, p, alpha) - (r - b * labels)
    free = (alpha > 0) & (alpha < C)
    assert free[labels > 0].any() and free[labels < 0].any()
    np.testing.assert_allclose(residual[free], 0, rtol=0, atol=1e-7)
    assert np.all(residual[alpha == 0] >= -1e-7)
    assert np.all(residual[alpha == C] <= 1e-7)
    lower, upper = alpha <= 0, alpha >= C
    status = BoundStatus(lower=lower, free=~lower & ~upper, upper=upper)
    rho, r_again = label_thresholds(gradient(Q, p, alpha), labels, status)
    assert -rho == pytest.approx(b, abs=1e-9)
    assert r_again == pytest.approx(r, abs=1e-9)


@pytest.mark.parametrize("nu", [0.3, 0.75])
def test_nu_svc_divided_by_r_solves_c_svc(nu):
    """eq. (eq-nu-svc-scaled): C-SVC with C = 1 / r, solved from scratch,
    has the multipliers alpha / r and the offset b / r."""
    X, y, K = nu_svc_data()
    kernel = Kernel("rbf", gamma=0.5)
    result = solve_auto(nu_svc_problem(X, y, nu, kernel), tol=1e-10)
    r = result.r
    assert r > 1e-3  # clearly positive: the reduced hulls are apart
    c_svc = solve_auto(c_svc_block_problem(X, y, 1 / r, kernel), tol=1e-10)
    assert c_svc.status == Status.OPTIMAL
    np.testing.assert_allclose(
        c_svc.alpha, result.alpha / r, rtol=0, atol=1e-6 / r
    )
    assert c_svc.b == pytest.approx(result.b / r, abs=1e-6 / r)
    f_nu = (K @ (y * result.alpha) + result.b) / r
    f_c = K @ (y * c_svc.alpha) + c_svc.b
    np.testing.assert_allclose(f_c, f_nu, rtol=0, atol=1e-6 / r)


@pytest.mark.parametrize("nu", [0.2, 0.6])
def test_nu_svr_is_epsilon_svr_with_epsilon_minus_r(nu):
    """nu-SVR's tube half-width is -r: epsilon-SVR with epsilon = -r (and
    the same C), solved from scratch, has the same coefficients and
    offset."""
    X, y, K = nu_svr_data()
    kernel = Kernel("rbf", gamma=0.5)
    problem = nu_svr_problem(X, y, SVR_C, nu, kernel)
    result = solve_auto(problem, tol=1e-10)
    epsilon = -result.r
    assert epsilon > 0.01
    svr = solve_auto(svr_problem(X, y, SVR_C, epsilon, kernel), tol=1e-10)
    assert svr.status == Status.OPTIMAL
    np.testing.assert_allclose(
        svr_coefficients(svr.alpha),
        svr_coefficients(result.alpha),
        rtol=0,
        atol=1e-6,
    )
    assert svr.b == pytest.approx(result.b, abs=1e-7)


# --------------------------------------------------------------------------
# 4. The nu-property


@pytest.mark.parametrize("nu", [0.35, 0.55, 0.75, 0.95])
def test_nu_svc_bounds_margin_errors_and_support_vectors(nu):
    """nu-SVC: margin errors / n <= nu <= support vectors / n (a margin
    error: y g(x) below r by more than 1e-3 r, as in the chapter); the
    same read from NuSVC, whose decision function is g / r."""
    X, y, K = nu_svc_data()
    n = y.size
    result = solve_auto(
        nu_svc_problem(X, y, nu, Kernel("rbf", gamma=0.5)), tol=TIGHT
    )
    r, alpha = result.r, result.alpha
    assert r > 0.05 * nu  # clearly positive: the reduced hulls are apart
    margin = y * (K @ (y * alpha) + result.b)
    errors = margin < (1 - 1e-3) * r
    assert errors.mean() <= nu <= np.mean(alpha > 0)
    assert np.all(alpha[errors] == 1)  # margin errors sit at the bound
    model = NuSVC(nu=nu, gamma=0.5, tol=TIGHT).fit(X, y)
    assert model.support_.size / n >= nu
    scaled = np.where(y == model.classes_[1], 1, -1) * (
        model.decision_function(X)
    )
    np.testing.assert_allclose(scaled, margin / r, rtol=0, atol=1e-5)
    assert np.mean(scaled < 1 - 1e-3) <= nu


@pytest.mark.parametrize("nu", [0.15, 0.4, 0.65, 0.8])
def test_nu_svr_bounds_points_outside_and_support_vectors(nu):
    """nu-SVR: points outside the tube / n <= nu <= support vectors / n,
    the tube's half-width epsilon = -r > 0; the same from NuSVR."""
    X, y, K = nu_svr_data()
    n = y.size
    result = solve_auto(
        nu_svr_problem(X, y, 1.0, nu, Kernel("rbf", gamma=0.5)), tol=TIGHT
    )
    epsilon, coef = -result.r, svr_coefficients(result.alpha)
    assert epsilon > 0.01
    residual = y - (K @ coef + result.b)
    outside = np.abs(residual) > (1 + 1e-3) * epsilon
    assert outside.mean() <= nu <= np.mean(coef != 0)
    np.testing.assert_allclose(np.abs(coef[outside]), 1.0)
    model = NuSVR(nu=nu, gamma=0.5, tol=TIGHT).fit(X, y)
    assert model.support_.size / n >= nu
    np.testing.assert_allclose(
        model.predict(X), y - residual, rtol=0, atol=1e-5
    )


# --------------------------------------------------------------------------
# 5. Against scikit-learn's NuSVC and NuSVR (LIBSVM)


def standardised(X):
    """Each feature to mean 0 and standard deviation 1."""
    return (X - X.mean(axis=0)) / X.std(axis=0)


def split(X, y):
    """Even rows to train, odd rows held out."""
    return X[::2], y[::2], X[1::2]


def standardised_split(load):
    """A scikit-learn data set, features standardised, split."""
    X, y = load(return_X_y=True)
    return split(standardised(X), y)


CLASSIFICATION_DATA = {
    "breast_cancer": lambda: standardised_split(load_breast_cancer),
    "iris": lambda: standardised_split(load_iris),
    "wine": lambda: standardised_split(load_wine),
    "classification": lambda: split(
        *make_classification(
            n_samples=200, n_features=6, n_informative=4, random_state=0
        )
    ),
}

NU_SVC_CASES = [
    ("breast_cancer", dict(nu=0.1)),
    ("breast_cancer", dict(nu=0.5)),
    ("breast_cancer", dict(nu=0.7, kernel="linear")),
    ("breast_cancer", dict(nu=0.3, kernel="poly", degree=2, coef0=1.0)),
    ("breast_cancer", dict(nu=0.3, kernel="sigmoid", gamma=0.01)),
    ("iris", dict(nu=0.1)),
    ("iris", dict(nu=0.9)),
    ("iris", dict(nu=0.5, kernel="linear")),
    ("iris", dict(nu=0.3, kernel="poly")),
    ("wine", dict(nu=0.15)),
    ("wine", dict(nu=0.45, kernel="linear")),
    ("wine", dict(nu=0.75, kernel="sigmoid", gamma=0.01)),
    ("classification", dict(nu=0.25)),
    ("classification", dict(nu=0.45, gamma=0.5)),
    ("classification", dict(nu=0.85, kernel="poly", degree=2, coef0=1)),
]


def pair_coefficients(model, y):
    """Each pair's coefficients y_t alpha_t / r over all training points,
    read from LIBSVM's layout (support vectors grouped by class; for the
    pair (i, j), class i's in row j - 1 and class j's in row i)."""
    start = np.concatenate([[0], np.cumsum(model.n_support_)])
    k = model.classes_.size
    pairs = {}
    for i in range(k):
        for j in range(i + 1, k):
            coef = np.zeros(y.size)
            for c, row in ((i, j - 1), (j, i)):
                columns = slice(start[c], start[c + 1])
                coef[model.support_[columns]] = model.dual_coef_[
                    row, columns
                ]
            pairs[i, j] = coef
    return pairs


def pair_objectives(model, X, y, K, nu):
    """The scaled dual objective 1/2 a'Qa of each pair, eq.
    (eq-nu-svc-core): the alphas are |coef| r, r fixed by each class's
    alphas adding up to nu n_pair / 2."""
    objectives = {}
    for (i, j), coef in pair_coefficients(model, y).items():
        first = np.isin(y, model.classes_[i])
        members = first | np.isin(y, model.classes_[j])
        share = nu * members.sum() / 2
        total_i = np.abs(coef[first]).sum()
        # y'alpha = 0: both classes carry the same sum
        assert np.abs(coef[members & ~first]).sum() == pytest.approx(
            total_i, rel=1e-9
        )
        scaled = coef * share / total_i
        objectives[i, j] = 0.5 * scaled @ K @ scaled
    return objectives


def column_of(model, n):
    """The column of dual_coef_ of each training point (-1 off the
    support; support_ is grouped by class, not sorted)."""
    column = np.full(n, -1)
    column[model.support_] = np.arange(model.support_.size)
    return column


def check_whole_shares_avoided(y, nu):
    """No pair has nu n_pair / 2 whole (see the module's docstring)."""
    classes = np.unique(y)
    for a, first in enumerate(classes):
        for second in classes[a + 1 :]:
            n_pair = np.isin(y, [first, second]).sum()
            share = nu * n_pair / 2
            assert abs(share - round(share)) > 1e-6, (first, second)


@pytest.mark.parametrize("data, params", NU_SVC_CASES)
def test_nu_svc_agrees_with_libsvm(data, params):
    """NuSVC: LIBSVM's objective for every pair, its predictions and
    decision values, support vectors, signs, classes and shapes."""
    X, y, X_test = CLASSIFICATION_DATA[data]()
    check_whole_shares_avoided(y, params["nu"])
    model = NuSVC(tol=TIGHT, **params).fit(X, y)
    reference = svm.NuSVC(tol=TIGHT, **params).fit(X, y)
    K = kernel_matrix(X, X, params, X)
    ours = pair_objectives(model, X, y, K, params["nu"])
    theirs = pair_objectives(reference, X, y, K, params["nu"])
    for pair, objective in theirs.items():
        assert ours[pair] == pytest.approx(objective, rel=1e-5, abs=1e-12)
    np.testing.assert_array_equal(model.classes_, reference.classes_)
    k = model.classes_.size
    n_sv = model.support_.size
    assert model.dual_coef_.shape == (k - 1, n_sv)
    assert model.intercept_.shape == reference.intercept_.shape
    assert model.intercept_.shape == (k * (k - 1) // 2,)
    assert model.n_support_.shape == (k,) and model.n_support_.sum() == n_sv
    np.testing.assert_array_equal(model.support_vectors_, X[model.support_])
    for Z in (X, X_test):
        agree = np.mean(model.predict(Z) == reference.predict(Z))
        assert agree >= 0.995
        decision = reference.decision_function(Z)
        scale = max(1.0, np.abs(decision).max())
        np.testing.assert_allclose(
            model.decision_function(Z), decision, rtol=0, atol=1e-4 * scale
        )
    scale = max(1.0, np.abs(reference.intercept_).max())
    np.testing.assert_allclose(
        model.intercept_, reference.intercept_, rtol=0, atol=1e-4 * scale
    )
    clear = np.abs(reference.intercept_) > 1e-2 * scale
    np.testing.assert_array_equal(
        np.sign(model.intercept_[clear]),
        np.sign(reference.intercept_[clear]),
    )
    # the support differs at most by points on the margin, a few of them
    differ = np.setxor1d(model.support_, reference.support_)
    assert differ.size <= max(1, 0.02 * y.size)
    assert np.abs(model.n_support_ - reference.n_support_).sum() <= max(
        1, 0.02 * y.size
    )
    common = np.intersect1d(model.support_, reference.support_)
    ours_at = model.dual_coef_[:, column_of(model, y.size)[common]]
    theirs_at = reference.dual_coef_[
        :, column_of(reference, y.size)[common]
    ]
    both = (np.abs(ours_at) > 1e-8) & (np.abs(theirs_at) > 1e-8)
    assert both.mean() > 0.5
    np.testing.assert_array_equal(
        np.sign(ours_at[both]), np.sign(theirs_at[both])
    )


def test_nu_svc_default_parameters_agree_with_libsvm():
    """NuSVC() with every default (nu 0.5, gamma "scale", tol 1e-3)."""
    X, y, X_test = CLASSIFICATION_DATA["iris"]()
    model, reference = NuSVC().fit(X, y), svm.NuSVC().fit(X, y)
    K = kernel_matrix(X, X, {}, X)
    ours = pair_objectives(model, X, y, K, 0.5)
    theirs = pair_objectives(reference, X, y, K, 0.5)
    for pair, objective in theirs.items():
        assert ours[pair] == pytest.approx(objective, rel=1e-3)
    agree = np.mean(model.predict(X_test) == reference.predict(X_test))
    assert agree >= 0.97


def diabetes():
    """load_diabetes, features and target standardised; 301 rows to
    train, the last 41 held out."""
    X, y = load_diabetes(return_X_y=True)
    X = standardised(X)
    y = (y - y.mean()) / y.std()
    return X[:301], y[:301], X[401:]


REGRESSION_DATA = {"sinc": noisy_sinc, "diabetes": diabetes}

NU_SVR_CASES = [
    ("sinc", dict(nu=0.1, C=1.0, gamma=1.0)),
    ("sinc", dict(nu=0.5, C=10.0)),
    ("sinc", dict(nu=0.9, C=0.1)),
    ("sinc", dict(nu=0.3, C=1.0, kernel="poly", degree=3, coef0=1.0)),
    ("diabetes", dict(nu=0.3, C=1.0, gamma=0.1)),
    ("diabetes", dict(nu=0.7, C=10.0)),
    ("diabetes", dict(nu=0.5, C=1.0, kernel="linear")),
    ("diabetes", dict(nu=0.2, C=0.1, kernel="linear")),
    (
        "diabetes",
        dict(nu=0.4, C=1.0, kernel="poly", degree=2, gamma=0.1, coef0=1),
    ),
    ("diabetes", dict(nu=0.6, C=1.0, kernel="sigmoid", gamma=0.01)),
]


def full_coefficients(model, n):
    """dual_coef_ spread over all n training points (0 off the support)."""
    coef = np.zeros(n)
    coef[model.support_] = model.dual_coef_[0]
    return coef


@pytest.mark.parametrize("data, params", NU_SVR_CASES)
def test_nu_svr_agrees_with_libsvm(data, params):
    """NuSVR: LIBSVM's dual objective, predictions, intercept, support,
    signs and shapes."""
    X, y, X_test = REGRESSION_DATA[data]()
    model = NuSVR(tol=TIGHT, **params).fit(X, y)
    reference = svm.NuSVR(tol=TIGHT, **params).fit(X, y)
    K = kernel_matrix(X, X, params, X)
    n, C = y.size, params["C"]
    coef = full_coefficients(model, n)
    ref_coef = full_coefficients(reference, n)
    # the nu-SVR dual objective in terms of coef = alpha - alpha*
    ours = 0.5 * coef @ K @ coef - y @ coef
    theirs = 0.5 * ref_coef @ K @ ref_coef - y @ ref_coef
    assert ours == pytest.approx(theirs, rel=1e-5)
    assert np.all(np.abs(coef) <= C * (1 + 1e-12))
    assert abs(coef.sum()) < 1e-9 * C * n
    close = 1e-3 * y.std()
    for Z in (X, X_test):
        np.testing.assert_allclose(
            model.predict(Z), reference.predict(Z), rtol=0, atol=close
        )
    assert abs(model.intercept_[0] - reference.intercept_[0]) < close
    assert model.dual_coef_.shape == (1, model.support_.size)
    assert model.intercept_.shape == reference.intercept_.shape == (1,)
    np.testing.assert_array_equal(model.n_support_, reference.n_support_)
    np.testing.assert_array_equal(model.support_vectors_, X[model.support_])
    differ = np.setxor1d(model.support_, reference.support_)
    assert differ.size <= max(1, 0.02 * n)
    common = np.intersect1d(model.support_, reference.support_)
    clear = np.abs(ref_coef[common]) > 1e-6 * C
    np.testing.assert_array_equal(
        np.sign(coef[common][clear]), np.sign(ref_coef[common][clear])
    )


def test_nu_svr_on_one_sample_predicts_its_target():
    """NuSVR on one point (as LIBSVM accepts it): f is its target."""
    rng = np.random.default_rng(7)
    X, y = rng.normal(size=(1, 3)), rng.normal(size=1)
    reference = svm.NuSVR().fit(X, y)
    model = NuSVR().fit(X, y)
    Z = rng.normal(size=(5, 3))
    np.testing.assert_allclose(model.predict(Z), y[0], rtol=1e-12)
    np.testing.assert_allclose(
        model.predict(Z), reference.predict(Z), rtol=1e-12
    )


# --------------------------------------------------------------------------
# 6. scikit-learn's estimator checks


ESTIMATORS = [
    NuSVC(),
    NuSVR(),
    NuSVC(kernel="linear"),
    NuSVR(kernel="linear"),
    NuSVC(kernel="precomputed"),
    NuSVR(kernel="precomputed"),
    NuSVC(cache_size=TINY_CACHE),  # the rounds
    NuSVR(cache_size=TINY_CACHE),
]

INFEASIBLE_IN_LIBSVM_TOO = (
    "with a precomputed kernel the check's labels are the first column "
    "of its Gram matrix X X' truncated to integers: many classes, some "
    "of a single point, for whose pairs nu = 0.5 is infeasible; "
    "scikit-learn's NuSVC(kernel='precomputed') fails it the same way "
    "(see test_libsvm_finds_the_same_checks_infeasible)"
)

INFEASIBLE_CHECKS = [
    "check_dont_overwrite_parameters",
    "check_f_contiguous_array_estimator",
    "check_methods_sample_order_invariance",
    "check_methods_subset_invariance",
    "check_fit2d_1feature",
    "check_dict_unchanged",
    "check_fit2d_predict1d",
]


WEIGHT_EQUIVALENCE = (
    "as for scikit-learn's own NuSVC and NuSVR (which list this check as "
    "an expected failure): a weight of 2 and a repeated point give the "
    "same problem, but the solver stops at different points within its "
    "tolerance (the check allows differences of 1e-7)"
)
ZERO_MARGIN = (
    "the check's data (a linear kernel on a few points) give r = 0 "
    "exactly: the reduced hulls meet and there is no classifier, so "
    "svmlib refuses the fit; scikit-learn's own NuSVC fails these checks "
    "too ('The dual coefficients or intercepts are not finite')"
)
WEIGHTED_ZERO_MARGIN = [
    "check_sample_weights_pandas_series",
    "check_sample_weights_not_an_array",
]

WEIGHT_EQUIVALENCE_CHECKS = [
    "check_sample_weight_equivalence_on_dense_data",
    "check_sample_weight_equivalence_on_sparse_data",
]


def expected_failures(estimator):
    """The checks expected to fail, with why."""
    failures = {}
    if estimator.kernel != "precomputed":
        failures.update(
            dict.fromkeys(WEIGHT_EQUIVALENCE_CHECKS, WEIGHT_EQUIVALENCE)
        )
    if isinstance(estimator, NuSVC) and estimator.kernel == "precomputed":
        failures.update(
            dict.fromkeys(INFEASIBLE_CHECKS, INFEASIBLE_IN_LIBSVM_TOO)
        )
    if isinstance(estimator, NuSVC) and estimator.kernel in (
        "linear",
        "precomputed",
    ):
        failures.update(dict.fromkeys(WEIGHTED_ZERO_MARGIN, ZERO_MARGIN))
    if isinstance(estimator, NuSVC):
        failures["check_class_weight_classifiers"] = (
            "NuSVC ignores class_weight, as LIBSVM's nu-SVC and "
            "scikit-learn's NuSVC do (scikit-learn expects its own NuSVC "
            "to fail this check too)"
        )
    return failures


@parametrize_with_checks(
    ESTIMATORS, expected_failed_checks=expected_failures, xfail_strict=True
)
def test_scikit_learn_estimator_checks(estimator, check):
    """One of scikit-learn's estimator checks."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        check(estimator)


@pytest.mark.parametrize("name", INFEASIBLE_CHECKS)
def test_libsvm_finds_the_same_checks_infeasible(name):
    """scikit-learn's own NuSVC(kernel='precomputed') fails these checks
    with LIBSVM's "specified nu is infeasible", as svmlib's does."""
    check = getattr(estimator_checks, name)
    # check_fit2d_1feature turns the ValueError into an AssertionError
    # about its message
    failures = (ValueError, AssertionError)
    with pytest.raises(failures, match="specified nu is infeasible"):
        check("NuSVC", svm.NuSVC(kernel="precomputed"))
    with pytest.raises(failures, match="specified nu is infeasible"):
        check("NuSVC", NuSVC(kernel="precomputed"))


def small_margin_data(which):
    """Data of two of scikit-learn's checks on which nu-SVC's r is tiny or
    negative: as (kernel, X, y, the largest kernel value)."""
    rng = np.random.RandomState(0)
    if which == "check_n_features_in":  # linear kernel, random labels
        X = rng.normal(loc=100, size=(100, 2))
        y = rng.randint(low=0, high=2, size=100)
        return "linear", X, y, np.abs(X @ X.T).max()
    # check_estimators_dtypes: a Gram matrix truncated to integers
    X = 3 * rng.uniform(size=(20, 5)).astype(np.float32)
    K = (X @ X.T).astype(np.int64)
    assert np.linalg.eigvalsh(K.astype(float))[0] < -1  # not PSD
    return "precomputed", K, np.array([1, 2] * 10), np.abs(K).max()


def libsvm_r(reference, y):
    """LIBSVM's r for a two-class NuSVC, read from its dual_coef_ (alpha
    y / r, negated for two classes; each class's alphas add up to nu n /
    2)."""
    coef = reference.dual_coef_[0]
    first = y[reference.support_] == reference.classes_[0]
    sign = np.sign(coef[~first])
    assert np.all(sign == sign[0])
    assert np.all(np.sign(coef[first]) == -sign[0])
    return sign[0] * (reference.nu * y.size / 2) / np.abs(coef[first]).sum()


@pytest.mark.parametrize(
    "which", ["check_n_features_in", "check_estimators_dtypes"]
)
def test_a_margin_below_tol_warns_and_divides_as_libsvm(which):
    """Where LIBSVM's r is 0 up to rounding, or negative for a kernel that
    is not PSD, LIBSVM divides by it; svmlib's NuSVC warns that the scale
    is uncertain and divides too."""
    kernel, X, y, scale = small_margin_data(which)
    r = libsvm_r(svm.NuSVC(kernel=kernel).fit(X, y), y)
    if kernel == "linear":  # the reduced hulls meet: r = 0
        assert abs(r) < 1e-6 * scale
    else:  # not PSD: LIBSVM's r is negative, its signs flipped
        assert r < -0.01
    with pytest.warns(ConvergenceWarning, match="below tol"):
        ours = NuSVC(kernel=kernel).fit(X, y)
    assert np.isfinite(ours.dual_coef_).all()
    assert np.isfinite(ours.intercept_).all()


def test_a_zero_margin_is_refused():
    """With every kernel value 0 (linear kernel, points at the origin) the
    gradient is 0, so r = 0 exactly: nothing to divide by."""
    X, y = np.zeros((6, 2)), np.array([0, 1] * 3)
    with pytest.raises(ValueError, match="leaves no margin"):
        NuSVC(kernel="linear").fit(X, y)


# --------------------------------------------------------------------------
# 7. Bad input: a clear error before any solver runs

RNG = np.random.default_rng(15)
X_GOOD, Y_GOOD = RNG.normal(size=(20, 3)), RNG.normal(size=20)
LABELS = np.where(np.arange(20) % 2 == 0, "a", "b")
X_NAN = X_GOOD.copy()
X_NAN[3, 1] = np.nan
X_INF = X_GOOD.copy()
X_INF[2, 0] = np.inf
Y_NAN = Y_GOOD.copy()
Y_NAN[5] = np.nan
Y_INF = Y_GOOD.copy()
Y_INF[4] = -np.inf
CLASS_NAN = np.where(np.arange(20) % 2 == 0, 0.0, 1.0)
CLASS_NAN[3] = np.nan
# 10 of class A, 2 of class B: nu = 0.9 needs 5.4 of each
UNEVEN = np.array(["A"] * 10 + ["B"] * 2)
# 10 A, 4 B, 3 C: at nu = 0.55 only the pair (A, C) is infeasible
THREE = np.array(["A"] * 10 + ["B"] * 4 + ["C"] * 3)

NU_MESSAGE = r"nu must be in \(0, 1\]"
BAD_INPUT = [
    *[
        (make, dict(nu=nu), X_GOOD, y, NU_MESSAGE)
        for nu in (0, 0.0, -0.5, 1.5, 1 + 1e-12, True, "0.5", np.nan, None)
        for make, y in ((NuSVC, LABELS), (NuSVR, Y_GOOD))
    ],
    (NuSVC, dict(nu=0.9), X_GOOD[:12], UNEVEN, "infeasible"),
    (NuSVC, dict(nu=0.55), X_GOOD[:17], THREE, "infeasible"),
    (NuSVC, {}, X_NAN, LABELS, "X contains NaN at row 3, column 1"),
    (NuSVR, {}, X_NAN, Y_GOOD, "X contains NaN at row 3, column 1"),
    (NuSVC, {}, X_INF, LABELS, "X contains an infinite value"),
    (NuSVR, {}, X_INF, Y_GOOD, "X contains an infinite value"),
    (NuSVR, {}, X_GOOD, Y_NAN, "y contains NaN"),
    (NuSVR, {}, X_GOOD, Y_INF, "y contains infinity"),
    (NuSVC, {}, X_GOOD, CLASS_NAN, "y contains NaN"),
    (NuSVC, {}, X_GOOD[:1], LABELS[:1], "only one class"),
    (NuSVC, {}, X_GOOD, np.full(20, "a"), "only one class"),
    (NuSVR, dict(C=0.0), X_GOOD, Y_GOOD, "C must be a positive"),
    (NuSVR, dict(C=-1.0), X_GOOD, Y_GOOD, "C must be a positive"),
    (NuSVR, {}, X_GOOD, None, "requires y to be passed"),
    (NuSVC, {}, X_GOOD, None, "requires y to be passed"),
    (NuSVR, {}, X_GOOD, Y_GOOD[:-1], "X has 20 samples but y has 19"),
    (NuSVC, {}, X_GOOD, LABELS[:-1], "X has 20 samples but y has 19"),
    (
        NuSVC,
        dict(kernel="precomputed"),
        X_GOOD,
        LABELS,
        "square",
    ),
    (
        NuSVR,
        dict(kernel="precomputed"),
        X_GOOD,
        Y_GOOD,
        "square",
    ),
]


def never_called(*args, **kwargs):
    """Stands in for the solver where none may run."""
    raise AssertionError("a solver ran on bad input")


@pytest.mark.parametrize("estimator, parameters, X, y, message", BAD_INPUT)
def test_bad_input_is_refused_before_any_solver_runs(
    monkeypatch, estimator, parameters, X, y, message
):
    """Each bad input: a ValueError naming the problem, no solver run."""
    monkeypatch.setattr(
        svmlib.estimators.nu_estimators, "solve_auto", never_called
    )
    monkeypatch.setattr(
        svmlib.estimators.one_problem, "solve_auto", never_called
    )
    with pytest.raises(ValueError, match=message):
        estimator(**parameters).fit(X, y)


@pytest.mark.parametrize(
    "X, y, nu",
    [(X_GOOD[:12], UNEVEN, 0.9), (X_GOOD[:17], THREE, 0.55)],
)
def test_infeasible_nu_is_libsvm_s_rule(X, y, nu):
    """LIBSVM refuses the same nu, and accepts nu just inside the limit
    2 min(n_i, n_j) / (n_i + n_j) of every pair, as svmlib does."""
    with pytest.raises(ValueError, match="specified nu is infeasible"):
        svm.NuSVC(nu=nu).fit(X, y)
    _, counts = np.unique(y, return_counts=True)
    limit = min(
        2 * min(a, b) / (a + b)
        for k, a in enumerate(counts)
        for b in counts[k + 1 :]
    )
    assert limit < nu
    inside = limit * (1 - 1e-9)
    svm.NuSVC(nu=inside).fit(X, y)
    NuSVC(nu=inside).fit(X, y)


def test_infeasible_pair_is_named():
    """With three classes, the error names the one infeasible pair."""
    with pytest.raises(ValueError, match="infeasible") as error:
        NuSVC(nu=0.55).fit(X_GOOD[:17], THREE)
    message = str(error.value)
    assert "'A'" in message and "'C'" in message and "'B'" not in message


def test_feasibility_rule_and_start_directly():
    """check_nu_feasible at its limit, fill_in_order, and the problems'
    starts: each label's share, in order, within the bounds."""
    y = np.array([1.0] * 6 + [-1.0] * 4)
    check_nu_feasible(y, 0.8)  # nu n / 2 = 4 = n_-
    with pytest.raises(ValueError, match="infeasible"):
        check_nu_feasible(y, 0.8 + 1e-9)
    alpha = fill_in_order(np.array([1.0, 2.0, 0.5, 1.0]), 2.7)
    np.testing.assert_allclose(alpha, [1.0, 1.7, 0.0, 0.0], rtol=1e-15)
    rng = np.random.default_rng(16)
    X = rng.normal(size=(10, 2))
    problem = nu_svc_problem(X, y, 0.5, Kernel("rbf", gamma=1.0))
    assert problem.by_label
    np.testing.assert_array_equal(problem.p, 0)
    np.testing.assert_array_equal(problem.C, 1)
    for label in (1.0, -1.0):
        assert problem.alpha0[y == label].sum() == pytest.approx(2.5)
    targets = rng.normal(size=10)
    problem = nu_svr_problem(X, targets, 3.0, 0.3, Kernel("linear"))
    assert problem.by_label
    np.testing.assert_array_equal(problem.p, np.r_[-targets, targets])
    np.testing.assert_array_equal(problem.y, np.repeat([1.0, -1.0], 10))
    np.testing.assert_array_equal(problem.C, 3.0)
    for half in (problem.alpha0[:10], problem.alpha0[10:]):
        assert half.sum() == pytest.approx(3.0 * 0.3 * 10 / 2)
        assert np.all((half >= 0) & (half <= 3.0))


def test_single_constraint_solvers_refuse_by_label_problems():
    """The full SMO chapter's solve and solve_batched's numpy inner solver
    keep one equality constraint: both refuse a problem with a sum per
    label."""
    X, y, K = nu_svc_data()
    problem = nu_svc_problem(K[:40, :40], y[:40], 0.5, "precomputed")
    with pytest.raises(ValueError, match="fixed sum per label"):
        solve(problem)
    with pytest.raises(ValueError, match="fixed sum per label"):
        solve_batched(problem)
    with pytest.raises(ValueError, match="fixed sum per label"):
        solve_batched(problem, inner=None, cache_size=0.001)


# --------------------------------------------------------------------------
# 8. The iteration limit


@pytest.mark.parametrize("cache_size", [200, TINY_CACHE])
def test_max_iter_warns_and_sets_fit_status(cache_size):
    """max_iter=1: a ConvergenceWarning and fit_status_ 1, for both
    estimators, on the dense path and in rounds."""
    X, y = two_classes(17, 150)
    with pytest.warns(ConvergenceWarning):
        model = NuSVC(max_iter=1, cache_size=cache_size).fit(X, y)
    assert model.fit_status_ == 1
    np.testing.assert_array_equal(model.n_iter_, 1)
    X, y, _ = noisy_sinc(seed=18, n=150)
    with pytest.warns(ConvergenceWarning):
        model = NuSVR(max_iter=1, cache_size=cache_size).fit(X, y)
    assert model.fit_status_ == 1 and model.n_iter_ == 1
    assert NuSVR(cache_size=cache_size).fit(X, y).fit_status_ == 0
