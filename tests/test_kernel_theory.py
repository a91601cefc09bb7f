"""The theory of the chapter "Kernels", checked on random samples: the
closure rules against independently built feature maps, the Gaussian
kernel's factorisation, the RKHS norm of the SVM's function, the representer
theorem, Mercer's expansion, the lifted circles, and conditionally positive
semidefinite functions."""

from itertools import combinations_with_replacement
from math import factorial

import numpy as np
import pytest
from scipy.integrate import quad
from scipy.optimize import minimize
from sklearn.datasets import make_circles, make_moons
from sklearn.svm import SVC as LibsvmSVC

from svmlib import Kernel, soft_margin_dual
from svmlib.derivation.dual import centred, is_positive_semidefinite
from svmlib.derivation.primal import hard_margin_primal
from svmlib.derivation.soft_margin import soft_margin_primal
from svmlib.kernels.functions import squared_distances

SEEDS = range(5)


def smallest_relative_eigenvalue(K):
    eigenvalues = np.linalg.eigvalsh(K)
    return eigenvalues[0] / np.abs(eigenvalues).max()


def tensor(F, G):
    """Row by row, every product of a coordinate of F with one of G."""
    return np.einsum("ia,ib->iab", F, G).reshape(len(F), -1)


def two_feature_maps(seed, n=30):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    phi_1 = X @ rng.normal(size=(3, 3)).T / 3
    phi_2 = np.sin(X @ rng.normal(size=(3, 5)))
    return X, phi_1, phi_2


def circles():
    X, t = make_circles(
        n_samples=200, noise=0.08, factor=0.45, random_state=0
    )
    return X, np.where(t == 1, 1.0, -1.0)


def monomials(X, p):
    return np.column_stack(
        [
            np.prod(X[:, list(powers)], axis=1)
            for degree in range(1, p + 1)
            for powers in combinations_with_replacement(
                range(X.shape[1]), degree
            )
        ]
    )


def gaussian_features(X, gamma, degree):
    """Truncated explicit features of exp(-gamma ||x - z||^2) in 2-D."""
    j = np.arange(degree + 1)
    weights = np.sqrt(
        (2 * gamma) ** j / np.array([factorial(t) for t in j], dtype=float)
    )
    per_coordinate = [X[:, [c]] ** j * weights for c in range(2)]
    damping = np.exp(-gamma * np.sum(X**2, axis=1))[:, None]
    return damping * tensor(*per_coordinate)


# --- closure rules ---


@pytest.mark.parametrize("seed", SEEDS)
def test_sum_and_scaling_are_the_gram_matrices_of_concatenated_features(
    seed,
):
    _, phi_1, phi_2 = two_feature_maps(seed)
    K_1, K_2 = phi_1 @ phi_1.T, phi_2 @ phi_2.T
    joined = np.hstack([phi_1, np.sqrt(3.0) * phi_2])
    np.testing.assert_allclose(
        K_1 + 3.0 * K_2, joined @ joined.T, atol=1e-12
    )
    assert smallest_relative_eigenvalue(K_1 + 3.0 * K_2) > -1e-12


@pytest.mark.parametrize("seed", SEEDS)
def test_the_product_is_the_gram_matrix_of_the_tensor_product(seed):
    """Schur: the entrywise product of two kernels' Gram matrices is the
    Gram matrix of all products of their features, hence PSD."""
    _, phi_1, phi_2 = two_feature_maps(seed)
    K_1, K_2 = phi_1 @ phi_1.T, phi_2 @ phi_2.T
    F = tensor(phi_1, phi_2)
    np.testing.assert_allclose(K_1 * K_2, F @ F.T, atol=1e-12)
    assert smallest_relative_eigenvalue(K_1 * K_2) > -1e-12


