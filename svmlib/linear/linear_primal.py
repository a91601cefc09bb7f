# Generated from chapters/linear_scale.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""The squared-hinge primal by Newton's method with conjugate gradients
(chapter "Linear SVMs at scale")."""

import numpy as np

from svmlib.result import SolverResult, Status
from svmlib.linear.linear_dcd import linear_primal_objective


CG_FORCING = 0.1  # the largest residual CG leaves, as a share of |g|
ARMIJO_SHARE = 0.01  # a step must win this share of the promised decrease
MAX_HALVINGS = 30  # halvings of the step before giving up


def folded_product(X, bias, v):
    """Xbar v, Xbar the points with the constant ``bias`` appended (the
    products of eqs. (eq-primal-gradient) and (eq-primal-hessian))."""
    return X @ v[:-1] + bias * v[-1]


def folded_transpose_product(X, bias, u):
    """Xbar' u."""
    return np.append(X.T @ u, bias * u.sum())


def check_primal_loss(problem):
    """A ValueError unless the problem's loss is the squared hinge, the
    loss whose primal Newton's method takes."""
    if problem.loss != "squared_hinge":
        raise ValueError(
            "the primal solver takes loss='squared_hinge' only"
        )


def primal_threshold(problem, tol, g0_norm):
    """The right-hand side of eq. (eq-primal-stopping): ``tol`` times
    ``max(min(n_pos, n_neg), 1) / n`` times the norm of the first
    gradient, counting only the points of positive cost."""
    kept = problem.C > 0
    n_positive = int(np.sum(problem.y[kept] > 0))
    n_kept = int(kept.sum())
    smaller_class = max(min(n_positive, n_kept - n_positive), 1)
    return tol * smaller_class / n_kept * g0_norm


def primal_result(problem, w, margins, n_iter, status):
    """The SolverResult of Newton's method: w (d weights), b = bias
    w_(d+1), the primal objective, the steps, the status, and alpha_i =
    2 C_i max(0, 1 - y_i wbar'xbar_i), the dual point of eq. (eq-dcd-w)."""
    alpha = 2.0 * problem.C * np.maximum(0.0, 1.0 - margins)
    return SolverResult(
        alpha=alpha,
        b=problem.bias * w[-1],
        objective=linear_primal_objective(problem, w),
        n_iter=n_iter,
        status=status,
        w=w[:-1],
    )


def primal_gradient(problem, w, margins):
    """The gradient of eq. (eq-primal-gradient) at wbar, whose margins
    y_i wbar'xbar_i are given, and the indices V of the points with a
    positive loss."""
    V = np.flatnonzero((margins < 1.0) & (problem.C > 0))
    weights = 2.0 * problem.C[V] * (margins[V] - 1.0) * problem.y[V]
    X_V = problem.X[V]
    return w + folded_transpose_product(X_V, problem.bias, weights), V


def cg_newton_direction(problem, V, g, forcing=CG_FORCING):
    """The Newton direction: an approximate solution s of
    (nabla^2 Jbar) s = -g by conjugate gradients, nabla^2 Jbar the
    generalised Hessian of eq. (eq-primal-hessian), applied through
    products with the rows V; stops once the residual is below
    forcing ||g|| (or after d + 1 steps)."""
    X_V, twice_C = problem.X[V], 2.0 * problem.C[V]
    bias = problem.bias
    s, residual = np.zeros_like(g), -g
    direction, rr = residual.copy(), residual @ residual
    target = forcing**2 * (g @ g)
    for _ in range(g.size):
        if rr <= target:
            break
        Hd = direction + folded_transpose_product(
            X_V, bias, twice_C * folded_product(X_V, bias, direction)
        )
        step = rr / (direction @ Hd)
        s += step * direction
        residual -= step * Hd
        rr, rr_old = residual @ residual, rr
        direction = residual + (rr / rr_old) * direction
    return s


def forcing_term(g_norm, g0_norm):
    """The forcing term phi of eq. (eq-primal-forcing), the share of ||g||
    that CG may leave as residual: CG_FORCING, or sqrt(||g|| / ||g_0||)
    once that is smaller (g_0 the gradient at wbar = 0), so that phi goes
    to zero with the gradient."""
    return min(CG_FORCING, np.sqrt(g_norm / g0_norm))


