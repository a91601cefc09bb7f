# Generated from chapters/linear_scale.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""LinearSVC's parameters and its two-class problems (chapter "Linear
SVMs at scale")."""

import numbers

import numpy as np
from scipy import sparse

from svmlib.estimators.weights import check_class_weight
from svmlib.formulations.svc_input import (
    check_flag,
    first_non_finite,
    label_text,
)
from svmlib.smo.solver import LARGEST_ITERATION_LIMIT
from svmlib.validation import check_sparse_matrix
from svmlib.linear.linear_dcd import check_bias


def check_pass_limit(max_iter):
    """max_iter as a non-negative integer (0 trains nothing, as in
    scikit-learn), at most LARGEST_ITERATION_LIMIT."""
    if (
        isinstance(max_iter, bool)
        or not isinstance(max_iter, numbers.Integral)
        or max_iter < 0
    ):
        raise ValueError(
            f"max_iter must be a non-negative integer; got {max_iter!r}"
        )
    return min(int(max_iter), LARGEST_ITERATION_LIMIT)


LARGEST_FLOAT = np.finfo(np.float64).max


def linear_rows(X):
    """X, from validate_data, as the passes read it: a finite float
    array, or a finite CSR matrix in canonical form (copied only if it
    was not).  Points whose squared norms could overflow are refused."""
    if sparse.issparse(X):
        X = check_sparse_matrix(X)
    else:
        first_non_finite(X)
    largest = max(float(X.max()), -float(X.min())) if X.size else 0.0
    if largest > np.sqrt(LARGEST_FLOAT / max(X.shape[1], 1)):
        raise ValueError(
            f"X's largest entry, {largest:.3g}, is too large: the squared "
            "norms of the points would overflow float64; scale the features"
        )
    return X


def constant_feature(fit_intercept, intercept_scaling):
    """The constant feature varsigma of the estimators' points, eq.
    (eq-dcd-primal): a positive ``intercept_scaling`` with
    ``fit_intercept``, 0 (no offset) without."""
    if not check_flag("fit_intercept", fit_intercept):
        return 0.0
    try:
        scaling = check_bias(intercept_scaling)
    except ValueError:
        scaling = 0.0
    if scaling == 0:
        raise ValueError(
            "intercept_scaling must be a positive number with "
            f"fit_intercept=True; got {intercept_scaling!r} (to fit no "
            "intercept, set fit_intercept=False)"
        )
    if scaling > np.sqrt(LARGEST_FLOAT):
        raise ValueError(
            f"intercept_scaling={intercept_scaling!r} is too large: its "
            "square, a term of every point's squared norm, overflows "
            "float64"
        )
    return scaling


def check_penalty_and_strategy(penalty, multi_class):
    """The penalty, "l2" or "l1" (chapter "Sparse linear models: the L1
    penalty"); one class against the rest, or all classes in Crammer and
    Singer's joint problem (chapter "More linear models")."""
    if not (isinstance(penalty, str) and penalty in ("l1", "l2")):
        raise ValueError(f"penalty must be 'l1' or 'l2'; got {penalty!r}")
    if not (
        isinstance(multi_class, str)
        and multi_class in ("ovr", "crammer_singer")
    ):
        raise ValueError(
            "multi_class must be 'ovr' or 'crammer_singer'; "
            f"got {multi_class!r}"
        )
    if multi_class == "crammer_singer" and penalty == "l1":
        raise ValueError(
            "penalty='l1' has no Crammer-Singer solver: that problem is "
            "penalised by 1/2 sum_c ||w_c||^2 (scikit-learn ignores "
            "penalty with multi_class='crammer_singer'; svmlib refuses it)"
        )


# the problems svmlib (and LIBLINEAR) can solve: (penalty, loss) -> the
# values of dual with a solver (the L1 penalty has no dual solver)
SOLVABLE = {
    ("l2", "hinge"): (True,),
    ("l2", "squared_hinge"): (True, False),
    ("l1", "squared_hinge"): (False,),
}


def unsupported(penalty, loss, dual):
    """scikit-learn's error for a combination without a solver."""
    if (penalty, loss) not in SOLVABLE:
        what = (
            f"the combination of penalty={penalty!r} and loss={loss!r} is "
            "not supported (LIBLINEAR has no solver for it either)"
        )
    else:
        what = (
            f"the combination of penalty={penalty!r} and loss={loss!r} "
            f"is not supported when dual={dual}"
        )
    return ValueError(
        f"Unsupported set of arguments: {what}, Parameters: "
        f"penalty={penalty!r}, loss={loss!r}, dual={dual!r}"
    )


def use_dual(dual, loss, n_samples, n_features, penalty="l2"):
    """Whether to solve the dual: the user's choice, or scikit-learn's
    rule for dual='auto' (the dual if n_samples < n_features, else the
    primal, each where it exists for the penalty and the loss)."""
    solvable = SOLVABLE.get((penalty, loss), ())
    if isinstance(dual, str) and dual == "auto":
        preferred = n_samples < n_features
        dual = preferred if preferred in solvable else not preferred
    if not isinstance(dual, (bool, np.bool_)):
        raise ValueError(
            f"dual must be 'auto', True or False; got {dual!r}"
        )
    if bool(dual) not in solvable:
        raise unsupported(penalty, loss, bool(dual))
    return bool(dual)


def linear_class_weights(class_weight, classes, y_index, sample_weight):
    """The weight of each class: check_class_weight's, except that
    'balanced' counts the points by their sample weights, as
    scikit-learn's LinearSVC does: sum(w) / (k sum of w over class c)."""
    if not (isinstance(class_weight, str) and class_weight == "balanced"):
        return check_class_weight(class_weight, classes, y_index)
    totals = np.bincount(y_index, sample_weight, minlength=classes.size)
    if not (totals > 0).all():
        raise ValueError(
            "class_weight='balanced' needs every class to have a positive "
            f"total weight; class {label_text(classes[np.argmin(totals)])} "
            "has none"
        )
    return totals.sum() / (classes.size * totals)


def check_weighted_classes(weights, y_index, sample_weight, classes):
    """Every class needs a point of positive weight (its class weight
    times its sample weight), or its problem has no point labelled +1."""
    positive = weights[y_index] * sample_weight > 0
    if not positive.any():
        raise ValueError(
            "every point's weight is zero (class_weight times "
            "sample_weight): there is nothing to fit"
        )
    kept = np.bincount(y_index[positive], minlength=classes.size)
    if not kept.all():
        raise ValueError(
            "every class needs a point of positive weight (class_weight "
            "times sample_weight); class "
            f"{label_text(classes[np.argmin(kept)])} has none"
        )


def one_against_the_rest(classes, y_index, C, weights, sample_weight):
    """The labels and the costs C_i of eq. (eq-dcd-costs) of each
    two-class problem: one for two classes (classes_[1] labelled +1, each
    point costing C times its class's weight); for k > 2 classes one per
    class c, c against the rest, where only c's points carry c's weight.
    The sample weights multiply every cost."""
    if classes.size == 2:
        y = np.where(y_index == 1, 1.0, -1.0)
        return [(y, C * weights[y_index] * sample_weight)]
    problems = []
    for c in range(classes.size):
        in_c = y_index == c
        cost = C * np.where(in_c, weights[c], 1.0) * sample_weight
        problems.append((np.where(in_c, 1.0, -1.0), cost))
    return problems
