"""The hard-margin primal solver against LIBSVM (through scikit-learn)
and the optimality identities."""

import numpy as np
import pytest
from problems import separable_problem
from sklearn.svm import SVC

from svmlib import Status
from svmlib.book.datasets import gaussian_blobs
from svmlib.derivation.margins import functional_margin
from svmlib.derivation.primal import (
    NotSeparableError,
    hard_margin_primal,
    separability_margin,
)

CASES = [(seed, d) for seed in range(3) for d in (2, 5, 10)]


@pytest.mark.parametrize("seed, d", CASES)
def test_matches_libsvm_with_a_huge_penalty(seed, d):
    X, y = separable_problem(seed, d=d)
    result = hard_margin_primal(X, y)
    reference = SVC(kernel="linear", C=1e10, tol=1e-8).fit(X, y)
    assert result.status is Status.OPTIMAL
    np.testing.assert_allclose(
        result.w,
        reference.coef_[0],
        atol=1e-4 * max(1.0, np.abs(result.w).max()),
    )
    assert result.b == pytest.approx(
        reference.intercept_[0], abs=1e-4 * max(1.0, abs(result.b))
    )


@pytest.mark.parametrize("seed, d", CASES)
def test_constraints_hold_and_the_multipliers_satisfy_stationarity(seed, d):
    X, y = separable_problem(seed, d=d)
    result = hard_margin_primal(X, y)
    assert functional_margin(X, y, result.w, result.b).min() >= 1 - 1e-7
    assert result.alpha.min() >= -1e-9
    np.testing.assert_allclose(
        (result.alpha * y) @ X, result.w, atol=1e-6
    )  # w = sum alpha_i y_i x_i
    assert abs(result.alpha @ y) < 1e-6  # sum alpha_i y_i = 0
    slack = (
        functional_margin(X, y, result.w, result.b) - 1
    )  # complementary slackness
    assert np.abs(result.alpha * slack).max() < 1e-6
    assert result.objective == pytest.approx(0.5 * result.w @ result.w)


@pytest.mark.parametrize("scale", [1e-3, 1e3])
def test_rescaling_the_features_rescales_w_and_keeps_b(scale):
    """If X' = s X then (w / s, b) solves the rescaled problem: an identity,
    not a pinned number."""
    X, y = separable_problem(7, d=3)
    base = hard_margin_primal(X, y)
    scaled = hard_margin_primal(scale * X, y)
    np.testing.assert_allclose(scaled.w, base.w / scale, rtol=1e-5)
    assert scaled.b == pytest.approx(base.b, rel=1e-5, abs=1e-6)


@pytest.mark.parametrize(
    "X, y",
    [
        (
            np.array([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]]),
            np.array([1.0, 1.0, -1.0, -1.0]),
        ),  # XOR
        (
            np.array([[0.0, 0.0], [0.0, 0.0], [2.0, 2.0]]),
            np.array([1.0, -1.0, 1.0]),
        ),  # one point, two labels
        (
            np.array([[0.0], [1.0], [2.0]]),
            np.array([1.0, -1.0, 1.0]),
        ),  # interleaved in 1-D
    ],
)
def test_non_separable_data_raise_a_clear_error(X, y):
    with pytest.raises(NotSeparableError, match="not linearly separable"):
        hard_margin_primal(X, y)


def test_overlapping_clouds_raise_a_clear_error_at_any_scale():
    X, y = gaussian_blobs(
        n_per_class=50,
        centers=((0.5, 0.0), (-0.5, 0.0)),
        scale=1.0,
        random_state=1,
    )
    for scale in (1e-6, 1.0, 1e6):
        with pytest.raises(NotSeparableError):
            hard_margin_primal(scale * X, y)


def test_separability_certificate_does_not_depend_on_scale_or_offset():
    X, y = separable_problem(2, d=4)
    base = separability_margin(X, y)
    assert base > 1e-3
    for scale, shift in ((1e-6, 0.0), (1e6, 0.0), (1.0, 1e4)):
        assert separability_margin(scale * X + shift, y) == pytest.approx(
            base, rel=1e-5
        )


@pytest.mark.parametrize(
    "X, y, message",
    [
        (np.array([[0.0, np.nan], [1.0, 1.0]]), [1, -1], "NaN or infinite"),
        (np.array([[0.0, np.inf], [1.0, 1.0]]), [1, -1], "NaN or infinite"),
        ([["a", "b"], ["c", "d"]], [1, -1], "numbers only"),
        (np.array([0.0, 1.0]), [1, -1], "2-D array"),
        (np.empty((0, 2)), [], "empty"),
        (np.eye(3), [1, -1], "3 samples but y has 2 labels"),
        (np.eye(3), [1, 1, 1], "single class"),
        (np.eye(3), [0, 1, 0], "labels -1 and \\+1"),
        (np.eye(3), [[1], [-1], [1]], "1-D array of labels"),
    ],
)
def test_bad_input_is_reported_before_solving(X, y, message):
    with pytest.raises(ValueError, match=message):
        hard_margin_primal(X, y)


def test_string_labels_are_refused_rather_than_converted():
    X, y = separable_problem(0)
    with pytest.raises(ValueError, match="numeric labels"):
        hard_margin_primal(X, y.astype(int).astype(str))


def test_results_are_compared_by_identity_not_by_their_arrays():
    X, y = separable_problem(0)
    first, second = hard_margin_primal(X, y), hard_margin_primal(X, y)
    assert first == first and first != second
