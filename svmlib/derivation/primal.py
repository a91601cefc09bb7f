# Generated from chapters/margins.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""The hard-margin primal problem solved as a QP (chapter "Margins")."""

import numpy as np

from svmlib.derivation.qp import QP_TOLERANCE, solve_lp, solve_qp, solver_status
from svmlib.result import SolverResult
from svmlib.validation import check_binary_problem


SEPARABILITY_TOLERANCE = 1e-7


class NotSeparableError(ValueError):
    """The hard margin was asked of data that no hyperplane separates."""


def centre_and_scale(X):
    """Centre X and divide it by its largest absolute entry: returns
    (X_tilde, mean, scale), the change of variables of eq. (eq-unscale).  A
    scale of 0 means all points coincide."""
    mean = X.mean(axis=0)
    centred = X - mean
    scale = float(np.abs(centred).max())
    return (centred / scale if scale > 0 else centred), mean, scale


def separability_margin(X, y):
    """The optimal value t* of the linear program eq. (eq-separability-lp),
    on X centred and rescaled: positive exactly when the data are strictly
    linearly separable."""
    X, y = check_binary_problem(X, y)
    X_tilde, _, scale = centre_and_scale(X)
    if scale == 0.0:
        return 0.0
    n, d = X.shape
    signed = y[:, None] * np.hstack([X_tilde, np.ones((n, 1))])
    box = np.hstack([np.eye(d + 1), np.zeros((d + 1, 1))])
    A_ub = np.vstack([np.hstack([-signed, np.ones((n, 1))]), box, -box])
    b_ub = np.concatenate([np.zeros(n), np.ones(2 * (d + 1))])
    c = np.concatenate([np.zeros(d + 1), [-1.0]])
    return -solve_lp(c, A_ub, b_ub).objective


def hard_margin_primal(X, y, tol=QP_TOLERANCE):
    """Solve the hard-margin primal eq. (eq-hard-margin-primal) as the QP
    eq. (eq-primal-qp-matrices).

    Returns a SolverResult with ``w``, ``b``, the objective 1/2 ||w||^2 and,
    as ``alpha``, the multipliers of the margin constraints.  Raises
    NotSeparableError when no hyperplane separates the two classes.
    """
    X, y = check_binary_problem(X, y)
    certificate = separability_margin(X, y)
    if certificate <= SEPARABILITY_TOLERANCE:
        raise NotSeparableError(
            "the data are not linearly separable (with a margin above "
            f"the tolerance {SEPARABILITY_TOLERANCE:g}), so the "
            "hard-margin problem has no solution: no hyperplane puts "
            "every point strictly on the side of its label. Use a "
            "soft-margin solver, which allows margin violations."
        )
    X_tilde, mean, scale = centre_and_scale(X)
    n, d = X.shape
    P = np.zeros((d + 1, d + 1))
    P[:d, :d] = np.eye(d)
    A_ub = -y[:, None] * np.hstack([X_tilde, np.ones((n, 1))])
    solution = solve_qp(P, np.zeros(d + 1), A_ub, -np.ones(n), tol=tol)
    w = solution.x[:d] / scale
    b = float(solution.x[d] - w @ mean)
    return SolverResult(
        alpha=solution.z / scale**2,
        b=b,
        objective=0.5 * float(w @ w),
        n_iter=solution.n_iter,
        status=solver_status(solution),
        w=w,
    )
