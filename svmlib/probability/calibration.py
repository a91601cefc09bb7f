# Generated from chapters/probabilities.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""Platt scaling: probabilities from decision values by a fitted sigmoid
(chapter "Probabilities from an SVM")."""

import numbers
import warnings
from dataclasses import dataclass

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from svmlib.formulations.svc_input import check_flag
from svmlib.smo.solver import check_tol


# Lin, Lin and Weng's settings for the Newton method of eq.
# (eq-platt-newton): the stopping tolerance on the gradient, the iteration
# limit, the ridge added to the Hessian, the fraction of the predicted
# decrease a step must achieve, and the shortest step tried; and the
# relative precision of the objective, below which a predicted decrease
# cannot be seen (scikit-learn's ftol for the same fit).
GRADIENT_TOL = 1e-5
NEWTON_MAX_ITER = 100
HESSIAN_RIDGE = 1e-12
SUFFICIENT_DECREASE = 1e-4
MIN_STEP = 1e-10
OBJECTIVE_PRECISION = 64 * np.finfo(float).eps


def check_two_labels(y):
    """The labels as a boolean mask of the positive class: y must hold
    the labels +1 and -1, or 1 and 0, both present."""
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError(f"y must be a 1-D array of labels; got {y.shape}")
    if y.dtype.kind not in "biuf":
        raise ValueError(
            f"y must hold the labels +1 and -1 (or 1 and 0); got dtype "
            f"{y.dtype}"
        )
    classes = set(np.unique(y).tolist())
    if not (classes <= {-1, 1} or classes <= {0, 1}):
        shown = sorted(classes, key=str)[:5]
        raise ValueError(
            f"y must hold the labels +1 and -1 (or 1 and 0); it contains "
            f"{shown}"
        )
    if len(classes) < 2:
        found = (
            f"only the label {classes.pop()}" if classes else "no labels"
        )
        raise ValueError(
            f"y contains {found}: a sigmoid needs examples of both classes"
        )
    return y == 1


def check_scores(scores):
    """Decision values as a 1-D float array of finite numbers."""
    try:
        scores = np.asarray(scores, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(
            "scores must be numbers (decision values)"
        ) from None
    if scores.ndim != 1:
        raise ValueError(
            f"scores must be a 1-D array of decision values; got shape "
            f"{scores.shape}"
        )
    bad = np.flatnonzero(~np.isfinite(scores))
    if bad.size:
        raise ValueError(
            f"scores contain NaN or infinite values (first at index "
            f"{bad[0]}: {scores[bad[0]]})"
        )
    return scores


def check_scores_and_labels(scores, y):
    """Decision values and labels of the same points: the scores as a
    float array, the labels as a mask of the positive class."""
    scores = check_scores(scores)
    if np.shape(y) != scores.shape:
        raise ValueError(
            f"scores has {scores.size} values but y has shape "
            f"{np.shape(y)}; they must describe the same points"
        )
    return scores, check_two_labels(y)


def check_sigmoid_parameter(name, value):
    """A or B of the sigmoid as a float: a finite number."""
    if (
        isinstance(value, bool)
        or not isinstance(value, numbers.Real)
        or not np.isfinite(value)
    ):
        raise ValueError(f"{name} must be a finite number; got {value!r}")
    return float(value)


def check_iteration_count(max_iter):
    """An iteration limit (Newton steps, coupling sweeps): a positive
    integer."""
    if (
        isinstance(max_iter, bool)
        or not isinstance(max_iter, numbers.Integral)
        or max_iter < 1
    ):
        raise ValueError(
            f"max_iter must be a positive integer; got {max_iter!r}"
        )
    return int(max_iter)


@dataclass(frozen=True)
class SigmoidFit:
    """Platt's sigmoid P(f) = 1 / (1 + exp(A f + B)), eq.
    (eq-platt-sigmoid), as fitted by fit_sigmoid: ``objective`` is the
    value of eq. (eq-platt-objective) at (A, B), ``n_iter`` the number of
    Newton steps taken."""

    A: float
    B: float
    objective: float
    n_iter: int

    def probability(self, scores):
        """The probability of the positive class at decision values
        ``scores`` (a 1-D array, or one number, which gives a float), eq.
        (eq-platt-sigmoid)."""
        return sigmoid_probability(scores, self.A, self.B)


def platt_targets(y):
    """Platt's targets, eq. (eq-platt-targets): (n_plus + 1) / (n_plus + 2)
    for each positive label and 1 / (n_minus + 2) for each negative one,
    n_plus and n_minus being the numbers of positive and negative labels."""
    positive = check_two_labels(y)
    n_positive = np.count_nonzero(positive)
    n_negative = positive.size - n_positive
    return np.where(
        positive, (n_positive + 1) / (n_positive + 2), 1 / (n_negative + 2)
    )


def sigmoid_and_complement(Z):
    """P = 1 / (1 + exp(Z)) and 1 - P = 1 / (1 + exp(-Z)), both from
    exp(-abs(Z)) <= 1, eq. (eq-platt-stable): nothing overflows, and neither
    is computed by a subtraction from 1."""
    small = np.exp(-np.abs(Z))
    below_half, above_half = small / (1 + small), 1 / (1 + small)
    P = np.where(Z >= 0, below_half, above_half)
    return P, np.where(Z >= 0, above_half, below_half)


def sigmoid_probability(scores, A, B):
    """Platt's probability of the positive class at each decision value, 1 /
    (1 + exp(A f + B)), eq. (eq-platt-sigmoid), computed stably; for one
    number ``scores`` the result is a float."""
    if np.ndim(scores) == 0:
        return float(sigmoid_probability([scores], A, B)[0])
    scores = check_scores(scores)
    A = check_sigmoid_parameter("A", A)
    B = check_sigmoid_parameter("B", B)
    with np.errstate(over="ignore"):  # A f = -inf or inf: P is 1 or 0
        Z = A * scores + B
    return sigmoid_and_complement(Z)[0]


def platt_objective(A, B, scores, targets):
    """Platt's objective, eq. (eq-platt-objective), evaluated as eq.
    (eq-platt-stable): the sum of (T - [Z < 0]) Z + log(1 + exp(-abs(Z)))
    over the points, with Z = A f + B."""
    Z = A * scores + B
    return float(
        np.sum((targets - (Z < 0)) * Z + np.log1p(np.exp(-np.abs(Z))))
    )


def platt_derivatives(A, B, scores, targets):
    """The gradient and the Hessian of eq. (eq-platt-objective) in (A, B),
    eq. (eq-platt-derivatives)."""
    P, one_minus_P = sigmoid_and_complement(A * scores + B)
    residual = targets - P  # dF/dZ_i
    curvature = P * one_minus_P  # d2F/dZ_i2
    gradient = np.array([residual @ scores, residual.sum()])
    cross = curvature @ scores
    hessian = np.array(
        [[curvature @ scores**2, cross], [cross, curvature.sum()]]
    )
    return gradient, hessian


def newton_direction(gradient, hessian):
    """The Newton direction of eq. (eq-platt-newton), with the small ridge
    that keeps the Hessian invertible when the scores are all equal."""
    return -np.linalg.solve(hessian + HESSIAN_RIDGE * np.eye(2), gradient)


def backtrack(A, B, objective, direction, slope, scores, targets):
    """The backtracking line search of eq. (eq-platt-armijo): steps 1, 1/2,
    1/4, ... along ``direction``, whose ``slope`` (the gradient times the
    direction) is negative, until the objective falls by the required
    fraction of its predicted decrease. Returns the new (A, B, objective),
    or None if no step down to MIN_STEP does."""
    step = 1.0
    while step >= MIN_STEP:
        A_new, B_new = A + step * direction[0], B + step * direction[1]
        new = platt_objective(A_new, B_new, scores, targets)
        if new < objective + SUFFICIENT_DECREASE * step * slope:
            return A_new, B_new, new
        step /= 2
    return None


def fit_sigmoid(
    scores,
    y,
    *,
    corrected_targets=True,
    tol=GRADIENT_TOL,
    max_iter=NEWTON_MAX_ITER,
):
    """Fit Platt's sigmoid, eq. (eq-platt-sigmoid), to decision values
    ``scores`` of points with labels ``y`` (+1 and -1, or 1 and 0, or True
    and False): the minimiser of eq. (eq-platt-objective) by Lin, Lin and
    Weng's Newton method, eqs. (eq-platt-newton) and (eq-platt-armijo), from
    A = 0 and B = log((n_minus + 1) / (n_plus + 1)). The targets are
    Platt's, eq. (eq-platt-targets), or 1 and 0 with
    ``corrected_targets=False``.

    The steps run on the scores divided by s, their largest absolute value
    (s = 1 if they are all 0), and the fitted A is divided by s at the end:
    the probabilities do not change, f^2 stays finite, and the steps are
    the same whatever the unit of the scores. ``tol`` therefore applies to
    the gradient of this rescaled problem: the derivative in A of the
    original problem is s times the rescaled one's (in B they are equal).

    It stops when both components of that gradient are below ``tol``, or
    earlier, without a warning, when the slope along the Newton step,
    -gradient' direction (twice the decrease the quadratic model
    predicts), is below OBJECTIVE_PRECISION times the objective: the
    objective is then at its minimum to working precision, though (A, B)
    need not be, and the gradient may still exceed ``tol``. Returns a
    SigmoidFit; a ConvergenceWarning if it stops at max_iter or because no
    step of the line search decreased the objective."""
    scores, positive = check_scores_and_labels(scores, y)
    corrected_targets = check_flag("corrected_targets", corrected_targets)
    tol = check_tol(tol)
    max_iter = check_iteration_count(max_iter)
    targets = platt_targets(y) if corrected_targets else 1.0 * positive
    largest = float(np.abs(scores).max())
    scale = largest if largest > 0 else 1.0
    unit = scores / scale
    n_positive = np.count_nonzero(positive)
    n_negative = positive.size - n_positive
    A, B = 0.0, float(np.log((n_negative + 1) / (n_positive + 1)))
    objective = platt_objective(A, B, unit, targets)
    n_iter = 0
    while True:
        gradient, hessian = platt_derivatives(A, B, unit, targets)
        if np.abs(gradient).max() < tol:
            return SigmoidFit(float(A / scale), float(B), objective, n_iter)
        direction = newton_direction(gradient, hessian)
        slope = gradient @ direction
        if -slope <= OBJECTIVE_PRECISION * objective:
            return SigmoidFit(float(A / scale), float(B), objective, n_iter)
        if n_iter == max_iter:
            reason = f"it reached max_iter={max_iter}"
            break
        found = backtrack(A, B, objective, direction, slope, unit, targets)
        if found is None:
            reason = "no step along the Newton direction decreased it"
            break
        A, B, objective = found
        n_iter += 1
    warnings.warn(
        f"Platt's Newton method stopped after {n_iter} step(s) with "
        f"the gradient at {np.abs(gradient).max():.1e}, above tol={tol:g}: "
        f"{reason}",
        ConvergenceWarning,
        stacklevel=2,
    )
    return SigmoidFit(float(A / scale), float(B), objective, n_iter)
