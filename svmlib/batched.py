# Generated from chapters/scaling_up.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""Batched working sets: a lean second-order SMO on a dense block, and the solver that feeds it blocks of violating variables (from the chapter "Scaling up")."""

import numpy as np
from scipy.linalg.blas import daxpy

from svmlib.dual import check_gram
from svmlib.hinge import check_C
from svmlib.intercept import compute_rho
from svmlib.kernel_cache import MEGABYTE
from svmlib.kernels import Kernel
from svmlib.result import SolverResult, Status
from svmlib.solver import QPProblem, check_max_iter, check_tol, exact_bound_status
from svmlib.validation import check_binary_problem
from svmlib.working_set import TAU, up_low_sets
from svmlib.kernel_rows import GramRows, KernelRows


def solve_block(S, F, y, alpha, C, eps, max_iter):
    """Second-order SMO, eqs. (eq-wss2-signed) and (eq-signed-update), on a dense block, in place.

    ``S`` is diag(y) Q diag(y) restricted to the block (float64), ``F`` = -y * G, ``alpha`` and
    ``C`` the block's multipliers and bounds.  Stops when max over I_up of F minus min over I_low
    of F is below ``eps``, or after ``max_iter`` pair updates; returns the number of updates.
    """
    q = y.shape[0]
    S_diag = np.diag(S)
    A = S * -2.0                                      # a_it = S_ii + S_tt - 2 S_it, at least TAU
    A += S_diag[:, None]
    A += S_diag[None, :]
    np.maximum(A, TAU, out=A)
    positive = y > 0
    up_mask = np.where(np.where(positive, alpha < C, alpha > 0), 0.0, -np.inf)
    low_mask = np.where(np.where(positive, alpha > 0, alpha < C), 0.0, np.inf)
    up, low, gain = np.empty(q), np.empty(q), np.empty(q)
    n_iter = 0
    while n_iter < max_iter:
        np.add(F, up_mask, out=up)
        i = int(up.argmax())
        m = up[i]
        np.add(F, low_mask, out=low)
        if m - np.minimum.reduce(low) < eps:
            break
        np.subtract(m, low, out=gain)                  # b_it = m - F_t, kept where t is in I_low
        np.maximum(gain, 0.0, out=gain)
        gain *= gain
        gain /= A[i]
        j = int(gain.argmax())
        y_i, y_j, old_i, old_j = y[i], y[j], alpha[i], alpha[j]
        room_i = C[i] - old_i if y_i > 0 else old_i
        room_j = old_j if y_j > 0 else C[j] - old_j
        t = min((m - F[j]) / A[i, j], room_i, room_j)  # eq. (eq-pair-step)
        new_i, new_j = old_i + y_i * t, old_j - y_j * t
        if t == room_i:
            new_i = C[i] if y_i > 0 else 0.0
        if t == room_j:
            new_j = 0.0 if y_j > 0 else C[j]
        daxpy(S[i], F, a=-(new_i - old_i) * y_i)
        daxpy(S[j], F, a=-(new_j - old_j) * y_j)
        alpha[i], alpha[j] = new_i, new_j
        for k in (i, j):
            can_rise = alpha[k] < C[k] if positive[k] else alpha[k] > 0
            can_fall = alpha[k] > 0 if positive[k] else alpha[k] < C[k]
            up_mask[k] = 0.0 if can_rise else -np.inf
            low_mask[k] = 0.0 if can_fall else np.inf
        n_iter += 1
    return n_iter


