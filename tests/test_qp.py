"""svmlib.derivation.qp against problems with closed-form solutions."""

import numpy as np
import pytest

from svmlib import solve_qp
from svmlib.derivation.qp import QPError, solve_lp


def test_projection_onto_the_negative_orthant():
    """min 1/2 ||x - c||^2 s.t. x <= 0 has x = min(c, 0) and multipliers z =
    max(c, 0)."""
    c = np.array([1.5, -2.0, 0.25, -0.1])
    solution = solve_qp(np.eye(4), -c, np.eye(4), np.zeros(4))
    assert solution.converged
    np.testing.assert_allclose(solution.x, np.minimum(c, 0), atol=1e-8)
    np.testing.assert_allclose(solution.z, np.maximum(c, 0), atol=1e-8)
    assert solution.objective == pytest.approx(
        0.5 * np.minimum(c, 0) @ np.minimum(c, 0) - c @ np.minimum(c, 0)
    )


def test_projection_onto_an_affine_set_with_an_equality_constraint():
    """min 1/2 ||x - c||^2 s.t. sum(x) = 1, with a slack inequality: x = c +
    (1 - sum c)/n."""
    c = np.array([0.2, 0.5, -0.4])
    solution = solve_qp(
        np.eye(3), -c, np.eye(3), 10 * np.ones(3), A_eq=np.ones(3), b_eq=1.0
    )
    np.testing.assert_allclose(solution.x, c + (1 - c.sum()) / 3, atol=1e-8)
    np.testing.assert_allclose(solution.z, 0.0, atol=1e-8)


def test_linear_program():
    """max x1 + x2 in the unit box is 2, at (1, 1)."""
    A_ub = np.vstack([np.eye(2), -np.eye(2)])
    solution = solve_lp(-np.ones(2), A_ub, np.ones(4))
    assert solution.objective == pytest.approx(-2.0, abs=1e-8)
    np.testing.assert_allclose(solution.x, [1.0, 1.0], atol=1e-7)


def test_an_infeasible_program_does_not_pass_for_a_solution():
    """x <= -1 and -x <= -1 cannot both hold: cvxopt either fails (QPError)
    or does not converge."""
    A_ub, b_ub = np.array([[1.0], [-1.0]]), np.array([-1.0, -1.0])
    try:
        solution = solve_qp(np.eye(1), np.zeros(1), A_ub, b_ub)
    except QPError as error:
        assert "cvxopt could not solve" in str(error)
    else:
        assert not solution.converged


def test_an_equality_constraint_needs_both_sides():
    with pytest.raises(ValueError, match="needs both A_eq and b_eq"):
        solve_qp(
            np.eye(2), np.zeros(2), np.eye(2), np.ones(2), A_eq=np.ones(2)
        )


def test_an_infeasible_linear_program_raises_a_clear_error():
    A_ub, b_ub = (
        np.array([[1.0], [-1.0]]),
        np.array([-1.0, -1.0]),
    )  # x <= -1 and x >= 1
    with pytest.raises(QPError):
        solve_lp(np.ones(1), A_ub, b_ub)
