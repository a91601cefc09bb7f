# Generated from chapters/smo_engineering.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""One solver for every SVM dual (chapter "Engineering the SMO solver")."""

import numbers
from dataclasses import dataclass

import numpy as np

from svmlib.derivation.intercept import BoundStatus, compute_rho
from svmlib.result import SolverResult, Status
from svmlib.smo.pair_step import update_pair
from svmlib.smo.working_set import (
    TAU,
    select_working_set,
    up_low_sets,
    violation_bounds,
)
from svmlib.smo.shrinking import reconstruct_gradient, shrinkable


SHRINK_INTERVAL = 1000
UNSHRINK_FACTOR = 10
MIN_MAX_ITER = 10_000_000
MAX_ITER_PER_SAMPLE = 100
# the floor of the default limit of Platt's SMO, whose loop runs in Python:
# a takeStep there costs tens of microseconds, so 10^5 of them take
# seconds, as LIBSVM's 10^7 updates do in compiled code
INTERPRETED_MIN_MAX_ITER = 100_000
# the compiled loops count in 64-bit integers; no run gets near this many
LARGEST_ITERATION_LIMIT = np.iinfo(np.int64).max


@dataclass(frozen=True, eq=False)
class QPProblem:
    """min 1/2 a'Qa + p'a  subject to  y'a = y'alpha0,  0 <= a_i <= C_i, eq.
    (eq-general-qp).

    ``Q`` is an object with ``diagonal``, ``column(i)`` and
    ``columns(indices)`` (QMatrix or GramQMatrix); ``alpha0`` is a feasible
    starting point (it fixes delta = y'alpha0).  ``by_label=True`` adds the
    second constraint 1'a = 1'alpha0 of the nu formulations (chapter
    "Regression and novelty detection"): the sum over each label is fixed.
    """

    Q: object
    p: np.ndarray
    y: np.ndarray
    C: np.ndarray
    alpha0: np.ndarray
    by_label: bool = False


def exact_bound_status(alpha, C):
    """BoundStatus from exact comparisons: SMO puts bounded variables
    exactly on their bounds."""
    lower, upper = alpha <= 0.0, alpha >= C
    return BoundStatus(lower=lower, free=~lower & ~upper, upper=upper)


def check_max_iter(max_iter, n_samples, floor=MIN_MAX_ITER):
    """The iteration limit: ``max_iter`` if a positive integer (at most
    LARGEST_ITERATION_LIMIT, which is no limit in practice), LIBSVM's
    max(10^7, 100 n) if None (max(floor, 100 n) for another ``floor``)."""
    if max_iter is None:
        return max(floor, MAX_ITER_PER_SAMPLE * n_samples)
    if (
        isinstance(max_iter, bool)
        or not isinstance(max_iter, numbers.Integral)
        or max_iter < 1
    ):
        raise ValueError(
            f"max_iter must be a positive integer or None; got {max_iter!r}"
        )
    return min(int(max_iter), LARGEST_ITERATION_LIMIT)


def check_tol(tol):
    """Return the stopping tolerance as a float if it is positive and
    finite."""
    if (
        isinstance(tol, bool)
        or not isinstance(tol, numbers.Real)
        or not 0 < tol < np.inf
    ):
        raise ValueError(f"tol must be a positive number; got {tol!r}")
    return float(tol)


def check_solve_arguments(problem, tol, max_iter):
    """solve's input checks: a problem with one equality constraint (not
    the nu formulations' by_label), then tol and max_iter, returned."""
    if problem.by_label:
        raise ValueError(
            "solve keeps one equality constraint; a problem with a fixed "
            "sum per label (by_label=True) needs "
            "svmlib.training.fast.solve_auto"
        )
    return check_tol(tol), check_max_iter(max_iter, problem.y.shape[0])


