# Generated from chapters/linear_more.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""Crammer and Singer's multi-class SVM: its dual, one point's
subproblem solved by sorting, and the sequential dual method in numpy
(chapter "More linear models")."""

from dataclasses import dataclass

import numpy as np
from scipy import sparse

from svmlib.kernels.functions import squared_norms
from svmlib.linear.linear_dcd import check_bias, point_costs, row_entries
from svmlib.result import SolverResult, Status
from svmlib.validation import check_matrix


NO_MOVE_BELOW = 1e-12  # a point whose violation is this small stays


@dataclass(frozen=True, eq=False)
class CSProblem:
    """Crammer and Singer's problem, eqs. (eq-cs-primal) and (eq-cs-dual):
    the points ``X`` (an array or CSR matrix), each point's class index
    ``labels`` in 0, ..., n_classes - 1, its cost ``C``, the constant
    feature ``bias`` (0: no offset) and the curvatures ``A`` (A_i =
    ||xbar_i||^2)."""

    X: np.ndarray | sparse.csr_matrix
    labels: np.ndarray
    C: np.ndarray
    bias: float
    n_classes: int
    A: np.ndarray

    @property
    def rows(self):
        """(dense, csr) for the passes, as LinearProblem.rows."""
        if sparse.issparse(self.X):
            csr = (self.X.data, self.X.indices, self.X.indptr)
            return np.empty((0, 0)), csr
        return self.X, None

    @property
    def kept(self):
        """The points the solver visits: C_i > 0 and A_i > 0."""
        return np.flatnonzero((self.C > 0) & (self.A > 0))

    @property
    def bounds(self):
        """C_i^c of eq. (eq-cs-dual): C_i for the point's class, else 0."""
        bounds = np.zeros((self.labels.size, self.n_classes))
        bounds[np.arange(self.labels.size), self.labels] = self.C
        return bounds


def crammer_singer_problem(X, y, C=1.0, bias=1.0):
    """The problem of eq. (eq-cs-dual) for the points X (an array or a
    SciPy sparse matrix, kept as CSR), labels y of at least two distinct
    values (class c is the c-th smallest), the cost C (a number or one
    per point) and the constant feature ``bias``."""
    X = check_matrix(X, accept_sparse=True)
    if not sparse.issparse(X):
        X = np.ascontiguousarray(X)
    classes, labels = np.unique(np.asarray(y), return_inverse=True)
    if labels.shape != (X.shape[0],) or classes.size < 2:
        raise ValueError(
            "y must hold one label per point, of at least two classes"
        )
    C, bias = point_costs(C, labels.size), check_bias(bias)
    A = squared_norms(X) + bias**2
    return CSProblem(X, labels, C, bias, classes.size, A)


def cs_scores(problem, W):
    """wbar_c'xbar_i for every point and class, W of shape (d + 1,
    n_classes) holding wbar_c in its columns."""
    return problem.X @ W[:-1] + problem.bias * W[-1]


def cs_losses(problem, W):
    """Each point's loss in eq. (eq-cs-primal): the largest e_i^c +
    wbar_c'xbar_i less wbar_(ybar_i)'xbar_i, e_i^c = 0 for c = ybar_i, the
    point's class, and 1 otherwise."""
    scores = cs_scores(problem, W)
    n = problem.labels.size
    own = scores[np.arange(n), problem.labels]
    scores += 1.0
    scores[np.arange(n), problem.labels] -= 1.0
    return scores.max(axis=1) - own


def cs_primal_objective(problem, W):
    """P(W) of eq. (eq-cs-primal): 1/2 sum_c ||wbar_c||^2 plus C_i times
    each point's loss."""
    return float(0.5 * np.sum(W * W) + problem.C @ cs_losses(problem, W))


def cs_dual_objective(problem, alpha, W):
    """D(alpha) of eq. (eq-cs-dual) from W = Xbar' alpha, eq. (eq-cs-w):
    1/2 sum_c ||wbar_c||^2 + sum_i sum_c e_i^c alpha_i^c, where the second
    sum is -sum_i alpha_i^(ybar_i) since each row of alpha sums to 0."""
    n = problem.labels.size
    return float(
        0.5 * np.sum(W * W) - alpha[np.arange(n), problem.labels].sum()
    )


def cs_subproblem(B, A, C_i, y_at):
    """The minimiser of eq. (eq-cs-sub) over the classes whose B_c are
    given: alpha^c = min(C_i^c, (beta - B_c) / A), eq. (eq-cs-alpha),
    with C_i^c = C_i for the point's class (at position ``y_at``, -1 if
    it is not among them) and 0 for the others, and beta from the sorted
    Btilde_c = B_c + A C_i^c, eq. (eq-cs-beta)."""
    bound = np.zeros(B.size)
    if y_at >= 0:
        bound[y_at] = C_i
    B_tilde = B + A * bound
    ranked = np.sort(B_tilde)[::-1]
    betas = (np.cumsum(ranked) - A * C_i) / np.arange(1, B.size + 1)
    r = 1  # the number of classes above beta
    while r < B.size and betas[r - 1] < ranked[r]:
        r += 1
    return np.minimum(bound, (betas[r - 1] - B) / A)


