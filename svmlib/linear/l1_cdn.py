# Generated from chapters/linear_l1.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""Coordinate descent with Newton directions (CDN) for the L1-regularised
SVM: passes, shrinking and the stopping rule (chapter "Sparse linear
models: the L1 penalty")."""

import numpy as np

from svmlib.linear.linear_dcd import decision_values
from svmlib.linear.linear_primal import check_finite, primal_threshold
from svmlib.linear.linear_setup import check_pass_limit
from svmlib.result import SolverResult, Status
from svmlib.smo.solver import check_tol
from svmlib.linear.linear_l1 import check_l1_loss, curvature_bounds, feature_columns, l1_objective
from svmlib.linear.linear_l1_compiled import l1_sweep_compiled


VIOLATION_FLOOR = 1e-12  # a sum of abs(grad^S_j F) this small is round-off


def cdn_start(problem):
    """The columns (dense, csc, Hbar) of eqs. (eq-l1-one-variable) and
    (eq-l1-upper), and the start wbar = 0, where every shortfall r_i = 1."""
    dense, csc = feature_columns(problem)
    Hbar = curvature_bounds(dense, csc, problem.C)
    check_finite(problem, Hbar)
    w, r = np.zeros(problem.X.shape[1] + 1), np.ones(problem.y.size)
    return (dense, csc, Hbar), w, r


def cdn_pass(sweep, problem, columns, r, w, order, n_active, margin):
    """One pass of ``sweep`` over order[:n_active], eq.
    (eq-l1-direction), with the shrinking margin G^max / n of eq.
    (eq-l1-shrink): n_active, the largest and the sum of abs(grad^S_j F)."""
    dense, csc, Hbar = columns
    y, C = problem.y, problem.C
    return sweep(dense, csc, y, C, r, w, Hbar, order, n_active, margin)


def l1_violations(problem, w):
    """abs(grad^S_j F) of eq. (eq-l1-subgradient) of every coordinate the
    solver visits, computed afresh from wbar: the gradient of the losses
    is -2 Xbar'(C y max(0, r)), one product with the whole of X."""
    shortfall = 1.0 - problem.y * decision_values(problem, w)
    u = -2.0 * problem.C * problem.y * np.maximum(shortfall, 0.0)
    g = np.append(problem.X.T @ u, problem.bias * u.sum())
    size = np.where(
        w > 0,
        np.abs(g + 1.0),
        np.where(w < 0, np.abs(g - 1.0), np.maximum(np.abs(g) - 1.0, 0.0)),
    )
    return size if problem.bias > 0 else size[:-1]


def cdn_verdict(problem, w, threshold, still):
    """After a pass over all coordinates that met eq. (eq-l1-stopping) or
    moved no weight: OPTIMAL if the abs(grad^S_j F) computed afresh meet the
    rule, else INACCURATE if the pass moved nothing (no step can help:
    round-off has taken over), else None: the passes go on."""
    if l1_violations(problem, w).sum() <= threshold:
        return Status.OPTIMAL
    return Status.INACCURATE if still else None


def l1_result(problem, w, n_iter, status):
    """The SolverResult of CDN: w (d weights), b = bias w_(d+1), F(wbar)
    of eq. (eq-l1-primal), the passes, the status, and alpha_i = 2 C_i
    max(0, 1 - y_i wbar'xbar_i), the multipliers of eq. (eq-l1-kkt)."""
    shortfall = 1.0 - problem.y * decision_values(problem, w)
    return SolverResult(
        alpha=2.0 * problem.C * np.maximum(shortfall, 0.0),
        b=problem.bias * w[-1],
        objective=l1_objective(problem, w),
        n_iter=n_iter,
        status=status,
        w=w[:-1].copy(),
    )


def l1_cdn(
    problem, tol=1e-4, max_iter=1000, callback=None, sweep=None, seed=None
):
    """CDN on eq. (eq-l1-primal) (Yuan et al. 2010): passes of ``sweep``
    (l1_sweep_compiled if None) in random orders (``seed``) until a full
    pass meets eq. (eq-l1-stopping), confirmed on l1_violations (OPTIMAL),
    or moves nothing (INACCURATE), or ``max_iter`` passes (MAX_ITER);
    ``callback(visited, largest, total)`` after each."""
    check_l1_loss(problem)
    tol, max_iter = check_tol(tol), check_pass_limit(max_iter)
    sweep = l1_sweep_compiled if sweep is None else sweep
    columns, w, r = cdn_start(problem)
    order, rng = np.arange(columns[2].size), np.random.default_rng(seed)
    n_active, margin, threshold = order.size, np.inf, None
    n_iter, status = 0, None
    while n_iter < max_iter and status is None:
        rng.shuffle(order[:n_active])
        visited, before = n_active, w.copy()
        n_active, largest, total = cdn_pass(
            sweep, problem, columns, r, w, order, n_active, margin
        )
        n_iter += 1
        if callback is not None:
            callback(visited, largest, total)
        if threshold is None:  # the first pass sets the reference
            threshold = primal_threshold(problem, tol, total)
            threshold = max(threshold, VIOLATION_FLOOR)
        still = np.array_equal(w, before)  # no weight moved
        if total <= threshold or still:
            if n_active == order.size:  # a pass over all: confirm
                status = cdn_verdict(problem, w, threshold, still)
            n_active, margin = order.size, np.inf  # all come back
        else:
            margin = largest / problem.y.size
    return l1_result(problem, w, n_iter, status or Status.MAX_ITER)
