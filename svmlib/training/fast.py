# Generated from chapters/fast_default.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""The default solver, chosen by the problem (chapter "Fast by default")."""

from dataclasses import replace
from dataclasses import dataclass

import numpy as np

from svmlib.kernels.kernel_cache import MEGABYTE
from svmlib.result import Status
from svmlib.smo.solver import SHRINK_INTERVAL, check_max_iter, check_tol
from svmlib.smo.working_set import up_low_sets
from svmlib.training.batched import (
    block_result,
    freed_slots,
    psi_bounds,
    run_rounds,
    solve_batched,
    start_rounds,
)
from svmlib.training.batched import rounds_result
from svmlib.kernels.functions import Kernel
from svmlib.kernels.kernel_rows import kernel_storage, rows_for_points
from svmlib.smo.solver import QPProblem
from svmlib.training.batched import c_svc_block_problem
from svmlib.training.compiled import OPTIMAL, signed_smo, solve_block_compiled


def gram_fits(n, cache_size, itemsize=8):
    """Whether the n x n Gram matrix, at ``itemsize`` bytes an entry
    (double precision by default), fits in ``cache_size`` megabytes."""
    return float(itemsize) * n * n <= cache_size * MEGABYTE


def whole_gram(problem):
    """All of S, computed once from ``problem.Q`` (a KernelRows or
    GramRows) in double precision."""
    n = problem.y.shape[0]
    return problem.Q.compute(np.arange(n), np.empty((n, n)))


# a single-precision S is widened to double this many bytes of rows at a
# time
WIDEN_BLOCK_BYTES = 8 * MEGABYTE