def select_batch(F, up, low, excluded, count):
    """Up to ``count`` variables outside ``excluded``: half the largest F over I_up, the rest the
    smallest F over I_low (the most violating, for step 1 of the round)."""
    F_up, F_low = np.where(up, F, -np.inf), np.where(low, F, np.inf)
    F_up[excluded], F_low[excluded] = -np.inf, np.inf
    half = min(count // 2, F.shape[0] - 1)
    top = np.argpartition(-F_up, half)[:half]
    top = top[np.isfinite(F_up[top])]
    F_low[top] = np.inf
    rest = min(count - top.size, F.shape[0] - 1)
    bottom = np.argpartition(F_low, rest)[:rest]
    bottom = bottom[np.isfinite(F_low[bottom])]
    return np.concatenate([top, bottom])


def initial_F(problem):
    """F = -y * (Q alpha0 + p), from the rows of the non-zero alpha0 only, a block at a time."""
    y, alpha0, rows = problem.y, problem.alpha0, problem.Q
    F = -y * problem.p
    nonzero = np.flatnonzero(alpha0)
    for start in range(0, nonzero.size, rows.rows_per_block):
        part = nonzero[start:start + rows.rows_per_block]
        F -= (alpha0[part] * y[part]) @ rows.compute(part, np.empty((part.size, y.shape[0])))
    return F


BATCH_SIZE = 1024
INNER_FACTOR = 0.1


def solve_batched(problem, tol=1e-3, batch_size=BATCH_SIZE, cache_size=200.0, max_iter=None, callback=None):
    """Batched working sets for eq. (eq-general-qp), the rounds of the chapter "Scaling up":
    select, rows, subproblem (solve_block), gradient.  ``problem.Q`` provides rows of
    S = diag(y) Q diag(y).  Stops when m(alpha) - M(alpha) < ``tol`` over all variables,
    eq. (eq-stopping); returns a SolverResult like solve's (n_iter counts pair updates).
    """
    tol = check_tol(tol)
    rows, y, C, p = problem.Q, problem.y, problem.C, problem.p
    n = y.shape[0]
    max_iter = check_max_iter(max_iter, n)
    q = int(min(batch_size, n, max(2, cache_size * MEGABYTE // (4 * n))))
    whole = q == n                                       # a single block holds every variable
    row_buffer = None if whole else np.zeros((q, n), dtype=np.float32)
    S_block = None if whole else np.zeros((q, q))
    scratch = None if whole else np.empty((min(rows.rows_per_block, q), n), dtype=np.float32)
    slot_point = np.full(q, -1)                          # the variable whose row each slot holds
    slot_round = np.zeros(q, dtype=int)                  # the round in which it entered
    alpha, F = problem.alpha0.astype(float).copy(), initial_F(problem)
    status, n_iter, round_ = Status.MAX_ITER, 0, 0
    while n_iter < max_iter:
        up, low = up_low_sets(alpha, y, C)
        m, M = np.max(F, where=up, initial=-np.inf), np.min(F, where=low, initial=np.inf)
        if callback is not None:
            callback(round_, m - M)
        if not m - M >= tol:
            status = Status.OPTIMAL
            break
        if whole:                                         # 1. select
            free = np.arange(q) if round_ == 0 else np.empty(0, dtype=int)
            new = free
        else:
            free = np.arange(q) if round_ == 0 else np.argsort(slot_round, kind="stable")[: q - q // 2]
            kept = slot_point[np.setdiff1d(np.arange(q), free)]
            new = select_batch(F, up, low, kept[kept >= 0], free.size)
        slot_point[free] = -1
        slots = free[: new.size]
        slot_point[slots], slot_round[slots] = new, round_ + 1
        if whole and new.size:                            # 2. rows
            S_block = rows.compute(new, np.empty((n, n)))
        elif new.size:
            columns = np.where(slot_point >= 0, slot_point, 0)
            for start in range(0, new.size, scratch.shape[0]):
                part = slice(start, start + scratch.shape[0])
                block = rows.compute(new[part], scratch[: new[part].size])
                row_buffer[slots[part]] = block
                S_block[slots[part], :] = block[:, columns]
            S_block[:, slots] = S_block[slots, :].T
        active = np.flatnonzero(slot_point >= 0)          # 3. subproblem
        B = slot_point[active]
        S_BB = S_block if active.size == q else S_block[np.ix_(active, active)]
        alpha_B, F_B = alpha[B].copy(), F[B].copy()
        inner_tol = tol if whole else max(tol, INNER_FACTOR * (m - M))
        n_iter += solve_block(S_BB, F_B, y[B], alpha_B, C[B], inner_tol, max_iter - n_iter)
        if whole:                                         # 4. gradient
            F[B] = F_B
        else:
            change = np.zeros(q, dtype=np.float32)
            change[active] = (alpha_B - alpha[B]) * y[B]
            F -= change @ row_buffer
        alpha[B] = alpha_B
        round_ += 1
    G = -y * F
    objective = 0.5 * float(alpha @ (G + p))
    rho = compute_rho(G, y, exact_bound_status(alpha, C))
    return SolverResult(alpha=alpha, b=-rho, objective=objective, n_iter=n_iter, status=status)


def c_svc_block_problem(X, y, C, kernel="precomputed"):
    """The C-SVC dual as a QPProblem for solve_batched: S = K from KernelRows (or GramRows for a
    precomputed kernel), p = -1, C_i = C, alpha0 = 0."""
    C = check_C(C)
    if isinstance(kernel, str) and kernel == "precomputed":
        K, y = check_gram(X, y)
        rows = GramRows(K)
    elif isinstance(kernel, Kernel):
        X, y = check_binary_problem(X, y)
        rows = KernelRows(kernel, X)
    else:
        raise ValueError(f"kernel must be a Kernel or 'precomputed'; got {kernel!r}")
    n = y.shape[0]
    return QPProblem(Q=rows, p=-np.ones(n), y=y, C=np.full(n, C), alpha0=np.zeros(n))


def batched_smo(X, y, C, kernel="precomputed", tol=1e-3, batch_size=BATCH_SIZE, cache_size=200.0,
                max_iter=None, callback=None):
    """Train a C-SVC with the batched solver; returns a SolverResult."""
    problem = c_svc_block_problem(X, y, C, kernel)
    return solve_batched(problem, tol, batch_size, cache_size, max_iter, callback)