@dataclass(eq=False)
class ActiveSet:
    """The variables the solver works on: their global indices and compact
    copies of their data.

    Without shrinking (or before the first shrink) ``index`` is every
    variable and the arrays are the full ones, so no copy is made.
    """

    index: np.ndarray
    alpha: np.ndarray
    G: np.ndarray
    y: np.ndarray
    C: np.ndarray
    QD: np.ndarray
    I_up: np.ndarray
    I_low: np.ndarray

    @classmethod
    def gather(cls, index, alpha, G, y, C, QD):
        """The active set ``index`` of the full arrays (copies unless
        ``index`` is all of them)."""
        if index.size < alpha.shape[0]:
            alpha, G, y, C, QD = (
                alpha[index],
                G[index],
                y[index],
                C[index],
                QD[index],
            )
        return cls(index, alpha, G, y, C, QD, *up_low_sets(alpha, y, C))

    def scatter(self, alpha, G):
        """Write the active alpha and G back into the full arrays."""
        if self.alpha is not alpha:
            alpha[self.index], G[self.index] = self.alpha, self.G

    def restrict(self, column):
        """The entries of a full column that belong to the active
        variables."""
        return (
            column
            if self.index.size == column.shape[0]
            else column[self.index]
        )


def initial_gradients(problem):
    """G = Q alpha0 + p and G_bar = sum over alpha0_j = C_j of C_j Q_j, from
    the columns of the non-zero alpha0_j only."""
    alpha, C = problem.alpha0, problem.C
    G, G_bar = problem.p.astype(float).copy(), np.zeros(alpha.shape[0])
    nonzero = np.flatnonzero(alpha > 0)
    if nonzero.size:
        columns = problem.Q.columns(nonzero)
        G += alpha[nonzero] @ columns
        at_C = alpha[nonzero] >= C[nonzero]
        G_bar += C[nonzero][at_C] @ columns[at_C]
    return G, G_bar


def initial_state(problem):
    """Step 1 of algorithm (alg-smo): alpha = alpha0, G, G_bar, and every
    variable active."""
    alpha = problem.alpha0.astype(float).copy()
    G, G_bar = initial_gradients(problem)
    work = ActiveSet.gather(
        np.arange(alpha.shape[0]),
        alpha,
        G,
        problem.y,
        problem.C,
        problem.Q.diagonal,
    )
    return alpha, G, G_bar, work


def activate_all(work, alpha, G, G_bar, problem):
    """Write the active variables back, rebuild the gradient of the others,
    eq. (eq-reconstruct), and make every variable active."""
    work.scatter(alpha, G)
    Q, p, y, C = problem.Q, problem.p, problem.y, problem.C
    reconstruct_gradient(G, G_bar, p, alpha, C, work.index, Q)
    everything = np.arange(alpha.shape[0])
    return ActiveSet.gather(everything, alpha, G, y, C, Q.diagonal)


def shrink_active_set(work, alpha, G, G_bar, problem, tol, unshrunk):
    """Step 2.1 of algorithm (alg-smo): once, when m - M <= 10 tol, bring
    every variable back; then set aside those of eq. (eq-shrink).  Returns
    the new active set and whether every variable has been brought back."""
    work.scatter(alpha, G)
    m, M = violation_bounds(work.G, work.y, work.I_up, work.I_low)
    if not unshrunk and m - M <= UNSHRINK_FACTOR * tol:
        unshrunk = True
        work = activate_all(work, alpha, G, G_bar, problem)
        m, M = violation_bounds(G, problem.y, work.I_up, work.I_low)
    keep = ~shrinkable(work.G, work.y, work.I_up, work.I_low, m, M)
    if not keep.all():
        Q, y, C = problem.Q, problem.y, problem.C
        work = ActiveSet.gather(
            work.index[keep], alpha, G, y, C, Q.diagonal
        )
    return work, unshrunk


def select_active_pair(work, Q, tol, second_order):
    """select_working_set among the active variables: a WorkingSet, or None
    when their m - M < ``tol``."""

    def active_column(i):
        return work.restrict(Q.column(work.index[i]))

    return select_working_set(
        work.G,
        work.y,
        work.I_up,
        work.I_low,
        work.QD,
        active_column,
        tol,
        second_order,
    )


