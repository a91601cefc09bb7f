# Generated from chapters/soft_margin.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""Soft-margin primal and dual via cvxopt (chapter "The soft margin")."""

import numpy as np

from svmlib.derivation.primal import centre_and_scale
from svmlib.derivation.qp import (
    MAX_QP_ITERATIONS,
    QP_TOLERANCE,
    solve_qp,
    solver_status,
)
from svmlib.result import SolverResult
from svmlib.validation import check_binary_problem
from svmlib.derivation.dual import (
    check_conditionally_positive_semidefinite,
    check_gram,
    dual_objective,
    gram_scale,
    shift_to_positive_semidefinite,
)
from svmlib.derivation.hinge import check_C
from svmlib.derivation.intercept import intercept_from_kkt


def soft_margin_primal(X, y, C, tol=QP_TOLERANCE):
    """Solve the soft-margin primal eq. (eq-soft-primal) as the QP eq.
    (eq-soft-primal-qp) with cvxopt.

    The QP is solved on centred features divided by their largest entry
    ``s``, with C s^2 in place of C, and the answer mapped back.  Returns a
    SolverResult with ``w``, ``b``, the objective 1/2 ||w||^2 + C sum(xi)
    and, as ``alpha``, the multipliers of the margin constraints.
    """
    X, y = check_binary_problem(X, y)
    C = check_C(C)
    X_tilde, mean, scale = centre_and_scale(X)
    scale = scale or 1.0
    n, d = X.shape
    P = np.zeros((d + 1 + n, d + 1 + n))
    P[:d, :d] = np.eye(d)
    q = np.concatenate([np.zeros(d + 1), np.full(n, C * scale**2)])
    margin_rows = np.hstack(
        [-y[:, None] * X_tilde, -y[:, None], -np.eye(n)]
    )
    slack_rows = np.hstack([np.zeros((n, d + 1)), -np.eye(n)])
    A_ub = np.vstack([margin_rows, slack_rows])
    b_ub = np.concatenate([-np.ones(n), np.zeros(n)])
    solution = solve_qp(P, q, A_ub, b_ub, tol=tol)
    w = solution.x[:d] / scale
    b = float(solution.x[d] - w @ mean)
    alpha = np.clip(solution.z[:n] / scale**2, 0.0, C)
    return SolverResult(
        alpha=alpha,
        b=b,
        objective=solution.objective / scale**2,
        n_iter=solution.n_iter,
        status=solver_status(solution),
        w=w,
    )


def soft_margin_dual(K, y, C, tol=QP_TOLERANCE, max_iter=MAX_QP_ITERATIONS):
    """Solve the soft-margin dual eq. (eq-soft-dual) for a Gram matrix ``K``
    as the QP eq. (eq-soft-dual-qp) with cvxopt.

    Returns a SolverResult with ``alpha``, ``b`` from LIBSVM's rule eq.
    (eq-rho), and the objective in LIBSVM's minimisation form.  ``max_iter``
    caps cvxopt's iterations.  ``K`` need only be conditionally positive
    semidefinite.
    """
    K, y = check_gram(K, y)
    check_conditionally_positive_semidefinite(K)
    C = check_C(C)
    n = y.shape[0]
    convex = shift_to_positive_semidefinite(K)
    scale = gram_scale(convex)
    Q = np.outer(y, y) * (convex / scale)
    A_ub = np.vstack([-np.eye(n), np.eye(n)])
    b_ub = np.concatenate([np.zeros(n), np.full(n, C * scale)])
    solution = solve_qp(
        Q,
        -np.ones(n),
        A_ub,
        b_ub,
        A_eq=y,
        b_eq=0.0,
        tol=tol,
        max_iter=max_iter,
    )
    alpha = np.clip(solution.x / scale, 0.0, C)
    return SolverResult(
        alpha=alpha,
        b=intercept_from_kkt(K, y, alpha, C),
        objective=dual_objective(K, y, alpha),
        n_iter=solution.n_iter,
        status=solver_status(solution),
    )
