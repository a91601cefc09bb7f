"""SVC(probability=True) and NuSVC(probability=True): LIBSVM's recipe
(chapter "Probabilities from an SVM"), checked against LIBSVM 3.37's own
probability model, against identities (rows sum to 1, the two-class
sigmoid), and for scikit-learn's deprecation behaviour."""

import warnings

import numpy as np
import pytest
from libsvm.svmutil import svm_predict, svm_train
from sklearn.datasets import load_breast_cancer, load_iris, load_wine
from sklearn.exceptions import NotFittedError
from sklearn.preprocessing import StandardScaler

from svmlib import SVC, NuSVC
from svmlib.probability.calibration import sigmoid_probability
from svmlib.probability.libsvm_probability import (
    fold_of_each_point,
    held_out_decisions,
)


def standardised(load):
    X, y = load(return_X_y=True)
    return StandardScaler().fit_transform(X), y


def fitted(estimator, X, y, **fit):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        return estimator.fit(X, y, **fit)


def test_folds_are_a_permutation_cut_as_libsvm_cuts_it():
    rng = np.random.default_rng(0)
    folds = fold_of_each_point(23, 5, rng)
    # LIBSVM's boundaries k * n / 5: runs of 4, 5, 4, 5, 5
    np.testing.assert_array_equal(np.bincount(folds), [4, 5, 4, 5, 5])
    other = fold_of_each_point(23, 5, np.random.default_rng(1))
    assert not np.array_equal(folds, other)


def test_held_out_values_come_from_models_that_did_not_see_them():
    labels = np.array([1.0, -1.0] * 10)
    seen = []

    def fit_and_decide(train, test):
        assert not set(train) & set(test)
        assert set(train) | set(test) == set(range(labels.size))
        seen.extend(test)
        return np.full(test.size, 0.5)

    values = held_out_decisions(
        fit_and_decide, labels, 5, np.random.default_rng(0)
    )
    assert sorted(seen) == list(range(labels.size))
    np.testing.assert_array_equal(values, 0.5)


def test_a_fold_trained_on_one_class_gives_its_label():
    labels = np.array([1.0] * 9 + [-1.0])

    def fit_and_decide(train, test):  # only for both classes
        assert np.unique(labels[train]).size == 2
        return np.full(test.size, 0.25)

    values = held_out_decisions(
        fit_and_decide, labels, 10, np.random.default_rng(0)
    )
    # the fold holding the only -1 trains on +1 alone: +1 for it
    assert values[-1] == 1.0
    np.testing.assert_array_equal(values[:-1], 0.25)


@pytest.mark.parametrize(
    "name, load", [("iris", load_iris), ("wine", load_wine)]
)
def test_sigmoids_and_probabilities_are_libsvms_up_to_the_folds(name, load):
    """LIBSVM's folds are its own random shuffle: the sigmoids agree as
    two shuffles do, and with LIBSVM's sigmoids in place of svmlib's the
    probabilities are LIBSVM's (all that follows the folds)."""
    X, y = standardised(load)
    model = svm_train(y.tolist(), X.tolist(), "-b 1 -q")
    _, _, expected = svm_predict(y.tolist(), X.tolist(), model, "-b 1 -q")
    ours = fitted(
        SVC(gamma=1 / X.shape[1], probability=True, random_state=0), X, y
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        A, B = ours.probA_, ours.probB_
    k = 3
    assert A.shape == B.shape == (k * (k - 1) // 2,)
    A_libsvm, B_libsvm = (
        np.array(model.probA[:3]),
        np.array(model.probB[:3]),
    )
    assert np.all(np.sign(A) == np.sign(A_libsvm))
    assert np.abs(A / A_libsvm - 1).max() < 0.3
    P = ours.predict_proba(X)
    assert np.abs(P - np.array(expected)).max() < 0.1
    np.testing.assert_allclose(P.sum(axis=1), 1.0, atol=1e-12)
    ours._probA, ours._probB = A_libsvm, B_libsvm
    np.testing.assert_allclose(
        ours.predict_proba(X), np.array(expected), atol=5e-3
    )


def test_two_classes_give_the_pairs_sigmoid():
    X, y = standardised(load_breast_cancer)
    model = fitted(SVC(probability=True, random_state=1), X, y)
    P = model.predict_proba(X)
    f = model.decision_function(X)  # positive for classes_[1]
    # LIBSVM's sigmoid is of the pair's first class, classes_[0]
    first = sigmoid_probability(-f, model._probA[0], model._probB[0])
    np.testing.assert_allclose(
        P[:, 0], np.clip(first, 1e-7, 1 - 1e-7), rtol=1e-12
    )
    np.testing.assert_allclose(
        model.predict_log_proba(X), np.log(P), rtol=1e-12
    )
    # a calibrated model: the probable class is mostly the predicted one
    assert np.mean(P.argmax(axis=1) == model.predict(X)) > 0.97


def test_the_seed_fixes_the_probabilities_not_the_model():
    X, y = standardised(load_iris)
    runs = [
        fitted(SVC(probability=True, random_state=seed), X, y)
        for seed in (0, 0, 1)
    ]
    P = [run.predict_proba(X) for run in runs]
    np.testing.assert_array_equal(P[0], P[1])
    assert not np.array_equal(P[0], P[2])
    np.testing.assert_array_equal(runs[0].dual_coef_, runs[2].dual_coef_)


def test_nusvc_and_weights():
    X, y = standardised(load_iris)
    weights = np.random.default_rng(0).uniform(0.5, 2.0, y.size)
    for model in (
        NuSVC(nu=0.3, probability=True, random_state=0),
        SVC(probability=True, random_state=0, class_weight="balanced"),
    ):
        fitted(model, X, y, sample_weight=weights)
        P = model.predict_proba(X)
        np.testing.assert_allclose(P.sum(axis=1), 1.0, atol=1e-12)
        assert np.mean(P.argmax(axis=1) == y) > 0.9


def test_scikit_learns_deprecation_and_availability():
    X, y = standardised(load_iris)
    for value in (True, False):
        with pytest.warns(FutureWarning, match="probability.+deprecated"):
            SVC(probability=value).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error", FutureWarning)
        plain = SVC().fit(X, y)  # the default warns nothing
    assert not hasattr(plain, "predict_proba")
    with pytest.warns(FutureWarning, match="Attribute `probA_` was"):
        assert plain.probA_.size == 0
    plain.probability = True  # after fitting: there, but not fitted
    assert hasattr(plain, "predict_proba")
    with pytest.raises(
        NotFittedError, match="fitted with probability=False"
    ):
        plain.predict_proba(X)
    with pytest.raises(
        ValueError, match="probability must be True or False"
    ):
        SVC(probability="yes").fit(X, y)