@pytest.mark.parametrize("seed", SEEDS)
def test_f_k_f_and_nonnegative_polynomials_are_kernels(seed):
    X, phi_1, _ = two_feature_maps(seed)
    K_1 = phi_1 @ phi_1.T
    f = np.exp(X[:, 1]) - 0.5  # any real function, of either sign
    scaled = f[:, None] * phi_1
    np.testing.assert_allclose(
        f[:, None] * K_1 * f[None, :], scaled @ scaled.T, atol=1e-12
    )
    # 2 + k + 3 k^2 from the features (sqrt 2, phi, sqrt 3 phi (x) phi)
    features = np.hstack(
        [
            np.full((len(X), 1), np.sqrt(2.0)),
            phi_1,
            np.sqrt(3.0) * tensor(phi_1, phi_1),
        ]
    )
    polynomial = 2.0 + K_1 + 3.0 * K_1**2
    np.testing.assert_allclose(
        polynomial, features @ features.T, rtol=1e-12, atol=1e-12
    )
    assert smallest_relative_eigenvalue(polynomial) > -1e-12


@pytest.mark.parametrize("seed", SEEDS)
def test_the_exponential_of_a_kernel_is_the_limit_of_its_series(seed):
    _, phi_1, phi_2 = two_feature_maps(seed)
    K = phi_1 @ phi_1.T + phi_2 @ phi_2.T
    partial = sum(K**j / factorial(j) for j in range(80))
    np.testing.assert_allclose(np.exp(K), partial, rtol=1e-12)
    assert is_positive_semidefinite(np.exp(K))


@pytest.mark.parametrize("seed", SEEDS)
def test_what_the_rules_do_not_cover_can_fail(seed):
    """A difference of kernels and a polynomial with a negative coefficient
    give indefinite matrices: the PSD checks above can fail."""
    _, phi_1, phi_2 = two_feature_maps(seed)
    K_1, K_2 = phi_1 @ phi_1.T, phi_2 @ phi_2.T
    assert smallest_relative_eigenvalue(K_1 - K_2) < -1e-3
    assert smallest_relative_eigenvalue(K_1 - K_1**2) < -1e-3


@pytest.mark.parametrize("seed", SEEDS)
def test_the_gaussian_kernel_factorises_into_kernels(seed):
    X = np.random.default_rng(seed).normal(size=(40, 4))
    gamma = 0.3
    norms = np.sum(X**2, axis=1)
    factored = (
        np.exp(-gamma * norms)[:, None]
        * np.exp(2 * gamma * X @ X.T)
        * np.exp(-gamma * norms)[None, :]
    )
    direct = Kernel("rbf", gamma=gamma)(X)
    np.testing.assert_allclose(factored, direct, rtol=1e-10, atol=1e-14)
    assert smallest_relative_eigenvalue(direct) > -1e-12


# --- the RKHS and the representer theorem ---


def test_the_rkhs_norm_of_the_svm_function_is_alpha_q_alpha():
    """||sum alpha_i y_i phi(x_i)||^2 in explicit (truncated) Gaussian
    coordinates equals alpha'Q alpha from the Gram matrix, and the
    reproducing property holds in those coordinates."""
    X, y = circles()
    K = Kernel("rbf", gamma=1.0)(X)
    fit = soft_margin_dual(K, y, C=1.0)
    coefficients = fit.alpha * y
    Q = np.outer(y, y) * K
    Phi = gaussian_features(X, 1.0, 25)
    f = Phi.T @ coefficients
    assert f @ f == pytest.approx(fit.alpha @ Q @ fit.alpha, rel=1e-10)
    np.testing.assert_allclose(Phi @ f, K @ coefficients, atol=1e-10)


def test_the_primal_in_explicit_features_is_the_kernel_expansion():
    """The soft-margin primal solved in 441 explicit Gaussian coordinates
    and the dual solved on the Gram matrix give the same decision function,
    the expansion sum_i alpha_i y_i k(x_i, x) + b, at new points; and
    LIBSVM agrees."""
    X, y = circles()
    kernel = Kernel("rbf", gamma=1.0)
    primal = soft_margin_primal(gaussian_features(X, 1.0, 20), y, C=1.0)
    dual = soft_margin_dual(kernel(X), y, C=1.0)
    Z = np.random.default_rng(0).uniform(-1.3, 1.3, size=(300, 2))
    f_primal = gaussian_features(Z, 1.0, 20) @ primal.w + primal.b
    f_expansion = kernel(Z, X) @ (dual.alpha * y) + dual.b
    np.testing.assert_allclose(f_primal, f_expansion, atol=1e-5)
    libsvm = LibsvmSVC(kernel="rbf", gamma=1.0, C=1.0, tol=1e-8).fit(X, y)
    np.testing.assert_allclose(
        libsvm.decision_function(Z), f_expansion, atol=1e-4
    )


