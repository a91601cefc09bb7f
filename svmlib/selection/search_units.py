# Generated from chapters/model_selection.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""The units of work of a grid search: the candidates that share a kernel,
on one fold (chapter "Choosing C and gamma")."""

import copy
import time
from dataclasses import dataclass, replace

import numpy as np
from sklearn.base import clone
from sklearn.utils import _safe_indexing
from sklearn.utils.validation import check_array

from svmlib.estimators.one_problem import SVR
from svmlib.formulations.svc_input import check_box_bound
from svmlib.selection.search_blocks import FoldBlock, fold_block, kernel_key
from svmlib.selection.search_fits import (
    ChainLink,
    doubled,
    fits_on_block,
    saturated,
    start_from,
    svc_on_block,
    svr_on_block,
)


def chain_key(params):
    """What must be equal for one fit to start from another's solution:
    every parameter but C and epsilon (which move neither the equality
    constraint nor, C growing, the box out of reach), as text."""
    return tuple(
        (name, repr(value))
        for name, value in sorted(params.items())
        if name not in ("C", "epsilon")
    )


@dataclass
class Unit:
    """One unit of work: the candidates of one group on one fold."""

    candidates: list  # (index, params) pairs, in the order of the chain
    fold: int
    train: np.ndarray
    test: np.ndarray


@dataclass(frozen=True)
class SearchSettings:
    """What every unit of a search needs besides its candidates and fold:
    the scorer (and its metric names, None for one), whether to score the
    training part, the score of a failed fit ("raise" to raise), the
    megabytes a kernel block may take, whether fits start from the
    solution of the one before, and the steps of a pipeline before the
    estimator (None without)."""

    scorer: object
    scorer_names: tuple
    return_train_score: bool
    error_score: object
    memory: float
    warm_start: bool
    head: object = None


@dataclass
class Cell:
    """What one candidate scored on one fold: the scores (a number, or a
    dict from metric names to numbers), the times in seconds, and the
    error message if its fit failed; ``n_updates`` counts the pair updates
    of its solver (0 if the model does not count them)."""

    candidate: int
    fold: int
    test_scores: object
    train_scores: object = None
    fit_time: float = 0.0
    score_time: float = 0.0
    error: str = None
    n_updates: int = 0


def chain_order(params):
    """A sort key: the chain, then ascending C (the estimator's own C, when
    the grid does not set it, first)."""
    C = params.get("C")
    return (chain_key(params), C is not None, 0.0 if C is None else C)


def group_candidates(estimator, candidates):
    """The candidates (a list of parameter dicts) in groups that share a
    kernel matrix, each group a list of indices in ascending C; a candidate
    whose kernel cannot be shared is a group of its own.  Within a group
    the candidates are in chain_order, so that each can start from the
    solution of the one before."""
    groups, shared = [], {}
    for index, params in enumerate(candidates):
        key = kernel_key(estimator, params)
        if key is None:
            groups.append([index])
            continue
        try:
            shared.setdefault(key, []).append(index)
        except TypeError:  # a parameter value that cannot be hashed
            groups.append([index])
    for members in shared.values():
        members.sort(key=lambda index: chain_order(candidates[index]))
        groups.append(members)
    return groups


def rows(data, indices):
    """The rows ``indices`` of an array, a sparse matrix, a data frame or
    a list, as GridSearchCV takes them."""
    return _safe_indexing(data, indices)


@dataclass
class FoldData:
    """What a unit's fits and scores read: the data to fit on (the block's
    training square, or the training points) and to score on (the block's
    test rows, or the test points), their labels, and the FoldBlock (None
    without one)."""

    fit_X: object
    score_X: object
    y_fit: object
    y_score: object
    block: FoldBlock = None
    gram: np.ndarray = None  # made by symmetric_gram when first needed

    def symmetric_gram(self):
        """The block's training square as a precomputed kernel must be,
        exactly symmetric (the block's rounding is not quite)."""
        if self.gram is None:
            self.gram = (self.fit_X + self.fit_X.T) / 2.0
        return self.gram


def transformed(head, X, y, train):
    """All the points as ``head`` makes them once fitted on the training
    points ``train``, a float array or CSR matrix."""
    fitted = clone(head).fit(
        rows(X, train), None if y is None else rows(y, train)
    )
    return check_array(
        fitted.transform(X), accept_sparse="csr", dtype=np.float64
    )


def fold_data(estimator, unit, X, y, settings):
    """The FoldData of ``unit``: on its FoldBlock if the unit's candidates
    share a kernel and the block fits in ``settings.memory`` megabytes,
    else on the points (made by ``settings.head``, fitted on the fold's
    training part, when the search is a pipeline's)."""
    if settings.head is not None:
        X = transformed(settings.head, X, y, unit.train)
    block = None
    if kernel_key(estimator, unit.candidates[0][1]) is not None:
        first = clone(estimator).set_params(**unit.candidates[0][1])
        block = fold_block(first, X, y, unit, settings.memory)
    if block is None:
        train, test = unit.train, unit.test
        fit_X, score_X = rows(X, train), rows(X, test)
    else:
        train, test = block.train, block.test
        # the test rows in double precision once, not once per score
        fit_X = block.K[: train.size]
        score_X = block.K[train.size :].astype(np.float64)
    return FoldData(
        fit_X,
        score_X,
        None if y is None else rows(y, train),
        None if y is None else rows(y, test),
        block,
    )


def scored(scorer, model, X, y):
    """The score(s) of ``model`` on (X, y): a number, or a dict of them."""
    score = scorer(model, X, y)
    if isinstance(score, dict):
        return {name: float(value) for name, value in score.items()}
    return float(score)


def score_cell(cell, model, data, settings):
    """The cell's test scores, score time and, if asked for, training
    scores."""
    started = time.perf_counter()
    scorer = settings.scorer
    if data.block is not None:  # its rows were checked once: a scorer
        scorer = getattr(scorer, "on_block", scorer)  # may skip the checks
    cell.test_scores = scored(scorer, model, data.score_X, data.y_score)
    cell.score_time = time.perf_counter() - started
    if settings.return_train_score:
        cell.train_scores = scored(
            settings.scorer, model, data.fit_X, data.y_fit
        )


def fail_cell(cell, error, settings):
    """A failed fit's cell: its error and, for every metric,
    ``settings.error_score``."""
    cell.error = f"{type(error).__name__}: {error}"
    names, value = settings.scorer_names, settings.error_score
    cell.test_scores = (
        value if names is None else dict.fromkeys(names, value)
    )
    cell.train_scores = cell.test_scores


def block_fit(model, block, y_fit, previous):
    """Fit ``model`` on ``block`` by svc_on_block or svr_on_block, from the
    solution of its chain's previous fit (``previous``, a dict from
    chain_key to ChainLink, updated; None for no warm starts).  When that
    solution is saturated, it is the answer: its model is reused, with
    this C and no pair update."""
    C = check_box_bound(model.C, type(model).__name__)
    epsilon = getattr(model, "epsilon", None)
    key = chain_key(model.get_params(deep=False))
    link = None if previous is None else previous.get(key)
    if link is not None and saturated(link, C, epsilon):
        model = copy.copy(link.model).set_params(C=model.C)
        model.n_iter_ = 0 * link.model.n_iter_
        previous[key] = replace(link, C=C, model=model)
        return model
    start = (
        None if link is None else start_from((link.C, link.solutions), C)
    )
    n = block.train.size
    if type(model) is SVR:
        if block.S is None:
            block.S = doubled(block.K[:n])
        model, solutions = svr_on_block(
            model, block.K, block.S, y_fit, start
        )
    else:
        classes, y_index = np.unique(y_fit, return_inverse=True)
        model, solutions = svc_on_block(
            model, block.K, y_index, classes, start
        )
    if previous is not None:
        previous[key] = ChainLink(C, epsilon, solutions, model)
    return model


def fit_candidate(model, data, previous):
    """``model`` fitted on the fold: by block_fit where fits_on_block
    allows, else by its own fit, on the block as a precomputed kernel or,
    without a block, on the points."""
    if data.block is None:
        return model.fit(data.fit_X, data.y_fit)
    if fits_on_block(model):
        return block_fit(model, data.block, data.y_fit, previous)
    model.set_params(kernel="precomputed")
    return model.fit(data.symmetric_gram(), data.y_fit)


def evaluate_unit(estimator, unit, X, y, settings):
    """Fit and score each candidate of ``unit`` on its fold, one after the
    other in chain_order, on the fold's data (fold_data), each fit from the
    previous one's solution where it can (fit_candidate).  A fit's time
    includes its share of the block's.  Returns a list of Cells."""
    data = fold_data(estimator, unit, X, y, settings)
    previous = {} if settings.warm_start else None
    block_time = 0.0 if data.block is None else data.block.seconds
    cells = []
    for index, params in unit.candidates:
        cell = Cell(index, unit.fold, None)
        model = clone(estimator).set_params(**params)
        started = time.perf_counter()
        try:
            model = fit_candidate(model, data, previous)
        except Exception as error:
            if settings.error_score == "raise":
                raise
            fail_cell(cell, error, settings)
            model = None
        cell.fit_time = time.perf_counter() - started
        cell.fit_time += block_time / len(unit.candidates)
        if model is not None:
            cell.n_updates = int(np.sum(getattr(model, "n_iter_", 0)))
            score_cell(cell, model, data, settings)
        cells.append(cell)
    return cells
