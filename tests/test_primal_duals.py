"""The one-class SVM, nu-SVC and nu-SVR against their primals (chapter
"Regression and novelty detection").

For the linear kernel, phi(x) = x, each primal, eqs. (eq-one-class-primal),
(eq-nu-svc-primal) and (eq-nu-svr-primal), is a plain QP in (w, offset,
rho / margin / epsilon, slacks), which cvxopt solves as it stands.  svmlib
solves the scaled duals instead, eqs. (eq-one-class-core),
(eq-nu-svc-core) and (eq-nu-svr-core).  Strong duality and the
stationarity conditions tie the two together, with the chapter's scalings:

- one-class: the unscaled multipliers are alpha / (nu n); the primal
  minimum is -1/2 alpha'K alpha / (nu n)^2, w = sum alpha_i x_i / (nu n)
  and rho = rho_core / (nu n);
- nu-SVC: the unscaled multipliers are alpha / n; the primal minimum is
  -1/2 alpha'Q alpha / n^2, w = sum alpha_i y_i x_i / n, b = b_core / n and
  the margin r~ = r / n;
- nu-SVR: no rescaling; the primal minimum is minus the core's minimum,
  w = sum (alpha_i - alpha*_i) x_i, the same b, and epsilon = -r.

The values of nu make nu n (one-class) and nu n / 2 (nu-SVC, nu-SVR) not
whole numbers, so that a multiplier of each label is strictly inside its
box and fixes the offsets (otherwise they are any point of an interval, and
an interior-point solver and LIBSVM's midpoint rule need not agree).  The
last tests show that the comparisons catch a wrong scaling.
"""

import numpy as np
import pytest

from svmlib import Kernel, NuSVC, NuSVR, OneClassSVM, solve_qp
from svmlib.formulations.nu import nu_svc_problem, nu_svr_problem
from svmlib.formulations.svr_one_class import (
    one_class_problem,
    svr_coefficients,
)
from svmlib.training.fast import solve_auto

LINEAR = Kernel("linear")
TOL = 1e-8  # svmlib's stopping threshold in these comparisons
CLOSE = 1e-6  # the agreement asked of the two answers
N = 30
SEEDS = (0, 1, 2, 3)

# --------------------------------------------------------------------------
# The three primals, by cvxopt


def one_class_primal(X, nu, price=None):
    """eq. (eq-one-class-primal) in (w, rho, xi); ``price`` is the price
    of a unit of slack, 1 / (nu n) unless given.  Returns w, rho and the
    minimum."""
    n, d = X.shape
    price = 1 / (nu * n) if price is None else price
    P = np.zeros((d + 1 + n, d + 1 + n))
    P[:d, :d] = np.eye(d)
    q = np.r_[np.zeros(d), -1.0, np.full(n, price)]
    A_ub = np.block(
        [
            [-X, np.ones((n, 1)), -np.eye(n)],  # rho - xi <= w'x
            [np.zeros((n, d + 1)), -np.eye(n)],  # xi >= 0
        ]
    )
    x = solve_qp(P, q, A_ub, np.zeros(2 * n)).x
    return x[:d], x[d], 0.5 * x @ P @ x + q @ x


def nu_svc_primal(X, y, nu, price=None):
    """eq. (eq-nu-svc-primal) in (w, b, r~, xi); ``price`` is the price of
    a unit of slack, 1 / n unless given.  Returns w, b, r~ and the
    minimum."""
    n, d = X.shape
    price = 1 / n if price is None else price
    P = np.zeros((d + 2 + n, d + 2 + n))
    P[:d, :d] = np.eye(d)
    q = np.r_[np.zeros(d + 1), -nu, np.full(n, price)]
    A_ub = np.block(
        [
            [-y[:, None] * X, -y[:, None], np.ones((n, 1)), -np.eye(n)],
            [np.zeros((n, d + 2)), -np.eye(n)],  # xi >= 0
            [np.zeros((1, d + 1)), -np.ones((1, 1)), np.zeros((1, n))],
        ]
    )  # r~ - xi <= y (w'x + b), xi >= 0, r~ >= 0
    x = solve_qp(P, q, A_ub, np.zeros(2 * n + 1)).x
    return x[:d], x[d], x[d + 1], 0.5 * x @ P @ x + q @ x


