"""Platt's round-off constant omega, kept apart from the KKT tolerance tol:
its validation, the step test it controls (against the analytic step),
and its effect on heart_scale (against LIBSVM's published objective and an
independent KKT check)."""

import numpy as np
import pytest

from svmlib import Kernel, Status
from svmlib.book.libsvm_data import load_heart_scale
from svmlib.derivation.dual import dual_objective
from svmlib.smo.platt import (
    PLATT_ROUNDOFF,
    PLATT_TOL,
    PlattSMO,
    check_roundoff,
    platt_smo,
)

HEART_LINEAR_OBJECTIVE = -92.473356  # LIBSVM 3.37 svm-train, C = 1


def largest_kkt_violation(K, y, alpha, b, C):
    """max over the points of the violation of y f(x) >= 1 (alpha < C) and
    y f(x) <= 1 (alpha > 0), with f = K (alpha y) + b; written without
    svmlib's gradient."""
    r = y * (K @ (alpha * y) + b) - 1.0
    low = np.where(alpha < C, np.maximum(0.0, -r), 0.0)
    high = np.where(alpha > 0, np.maximum(0.0, r), 0.0)
    return float(max(low.max(), high.max()))


@pytest.mark.parametrize("bad", [-1e-12, np.nan, np.inf, True, "1e-12"])
def test_check_roundoff_refuses_what_is_not_a_finite_number_ge_0(bad):
    with pytest.raises(ValueError, match="roundoff"):
        check_roundoff(bad)


@pytest.mark.parametrize("good", [0, 0.0, 1e-12, 1e-3])
def test_check_roundoff_accepts_finite_numbers_ge_0(good):
    assert check_roundoff(good) == float(good)


def test_platt_smo_validates_roundoff():
    X = np.array([[0.0], [1.0]])
    y = np.array([-1.0, 1.0])
    with pytest.raises(ValueError, match="roundoff"):
        platt_smo(X, y, 1.0, Kernel("linear"), roundoff=-1.0)


def test_the_round_off_constant_is_far_below_the_kkt_tolerance():
    assert PLATT_TOL == 1e-3
    assert PLATT_ROUNDOFF <= 1e-9 * PLATT_TOL


def two_point_problem():
    """x = 0 (label -1) and x = 1 (label +1), linear kernel: eta = 1, and
    with alpha_1 = alpha_2 = a the dual is a^2 / 2 - 2a, minimal at a = 2;
    from a = 1.9995 the step of alpha_2 is 5e-4."""
    X = np.array([[0.0], [1.0]])
    y = np.array([-1.0, 1.0])
    return X @ X.T, y


@pytest.mark.parametrize(
    "roundoff, moves", [(1e-12, True), (0.0, True), (1e-3, False)]
)
def test_the_step_test_rejects_exactly_the_steps_below_its_threshold(
    roundoff, moves
):
    K, y = two_point_problem()
    platt = PlattSMO(K, y, C=10.0, roundoff=roundoff)
    platt.alpha[:] = [1.9995, 1.9995]
    E = K @ (platt.alpha * y) - y  # Platt's threshold is 0
    platt.error[:] = E
    # the rejection threshold omega (a2 + alpha_2 + omega) at a2 = 2
    threshold = roundoff * (2.0 + 1.9995 + roundoff)
    assert (5e-4 >= threshold) == moves
    assert platt.take_step(0, 1, E[1]) == moves
    expected = [2.0, 2.0] if moves else [1.9995, 1.9995]
    np.testing.assert_allclose(platt.alpha, expected, rtol=0, atol=1e-15)


@pytest.fixture(scope="module")
def heart_linear():
    X, y = load_heart_scale()
    return X, y, Kernel("linear"), Kernel("linear")(X)


def test_heart_scale_linear_reaches_libsvm_objective(heart_linear):
    X, y, kernel, K = heart_linear
    result = platt_smo(X, y, 1.0, kernel)
    assert result.status is Status.OPTIMAL
    assert largest_kkt_violation(K, y, result.alpha, result.b, 1.0) <= (
        PLATT_TOL * (1 + 1e-9)
    )
    objective = dual_objective(K, y, result.alpha)
    assert abs(objective - HEART_LINEAR_OBJECTIVE) <= 1e-5 * abs(
        HEART_LINEAR_OBJECTIVE
    )


def test_a_round_off_constant_equal_to_tol_leaves_violators(heart_linear):
    """The old setting omega = tol: the loop ends with points violating
    the KKT conditions by more than tol, and the status says so."""
    X, y, kernel, K = heart_linear
    result = platt_smo(X, y, 1.0, kernel, roundoff=PLATT_TOL)
    violation = largest_kkt_violation(K, y, result.alpha, result.b, 1.0)
    assert violation > PLATT_TOL
    assert result.status is Status.INACCURATE


def test_equal_ends_use_the_round_off_constant():
    """eta = 0 (a duplicated point with the opposite label): the end chosen
    by eq. (eq-platt-ends) is the minimum of a brute-force scan."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(6, 2))
    X[1] = X[0]
    y = np.array([1.0, -1.0, 1.0, -1.0, 1.0, -1.0])
    K = Kernel("rbf", gamma=0.5)(X)
    platt = PlattSMO(K, y, C=1.0)
    platt.alpha[:] = [0.3, 0.5, 0.6, 0.2, 0.1, 0.3]
    E = K @ (platt.alpha * y) - y
    platt.error[:] = E
    start = platt.alpha.copy()
    # y_1 != y_2: alpha_2 - alpha_1 is fixed, alpha_2 in [L, H]
    low, high = (
        max(0.0, start[1] - start[0]),
        min(1.0, 1 + start[1] - start[0]),
    )
    grid = np.linspace(low, high, 2001)
    values = []
    for a2 in grid:
        trial = start.copy()
        trial[0] += a2 - start[1]
        trial[1] = a2
        values.append(dual_objective(K, y, trial))
    assert platt.take_step(0, 1, E[1])
    assert platt.alpha[1] == pytest.approx(grid[int(np.argmin(values))])
