# Generated from chapters/in_practice.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""Class and sample weights: one bound C_t per point (from the chapter
"svmlib in practice")."""

import numbers
from dataclasses import replace

import numpy as np

from svmlib.formulations.c_svc import c_svc_problem
from svmlib.formulations.svc_input import label_text
from svmlib.smo.solver import solve


WEIGHTED_SOLVERS = ("auto", "smo", "batched")


def check_weight(weight, name):
    """One weight: a non-negative finite number."""
    if (
        isinstance(weight, bool)
        or not isinstance(weight, numbers.Real)
        or not 0 <= weight < np.inf
    ):
        raise ValueError(
            f"{name} must be a non-negative number; got {weight!r}"
        )
    return float(weight)


def check_class_weight(class_weight, classes, y_index):
    """The weight of each class: all ones for None; n / (n_classes n_c)
    for "balanced" (scikit-learn's rule: every class then weighs
    n / n_classes in all); or a dict from labels to weights, 1 for the
    labels it omits."""
    if class_weight is None:
        return np.ones(classes.size)
    if isinstance(class_weight, str) and class_weight == "balanced":
        counts = np.bincount(y_index, minlength=classes.size)
        return y_index.size / (classes.size * counts)
    if not isinstance(class_weight, dict):
        raise ValueError(
            "class_weight must be None, 'balanced' or a dict from class "
            f"labels to weights; got {class_weight!r}"
        )
    position = {label: i for i, label in enumerate(classes.tolist())}
    weights = np.ones(classes.size)
    for label, weight in class_weight.items():
        if label not in position:
            raise ValueError(
                f"class_weight names the class {label!r}, which is not in "
                f"y (its classes are {classes.tolist()})"
            )
        weights[position[label]] = check_weight(
            weight, f"class_weight[{label!r}]"
        )
    return weights


def check_sample_weight(sample_weight, n_samples):
    """sample_weight as one finite number per point (all ones for None; a
    single number for all), a negative weight replaced by 0: as in
    scikit-learn, a point of weight 0 or less is left out."""
    if sample_weight is None:
        return np.ones(n_samples)
    try:
        weights = np.asarray(sample_weight, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(
            "sample_weight must contain numbers; got "
            f"{type(sample_weight).__name__}"
        ) from None
    if weights.ndim == 0:
        weights = np.full(n_samples, float(weights))
    if weights.shape != (n_samples,):
        raise ValueError(
            f"sample_weight must hold one number per sample ({n_samples}); "
            f"got shape {weights.shape}"
        )
    if not np.isfinite(weights).all():
        raise ValueError(
            "sample_weight must be finite (a point of weight 0 or less is "
            "left out)"
        )
    return np.maximum(weights, 0.0)


def point_bounds(C, class_weights, y_index, sample_weight):
    """C_t = C class_weight[y_t] sample_weight_t, eq. (eq-weighted-bounds):
    the bound of each point's multiplier."""
    return C * class_weights[y_index] * sample_weight


def train_weighted(solver, X, y, kernel, settings, bounds):
    """A two-class problem whose points have their own bounds C_t, eq.
    (eq-weighted-dual): the C-SVC problem of ``solver`` ("auto", "smo" or
    "batched") built with C = 1, its bounds replaced by ``bounds``."""
    if solver == "smo":
        problem = c_svc_problem(X, y, 1.0, kernel, settings.cache_size)
        return solve(
            replace(problem, C=bounds),
            settings.tol,
            shrinking=settings.shrinking,
            max_iter=settings.max_iter,
        )
    # the later chapters' modules
    from svmlib.training.batched import c_svc_block_problem, solve_batched
    from svmlib.training.fast import solve_auto

    problem = replace(c_svc_block_problem(X, y, 1.0, kernel), C=bounds)
    if solver == "batched":
        return solve_batched(
            problem,
            settings.tol,
            cache_size=settings.cache_size,
            max_iter=settings.max_iter,
        )
    return solve_auto(
        problem,
        settings.tol,
        settings.cache_size,
        settings.shrinking,
        settings.max_iter,
    )


def weighted_bounds(
    C, class_weight, sample_weight, classes, y_index, solver
):
    """The bound C_t of every point, or None when every one is C (no
    weights), and the weight of each class; an error if ``solver`` takes
    one C only, or if a class is left without a point of positive
    weight."""
    class_weights = check_class_weight(class_weight, classes, y_index)
    weights = check_sample_weight(sample_weight, y_index.size)
    bounds = point_bounds(C, class_weights, y_index, weights)
    if np.all(bounds == C):
        return None, class_weights
    if solver not in WEIGHTED_SOLVERS:
        raise ValueError(
            f"solver {solver!r} takes one C for every point; class_weight "
            f"and sample_weight need one of {WEIGHTED_SOLVERS}"
        )
    if not (bounds > 0).any():
        raise ValueError(
            "Invalid input - all samples have zero or negative weights. "
            "(A point's weight is its class_weight times its "
            "sample_weight: there is nothing to fit.)"
        )
    kept = np.bincount(y_index[bounds > 0], minlength=classes.size)
    if np.count_nonzero(kept) == 1:
        raise ValueError(
            "Invalid input - all samples with positive weights belong to "
            "the same class: class "
            f"{label_text(classes[np.argmax(kept)])} (class_weight times "
            "sample_weight)"
        )
    if not kept.all():
        raise ValueError(
            "every class needs a point of positive weight (class_weight "
            "times sample_weight); class "
            f"{label_text(classes[np.argmin(kept)])} has none"
        )
    return bounds, class_weights
