"""The pieces of the full SMO on their own: the LIBSVM reader, the pair
step, working set selection, shrinking, gradient reconstruction, the kernel
cache and its memory bound, bad input."""

import tracemalloc

import numpy as np
import pytest
from problems import overlapping_problem
from sklearn.svm import SVC

from svmlib import Kernel, QPProblem, Status, solve
from svmlib.book.libsvm_data import parse_libsvm_line, read_libsvm
from svmlib.derivation.dual import dual_objective
from svmlib.derivation.intercept import dual_gradient
from svmlib.formulations.c_svc import c_svc_problem, smo
from svmlib.kernels.kernel_cache import ColumnCache, GramQMatrix, QMatrix
from svmlib.smo.pair_step import update_pair
from svmlib.smo.shrinking import reconstruct_gradient, shrinkable
from svmlib.smo.working_set import (
    select_working_set,
    up_low_sets,
    violation_bounds,
)

# ---- the reader ----------------------------------------------------------


def test_read_libsvm_dense_and_width(tmp_path):
    path = tmp_path / "data.txt"
    path.write_text("+1 1:0.5 3:-2\n\n-1 2:1e-3\n")
    X, y = read_libsvm(path)
    np.testing.assert_array_equal(X, [[0.5, 0.0, -2.0], [0.0, 1e-3, 0.0]])
    np.testing.assert_array_equal(y, [1.0, -1.0])
    assert read_libsvm(path, n_features=5)[0].shape == (2, 5)
    with pytest.raises(ValueError, match="more than n_features=2"):
        read_libsvm(path, n_features=2)


@pytest.mark.parametrize(
    "line, message",
    [
        ("yes 1:2", "label 'yes' is not a number"),
        ("+1 1:2 1:3", "indices must start at 1 and increase"),
        ("+1 0:2", "indices must start at 1"),
        ("+1 1=2", "expected index:value"),
        ("+1 1:x", "is not a number"),
    ],
)
def test_parse_libsvm_line_names_the_problem(line, message):
    with pytest.raises(ValueError, match=f"line 7: .*{message}"):
        parse_libsvm_line(line, 7)


# ---- the pair step and the working set
# ----------------------------------------------------------------


