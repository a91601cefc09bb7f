"""The L1-regularised squared-hinge SVM of the chapter "Sparse linear
models: the L1 penalty": CDN (svmlib.linear.l1_cdn) in numpy and compiled,
against cvxopt, LIBLINEAR 2.50 and scikit-learn, and l1_min_c."""

import numpy as np
import pytest
from liblinear.liblinearutil import parameter as liblinear_parameter
from liblinear.liblinearutil import problem as liblinear_problem
from liblinear.liblinearutil import train as liblinear_train
from scipy import sparse
from sklearn.svm import LinearSVC as LiblinearSVC
from sklearn.svm import l1_min_c as sklearn_l1_min_c

from svmlib import Status, solve_qp
from svmlib.linear.l1_bounds import l1_min_c
from svmlib.linear.l1_cdn import l1_cdn
from svmlib.linear.linear_dcd import decision_values, linear_problem
from svmlib.linear.linear_l1 import (
    DECREASE_SHARE,
    column_entries,
    coordinate_derivatives,
    coordinate_step,
    curvature_bounds,
    feature_columns,
    l1_objective,
    l1_sweep_numpy,
    soft_threshold_direction,
)
from svmlib.linear.linear_l1_compiled import l1_sweep_compiled


def blobs(n, d, seed, informative=2, shift=1.0):
    """Two overlapping Gaussian classes that differ along the first
    ``informative`` features only."""
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    X = rng.normal(size=(n, d))
    X[:, :informative] += 0.5 * shift * y[:, None]
    return X, y


def thinned(X, below=0.7):
    """X with its small entries set to zero, as a CSR matrix."""
    return sparse.csr_matrix(np.where(np.abs(X) > below, X, 0.0))


def folded(X, bias):
    X = X.toarray() if sparse.issparse(X) else np.asarray(X)
    if bias == 0:
        return X
    return np.hstack([X, np.full((X.shape[0], 1), bias)])


def l1_by_cvxopt(X, y, C, bias):
    """min ||wbar||_1 + sum C_i xi_i^2 s.t. y_i wbar'xbar_i >= 1 - xi_i,
    with wbar = u - v, u, v >= 0: wbar (d + 1 entries, the last 0 without
    an offset) and the minimum."""
    n = y.size
    Xbar = folded(X, bias)
    k = Xbar.shape[1]
    m = 2 * k + n
    P = np.zeros((m, m))
    P[2 * k :, 2 * k :] = np.diag(2.0 * C)
    q = np.r_[np.ones(2 * k), np.zeros(n)]
    yX = y[:, None] * Xbar
    A = np.vstack(
        [
            np.hstack([-yX, yX, -np.eye(n)]),
            np.hstack([-np.eye(2 * k), np.zeros((2 * k, n))]),
        ]
    )
    b = np.r_[-np.ones(n), np.zeros(2 * k)]
    x = solve_qp(P + 1e-12 * np.eye(m), q, A, b).x
    wbar = x[:k] - x[k : 2 * k]
    if bias == 0:
        wbar = np.append(wbar, 0.0)
    return wbar, 0.5 * x @ P @ x + q @ x


def liblinear_250(X, y, C, tol):
    """LIBLINEAR 2.50's -s 5 with -B 1: its wbar."""
    options = liblinear_parameter(
        f"-s 5 -c {float(C)!r} -e {float(tol)!r} -B 1 -q"
    )
    model = liblinear_train(liblinear_problem(y, X), options)
    w, b = model.get_decfun()
    return np.append(w, b)


def wbar_of(result, bias):
    return np.append(result.w, result.b / bias if bias else 0.0)


@pytest.mark.parametrize("seed", range(10))
def test_the_direction_minimises_the_model_and_the_step_decreases_F(seed):
    """eq. (eq-l1-direction) against a fine grid of the model it minimises,
    the promised change of eq. (eq-l1-armijo) at most -h s^2, and every
    step of coordinate_step, from a random wbar, meeting eq.
    (eq-l1-armijo) on F computed from scratch."""
    rng = np.random.default_rng(seed)
    w_j, g, h = rng.normal(), 3 * rng.normal(), rng.uniform(0.1, 5)
    s = soft_threshold_direction(w_j, g, h)
    z = np.linspace(-20, 20, 400_001)
    model = g * z + 0.5 * h * z**2 + np.abs(w_j + z) - abs(w_j)
    assert abs(s - z[np.argmin(model)]) < 1e-3
    assert g * s + abs(w_j + s) - abs(w_j) <= -h * s**2 + 1e-12
    X, y = blobs(100, 6, seed=30 + seed)
    if seed % 2:
        X = thinned(X)
    problem = linear_problem(X, y, 0.5, "squared_hinge")
    dense, csc = feature_columns(problem)
    Hbar = curvature_bounds(dense, csc, problem.C)
    w = rng.normal(scale=0.3, size=7) * (rng.random(7) < 0.6)
    for j in range(7):
        r = 1.0 - y * decision_values(problem, w)
        values, rows = column_entries(dense, csc, j)
        g, h = coordinate_derivatives(values, rows, y, problem.C, r)
        s = soft_threshold_direction(w[j], g, h)
        if s == 0.0:
            continue
        t = coordinate_step(
            values, rows, y, problem.C, r, w[j], g, s, Hbar[j]
        )
        moved = w.copy()
        moved[j] += t
        change = l1_objective(problem, moved) - l1_objective(problem, w)
        promised = g * s + abs(w[j] + s) - abs(w[j])
        assert t != 0.0
        assert change <= DECREASE_SHARE * (t / s) * promised + 1e-12