def line_search(problem, w, s, margins, change, promised):
    """armijo_step for the squared hinge: the shortfalls max(0, 1 - y_i
    wbar'xbar_i) along s."""
    return armijo_step(
        problem,
        w,
        s,
        lambda step: np.maximum(0.0, 1.0 - margins - step * change),
        promised,
    )


def armijo_step(problem, w, s, shortfalls, promised):
    """The step length t along s: 1, halved until Jbar = 1/2 ||wbar||^2 +
    sum_i C_i shortfall_i^2 decreases by at least ARMIJO_SHARE of the
    decrease t g's that the slope ``promised``; None if MAX_HALVINGS
    halvings do not get there.  ``shortfalls(t)`` gives every point's
    shortfall at wbar + t s.  The decrease is summed term by term, each
    loss's change as (new - old)(new + old), so that it stays accurate
    when it is tiny next to Jbar itself."""
    w_s, s_s = w @ s, s @ s
    old = shortfalls(0.0)
    step = 1.0
    for _ in range(MAX_HALVINGS):
        new = shortfalls(step)
        decrease = (
            step * w_s
            + 0.5 * step**2 * s_s
            + problem.C @ ((new - old) * (new + old))
        )
        if decrease <= ARMIJO_SHARE * step * promised:
            return step
        step /= 2
    return None


def check_finite(problem, value):
    """A ValueError if ``value`` (a gradient's norm, a direction) has
    overflowed float64, naming the sizes that caused it: at w = 0 Newton's
    method would take an infinite threshold as met and return w = 0, and
    later an infinite direction would stop it at w."""
    if np.all(np.isfinite(value)):
        return
    X = problem.X
    largest_x = max(float(X.max()), -float(X.min())) if X.size else 0.0
    raise ValueError(
        "the primal solver's numbers overflow float64 with C * "
        f"sample_weight up to {float(problem.C.max()):.3g} and entries of "
        f"X up to {largest_x:.3g}: lower C, scale the features, or use "
        "dual=True"
    )


def newton_primal(problem, tol=1e-4, max_iter=1000, callback=None):
    """Newton's method on eq. (eq-dcd-primal) with the squared hinge:
    directions by cg_newton_direction with the forcing_term, steps by
    line_search, until the gradient meets eq. (eq-primal-stopping) or
    ``max_iter`` steps; INACCURATE if round-off stops the steps first.
    ``callback(step, forcing, g_norm, V)`` sees each step's length, its
    forcing term, and the new gradient's norm and set V.  Returns
    primal_result's SolverResult (w, b, the objective, alpha, steps)."""
    check_primal_loss(problem)
    n, d = problem.X.shape
    w, margins = np.zeros(d + 1), np.zeros(n)
    g, V = primal_gradient(problem, w, margins)
    g0_norm = np.sqrt(g @ g)
    check_finite(problem, g0_norm)
    threshold = primal_threshold(problem, tol, g0_norm)
    n_iter, status = 0, Status.MAX_ITER
    while n_iter < max_iter:
        if np.sqrt(g @ g) <= threshold:
            status = Status.OPTIMAL
            break
        forcing = forcing_term(np.sqrt(g @ g), g0_norm)
        s = cg_newton_direction(problem, V, g, forcing)
        check_finite(problem, s)
        change = problem.y * folded_product(problem.X, problem.bias, s)
        step = line_search(problem, w, s, margins, change, g @ s)
        if step is None:  # no decrease: round-off has taken over
            status = Status.INACCURATE
            break
        w = w + step * s
        margins = margins + step * change
        g, V = primal_gradient(problem, w, margins)
        check_finite(problem, np.sqrt(g @ g))
        n_iter += 1
        if callback is not None:
            callback(step, forcing, np.sqrt(g @ g), V)
    if status == Status.MAX_ITER and np.sqrt(g @ g) <= threshold:
        status = Status.OPTIMAL  # the last step allowed met the rule
    return primal_result(problem, w, margins, n_iter, status)
