# Generated from chapters/simplified_smo.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""Ng's simplified SMO (from the chapter "The simplified SMO")."""

import numbers
from itertools import count
from dataclasses import dataclass

import numpy as np

from svmlib.derivation.dual import check_gram, dual_objective
from svmlib.derivation.hinge import check_C
from svmlib.kernels.functions import Kernel
from svmlib.result import SolverResult, Status


BOUND_ROUND_OFF = 8 * np.finfo(float).eps


def pair_bounds(alpha_i, alpha_j, y_i, y_j, C):
    """The ends (L, H) of the segment of feasible alpha_j, for both label
    cases, eq. (eq-smo-clip)."""
    if y_i != y_j:
        return max(0.0, alpha_j - alpha_i), min(C, C + alpha_j - alpha_i)
    return max(0.0, alpha_i + alpha_j - C), min(C, alpha_i + alpha_j)


def two_variable_update(alpha_i, alpha_j, y_i, y_j, E_i, E_j, eta, C):
    """Minimise the dual over (alpha_i, alpha_j) with the others fixed: the
    Newton step eq. (eq-smo-unclipped), clipped to the segment eq.
    (eq-smo-clip).  Needs eta > 0.

    Returns the new ``(alpha_i, alpha_j)``.  When alpha_j stops at the end
    of its segment where alpha_i reaches 0 or C, round-off of a few eps * C
    can leave alpha_i just off that bound (or outside the box); such values
    are set to the bound, so that bound multipliers are exact.
    """
    L, H = pair_bounds(alpha_i, alpha_j, y_i, y_j, C)
    alpha_j_new = min(max(alpha_j + y_j * (E_i - E_j) / eta, L), H)
    alpha_i_new = alpha_i + y_i * y_j * (alpha_j - alpha_j_new)
    round_off = BOUND_ROUND_OFF * C
    if alpha_i_new <= round_off:
        alpha_i_new = 0.0
    elif alpha_i_new >= C - round_off:
        alpha_i_new = C
    return alpha_i_new, alpha_j_new


def choose_offset(b, E_i, E_j, alpha_i, alpha_j, C):
    """The handout's rule for b, eq. (eq-smo-b), from the errors E_i, E_j
    recomputed with the new multipliers and the old b: b - E_i if alpha_i is
    free, else b - E_j if alpha_j is free, else the mean."""
    b_i, b_j = b - E_i, b - E_j
    if 0.0 < alpha_i < C:
        return b_i
    if 0.0 < alpha_j < C:
        return b_j
    return 0.5 * (b_i + b_j)


SMO_TOLERANCE = 1e-3
MIN_ALPHA_CHANGE = 1e-5
DEFAULT_MAX_PASSES = 10
MAX_TOTAL_PASSES = 10_000


def violates_kkt(r, alpha, C, tol):
    """Whether a point with r = y E = y f(x) - 1 violates the KKT table by
    more than tol, eq. (eq-smo-violation)."""
    return (r < -tol and alpha < C) or (r > tol and alpha > 0.0)


@dataclass(frozen=True)
class PairUpdate:
    """One step of algorithm (alg-simplified-smo): the pair (i, j), its
    multipliers before the step, the segment [L, H] of alpha_j, and all
    multipliers and b after it."""

    i: int
    j: int
    alpha_i_before: float
    alpha_j_before: float
    L: float
    H: float
    alpha: np.ndarray
    b: float


def try_pair(K, y, C, alpha, b, i, tol, rng):
    """Lines 2.2.1 to 2.2.6 of algorithm (alg-simplified-smo), for one i.

    Returns a PairUpdate with the new multipliers and offset, or None where
    a line says "continue".  The input ``alpha`` is not modified.
    """
    E_i = K[i] @ (alpha * y) + b - y[i]  # line 2.2.1
    if not violates_kkt(y[i] * E_i, alpha[i], C, tol):
        return None
    j = int(rng.integers(y.shape[0] - 1))  # line 2.2.2: j != i, uniform
    j += j >= i
    E_j = K[j] @ (alpha * y) + b - y[j]
    L, H = pair_bounds(alpha[i], alpha[j], y[i], y[j], C)  # line 2.2.3
    if L == H:
        return None
    eta = K[i, i] + K[j, j] - 2.0 * K[i, j]  # line 2.2.4
    if eta <= 0.0:
        return None
    alpha_i, alpha_j = two_variable_update(  # lines 2.2.5 and 2.2.6
        alpha[i], alpha[j], y[i], y[j], E_i, E_j, eta, C
    )
    if abs(alpha_j - alpha[j]) < MIN_ALPHA_CHANGE:
        return None
    new = alpha.copy()
    new[i], new[j] = alpha_i, alpha_j
    E_i_new = K[i] @ (new * y) + b - y[i]  # line 2.2.6: the offset
    E_j_new = K[j] @ (new * y) + b - y[j]
    b_new = choose_offset(b, E_i_new, E_j_new, alpha_i, alpha_j, C)
    return PairUpdate(i, j, alpha[i], alpha[j], L, H, new, b_new)


