# Generated from chapters/model_selection.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""The checks a grid search makes before any fit (chapter "Choosing C and
gamma")."""

from dataclasses import dataclass

import numpy as np
from sklearn.base import clone, is_classifier
from sklearn.metrics import check_scoring
from sklearn.model_selection import ParameterGrid, check_cv
from sklearn.utils.validation import check_array

from svmlib.estimators.estimator import SVC, _KernelEstimator
from svmlib.formulations.svc_input import (
    check_box_bound,
    check_kernel_choice,
    first_non_finite,
)
from svmlib.formulations.svr_one_class import check_epsilon, check_nu
from svmlib.selection.search_blocks import kernel_key


def checked_candidates(estimator, param_grid):
    """The candidates of ``param_grid`` (a dict or a list of dicts, as for
    GridSearchCV) as a list of parameter dicts; an error for an empty grid,
    a name ``estimator`` does not have, or a value its checks refuse."""
    candidates = list(ParameterGrid(param_grid))
    if not candidates:
        raise ValueError(
            "param_grid has no candidates: give a dict of parameter "
            "names and lists of values, or a non-empty list of such dicts"
        )
    valid = estimator.get_params(deep=True)
    name = type(estimator).__name__
    for params in candidates:
        unknown = sorted(set(params) - set(valid))
        if unknown:
            raise ValueError(
                f"{name} has no parameter {unknown[0]!r} (in param_grid); "
                f"its parameters are {', '.join(sorted(valid))}"
            )
        if isinstance(estimator, _KernelEstimator):
            check_values(clone(estimator).set_params(**params))
    return candidates


def shares_kernels(estimator, fit_params):
    """Whether a search can share kernel blocks among its fits: the
    estimator is one of svmlib's kernel estimators and no fit parameters
    (sample weights, say) come with the points.  Otherwise nothing can be
    shared, and the search is GridSearchCV's own, unchanged."""
    return isinstance(estimator, _KernelEstimator) and not fit_params


def any_precomputed(estimator, candidates):
    """Whether a candidate takes a precomputed kernel: its folds must cut
    the columns of the Gram matrix too, which GridSearchCV's own fit
    does."""
    return any(
        params.get("kernel", estimator.kernel) == "precomputed"
        for params in candidates
    )


def check_values(model):
    """The checks of a kernel estimator's parameters that its fit would
    make first: the kernel, C, epsilon and nu, where it has them."""
    check_kernel_choice(
        model.kernel, model.gamma, model.degree, model.coef0
    )
    parameters = model.get_params(deep=False)
    if "C" in parameters:
        check_box_bound(parameters["C"], type(model).__name__)
    if "epsilon" in parameters:
        check_epsilon(parameters["epsilon"])
    if "nu" in parameters:
        check_nu(parameters["nu"])


def as_indices(part):
    """A fold's part as the indices of its points (a cv may give boolean
    masks)."""
    part = np.asarray(part)
    return np.flatnonzero(part) if part.dtype == bool else part


def checked_folds(cv, estimator, X, y, groups):
    """The (train, test) index pairs of ``cv`` on (X, y), as GridSearchCV
    would split them; for a classifier, an error if a fold trains on a
    single class or a test part is empty."""
    splitter = check_cv(cv, y, classifier=is_classifier(estimator))
    folds = [
        (as_indices(train), as_indices(test))
        for train, test in splitter.split(X, y, groups)
    ]
    labels = None if y is None else np.asarray(y)
    for number, (train, test) in enumerate(folds):
        if len(test) == 0:
            raise ValueError(f"fold {number} of cv has no test points")
        if is_classifier(estimator) and labels is not None:
            classes = np.unique(labels[train])
            if classes.size < 2:
                raise ValueError(
                    f"fold {number} of cv trains on one class only "
                    f"({classes[0]!r}); a classifier needs two: use "
                    "StratifiedKFold, fewer splits or more data"
                )
    return folds


@dataclass(frozen=True)
class Accuracy:
    """The default score of svmlib's classifiers, the share of points
    predicted right, computed as scikit-learn's accuracy_score computes it
    but without the checks of its arguments (a few milliseconds a call,
    more than a small fit)."""

    def __call__(self, model, X, y):
        return float(np.mean(model.predict(X) == np.asarray(y)))

    def on_block(self, model, test_rows, y):
        """The accuracy of a model fitted on a kernel block, on the block's
        test rows, which were checked once when they were computed: an
        SVC predicts from them without predict's checks."""
        if not isinstance(model, SVC):
            return self(model, test_rows, y)
        model._check_tie_rule()
        predicted = model._labels_of(model._decisions_of(test_rows))
        return float(np.mean(predicted == np.asarray(y)))


def unit_scorer(estimator, scoring, scorer):
    """The scorer the units use: Accuracy for svmlib's classifiers scored
    by default or by "accuracy", else ``scorer`` itself."""
    plain = (
        isinstance(scoring, (str, type(None)))
        and scoring in (None, "accuracy")
        and is_classifier(estimator)
        and isinstance(estimator, _KernelEstimator)
    )
    return Accuracy() if plain else scorer


def checked_scorers(estimator, scoring, refit):
    """One scorer and None for one metric; for several (a list, tuple or
    dict, as GridSearchCV takes them), a dict of scorers and their names,
    with an error if ``refit`` names none of them."""
    if scoring is None or isinstance(scoring, str) or callable(scoring):
        return check_scoring(estimator, scoring=scoring), None
    if isinstance(scoring, dict):
        named = dict(scoring)
    else:
        named = {metric: metric for metric in scoring}
    if not named:
        raise ValueError("scoring is an empty collection of metrics")
    scorers = {
        name: check_scoring(estimator, scoring=metric)
        for name, metric in named.items()
    }
    if refit is not False and not callable(refit) and refit not in scorers:
        raise ValueError(
            "with several metrics, refit must be one of their names "
            f"({', '.join(scorers)}), a callable or False; got {refit!r}"
        )
    return scorers, tuple(scorers)


@dataclass(frozen=True)
class Metrics:
    """Several scorers as one: called like a scorer, returns a dict from
    the metrics' names to the scores."""

    scorers: dict

    def __call__(self, model, X, y):
        return {
            name: scorer(model, X, y)
            for name, scorer in self.scorers.items()
        }


def checked_points(estimator, X, candidates):
    """X as the shared kernel blocks read it (a finite float array or CSR
    matrix) when some candidate can share one, else X as it is."""
    if any(kernel_key(estimator, params) for params in candidates):
        X = check_array(
            X,
            accept_sparse="csr",
            dtype=np.float64,
            ensure_all_finite=False,
        )
        first_non_finite(X)
    return X
