# Generated from chapters/regression_novelty.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""epsilon-SVR and the one-class SVM as instances of the core QP (chapter
"Regression and novelty detection")."""

import numbers

import numpy as np

from svmlib.derivation.hinge import check_C
from svmlib.kernels.functions import Kernel
from svmlib.kernels.kernel_rows import GramRows, rows_for_points
from svmlib.smo.solver import QPProblem
from svmlib.validation import check_matrix


class DoubledRows:
    """Rows of the 2n x 2n matrix S = [[K, K], [K, K]] of eq.
    (eq-svr-core), from the rows of K (a KernelRows or GramRows): variable
    t and variable t + n belong to the same point."""

    def __init__(self, rows):
        self.rows = rows
        self.n_samples = 2 * rows.n_samples
        self.storage = rows.storage
        self.rows_per_block = rows.rows_per_block
        self.point = np.tile(np.arange(rows.n_samples), 2)
        self.diagonal = rows.diagonal[self.point]

    def compute(self, indices, out, columns=None):
        """out[k] = S[indices[k]], or its entries in ``columns``: each
        kernel value is computed once, for the distinct points, and then
        copied where S repeats it."""
        points = self.point[np.asarray(indices)]
        rows, row_of = np.unique(points, return_inverse=True)
        n = self.rows.n_samples
        if columns is None:  # whole rows: a row of K written twice
            distinct = self.rows.compute(
                rows, np.empty((rows.size, n), dtype=out.dtype)
            )
            distinct = distinct[row_of]  # in the order asked for
            out[:, :n], out[:, n:] = distinct, distinct
            return out
        columns, column_of = np.unique(
            self.point[columns], return_inverse=True
        )
        distinct = np.empty((rows.size, columns.size), dtype=out.dtype)
        self.rows.compute(rows, distinct, columns=columns)
        out[...] = distinct[np.ix_(row_of, column_of)]
        return out


def training_rows(X, kernel):
    """The rows of K for the training data: KernelRows of the points
    (SparseKernelRows if they are sparse), or
    GramRows of a precomputed (square, finite) matrix."""
    if isinstance(kernel, str) and kernel == "precomputed":
        K = check_matrix(X, name="K")
        if K.shape[0] != K.shape[1]:
            raise ValueError(
                f"a precomputed kernel must be square; got shape {K.shape}"
            )
        return GramRows(K)
    if isinstance(kernel, Kernel):
        return rows_for_points(kernel, X)
    raise ValueError(
        f"kernel must be a Kernel or 'precomputed'; got {kernel!r}"
    )


def check_epsilon(epsilon):
    """The half-width of the tube as a float: non-negative and finite."""
    if (
        isinstance(epsilon, bool)
        or not isinstance(epsilon, numbers.Real)
        or not 0 <= epsilon < np.inf
    ):
        raise ValueError(
            f"epsilon must be a non-negative number; got {epsilon!r}"
        )
    return float(epsilon)


def check_nu(nu):
    """nu as a float in (0, 1]."""
    if (
        isinstance(nu, bool)
        or not isinstance(nu, numbers.Real)
        or not 0 < nu <= 1
    ):
        raise ValueError(f"nu must be in (0, 1]; got {nu!r}")
    return float(nu)


def check_targets(y, n):
    """Regression targets: n finite numbers."""
    y = np.asarray(y, dtype=float)
    if y.shape != (n,):
        raise ValueError(
            f"y must hold one number per training point ({n}); "
            f"got shape {y.shape}"
        )
    if not np.isfinite(y).all():
        raise ValueError("y contains NaN or infinite values")
    return y


def fill_in_order(bounds, total):
    """Multipliers that add up to ``total``, each raised to its bound in
    turn (LIBSVM's feasible start for a fixed sum)."""
    before = np.cumsum(bounds) - bounds  # the sum of the earlier bounds
    return np.clip(total - before, 0.0, bounds)


def unit_weights(sample_weight, n):
    """The sample weights as an array, all ones for None (the estimators
    have checked them and left out the points of weight 0)."""
    return np.ones(n) if sample_weight is None else sample_weight


def svr_problem(X, y, C, epsilon, kernel="precomputed", sample_weight=None):
    """The epsilon-SVR dual, eq. (eq-svr-core), as (Q, p, y, C): 2n
    variables (alpha, alpha*), S = [[K, K], [K, K]], p = (epsilon - y,
    epsilon + y), labels (+1, -1), bounds C (C w_t with sample weights w,
    both variables of a point), start 0."""
    C, epsilon = check_C(C), check_epsilon(epsilon)
    rows = training_rows(X, kernel)
    n = rows.n_samples
    y = check_targets(y, n)
    return QPProblem(
        Q=DoubledRows(rows),
        p=np.concatenate([epsilon - y, epsilon + y]),
        y=np.concatenate([np.ones(n), -np.ones(n)]),
        C=np.tile(C * unit_weights(sample_weight, n), 2),
        alpha0=np.zeros(2 * n),
    )


def svr_coefficients(alpha):
    """alpha - alpha* of the 2n multipliers: the coefficients of f, eq.
    (eq-svr-decision)."""
    n = alpha.shape[0] // 2
    return alpha[:n] - alpha[n:]


def one_class_start(n, nu):
    """A feasible start for eq. (eq-one-class-core): sum(alpha) = nu n
    with 0 <= alpha <= 1, the first floor(nu n) at 1 (LIBSVM's)."""
    return fill_in_order(np.ones(n), nu * n)


def one_class_problem(X, nu, kernel="precomputed", sample_weight=None):
    """The one-class dual, eq. (eq-one-class-core), as (Q, p, y, C): S = K,
    p = 0, labels +1, bounds 1, and the start of one_class_start; with
    sample weights w, bounds w and sum nu sum(w) (LIBSVM's rule)."""
    nu = check_nu(nu)
    rows = training_rows(X, kernel)
    n = rows.n_samples
    if sample_weight is None:
        bounds, alpha0 = np.ones(n), one_class_start(n, nu)
    else:
        bounds = sample_weight
        alpha0 = fill_in_order(bounds, nu * bounds.sum())
    return QPProblem(
        Q=rows, p=np.zeros(n), y=np.ones(n), C=bounds, alpha0=alpha0
    )