def smo_pass(K, y, C, alpha, b, tol, rng):
    """Lines 2.1 and 2.2 of algorithm (alg-simplified-smo): one pass over
    every i.  Returns (alpha, b, pairs changed)."""
    changed = 0  # line 2.1
    for i in range(y.shape[0]):  # line 2.2
        step = try_pair(K, y, C, alpha, b, i, tol, rng)
        if step is not None:  # a pair changed (end of line 2.2.6)
            alpha, b, changed = step.alpha, step.b, changed + 1
    return alpha, b, changed


def check_smo_options(tol, max_passes, max_total_passes):
    """Raise a ValueError unless ``max_passes`` and ``max_total_passes``
    are positive integers and ``tol`` is a positive number."""
    for name, value in (
        ("max_passes", max_passes),
        ("max_total_passes", max_total_passes),
    ):
        if (
            isinstance(value, bool)
            or not isinstance(value, numbers.Integral)
            or value < 1
        ):
            raise ValueError(
                f"{name} must be a positive integer; got {value!r}"
            )
    if (
        isinstance(tol, bool)
        or not isinstance(tol, numbers.Real)
        or not 0 < tol < np.inf
    ):
        raise ValueError(f"tol must be a positive number; got {tol!r}")


def smo_status(K, y, C, alpha, b, tol, stopped_quietly):
    """OPTIMAL if no point violates eq. (eq-smo-violation) at the end;
    otherwise INACCURATE if the loop stopped after its quiet passes, and
    MAX_ITER if the cap on the total number of passes stopped it."""
    r = y * (K @ (alpha * y) + b) - 1.0
    violators = sum(
        violates_kkt(r_i, a_i, C, tol) for r_i, a_i in zip(r, alpha)
    )
    if violators == 0:
        return Status.OPTIMAL
    return Status.INACCURATE if stopped_quietly else Status.MAX_ITER


def gram_matrix(X, kernel):
    """The Gram matrix of X for a Kernel (its gamma resolved from X), or X
    itself for "precomputed"."""
    if isinstance(kernel, str) and kernel == "precomputed":
        return X
    if not isinstance(kernel, Kernel):
        raise ValueError(
            f"kernel must be a Kernel or 'precomputed'; got {kernel!r}"
        )
    return kernel.resolve(X)(X)


def pair_updates(K, y, C, alpha, b, tol, rng):
    """The pair updates of one pass of algorithm (alg-simplified-smo) over
    every i, as a generator of PairUpdate records (the input ``alpha`` is
    not modified): the steps that smo_pass takes, one at a time."""
    for i in range(y.shape[0]):
        step = try_pair(K, y, C, alpha, b, i, tol, rng)
        if step is not None:
            alpha, b = step.alpha, step.b
            yield step


def simplified_smo_passes(K, y, C, tol=SMO_TOLERANCE, random_state=0):
    """The passes of algorithm (alg-simplified-smo) from alpha = 0, b = 0,
    as an endless generator of ``(alpha, b, changed)``; ``random_state``
    seeds the choice of partners."""
    K, y = check_gram(K, y)
    C = check_C(C)
    rng = np.random.default_rng(random_state)
    alpha, b = np.zeros(y.shape[0]), 0.0
    for _ in count():
        alpha, b, changed = smo_pass(K, y, C, alpha, b, tol, rng)
        yield alpha, b, changed


def simplified_smo(
    X,
    y,
    C,
    kernel="precomputed",
    tol=SMO_TOLERANCE,
    max_passes=DEFAULT_MAX_PASSES,
    max_total_passes=MAX_TOTAL_PASSES,
    random_state=0,
):
    """Train a soft-margin SVM with the simplified SMO of Ng's CS229
    handout, algorithm (alg-simplified-smo).

    ``X`` is a Gram matrix when ``kernel="precomputed"``, else the training
    points for ``kernel``; ``random_state`` seeds the choice of partners.
    Returns a SolverResult: ``objective`` is the dual in minimisation form,
    ``n_iter`` the number of passes, and ``status`` OPTIMAL only if no point
    violates eq. (eq-smo-violation) at the end.
    """
    check_smo_options(tol, max_passes, max_total_passes)
    K, y = check_gram(gram_matrix(X, kernel), y)
    C = check_C(C)
    rng = np.random.default_rng(random_state)
    alpha, b = np.zeros(y.shape[0]), 0.0  # line 1 (the algorithm's
    quiet = n_passes = 0  # "passes" is quiet; n_passes counts all passes)
    while quiet < max_passes and n_passes < max_total_passes:  # line 2
        alpha, b, changed = smo_pass(K, y, C, alpha, b, tol, rng)
        n_passes += 1
        quiet = quiet + 1 if changed == 0 else 0  # line 2.3
    status = smo_status(K, y, C, alpha, b, tol, quiet >= max_passes)
    return SolverResult(
        alpha=alpha,
        b=float(b),
        objective=dual_objective(K, y, alpha),
        n_iter=n_passes,
        status=status,
    )