@pytest.mark.parametrize("n_points", [8, 12, 15])
def test_the_hinge_minimiser_lies_in_the_span_of_the_mapped_points(
    n_points,
):
    """20 monomial features, fewer points: the primal weight vector, found
    over all of R^20, lies in the span of the mapped points, with the
    dual's alpha_i y_i as coefficients."""
    X, y = circles()
    X, y = X[:n_points], y[:n_points]
    Phi = monomials(X, 5)
    assert Phi.shape[1] == 20 > np.linalg.matrix_rank(Phi) == n_points
    primal = soft_margin_primal(Phi, y, C=1.0)
    coefficients = np.linalg.lstsq(Phi.T, primal.w, rcond=None)[0]
    outside = primal.w - Phi.T @ coefficients
    assert np.linalg.norm(outside) < 1e-8 * np.linalg.norm(primal.w)
    dual = soft_margin_dual(Phi @ Phi.T, y, C=1.0)
    np.testing.assert_allclose(coefficients, dual.alpha * y, atol=1e-6)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_logistic_minimiser_lies_in_the_span_from_any_start(seed):
    X, y = circles()
    X, y = X[:12], y[:12]
    Phi = monomials(X, 5)
    lam = 0.01

    def objective(theta):
        w, b = theta[:-1], theta[-1]
        margins = y * (Phi @ w + b)
        weights = -y / (1 + np.exp(margins)) / len(y)
        value = lam * w @ w + np.mean(np.logaddexp(0, -margins))
        return value, np.append(
            Phi.T @ weights + 2 * lam * w, weights.sum()
        )

    start = np.random.default_rng(seed).normal(size=Phi.shape[1] + 1)
    found = minimize(
        objective,
        start,
        jac=True,
        method="L-BFGS-B",
        options={"gtol": 1e-12, "ftol": 1e-15, "maxiter": 10_000},
    )

    def outside_share(w):
        inside = Phi.T @ np.linalg.lstsq(Phi.T, w, rcond=None)[0]
        return np.linalg.norm(w - inside) / np.linalg.norm(w)

    assert outside_share(start[:-1]) > 0.1
    assert outside_share(found.x[:-1]) < 1e-6


def test_mercer_eigenvalues_converge_and_the_expansion_converges():
    """The Gaussian kernel on [-1, 1] with the uniform measure: the
    quadrature eigenvalues agree for two grids and are non-negative, and the
    truncated expansion approaches k uniformly (on random pairs)."""

    def eigen(m):
        t = -1 + (np.arange(m) + 0.5) * 2 / m
        values, vectors = np.linalg.eigh(
            np.exp(-((t[:, None] - t) ** 2)) / m
        )
        return t, values[::-1], vectors[:, ::-1]

    _, coarse, _ = eigen(300)
    t, fine, vectors = eigen(600)
    np.testing.assert_allclose(coarse[:6], fine[:6], rtol=1e-3)
    assert fine[-1] > -1e-12 * fine[0]
    x, z = np.random.default_rng(0).uniform(-1, 1, size=(2, 1000))

    def truncated(r):
        def e(points):
            K_points = np.exp(-((points[:, None] - t) ** 2))
            return (
                K_points
                @ vectors[:, :r]
                * np.sqrt(len(t))
                / len(t)
                / fine[:r]
            )

        return np.sum(fine[:r] * e(x) * e(z), axis=1)

    errors = [
        np.abs(truncated(r) - np.exp(-((x - z) ** 2))).max()
        for r in (2, 4, 8)
    ]
    assert errors[0] > errors[1] > errors[2]
    assert errors[2] < 10 * fine[8]


# --- the lifted circles ---


