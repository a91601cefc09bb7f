# Generated from chapters/scaling_up.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""Batched working sets and their lean inner SMO (chapter "Scaling up")."""

import numbers
from dataclasses import dataclass

import numpy as np
from scipy.linalg.blas import daxpy

from svmlib.smo.working_set import TAU
from svmlib.smo.working_set import up_low_sets
from svmlib.kernels.kernel_cache import MEGABYTE
from svmlib.result import Status
from svmlib.derivation.dual import check_gram
from svmlib.derivation.hinge import check_C
from svmlib.derivation.intercept import compute_rho
from svmlib.kernels.functions import Kernel
from svmlib.result import SolverResult, Status
from svmlib.smo.solver import (
    QPProblem,
    check_max_iter,
    check_tol,
    exact_bound_status,
)
from svmlib.validation import check_binary_problem
from svmlib.smo.solver import QPProblem
from svmlib.kernels.kernel_rows import GramRows, rows_for_points


def pair_curvatures(S, out=None):
    """a_it = S_ii + S_tt - 2 S_it for every pair of the block, and tau
    where that is not positive, as in eq. (eq-wss2); into ``out`` if
    given."""
    S_diag = np.diag(S)
    A = np.multiply(S, -2.0, out=out)
    A += S_diag[:, None]
    A += S_diag[None, :]
    A[A <= 0.0] = TAU
    return A


def clipped_step(step, i, j, y, alpha, C):
    """The new alpha_i and alpha_j after the step of eq. (eq-pair-step),
    ``step`` = b_ij / a_ij, clipped to the room each has in the box (y,
    alpha and C are lists); a variable that uses up its room lands exactly
    on its bound."""
    room_i = C[i] - alpha[i] if y[i] > 0 else alpha[i]
    room_j = alpha[j] if y[j] > 0 else C[j] - alpha[j]
    t = min(step, room_i, room_j)
    new_i, new_j = alpha[i] + y[i] * t, alpha[j] - y[j] * t
    if t == room_i:
        new_i = C[i] if y[i] > 0 else 0.0
    if t == room_j:
        new_j = 0.0 if y[j] > 0 else C[j]
    return new_i, new_j


def check_psi(psi):
    """solve_block updates psi in place, with BLAS: it must be a writeable,
    contiguous float64 array."""
    if (
        psi.dtype != np.float64
        or not psi.flags.c_contiguous
        or not psi.flags.writeable
    ):
        raise ValueError(
            "psi must be a writeable, contiguous float64 array: "
            "it is updated in place"
        )


def mark_sets(k, value, sign, bound, up_mask, low_mask):
    """Variable k's entries of the masks of I_up (0 or -inf) and I_low (0
    or inf) at alpha_k = ``value``, eq. (eq-up-low)."""
    above, below = value > 0.0, value < bound
    up_mask[k] = 0.0 if (below if sign > 0 else above) else -np.inf
    low_mask[k] = 0.0 if (above if sign > 0 else below) else np.inf


def solve_block(S, psi, y, alpha, C, eps, max_iter, A=None):
    """Second-order SMO, eqs. (eq-wss2-signed) and (eq-signed-update), on
    a dense block S, in place (psi = -y * G); stops when m - M < ``eps``,
    eq. (eq-stopping), or after ``max_iter`` pair updates, and returns
    their number.  ``A``, if given, is a buffer for the a_it."""
    check_psi(psi)
    A = pair_curvatures(S, out=A)
    signs, bounds, values = y.tolist(), C.tolist(), alpha.tolist()
    I_up, I_low = up_low_sets(alpha, y, C)  # eq. (eq-up-low)
    up_mask = np.where(I_up, 0.0, -np.inf)
    low_mask = np.where(I_low, 0.0, np.inf)
    up, b, zero = np.empty(y.shape[0]), np.empty(y.shape[0]), np.zeros(())
    n_iter = 0
    while n_iter < max_iter:
        np.add(psi, up_mask, out=up)
        i = int(up.argmax())
        m = float(up[i])
        np.subtract(m, psi, out=b)  # b_it = m - psi_t, -inf off I_low;
        b -= low_mask
        np.maximum(b, zero, out=b)  # then the gains of (eq-wss2-signed)
        b *= b
        b /= A[i]
        j = int(b.argmax())
        b_ij = m - float(psi[j])
        if not b[j] > 0.0:  # no t in I_low has psi_t < m: m - M <= 0
            break
        if b_ij < eps and m - float(np.min(psi + low_mask)) < eps:
            break  # the minimum over I_low only when j is close
        old_i, old_j = values[i], values[j]
        step = b_ij / float(A[i, j])  # eq. (eq-pair-step), then clipped
        new_i, new_j = clipped_step(step, i, j, signs, values, bounds)
        daxpy(S[i], psi, a=-(new_i - old_i) * signs[i])
        daxpy(S[j], psi, a=-(new_j - old_j) * signs[j])
        values[i], values[j] = new_i, new_j
        for k, value in ((i, new_i), (j, new_j)):
            mark_sets(k, value, signs[k], bounds[k], up_mask, low_mask)
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


