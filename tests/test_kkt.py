"""The KKT residuals: zero at optima found by independent solvers, large
away from them."""

import numpy as np
import pytest
from sklearn.svm import SVC

from svmlib import hard_margin_dual
from svmlib.derivation.kkt import kkt_residuals, kkt_violation


def problem(seed, n=60, d=3):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = np.where(
        X @ rng.normal(size=d) + 0.3 * rng.normal(size=n) > 0, 1.0, -1.0
    )
    return X, y


@pytest.mark.parametrize("seed", range(3))
def test_residuals_vanish_at_the_hard_margin_optimum(seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(40, 2))
    y = np.where(X[:, 0] + X[:, 1] > 0, 1.0, -1.0)
    X += 0.3 * y[:, None]  # open a gap so the data are separable
    K = X @ X.T
    result = hard_margin_dual(K, y)
    residuals = kkt_residuals(K, y, result.alpha, result.b)
    assert set(residuals) == {
        "stationarity",
        "primal feasibility",
        "dual feasibility",
        "complementary slackness",
    }
    assert max(residuals.values()) < 1e-7  # unit-free: no scale factor


@pytest.mark.parametrize("seed", range(3))
def test_residuals_vanish_at_libsvm_soft_margin_solution(seed):
    """LIBSVM shares no code with svmlib; at its solution every residual is
    at its tolerance."""
    X, y = problem(seed)
    C = 1.0
    model = SVC(kernel="linear", C=C, tol=1e-10).fit(X, y)
    alpha = np.zeros(len(y))
    alpha[model.support_] = np.abs(model.dual_coef_[0])
    violation = kkt_violation(X @ X.T, y, alpha, model.intercept_[0], C)
    assert violation < 1e-6


def test_residuals_are_large_at_perturbed_points():
    X, y = problem(0)
    model = SVC(kernel="linear", C=1.0, tol=1e-10).fit(X, y)
    alpha = np.zeros(len(y))
    alpha[model.support_] = np.abs(model.dual_coef_[0])
    K, b = X @ X.T, model.intercept_[0]
    assert kkt_violation(K, y, alpha, b + 0.5, 1.0) > 0.1  # wrong offset
    assert (
        kkt_residuals(K, y, alpha + 0.1 * (y > 0), b, 1.0)["stationarity"]
        > 1.0
    )  # sum(alpha y) != 0
    assert (
        kkt_residuals(K, y, alpha - 0.5, b, 1.0)["dual feasibility"] >= 0.5
    )  # negative alpha
    assert (
        kkt_residuals(K, y, alpha + 2.0, b, 1.0)["dual feasibility"] >= 1.0
    )  # alpha above C
    assert kkt_residuals(K, y, np.zeros_like(alpha), 0.0)[
        "primal feasibility"
    ] == pytest.approx(1.0)
