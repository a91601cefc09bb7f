# Generated from chapters/linear_scale.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""The linear SVM's dual and dual coordinate descent in numpy (chapter
"Linear SVMs at scale")."""

import numbers
from dataclasses import dataclass

import numpy as np
from scipy import sparse

from svmlib.derivation.hinge import check_C
from svmlib.kernels.functions import squared_norms
from svmlib.result import SolverResult, Status
from svmlib.validation import check_binary_labels, check_matrix


LOSSES = ("hinge", "squared_hinge")


def check_loss(loss):
    """``loss`` if it is "hinge" or "squared_hinge", else a ValueError."""
    if not (isinstance(loss, str) and loss in LOSSES):
        raise ValueError(
            f"loss must be 'hinge' or 'squared_hinge'; got {loss!r}"
        )
    return loss


def check_bias(bias):
    """The constant feature appended to every point: a non-negative,
    finite number (0: no offset)."""
    if (
        isinstance(bias, bool)
        or not isinstance(bias, numbers.Real)
        or not 0 <= bias < np.inf
    ):
        raise ValueError(
            f"bias must be a non-negative number; got {bias!r}"
        )
    return float(bias)


def point_costs(C, n):
    """C_i of every point: one positive number for all, or an array of n
    non-negative, finite numbers (a point with C_i = 0 is left out)."""
    if np.ndim(C) == 0:
        return np.full(n, check_C(C))
    C = np.asarray(C, dtype=float)
    if C.shape != (n,):
        raise ValueError(
            f"C must be a number or hold one per point ({n}); "
            f"got shape {C.shape}"
        )
    if not np.isfinite(C).all() or (C < 0).any() or not (C > 0).any():
        raise ValueError(
            "C must be non-negative and finite, and positive somewhere"
        )
    return C


@dataclass(frozen=True, eq=False)
class LinearProblem:
    """A linear SVM's training problem, eqs. (eq-dcd-primal) and
    (eq-dcd-dual): the points ``X`` (an array or a CSR matrix), labels
    ``y`` in {-1, +1}, the cost ``C`` of each point, the loss, the
    constant feature ``bias`` (0: no offset), and the dual's bounds
    ``U``, diagonal ``D`` and curvatures ``Qbar_diag``."""

    X: np.ndarray | sparse.csr_matrix
    y: np.ndarray
    C: np.ndarray
    loss: str
    bias: float
    U: np.ndarray
    D: np.ndarray
    Qbar_diag: np.ndarray

    @property
    def rows(self):
        """(dense, csr) for the passes: the array and None, or an empty
        array and the CSR arrays (data, indices, indptr)."""
        if sparse.issparse(self.X):
            csr = (self.X.data, self.X.indices, self.X.indptr)
            return np.empty((0, 0)), csr
        return self.X, None

    @property
    def kept(self):
        """The points the solvers visit: C_i > 0 and Qbar_ii > 0."""
        return np.flatnonzero((self.C > 0) & (self.Qbar_diag > 0))


def problem_from_checked(X, y, C, loss, bias, norms):
    """The problem of eq. (eq-dcd-dual) from checked inputs: U_i = C_i
    and D_ii = 0 for the hinge, U_i = inf and D_ii = 1 / (2 C_i) for the
    squared hinge, Qbar_ii = ||x_i||^2 + bias^2 + D_ii, eq.
    (eq-dcd-gradient); ``norms`` holds the ||x_i||^2."""
    kept = C > 0
    D = np.zeros_like(C)
    if loss == "hinge":
        U = C.copy()
    else:
        U = np.full_like(C, np.inf)
        D[kept] = 0.5 / C[kept]
    return LinearProblem(X, y, C, loss, bias, U, D, norms + bias**2 + D)


def linear_problem(X, y, C=1.0, loss="squared_hinge", bias=1.0):
    """The problem of eq. (eq-dcd-dual) for the points X (an array, or a
    SciPy sparse matrix, kept as CSR), labels y in {-1, +1}, the cost C
    (a number, or one per point), the loss, and the constant feature
    ``bias`` appended to every point (0: no offset)."""
    X = check_matrix(X, accept_sparse=True)
    if not sparse.issparse(X):
        X = np.ascontiguousarray(X)
    y = check_binary_labels(y, X.shape[0])
    C = point_costs(C, y.shape[0])
    loss, bias = check_loss(loss), check_bias(bias)
    return problem_from_checked(X, y, C, loss, bias, squared_norms(X))


def folded_weights(result, bias):
    """wbar, of length d + 1 (the constant feature's weight last), from
    a solver's result (w and b = bias w_(d+1))."""
    return np.append(result.w, result.b / bias if bias else 0.0)


def decision_values(problem, w):
    """wbar'xbar_i for every point, wbar of length d + 1."""
    return problem.X @ w[:-1] + problem.bias * w[-1]


def linear_primal_objective(problem, w):
    """Jbar of eq. (eq-dcd-primal): 1/2 ||wbar||^2 + sum_i C_i times the
    hinge (or its square) of y_i wbar'xbar_i, wbar of length d + 1."""
    slack = np.maximum(0.0, 1.0 - problem.y * decision_values(problem, w))
    losses = slack if problem.loss == "hinge" else slack**2
    return float(0.5 * w @ w + problem.C @ losses)


def linear_dual_objective(problem, alpha, w):
    """D(alpha) of eq. (eq-dcd-dual), 1/2 alpha'(Q + D) alpha - sum(alpha),
    from wbar = sum_i alpha_i y_i xbar_i, eq. (eq-dcd-w)."""
    kept = problem.C > 0
    return float(
        0.5 * w @ w + 0.5 * problem.D[kept] @ alpha[kept] ** 2 - alpha.sum()
    )


NO_STEP_BELOW = 1e-12  # a projected gradient this small moves nothing


def row_entries(dense, csr, i):
    """The non-zeros of row i as (values, columns), all that eqs.
    (eq-dcd-gradient) and (eq-dcd-w-update) read: of a CSR matrix its
    stored entries, of an array the whole row."""
    if csr is None:
        return dense[i], slice(0, dense.shape[1])
    data, indices, indptr = csr
    start, end = indptr[i], indptr[i + 1]
    return data[start:end], indices[start:end]


def sweep_numpy(
    dense,
    csr,
    y,
    alpha,
    w,
    bias,
    Qbar_diag,
    D,
    U,
    order,
    n_active,
    G_max,
    G_min,
):
    """One pass over order[:n_active]: steps (eq-dcd-step) with G_i of eq.
    (eq-dcd-gradient), wbar by eq. (eq-dcd-w-update), shrinking by eq.
    (eq-dcd-shrink).  Returns n_active and the pass's extreme PG_i."""
    d = w.shape[0] - 1
    PG_max, PG_min, s = -np.inf, np.inf, 0
    while s < n_active:
        i = order[s]
        values, columns = row_entries(dense, csr, i)
        G = y[i] * (values @ w[columns] + bias * w[d]) - 1 + D[i] * alpha[i]
        at_zero, at_top = alpha[i] == 0.0, alpha[i] == U[i]
        if (at_zero and G > G_max) or (at_top and G < G_min):
            n_active -= 1  # shrink i: swap it behind the active points
            order[s], order[n_active] = order[n_active], order[s]
            continue
        PG = min(G, 0.0) if at_zero else max(G, 0.0) if at_top else G
        PG_max, PG_min = max(PG_max, PG), min(PG_min, PG)
        if abs(PG) > NO_STEP_BELOW:
            new = min(max(alpha[i] - G / Qbar_diag[i], 0.0), U[i])
            step = (new - alpha[i]) * y[i]
            w[columns] += step * values
            w[d] += step * bias
            alpha[i] = new
        s += 1
    return n_active, PG_max, PG_min


def meets_stopping_rule(PG_max, PG_min, tol):
    """eq. (eq-dcd-stopping), LIBLINEAR 2.50's rule: the largest absolute
    PG_i, max(PG_max, -PG_min), and the spread PG_max - PG_min both at most
    tol."""
    return max(PG_max, -PG_min) <= tol and PG_max - PG_min <= tol


def projected_gradients(problem, alpha, w):
    """PG_i of eq. (eq-dcd-projected) of the points the solvers visit
    (problem.kept), computed afresh from alpha and wbar: G = y * (Xbar
    wbar) - 1 + D alpha, one product with the whole of X."""
    kept = problem.kept
    G = problem.y[kept] * decision_values(problem, w)[kept] - 1.0
    G += problem.D[kept] * alpha[kept]
    at_zero, at_top = alpha[kept] == 0.0, alpha[kept] == problem.U[kept]
    return np.where(
        at_zero, np.minimum(G, 0.0), np.where(at_top, np.maximum(G, 0.0), G)
    )


def dcd_pass(problem, sweep, alpha, w, order, n_active, G_max, G_min):
    """One pass of ``sweep`` over order[:n_active] on the problem's
    arrays: the new n_active and the pass's largest and smallest PG_i."""
    return sweep(
        *problem.rows,
        problem.y,
        alpha,
        w,
        problem.bias,
        problem.Qbar_diag,
        problem.D,
        problem.U,
        order,
        n_active,
        G_max,
        G_min,
    )


def dcd_confirmed(problem, alpha, w, tol):
    """Whether the PG_i of every point the solvers visit, computed afresh
    from alpha and wbar, meet eq. (eq-dcd-stopping) (true if there are
    none)."""
    PG = projected_gradients(problem, alpha, w)
    return PG.size == 0 or meets_stopping_rule(PG.max(), PG.min(), tol)


def dual_result(problem, alpha, w, n_iter, status):
    """The SolverResult of dual coordinate descent: alpha, w (d weights),
    b = bias w_(d+1), the dual objective D(alpha), the passes and the
    status."""
    return SolverResult(
        alpha=alpha,
        b=problem.bias * w[-1],
        objective=linear_dual_objective(problem, alpha, w),
        n_iter=n_iter,
        status=status,
        w=w[:-1],
    )


def dual_cd(
    problem,
    sweep,
    tol=1e-4,
    max_iter=1000,
    shrinking=True,
    seed=None,
    callback=None,
):
    """Dual coordinate descent (Hsieh et al. 2008) on eq. (eq-dcd-dual):
    passes of ``sweep`` in a new random order each (``seed``), shrinking
    by eq. (eq-dcd-shrink), until dcd_confirmed or ``max_iter`` passes
    end it; ``callback(visited, PG_max, PG_min)`` after each pass.
    Returns dual_result's SolverResult (alpha, w, b, D(alpha), passes)."""
    rng = np.random.default_rng(seed)
    n, d = problem.X.shape
    alpha, w = np.zeros(n), np.zeros(d + 1)
    order = problem.kept
    n_all = n_active = order.size
    G_max, G_min = np.inf, -np.inf
    n_iter, status = 0, Status.MAX_ITER
    while n_iter < max_iter:
        rng.shuffle(order[:n_active])
        visited = n_active
        n_active, PG_max, PG_min = dcd_pass(
            problem, sweep, alpha, w, order, n_active, G_max, G_min
        )
        if callback is not None:
            callback(visited, PG_max, PG_min)
        n_iter += 1
        if meets_stopping_rule(PG_max, PG_min, tol):
            if n_active == n_all and dcd_confirmed(problem, alpha, w, tol):
                status = Status.OPTIMAL
                break
            n_active, G_max, G_min = n_all, np.inf, -np.inf
        elif shrinking:
            G_max = PG_max if PG_max > 0 else np.inf
            G_min = PG_min if PG_min < 0 else -np.inf
    return dual_result(problem, alpha, w, n_iter, status)
