"""svmlib.book.datasets and svmlib.book.plotting."""

import warnings

import matplotlib.pyplot as plt
import numpy as np

from svmlib.book.datasets import gaussian_blobs
from svmlib.book.plotting import plot_decision_function, plot_points


def test_gaussian_blobs_are_reproducible_and_labelled_by_cloud():
    X, y = gaussian_blobs(n_per_class=30, random_state=4)
    X_again, _ = gaussian_blobs(n_per_class=30, random_state=4)
    np.testing.assert_array_equal(X, X_again)
    assert X.shape == (60, 2) and set(y) == {-1.0, 1.0}
    assert X[y == 1].mean(axis=0) @ [1, 1] > X[y == -1].mean(axis=0) @ [
        1,
        1,
    ]


def test_decision_contours_follow_the_function():
    X, y = gaussian_blobs()
    fig, ax = plt.subplots()
    plot_decision_function(ax, lambda Z: Z[:, 0] - 0.5, X)
    plot_points(ax, X, y, support=[0, 1])
    lines = [
        c for c in ax.collections if hasattr(c, "levels") and not c.filled
    ]
    assert len(lines) == 1, (
        "the levels -1, 0 and 1 should be drawn as one set of lines"
    )
    for level, path in zip(lines[0].levels, lines[0].get_paths()):
        np.testing.assert_allclose(
            path.vertices[:, 0], 0.5 + level, atol=1e-6
        )  # f = x1 - 0.5 = level
    plt.close(fig)


def test_levels_outside_the_plotted_range_are_skipped_without_warnings():
    X, _ = gaussian_blobs()
    fig, ax = plt.subplots()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        plot_decision_function(ax, lambda Z: np.full(len(Z), 5.0), X)
    plt.close(fig)
