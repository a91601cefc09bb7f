"""The hard-margin dual solver against the primal solver, LIBSVM and the
duality identities."""

import numpy as np
import pytest
from problems import separable_problem
from sklearn.svm import SVC

from svmlib import Status, hard_margin_dual
from svmlib.derivation.dual import (
    NotPositiveSemidefiniteError,
    check_gram,
    dual_objective,
    intercept_from_support,
    support_indices,
)
from svmlib.derivation.primal import NotSeparableError, hard_margin_primal

CASES = [
    (seed, d, scale)
    for seed in range(3)
    for d in (2, 6)
    for scale in (1e-3, 1.0, 1e3)
]


@pytest.mark.parametrize("seed, d, scale", CASES)
def test_dual_and_primal_agree(seed, d, scale):
    X, y = separable_problem(seed, d=d)
    X = scale * X
    primal = hard_margin_primal(X, y)
    dual = hard_margin_dual(X @ X.T, y)
    assert dual.status is Status.OPTIMAL
    # strong duality: p* = d*, the dual objective being -d* in minimisation
    # form
    assert -dual.objective == pytest.approx(primal.objective, rel=1e-6)
    np.testing.assert_allclose(
        X.T @ (dual.alpha * y),
        primal.w,
        rtol=1e-5,
        atol=1e-7 * np.abs(primal.w).max(),
    )
    assert dual.b == pytest.approx(primal.b, rel=1e-5, abs=1e-6)


@pytest.mark.parametrize("scale", [1e-3, 1e3])
def test_b_is_recovered_after_rescaling_features(scale):
    """b does not change when the features are rescaled; LIBSVM gives the
    reference value."""
    X, y = separable_problem(5, d=3)
    reference = (
        SVC(kernel="linear", C=1e10, tol=1e-8).fit(X, y).intercept_[0]
    )
    dual = hard_margin_dual((scale * X) @ (scale * X).T, y)
    assert dual.b == pytest.approx(
        reference, abs=1e-4 * max(1.0, abs(reference))
    )


def test_multipliers_scale_inversely_with_the_square_of_the_features():
    X, y = separable_problem(3)
    base = hard_margin_dual(X @ X.T, y).alpha
    scaled = hard_margin_dual(100.0 * X @ X.T * 100.0, y).alpha
    np.testing.assert_allclose(scaled * 1e4, base, atol=1e-7 * base.max())


def test_the_dual_objective_is_the_quadratic_form():
    rng = np.random.default_rng(0)
    X, y = separable_problem(0)
    alpha = rng.uniform(size=len(y))
    Q = np.array(
        [
            [y[i] * y[j] * (X[i] @ X[j]) for j in range(len(y))]
            for i in range(len(y))
        ]
    )
    assert dual_objective(X @ X.T, y, alpha) == pytest.approx(
        0.5 * alpha @ Q @ alpha - alpha.sum()
    )


def test_support_vectors_are_chosen_relative_to_the_largest_multiplier():
    alpha = np.array([1e-14, 3e-3, 0.0, 2e-9, 1.0])
    np.testing.assert_array_equal(support_indices(alpha), [1, 4])
    np.testing.assert_array_equal(support_indices(alpha * 1e-12), [1, 4])
    with pytest.raises(ValueError, match="no support vectors"):
        intercept_from_support(np.eye(5), np.ones(5), alpha, [])


def test_non_separable_gram_matrices_raise_a_clear_error():
    X = np.array([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]])
    y = np.array([1.0, 1.0, -1.0, -1.0])
    with pytest.raises(
        NotSeparableError, match="not separable in the feature space"
    ):
        hard_margin_dual(X @ X.T, y)
    # the same XOR becomes separable under a feature map that adds the
    # product x1 * x2
    Z = np.column_stack([X, X[:, 0] * X[:, 1]])
    assert hard_margin_dual(Z @ Z.T, y).status is Status.OPTIMAL


@pytest.mark.parametrize(
    "K, y, message",
    [
        (np.ones((2, 3)), [1, -1], "must be square"),
        (np.array([[1.0, 2.0], [0.0, 1.0]]), [1, -1], "symmetric"),
        (np.array([[1.0, np.nan], [np.nan, 1.0]]), [1, -1], "NaN"),
        (np.eye(3), [1, -1], "3 samples but y has 2 labels"),
        (np.eye(2), [1, 1], "single class"),
    ],
)
def test_bad_gram_matrices_are_reported(K, y, message):
    with pytest.raises(ValueError, match=message):
        check_gram(K, y)


def test_indefinite_gram_matrices_are_refused():
    X, y = separable_problem(1)
    K_bad = X @ X.T
    K_bad[
        0, 0
    ] = -K_bad.max()  # a negative diagonal entry: v = e_0 gives v'Kv < 0
    with pytest.raises(
        NotPositiveSemidefiniteError,
        match="not conditionally positive semidefinite",
    ):
        hard_margin_dual(K_bad, y)
