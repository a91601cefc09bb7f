# Generated from chapters/linear_more.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""Linear support vector regression: its dual in beta and dual
coordinate descent in numpy (chapter "More linear models")."""

from dataclasses import dataclass

import numpy as np
from scipy import sparse

from svmlib.formulations.svc_input import check_choice
from svmlib.formulations.svr_one_class import check_epsilon, check_targets
from svmlib.kernels.functions import squared_norms
from svmlib.linear.linear_dcd import (
    LinearProblem,
    check_bias,
    decision_values,
    point_costs,
    row_entries,
)
from svmlib.result import SolverResult, Status
from svmlib.validation import check_matrix


SVR_LOSSES = ("epsilon_insensitive", "squared_epsilon_insensitive")


@dataclass(frozen=True, eq=False)
class SVRProblem(LinearProblem):
    """A linear SVR's training problem, eqs. (eq-lsvr-primal) and
    (eq-lsvr-dual): LinearProblem's fields with real targets ``y``, the
    bounds ``U`` and diagonal ``D`` of the dual in beta, the curvatures
    ``Qbar_diag`` (Qbar_ii of eq. (eq-lsvr-sub)) and the tube's half-width
    ``epsilon``."""

    epsilon: float = 0.0


def svr_problem_from_checked(X, y, C, loss, bias, epsilon, norms):
    """The problem of eq. (eq-lsvr-dual) from checked inputs: U_i = C_i
    and D_ii = 0 for the epsilon-insensitive loss, U_i = inf and D_ii =
    1 / (2 C_i) for its square; ``norms`` holds the ||x_i||^2."""
    kept = C > 0
    D = np.zeros_like(C)
    if loss == "epsilon_insensitive":
        U = C.copy()
    else:
        U = np.full_like(C, np.inf)
        D[kept] = 0.5 / C[kept]
    Qbar_diag = norms + bias**2 + D
    return SVRProblem(X, y, C, loss, bias, U, D, Qbar_diag, epsilon)


def linear_svr_problem(
    X, y, C=1.0, loss="epsilon_insensitive", epsilon=0.0, bias=1.0
):
    """The problem of eq. (eq-lsvr-dual) for the points X (an array or a
    SciPy sparse matrix, kept as CSR), the targets y, the cost C (a
    number or one per point), the loss, the tube's half-width and the
    constant feature ``bias`` (0: no offset)."""
    X = check_matrix(X, accept_sparse=True)
    if not sparse.issparse(X):
        X = np.ascontiguousarray(X)
    y = check_targets(y, X.shape[0])
    C = point_costs(C, y.size)
    loss = check_choice("loss", loss, SVR_LOSSES)
    epsilon, bias = check_epsilon(epsilon), check_bias(bias)
    return svr_problem_from_checked(
        X, y, C, loss, bias, epsilon, squared_norms(X)
    )


def svr_primal_objective(problem, w):
    """Jbar of eq. (eq-lsvr-primal): 1/2 ||wbar||^2 plus C_i times the
    epsilon-insensitive loss of each residual (or its square), wbar of
    length d + 1."""
    residual = problem.y - decision_values(problem, w)
    outside = np.maximum(0.0, np.abs(residual) - problem.epsilon)
    if problem.loss == "squared_epsilon_insensitive":
        outside = outside**2
    return float(0.5 * w @ w + problem.C @ outside)


def svr_dual_objective(problem, beta, w):
    """D(beta) of eq. (eq-lsvr-dual) from wbar = sum_i beta_i xbar_i, eq.
    (eq-lsvr-w): 1/2 ||wbar||^2 + 1/2 sum D_ii beta_i^2 - y'beta +
    epsilon sum abs(beta_i)."""
    kept = problem.C > 0
    return float(
        0.5 * w @ w
        + 0.5 * problem.D[kept] @ beta[kept] ** 2
        - problem.y @ beta
        + problem.epsilon * np.abs(beta).sum()
    )


NO_BETA_STEP_BELOW = 1e-12  # a change of beta_i this small is not made


def svr_step(beta_i, G, Qbar_ii, epsilon, U):
    """The minimiser of the one-variable problem (eq-lsvr-sub): the soft
    threshold of u = Qbar_ii beta_i - G at epsilon, divided by Qbar_ii,
    clipped to [-U, U], eq. (eq-lsvr-step)."""
    u = Qbar_ii * beta_i - G
    shrunk = max(abs(u) - epsilon, 0.0)
    new = shrunk / Qbar_ii if u > 0 else -shrunk / Qbar_ii
    return min(max(new, -U), U)


def svr_violation(beta_i, G, epsilon, U):
    """abs(PG_i) of eq. (eq-lsvr-violation): how far 0 is from the set of
    (sub)derivatives of D along beta_i that point into the box."""
    if beta_i == 0.0:
        return max(G - epsilon, -G - epsilon, 0.0)
    if beta_i >= U:
        return max(G + epsilon, 0.0)
    if beta_i <= -U:
        return max(epsilon - G, 0.0)
    return abs(G + epsilon) if beta_i > 0 else abs(G - epsilon)


def svr_shrinkable(beta_i, G, epsilon, U, G_max):
    """eq. (eq-lsvr-shrink): beta_i at 0 or at a bound, held there by a
    margin larger than G_max, the largest violation of the previous
    pass."""
    if beta_i == 0.0:
        return G + epsilon > G_max and G - epsilon < -G_max
    if beta_i >= U:
        return G + epsilon < -G_max
    if beta_i <= -U:
        return G - epsilon > G_max
    return False


def sweep_svr_numpy(data, beta, w, order, n_active, G_max):
    """One pass over order[:n_active]: G_i of eq. (eq-lsvr-sub), the
    step of eq. (eq-lsvr-step), wbar kept up to date by eq.
    (eq-lsvr-w-update), shrinking by eq. (eq-lsvr-shrink).  ``data`` holds
    the rows (dense, csr), y, bias, Qbar_diag, D, U and epsilon.  Returns
    n_active, and the sum and the largest of the violations."""
    dense, csr, y, bias, Qbar_diag, D, U, epsilon = data
    d = w.shape[0] - 1
    total, largest, s = 0.0, 0.0, 0
    while s < n_active:
        i = order[s]
        values, columns = row_entries(dense, csr, i)
        G = values @ w[columns] + bias * w[d] - y[i] + D[i] * beta[i]
        if svr_shrinkable(beta[i], G, epsilon, U[i], G_max):
            n_active -= 1  # shrink i: swap it behind the active points
            order[s], order[n_active] = order[n_active], order[s]
            continue
        violation = svr_violation(beta[i], G, epsilon, U[i])
        total, largest = total + violation, max(largest, violation)
        new = svr_step(beta[i], G, Qbar_diag[i], epsilon, U[i])
        if abs(new - beta[i]) > NO_BETA_STEP_BELOW:
            w[columns] += (new - beta[i]) * values
            w[d] += (new - beta[i]) * bias
            beta[i] = new
        s += 1
    return n_active, total, largest


def svr_violations(problem, beta, w):
    """The violation of eq. (eq-lsvr-violation) of every point the solver
    visits (``problem.kept``), computed afresh from beta and wbar."""
    kept, epsilon = problem.kept, problem.epsilon
    b, U = beta[kept], problem.U[kept]
    G = decision_values(problem, w)[kept] - problem.y[kept]
    G += problem.D[kept] * b
    inside = np.where(b > 0, np.abs(G + epsilon), np.abs(G - epsilon))
    at_zero = np.maximum(np.abs(G) - epsilon, 0.0)
    return np.select(
        [b == 0, b >= U, b <= -U],
        [at_zero, np.maximum(G + epsilon, 0), np.maximum(epsilon - G, 0)],
        inside,
    )


def svr_data(problem):
    """What a pass of eq. (eq-lsvr-step) reads: (dense, csr, y, bias,
    Qbar_diag, D, U, epsilon)."""
    p = problem
    return (*p.rows, p.y, p.bias, p.Qbar_diag, p.D, p.U, p.epsilon)


def svr_result(problem, beta, w, n_iter, status):
    """The SolverResult of the SVR solvers: beta (as ``alpha``), w (d
    weights), b = bias w_(d+1), D(beta) of eq. (eq-lsvr-dual), the passes
    and the status."""
    return SolverResult(
        alpha=beta,
        b=problem.bias * w[-1],
        objective=svr_dual_objective(problem, beta, w),
        n_iter=n_iter,
        status=status,
        w=w[:-1],
    )


def svr_dual_cd(
    problem, sweep, tol=1e-4, max_iter=1000, shrinking=True, seed=None
):
    """Dual coordinate descent (Ho and Lin 2012) on eq. (eq-lsvr-dual):
    passes of ``sweep`` in a new random order each, shrinking by eq.
    (eq-lsvr-shrink), until a pass over all points meets eq.
    (eq-lsvr-stopping), confirmed on violations computed afresh, or
    ``max_iter`` passes.  A point with Qbar_ii = 0 (a zero row, no offset)
    cannot move wbar: its beta_i goes at once to its optimum, +-U_i or 0.
    Returns svr_result's SolverResult."""
    rng = np.random.default_rng(seed)
    n, d = problem.X.shape
    beta, w = np.zeros(n), np.zeros(d + 1)
    still = (problem.C > 0) & (problem.Qbar_diag == 0)
    still &= np.abs(problem.y) > problem.epsilon
    beta[still] = np.sign(problem.y[still]) * problem.U[still]
    order, data = problem.kept, svr_data(problem)
    n_all = n_active = order.size
    threshold = tol * svr_violations(problem, beta, w).sum()
    G_max, n_iter, status = np.inf, 0, Status.MAX_ITER
    while n_iter < max_iter:
        rng.shuffle(order[:n_active])
        n_active, total, largest = sweep(
            data, beta, w, order, n_active, G_max
        )
        n_iter += 1
        if total <= threshold:
            if n_active == n_all:
                fresh = svr_violations(problem, beta, w).sum()
                if fresh <= threshold:
                    status = Status.OPTIMAL
                    break
            n_active, G_max = n_all, np.inf
        elif shrinking:
            G_max = largest
    return svr_result(problem, beta, w, n_iter, status)