def product_in_double(S, v):
    """S @ v in double precision.  A single-precision S is widened a block
    of rows at a time, over the columns where v is not zero, never whole
    (a warm start of the chapter "Choosing C and gamma" multiplies a
    float32 Gram matrix of thousands of rows)."""
    columns = np.flatnonzero(v)
    if columns.size == 0:
        return np.zeros(S.shape[0])
    if S.dtype == np.float64:
        return S @ v
    out = np.empty(S.shape[0])
    rows = max(1, WIDEN_BLOCK_BYTES // (8 * columns.size))
    for start in range(0, S.shape[0], rows):
        block = S[start : start + rows][:, columns]
        out[start : start + rows] = block.astype(np.float64) @ v[columns]
    return out


def solve_dense(
    problem, S, tol=1e-3, shrinking=True, max_iter=None, gradient=None
):
    """eq. (eq-general-qp) with its whole S = diag(y) Q diag(y) given as a
    dense matrix, by signed_smo (WSS2, with shrinking if ``shrinking``);
    ``problem`` supplies p, y, C and alpha0 (its Q is not used), and
    ``gradient``, if given, G = Q alpha0 + p (a warm start carries it, and
    no product with S is needed).  Returns a SolverResult whose n_iter
    counts pair updates."""
    tol = check_tol(tol)
    y, C, p = problem.y, problem.C, problem.p
    n = y.shape[0]
    max_iter = check_max_iter(max_iter, n)
    alpha = problem.alpha0.astype(float).copy()
    psi_zero = -y * p
    psi = (
        psi_zero - product_in_double(S, y * alpha)
        if gradient is None
        else -y * gradient
    )
    psi_bounds(psi, *up_low_sets(alpha, y, C))  # finite, or an error
    n_iter, ending = signed_smo(
        S,
        psi,
        psi_zero,
        y,
        alpha,
        C,
        eps=tol,
        max_iter=max_iter,
        shrinking=shrinking,
        interval=min(n, SHRINK_INTERVAL),
        by_label=problem.by_label,
    )
    status = Status.OPTIMAL if ending == OPTIMAL else Status.MAX_ITER
    return block_result(
        alpha, psi, y, p, C, n_iter, status, problem.by_label
    )


# above this many points the rounds go first (below, measured, the Gram
# matrix costs less than the gamble)
ROUNDS_FIRST_ABOVE = 3000
ROUNDS_ROW_SHARE = 1.6  # rows the rounds may compute, in units of n
# the gamble's blocks: about 2.5 sqrt(n) variables, not the 7 sqrt(n) of
# the rounds beyond the dense path (an easy problem wastes fewer rows)
GAMBLE_BLOCK_PER_ROOT_N = 2.5


class RowShareSpent(Exception):
    """The rounds computed their share of rows without reaching the goal."""


def rounds_then_dense(
    problem, tol, cache_size, shrinking, max_iter, callback
):
    """The gamble of solve_auto for a Gram matrix that fits: the rounds of
    solve_batched (compiled inner solver, blocks of about
    GAMBLE_BLOCK_PER_ROOT_N sqrt(n) variables) until they either reach
    the goal or have computed ROUNDS_ROW_SHARE n rows; in the second case
    the whole Gram matrix is computed and solve_dense goes on from the
    rounds' alpha.
    Returns a SolverResult whose n_iter counts the updates of both."""
    n = problem.y.shape[0]
    block = round(GAMBLE_BLOCK_PER_ROOT_N * np.sqrt(n))
    run = start_rounds(
        problem, tol, block, cache_size, max_iter, solve_block_compiled
    )
    computed = 0  # rows computed so far, by the slots each round refills

    def watch(round_, gap):
        nonlocal computed
        if callback is not None:
            callback(round_, gap)
        if computed > ROUNDS_ROW_SHARE * n and gap >= run.target:
            raise RowShareSpent
        free = freed_slots(round_, run.size, run.whole)
        computed += free.stop - free.start

    try:
        status = run_rounds(run, watch)
    except RowShareSpent:
        rest = replace(problem, alpha0=run.alpha)
        result = solve_dense(
            rest,
            whole_gram(problem),
            tol,
            shrinking,
            run.max_iter - run.n_iter,
        )
        return replace(result, n_iter=result.n_iter + run.n_iter)
    return rounds_result(run, status)


def solve_auto(
    problem,
    tol=1e-3,
    cache_size=200.0,
    shrinking=True,
    max_iter=None,
    callback=None,
):
    """The default solver for eq. (eq-general-qp), ``problem.Q`` a
    KernelRows or GramRows.  If the Gram matrix fits in ``cache_size``
    megabytes: for at most ROUNDS_FIRST_ABOVE points compute it and use
    solve_dense; above, try the rounds first and compute it only if they
    need more than ROUNDS_ROW_SHARE n rows (rounds_then_dense).  If it does
    not fit, the rounds of solve_batched with the compiled inner solver.
    ``callback`` is called once per round, as in solve_batched."""
    n = problem.y.shape[0]
    if not gram_fits(n, cache_size):
        return solve_batched(
            problem,
            tol,
            cache_size=cache_size,
            max_iter=max_iter,
            callback=callback,
            inner=solve_block_compiled,
        )
    if n <= ROUNDS_FIRST_ABOVE:
        S = whole_gram(problem)
        return solve_dense(problem, S, tol, shrinking, max_iter)
    return rounds_then_dense(
        problem, tol, cache_size, shrinking, max_iter, callback
    )


def auto_smo(
    X,
    y,
    C,
    kernel="precomputed",
    tol=1e-3,
    cache_size=200.0,
    shrinking=True,
    max_iter=None,
    callback=None,
):
    """Train a C-SVC with the default solver; returns a SolverResult."""
    problem = c_svc_block_problem(X, y, C, kernel)
    return solve_auto(
        problem, tol, cache_size, shrinking, max_iter, callback
    )


def shared_storage(kernel):
    """The precision of a shared Gram matrix: a kernel's kernel_storage
    (single for the distance kernels, as LIBSVM keeps its kernel cache),
    double for a precomputed kernel."""
    if isinstance(kernel, Kernel):
        return kernel_storage(kernel)
    return np.dtype(np.float64)


def shared_gram(kernel, data, order, cache_size):
    """The Gram matrix of all the training points, taken in the order
    ``order``, in the precision shared_storage gives, or None if it does
    not fit in ``cache_size`` megabytes.  ``kernel`` is a Kernel (``data``
    holds the points) or "precomputed" (``data`` is the Gram matrix)."""
    n, storage = order.size, shared_storage(kernel)
    if not gram_fits(n, cache_size, storage.itemsize):
        return None
    if isinstance(kernel, Kernel):
        return rows_for_points(kernel, data[order]).compute(
            np.arange(n), np.empty((n, n), dtype=storage)
        )
    return np.ascontiguousarray(data[np.ix_(order, order)], dtype=float)


def class_blocks(y_index):
    """The points sorted by class (stably), as LIBSVM sorts them, and
    where each class starts in that order: class c is
    order[start[c]:start[c + 1]]."""
    order = np.argsort(y_index, kind="stable")
    start = np.searchsorted(y_index[order], np.arange(y_index.max() + 2))
    return order, start


def largest_pair(start, pairs):
    """The number of points of the largest pair of classes."""
    return max(
        start[i + 1] - start[i] + start[j + 1] - start[j] for i, j in pairs
    )


def solve_pairs_shared(kernel, data, y_index, pairs, settings):
    """The C-SVC of each pair of classes (i, j) in ``pairs`` on its block
    of one shared Gram matrix (solve_pair_blocks), the points sorted by
    class first, as LIBSVM does, so that a pair's block is four contiguous
    slices of the Gram matrix.  Returns each pair's members (indices into
    data) and labels (+1 for class i), and the SolverResults; or None if
    the Gram matrix and the largest pair's block do not fit in the cache
    together (each pair then gets its own, smaller, Gram matrix)."""
    order, start = class_blocks(y_index)
    largest = largest_pair(start, pairs)
    itemsize = shared_storage(kernel).itemsize
    budget = settings.cache_size - itemsize * largest * largest / MEGABYTE
    K = shared_gram(kernel, data, order, budget)
    if K is None:
        return None
    return solve_pair_blocks(K, order, start, pairs, settings)


@dataclass(frozen=True)
class WarmStart:
    """A feasible start alpha for solve_dense and the gradient G = Q alpha
    + p there."""

    alpha: np.ndarray
    G: np.ndarray


def solve_pair_blocks(K, order, start, pairs, settings, starts=None):
    """The C-SVC of each pair (i, j) by solve_dense (for C-SVC, S = K), one
    after the other, each on its block of K, the Gram matrix of the
    points ``order`` (sorted by class, as class_blocks gives them).
    ``starts`` holds each pair's WarmStart (None: from zero; the search of
    the chapter "Choosing C and gamma" starts from an earlier solution).
    Returns each pair's members (``order``'s entries) and labels, and the
    SolverResults."""
    largest = largest_pair(start, pairs)
    # allocated once: S of each pair (K itself if a pair is all of it)
    buffer = np.empty(largest * largest, dtype=K.dtype)
    problems, results = [], []
    for number, (i, j) in enumerate(pairs):
        first, second = (
            slice(start[i], start[i + 1]),
            slice(start[j], start[j + 1]),
        )
        n_first = first.stop - first.start
        size = n_first + second.stop - second.start
        if size == K.shape[0]:
            S = K
        else:
            S = buffer[: size * size].reshape(size, size)
            S[:n_first, :n_first], S[:n_first, n_first:] = (
                K[first, first],
                K[first, second],
            )
            S[n_first:, :n_first], S[n_first:, n_first:] = (
                K[second, first],
                K[second, second],
            )
        labels = np.where(np.arange(size) < n_first, 1.0, -1.0)
        problem = QPProblem(
            Q=None,  # solve_dense takes S instead
            p=-np.ones(size),
            y=labels,
            C=np.full(size, settings.C),
            alpha0=np.zeros(size),
        )
        warm = None if starts is None else starts[number]
        if warm is not None:
            problem = replace(problem, alpha0=warm.alpha)
        members = np.concatenate([order[first], order[second]])
        problems.append((members, labels))
        results.append(
            solve_dense(
                problem,
                S,
                settings.tol,
                settings.shrinking,
                settings.max_iter,
                None if warm is None else warm.G,
            )
        )
    return problems, results