BATCH_SIZE = 1024
MIN_BATCH = 4
BLOCK_PER_ROOT_N = 7.0


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


def freed_slots(round_, size, whole, keep_half=True):
    """The slots of the block that a round refills: the half that entered
    earlier (all of them in the first round, or in every round without
    ``keep_half``); for a single block, all in the first round, then
    none."""
    if whole:
        return slice(0, size if round_ == 0 else 0)
    if keep_half and round_ > 0:
        half = size // 2
        return slice(0, half) if round_ % 2 == 1 else slice(half, size)
    return slice(0, size)


def refill(run, up, low, free):
    """Step 1: the most violating variables outside the kept ones (every
    variable, for a single block) into the ``free`` slots; returns them
    and the slots they took."""
    slot_point = run.buffers.slot_point
    if run.whole:
        new = np.arange(free.stop)
    else:
        kept = np.concatenate(
            [slot_point[: free.start], slot_point[free.stop :]]
        )
        count = free.stop - free.start
        new = select_within(
            run.psi, up, low, kept[kept >= 0], count, run.labels
        )
    slot_point[free] = -1
    slots = slice(free.start, free.start + new.size)
    slot_point[slots] = new
    return new, slots


def load_rows(run, new, slots):
    """Step 2: the rows of S of the new variables straight into their rows
    of the row buffer, and their entries at the block's columns into S_BB,
    mirrored into its columns (a single block: all of S, once)."""
    rows, buffers = run.problem.Q, run.buffers
    if run.whole and new.size:
        buffers.S_BB = rows.compute(new, np.empty((new.size, new.size)))
    elif new.size:
        rows.compute(new, buffers.rows[slots])
        columns = np.where(buffers.slot_point >= 0, buffers.slot_point, 0)
        rows.compute(new, buffers.S_BB[slots], columns=columns)
        buffers.S_BB[:, slots] = buffers.S_BB[slots, :].T


def solve_subproblem(run, tol):
    """Steps 3 and 4: the inner solver on S_BB and psi_B to the tolerance
    ``tol``, the other variables fixed; then psi changes by -S_{:,B} (y_B *
    delta alpha_B), one matrix-vector product with the row buffer.
    Returns the number of pair updates."""
    y, C, buffers = run.problem.y, run.problem.C, run.buffers
    active = np.flatnonzero(buffers.slot_point >= 0)
    B, full = buffers.slot_point[active], active.size == run.size
    S_BB = buffers.S_BB if full else buffers.S_BB[np.ix_(active, active)]
    alpha_B, psi_B = run.alpha[B].copy(), run.psi[B].copy()
    by_label = {} if run.labels is None else {"by_label": True}
    A_B, budget = (buffers.A if full else None), run.max_iter - run.n_iter
    updates = run.inner(
        S_BB, psi_B, y[B], alpha_B, C[B], tol, budget, A=A_B, **by_label
    )
    if run.whole:  # a single block: psi_B is all of psi
        run.psi[B] = psi_B
    else:
        change = np.zeros(run.size, dtype=run.storage)
        change[active] = (alpha_B - run.alpha[B]) * y[B]
        run.psi -= change @ buffers.rows
    run.alpha[B] = alpha_B
    return updates


INNER_FACTOR = 0.1
MAX_IDLE_ROUNDS = 2


