# Generated from chapters/probabilities.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""LIBSVM's probability model, SVC(probability=True): held-out decision
values per pair of classes, a sigmoid per pair, pairwise coupling (chapter
"Probabilities from an SVM")."""

import numbers
import warnings

import numpy as np
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.utils.metaestimators import available_if
from sklearn.utils.validation import check_is_fitted

from svmlib.formulations.multiclass import class_pairs, pair_members
from svmlib.probability.calibration import SigmoidFit, fit_sigmoid
from svmlib.probability.coupling import (
    pairwise_coupling,
    pairwise_probabilities,
)


N_PROBABILITY_FOLDS = 5  # LIBSVM's internal cross-validation


def fold_of_each_point(n, n_folds, rng):
    """The fold (0 to n_folds - 1) of each of n points: a random
    permutation cut into n_folds runs of nearly equal length, the first
    run ending at n / n_folds, as LIBSVM cuts its folds."""
    order = rng.permutation(n)
    folds = np.empty(n, dtype=np.intp)
    bounds = [k * n // n_folds for k in range(n_folds + 1)]
    for k in range(n_folds):
        folds[order[bounds[k] : bounds[k + 1]]] = k
    return folds


def held_out_decisions(fit_and_decide, labels, n_folds, rng):
    """Held-out decision values (section sec-prob-held-out) of points
    labelled +1 and -1, each from a model that did not see it: for each
    fold,
    ``fit_and_decide(train, test)`` trains on the indices ``train`` and
    returns the decision values of the indices ``test``, positive for
    +1.  A fold whose training points all share a label gives its held-out
    points the value of that label (+1 or -1), as LIBSVM does."""
    folds = fold_of_each_point(labels.size, n_folds, rng)
    decisions = np.zeros(labels.size)
    for k in range(n_folds):
        test, train = folds == k, folds != k
        if not test.any():
            continue
        seen = np.unique(labels[train])
        if seen.size == 2:
            decisions[test] = fit_and_decide(
                np.flatnonzero(train), np.flatnonzero(test)
            )
        elif seen.size == 1:
            decisions[test] = seen[0]
    return decisions


def pair_data(X, precomputed, rows, columns):
    """The training data of a sub-model: the points ``rows`` of X, or,
    for a precomputed kernel, the Gram matrix's block (rows, columns)."""
    return X[np.ix_(rows, columns)] if precomputed else X[rows]


def pair_fitter(estimator, X, labels, members, weights):
    """``fit_and_decide`` for held_out_decisions on one pair of classes:
    a copy of ``estimator`` (no probabilities), trained on the pair's
    points ``members`` with per-point ``weights`` (C of the class times
    the sample weight, LIBSVM's C_p and C_n), returning decision values
    positive for the label +1 (the pair's first class)."""
    precomputed = (
        isinstance(estimator.kernel, str)
        and estimator.kernel == "precomputed"
    )
    # the class weights are in ``weights``; no probabilities of its own
    plain = {"probability": "deprecated"}
    if "class_weight" in estimator.get_params():
        plain["class_weight"] = None

    def fit_and_decide(train, test):
        model = clone(estimator).set_params(**plain)
        rows = members[train]
        model.fit(
            pair_data(X, precomputed, rows, rows),
            labels[train],
            sample_weight=weights[train],
        )
        values = model.decision_function(
            pair_data(X, precomputed, members[test], rows)
        )
        # model.classes_ is (-1, +1): its values are positive for +1
        return values

    return fit_and_decide


def pair_sigmoid_parameters(estimator, X, y_index, pairs, weights, rng):
    """``probA_`` and ``probB_``: for each pair of classes (i, j),
    Platt's sigmoid, eq. (eq-platt-sigmoid), fitted by fit_sigmoid to the
    held-out decision values of the pair's points of positive weight,
    class i as +1."""
    A, B = [], []
    for i, j in pairs:
        members, labels = pair_members(y_index, i, j)
        kept = weights[members] > 0
        members, labels = members[kept], labels[kept]
        decisions = held_out_decisions(
            pair_fitter(estimator, X, labels, members, weights[members]),
            labels,
            N_PROBABILITY_FOLDS,
            rng,
        )
        sigmoid = fit_sigmoid(decisions, labels)
        A.append(sigmoid.A)
        B.append(sigmoid.B)
    return np.array(A), np.array(B)


