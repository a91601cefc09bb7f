"""The soft-margin primal and dual solvers against each other, LIBSVM and
the KKT table."""

import numpy as np
import pytest
from problems import overlapping_problem, standardised_breast_cancer
from sklearn.svm import SVC

from svmlib import Status, soft_margin_dual
from svmlib.derivation.intercept import (
    bound_status,
    dual_gradient,
    rho_interval,
)
from svmlib.derivation.primal import separability_margin
from svmlib.derivation.soft_margin import soft_margin_primal

CASES = [
    (seed, d, C)
    for seed in range(4)
    for d in (2, 5)
    for C in (0.1, 1.0, 10.0)
]


def hinge_objective(w, b, X, y, C):
    """1/2 ||w||^2 + C sum(max(0, 1 - y f)), written out here independently
    of svmlib."""
    return 0.5 * w @ w + C * np.sum(np.maximum(0.0, 1.0 - y * (X @ w + b)))


def quadratic_dual(K, y, alpha):
    """1/2 sum_ij a_i a_j y_i y_j K_ij - sum_i a_i, written out
    independently of svmlib."""
    Q = y[:, None] * y[None, :] * K
    return 0.5 * alpha @ Q @ alpha - alpha.sum()


@pytest.mark.parametrize("seed, d, C", CASES)
def test_primal_and_dual_agree_on_non_separable_problems(seed, d, C):
    X, y = overlapping_problem(seed, d=d)
    assert (
        separability_margin(X, y) <= 0.0
    )  # the problem really is not separable
    primal = soft_margin_primal(X, y, C)
    dual = soft_margin_dual(X @ X.T, y, C)
    # cvxopt may stall just short of its 1e-10 tolerance (status
    # INACCURATE); the answer is checked directly below, so only the
    # iteration limit is a failure here
    assert Status.MAX_ITER not in (primal.status, dual.status)
    assert -dual.objective == pytest.approx(primal.objective, rel=1e-7)
    assert hinge_objective(primal.w, primal.b, X, y, C) == pytest.approx(
        primal.objective, rel=1e-8
    )
    w_dual = X.T @ (dual.alpha * y)
    np.testing.assert_allclose(
        w_dual, primal.w, atol=1e-6 * max(1.0, np.abs(primal.w).max())
    )
    if bound_status(dual.alpha, C).free.any():
        assert dual.b == pytest.approx(primal.b, abs=1e-6)
    else:
        # b is not unique: both must lie in the optimal interval and give
        # the optimum
        lb, ub = rho_interval(
            dual_gradient(X @ X.T, y, dual.alpha),
            y,
            bound_status(dual.alpha, C),
        )
        assert -ub - 1e-6 <= primal.b <= -lb + 1e-6
    assert hinge_objective(w_dual, dual.b, X, y, C) == pytest.approx(
        primal.objective, rel=1e-7
    )


@pytest.mark.parametrize("C", [0.01, 1.0, 5.0, 1e5])
def test_dual_objective_matches_libsvm_on_standardised_data(C):
    X, y = standardised_breast_cancer()
    K = X @ X.T
    ours = soft_margin_dual(K, y, C)
    libsvm = SVC(kernel="linear", C=C).fit(X, y)
    alpha_libsvm = np.zeros(len(y))
    alpha_libsvm[libsvm.support_] = np.abs(libsvm.dual_coef_.ravel())
    assert quadratic_dual(K, y, ours.alpha) == pytest.approx(
        quadratic_dual(K, y, alpha_libsvm), rel=1e-5
    )
    # and ours is at least as good: the dual is minimised
    assert quadratic_dual(K, y, ours.alpha) <= quadratic_dual(
        K, y, alpha_libsvm
    ) + 1e-9 * abs(ours.objective)


@pytest.mark.parametrize(
    "seed, C", [(seed, C) for seed in range(3) for C in (0.3, 3.0)]
)
def test_primal_matches_libsvm_with_a_tight_tolerance(seed, C):
    X, y = overlapping_problem(seed, d=3)
    primal = soft_margin_primal(X, y, C)
    libsvm = SVC(kernel="linear", C=C, tol=1e-6).fit(X, y)
    assert hinge_objective(
        libsvm.coef_.ravel(), libsvm.intercept_[0], X, y, C
    ) == pytest.approx(primal.objective, rel=1e-5)
    np.testing.assert_allclose(
        primal.w,
        libsvm.coef_.ravel(),
        atol=1e-4 * max(1.0, np.abs(primal.w).max()),
    )


