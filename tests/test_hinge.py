"""The hinge loss, the soft-margin objective and the subgradient trainer."""

from itertools import islice

import numpy as np
import pytest
from problems import overlapping_problem

from svmlib import Status
from svmlib.derivation.hinge import (
    hinge_loss,
    primal_objective,
    subgradient_descent,
    subgradient_steps,
)
from svmlib.derivation.soft_margin import soft_margin_primal


def test_hinge_loss_values():
    np.testing.assert_array_equal(
        hinge_loss([-2.0, 0.0, 0.5, 1.0, 3.0]), [3.0, 1.0, 0.5, 0.0, 0.0]
    )


@pytest.mark.parametrize("seed, C", [(0, 0.5), (1, 5.0)])
def test_the_qp_optimum_is_the_minimum_of_the_hinge_objective(seed, C):
    """cvxopt's objective value equals the hinge form evaluated at its (w,
    b), and no random perturbation of (w, b) does better."""
    X, y = overlapping_problem(seed, d=3)
    result = soft_margin_primal(X, y, C)
    J = primal_objective(result.w, result.b, X, y, C)
    assert J == pytest.approx(result.objective, rel=1e-8)
    rng = np.random.default_rng(seed)
    for _ in range(200):
        step = rng.normal(size=4) * 1e-3
        assert (
            primal_objective(
                result.w + step[:3], result.b + step[3], X, y, C
            )
            >= J - 1e-9
        )


@pytest.mark.parametrize("seed, C", [(0, 0.1), (1, 1.0), (2, 10.0)])
def test_subgradient_descent_approaches_the_qp_optimum(seed, C):
    X, y = overlapping_problem(seed, n=80, d=2)
    optimum = soft_margin_primal(X, y, C).objective
    result = subgradient_descent(X, y, C, n_iter=5_000)
    assert result.status is Status.MAX_ITER and result.n_iter == 5_000
    assert optimum <= result.objective <= optimum * (1 + 1e-3)
    assert result.objective == pytest.approx(
        primal_objective(result.w, result.b, X, y, C)
    )
    np.testing.assert_allclose(
        result.w, X.T @ (result.alpha * y), atol=1e-12
    )
    assert np.all((result.alpha >= 0) & (result.alpha <= C * (1 + 1e-12)))


def weight_space_steps(X, y, C, T):
    """The iteration written directly in (w, b): w <- w - g_w / t, b <- b -
    g_b / t, then w is projected onto the ball of radius sqrt(C n).  Also
    returns, per step, whether the projection changed w."""
    w, b, radius = np.zeros(X.shape[1]), 0.0, np.sqrt(C * len(y))
    for t in range(1, T + 1):
        violators = y * (X @ w + b) < 1
        g_w = w - C * (y[violators, None] * X[violators]).sum(axis=0)
        g_b = -C * y[violators].sum()
        w, b = w - g_w / t, b - g_b / t
        projected = np.linalg.norm(w) > radius
        if projected:
            w = w * radius / np.linalg.norm(w)
        yield w, b, projected, violators


@pytest.mark.parametrize("C", [0.01, 0.7, 50.0])
def test_subgradient_steps_follow_the_weight_space_update(C):
    """The alpha-space iteration equals the subgradient steps computed
    directly on (w, b)."""
    X, y = overlapping_problem(3, n=30, d=3)
    pairs = zip(
        islice(subgradient_steps(X, y, C), 50),
        weight_space_steps(X, y, C, 50),
    )
    for (alpha, b_alpha), (w, b, _, _) in pairs:
        np.testing.assert_allclose(
            X.T @ (alpha * y), w, atol=1e-10 * max(1.0, np.abs(w).max())
        )
        assert b_alpha == pytest.approx(b, abs=1e-10 * max(1.0, abs(b)))


def test_alpha_counts_the_steps_in_which_a_point_violated_the_margin():
    """eq. (eq-subgradient-alpha): while the projection never acts, alpha_i
    after T steps is C times the fraction of steps in which point i violated
    the margin."""
    X, y = overlapping_problem(5, n=20, d=2)
    C, T = 0.01, 40
    counts = np.zeros(20)
    for _, _, projected, violators in weight_space_steps(X, y, C, T):
        assert not projected
        counts += violators
    alpha, _ = next(islice(subgradient_steps(X, y, C), T - 1, None))
    np.testing.assert_allclose(alpha, C * counts / T, atol=1e-12)


@pytest.mark.parametrize("n_iter", [0, -5, 2.5, True, "100"])
def test_bad_iteration_counts_are_reported(n_iter):
    X, y = overlapping_problem(0)
    with pytest.raises(
        ValueError, match="n_iter must be a positive integer"
    ):
        subgradient_descent(X, y, 1.0, n_iter=n_iter)


def test_bad_C_and_data_are_reported_by_the_trainer():
    X, y = overlapping_problem(0)
    with pytest.raises(ValueError, match="positive"):
        subgradient_descent(X, y, 0.0, n_iter=10)
    X[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        subgradient_descent(X, y, 1.0, n_iter=10)


def test_subgradient_steps_check_their_arguments_at_once():
    X, y = overlapping_problem(0)
    with pytest.raises(ValueError, match="positive"):
        subgradient_steps(X, y, -1.0)  # no next() needed


def test_the_identity_behind_the_projection_radius():
    """By strong duality ||w*||^2 = sum(alpha*) - C sum(xi*), which gives
    ||w*||^2 <= C n."""
    for seed, C in [(0, 0.1), (1, 10.0), (2, 1000.0)]:
        X, y = overlapping_problem(seed, d=3)
        result = soft_margin_primal(X, y, C)
        xi = hinge_loss(y * (X @ result.w + result.b))
        assert result.w @ result.w == pytest.approx(
            result.alpha.sum() - C * xi.sum(), rel=1e-6
        )