@pytest.mark.parametrize("kind", ["dense", "csr"])
@pytest.mark.parametrize("bias", [1.0, 0.0, 3.0])
def test_numpy_and_compiled_passes_take_the_same_steps(kind, bias):
    X, y = blobs(150, 12, seed=1)
    if kind == "csr":
        X = thinned(X)
    for C in (0.02, 0.3):
        problem = linear_problem(X, y, C, "squared_hinge", bias=bias)
        runs = [
            l1_cdn(problem, 1e-6, 10**4, sweep=sweep, seed=3)
            for sweep in (l1_sweep_numpy, l1_sweep_compiled)
        ]
        assert runs[0].n_iter == runs[1].n_iter
        assert runs[0].status == runs[1].status == Status.OPTIMAL
        np.testing.assert_allclose(runs[0].w, runs[1].w, atol=1e-8)
        assert abs(runs[0].b - runs[1].b) < 1e-8
        assert np.array_equal(runs[0].w == 0, runs[1].w == 0)


@pytest.mark.parametrize("kind", ["dense", "csr"])
@pytest.mark.parametrize("bias", [1.0, 0.0])
@pytest.mark.parametrize("C", [0.01, 0.05, 0.5])
def test_the_minimum_and_the_zeros_are_cvxopts(kind, bias, C):
    X, y = blobs(70, 7, seed=2)
    if kind == "csr":
        X = thinned(X, 0.4)
    problem = linear_problem(X, y, C, "squared_hinge", bias=bias)
    result = l1_cdn(problem, tol=1e-9, max_iter=10**5, seed=0)
    w_qp, F_qp = l1_by_cvxopt(X, y, problem.C, bias)
    assert result.status == Status.OPTIMAL
    assert abs(result.objective / F_qp - 1) < 1e-7
    wbar = wbar_of(result, bias)
    np.testing.assert_allclose(wbar, w_qp, atol=1e-5)
    assert np.array_equal(wbar == 0, np.abs(w_qp) < 1e-7)
    if bias == 0:
        assert result.b == 0.0


def test_per_point_costs_against_cvxopt():
    X, y = blobs(60, 5, seed=3)
    C = np.random.default_rng(4).uniform(0.0, 0.3, size=60)
    C[:5] = 0.0  # points left out
    problem = linear_problem(X, y, C, "squared_hinge")
    result = l1_cdn(problem, tol=1e-9, max_iter=10**5, seed=1)
    w_qp, F_qp = l1_by_cvxopt(X, y, C, 1.0)
    assert abs(result.objective / F_qp - 1) < 1e-7
    np.testing.assert_allclose(wbar_of(result, 1.0), w_qp, atol=1e-5)


def test_the_result_satisfies_the_optimality_conditions():
    """eq. (eq-l1-kkt), computed from the data, not by the solver."""
    X, y = blobs(300, 25, seed=5)
    problem = linear_problem(thinned(X, 0.3), y, 0.05, "squared_hinge")
    result = l1_cdn(problem, tol=1e-10, max_iter=10**5, seed=2)
    Xbar = folded(problem.X, 1.0)
    wbar = wbar_of(result, 1.0)
    alpha = 2 * 0.05 * np.maximum(0.0, 1.0 - y * (Xbar @ wbar))
    np.testing.assert_allclose(result.alpha, alpha, atol=1e-12)
    correlation = Xbar.T @ (alpha * y)
    zero = wbar == 0
    assert 0 < zero.sum() < wbar.size
    assert np.abs(correlation[zero]).max() <= 1 + 1e-6
    np.testing.assert_allclose(
        correlation[~zero], np.sign(wbar[~zero]), atol=1e-6
    )
    assert result.objective == pytest.approx(l1_objective(problem, wbar))


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("C", [0.01, 0.05, 0.3])
def test_the_objective_is_liblinear_250s(seed, C):
    X, y = blobs(400, 30, seed=10 + seed, informative=4)
    if seed == 2:
        X = thinned(X)
    problem = linear_problem(X, y, C, "squared_hinge")
    ours = l1_cdn(problem, tol=1e-6, seed=seed)
    theirs = liblinear_250(X, y, C, 1e-6)
    assert ours.status == Status.OPTIMAL
    F_250 = l1_objective(problem, theirs)
    assert abs(ours.objective / F_250 - 1) < 1e-6
    assert np.array_equal(wbar_of(ours, 1.0) != 0, theirs != 0)


