# Generated from chapters/scaling_up.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""Batched working sets and their lean inner SMO (chapter "Scaling up")."""

import numbers
from dataclasses import dataclass

import numpy as np
from scipy.linalg.blas import daxpy

from svmlib.working_set import TAU, up_low_sets
from svmlib.dual import check_gram
from svmlib.hinge import check_C
from svmlib.intercept import compute_rho
from svmlib.kernel_cache import MEGABYTE
from svmlib.kernels import Kernel
from svmlib.result import SolverResult, Status
from svmlib.solver import (
    QPProblem,
    check_max_iter,
    check_tol,
    exact_bound_status,
)
from svmlib.validation import check_binary_problem
from svmlib.kernel_rows import GramRows, rows_for_points


def solve_block(S, psi, y, alpha, C, eps, max_iter, A=None):
    """Second-order SMO, eqs. (eq-wss2-signed) and (eq-signed-update), on a
    dense block, in place.

    ``S`` is diag(y) Q diag(y) restricted to the block, ``psi`` = -y * G
    (float64, contiguous: BLAS updates it in place), ``alpha`` and ``C`` the
    block's multipliers and bounds.  Stops when max over I_up of psi minus
    min over I_low of psi is below ``eps``, eq. (eq-stopping), or after
    ``max_iter`` pair updates; returns the number of updates.  ``A``, if
    given, is an array of S's shape to hold the a_it (a caller solving many
    blocks allocates it once).
    """
    if (
        psi.dtype != np.float64
        or not psi.flags.c_contiguous
        or not psi.flags.writeable
    ):
        raise ValueError(
            "psi must be a writeable, contiguous float64 array: "
            "it is updated in place"
        )
    size = y.shape[0]
    S_diag = np.diag(S)
    A = np.multiply(S, -2.0, out=A)  # a_it = S_ii + S_tt - 2 S_it
    A += S_diag[:, None]
    A += S_diag[None, :]
    A[A <= 0.0] = TAU  # as in eq. (eq-wss2)
    # the scalar work is done on Python numbers
    signs, bounds, values = y.tolist(), C.tolist(), alpha.tolist()
    I_up, I_low = up_low_sets(alpha, y, C)  # eq. (eq-up-low)
    up_mask = np.where(I_up, 0.0, -np.inf)
    low_mask = np.where(I_low, 0.0, np.inf)
    up, b, zero = np.empty(size), np.empty(size), np.zeros(())
    n_iter = 0
    while n_iter < max_iter:
        np.add(psi, up_mask, out=up)
        i = int(up.argmax())
        m = float(up[i])
        # b_it = m - psi_t, and -inf outside I_low; then, in place, the
        # gains of eq. (eq-wss2-signed)
        np.subtract(m, psi, out=b)
        b -= low_mask
        np.maximum(b, zero, out=b)
        b *= b
        b /= A[i]
        j = int(b.argmax())
        b_ij = m - float(psi[j])
        if not b[j] > 0.0:  # no t in I_low has psi_t < m: m - M <= 0
            break
        # the minimum over I_low only when j is close
        if b_ij < eps and m - float(np.min(psi + low_mask)) < eps:
            break
        y_i, y_j, old_i, old_j = signs[i], signs[j], values[i], values[j]
        room_i = bounds[i] - old_i if y_i > 0 else old_i
        room_j = old_j if y_j > 0 else bounds[j] - old_j
        t = min(b_ij / float(A[i, j]), room_i, room_j)  # eq. (eq-pair-step)
        new_i, new_j = old_i + y_i * t, old_j - y_j * t
        if t == room_i:
            new_i = bounds[i] if y_i > 0 else 0.0
        if t == room_j:
            new_j = 0.0 if y_j > 0 else bounds[j]
        daxpy(S[i], psi, a=-(new_i - old_i) * y_i)
        daxpy(S[j], psi, a=-(new_j - old_j) * y_j)
        values[i], values[j] = new_i, new_j
        for k, value in ((i, new_i), (j, new_j)):  # eq. (eq-up-low)
            above, below = value > 0.0, value < bounds[k]
            in_up = below if signs[k] > 0 else above
            in_low = above if signs[k] > 0 else below
            up_mask[k] = 0.0 if in_up else -np.inf
            low_mask[k] = 0.0 if in_low else np.inf
        n_iter += 1
    alpha[:] = values
    return n_iter


