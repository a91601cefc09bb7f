# Generated from chapters/soft_margin.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""The hinge loss and subgradient descent (chapter "The soft margin")."""

import numbers
from itertools import count, islice

import numpy as np

from svmlib.result import SolverResult
from svmlib.validation import check_binary_problem
from svmlib.result import Status


def hinge_loss(margin):
    """The hinge loss max(0, 1 - z) of functional margins z = y f(x): the
    optimal slack, eq. (eq-optimal-slack)."""
    return np.maximum(0.0, 1.0 - np.asarray(margin, dtype=float))


def primal_objective(w, b, X, y, C):
    """1/2 ||w||^2 + C sum_i xi_i with the optimal slacks of eq.
    (eq-optimal-slack), for a linear (w, b)."""
    return float(0.5 * w @ w + C * hinge_loss(y * (X @ w + b)).sum())


def check_C(C):
    """Return the regularisation parameter ``C`` as a float, or raise a
    ValueError saying what is wrong.

    ``C`` weighs the slack in eq. (eq-soft-primal); it must be a positive,
    finite number.
    """
    if isinstance(C, bool) or not isinstance(C, numbers.Real):
        raise ValueError(f"C must be a positive number; got {C!r}")
    C = float(C)
    if np.isinf(C) and C > 0:
        raise ValueError(
            "C = inf is the hard margin; use hard_margin_primal or "
            "hard_margin_dual"
        )
    if not C > 0:
        raise ValueError(f"C must be a positive number; got C = {C}")
    return C


DEFAULT_SUBGRADIENT_STEPS = 10_000


def subgradient_steps(X, y, C):
    """Subgradient descent on eq. (eq-hinge-objective) with step 1/t, as the
    update eq. (eq-subgradient-alpha), followed by the projection eq.
    (eq-subgradient-projection) (Shalev-Shwartz et al. 2011, Pegasos).

    Returns an endless iterator of the iterates ``(alpha, b)``, starting
    from w = 0 and b = 0 (the arguments are checked at once).  The weight is
    w = X' (alpha * y): it stays in the span of the data, and every alpha_i
    stays in [0, C]; but sum(alpha * y) = 0 is not maintained and almost
    every alpha_i is positive, so these are coefficients, not dual
    multipliers.
    """
    X, y = check_binary_problem(X, y)
    C = check_C(C)
    return _subgradient_iterates(X, y, C)


def _subgradient_iterates(X, y, C):
    radius = np.sqrt(C * y.shape[0])
    alpha, b = np.zeros(y.shape[0]), 0.0
    for t in count(1):
        violators = y * (X @ (X.T @ (alpha * y)) + b) < 1.0
        alpha = (1.0 - 1.0 / t) * alpha + (C / t) * violators
        b += (C / t) * float(y[violators].sum())
        norm_w = float(np.linalg.norm(X.T @ (alpha * y)))
        if norm_w > radius:
            alpha = alpha * (radius / norm_w)
        yield alpha, b


def subgradient_descent(X, y, C, n_iter=DEFAULT_SUBGRADIENT_STEPS):
    """Run ``n_iter`` steps of subgradient_steps; return the best iterate as
    a SolverResult.

    Subgradient descent has no optimality test, so the status is always
    Status.MAX_ITER; compare the objective with a QP solver's to judge how
    close it came.
    """
    X, y = check_binary_problem(X, y)
    if (
        isinstance(n_iter, bool)
        or not isinstance(n_iter, numbers.Integral)
        or n_iter < 1
    ):
        raise ValueError(
            f"n_iter must be a positive integer; got {n_iter!r}"
        )
    best = None
    for alpha, b in islice(subgradient_steps(X, y, C), n_iter):
        w = X.T @ (alpha * y)
        objective = primal_objective(w, b, X, y, C)
        if best is None or objective < best.objective:
            best = SolverResult(
                alpha=alpha,
                b=b,
                objective=objective,
                n_iter=int(n_iter),
                status=Status.MAX_ITER,
                w=w,
            )
    return best
