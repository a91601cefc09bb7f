# Generated from chapters/model_selection.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""SVC and SVR fitted on a kernel block, from a warm start (chapter
"Choosing C and gamma")."""

from dataclasses import dataclass
from dataclasses import replace

import numpy as np

from svmlib.estimators.estimator import SVC
from svmlib.formulations.multiclass import class_pairs
from svmlib.training.fast import WarmStart, class_blocks, solve_pair_blocks
from svmlib.estimators.one_problem import SVR
from svmlib.formulations.svc_input import (
    check_box_bound,
    check_flag,
    check_iteration_limit,
    check_positive,
)
from svmlib.formulations.svr_one_class import svr_coefficients, svr_problem
from svmlib.smo.solver import check_tol
from svmlib.training.fast import solve_dense


def start_from(previous, C):
    """The start for box bound C from the Solutions ``previous`` = (C',
    solutions) of an earlier fit: alpha unchanged if C >= C' (still
    feasible: the box only grew), else alpha C / C' (feasible: every bound
    and y'alpha scale with it), with Q alpha scaled alike (no product with
    Q needed); None for no earlier solution."""
    if previous is None:
        return None
    C_before, solutions = previous
    factor = min(1.0, C / C_before)
    return [
        Solution(s.alpha * factor, s.Q_alpha * factor) for s in solutions
    ]


@dataclass(frozen=True)
class Solution:
    """One problem's alpha and Q alpha (the gradient minus p): what a warm
    start scales, so that the next solve needs no product with Q."""

    alpha: np.ndarray
    Q_alpha: np.ndarray


@dataclass(frozen=True)
class ChainLink:
    """A chain's latest fit: its box bound, its epsilon (None for SVC),
    each problem's Solution, and the fitted model."""

    C: float
    epsilon: object
    solutions: list
    model: object


def saturated(link, C, epsilon):
    """Whether ``link``'s model is also the fit for C and epsilon: C no
    smaller, the same epsilon, and no multiplier at its bound, so that
    every optimality condition is unchanged (exercise
    ex-select-saturation)."""
    return (
        C >= link.C
        and epsilon == link.epsilon
        and all(s.alpha.max(initial=0.0) < link.C for s in link.solutions)
    )


def svc_on_block(model, K, y_index, classes, start):
    """``model``, an SVC, fitted as with kernel="precomputed" on the fold
    whose training points are the first len(y_index) rows of K, sorted by
    class (``y_index`` their classes' indices in ``classes``); each pair of
    classes solved by solve_pair_blocks from ``start`` (one Solution per
    pair, or None).  Returns the fitted model and each pair's Solution."""
    model.set_params(kernel="precomputed")
    _, settings, seed = model._checked_parameters()
    n = y_index.size
    model.classes_, model._kernel = classes, "precomputed"
    model.n_features_in_ = n
    model.class_weight_ = np.ones(classes.size)
    order, first = class_blocks(y_index)
    # C-SVC's p = -1: G = Q alpha - 1
    warm = (
        None
        if start is None
        else [WarmStart(s.alpha, s.Q_alpha - 1.0) for s in start]
    )
    problems, results = solve_pair_blocks(
        K[:n], order, first, class_pairs(classes.size), settings, warm
    )
    models = [
        (members, result.alpha * labels)
        for (members, labels), result in zip(problems, results)
    ]
    intercept = [result.b for result in results]
    model._store_model(K[:n], y_index, models, intercept, results)
    model._fit_probability(K[:n], y_index, None, seed)
    return model, [Solution(r.alpha, r.G + 1.0) for r in results]


def fits_on_block(model):
    """Whether ``model`` can be fitted by svc_on_block or svr_on_block:
    exactly an SVC (default solver, no class weights, no probability
    model) or an SVR, without verbose output; anything else is fitted by
    its own fit on the precomputed kernel block."""
    if model.verbose:
        return False
    if type(model) is SVR:
        return True
    return (
        type(model) is SVC
        and model.solver == "auto"
        and model.class_weight is None
        and model.probability in (False, "deprecated")
    )


def doubled(K):
    """S = [[K, K], [K, K]] of eq. (eq-svr-core), once for all of a fold's
    SVR fits."""
    return np.block([[K, K], [K, K]])


def svr_on_block(model, K, S, y, start):
    """``model``, an SVR, fitted as with kernel="precomputed" on the fold
    whose training points are the first len(y) rows of K (S their
    doubled(K)), from ``start`` (a list of one Solution of the 2n
    multipliers, or None).  Returns the fitted model and its Solution, as
    a list of one."""
    model.set_params(kernel="precomputed")
    C = check_box_bound(model.C, type(model).__name__)
    tol = check_tol(model.tol)
    check_positive("cache_size", model.cache_size)
    shrinking = check_flag("shrinking", model.shrinking)
    max_iter = check_iteration_limit(model.max_iter)
    n = y.size
    problem = svr_problem(K[:n], y, C, model.epsilon)
    gradient = None
    if start is not None:
        (solution,) = start
        problem = replace(problem, alpha0=solution.alpha)
        gradient = solution.Q_alpha + problem.p
    result = solve_dense(problem, S, tol, shrinking, max_iter, gradient)
    model._kernel, model.n_features_in_ = "precomputed", n
    model._store(
        K[:n], svr_coefficients(result.alpha), result, np.arange(n)
    )
    return model, [Solution(result.alpha, result.G - problem.p)]