def nu_svr_primal(X, y, C, nu, width_price=None):
    """eq. (eq-nu-svr-primal) in (w, b, epsilon, xi, xi*); ``width_price``
    is the price of a unit of epsilon, C nu n unless given.  Returns w, b,
    epsilon and the minimum."""
    n, d = X.shape
    width_price = C * nu * n if width_price is None else width_price
    P = np.zeros((d + 2 + 2 * n, d + 2 + 2 * n))
    P[:d, :d] = np.eye(d)
    q = np.r_[np.zeros(d + 1), width_price, np.full(2 * n, C)]
    Xb, one = np.hstack([X, np.ones((n, 1))]), np.ones((n, 1))
    eye, zero = np.eye(n), np.zeros((n, n))
    A_ub = np.block(
        [
            [-Xb, -one, -eye, zero],  # y - w'x - b <= eps + xi
            [Xb, -one, zero, -eye],  # w'x + b - y <= eps + xi*
            [np.zeros((2 * n, d + 2)), -np.eye(2 * n)],  # xi, xi* >= 0
            [np.zeros((1, d + 1)), -np.ones((1, 1)), np.zeros((1, 2 * n))],
        ]
    )  # the last row: eps >= 0
    b_ub = np.r_[-y, y, np.zeros(2 * n + 1)]
    x = solve_qp(P, q, A_ub, b_ub).x
    return x[:d], x[d], x[d + 1], 0.5 * x @ P @ x + q @ x


# --------------------------------------------------------------------------
# Data


def cloud(seed):
    """30 points around (3, 2), well away from the origin."""
    return np.random.default_rng(seed).normal(size=(N, 2)) + [3.0, 2.0]


