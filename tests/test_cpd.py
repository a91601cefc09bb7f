"""Conditionally positive semidefinite kernels: the dual is convex on its
feasible set exactly when u'Ku >= 0 for every u with sum(u) = 0, so every
solver trains such a kernel and they agree; a kernel that is not even
conditionally positive semidefinite is refused by the QP solvers."""

import warnings

import numpy as np
import pytest
from sklearn.datasets import make_moons
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics.pairwise import euclidean_distances
from sklearn.svm import SVC as LibsvmSVC

from svmlib import SVC, Kernel, hard_margin_dual, soft_margin_dual
from svmlib.derivation.dual import (
    NotPositiveSemidefiniteError,
    centred,
    check_conditionally_positive_semidefinite,
    is_positive_semidefinite,
    shift_to_positive_semidefinite,
)

SOLVERS = ("cvxopt", "smo", "platt", "simplified", "batched", "auto")


def negative_distance(A, B):
    """k(x, z) = -||x - z||: conditionally positive semidefinite, never
    positive semidefinite (its Gram matrix has a zero diagonal)."""
    return -euclidean_distances(A, B)


@pytest.fixture(scope="module")
def moons():
    X, t = make_moons(60, noise=0.2, random_state=0)
    return X, np.where(t == 1, 1.0, -1.0)


def dual_objective_of(model, K, y):
    """The dual objective 1/2 v'Kv - sum(alpha) from a fitted model's
    public attributes only."""
    alpha = np.zeros(y.size)
    alpha[model.support_] = np.abs(model.dual_coef_[0])
    v = alpha * y
    return 0.5 * v @ K @ v - alpha.sum()


def test_the_negative_distance_is_indefinite_yet_conditionally_psd(moons):
    K = negative_distance(moons[0], moons[0])
    assert np.linalg.eigvalsh(K)[0] < -1.0
    check_conditionally_positive_semidefinite(K)
    assert np.linalg.eigvalsh(centred(K))[0] > -1e-9


def test_centring_is_the_projection_onto_sums_of_zero():
    K = np.random.default_rng(0).normal(size=(7, 7))
    K = K + K.T
    P = np.eye(7) - np.ones((7, 7)) / 7
    np.testing.assert_allclose(centred(K), P @ K @ P, atol=1e-12)


def test_the_shift_makes_it_psd_and_leaves_the_form_on_sums_of_zero(moons):
    K = negative_distance(moons[0], moons[0])
    shifted = shift_to_positive_semidefinite(K)
    assert is_positive_semidefinite(shifted)
    u = np.random.default_rng(1).normal(size=(K.shape[0], 5))
    u -= u.mean(axis=0)
    np.testing.assert_allclose(
        np.einsum("ik,ij,jk->k", u, shifted, u),
        np.einsum("ik,ij,jk->k", u, K, u),
        rtol=1e-9,
    )


def test_a_psd_matrix_is_not_shifted():
    X = np.random.default_rng(2).normal(size=(20, 3))
    K = X @ X.T
    assert shift_to_positive_semidefinite(K) is K


def test_a_flat_but_coupled_form_is_shifted_within_the_tolerance():
    """[[0, 1], [1, 2]] is conditionally psd with u'Ku = 0 on sum(u) = 0,
    and no shift makes it exactly psd: the shift grows until the negative
    eigenvalue is negligible against the largest."""
    K = np.array([[0.0, 1.0], [1.0, 2.0]])
    check_conditionally_positive_semidefinite(K)
    assert is_positive_semidefinite(shift_to_positive_semidefinite(K))


@pytest.mark.parametrize("C", [0.1, 1.0, 10.0])
def test_every_solver_trains_the_negative_distance_and_they_agree(moons, C):
    """LIBSVM (scikit-learn's SVC with the same callable) is the reference;
    Platt's and the simplified SMO stop less precisely."""
    X, y = moons
    K = negative_distance(X, X)
    reference = LibsvmSVC(kernel=negative_distance, C=C, tol=1e-6).fit(X, y)
    expected = dual_objective_of(reference, K, y)
    assert soft_margin_dual(K, y, C).objective == pytest.approx(
        expected, rel=1e-5
    )
    for solver in SOLVERS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            model = SVC(kernel=negative_distance, C=C, solver=solver)
            model.fit(X, y)
        precise = solver in ("cvxopt", "smo", "batched")
        assert dual_objective_of(model, K, y) == pytest.approx(
            expected, rel=1e-5 if precise else 1e-3
        ), solver


def test_the_hard_margin_dual_trains_a_conditionally_psd_kernel():
    X = np.array([[0.0, 0.0], [0.2, 0.1], [3.0, 3.0], [3.2, 2.9]])
    y = np.array([-1.0, -1.0, 1.0, 1.0])
    K = negative_distance(X, X)
    hard = hard_margin_dual(K, y)
    soft = soft_margin_dual(K, y, 1e6)
    assert hard.objective == pytest.approx(soft.objective, rel=1e-5)
    assert np.sign(K @ (hard.alpha * y) + hard.b) == pytest.approx(y)


def test_a_kernel_not_even_conditionally_psd_is_refused_with_its_reason():
    X = np.random.default_rng(3).normal(size=(60, 2))
    y = np.where(np.arange(60) % 2 == 0, 1.0, -1.0)
    K = Kernel("sigmoid", gamma=1.0)(X)
    assert np.linalg.eigvalsh(centred(K))[0] < 0
    for solve in (
        lambda: soft_margin_dual(K, y, 1.0),
        lambda: SVC(kernel="sigmoid", gamma=1.0, solver="cvxopt").fit(X, y),
    ):
        with pytest.raises(
            NotPositiveSemidefiniteError,
            match="not conditionally positive semidefinite",
        ):
            solve()