@pytest.mark.parametrize("solver", ["primal", "dual"])
@pytest.mark.parametrize("seed, C", [(0, 0.5), (1, 2.0), (2, 20.0)])
def test_kkt_table_holds_for_every_point(solver, seed, C):
    """alpha = 0 => y f >= 1; 0 < alpha < C => y f = 1; alpha = C => y f <=
    1, and the converses off the margin: y f > 1 => alpha = 0, y f < 1 =>
    alpha = C."""
    X, y = overlapping_problem(seed, n=80, d=3)
    if solver == "primal":
        result = soft_margin_primal(X, y, C)
        w = result.w
    else:
        result = soft_margin_dual(X @ X.T, y, C)
        w = X.T @ (result.alpha * y)
    alpha, margin = result.alpha, y * (X @ w + result.b)
    tol_alpha, tol_margin = 1e-6 * C, 1e-6
    at_zero, at_C = alpha <= tol_alpha, alpha >= C - tol_alpha
    free = ~at_zero & ~at_C
    assert np.all(margin[at_zero] >= 1 - tol_margin)
    assert np.all(np.abs(margin[free] - 1) <= tol_margin)
    assert np.all(margin[at_C] <= 1 + tol_margin)
    assert np.all(at_zero[margin > 1 + tol_margin])
    assert np.all(at_C[margin < 1 - tol_margin])
    assert (
        at_C.any() and at_zero.any()
    )  # the table was exercised in all directions


def test_rescaling_the_features_rescales_the_solution():
    """(sX, C / s^2) is the same problem in other units: w' = w / s, b' = b,
    alpha' = alpha / s^2."""
    X, y = overlapping_problem(7, d=4)
    base = soft_margin_primal(X, y, 2.0)
    for s in (1e-3, 1e3):
        scaled = soft_margin_primal(s * X, y, 2.0 / s**2)
        np.testing.assert_allclose(
            scaled.w * s, base.w, rtol=1e-6, atol=1e-8
        )
        assert scaled.b == pytest.approx(base.b, abs=1e-6)
        dual = soft_margin_dual((s * X) @ (s * X).T, y, 2.0 / s**2)
        np.testing.assert_allclose(
            dual.alpha * s**2, base.alpha, atol=1e-6 * base.alpha.max()
        )


def test_large_C_on_separable_data_gives_the_hard_margin():
    from problems import separable_problem

    from svmlib.derivation.primal import hard_margin_primal

    X, y = separable_problem(2)
    hard = hard_margin_primal(X, y)
    soft = soft_margin_primal(X, y, 1e6)
    np.testing.assert_allclose(soft.w, hard.w, rtol=1e-6)


BAD_C = [
    (0.0, "positive"),
    (-1.0, "positive"),
    (float("nan"), "positive"),
    (float("inf"), "hard margin"),
    ("1", "positive number"),
    (True, "positive number"),
    (None, "positive number"),
]


@pytest.mark.parametrize("C, message", BAD_C)
def test_bad_C_is_reported(C, message):
    X, y = overlapping_problem(0)
    with pytest.raises(ValueError, match=message):
        soft_margin_primal(X, y, C)
    with pytest.raises(ValueError, match=message):
        soft_margin_dual(X @ X.T, y, C)


@pytest.mark.parametrize(
    "change, message",
    [
        ("nan", "NaN"),
        ("one class", "single class"),
        ("zero-one labels", "labels -1 and \\+1"),
        ("three classes", "labels -1 and \\+1"),
        ("short y", "samples but y has"),
    ],
)
def test_bad_training_data_is_reported(change, message):
    X, y = overlapping_problem(0)
    if change == "nan":
        X[3, 1] = np.nan
    elif change == "one class":
        y = np.ones_like(y)
    elif change == "zero-one labels":
        y = (y > 0).astype(float)
    elif change == "three classes":
        y = y.copy()
        y[0] = 2.0
    elif change == "short y":
        y = y[:-1]
    with pytest.raises(ValueError, match=message):
        soft_margin_primal(X, y, 1.0)
    if change != "nan":
        with pytest.raises(ValueError, match=message):
            soft_margin_dual(X @ X.T, y, 1.0)
    else:
        with pytest.raises(ValueError, match=message):
            soft_margin_dual(
                np.where(np.isnan(X @ X.T), np.nan, X @ X.T), y, 1.0
            )
