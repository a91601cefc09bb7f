# Generated from chapters/duality.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""The hard-margin dual on a Gram matrix (chapter "Lagrangian duality")."""

import numpy as np

from svmlib.derivation.primal import (
    SEPARABILITY_TOLERANCE,
    NotSeparableError,
    separability_margin,
)
from svmlib.derivation.qp import QP_TOLERANCE, solve_qp, solver_status
from svmlib.result import SolverResult
from svmlib.validation import check_binary_labels, check_matrix


PSD_RTOL = 1e-10
# How many times shift_to_positive_semidefinite may double its shift.
MAX_SHIFT_DOUBLINGS = 80


class NotPositiveSemidefiniteError(ValueError):
    """A Gram matrix given to a QP-based dual solver is not even
    conditionally positive semidefinite: the dual is not convex on its
    feasible set."""


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


def centred(K):
    """P K P with P = I - 11'/n: the quadratic form of ``K`` on the vectors
    whose entries sum to zero (and 0 along the vector of ones)."""
    return K - K.mean(axis=0) - K.mean(axis=1)[:, None] + K.mean()


def is_positive_semidefinite(K, rtol=PSD_RTOL):
    """Whether the smallest eigenvalue of the symmetric ``K`` is at least
    ``-rtol`` times its largest absolute eigenvalue."""
    eigenvalues = np.linalg.eigvalsh(K)
    return bool(eigenvalues[0] >= -rtol * np.abs(eigenvalues).max())


def check_conditionally_positive_semidefinite(K, rtol=PSD_RTOL):
    """Raise NotPositiveSemidefiniteError unless u'Ku >= 0 for every u with
    sum(u) = 0 (up to ``rtol`` relative to K's largest eigenvalue): the
    dual is convex on its feasible set exactly then, eq. (eq-cpd)."""
    smallest = np.linalg.eigvalsh(centred(K))[0]
    largest = np.abs(np.linalg.eigvalsh(K)).max()
    if smallest < -rtol * largest:
        raise NotPositiveSemidefiniteError(
            "the Gram matrix is not conditionally positive semidefinite "
            f"(u'Ku = {smallest:.3g} u'u for some u with sum(u) = 0, "
            f"against a largest eigenvalue of {largest:.3g}), so the "
            "dual is not convex on its feasible set and cvxopt cannot "
            "solve it reliably. Kernels such as the sigmoid produce such "
            "matrices; use a (conditionally) positive semidefinite kernel "
            "(linear, polynomial with coef0 >= 0, RBF, -||x - z||)."
        )


def shift_to_positive_semidefinite(K, rtol=PSD_RTOL):
    """K + c 11' with the smallest c in 0, c0, 2 c0, 4 c0, ... that makes it
    positive semidefinite (up to ``rtol``).

    On the dual's feasible set, where sum(y * alpha) = 0, the shift leaves
    the objective unchanged (eq. (eq-cpd)), so a conditionally positive
    semidefinite ``K`` can be handed to a solver that needs a convex
    quadratic, such as cvxopt.
    """
    if is_positive_semidefinite(K, rtol):
        return K
    shift = -float(np.linalg.eigvalsh(K)[0])
    for _ in range(MAX_SHIFT_DOUBLINGS):
        shifted = K + shift
        if is_positive_semidefinite(shifted, rtol):
            return shifted
        shift *= 2.0
    raise NotPositiveSemidefiniteError(
        "no shift K + c 11' makes the Gram matrix positive semidefinite; "
        "check it with check_conditionally_positive_semidefinite"
    )


def check_hard_margin_gram(K, y):
    """Validate the input of the hard-margin dual: a Gram matrix ``K``
    (square, symmetric, finite, conditionally positive semidefinite) and
    one label per row, with classes separable in the feature space of
    ``K``.  Returns K and y as arrays; raises NotPositiveSemidefiniteError
    or NotSeparableError."""
    K, y = check_gram(K, y)
    check_conditionally_positive_semidefinite(K)
    if separability_margin(K, y) <= SEPARABILITY_TOLERANCE:
        raise NotSeparableError(
            "the data are not separable in the feature space of this Gram "
            "matrix, so the hard-margin dual is unbounded. Use a "
            "soft-margin solver, which allows margin violations."
        )
    return K, y


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


def gram_scale(K):
    """A positive number of the size of K's entries (its largest diagonal
    entry, or its largest entry when the diagonal is zero), by which the
    QP solvers divide K for conditioning."""
    return float(np.abs(np.diag(K)).max()) or float(np.abs(K).max()) or 1.0


def hard_margin_dual(K, y, tol=QP_TOLERANCE):
    """Solve the hard-margin dual eq. (eq-hard-margin-dual) for a Gram
    matrix ``K`` with cvxopt.

    Returns a SolverResult with ``alpha``, ``b`` (from the support vectors)
    and the objective in LIBSVM's minimisation form.  ``K`` must be
    positive semidefinite; the folded section on conditionally positive
    semidefinite kernels in the chapter "Kernels" says when less suffices.
    Raises NotSeparableError when the classes cannot be separated in the
    feature space of ``K``.
    """
    K, y = check_hard_margin_gram(K, y)
    n = y.shape[0]
    # K is shifted, if need be, to a positive semidefinite matrix with the
    # same objective on the feasible set (box "how svmlib solves the dual"),
    # then divided by its scale to keep cvxopt well posed.
    convex = shift_to_positive_semidefinite(K)
    scale = gram_scale(convex)
    Q = np.outer(y, y) * (convex / scale)
    solution = solve_qp(
        Q, -np.ones(n), -np.eye(n), np.zeros(n), A_eq=y, b_eq=0.0, tol=tol
    )
    alpha = np.maximum(solution.x, 0.0) / scale
    # b averaged over the support vectors, picked relative to max alpha.
    b = intercept_from_support(K, y, alpha, support_indices(alpha))
    return SolverResult(
        alpha=alpha,
        b=b,
        objective=dual_objective(K, y, alpha),
        n_iter=solution.n_iter,
        status=solver_status(solution),
    )