def sweep_cs_numpy(data, alpha, W, active, order, n_active, shrinking):
    """One pass over order[:n_active]: for each point, G_i^c of eq.
    (eq-cs-sub) over its active classes, shrinking by eq.
    (eq-cs-shrink), and the exact step of eq. (eq-cs-alpha), W kept up to
    date by eq. (eq-cs-w-update).  Returns n_active and the largest
    violation of eq. (eq-cs-violation).  ``data`` holds the rows
    (dense, csr), labels, C, A and bias."""
    dense, csr, labels, C, A, bias = data
    d, largest, s = W.shape[0] - 1, 0.0, 0
    while s < n_active:
        i = order[s]
        values, columns = row_entries(dense, csr, i)
        classes = np.flatnonzero(active[i])
        G = (values @ W[columns] + bias * W[d])[classes]
        G += classes != labels[i]
        bound = np.where(classes == labels[i], C[i], 0.0)
        a = alpha[i, classes]
        G_min, G_max = G[a < bound].min(), G.max()
        if shrinking:
            keep = (a < bound) | (G >= G_min)
            active[i, classes[~keep]] = False
            if keep.sum() <= 1:  # shrink i: swap it behind the others
                n_active -= 1
                order[s], order[n_active] = order[n_active], order[s]
                continue
            classes, G, a = classes[keep], G[keep], a[keep]
        s += 1
        if G_max - G_min <= NO_MOVE_BELOW:
            continue
        largest = max(largest, G_max - G_min)
        y_at = np.flatnonzero(classes == labels[i])
        y_at = y_at[0] if y_at.size else -1
        change = cs_subproblem(G - A[i] * a, A[i], C[i], y_at) - a
        for c, step in zip(classes, change):
            W[columns, c] += step * values
            W[d, c] += step * bias
            alpha[i, c] += step
    return n_active, largest


def cs_violations(problem, alpha, W):
    """max_c G_i^c - min over the classes below their bound of G_i^c, eq.
    (eq-cs-violation), for every point the solver visits, computed afresh
    from alpha and W."""
    kept = problem.kept
    G = cs_scores(problem, W)[kept] + 1.0
    G[np.arange(kept.size), problem.labels[kept]] -= 1.0
    free = alpha[kept] < problem.bounds[kept]
    return G.max(axis=1) - np.where(free, G, np.inf).min(axis=1)


def cs_data(problem):
    """What a pass of eq. (eq-cs-alpha) reads: (dense, csr, labels, C, A,
    bias)."""
    p = problem
    return (*p.rows, p.labels, p.C, p.A, p.bias)


def cs_result(problem, alpha, W, n_iter, status):
    """The SolverResult of Crammer and Singer's solver: alpha of shape (n,
    n_classes), w = the weights w_c in rows (n_classes, d), b = bias
    w_(c, d+1) for every class, D(alpha) of eq. (eq-cs-dual), the passes
    and the status."""
    return SolverResult(
        alpha=alpha,
        b=problem.bias * W[-1],
        objective=cs_dual_objective(problem, alpha, W),
        n_iter=n_iter,
        status=status,
        w=W[:-1].T,
    )


def cs_dual_cd(
    problem, sweep, tol=1e-4, max_iter=1000, shrinking=True, seed=None
):
    """The sequential dual method (Keerthi et al. 2008) on eq.
    (eq-cs-dual): passes of ``sweep`` in a new random order each,
    shrinking by eq. (eq-cs-shrink) with every point back whenever a pass's
    largest violation falls below a threshold that halves down to tol,
    until a pass that began with every point meets eq. (eq-cs-stopping),
    confirmed afresh, or ``max_iter`` passes."""
    rng = np.random.default_rng(seed)
    n, d = problem.X.shape
    alpha = np.zeros((n, problem.n_classes))
    W = np.zeros((d + 1, problem.n_classes))
    active = np.ones((n, problem.n_classes), dtype=bool)
    order, data = problem.kept, cs_data(problem)
    n_all = n_active = order.size
    unshrink_below, from_all = max(10.0 * tol, 1.0), True
    n_iter, status = 0, Status.MAX_ITER
    while n_iter < max_iter:
        rng.shuffle(order[:n_active])
        n_active, largest = sweep(
            data, alpha, W, active, order, n_active, shrinking
        )
        n_iter += 1
        if largest >= unshrink_below:
            from_all = False
            continue
        if largest <= tol and from_all:
            violations = cs_violations(problem, alpha, W)
            if violations.size == 0 or violations.max() <= tol:
                status = Status.OPTIMAL
                break
        n_active, from_all = n_all, True
        active[:] = True
        unshrink_below = max(unshrink_below / 2, tol)
    return cs_result(problem, alpha, W, n_iter, status)
