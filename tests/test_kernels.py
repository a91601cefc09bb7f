"""svmlib.kernels.functions against scikit-learn's pairwise kernels, direct
computations and the PSD property."""

import numpy as np
import pytest
from sklearn.datasets import make_moons
from sklearn.metrics import pairwise
from sklearn.svm import SVC

from svmlib import (
    Kernel,
    exponential_kernel,
    linear_kernel,
    polynomial_kernel,
    rbf_kernel,
    sigmoid_kernel,
    soft_margin_dual,
)
from svmlib.derivation.dual import NotPositiveSemidefiniteError
from svmlib.kernels.functions import (
    kernel_decision_function,
    squared_distances,
)

RNG = np.random.default_rng(0)
X = RNG.normal(size=(40, 5))
Z = RNG.normal(size=(25, 5)) * 2.0


def assert_close(actual, expected):
    np.testing.assert_allclose(
        actual,
        expected,
        rtol=1e-12,
        atol=1e-12 * max(1.0, np.abs(expected).max()),
    )


@pytest.mark.parametrize(
    "gamma, degree, coef0", [(0.3, 3, 1.0), (1.0, 2, 0.0), (0.05, 5, 2.5)]
)
def test_inner_product_kernels_match_scikit_learn(gamma, degree, coef0):
    assert_close(linear_kernel(X, Z), pairwise.linear_kernel(X, Z))
    assert_close(
        polynomial_kernel(X, Z, gamma=gamma, degree=degree, coef0=coef0),
        pairwise.polynomial_kernel(
            X, Z, gamma=gamma, degree=degree, coef0=coef0
        ),
    )
    assert_close(
        sigmoid_kernel(X, Z, gamma=gamma, coef0=coef0),
        pairwise.sigmoid_kernel(X, Z, gamma=gamma, coef0=coef0),
    )


@pytest.mark.parametrize("gamma", [0.01, 0.5, 10.0])
def test_rbf_matches_scikit_learn(gamma):
    assert_close(
        rbf_kernel(X, Z, gamma=gamma),
        pairwise.rbf_kernel(X, Z, gamma=gamma),
    )
    assert_close(
        rbf_kernel(X, gamma=gamma), pairwise.rbf_kernel(X, gamma=gamma)
    )


@pytest.mark.parametrize("gamma", [0.1, 1.0])
def test_exponential_kernel_matches_a_direct_computation(gamma):
    direct = np.exp(
        -gamma * np.sqrt(((X[:, None, :] - Z[None, :, :]) ** 2).sum(axis=2))
    )
    assert_close(exponential_kernel(X, Z, gamma=gamma), direct)


def test_squared_distances_survive_cancellation():
    """Points far from the origin and duplicated: the product form alone
    would go negative or leave ~1e-8 distances between identical points."""
    P = RNG.normal(size=(30, 3)) * 1e-3 + 1e6
    P[5] = P[2]
    D = squared_distances(P)
    direct = ((P[:, None, :] - P[None, :, :]) ** 2).sum(axis=2)
    assert D.min() >= 0.0
    assert D[2, 5] == 0.0 and np.all(np.diag(D) == 0.0)
    np.testing.assert_allclose(D, direct, rtol=1e-9, atol=1e-20)
    assert exponential_kernel(P, gamma=1.0)[2, 5] == 1.0


@pytest.mark.parametrize(
    "kernel",
    [
        Kernel("linear"),
        Kernel("poly", gamma=0.5, degree=3, coef0=1.0),
        Kernel("rbf", gamma=0.7),
        Kernel("exponential", gamma=0.7),
        Kernel("sigmoid", gamma=0.2, coef0=-0.5),
    ],
)
def test_symmetry_rows_and_diagonal(kernel):
    K = kernel(X)
    np.testing.assert_allclose(
        K, K.T, rtol=1e-14, atol=1e-14 * np.abs(K).max()
    )
    rows = [3, 0, 17, 39]
    assert_close(kernel.rows(X, rows), K[rows])
    assert_close(kernel.diagonal(X), np.diag(K))