def random_point(seed, n=10, C=1.0):
    """A random RBF problem and a random feasible-or-not alpha with its
    gradient (the pieces do not need feasibility)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    K = Kernel("rbf", gamma=0.7)(X)
    alpha = rng.uniform(0, C, size=n) * (rng.random(n) < 0.6)
    alpha[rng.random(n) < 0.2] = C
    return K, y, alpha, dual_gradient(K, y, alpha)


@pytest.mark.parametrize("seed", range(40))
def test_update_pair_is_the_minimum_along_the_segment(seed):
    K, y, alpha, G = random_point(seed)
    I_up, I_low = up_low_sets(alpha, y, 1.0)
    minus_yG = -y * G
    i = int(np.argmax(np.where(I_up, minus_yG, -np.inf)))
    j = int(np.argmin(np.where(I_low, minus_yG, np.inf)))
    if minus_yG[i] <= minus_yG[j]:
        pytest.skip("this random point is already optimal")
    a_ij = K[i, i] + K[j, j] - 2 * K[i, j]
    new_i, new_j = update_pair(
        alpha[i], alpha[j], y[i], y[j], G[i], G[j], a_ij, 1.0, 1.0
    )
    assert 0.0 <= new_i <= 1.0 and 0.0 <= new_j <= 1.0
    assert y[i] * new_i + y[j] * new_j == pytest.approx(
        y[i] * alpha[i] + y[j] * alpha[j], abs=1e-14
    )
    direction = np.zeros_like(alpha)
    direction[i], direction[j] = y[i], -y[j]
    room = min(
        1.0 - alpha[i] if y[i] > 0 else alpha[i],
        alpha[j] if y[j] > 0 else 1.0 - alpha[j],
    )
    scan = min(
        dual_objective(K, y, alpha + t * direction)
        for t in np.linspace(0, room, 2001)
    )
    moved = alpha.copy()
    moved[i], moved[j] = new_i, new_j
    assert dual_objective(K, y, moved) <= scan + 1e-12


def test_update_pair_lands_exactly_on_the_bound():
    # y_i = +1, alpha_i = 0.9 of C = 1, a huge Newton step: alpha_i stops
    # exactly at C
    new_i, new_j = update_pair(
        0.9, 0.5, 1.0, 1.0, -10.0, 10.0, 1.0, 1.0, 1.0
    )
    assert new_i == 1.0 and new_j == pytest.approx(0.4)


@pytest.mark.parametrize("seed", range(20))
def test_wss2_picks_the_largest_guaranteed_decrease(seed):
    K, y, alpha, G = random_point(seed, n=15)
    I_up, I_low = up_low_sets(alpha, y, 1.0)
    Q = np.outer(y, y) * K
    pair = select_working_set(
        G, y, I_up, I_low, np.diag(Q), lambda i: Q[i], tol=1e-3
    )
    if pair is None:
        pytest.skip("optimal")
    i = pair.i
    assert -y[i] * G[i] == max(-y[t] * G[t] for t in np.flatnonzero(I_up))
    gains = {
        t: (-y[i] * G[i] + y[t] * G[t]) ** 2
        / max(K[i, i] + K[t, t] - 2 * K[i, t], 1e-12)
        for t in np.flatnonzero(I_low)
        if -y[t] * G[t] < -y[i] * G[i]
    }
    assert gains[pair.j] == pytest.approx(max(gains.values()), rel=1e-12)
    first = select_working_set(
        G, y, I_up, I_low, np.diag(Q), None, tol=1e-3, second_order=False
    )
    assert first.violation == pytest.approx(
        np.subtract(*violation_bounds(G, y, I_up, I_low))
    )


def test_select_working_set_stops_below_tol():
    y = np.array([1.0, -1.0])
    G = np.array([-0.5, 0.5 - 5e-4])  # -yG = (0.5, 0.4995): m - M = 5e-4
    I_both = np.array([True, True])
    assert (
        select_working_set(
            G, y, I_both, I_both, np.ones(2), lambda i: np.ones(2), tol=1e-3
        )
        is None
    )


@pytest.mark.parametrize("seed", range(20))
def test_shrunk_variables_are_in_no_violating_pair(seed):
    K, y, alpha, G = random_point(seed, n=30)
    I_up, I_low = up_low_sets(alpha, y, 1.0)
    m, M = violation_bounds(G, y, I_up, I_low)
    shrunk = shrinkable(G, y, I_up, I_low, m, M)
    minus_yG = -y * G
    for t in np.flatnonzero(shrunk):
        as_i = I_up[t] and np.any(I_low & (minus_yG < minus_yG[t]))
        as_j = I_low[t] and np.any(I_up & (minus_yG > minus_yG[t]))
        assert not (as_i or as_j)
    assert not np.any(shrunk & I_up & I_low)  # free variables stay


def test_reconstruct_gradient():
    K, y, alpha, G_true = random_point(3, n=25)
    Q = GramQMatrix(K, y)
    G_bar = (alpha >= 1.0).astype(float) @ Q.Q
    G = G_true.copy()
    G[::2] = np.nan
    reconstruct_gradient(
        G, G_bar, -np.ones(25), alpha, np.ones(25), np.arange(1, 25, 2), Q
    )
    np.testing.assert_allclose(G, G_true, rtol=1e-12, atol=1e-12)


# ---- the cache -----------------------------------------------------------


def test_cache_is_least_recently_used_and_within_budget():
    cache = ColumnCache(budget_bytes=3 * 80, column_bytes=80)
    for i in range(3):
        cache.put(i, np.zeros(10))
    cache.get(0)  # 1 is now the least recently used
    cache.put(3, np.zeros(10))
    assert (
        set(cache.columns) == {0, 2, 3}
        and cache.nbytes <= cache.budget_bytes
    )
    assert (
        ColumnCache(budget_bytes=1, column_bytes=80).budget_bytes == 160
    )  # two columns at least


@pytest.mark.parametrize(
    "kernel",
    [
        Kernel("rbf", gamma=0.3),
        Kernel("exponential", gamma=0.3),
        Kernel("poly", gamma=0.5, coef0=1.0),
        Kernel("linear"),
        Kernel("sigmoid", gamma=0.1),
    ],
)
def test_qmatrix_columns_equal_the_gram_matrix(kernel):
    X, y = overlapping_problem(0, n=50, d=4)
    X = X * 1e3 + 5e3  # far from the origin: the centring matters
    Q = QMatrix(X, y, kernel, cache_size=0.01)
    expected = np.outer(y, y) * kernel(X)
    rng = np.random.default_rng(0)
    for i in rng.integers(0, 50, size=200):
        np.testing.assert_allclose(
            Q.column(i), expected[i], rtol=1e-10, atol=1e-12
        )
        assert Q.cache.nbytes <= Q.cache.budget_bytes
    np.testing.assert_allclose(
        Q.columns([3, 7, 3]), expected[[3, 7, 3]], rtol=1e-10, atol=1e-12
    )
    np.testing.assert_allclose(Q.diagonal, np.diag(expected), rtol=1e-12)


def test_twenty_thousand_points_without_an_n_by_n_array():
    rng = np.random.default_rng(0)
    n = 20_000
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    X = (
        rng.normal(size=(n, 5)) + 3.0 * y[:, None]
    )  # well separated: few iterations
    tracemalloc.start()
    problem = c_svc_problem(
        X, y, 1.0, Kernel("rbf", gamma=0.1), cache_size=20
    )
    result = solve(problem)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert result.status is Status.OPTIMAL
    assert problem.Q.cache.nbytes <= 20 * 2**20
    assert peak < 200 * 2**20  # an n x n float64 array alone is 3.2 GB
    assert peak < 0.1 * n * n * 8


# ---- against LIBSVM with shrinking on a larger problem
# -----------------------------------------------------


def test_wss2_matches_libsvm_on_two_thousand_points():
    X, y = overlapping_problem(5, n=2000, d=6, separation=0.6)
    kernel = Kernel("rbf", gamma=0.2)
    ours = smo(
        X, y, 1.0, kernel, cache_size=1
    )  # a tight cache: columns are evicted and recomputed
    libsvm = SVC(
        C=1.0, kernel="rbf", gamma=0.2, tol=1e-3, cache_size=200
    ).fit(X, y)
    alpha = np.zeros(2000)
    alpha[libsvm.support_] = np.abs(libsvm.dual_coef_[0])
    K = kernel(X)
    assert abs(ours.objective - dual_objective(K, y, alpha)) <= 1e-5 * abs(
        ours.objective
    )
    assert abs(
        ours.objective - dual_objective(K, y, ours.alpha)
    ) <= 1e-9 * abs(ours.objective)


# ---- bad input -----------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"tol": 0.0}, "tol must be a positive number"),
        ({"tol": float("nan")}, "tol must be a positive number"),
        ({"max_iter": 0}, "max_iter must be a positive integer"),
        ({"max_iter": 2.5}, "max_iter must be a positive integer"),
    ],
)
def test_solver_rejects_bad_parameters(kwargs, message):
    X, y = overlapping_problem(0, n=20)
    with pytest.raises(ValueError, match=message):
        smo(X, y, 1.0, Kernel("linear"), **kwargs)


@pytest.mark.parametrize(
    "args, message",
    [
        (
            (
                np.array([[1.0, np.nan], [0.0, 1.0]]),
                [1, -1],
                1.0,
                Kernel("rbf"),
            ),
            "NaN",
        ),
        ((np.eye(3), [1, 1, 1], 1.0, Kernel("rbf")), "single class"),
        ((np.eye(3), [1, -1, 1], 0.0, Kernel("rbf")), "C must be"),
        ((np.eye(3), [1, -1], 1.0, Kernel("rbf")), "3 samples but y has 2"),
        (
            (np.eye(3), [1, -1, 1], 1.0, "rbf"),
            "kernel must be a Kernel or 'precomputed'",
        ),
    ],
)
def test_smo_rejects_bad_input(args, message):
    with pytest.raises(ValueError, match=message):
        smo(*args)


def test_max_iter_reports_max_iter_and_a_consistent_answer():
    X, y = overlapping_problem(1, n=200, d=3)
    result = smo(X, y, 1.0, Kernel("rbf", gamma=0.5), max_iter=10)
    assert result.status is Status.MAX_ITER and result.n_iter == 10
    K = Kernel("rbf", gamma=0.5)(X)
    assert result.objective == pytest.approx(
        dual_objective(K, y, result.alpha), rel=1e-12
    )
    assert abs(result.alpha @ y) < 1e-12


def test_general_problem_with_a_nonzero_start_and_per_variable_bounds():
    """The core takes any (Q, p, y, C, alpha0): a problem LIBSVM's C-SVC
    never builds, checked against cvxopt's solution of the same QP."""
    from svmlib import solve_qp

    K, y, _, _ = random_point(11, n=12)
    rng = np.random.default_rng(0)
    p = rng.normal(size=12)
    C = rng.uniform(0.5, 2.0, size=12)
    alpha0 = np.zeros(12)
    positives, negatives = np.flatnonzero(y > 0), np.flatnonzero(y < 0)
    alpha0[positives[0]] = alpha0[negatives[0]] = (
        0.4  # y'alpha0 = 0.4 - 0.4 = 0 ... shift it
    )
    alpha0[positives[1]] = 0.3  # delta = 0.3
    problem = QPProblem(Q=GramQMatrix(K, y), p=p, y=y, C=C, alpha0=alpha0)
    result = solve(problem, tol=1e-8)
    Q = np.outer(y, y) * K
    reference = solve_qp(
        Q,
        p,
        A_ub=np.vstack([-np.eye(12), np.eye(12)]),
        b_ub=np.concatenate([np.zeros(12), C]),
        A_eq=y[None, :],
        b_eq=np.array([y @ alpha0]),
    )
    assert result.objective == pytest.approx(
        reference.objective, rel=1e-7, abs=1e-9
    )
    assert y @ result.alpha == pytest.approx(y @ alpha0, abs=1e-12)


def test_shrinking_every_variable_away_does_not_crash():
    """Found in review: with every variable at a bound and m < M, shrinking
    sets all of them aside; the solver must then reconstruct, check all
    variables and stop, as LIBSVM does."""
    X, y = np.array([[0.0, 0.0], [10.0, 10.0]]), np.array([1.0, -1.0])
    kernel = Kernel("rbf", gamma=0.5)
    with_shrinking = smo(X, y, 0.5, kernel)
    without = smo(X, y, 0.5, kernel, shrinking=False)
    assert with_shrinking.status is Status.OPTIMAL
    np.testing.assert_array_equal(with_shrinking.alpha, without.alpha)
    rng = np.random.default_rng(0)
    for _ in range(300):
        n = int(rng.integers(2, 12))
        X = rng.normal(size=(n, 2)) * rng.choice([0.1, 1.0, 10.0])
        y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
        C = float(rng.choice([0.01, 1.0, 100.0]))
        assert smo(X, y, C, kernel).status is Status.OPTIMAL
