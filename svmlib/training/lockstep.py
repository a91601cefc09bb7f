# Generated from chapters/scaling_up.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""Many small problems solved side by side (chapter "Scaling up")."""

import numpy as np

from svmlib.result import Status
from svmlib.smo.working_set import TAU, up_low_sets
from svmlib.training.batched import block_result
from svmlib.derivation.hinge import check_C
from svmlib.smo.solver import check_max_iter, check_tol
from svmlib.validation import check_matrix
from svmlib.kernels.kernel_cache import MEGABYTE
from svmlib.kernels.kernel_rows import GramRows, rows_for_points
from svmlib.training.batched import BATCH_SIZE


def lockstep_steps(K, members, labels, C, eps, max_iter):
    """The steps of solve_lockstep, on arguments already checked (the
    estimator's Gram matrix is finite by construction: its points were
    checked, and KernelRows refuses overflow)."""
    n = K.shape[0]
    K_flat = K.reshape(-1)
    index, y, bound = padded_problems(members, labels, C)
    K_diag = np.diag(K)[index]
    alpha, psi = np.zeros(y.shape), y.copy()  # psi = -y G = y at alpha = 0
    I_up, I_low = up_low_sets(alpha, y, bound)  # eq. (eq-up-low)
    up_mask = np.where(I_up, 0.0, -np.inf)
    low_mask = np.where(I_low, 0.0, np.inf)
    problem, zero = np.arange(len(members)), np.zeros(())
    results = [None] * len(members)
    n_iter = 0
    while True:
        rows = np.arange(problem.size)
        up = psi + up_mask
        i = up.argmax(axis=1)
        m = up[rows, i]
        b = np.subtract(m[:, None], psi)  # b_it = m - psi_t,
        b -= low_mask  # and -inf outside I_low
        done = b.max(axis=1) < eps  # eq. (eq-stopping), per problem
        stopped = done | (n_iter == max_iter)
        if stopped.any():
            for row in np.flatnonzero(stopped):
                k, size = problem[row], len(members[problem[row]])
                results[k] = block_result(
                    alpha[row, :size].copy(),
                    psi[row, :size].copy(),
                    y[row, :size],
                    -np.ones(size),
                    bound[row, :size],
                    n_iter,
                    Status.OPTIMAL if done[row] else Status.MAX_ITER,
                )
            keep = ~stopped
            if not keep.any():
                return results
            # the problems that go on
            problem, index, y, bound, K_diag, alpha = (
                a[keep] for a in (problem, index, y, bound, K_diag, alpha)
            )
            psi, up_mask, low_mask, i, m, b = (
                a[keep] for a in (psi, up_mask, low_mask, i, m, b)
            )
            rows = np.arange(problem.size)
        # row i of each problem's S = K; the gains of eq. (eq-wss2-signed)
        S_i = K_flat.take(index + (index[rows, i] * n)[:, None])
        A_i = S_i * -2.0  # a_it = S_ii + S_tt - 2 S_it
        A_i += K_diag[rows, i][:, None]
        A_i += K_diag
        A_i[A_i <= 0.0] = TAU
        np.maximum(b, zero, out=b)
        b *= b
        b /= A_i
        j = b.argmax(axis=1)
        y_i, y_j = y[rows, i], y[rows, j]
        old_i, old_j = alpha[rows, i], alpha[rows, j]
        C_i, C_j = bound[rows, i], bound[rows, j]
        room_i = np.where(y_i > 0, C_i - old_i, old_i)
        room_j = np.where(y_j > 0, old_j, C_j - old_j)
        step = (m - psi[rows, j]) / A_i[rows, j]  # eq. (eq-pair-step)
        t = np.minimum(np.minimum(step, room_i), room_j)
        new_i = np.where(
            t == room_i, np.where(y_i > 0, C_i, 0.0), old_i + y_i * t
        )
        new_j = np.where(
            t == room_j, np.where(y_j > 0, 0.0, C_j), old_j - y_j * t
        )
        S_j = K_flat.take(index + (index[rows, j] * n)[:, None])
        S_i *= ((new_i - old_i) * y_i)[:, None]  # eq. (eq-signed-update)
        S_j *= ((new_j - old_j) * y_j)[:, None]
        psi -= S_i
        psi -= S_j
        both = np.concatenate((i, j))
        rows_twice = np.concatenate((rows, rows))
        value = np.concatenate((new_i, new_j))
        y_k, C_k = np.concatenate((y_i, y_j)), np.concatenate((C_i, C_j))
        alpha[rows_twice, both] = value
        I_up, I_low = up_low_sets(value, y_k, C_k)  # eq. (eq-up-low)
        up_mask[rows_twice, both] = np.where(I_up, 0.0, -np.inf)
        low_mask[rows_twice, both] = np.where(I_low, 0.0, np.inf)
        n_iter += 1


