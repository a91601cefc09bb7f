"""One-vs-one: pairs, votes, one score per class and LIBSVM's layout of the
pairwise models."""

import numpy as np
import pytest
from sklearn.datasets import load_digits, load_iris, load_wine
from sklearn.svm import SVC as LibsvmSVC
from sklearn.utils.multiclass import _ovr_decision_function

from svmlib.formulations.multiclass import (
    class_pairs,
    ovr_scores,
    pack_dual_coef,
    pair_members,
    unpack_dual_coef,
    vote,
    vote_counts,
)


@pytest.mark.parametrize("k", [2, 3, 4, 7])
def test_class_pairs_are_libsvms_order(k):
    pairs = class_pairs(k)
    assert len(pairs) == k * (k - 1) // 2
    assert pairs == sorted(pairs) and all(i < j for i, j in pairs)


def test_pair_members_label_the_first_class_positive():
    y_index = np.array([2, 0, 1, 2, 0])
    members, y_pair = pair_members(y_index, 0, 2)
    assert members.tolist() == [0, 1, 3, 4]
    assert y_pair.tolist() == [-1.0, 1.0, -1.0, 1.0]


def test_votes_and_ties_go_to_the_smallest_index():
    # three classes, pairs (0,1), (0,2), (1,2): 0 beats 1, 2 beats 0, 1
    # beats 2 -> one vote each
    cycle = np.array([[1.0, -1.0, 1.0]])
    assert vote_counts(cycle, 3).tolist() == [[1, 1, 1]]
    assert vote(cycle, 3).tolist() == [0]
    # a decision value of exactly 0 votes for the second class, as in LIBSVM
    assert vote_counts(np.array([[0.0]]), 2).tolist() == [[0, 1]]


def test_votes_add_up_to_the_number_of_pairs():
    decisions = np.random.default_rng(1).normal(
        size=(50, len(class_pairs(6)))
    )
    assert np.all(vote_counts(decisions, 6).sum(axis=1) == 15)


def test_ovr_scores_never_overturn_a_vote():
    rng = np.random.default_rng(2)
    decisions = rng.integers(
        -2, 3, size=(20_000, len(class_pairs(5)))
    ).astype(float)
    votes, best = (
        vote_counts(decisions, 5),
        np.argmax(ovr_scores(decisions, 5), axis=1),
    )
    assert np.all(votes[np.arange(best.size), best] == votes.max(axis=1))
    assert np.all(np.abs(ovr_scores(decisions, 5) - votes) < 1 / 3)


def test_ovr_scores_equal_scikit_learns_rule():
    decisions = np.random.default_rng(3).normal(
        size=(200, len(class_pairs(4)))
    )
    reference = _ovr_decision_function(decisions < 0, -decisions, 4)
    np.testing.assert_allclose(
        ovr_scores(decisions, 4), reference, rtol=0, atol=1e-14
    )


def random_pair_models(y_index, n_classes, rng):
    models = []
    for i, j in class_pairs(n_classes):
        members, y_pair = pair_members(y_index, i, j)
        alpha = np.where(
            rng.random(members.size) < 0.4,
            rng.random(members.size) + 0.1,
            0.0,
        )
        models.append((members, y_pair * alpha))
    return models


@pytest.mark.parametrize("n_classes", [2, 3, 5])
def test_pack_then_unpack_returns_each_pair_model(n_classes):
    rng = np.random.default_rng(n_classes)
    y_index = rng.integers(0, n_classes, size=80)
    models = random_pair_models(y_index, n_classes, rng)
    support, n_support, dual_coef = pack_dual_coef(
        y_index, models, n_classes
    )
    assert dual_coef.shape == (n_classes - 1, support.size)
    assert np.all(np.diff(y_index[support]) >= 0)  # grouped by class
    assert n_support.tolist() == [
        int(np.sum(y_index[support] == c)) for c in range(n_classes)
    ]
    unpacked = unpack_dual_coef(dual_coef, n_support)
    for row, (members, coef) in zip(unpacked, models):
        full = np.zeros(y_index.size)
        full[members] = coef
        np.testing.assert_array_equal(row, full[support])


@pytest.fixture(
    scope="module",
    params=[load_iris, load_wine, load_digits],
    ids=["iris", "wine", "digits"],
)
def libsvm_model(request):
    X, y = request.param(return_X_y=True)
    X = (X - X.mean(axis=0)) / np.maximum(X.std(axis=0), 1e-12)
    return (
        X,
        y,
        LibsvmSVC(
            kernel="linear", C=0.5, decision_function_shape="ovo"
        ).fit(X, y),
    )


def test_unpacking_libsvms_dual_coef_reproduces_its_decision_values(
    libsvm_model,
):
    X, y, model = libsvm_model
    coef = unpack_dual_coef(model.dual_coef_, model.n_support_)
    decisions = (X @ model.support_vectors_.T) @ coef.T + model.intercept_
    np.testing.assert_allclose(
        decisions, model.decision_function(X), rtol=0, atol=1e-8
    )
    assert (
        np.abs(coef.sum(axis=1)).max() < 1e-8
    )  # each pair's sum of y alpha is 0


def test_packing_libsvms_pair_models_gives_back_its_attributes(
    libsvm_model,
):
    X, y, model = libsvm_model
    y_index = np.searchsorted(model.classes_, y)
    coef = unpack_dual_coef(model.dual_coef_, model.n_support_)
    models = []
    for row, (i, j) in zip(coef, class_pairs(model.classes_.size)):
        members, _ = pair_members(y_index, i, j)
        full = np.zeros(y.size)
        full[model.support_] = row
        models.append((members, full[members]))
    support, n_support, dual_coef = pack_dual_coef(
        y_index, models, model.classes_.size
    )
    assert np.array_equal(support, model.support_)
    assert np.array_equal(n_support, model.n_support_)
    assert np.array_equal(dual_coef, model.dual_coef_)