def test_the_objective_is_scikit_learns():
    X, y = blobs(300, 20, seed=20, informative=3)
    for C, scaling in ((0.02, 1.0), (0.2, 5.0)):
        problem = linear_problem(X, y, C, "squared_hinge", bias=scaling)
        ours = l1_cdn(problem, tol=1e-7, seed=0)
        theirs = LiblinearSVC(
            penalty="l1",
            dual=False,
            C=C,
            tol=1e-7,
            intercept_scaling=scaling,
            max_iter=10**4,
        ).fit(X, y)
        wbar = np.append(theirs.coef_[0], theirs.intercept_[0] / scaling)
        F_sklearn = l1_objective(problem, wbar)
        assert abs(ours.objective / F_sklearn - 1) < 1e-6


def test_pass_limit_callback_and_status():
    X, y = blobs(200, 15, seed=6)
    problem = linear_problem(X, y, 1.0, "squared_hinge")
    passes = []
    result = l1_cdn(
        problem,
        tol=1e-12,
        max_iter=3,
        callback=lambda *values: passes.append(values),
        seed=0,
    )
    assert result.status == Status.MAX_ITER and result.n_iter == 3
    assert len(passes) == 3 and passes[0][0] == 16  # 15 features, offset
    nothing = l1_cdn(problem, max_iter=0)
    assert nothing.n_iter == 0 and not nothing.w.any()


def test_l1_min_c_matches_scikit_learn():
    X, y = blobs(120, 9, seed=7)
    labels = np.random.default_rng(8).integers(0, 4, size=120)
    cases = [
        (X, y, {}),
        (thinned(X), y, {"fit_intercept": False}),
        (X, y, {"intercept_scaling": 10.0}),
        (X + 3.0, labels, {}),
        (X, np.where(y > 0, "yes", "no"), {"loss": "log"}),
    ]
    for data, target, options in cases:
        assert l1_min_c(data, target, **options) == pytest.approx(
            sklearn_l1_min_c(data, target, **options), rel=1e-12
        )


@pytest.mark.parametrize(
    "options",
    [{}, {"fit_intercept": False}, {"intercept_scaling": 10.0}],
)
def test_below_l1_min_c_nothing_above_it_something(options):
    X, y = blobs(150, 10, seed=9)
    X[:, 3] += 0.2  # a feature away from zero on average
    C_min = l1_min_c(X, y, **options)
    bias = 0.0
    if options.get("fit_intercept", True):
        bias = options.get("intercept_scaling", 1.0)
    for factor, empty in ((0.98, True), (1.0, True), (1.02, False)):
        problem = linear_problem(
            X, y, factor * C_min, "squared_hinge", bias
        )
        result = l1_cdn(problem, tol=1e-6, seed=0)
        assert result.status == Status.OPTIMAL
        nonzero = np.any(result.w != 0) or result.b != 0
        assert nonzero != empty, (factor, options)


def test_l1_min_c_of_several_classes_is_the_smallest_over_the_problems():
    X, _ = blobs(200, 6, seed=11)
    labels = np.random.default_rng(12).integers(0, 3, size=200)
    X[labels == 2, 1] += 1.0
    C_min = l1_min_c(X, labels)
    for factor, any_nonzero in ((0.98, False), (1.02, True)):
        found = False
        for c in range(3):
            y = np.where(labels == c, 1.0, -1.0)
            problem = linear_problem(X, y, factor * C_min, "squared_hinge")
            result = l1_cdn(problem, tol=1e-6, seed=0)
            found = found or np.any(result.w != 0) or result.b != 0
        assert found == any_nonzero


@pytest.mark.parametrize(
    "options, message",
    [
        ({"loss": "hinge"}, "The 'loss' parameter of l1_min_c"),
        ({"fit_intercept": 1}, "The 'fit_intercept' parameter"),
        ({"intercept_scaling": 0}, "The 'intercept_scaling' parameter"),
        ({"intercept_scaling": -1.0}, r"range \(0.0, inf\)"),
        ({"intercept_scaling": np.inf}, "intercept_scaling"),
    ],
)
def test_l1_min_c_refuses_bad_options(options, message):
    X, y = blobs(20, 3, seed=13)
    with pytest.raises(ValueError, match=message):
        l1_min_c(X, y, **options)


def test_l1_min_c_refuses_bad_data():
    with pytest.raises(ValueError, match="Ill-posed l1_min_c calculation"):
        l1_min_c([[0.0, 0.0], [0.0, 0.0]], [0, 1])
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        l1_min_c([[1.0, 0.0], [0.0, 1.0]], [0, 1, 1])
    with pytest.raises(ValueError, match="NaN"):
        l1_min_c([[np.nan, 0.0], [0.0, 1.0]], [0, 1])


def test_l1_cdn_refuses_bad_input_before_solving():
    X, y = blobs(30, 3, seed=14)
    with pytest.raises(ValueError, match="squared_hinge"):
        l1_cdn(linear_problem(X, y, 1.0, "hinge"))
    problem = linear_problem(X, y, 1.0, "squared_hinge")
    with pytest.raises(ValueError, match="tol"):
        l1_cdn(problem, tol=0)
    with pytest.raises(ValueError, match="max_iter"):
        l1_cdn(problem, max_iter=-1)
    with pytest.raises(ValueError, match="max_iter"):
        l1_cdn(problem, max_iter=2.5)
