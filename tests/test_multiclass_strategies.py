"""DAGSVM's prediction (dag_predict) against a literal implementation of
Platt, Cristianini and Shawe-Taylor's list, the vote and LIBSVM's models."""

import numpy as np
import pytest
from sklearn.datasets import load_iris, load_wine
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC as LibsvmSVC

from svmlib import SVC
from svmlib.formulations.multiclass import (
    check_pair_decisions,
    class_pairs,
    dag_predict,
    vote,
    vote_counts,
)


def dag_by_list(row, n_classes):
    """The DDAG as Platt et al. describe it: a list of candidate classes;
    test the first against the last with their pair's decision value and
    remove the loser (a value of exactly 0 removes the first, as LIBSVM's
    vote gives a tie to the pair's second class)."""
    column = {pair: k for k, pair in enumerate(class_pairs(n_classes))}
    candidates = list(range(n_classes))
    while len(candidates) > 1:
        first, last = candidates[0], candidates[-1]
        loser = last if row[column[first, last]] > 0 else first
        candidates.remove(loser)
    return candidates[0]


@pytest.mark.parametrize("k", [2, 3, 4, 6, 9])
def test_dag_predict_is_the_list_algorithm(k):
    rng = np.random.default_rng(k)
    # small integers, so that exact zeros (ties) occur
    decisions = rng.integers(-2, 3, size=(3_000, len(class_pairs(k))))
    expected = [dag_by_list(row, k) for row in decisions]
    assert dag_predict(decisions, k).tolist() == expected


def test_two_classes_follow_the_sign_of_the_single_pair():
    decisions = np.array([[1.5], [0.0], [-2.0]])
    assert dag_predict(decisions, 2).tolist() == [0, 1, 1]


def test_a_class_that_wins_all_its_pairs_is_predicted_as_by_the_vote():
    rng = np.random.default_rng(7)
    decisions = rng.normal(size=(20_000, len(class_pairs(5))))
    votes = vote_counts(decisions, 5)
    winner = votes.max(axis=1) == 4
    assert winner.sum() > 1_000
    assert np.array_equal(
        dag_predict(decisions, 5)[winner], vote(decisions, 5)[winner]
    )


def test_a_cycle_goes_to_the_class_the_dag_leaves():
    # three classes: 0 beats 1, 2 beats 0, 1 beats 2 (one vote each); the
    # DAG tests (0, 2) first, removes 0, then (1, 2): 1 wins
    cycle = np.array([[1.0, -1.0, 1.0]])
    assert vote(cycle, 3).tolist() == [0]
    assert dag_predict(cycle, 3).tolist() == [1]


@pytest.mark.parametrize("loader", [load_iris, load_wine])
def test_dag_on_libsvms_pairwise_values(loader):
    X, y = loader(return_X_y=True)
    X = StandardScaler().fit_transform(X)
    libsvm = LibsvmSVC(decision_function_shape="ovo").fit(X, y)
    ours = SVC(decision_function_shape="ovo").fit(X, y)
    k = libsvm.classes_.size
    expected = [dag_by_list(row, k) for row in libsvm.decision_function(X)]
    assert dag_predict(libsvm.decision_function(X), k).tolist() == expected
    # svmlib's pairwise values are LIBSVM's to the solvers' tolerance: the
    # DAG's predictions agree on all but points at a decision value near 0
    agree = np.mean(
        dag_predict(ours.decision_function(X), k)
        == dag_predict(libsvm.decision_function(X), k)
    )
    assert agree >= 0.99


@pytest.mark.parametrize(
    "decisions, n_classes, message",
    [
        (np.zeros((4, 3)), 4, r"shape \(n_samples, 6\)"),
        (np.zeros(3), 3, r"shape \(n_samples, 3\)"),
        (np.zeros((4, 1)), 1, "n_classes must be an integer >= 2"),
        (np.zeros((4, 3)), 3.0, "n_classes must be an integer >= 2"),
        (np.zeros((4, 1)), True, "n_classes must be an integer >= 2"),
    ],
)
def test_bad_input_is_refused(decisions, n_classes, message):
    with pytest.raises(ValueError, match=message):
        dag_predict(decisions, n_classes)


def test_check_pair_decisions_returns_floats():
    checked = check_pair_decisions([[1, -1, 0]], 3)
    assert checked.dtype == float and checked.shape == (1, 3)
