"""svmlib.derivation.margins against identities and an independent distance
computation."""

import numpy as np
import pytest

from svmlib.derivation.margins import (
    dataset_margin,
    decision_function,
    functional_margin,
    geometric_margin,
    project_onto_hyperplane,
)


def random_problem(seed, n=30, d=5):
    rng = np.random.default_rng(seed)
    return (
        rng.normal(size=(n, d)),
        rng.choice([-1.0, 1.0], size=n),
        rng.normal(size=d),
        rng.normal(),
    )


def distance_by_orthonormal_basis(X, w, b):
    """Distance to {z: w'z + b = 0} computed from an SVD basis of the
    hyperplane, not from f/||w||."""
    basis = np.linalg.svd(w[None, :])[2][
        1:
    ].T  # columns span the directions orthogonal to w
    anchor = np.linalg.lstsq(w[None, :], np.array([-b]), rcond=None)[0]
    offset = X - anchor
    return np.linalg.norm(offset - offset @ basis @ basis.T, axis=1)


@pytest.mark.parametrize("seed", range(5))
def test_geometric_margin_is_the_signed_distance(seed):
    X, y, w, b = random_problem(seed)
    distance = distance_by_orthonormal_basis(X, w, b)
    np.testing.assert_allclose(
        np.abs(geometric_margin(X, y, w, b)),
        distance,
        rtol=1e-10,
        atol=1e-12,
    )
    side = np.sign(X @ w + b)
    np.testing.assert_array_equal(
        np.sign(geometric_margin(X, y, w, b)), side * y
    )


@pytest.mark.parametrize("c", [1e-6, 0.3, 7.0, 1e8])
def test_scaling_changes_the_functional_margin_but_not_the_geometric_one(c):
    X, y, w, b = random_problem(11)
    np.testing.assert_allclose(
        functional_margin(X, y, c * w, c * b),
        c * functional_margin(X, y, w, b),
        rtol=1e-12,
    )
    np.testing.assert_allclose(
        geometric_margin(X, y, c * w, c * b),
        geometric_margin(X, y, w, b),
        rtol=1e-10,
        atol=1e-14,
    )
    assert dataset_margin(X, y, c * w, c * b) == pytest.approx(
        dataset_margin(X, y, w, b), rel=1e-10
    )


def test_projection_lands_on_the_hyperplane_along_the_normal():
    X, _, w, b = random_problem(3)
    X0 = project_onto_hyperplane(X, w, b)
    np.testing.assert_allclose(decision_function(X0, w, b), 0.0, atol=1e-12)
    step = X - X0
    cross = step - np.outer(
        step @ w / (w @ w), w
    )  # the part of x - x0 not along w
    np.testing.assert_allclose(cross, 0.0, atol=1e-12)


def test_dataset_margin_is_positive_exactly_when_the_hyperplane_separates():
    X = np.array([[2.0, 0.0], [3.0, 1.0], [-2.0, 0.0], [-1.0, -1.0]])
    y = np.array([1.0, 1.0, -1.0, -1.0])
    assert dataset_margin(X, y, np.array([1.0, 0.0]), 0.0) == pytest.approx(
        1.0
    )
    assert dataset_margin(X, y, np.array([-1.0, 0.0]), 0.0) < 0


def test_bad_hyperplanes_are_rejected_clearly():
    X, y, w, b = random_problem(0)
    with pytest.raises(ValueError, match="zero vector"):
        geometric_margin(X, y, np.zeros_like(w), b)
    with pytest.raises(
        ValueError, match="w needs one entry per column of X"
    ):
        decision_function(X, w[:-1], b)


def test_labels_of_the_wrong_shape_are_rejected_not_broadcast():
    X, y, w, b = random_problem(1)
    with pytest.raises(ValueError, match="one label per row of X"):
        functional_margin(X, y[:, None], w, b)
    with pytest.raises(ValueError, match="one label per row of X"):
        dataset_margin(X, y[:1], w, b)
    with pytest.raises(ValueError, match="X must be a 2-D array"):
        decision_function(X[0], w, b)