def select_batch(psi, up, low, excluded, count):
    """Up to ``count`` variables outside ``excluded``: half of them the
    largest psi over I_up, the rest the smallest psi over I_low (the most
    violating, for step 1 of a round).  With count >= 2 the maximal
    violating pair is among them unless it is excluded (then it is in the
    block)."""
    psi_up, psi_low = np.where(up, psi, -np.inf), np.where(low, psi, np.inf)
    psi_up[excluded], psi_low[excluded] = -np.inf, np.inf
    half = min(count // 2, psi.shape[0] - 1)
    top = np.argpartition(-psi_up, half)[:half]
    top = top[np.isfinite(psi_up[top])]
    psi_low[top] = np.inf
    rest = min(count - top.size, psi.shape[0] - 1)
    bottom = np.argpartition(psi_low, rest)[:rest]
    bottom = bottom[np.isfinite(psi_low[bottom])]
    return np.concatenate([top, bottom])


def exact_psi(problem, alpha, storage=None):
    """psi = -y * (Q alpha + p) from scratch (Q alpha = diag(y) S (y *
    alpha)), from the rows of the non-zero alpha only, a block of rows at a
    time: each block's rows in the precision ``storage`` (by default the
    one the rows are kept in), and the sum over the blocks in double
    precision."""
    y, rows = problem.y, problem.Q
    storage = rows.storage if storage is None else np.dtype(storage)
    psi = -y * problem.p
    nonzero = np.flatnonzero(alpha)
    block = np.empty(
        (min(rows.rows_per_block, max(nonzero.size, 1)), y.shape[0]),
        dtype=storage,
    )
    for start in range(0, nonzero.size, rows.rows_per_block):
        part = nonzero[start : start + rows.rows_per_block]
        weights = (alpha[part] * y[part]).astype(storage)
        psi -= weights @ rows.compute(part, block[: part.size])
    return psi


BATCH_SIZE = 1024
MIN_BATCH = 4
INNER_FACTOR = 0.1
MAX_EXACT_CHECKS = 3
DRIFT_MARGIN = 0.75
BLOCK_PER_ROOT_N = 7.0


MAX_IDLE_ROUNDS = 2


def block_size(
    n, itemsize, batch_size=BATCH_SIZE, cache_size=200.0, smallest=MIN_BATCH
):
    """The size of a working set B for n variables whose rows take
    ``itemsize`` bytes an entry: n if at most ``batch_size`` and the rows of
    all fit in ``cache_size`` megabytes (one block), else about 7 sqrt(n),
    within both limits and at least ``smallest``."""
    budget_rows = int(cache_size * MEGABYTE // (itemsize * n))
    size = min(n, max(smallest, min(batch_size, budget_rows)))
    if size < n:  # rounds: blocks of about 7 sqrt(n) variables
        rule = round(BLOCK_PER_ROOT_N * np.sqrt(n))
        size = max(smallest, min(size, rule))
    return size


def solve_batched(
    problem,
    tol=1e-3,
    batch_size=BATCH_SIZE,
    cache_size=200.0,
    max_iter=None,
    callback=None,
    keep_half=True,
    inner=None,
):
    """Batched working sets for eq. (eq-general-qp), the rounds of the
    chapter "Scaling up": select, rows, subproblem (solve_block), gradient.
    ``problem.Q`` provides rows of S = diag(y) Q diag(y).  Stops when
    m(alpha) - M(alpha) < ``tol`` over all variables, eq. (eq-stopping), on
    a gradient recomputed in double precision; returns a SolverResult like
    solve's (n_iter counts pair updates).  A block holds at most
    ``batch_size`` variables and at most the rows ``cache_size`` megabytes
    hold: all n if that allows, else about 7 sqrt(n). ``keep_half=False``
    replaces the whole working set in every round (for comparison only).
    ``inner`` solves the subproblems: a function with solve_block's
    arguments (None: solve_block).  If rows kept in single precision cannot
    reach ``tol`` (a large C magnifies their rounding), the rounds go on
    with rows in double precision.  A problem with a fixed sum per label
    (``by_label``) is solved within each label (its inner solver must
    accept ``by_label=True``, as solve_block_compiled does), in blocks of at
    least 2 MIN_BATCH, so that every round brings two variables of each
    label.  Rounds that update nothing MAX_IDLE_ROUNDS times in a row end
    the solve as INACCURATE.
    """
    tol, batch_size = check_tol(tol), check_batch_size(batch_size)
    inner = solve_block if inner is None else inner
    labels = label_masks(problem.y, problem.by_label)
    if labels is not None and inner is solve_block:
        raise ValueError(
            "solve_block keeps one equality constraint; a problem with a "
            "fixed sum per label needs inner=solve_block_compiled"
        )
    by_label = {} if labels is None else {"by_label": True}
    smallest = MIN_BATCH if labels is None else 2 * MIN_BATCH
    rows, y, C, p = problem.Q, problem.y, problem.C, problem.p
    n = y.shape[0]
    max_iter = check_max_iter(max_iter, n)
    storage = rows.storage
    size = block_size(n, storage.itemsize, batch_size, cache_size, smallest)
    whole = size == n  # a single block holds every variable
    buffers = RoundBuffers.allocate(size, n, None if whole else storage)
    alpha = problem.alpha0.astype(float).copy()
    # a single block keeps psi in double precision from the start
    psi = exact_psi(problem, alpha, np.float64 if whole else storage)
    status, n_iter, round_, exact_checks = Status.MAX_ITER, 0, 0, 0
    idle = 0  # rounds in a row without an update
    # the rounds' goal, below tol for the drift
    target = tol if whole else DRIFT_MARGIN * tol
    while n_iter < max_iter:
        up, low = up_low_sets(alpha, y, C)
        gap = largest_gap(psi, up, low, labels)
        if callback is not None:
            callback(round_, gap)
        if gap < target:
            if whole:  # psi was kept in double precision
                status = Status.OPTIMAL
                break
            # undo the drift of single-precision sums
            psi = exact_psi(problem, alpha, storage)
            gap = largest_gap(psi, up, low, labels)
            exact_checks += 1
            if gap < tol:
                status = Status.OPTIMAL
                break
            if exact_checks == MAX_EXACT_CHECKS:
                if storage == np.float64:
                    status = Status.INACCURATE
                    break
                # single-precision rows are too coarse: double from now on
                storage, exact_checks = np.dtype(np.float64), 0
                size = block_size(
                    n, storage.itemsize, batch_size, cache_size, smallest
                )
                buffers = RoundBuffers.allocate(size, n, storage)
                psi = exact_psi(problem, alpha, storage)
                gap = largest_gap(psi, up, low, labels)
        slot_point, half = buffers.slot_point, size // 2
        if whole:  # 1. select
            free = slice(0, size if round_ == 0 else 0)
            new = np.arange(free.stop)
        else:  # replace the half that entered earlier
            if keep_half and round_ > 0:
                odd = round_ % 2 == 1
                free = slice(0, half) if odd else slice(half, size)
            else:
                free = slice(0, size)
            kept = np.concatenate(
                [slot_point[: free.start], slot_point[free.stop :]]
            )
            new = select_within(
                psi,
                up,
                low,
                kept[kept >= 0],
                free.stop - free.start,
                labels,
            )
        slot_point[free] = -1
        slots = slice(free.start, free.start + new.size)
        slot_point[slots] = new
        if whole and new.size:  # 2. rows
            buffers.S_BB = rows.compute(new, np.empty((n, n)))
        elif new.size:  # straight into the buffer's free rows
            rows.compute(new, buffers.rows[slots])
            columns = np.where(slot_point >= 0, slot_point, 0)
            rows.compute(new, buffers.S_BB[slots], columns=columns)
            buffers.S_BB[:, slots] = buffers.S_BB[slots, :].T
        active = np.flatnonzero(slot_point >= 0)  # 3. subproblem
        B = slot_point[active]
        full = active.size == size
        S_BB = (
            buffers.S_BB if full else buffers.S_BB[np.ix_(active, active)]
        )
        alpha_B, psi_B = alpha[B].copy(), psi[B].copy()
        inner_tol = target if whole else max(target, INNER_FACTOR * gap)
        A_B = buffers.A if full else None
        budget = max_iter - n_iter  # the pair updates left
        updates = inner(
            S_BB,
            psi_B,
            y[B],
            alpha_B,
            C[B],
            inner_tol,
            budget,
            A=A_B,
            **by_label,
        )
        n_iter += updates
        idle = 0 if updates else idle + 1
        if whole:  # 4. gradient
            psi[B] = psi_B
        else:
            change = np.zeros(size, dtype=storage)
            change[active] = (alpha_B - alpha[B]) * y[B]
            psi -= change @ buffers.rows
        alpha[B] = alpha_B
        round_ += 1
        if idle == MAX_IDLE_ROUNDS:  # the block no longer holds a violation
            status = Status.INACCURATE
            break
    if status != Status.OPTIMAL and not whole:
        psi = exact_psi(problem, alpha, storage)
    return block_result(
        alpha, psi, y, p, C, n_iter, status, problem.by_label
    )


def check_batch_size(batch_size):
    """The working-set size: an integer of at least MIN_BATCH (smaller
    blocks cannot hold both members of the maximal violating pair next to
    the kept half)."""
    if (
        isinstance(batch_size, bool)
        or not isinstance(batch_size, numbers.Integral)
        or batch_size < MIN_BATCH
    ):
        raise ValueError(
            f"batch_size must be an integer of at least {MIN_BATCH}; "
            f"got {batch_size!r}"
        )
    return int(batch_size)


@dataclass(eq=False)
class RoundBuffers:
    """What a solve in rounds allocates once, for blocks of ``size``
    variables: the row buffer (size x n), the block S_BB and the inner
    solver's matrix of the a_it (size x size each), and the variable whose
    row each slot holds (-1: none).  With a single block (``storage`` None)
    only the slots; S_BB is computed in the first round."""

    rows: np.ndarray | None
    S_BB: np.ndarray | None
    A: np.ndarray | None
    slot_point: np.ndarray

    @classmethod
    def allocate(cls, size, n, storage):
        slot_point = np.full(size, -1)
        if storage is None:
            return cls(None, None, None, slot_point)
        return cls(
            np.zeros((size, n), dtype=storage),
            np.zeros((size, size)),
            np.empty((size, size)),
            slot_point,
        )


def psi_bounds(psi, up, low):
    """m = max of psi over I_up and M = min over I_low, eq. (eq-m-M) (-inf
    and inf for an empty set); an error if psi is not finite."""
    if not np.isfinite(psi).all():
        raise FloatingPointError(
            "the gradient is not finite: the kernel values are too "
            "large; scale the features"
        )
    m = np.max(psi, where=up, initial=-np.inf)
    M = np.min(psi, where=low, initial=np.inf)
    return m, M


def block_result(alpha, psi, y, p, C, n_iter, status, by_label=False):
    """The SolverResult of a solution and its psi = -y * G: the objective
    1/2 alpha'(G + p) and b = -rho, rho from eq. (eq-rho); for a problem
    with a fixed sum per label (``by_label``), rho and r of eq.
    (eq-nu-thresholds)."""
    G = -y * psi
    objective = 0.5 * float(alpha @ (G + p))
    bounds = exact_bound_status(alpha, C)
    if by_label:
        # a later chapter's module
        from svmlib.nu import label_thresholds

        rho, r = label_thresholds(G, y, bounds)
    else:
        rho, r = compute_rho(G, y, bounds), None
    return SolverResult(
        alpha=alpha,
        b=-rho,
        objective=objective,
        n_iter=n_iter,
        status=status,
        r=r,
    )


def label_masks(y, by_label):
    """The masks of the two labels of a problem with a fixed sum per label
    (pairs stay within a label); None for one equality constraint."""
    return (y > 0, y < 0) if by_label else None


def largest_gap(psi, up, low, labels=None):
    """m - M of eq. (eq-m-M), or, given the masks ``labels``, the larger of
    the two labels' m - M, eq. (eq-nu-stopping)."""
    if labels is None:
        m, M = psi_bounds(psi, up, low)
        return m - M
    return max(largest_gap(psi, up & mask, low & mask) for mask in labels)


def select_within(psi, up, low, excluded, count, labels=None):
    """select_batch; given the masks ``labels``, half of ``count`` chosen
    within each label."""
    if labels is None:
        return select_batch(psi, up, low, excluded, count)
    first = count // 2
    return np.concatenate(
        [
            select_batch(psi, up & mask, low & mask, excluded, share)
            for mask, share in zip(labels, (first, count - first))
        ]
    )


def c_svc_block_problem(X, y, C, kernel="precomputed"):
    """The C-SVC dual as a QPProblem for solve_batched: S = K from
    KernelRows (or GramRows for a precomputed kernel), p = -1, C_i = C,
    alpha0 = 0."""
    C = check_C(C)
    if isinstance(kernel, str) and kernel == "precomputed":
        K, y = check_gram(X, y)
        rows = GramRows(K)
    elif isinstance(kernel, Kernel):
        X, y = check_binary_problem(X, y, accept_sparse=True)
        rows = rows_for_points(kernel, X)
    else:
        raise ValueError(
            f"kernel must be a Kernel or 'precomputed'; got {kernel!r}"
        )
    n = y.shape[0]
    return QPProblem(
        Q=rows, p=-np.ones(n), y=y, C=np.full(n, C), alpha0=np.zeros(n)
    )


def batched_smo(
    X,
    y,
    C,
    kernel="precomputed",
    tol=1e-3,
    batch_size=BATCH_SIZE,
    cache_size=200.0,
    max_iter=None,
    callback=None,
    keep_half=True,
    inner=None,
):
    """Train a C-SVC with the batched solver; returns a SolverResult."""
    problem = c_svc_block_problem(X, y, C, kernel)
    return solve_batched(
        problem,
        tol,
        batch_size,
        cache_size,
        max_iter,
        callback,
        keep_half,
        inner,
    )