def two_classes(seed):
    """Two overlapping classes of 15 points, labels +1 then -1."""
    y = np.repeat([1.0, -1.0], N // 2)
    X = np.random.default_rng(seed).normal(size=(N, 2))
    return X + np.outer(y, [1.0, 0.5]), y


def linear_targets(seed):
    """Noisy targets of a linear function of 30 points."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(N, 2))
    return X, X @ np.array([1.5, -0.5]) + 0.5 + 0.3 * rng.normal(size=N)


def relative(a, b):
    return abs(a / b - 1)


# --------------------------------------------------------------------------
# One-class


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("nu", [0.15, 0.25, 0.45, 0.75])
def test_one_class_dual_meets_its_primal(seed, nu):
    X = cloud(seed)
    scale = nu * N
    assert scale != round(scale)
    w, rho, minimum = one_class_primal(X, nu)
    fit = solve_auto(one_class_problem(X, nu, LINEAR), tol=TOL)
    assert np.any((fit.alpha > 0) & (fit.alpha < 1))  # rho is fixed
    assert minimum < -1e-3  # w is not 0: the origin is set apart
    assert relative(-fit.objective / scale**2, minimum) < CLOSE
    np.testing.assert_allclose(X.T @ fit.alpha / scale, w, atol=CLOSE)
    assert abs(-fit.b / scale - rho) < CLOSE
    # the estimator stores the scaled w and rho
    model = OneClassSVM(kernel="linear", nu=nu, tol=TOL).fit(X)
    np.testing.assert_allclose(model.coef_[0] / scale, w, atol=CLOSE)
    assert abs(model.offset_[0] / scale - rho) < CLOSE


# --------------------------------------------------------------------------
# nu-SVC


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("nu", [0.5, 0.7, 0.9])
def test_nu_svc_dual_meets_its_primal(seed, nu):
    X, y = two_classes(seed)
    assert nu * N / 2 != round(nu * N / 2)
    w, b, margin, minimum = nu_svc_primal(X, y, nu)
    fit = solve_auto(nu_svc_problem(X, y, nu, LINEAR), tol=TOL)
    assert fit.r > 1e-3  # the reduced hulls are apart: a real margin
    assert relative(-fit.objective / N**2, minimum) < CLOSE
    np.testing.assert_allclose(X.T @ (fit.alpha * y) / N, w, atol=CLOSE)
    assert abs(fit.b / N - b) < CLOSE
    assert abs(fit.r / N - margin) < CLOSE
    # the estimator reports the equivalent C-SVC: w / r~ and b / r~, with
    # the positive side for classes_[1] = +1
    model = NuSVC(kernel="linear", nu=nu, tol=TOL).fit(X, y)
    np.testing.assert_allclose(model.coef_[0], w / margin, rtol=1e-4)
    assert relative(model.intercept_[0], b / margin) < 1e-4


# --------------------------------------------------------------------------
# nu-SVR


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(("C", "nu"), [(2.0, 0.3), (2.0, 0.7), (0.5, 0.5)])
def test_nu_svr_dual_meets_its_primal(seed, C, nu):
    X, y = linear_targets(seed)
    assert nu * N / 2 != round(nu * N / 2)
    w, b, epsilon, minimum = nu_svr_primal(X, y, C, nu)
    fit = solve_auto(nu_svr_problem(X, y, C, nu, LINEAR), tol=TOL)
    assert epsilon > 1e-3  # a tube of positive width
    assert relative(-fit.objective, minimum) < CLOSE
    coef = svr_coefficients(fit.alpha)
    np.testing.assert_allclose(X.T @ coef, w, atol=CLOSE)
    assert abs(fit.b - b) < CLOSE
    assert abs(-fit.r - epsilon) < CLOSE
    model = NuSVR(kernel="linear", C=C, nu=nu, tol=TOL).fit(X, y)
    np.testing.assert_allclose(model.coef_[0], w, atol=CLOSE)
    assert abs(model.intercept_[0] - b) < CLOSE


# --------------------------------------------------------------------------
# The comparisons can fail


def test_a_wrong_price_of_the_one_class_slacks_is_caught():
    """Pricing the slacks at 1 / n instead of 1 / (nu n) (the nu-SVC
    price, a plausible slip) moves the minimum, w and rho far beyond
    CLOSE."""
    X, nu = cloud(0), 0.25
    scale = nu * N
    fit = solve_auto(one_class_problem(X, nu, LINEAR), tol=TOL)
    w, rho, minimum = one_class_primal(X, nu, price=1 / N)
    assert relative(-fit.objective / scale**2, minimum) > 0.1
    assert np.abs(X.T @ fit.alpha / scale - w).max() > 0.1
    assert abs(-fit.b / scale - rho) > 0.1


def test_a_wrong_price_of_the_nu_svc_slacks_is_caught():
    """1 / (nu n) instead of 1 / n: the one-class price."""
    (X, y), nu = two_classes(1), 0.7
    fit = solve_auto(nu_svc_problem(X, y, nu, LINEAR), tol=TOL)
    w, b, margin, minimum = nu_svc_primal(X, y, nu, price=1 / (nu * N))
    assert relative(-fit.objective / N**2, minimum) > 0.1
    assert np.abs(X.T @ (fit.alpha * y) / N - w).max() > 0.01
    assert abs(fit.r / N - margin) > 0.01


def test_a_wrong_price_of_the_nu_svr_width_is_caught():
    """C nu instead of C nu n: Schölkopf et al.'s price with LIBSVM's C."""
    (X, y), C, nu = linear_targets(1), 2.0, 0.3
    fit = solve_auto(nu_svr_problem(X, y, C, nu, LINEAR), tol=TOL)
    w, b, epsilon, minimum = nu_svr_primal(X, y, C, nu, width_price=C * nu)
    assert relative(-fit.objective, minimum) > 0.1
    assert np.abs(X.T @ svr_coefficients(fit.alpha) - w).max() > 0.01
    assert abs(-fit.r - epsilon) > 0.1
