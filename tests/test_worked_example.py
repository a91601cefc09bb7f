"""The three-point example of chapter "Margins", section sec-worked-example:
its data function and the solution derived there by hand."""

import numpy as np
from sklearn.svm import SVC

from svmlib.book.datasets import hand_example
from svmlib.derivation.margins import dataset_margin, functional_margin
from svmlib.derivation.primal import hard_margin_primal

# The hand derivation: w* = (1, 1), b* = -1, margin 1/sqrt(2).
W_HAND, B_HAND = np.array([1.0, 1.0]), -1.0


def test_hand_example_returns_the_three_points_of_the_chapter():
    X, y = hand_example()
    np.testing.assert_array_equal(X, [[0, 0], [2, 0], [0, 2]])
    np.testing.assert_array_equal(y, [-1, 1, 1])
    assert X.dtype == float and y.dtype == float


def test_hand_example_returns_new_arrays_at_every_call():
    X, y = hand_example()
    X[0, 0], y[0] = 99.0, 1.0
    X_again, y_again = hand_example()
    assert X_again[0, 0] == 0.0 and y_again[0] == -1.0


def test_the_hand_solution_is_feasible_with_every_constraint_active():
    X, y = hand_example()
    np.testing.assert_array_equal(
        functional_margin(X, y, W_HAND, B_HAND), [1.0, 1.0, 1.0]
    )
    assert np.isclose(dataset_margin(X, y, W_HAND, B_HAND), 1 / np.sqrt(2))


def test_no_feasible_point_on_a_grid_beats_the_hand_solution():
    # Brute force over (w_1, w_2, b): every feasible grid point has
    # 1/2 ||w||^2 >= 1, the value at the hand solution (which is on it).
    axis = np.arange(-60, 61) / 20  # steps of 0.05, with 1 and -1 exact
    w1, w2, b = np.meshgrid(axis, axis, axis, indexing="ij")
    feasible = (-b >= 1) & (2 * w1 + b >= 1) & (2 * w2 + b >= 1)
    objective = 0.5 * (w1**2 + w2**2)
    assert objective[feasible].min() == 1.0
    best = np.argwhere(feasible & (objective == 1.0))
    np.testing.assert_allclose(
        [[w1[tuple(i)], w2[tuple(i)], b[tuple(i)]] for i in best],
        [[1.0, 1.0, -1.0]],
    )


def test_svmlib_and_libsvm_find_the_hand_solution():
    X, y = hand_example()
    result = hard_margin_primal(X, y)
    np.testing.assert_allclose(result.w, W_HAND, atol=1e-7)
    assert abs(result.b - B_HAND) < 1e-7
    assert abs(result.objective - 1.0) < 1e-7
    libsvm = SVC(kernel="linear", C=1e10, tol=1e-10).fit(X, y)
    np.testing.assert_allclose(libsvm.coef_[0], W_HAND, atol=1e-6)
    assert abs(libsvm.intercept_[0] - B_HAND) < 1e-6
    np.testing.assert_array_equal(np.sort(libsvm.support_), [0, 1, 2])


def test_swapping_the_coordinates_leaves_the_solution_in_place():
    X, y = hand_example()
    swapped = hard_margin_primal(X[:, ::-1], y)
    np.testing.assert_allclose(swapped.w, W_HAND, atol=1e-7)
    assert abs(swapped.b - B_HAND) < 1e-7