@pytest.mark.parametrize(
    "kernel",
    [
        Kernel("linear"),
        Kernel("poly", gamma=1.0, degree=2, coef0=0.0),
        Kernel("poly", gamma=0.3, degree=4, coef0=1.0),
        Kernel("rbf", gamma=2.0),
        Kernel("exponential", gamma=0.5),
    ],
)
def test_valid_kernels_give_positive_semidefinite_gram_matrices(kernel):
    eigenvalues = np.linalg.eigvalsh(kernel(RNG.normal(size=(80, 3))))
    assert eigenvalues[0] >= -1e-10 * eigenvalues[-1]


def test_sigmoid_gram_matrices_are_refused_by_the_qp_solver():
    K = Kernel("sigmoid", gamma=1.0)(RNG.normal(size=(60, 2)))
    assert np.linalg.eigvalsh(K)[0] < 0
    y = np.where(np.arange(60) % 2 == 0, 1.0, -1.0)
    with pytest.raises(
        NotPositiveSemidefiniteError,
        match="not conditionally positive semidefinite",
    ):
        soft_margin_dual(K, y, 1.0)


@pytest.mark.parametrize("rule", ["scale", "auto"])
def test_gamma_rules_match_scikit_learn(rule):
    data = RNG.normal(size=(50, 4)) * 3.0 + 1.0
    labels = np.where(np.arange(50) % 2 == 0, 1.0, -1.0)
    reference = SVC(kernel="rbf", gamma=rule).fit(data, labels)._gamma
    assert Kernel("rbf", gamma=rule).resolve(data).gamma == pytest.approx(
        reference, rel=1e-12
    )


def test_rbf_svm_matches_libsvm():
    data, labels = make_moons(n_samples=120, noise=0.2, random_state=0)
    labels = np.where(labels == 1, 1.0, -1.0)
    kernel = Kernel("rbf", gamma="scale").resolve(data)
    ours = soft_margin_dual(kernel(data), labels, 2.0)
    reference = SVC(kernel="rbf", gamma="scale", C=2.0, tol=1e-8).fit(
        data, labels
    )
    grid = RNG.uniform(-1.5, 2.5, size=(300, 2))
    f_ours = kernel_decision_function(
        kernel, data, ours.alpha * labels, ours.b, grid
    )
    np.testing.assert_allclose(
        f_ours, reference.decision_function(grid), atol=1e-4
    )


@pytest.mark.parametrize(
    "arguments, message",
    [
        (dict(name="gaussian"), "unknown kernel 'gaussian'"),
        (dict(name="rbf", gamma=0.0), "gamma must be a positive number"),
        (dict(name="rbf", gamma=-1.0), "gamma must be a positive number"),
        (
            dict(name="rbf", gamma=float("nan")),
            "gamma must be a positive number",
        ),
        (dict(name="rbf", gamma="scaled"), "'scale' or 'auto'"),
        (
            dict(name="poly", degree=2.5),
            "degree must be a non-negative integer",
        ),
        (
            dict(name="poly", degree=-1),
            "degree must be a non-negative integer",
        ),
        (
            dict(name="poly", degree=True),
            "degree must be a non-negative integer",
        ),
        (
            dict(name="sigmoid", coef0=float("inf")),
            "coef0 must be a finite number",
        ),
    ],
)
def test_bad_kernel_parameters_are_reported(arguments, message):
    with pytest.raises(ValueError, match=message):
        Kernel(**arguments)


def test_bad_inputs_are_reported():
    with pytest.raises(ValueError, match="X has 5 features but Z has 3"):
        rbf_kernel(X, Z[:, :3])
    with pytest.raises(ValueError, match="NaN"):
        linear_kernel(np.array([[1.0, np.nan]]))
    with pytest.raises(ValueError, match="gamma must be a positive number"):
        rbf_kernel(X, gamma=0)
    with pytest.raises(ValueError, match="must first be resolved"):
        Kernel("rbf")(X)
    assert Kernel("linear")(X).shape == (
        40,
        40,
    )  # the linear kernel needs no gamma