def class_probabilities(decisions, A, B):
    """P(class | x) for each row of ``decisions`` (one column per pair,
    positive for the pair's first class): the pairs' sigmoids, eq.
    (eq-pair-probability), coupled by pairwise_coupling."""
    sigmoids = [SigmoidFit(a, b, np.nan, 0) for a, b in zip(A, B)]
    return pairwise_coupling(pairwise_probabilities(decisions, sigmoids))


DEPRECATED = "deprecated"  # the default of ``probability``, as in 1.9


def probability_wanted(estimator):
    """Whether ``estimator.probability`` asks for the probability model;
    scikit-learn's FutureWarning if it was set at all (True or False)."""
    probability = estimator.probability
    if isinstance(probability, str) and probability == DEPRECATED:
        return False
    if not isinstance(probability, (bool, np.bool_, numbers.Integral)):
        raise ValueError(
            f"probability must be True or False; got {probability!r}"
        )
    name = type(estimator).__name__
    warnings.warn(
        "The `probability` parameter was deprecated in 1.9 and will be "
        "removed in version 1.11 (of scikit-learn, whose API svmlib "
        f"follows). Use `CalibratedClassifierCV({name}(), ensemble=False)` "
        f"instead of `{name}(probability=True)`",
        FutureWarning,
        stacklevel=3,
    )
    return bool(probability)


class ProbabilityMixin:
    """SVC(probability=True) and NuSVC(probability=True): LIBSVM's
    probability model, fitted after the classifier, and predict_proba."""

    def _fit_probability(self, X, y_index, weights, seed):
        """probA_ and probB_ (empty without probability=True); ``weights``
        is each point's factor of C (class weight times sample weight)."""
        self._probA = self._probB = np.empty(0)
        if probability_wanted(self):
            rng = np.random.default_rng(seed)
            self._probA, self._probB = pair_sigmoid_parameters(
                self,
                X,
                y_index,
                class_pairs(self.classes_.size),
                weights,
                rng,
            )

    def _check_proba(self):
        probability = getattr(self, "probability", False)
        if (isinstance(probability, str) and probability == DEPRECATED) or (
            not probability
        ):
            raise AttributeError(
                "predict_proba is not available when probability=False"
            )
        return True

    @available_if(_check_proba)
    def predict_proba(self, X):
        """P(class | x) for each row of X, one column per class of
        ``classes_``, by LIBSVM's model: the pairs' sigmoids, eq.
        (eq-pair-probability), and pairwise coupling. Its most probable
        class can differ from predict's (which votes)."""
        check_is_fitted(self)
        if self._probA.size == 0:
            raise NotFittedError(
                "predict_proba is not available when fitted with "
                "probability=False"
            )
        decisions = self._pair_decisions(X)
        if self.classes_.size == 2:  # positive for classes_[0], as LIBSVM
            decisions = -decisions
        return class_probabilities(decisions, self._probA, self._probB)

    @available_if(_check_proba)
    def predict_log_proba(self, X):
        """The logarithm of predict_proba."""
        return np.log(self.predict_proba(X))

    @property
    def probA_(self):
        """A of each pair's sigmoid, eq. (eq-platt-sigmoid) (empty without
        probability=True); deprecated with scikit-learn's probability."""
        self._warn_deprecated_attribute("probA_")
        return self._probA

    @property
    def probB_(self):
        """B of each pair's sigmoid (empty without probability=True)."""
        self._warn_deprecated_attribute("probB_")
        return self._probB

    def _warn_deprecated_attribute(self, name):
        check_is_fitted(self)
        warnings.warn(
            f"Attribute `{name}` was deprecated in version 1.9 and will be "
            "removed in 1.11 as the `probability=True` option for SVC and "
            "NuSVC was deprecated and will be removed in 1.11.",
            FutureWarning,
            stacklevel=3,
        )
