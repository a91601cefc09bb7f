# Generated from chapters/linear_more.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""The squared epsilon-insensitive primal by Newton's method (chapter
"More linear models")."""

import numpy as np

from svmlib.linear.linear_primal import (
    armijo_step,
    cg_newton_direction,
    check_finite,
    folded_product,
    folded_transpose_product,
    forcing_term,
)
from svmlib.result import SolverResult, Status
from svmlib.linear.svr_dcd import svr_primal_objective


def svr_primal_gradient(problem, w, residuals):
    """The gradient of eq. (eq-lsvr-primal-gradient) at wbar, whose
    residuals r_i = wbar'xbar_i - y_i are given, and the indices V of the
    points outside the tube."""
    outside = np.abs(residuals) > problem.epsilon
    V = np.flatnonzero(outside & (problem.C > 0))
    r = residuals[V]
    excess = r - problem.epsilon * np.sign(r)
    weights = 2.0 * problem.C[V] * excess
    return w + folded_transpose_product(
        problem.X[V], problem.bias, weights
    ), V


def svr_line_search(problem, w, s, residuals, change, promised):
    """armijo_step for eq. (eq-lsvr-primal): the shortfalls are the
    distances max(0, abs(r_i) - epsilon) outside the tube along s."""
    return armijo_step(
        problem,
        w,
        s,
        lambda step: np.maximum(
            0.0, np.abs(residuals + step * change) - problem.epsilon
        ),
        promised,
    )


def svr_primal_result(problem, w, residuals, n_iter, status):
    """The SolverResult of Newton's method: w, b = bias w_(d+1), the
    primal objective, the steps, the status, and the dual point beta_i =
    2 C_i S_epsilon(y_i - wbar'xbar_i) of eq. (eq-lsvr-beta)."""
    r = -residuals
    beta = 2.0 * problem.C * np.sign(r)
    beta *= np.maximum(np.abs(r) - problem.epsilon, 0.0)
    return SolverResult(
        alpha=beta,
        b=problem.bias * w[-1],
        objective=svr_primal_objective(problem, w),
        n_iter=n_iter,
        status=status,
        w=w[:-1],
    )


def svr_newton(problem, tol=1e-4, max_iter=1000):
    """Newton's method on eq. (eq-lsvr-primal) with the squared loss:
    directions by cg_newton_direction (the generalised Hessian has the
    form of eq. (eq-primal-hessian) over the points V outside the tube),
    steps by svr_line_search, until ||g|| <= tol ||g_0||, eq.
    (eq-lsvr-newton-stopping), or ``max_iter`` steps."""
    if problem.loss != "squared_epsilon_insensitive":
        raise ValueError(
            "the primal solver takes "
            "loss='squared_epsilon_insensitive' only"
        )
    n, d = problem.X.shape
    w, residuals = np.zeros(d + 1), -problem.y.copy()
    g, V = svr_primal_gradient(problem, w, residuals)
    g0_norm = np.sqrt(g @ g)
    check_finite(problem, g0_norm)
    n_iter, status = 0, Status.MAX_ITER
    while True:
        if np.sqrt(g @ g) <= tol * g0_norm:
            status = Status.OPTIMAL
            break
        if n_iter == max_iter:
            break
        forcing = forcing_term(np.sqrt(g @ g), g0_norm)
        s = cg_newton_direction(problem, V, g, forcing)
        check_finite(problem, s)
        change = folded_product(problem.X, problem.bias, s)
        step = svr_line_search(problem, w, s, residuals, change, g @ s)
        if step is None:  # no decrease: round-off has taken over
            status = Status.INACCURATE
            break
        w, residuals = w + step * s, residuals + step * change
        g, V = svr_primal_gradient(problem, w, residuals)
        check_finite(problem, np.sqrt(g @ g))
        n_iter += 1
    return svr_primal_result(problem, w, residuals, n_iter, status)