def take_step(work, i, j, Q, G_bar):
    """Update the pair (i, j) of the active set, eq. (eq-pair-step), then G
    of the active variables, G_bar where a variable reached or left its
    upper bound, and I_up, I_low.  Returns whether alpha moved."""
    gi, gj = work.index[i], work.index[j]
    Q_i, Q_j = Q.column(gi), Q.column(gj)
    y_i, y_j = work.y[i], work.y[j]
    a_ij = work.QD[i] + work.QD[j] - 2.0 * y_i * y_j * Q_i[gj]
    if a_ij <= 0.0:
        a_ij = TAU
    old_i, old_j = work.alpha[i], work.alpha[j]
    G_i, G_j, C_i, C_j = work.G[i], work.G[j], work.C[i], work.C[j]
    new_i, new_j = update_pair(
        old_i, old_j, y_i, y_j, G_i, G_j, a_ij, C_i, C_j
    )
    change_i = (new_i - old_i) * work.restrict(Q_i)
    change_j = (new_j - old_j) * work.restrict(Q_j)
    work.G += change_i + change_j
    for k, Q_k, old, new in (
        (i, Q_i, old_i, new_i),
        (j, Q_j, old_j, new_j),
    ):
        C_k = work.C[k]
        if (old >= C_k) != (new >= C_k):
            G_bar += (C_k if new >= C_k else -C_k) * Q_k
    work.alpha[i], work.alpha[j] = new_i, new_j
    pair = [i, j]
    work.I_up[pair], work.I_low[pair] = up_low_sets(
        work.alpha[pair], work.y[pair], work.C[pair]
    )
    return new_i != old_i or new_j != old_j


def solver_result(alpha, G, problem, n_iter, status):
    """A SolverResult: the objective 1/2 alpha'(G + p) of eq.
    (eq-general-qp) and b = -rho from eq. (eq-general-rho)."""
    objective = 0.5 * float(alpha @ (G + problem.p))
    rho = compute_rho(G, problem.y, exact_bound_status(alpha, problem.C))
    return SolverResult(
        alpha=alpha,
        b=-rho,
        objective=objective,
        n_iter=n_iter,
        status=status,
    )


def solve(
    problem,
    tol=1e-3,
    second_order=True,
    shrinking=True,
    max_iter=None,
    callback=None,
):
    """SMO for eq. (eq-general-qp), algorithm (alg-smo): WSS2 or WSS1
    (``second_order``), with or without ``shrinking``, until m - M <
    ``tol``, ``max_iter`` updates (None: max(10^7, 100 n)), or min(n, 1000)
    updates that move nothing (round-off); ``callback`` sees m - M first."""
    tol, max_iter = check_solve_arguments(problem, tol, max_iter)
    alpha, G, G_bar, work = initial_state(problem)
    countdown = interval = min(alpha.size, SHRINK_INTERVAL)
    unshrunk, n_iter, status, still = False, 0, Status.MAX_ITER, 0
    while n_iter < max_iter and still <= interval:
        countdown -= 1
        if shrinking and countdown == 0:
            countdown = interval
            work, unshrunk = shrink_active_set(
                work, alpha, G, G_bar, problem, tol, unshrunk
            )
        pair = select_active_pair(work, problem.Q, tol, second_order)
        if pair is None and work.index.size < alpha.size:
            work = activate_all(work, alpha, G, G_bar, problem)
            countdown = 1
            pair = select_active_pair(work, problem.Q, tol, second_order)
        if pair is None:
            status = Status.OPTIMAL
            break
        n_iter += 1
        if callback is not None:
            callback(n_iter, pair.violation)
        moved = take_step(work, pair.i, pair.j, problem.Q, G_bar)
        still = 0 if moved else still + 1
    status = Status.INACCURATE if still > interval else status
    activate_all(work, alpha, G, G_bar, problem)
    return solver_result(alpha, G, problem, n_iter, status)
