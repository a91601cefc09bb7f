"""The results of the soft-margin chapter's theory, checked against svmlib's
solvers: the four-point example worked by hand, the reduced convex hulls,
the multipliers as slopes of the hinge, and the leave-one-out bound."""

import numpy as np
import pytest
from problems import overlapping_problem

from svmlib import soft_margin_dual
from svmlib.derivation.hulls import nearest_hull_points
from svmlib.derivation.intercept import (
    bound_status,
    dual_gradient,
    rho_interval,
)
from svmlib.derivation.soft_margin import soft_margin_primal

# The three points of the Margins chapter and a fourth, labelled -1, at the
# midpoint of the two positive points (written out here, independently of
# svmlib.book.datasets.hand_example).
X_FOUR = np.array([[0.0, 0.0], [2.0, 0.0], [0.0, 2.0], [1.0, 1.0]])
Y_FOUR = np.array([-1.0, 1.0, 1.0, -1.0])


def hinge_objective(w, b, X, y, C):
    """1/2 ||w||^2 + C sum(max(0, 1 - y f)), written out independently."""
    return 0.5 * w @ w + C * np.sum(np.maximum(0.0, 1.0 - y * (X @ w + b)))


def four_point_solution(C):
    """The closed form of eq. (eq-four-alpha): alpha, w, the interval of
    optimal offsets and the optimal value p*."""
    if C >= 1:
        alpha = np.array([1.0, (1 + C) / 2, (1 + C) / 2, C])
        return alpha, np.array([1.0, 1.0]), (-1.0, -1.0), 1 + 2 * C
    alpha = np.full(4, C)
    return alpha, np.array([C, C]), (-1.0, 1 - 2 * C), 4 * C - C * C


@pytest.mark.parametrize("C", [0.2, 0.5, 0.8, 1.5, 3.0, 10.0])
def test_the_four_point_example_matches_its_closed_form(C):
    alpha, w, (b_low, b_high), p_star = four_point_solution(C)
    K = X_FOUR @ X_FOUR.T
    dual = soft_margin_dual(K, Y_FOUR, C)
    primal = soft_margin_primal(X_FOUR, Y_FOUR, C)
    np.testing.assert_allclose(dual.alpha, alpha, atol=1e-7)
    np.testing.assert_allclose(primal.alpha, alpha, atol=1e-6)
    np.testing.assert_allclose(
        X_FOUR.T @ (dual.alpha * Y_FOUR), w, atol=1e-7
    )
    np.testing.assert_allclose(primal.w, w, atol=1e-7)
    assert -dual.objective == pytest.approx(p_star, abs=1e-7)
    assert primal.objective == pytest.approx(p_star, abs=1e-7)
    # every offset in the interval is optimal, and the solvers' offsets
    # lie in it
    for b in np.linspace(b_low, b_high, 5):
        assert hinge_objective(w, b, X_FOUR, Y_FOUR, C) == pytest.approx(
            p_star, abs=1e-12
        )
    for b in (dual.b, primal.b):
        assert b_low - 1e-7 <= b <= b_high + 1e-7
    if C < 1:
        status = bound_status(dual.alpha, C)
        assert not status.free.any()
        lb, ub = rho_interval(
            dual_gradient(K, Y_FOUR, dual.alpha), Y_FOUR, status
        )
        assert (-ub, -lb) == pytest.approx((b_low, b_high), abs=1e-7)
        # outside the interval the objective rises
        for b in (b_low - 0.1, b_high + 0.1):
            assert hinge_objective(w, b, X_FOUR, Y_FOUR, C) > p_star + 1e-3


CASES = [
    (seed, d, C)
    for seed in range(3)
    for d in (2, 4)
    for C in (0.1, 1.0, 10.0)
]


@pytest.mark.parametrize("seed, d, C", CASES)
def test_the_dual_joins_the_nearest_points_of_the_reduced_hulls(seed, d, C):
    X, y = overlapping_problem(seed, n=40, d=d)
    dual = soft_margin_dual(X @ X.T, y, C)
    w = X.T @ (dual.alpha * y)
    alpha_plus = dual.alpha[y > 0].sum()
    assert alpha_plus == pytest.approx(dual.alpha[y < 0].sum(), rel=1e-8)
    hull = nearest_hull_points(X, y, mu=min(1.0, C / alpha_plus))
    scale = max(1.0, np.abs(w).max() / alpha_plus)
    np.testing.assert_allclose(
        w / alpha_plus, hull.positive - hull.negative, atol=1e-6 * scale
    )
    assert hull.distance == pytest.approx(
        np.linalg.norm(w) / alpha_plus, rel=1e-6
    )
    slacks = np.maximum(0.0, 1.0 - y * (X @ w + dual.b))
    assert 2 * alpha_plus == pytest.approx(
        w @ w + C * slacks.sum(), rel=1e-7
    )


def test_the_four_points_reduced_hulls_by_hand():
    dual = soft_margin_dual(X_FOUR @ X_FOUR.T, Y_FOUR, 3.0)
    alpha_plus = dual.alpha[Y_FOUR > 0].sum()
    assert alpha_plus == pytest.approx(4.0, abs=1e-7)
    hull = nearest_hull_points(X_FOUR, Y_FOUR, mu=3.0 / alpha_plus)
    np.testing.assert_allclose(hull.positive, [1.0, 1.0], atol=1e-6)
    np.testing.assert_allclose(hull.negative, [0.75, 0.75], atol=1e-6)


@pytest.mark.parametrize("seed, d, C", CASES)
def test_the_multipliers_are_minus_C_times_a_slope_of_the_hinge(seed, d, C):
    X, y = overlapping_problem(seed, n=40, d=d)
    dual = soft_margin_dual(X @ X.T, y, C)
    z = y * (X @ (X.T @ (dual.alpha * y)) + dual.b)
    off_margin = np.abs(z - 1.0) > 1e-6
    expected = np.where(z < 1.0, C, 0.0)
    np.testing.assert_allclose(
        dual.alpha[off_margin], expected[off_margin], atol=1e-7 * C
    )
    on_margin = dual.alpha[~off_margin]
    assert np.all((on_margin >= 0.0) & (on_margin <= C))


@pytest.mark.parametrize("seed", range(2))
def test_leaving_out_a_non_support_vector_keeps_the_solution(seed):
    X, y = overlapping_problem(seed, n=30, d=2)
    C = 1.0
    K = X @ X.T
    full = soft_margin_dual(K, y, C)
    status = bound_status(full.alpha, C)
    assert status.free.any()  # the theorem's hypothesis
    w = X.T @ (full.alpha * y)
    mistakes = np.zeros(len(y), dtype=bool)
    for i in range(len(y)):
        keep = np.arange(len(y)) != i
        fit = soft_margin_dual(K[np.ix_(keep, keep)], y[keep], C)
        w_i = X[keep].T @ (fit.alpha * y[keep])
        mistakes[i] = y[i] * (X[i] @ w_i + fit.b) <= 0
        if status.lower[i]:
            np.testing.assert_allclose(w_i, w, atol=1e-6)
            assert fit.b == pytest.approx(full.b, abs=1e-6)
            assert y[i] * (X[i] @ w_i + fit.b) >= 1 - 1e-6
    support = ~status.lower
    assert np.all(support[mistakes])
    assert mistakes.sum() <= support.sum()
