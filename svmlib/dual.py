# Generated from chapters/duality.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""The hard-margin dual on a Gram matrix (chapter "Lagrangian duality")."""

import numpy as np

from svmlib.primal import (
    SEPARABILITY_TOLERANCE,
    NotSeparableError,
    separability_margin,
)
from svmlib.qp import QP_TOLERANCE, solve_qp, solver_status
from svmlib.result import SolverResult
from svmlib.validation import check_binary_labels, check_matrix


PSD_RTOL = 1e-10


class NotPositiveSemidefiniteError(ValueError):
    """A Gram matrix given to a QP-based dual solver has a clearly negative
    eigenvalue."""


def check_gram(K, y):
    """Validate a Gram matrix and its labels: K square, symmetric and
    finite, one label per row."""
    K = check_matrix(K, name="K")
    if K.shape[0] != K.shape[1]:
        raise ValueError(
            f"the Gram matrix K must be square; got shape {K.shape}"
        )
    if not np.allclose(K, K.T, rtol=1e-10, atol=1e-12 * np.abs(K).max()):
        raise ValueError("the Gram matrix K must be symmetric")
    return K, check_binary_labels(y, K.shape[0])


def check_positive_semidefinite(K, rtol=PSD_RTOL):
    """Raise NotPositiveSemidefiniteError unless the smallest eigenvalue of
    the symmetric matrix ``K`` is at least ``-rtol`` times its largest
    absolute eigenvalue (the dual QP is then convex)."""
    eigenvalues = np.linalg.eigvalsh(K)
    if eigenvalues[0] < -rtol * np.abs(eigenvalues).max():
        raise NotPositiveSemidefiniteError(
            "the Gram matrix is not positive semidefinite (smallest "
            f"eigenvalue {eigenvalues[0]:.3g}, largest "
            f"{eigenvalues[-1]:.3g}), so the dual QP is not convex and "
            "cvxopt cannot solve it reliably. Kernels such as the sigmoid "
            "produce such matrices; use a positive semidefinite kernel "
            "(linear, polynomial with coef0 >= 0, RBF, exponential)."
        )


SUPPORT_RTOL = 1e-6


def dual_objective(K, y, alpha):
    """The dual objective in LIBSVM's minimisation form, 1/2 alpha'Q alpha -
    sum(alpha), eq. (eq-hard-margin-dual)."""
    v = alpha * y
    return float(0.5 * v @ K @ v - alpha.sum())


def support_indices(alpha, rtol=SUPPORT_RTOL):
    """Indices of the support vectors: multipliers above ``rtol`` times the
    largest one."""
    alpha = np.asarray(alpha, dtype=float)
    return np.flatnonzero(alpha > rtol * alpha.max())


def intercept_from_support(K, y, alpha, support):
    """b averaged over the given support vectors: mean of y_j - sum_i
    alpha_i y_i K_ij."""
    support = np.asarray(support, dtype=int)
    if support.size == 0:
        raise ValueError(
            "no support vectors were given, so b cannot be recovered "
            "from them"
        )
    return float(np.mean(y[support] - K[support] @ (alpha * y)))


def hard_margin_dual(K, y, tol=QP_TOLERANCE):
    """Solve the hard-margin dual eq. (eq-hard-margin-dual) for a Gram
    matrix ``K`` with cvxopt.

    Returns a SolverResult with ``alpha``, ``b`` (from the support vectors)
    and the objective in LIBSVM's minimisation form.  Raises
    NotSeparableError when the classes cannot be separated in the feature
    space of ``K``.
    """
    K, y = check_gram(K, y)
    check_positive_semidefinite(K)
    if separability_margin(K, y) <= SEPARABILITY_TOLERANCE:
        raise NotSeparableError(
            "the data are not separable in the feature space of this Gram "
            "matrix, so the hard-margin dual is unbounded. Use a "
            "soft-margin solver, which allows margin violations."
        )
    n = y.shape[0]
    scale = float(np.abs(np.diag(K)).max())
    Q = np.outer(y, y) * (K / scale)
    solution = solve_qp(
        Q, -np.ones(n), -np.eye(n), np.zeros(n), A_eq=y, b_eq=0.0, tol=tol
    )
    alpha = np.maximum(solution.x, 0.0) / scale
    b = intercept_from_support(K, y, alpha, support_indices(alpha))
    return SolverResult(
        alpha=alpha,
        b=b,
        objective=dual_objective(K, y, alpha),
        n_iter=solution.n_iter,
        status=solver_status(solution),
    )