def padded_problems(members, labels, C):
    """The problems as rows of equal width: each point's index in K, its
    label and its bound.  The padding has C = 0 and alpha = 0, so it is in
    neither I_up nor I_low and is never selected."""
    width = max(len(points) for points in members)
    index = np.zeros((len(members), width), dtype=np.intp)
    y, bound = (
        np.ones((len(members), width)),
        np.zeros((len(members), width)),
    )
    for row, (points, labels_row) in enumerate(zip(members, labels)):
        (
            index[row, : len(points)],
            y[row, : len(points)],
            bound[row, : len(points)],
        ) = points, labels_row, C
    return index, y, bound


def check_problems(K, members, labels):
    """The Gram matrix as a square float64 array, and each problem's members
    (indices into it) and labels (-1 or +1, one per member) as arrays; or a
    ValueError that names the problem."""
    K = check_matrix(K, name="K")
    if K.shape[0] != K.shape[1]:
        raise ValueError(
            f"K must be a square Gram matrix; got shape {K.shape}"
        )
    if len(members) == 0 or len(members) != len(labels):
        raise ValueError(
            "need one label array per problem and at least one problem; "
            f"got {len(members)} member arrays and {len(labels)} label "
            "arrays"
        )
    members = [np.asarray(points, dtype=np.intp) for points in members]
    labels = [np.asarray(values, dtype=float) for values in labels]
    for k, (points, values) in enumerate(zip(members, labels)):
        if (
            points.ndim != 1
            or points.size == 0
            or values.shape != points.shape
        ):
            raise ValueError(
                f"problem {k}: members and labels must be non-empty 1-D "
                f"arrays of one length; got shapes {points.shape} and "
                f"{values.shape}"
            )
        if points.min() < 0 or points.max() >= K.shape[0]:
            raise ValueError(
                f"problem {k}: members must index the {K.shape[0]} rows "
                "of K"
            )
        if not np.all(np.abs(values) == 1.0):
            raise ValueError(f"problem {k}: labels must be -1 or +1")
    return K, members, labels


def solve_lockstep(K, members, labels, C, eps, max_iter):
    """Second-order SMO, eqs. (eq-wss2-signed) and (eq-signed-update), on
    many C-SVC duals at once: each step makes one pair update in every
    problem not yet optimal, with numpy calls on arrays holding all of them.
    Problem k trains on the points ``members[k]`` (indices into the Gram
    matrix ``K``) with labels ``labels[k]``, from alpha = 0, until m - M <
    ``eps``, eq. (eq-stopping), or ``max_iter`` updates.  Returns a
    SolverResult per problem; each follows the rule solve_block follows on
    it alone.
    """
    K, members, labels = check_problems(K, members, labels)
    C, eps = check_C(C), check_tol(eps)
    max_iter = check_max_iter(
        max_iter, max(points.size for points in members)
    )
    return lockstep_steps(K, members, labels, C, eps, max_iter)


# a float64 entry of the Gram matrix, and its flag while it is checked for
# finiteness
GRAM_ENTRY_BYTES = 9
# float64 arrays of the problems' padded shape alive at once in
# solve_lockstep (measured)
PADDED_ARRAYS = 24


def lockstep_applies(problems, n_samples, cache_size):
    """Whether the estimator's two-class problems (members, labels) go to
    solve_lockstep: more than one, none larger than one block of the batched
    solver, and the Gram matrix of all ``n_samples`` points with
    solve_lockstep's padded arrays within ``cache_size`` megabytes."""
    width = max(members.size for members, _ in problems)
    needed = (
        GRAM_ENTRY_BYTES * n_samples**2
        + PADDED_ARRAYS * len(problems) * width * np.dtype(float).itemsize
    )
    return (
        len(problems) > 1
        and width <= BATCH_SIZE
        and needed <= cache_size * MEGABYTE
    )


def solve_pairs_lockstep(kernel, data, problems, settings):
    """The estimator's two-class problems solved by solve_lockstep on one
    Gram matrix of all the points: ``data`` itself for a precomputed kernel,
    else computed by KernelRows (SparseKernelRows for sparse points), in
    double precision as a single block of the batched solver is
    (single-precision rows would let psi drift, and the problems are not
    checked again).  Returns a SolverResult per
    problem."""
    n = data.shape[0]
    if isinstance(kernel, str):  # "precomputed": data is the Gram matrix
        K = GramRows(data).K
    else:
        rows = rows_for_points(kernel, data)
        K = rows.compute(np.arange(n), np.empty((n, n)))
    members, labels = zip(*problems)
    max_iter = check_max_iter(
        settings.max_iter, max(points.size for points in members)
    )
    return lockstep_steps(
        K, members, labels, settings.C, settings.tol, max_iter
    )
