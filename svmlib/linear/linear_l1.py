# Generated from chapters/linear_l1.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""The L1-regularised squared-hinge SVM and its one-variable Newton step,
in numpy (chapter "Sparse linear models: the L1 penalty")."""

import numpy as np
from scipy import sparse

from svmlib.linear.linear_dcd import NO_STEP_BELOW, decision_values


DECREASE_SHARE = 0.01  # sigma: the share of the promised change to win
L1_MAX_HALVINGS = 20  # halvings of a coordinate step before giving up
MIN_CURVATURE = 1e-12  # the floor of H_j, for columns with no loss


def check_l1_loss(problem):
    """A ValueError unless the problem's loss is the squared hinge, the
    loss of eq. (eq-l1-primal)."""
    if problem.loss != "squared_hinge":
        raise ValueError(
            "the L1-regularised solver takes loss='squared_hinge' only "
            f"(LIBLINEAR's -s 5); got loss={problem.loss!r}"
        )


def l1_objective(problem, w):
    """F of eq. (eq-l1-primal): ||wbar||_1 + sum_i C_i max(0, 1 - y_i
    wbar'xbar_i)^2, wbar of length d + 1."""
    shortfall = 1.0 - problem.y * decision_values(problem, w)
    losses = np.maximum(shortfall, 0.0) ** 2
    return float(np.abs(w).sum() + problem.C @ losses)


def feature_columns(problem):
    """The columns of Xbar, the coordinates of eq. (eq-l1-one-variable):
    (dense, csc), the transposed array and None, or an empty array and
    the CSC arrays (data, indices, indptr); the constant column ``bias``
    is appended when it is positive.  A copy of the data, as LIBLINEAR
    makes one."""
    X, n = problem.X, problem.X.shape[0]
    if sparse.issparse(X):
        if problem.bias > 0:
            X = sparse.hstack([X, np.full((n, 1), problem.bias)])
        csc = sparse.csc_matrix(X, dtype=float)
        csc.sort_indices()
        return np.empty((0, 0)), (csc.data, csc.indices, csc.indptr)
    columns = X.T
    if problem.bias > 0:
        columns = np.vstack([columns, np.full((1, n), problem.bias)])
    return np.ascontiguousarray(columns, dtype=float), None


def column_entries(dense, csc, j):
    """The non-zeros of column j of Xbar as (values, rows), all that eqs.
    (eq-l1-gradient) and (eq-l1-hessian) read."""
    if csc is None:
        return dense[j], slice(0, dense.shape[1])
    data, indices, indptr = csc
    start, end = indptr[j], indptr[j + 1]
    return data[start:end], indices[start:end]


def curvature_bounds(dense, csc, C):
    """Hbar_j = sum_i C_i xbar_ij^2 of every column, eq. (eq-l1-upper):
    half the largest second derivative the losses can have along j."""
    if csc is None:
        return (dense**2) @ C
    data, indices, indptr = csc
    column = np.repeat(np.arange(indptr.size - 1), np.diff(indptr))
    return np.bincount(
        column, C[indices] * data**2, minlength=indptr.size - 1
    )


def coordinate_derivatives(values, rows, y, C, r):
    """g = L_j'(0) and h = H_j of eqs. (eq-l1-gradient) and
    (eq-l1-hessian) from column j's entries and the shortfalls r_i = 1 -
    y_i wbar'xbar_i; h no smaller than MIN_CURVATURE."""
    r_j = r[rows]
    violating = r_j > 0  # the other points' losses are flat here
    x = values[violating]
    Cx = C[rows][violating] * x
    g = -2.0 * Cx @ (y[rows][violating] * r_j[violating])
    h = 2.0 * Cx @ x
    return float(g), max(float(h), MIN_CURVATURE)


def soft_threshold_direction(w_j, g, h):
    """s of eq. (eq-l1-direction), the minimiser of g s + h s^2 / 2 +
    abs(w_j + s): w_j + s is w_j - g / h soft-thresholded at 1 / h."""
    if g + 1.0 <= h * w_j:
        return -(g + 1.0) / h
    if g - 1.0 >= h * w_j:
        return -(g - 1.0) / h
    return -w_j


def coordinate_step(values, rows, y, C, r, w_j, g, s, Hbar_j):
    """The step t, the first of s, s/2, s/4, ... that meets eq.
    (eq-l1-armijo): tested on the bound of eq. (eq-l1-upper), which
    costs nothing, then on the losses' change over column j's entries.
    0.0 if L1_MAX_HALVINGS halvings do not get there."""
    promised = g * s + abs(w_j + s) - abs(w_j)  # the hat Delta F
    yx, r_j, C_j = y[rows] * values, r[rows], C[rows]
    old = np.maximum(r_j, 0.0)
    t = s
    for _ in range(L1_MAX_HALVINGS):
        penalty = abs(w_j + t) - abs(w_j)
        target = DECREASE_SHARE * (t / s) * promised
        if g * t + Hbar_j * t * t + penalty <= target:
            return t
        new = np.maximum(r_j - t * yx, 0.0)
        if C_j @ ((new - old) * (new + old)) + penalty <= target:
            return t
        t /= 2
    return 0.0


def min_norm_subgradient(w_j, g):
    """abs(grad^S_j F) of eq. (eq-l1-subgradient), g = L_j'(0): zero exactly
    when w_j is optimal with the other weights fixed."""
    if w_j > 0:
        return abs(g + 1.0)
    if w_j < 0:
        return abs(g - 1.0)
    return max(abs(g) - 1.0, 0.0)


def l1_sweep_numpy(
    dense, csc, y, C, r, w, Hbar, order, n_active, shrink_margin
):
    """One pass of CDN over order[:n_active]: eq. (eq-l1-direction),
    coordinate_step, the shortfalls r kept up to date; a coordinate is
    shrunk by eq. (eq-l1-shrink).  Returns n_active and the largest and
    the sum of the abs(grad^S_j F) met, eq. (eq-l1-subgradient)."""
    largest, total, s = 0.0, 0.0, 0
    while s < n_active:
        j = order[s]
        values, rows = column_entries(dense, csc, j)
        g, h = coordinate_derivatives(values, rows, y, C, r)
        if w[j] == 0.0 and abs(g) < 1.0 - shrink_margin:
            n_active -= 1  # shrink j: swap it behind the active ones
            order[s], order[n_active] = order[n_active], order[s]
            continue
        violation = min_norm_subgradient(w[j], g)
        largest, total = max(largest, violation), total + violation
        s += 1
        direction = soft_threshold_direction(w[j], g, h)
        if abs(direction) <= NO_STEP_BELOW:
            continue
        t = coordinate_step(
            values, rows, y, C, r, w[j], g, direction, Hbar[j]
        )
        r[rows] -= t * y[rows] * values
        w[j] += t
    return n_active, largest, total
