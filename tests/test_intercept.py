"""LIBSVM's rule for b = -rho: against LIBSVM itself, against a brute-force
search over b, and on hand-made cases."""

import numpy as np
import pytest
from problems import overlapping_problem, standardised_breast_cancer
from sklearn.svm import SVC

from svmlib import soft_margin_dual
from svmlib.derivation.intercept import (
    bound_status,
    compute_rho,
    dual_gradient,
    intercept_from_kkt,
    rho_interval,
)


def libsvm_alpha(model, n):
    alpha = np.zeros(n)
    alpha[model.support_] = np.abs(model.dual_coef_.ravel())
    return alpha


def hinge_objective(w, b, X, y, C):
    return 0.5 * w @ w + C * np.sum(np.maximum(0.0, 1.0 - y * (X @ w + b)))


@pytest.mark.parametrize("C", [0.05, 1.0, 10.0])
@pytest.mark.parametrize("seed", range(3))
def test_libsvm_alphas_give_libsvm_intercept(seed, C):
    """Given LIBSVM's own multipliers (exactly on their bounds), the rule
    reproduces its intercept_. LIBSVM updates its gradient incrementally
    while we recompute it, hence the 1e-5."""
    X, y = overlapping_problem(seed, n=80, d=3)
    model = SVC(kernel="linear", C=C, tol=1e-6).fit(X, y)
    b = intercept_from_kkt(X @ X.T, y, libsvm_alpha(model, len(y)), C)
    assert b == pytest.approx(model.intercept_[0], abs=1e-5)


def test_libsvm_midpoint_when_no_multiplier_is_free():
    """Equal classes and a tiny C: every alpha = C, and LIBSVM falls back on
    the midpoint."""
    X, y = overlapping_problem(4, n=40, d=2)
    C = 1e-4
    model = SVC(kernel="linear", C=C).fit(X, y)
    alpha = libsvm_alpha(model, len(y))
    status = bound_status(alpha, C)
    assert status.upper.all() and not status.free.any()
    assert intercept_from_kkt(X @ X.T, y, alpha, C) == pytest.approx(
        model.intercept_[0], abs=1e-9
    )


def test_libsvm_intercept_on_standardised_breast_cancer():
    X, y = standardised_breast_cancer()
    model = SVC(kernel="linear", C=1.0, tol=1e-8).fit(X, y)
    assert intercept_from_kkt(
        X @ X.T, y, libsvm_alpha(model, len(y)), 1.0
    ) == pytest.approx(model.intercept_[0], abs=1e-6)


def test_without_free_multipliers_b_is_the_midpoint_of_the_optimal_ones():
    """Brute force: scan b, find where the primal objective is minimal; b
    must be its midpoint."""
    X, y = overlapping_problem(4, n=40, d=2)
    C = 1e-3
    result = soft_margin_dual(X @ X.T, y, C)
    assert not bound_status(result.alpha, C).free.any()
    w = X.T @ (result.alpha * y)
    grid = np.linspace(result.b - 3.0, result.b + 3.0, 60_001)
    values = np.array([hinge_objective(w, b, X, y, C) for b in grid])
    optimal = grid[values <= values.min() + 1e-12 * max(1.0, values.min())]
    step = grid[1] - grid[0]
    assert optimal.size > 100  # a whole interval of optimal offsets
    assert result.b == pytest.approx(
        (optimal.min() + optimal.max()) / 2, abs=2 * step
    )
    lb, ub = rho_interval(
        dual_gradient(X @ X.T, y, result.alpha),
        y,
        bound_status(result.alpha, C),
    )
    assert -ub == pytest.approx(optimal.min(), abs=2 * step)
    assert -lb == pytest.approx(optimal.max(), abs=2 * step)


def test_b_from_a_bounded_multiplier_is_worse():
    X, y = overlapping_problem(1, n=80, d=2)
    C = 1.0
    result = soft_margin_dual(X @ X.T, y, C)
    w = X.T @ (result.alpha * y)
    margin = y * (X @ w + result.b)
    upper = np.flatnonzero(bound_status(result.alpha, C).upper)
    worst = upper[np.argmin(margin[upper])]
    assert margin[worst] < 0.5
    b_bounded = y[worst] - X[worst] @ w
    assert (
        hinge_objective(w, b_bounded, X, y, C)
        > hinge_objective(w, result.b, X, y, C) + 0.1
    )


def test_bound_status_classifies_exact_and_near_bounds():
    C = 2.0
    alpha = np.array([0.0, 1e-13, 0.5, 1.0, 2.0 - 1e-9, 2.0])
    status = bound_status(alpha, C)
    np.testing.assert_array_equal(
        status.lower, [True, True, False, False, False, False]
    )
    np.testing.assert_array_equal(
        status.free, [False, False, True, True, False, False]
    )
    np.testing.assert_array_equal(
        status.upper, [False, False, False, False, True, True]
    )
    all_zero = bound_status(np.zeros(3), C)
    assert all_zero.lower.all() and not all_zero.free.any()


def test_compute_rho_by_hand():
    y = np.array([1.0, -1.0, 1.0, -1.0])
    G = np.array([0.2, -0.4, 0.5, 0.1])  # y * G = [0.2, 0.4, 0.5, -0.1]
    free = bound_status(np.array([0.5, 0.5, 0.0, 1.0]), 1.0)
    assert compute_rho(G, y, free) == pytest.approx(0.3)
    # no free alpha: ub over {alpha=0, y=+1} and {alpha=C, y=-1}: min(0.5,
    # -0.1) = -0.1; lb over {alpha=0, y=-1} and {alpha=C, y=+1}: max(0.4,
    # 0.2) = 0.4
    none_free = bound_status(np.array([1.0, 0.0, 0.0, 1.0]), 1.0)
    assert rho_interval(G, y, none_free) == pytest.approx((0.4, -0.1))
    assert compute_rho(G, y, none_free) == pytest.approx(0.15)
    one_sided = bound_status(
        np.array([1.0, 0.0, 1.0, 0.0]), 1.0
    )  # only lower-end indices
    lb, ub = rho_interval(G, y, one_sided)
    assert np.isinf(ub) and compute_rho(G, y, one_sided) == pytest.approx(
        lb
    )


def test_the_gradient_is_q_alpha_minus_one():
    rng = np.random.default_rng(0)
    X, y = overlapping_problem(0, n=10)
    alpha = rng.uniform(size=10)
    Q = np.array(
        [[y[i] * y[j] * X[i] @ X[j] for j in range(10)] for i in range(10)]
    )
    np.testing.assert_allclose(
        dual_gradient(X @ X.T, y, alpha), Q @ alpha - 1.0
    )


def test_bad_arguments_to_the_rule_are_reported():
    X, y = overlapping_problem(0, n=10)
    alpha = np.full(10, 0.5)
    with pytest.raises(ValueError, match="C must be a positive number"):
        intercept_from_kkt(X @ X.T, y, alpha, -1.0)
    with pytest.raises(ValueError, match="alpha has shape"):
        intercept_from_kkt(X @ X.T, y, alpha[:-1], 1.0)