def run_rounds(run, callback=None, keep_half=True):
    """The rounds of solve_batched on the state ``run`` (start_rounds):
    select, rows, subproblem, gradient, until m - M < tol on an exact psi
    (check_before_stopping) or the pair updates run out; returns the
    status.  ``callback(round, m - M)`` is called once per round."""
    round_, idle = 0, 0  # idle: rounds in a row without an update
    while run.n_iter < run.max_iter:
        up, low = up_low_sets(run.alpha, run.problem.y, run.problem.C)
        gap = largest_gap(run.psi, up, low, run.labels)
        if callback is not None:
            callback(round_, gap)
        if gap < run.target:
            status, gap = check_before_stopping(run, up, low)
            if status is not None:
                return status
        free = freed_slots(round_, run.size, run.whole, keep_half)
        new, slots = refill(run, up, low, free)  # 1. select
        load_rows(run, new, slots)  # 2. rows
        loose = max(run.target, INNER_FACTOR * gap)
        inner_tol = run.target if run.whole else loose
        updates = solve_subproblem(run, inner_tol)  # 3. and 4.
        run.n_iter += updates
        idle = 0 if updates else idle + 1
        round_ += 1
        if idle == MAX_IDLE_ROUNDS:  # the block holds no violation
            return Status.INACCURATE
    return Status.MAX_ITER


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
    1/2 alpha'(G + p), b = -rho, rho from eq. (eq-rho), and G itself; for
    a problem with a fixed sum per label (``by_label``), rho and r of eq.
    (eq-nu-thresholds)."""
    G = -y * psi
    objective = 0.5 * float(alpha @ (G + p))
    bounds = exact_bound_status(alpha, C)
    if by_label:
        # a later chapter's module
        from svmlib.formulations.nu import label_thresholds

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
        G=G,
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


MAX_EXACT_CHECKS = 3
DRIFT_MARGIN = 0.75


@dataclass(eq=False)
class Rounds:
    """What a solve in rounds carries from round to round: the problem, its
    inner solver and settings, the precision of the kept rows, the block's
    size and buffers, alpha and psi, and the counts.  ``whole``: a single
    block holds every variable; ``target``: the rounds' goal for m - M
    (below tol for the drift of single-precision sums)."""

    problem: QPProblem
    inner: object
    labels: tuple | None
    tol: float
    target: float
    max_iter: int
    batch_size: int
    cache_size: float
    smallest: int
    storage: np.dtype
    size: int
    whole: bool
    buffers: RoundBuffers
    alpha: np.ndarray
    psi: np.ndarray
    n_iter: int = 0
    exact_checks: int = 0


def start_rounds(problem, tol, batch_size, cache_size, max_iter, inner):
    """The checked settings and the state before the first round: the
    block's size, its buffers (allocated once), alpha0 and its psi (in
    double precision for a single block)."""
    tol, batch_size = check_tol(tol), check_batch_size(batch_size)
    inner = solve_block if inner is None else inner
    labels = label_masks(problem.y, problem.by_label)
    if labels is not None and inner is solve_block:
        raise ValueError(
            "solve_block keeps one equality constraint; a problem with a "
            "fixed sum per label needs inner=solve_block_compiled"
        )
    smallest = MIN_BATCH if labels is None else 2 * MIN_BATCH
    n = problem.y.shape[0]
    max_iter = check_max_iter(max_iter, n)
    storage = problem.Q.storage
    size = block_size(n, storage.itemsize, batch_size, cache_size, smallest)
    whole = size == n  # a single block holds every variable
    buffers = RoundBuffers.allocate(size, n, None if whole else storage)
    alpha = problem.alpha0.astype(float).copy()
    # a single block keeps psi in double precision from the start
    psi = exact_psi(problem, alpha, np.float64 if whole else storage)
    target = tol if whole else DRIFT_MARGIN * tol
    return Rounds(
        problem,
        inner,
        labels,
        tol,
        target,
        max_iter,
        batch_size,
        cache_size,
        smallest,
        storage,
        size,
        whole,
        buffers,
        alpha,
        psi,
    )


def check_before_stopping(run, up, low):
    """The kept psi passed the rounds' goal: recompute psi (the sums in
    double precision) and stop if m - M < tol; after MAX_EXACT_CHECKS
    failures go on with rows in double precision, or stop INACCURATE if
    they already are.  Returns the status (None: go on) and m - M."""
    if run.whole:  # psi was kept in double precision
        return Status.OPTIMAL, None
    run.psi = exact_psi(run.problem, run.alpha, run.storage)
    gap = largest_gap(run.psi, up, low, run.labels)
    run.exact_checks += 1
    if gap < run.tol:
        return Status.OPTIMAL, gap
    if run.exact_checks == MAX_EXACT_CHECKS:
        if run.storage == np.float64:
            return Status.INACCURATE, gap
        # single-precision rows are too coarse: double from now on
        run.storage, run.exact_checks = np.dtype(np.float64), 0
        n = run.alpha.shape[0]
        run.size = block_size(
            n,
            run.storage.itemsize,
            run.batch_size,
            run.cache_size,
            run.smallest,
        )
        run.buffers = RoundBuffers.allocate(run.size, n, run.storage)
        run.psi = exact_psi(run.problem, run.alpha, run.storage)
        gap = largest_gap(run.psi, up, low, run.labels)
    return None, gap


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
    run = start_rounds(
        problem, tol, batch_size, cache_size, max_iter, inner
    )
    return rounds_result(run, run_rounds(run, callback, keep_half))


def rounds_result(run, status):
    """The SolverResult of the rounds ``run`` that ended with ``status``
    (psi recomputed exactly unless they reached the goal)."""
    problem = run.problem
    if status != Status.OPTIMAL and not run.whole:
        run.psi = exact_psi(problem, run.alpha, run.storage)
    return block_result(
        run.alpha,
        run.psi,
        problem.y,
        problem.p,
        problem.C,
        run.n_iter,
        status,
        problem.by_label,
    )
