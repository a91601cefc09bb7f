"""The duality chapter's theory: the worked example's dual, the nearest
points of the convex hulls (svmlib.derivation.hulls), the multipliers as
sensitivities, and KKT residuals that do not depend on the units."""

import itertools

import numpy as np
import pytest
from sklearn.svm import SVC

from svmlib import hard_margin_dual, soft_margin_dual, solve_qp
from svmlib.book.datasets import hand_example
from svmlib.derivation.hulls import nearest_hull_points
from svmlib.derivation.kkt import kkt_residuals, kkt_violation

SCALES = (1e-3, 1e-1, 1.0, 1e1, 1e3)


def separable(seed, n=40, d=2, gap=0.4):
    """Labelled by the side of x_1 + ... + x_d = 0, then moved apart by gap
    along that direction."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = np.where(X.sum(axis=1) > 0, 1.0, -1.0)
    return X + gap * y[:, None] / np.sqrt(d), y


def libsvm_hard_margin(X, y):
    """w and b of LIBSVM with a C so large that no multiplier reaches it."""
    model = SVC(kernel="linear", C=1e8, tol=1e-10).fit(X, y)
    return model.coef_[0], model.intercept_[0]


def point_to_segment(p, a, b):
    """Distance from p to the segment [a, b]."""
    t = np.clip((p - a) @ (b - a) / ((b - a) @ (b - a)), 0.0, 1.0)
    return np.linalg.norm(p - (a + t * (b - a)))


def polygon_distance(P, N):
    """Distance between the convex hulls of two disjoint 2-D point sets, by
    brute force: the smallest distance from a point of one set to a segment
    between two points of the other (the nearest points of two disjoint
    polygons lie on edges, and every edge is such a segment)."""
    best = np.inf
    for A, B in ((P, N), (N, P)):
        for p in A:
            for a, b in itertools.combinations(B, 2):
                best = min(best, point_to_segment(p, a, b))
            best = min(best, np.linalg.norm(B - p, axis=1).min())
    return best


# ------------------------------------------------------ the worked example


def test_the_worked_example_dual_is_the_hand_solution():
    X, y = hand_example()
    result = hard_margin_dual(X @ X.T, y)
    np.testing.assert_allclose(result.alpha, [1.0, 0.5, 0.5], atol=1e-8)
    assert result.b == pytest.approx(-1.0, abs=1e-8)
    assert -result.objective == pytest.approx(1.0, abs=1e-8)  # d* = p*
    w = X.T @ (result.alpha * y)
    np.testing.assert_allclose(w, [1.0, 1.0], atol=1e-8)


# ------------------------------------------------------------ convex hulls


@pytest.mark.parametrize("seed", range(4))
def test_hull_distance_is_twice_the_margin_of_libsvm(seed):
    X, y = separable(seed)
    w, b = libsvm_hard_margin(X, y)
    hull = nearest_hull_points(X, y)
    assert hull.distance == pytest.approx(2 / np.linalg.norm(w), rel=1e-6)
    # p+ - p- is 2 w / ||w||^2, and the margin hyperplanes pass through p+-.
    gap = hull.positive - hull.negative
    np.testing.assert_allclose(2 * gap / (gap @ gap), w, rtol=1e-5)
    assert w @ hull.positive + b == pytest.approx(1.0, abs=1e-5)
    assert w @ hull.negative + b == pytest.approx(-1.0, abs=1e-5)


@pytest.mark.parametrize("seed", range(4))
def test_hull_distance_matches_brute_force_in_the_plane(seed):
    rng = np.random.default_rng(10 + seed)
    P = rng.normal(size=(6, 2)) + [3.0, 1.0]
    N = rng.normal(size=(5, 2)) - [1.0, 0.5]
    X, y = np.vstack([P, N]), np.r_[np.ones(6), -np.ones(5)]
    hull = nearest_hull_points(X, y)
    assert hull.distance == pytest.approx(polygon_distance(P, N), rel=1e-7)


@pytest.mark.parametrize("seed", range(3))
def test_hull_weights_are_the_rescaled_dual_multipliers(seed):
    X, y = separable(seed)
    alpha = hard_margin_dual(X @ X.T, y).alpha
    hull = nearest_hull_points(X, y)
    chi = alpha[y > 0].sum()
    assert alpha[y < 0].sum() == pytest.approx(chi, rel=1e-7)
    assert hull.c[y > 0].sum() == pytest.approx(1.0, abs=1e-9)
    assert hull.c[y < 0].sum() == pytest.approx(1.0, abs=1e-9)
    assert hull.c.min() >= 0.0
    assert chi == pytest.approx(2 / hull.distance**2, rel=1e-6)
    # The weighted means are the nearest points (whatever the weights).
    np.testing.assert_allclose(
        (alpha / chi)[y > 0] @ X[y > 0], hull.positive, atol=1e-6
    )
    np.testing.assert_allclose(
        (alpha / chi)[y < 0] @ X[y < 0], hull.negative, atol=1e-6
    )


def test_hull_of_the_worked_example():
    X, y = hand_example()
    hull = nearest_hull_points(X, y)
    np.testing.assert_allclose(hull.negative, [0.0, 0.0], atol=1e-8)
    np.testing.assert_allclose(hull.positive, [1.0, 1.0], atol=1e-8)
    assert hull.distance == pytest.approx(np.sqrt(2), rel=1e-8)


@pytest.mark.parametrize("m", [3, 7, 49])
def test_smallest_reduced_hulls_are_the_centroids(m):
    """With mu = 1/m and m points per class every weight must be 1/m (even
    when 1/m * m falls short of 1 by round-off, as for m = 49)."""
    rng = np.random.default_rng(m)
    X = rng.normal(size=(2 * m, 3))
    y = np.r_[np.ones(m), -np.ones(m)]
    hull = nearest_hull_points(X, y, mu=1 / m)
    np.testing.assert_allclose(hull.positive, X[:m].mean(axis=0), atol=1e-7)
    np.testing.assert_allclose(hull.negative, X[m:].mean(axis=0), atol=1e-7)


def test_reduced_hulls_are_no_closer_than_the_hulls():
    X, y = separable(0)
    distances = [
        nearest_hull_points(X, y, mu=mu).distance for mu in (1.0, 0.5, 0.2)
    ]
    assert distances[0] <= distances[1] + 1e-9 <= distances[2] + 2e-9


def test_overlapping_classes_have_hulls_at_distance_zero():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 2))
    y = np.where(rng.random(30) < 0.5, 1.0, -1.0)
    assert nearest_hull_points(X, y).distance < 1e-6


@pytest.mark.parametrize("mu", [0.0, -0.5, 1.5, 0.05, np.nan, np.inf])
def test_nearest_hull_points_rejects_an_infeasible_mu(mu):
    X, y = separable(0, n=20)  # the smaller class has at most 10 points
    with pytest.raises(ValueError, match="mu must lie in"):
        nearest_hull_points(X, y, mu=mu)


def test_nearest_hull_points_rejects_bad_labels():
    X, _ = separable(0, n=10)
    with pytest.raises(ValueError):
        nearest_hull_points(X, np.ones(10))


# ----------------------------------------------- multipliers as prices


def relaxed_optimum(X, y, omega):
    """p*(omega): the primal with constraints y_i f(x_i) >= 1 - omega_i."""
    n, d = X.shape
    P = np.diag(np.r_[np.ones(d), 0.0])
    A_ub = -y[:, None] * np.hstack([X, np.ones((n, 1))])
    return solve_qp(P, np.zeros(d + 1), A_ub, omega - 1.0).objective


@pytest.mark.parametrize("seed", range(2))
def test_multipliers_are_the_sensitivities_of_the_optimal_value(seed):
    X, y = separable(seed, n=30)
    alpha = hard_margin_dual(X @ X.T, y).alpha
    p_star = relaxed_optimum(X, y, np.zeros(len(y)))
    t = 1e-4
    for i in np.argsort(alpha)[-3:]:  # the largest multipliers
        omega = np.zeros(len(y))
        omega[i] = t
        loosened = -(relaxed_optimum(X, y, omega) - p_star) / t
        tightened = (relaxed_optimum(X, y, -omega) - p_star) / t
        # The global inequality brackets alpha_i; the mean converges.
        assert loosened <= alpha[i] + 1e-6 <= tightened + 2e-6
        assert (loosened + tightened) / 2 == pytest.approx(
            alpha[i], rel=1e-4
        )


@pytest.mark.parametrize("seed", range(3))
def test_multipliers_add_up_to_the_squared_norm_of_w(seed):
    X, y = separable(seed)
    w, _ = libsvm_hard_margin(X, y)
    alpha = hard_margin_dual(X @ X.T, y).alpha
    assert alpha.sum() == pytest.approx(w @ w, rel=1e-5)


# ------------------------------------------- KKT residuals without units


def perturbed(seed):
    X, y = separable(seed)
    solution = hard_margin_dual(X @ X.T, y)
    rng = np.random.default_rng(seed)
    alpha = 0.5 * solution.alpha + rng.uniform(-0.02, 0.05, size=len(y))
    return X, y, alpha, solution.b + 0.1


@pytest.mark.parametrize("seed", range(3))
def test_kkt_residuals_do_not_depend_on_the_scale_hard_margin(seed):
    X, y, alpha, b = perturbed(seed)
    reference = kkt_residuals(X @ X.T, y, alpha, b)
    assert min(reference.values()) > 1e-3  # every condition is violated
    for s in SCALES:
        K = (s * X) @ (s * X).T
        scaled = kkt_residuals(K, y, alpha / s**2, b)
        for name, value in reference.items():
            assert scaled[name] == pytest.approx(value, rel=1e-8), (s, name)


@pytest.mark.parametrize("seed", range(3))
def test_kkt_residuals_do_not_depend_on_the_scale_soft_margin(seed):
    X, y, alpha, b = perturbed(seed)
    C = 0.5 * alpha.max()  # some multipliers above C, others below
    reference = kkt_residuals(X @ X.T, y, alpha, b, C)
    assert reference["dual feasibility"] > 0.1
    for s in SCALES:
        K = (s * X) @ (s * X).T
        scaled = kkt_residuals(K, y, alpha / s**2, b, C / s**2)
        for name, value in reference.items():
            assert scaled[name] == pytest.approx(value, rel=1e-8), (s, name)


@pytest.mark.parametrize("s", SCALES)
def test_solutions_pass_one_tolerance_at_every_scale(s):
    """The solvers' answers at each scale, judged with one tolerance: the
    unnormalised complementary slackness of the same solution grows as
    1/s^2 (1e-4 at s = 1e-3)."""
    X, y = separable(0)
    K = (s * X) @ (s * X).T
    hard = hard_margin_dual(K, y)
    assert kkt_violation(K, y, hard.alpha, hard.b) < 1e-8
    soft = soft_margin_dual(K, y, C=0.1 / s**2)
    assert kkt_violation(K, y, soft.alpha, soft.b, 0.1 / s**2) < 1e-8


def test_kkt_residuals_at_zero_multipliers_are_finite():
    X, y = separable(0)
    residuals = kkt_residuals(X @ X.T, y, np.zeros(len(y)), 0.0)
    assert residuals["stationarity"] == 0.0
    assert residuals["complementary slackness"] == 0.0
    assert residuals["primal feasibility"] == pytest.approx(1.0)


def test_kkt_residuals_reject_bad_input():
    X, y = separable(0, n=10)
    K = X @ X.T
    with pytest.raises(ValueError, match="one multiplier per point"):
        kkt_residuals(K, y, np.zeros(9), 0.0)
    with pytest.raises(ValueError, match="C must be positive"):
        kkt_residuals(K, y, np.zeros(10), 0.0, C=0.0)
    with pytest.raises(ValueError, match="square"):
        kkt_residuals(K[:, :9], y, np.zeros(10), 0.0)