def test_a_plane_separates_the_lifted_circles_and_is_a_circle_below():
    X, y = circles()
    lifted = np.column_stack([X, np.sum(X**2, axis=1)])
    plane = hard_margin_primal(lifted, y)
    assert np.all(y * (lifted @ plane.w + plane.b) >= 1 - 1e-6)
    # the circle of eq. (eq-lift-circle) classifies the original points
    w1, w2, w3 = plane.w
    centre = -np.array([w1, w2]) / (2 * w3)
    radius2 = centre @ centre - plane.b / w3
    inside = np.sum((X - centre) ** 2, axis=1) < radius2
    assert np.array_equal(inside, y == (1.0 if w3 < 0 else -1.0))
    # and an independent linear SVM (LIBSVM) on the lifted points
    libsvm = LibsvmSVC(kernel="linear", C=1e4).fit(lifted, y)
    assert libsvm.score(lifted, y) == 1.0


# --- conditionally positive semidefinite functions ---


@pytest.mark.parametrize("distance", [0.0, 0.01, 0.5, 2.0, 10.0])
def test_the_distance_is_an_integral_of_gaussians(distance):
    value, _ = quad(
        lambda s: -np.expm1(-((s * distance) ** 2)) / s**2, 0, np.inf
    )
    assert value / np.sqrt(np.pi) == pytest.approx(distance, abs=1e-9)


@pytest.mark.parametrize("seed", SEEDS)
def test_the_negative_distance_is_conditionally_psd_and_never_psd(seed):
    X = np.random.default_rng(seed).normal(size=(50, 3))
    K = -np.sqrt(squared_distances(X))
    scale = np.abs(np.linalg.eigvalsh(K)).max()
    assert np.linalg.eigvalsh(K)[0] < -0.1 * scale
    assert np.linalg.eigvalsh(centred(K))[0] > -1e-12 * scale
    # quadratic forms on random vectors that sum to zero
    V = np.random.default_rng(seed + 100).normal(size=(50, 20))
    V -= V.mean(axis=0)
    assert np.all(np.einsum("ik,ij,jk->k", V, K, V) >= -1e-10 * scale)


@pytest.mark.parametrize("seed", SEEDS)
def test_the_exponential_of_a_conditionally_psd_function_is_psd(seed):
    X = np.random.default_rng(seed).normal(size=(50, 2))
    K = -0.7 * np.sqrt(squared_distances(X))
    K_tilde = K - K[:, [0]] - K[[0], :] + K[0, 0]
    assert smallest_relative_eigenvalue(K_tilde) > -1e-12
    f = np.exp(K[:, 0] - K[0, 0] / 2)
    np.testing.assert_allclose(
        np.exp(K), f[:, None] * np.exp(K_tilde) * f[None, :], rtol=1e-12
    )
    exponential = Kernel("exponential", gamma=0.7)(X)
    np.testing.assert_allclose(exponential, np.exp(K), rtol=1e-12)
    assert smallest_relative_eigenvalue(exponential) > 0


def test_the_sigmoid_is_not_even_conditionally_psd_on_the_moons():
    X, _ = make_moons(n_samples=100, noise=0.2, random_state=0)
    K = Kernel("sigmoid", gamma=1.0)(X)
    assert np.linalg.eigvalsh(centred(K))[0] < -1.0


@pytest.mark.parametrize("c", [0.0, 1.0, 10.0, 1e3])
def test_a_flat_coupled_form_is_made_psd_by_no_shift(c):
    K = np.array([[0.0, 1.0], [1.0, 2.0]])
    v = np.array([1.0, -1.0])
    assert v @ K @ v == 0.0 and v @ K @ np.ones(2) != 0.0
    low, high = np.linalg.eigvalsh(K + c)
    assert low * high == pytest.approx(-1.0, rel=1e-9)
    assert low < 0


def test_a_cubic_exponent_fails_on_some_sample_although_pairs_pass():
    """exp(-||x - z||^3): every two-point Gram matrix is PSD, yet a larger
    sample refutes positive semidefiniteness."""
    X, _ = circles()
    K = np.exp(-(squared_distances(X) ** 1.5))
    rng = np.random.default_rng(0)
    for _ in range(200):
        pair = rng.choice(len(X), 2, replace=False)
        assert smallest_relative_eigenvalue(K[np.ix_(pair, pair)]) >= 0
    eigenvalues, vectors = np.linalg.eigh(K)
    v = vectors[:, 0]
    assert v @ K @ v < -0.01 * eigenvalues[-1]
