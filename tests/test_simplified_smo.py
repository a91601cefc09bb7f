"""The simplified SMO: its two-variable step against brute force, the solver
against cvxopt."""

import numpy as np
import pytest
from problems import overlapping_problem
from sklearn.datasets import make_circles, make_moons

from svmlib import Kernel, Status, soft_margin_dual
from svmlib.smo.simplified_smo import (
    choose_offset,
    pair_bounds,
    simplified_smo,
    two_variable_update,
)


def random_pair_problem(seed):
    """A random RBF Gram matrix, labels, multipliers in the box and the
    errors for a random b.

    Odd seeds: random points and labels.  Even seeds: two well-separated
    clusters, where the decision values are large, so that the step can also
    push alpha_j down to L when y_i != y_j.
    """
    rng = np.random.default_rng(seed)
    n, C = 8, 1.0
    y = rng.choice([-1.0, 1.0], size=n)
    if seed % 2:
        X = rng.normal(size=(n, 2))
    else:
        X = 0.5 * rng.normal(size=(n, 2)) + 2.0 * y[:, None] * np.array(
            [1.0, 0.0]
        )
    K = Kernel("rbf", gamma=0.7)(X)
    alpha = rng.uniform(0.0, C, size=n)
    alpha[rng.random(n) < 0.3] = 0.0
    E = K @ (alpha * y) + rng.normal(scale=2.0) - y
    return K, y, alpha, E, C


def true_dual(K, y, alpha):
    Q = np.outer(y, y) * K
    return 0.5 * alpha @ Q @ alpha - alpha.sum()


def brute_force_segment(K, y, alpha, i, j, C, points=200_001):
    """Grid search of the true dual over the feasible segment: both in [0,
    C], y_i a_i + y_j a_j fixed."""
    s = y[i] * y[j]
    a_j = np.linspace(0.0, C, points)
    a_i = alpha[i] + s * (alpha[j] - a_j)
    keep = (a_i >= -1e-12) & (a_i <= C + 1e-12)
    a_j, a_i = a_j[keep], a_i[keep]
    A = np.repeat(alpha[None, :], a_j.size, axis=0)
    A[:, i], A[:, j] = a_i, a_j
    Q = np.outer(y, y) * K
    values = 0.5 * np.einsum("ki,ij,kj->k", A, Q, A) - A.sum(axis=1)
    return (
        a_i[np.argmin(values)],
        a_j[np.argmin(values)],
        a_j.min(),
        a_j.max(),
    )


def test_two_variable_step_matches_brute_force_over_the_segment():
    outcomes = set()
    for seed in range(120):
        K, y, alpha, E, C = random_pair_problem(seed)
        i, j = 0, 1 + seed % 7
        eta = K[i, i] + K[j, j] - 2 * K[i, j]
        new_i, new_j = two_variable_update(
            alpha[i], alpha[j], y[i], y[j], E[i], E[j], eta, C
        )
        best_i, best_j, low, high = brute_force_segment(
            K, y, alpha, i, j, C
        )
        L, H = pair_bounds(alpha[i], alpha[j], y[i], y[j], C)
        assert (L, H) == pytest.approx((low, high), abs=1e-5)
        assert new_j == pytest.approx(
            best_j, abs=2e-5
        ) and new_i == pytest.approx(best_i, abs=2e-5)
        moved = alpha.copy()
        moved[i], moved[j] = new_i, new_j
        assert moved @ y == pytest.approx(alpha @ y, abs=1e-12)
        assert true_dual(K, y, moved) <= true_dual(K, y, alpha) + 1e-12
        label_case = "same labels" if y[i] == y[j] else "different labels"
        end = "L" if new_j == L else "H" if new_j == H else "interior"
        outcomes.add((label_case, end))
    # every combination of label case and clipping outcome was exercised
    assert outcomes == {
        (c, e)
        for c in ("same labels", "different labels")
        for e in ("L", "H", "interior")
    }


def test_choose_offset_prefers_free_multipliers():
    assert choose_offset(
        0.5, 0.2, -0.4, alpha_i=0.3, alpha_j=1.0, C=1.0
    ) == pytest.approx(0.3)
    assert choose_offset(
        0.5, 0.2, -0.4, alpha_i=1.0, alpha_j=0.3, C=1.0
    ) == pytest.approx(0.9)
    assert choose_offset(
        0.5, 0.2, -0.4, alpha_i=0.0, alpha_j=1.0, C=1.0
    ) == pytest.approx(0.6)


def datasets():
    X_c, t_c = make_circles(
        n_samples=150, noise=0.08, factor=0.45, random_state=0
    )
    X_m, t_m = make_moons(n_samples=200, noise=0.2, random_state=1)
    X_o, y_o = overlapping_problem(3, n=120, d=4)
    return {
        "circles": (X_c, np.where(t_c == 1, 1.0, -1.0)),
        "moons": (X_m, np.where(t_m == 1, 1.0, -1.0)),
        "gaussians": (X_o, y_o),
    }


@pytest.mark.parametrize("name", ["circles", "moons", "gaussians"])
@pytest.mark.parametrize(
    "kernel", [Kernel("linear"), Kernel("rbf", gamma=1.0)]
)
def test_simplified_smo_reaches_the_cvxopt_optimum(name, kernel):
    X, y = datasets()[name]
    K = kernel(X)
    smo = simplified_smo(K, y, 1.0, random_state=0)
    optimum = soft_margin_dual(K, y, 1.0).objective
    assert (
        optimum - 1e-9 * abs(optimum)
        <= smo.objective
        <= optimum + 1e-3 * abs(optimum)
    )
    assert (
        np.all((smo.alpha >= 0) & (smo.alpha <= 1.0))
        and abs(smo.alpha @ y) < 1e-10
    )
    r = y * (K @ (smo.alpha * y) + smo.b) - 1
    violators = ((r < -1e-3) & (smo.alpha < 1.0)) | (
        (r > 1e-3) & (smo.alpha > 0)
    )
    assert (smo.status is Status.OPTIMAL) == (not violators.any())


def test_identical_seeds_give_identical_results_and_kernel_paths_agree():
    X, y = datasets()["moons"]
    kernel = Kernel("rbf", gamma=1.0)
    first = simplified_smo(kernel(X), y, 1.0, random_state=3)
    second = simplified_smo(kernel(X), y, 1.0, random_state=3)
    through_kernel = simplified_smo(
        X, y, 1.0, kernel=kernel, random_state=3
    )
    np.testing.assert_array_equal(first.alpha, second.alpha)
    assert first.b == second.b and first.n_iter == second.n_iter
    np.testing.assert_array_equal(first.alpha, through_kernel.alpha)


def test_a_pass_limit_is_reported():
    X, y = datasets()["moons"]
    result = simplified_smo(
        Kernel("rbf", gamma=1.0)(X), y, 1.0, max_total_passes=2
    )
    assert result.status is Status.MAX_ITER and result.n_iter == 2


@pytest.mark.parametrize(
    "arguments, message",
    [
        (dict(C=0.0), "C must be a positive number"),
        (dict(max_passes=0), "max_passes must be a positive integer"),
        (
            dict(max_total_passes=1.5),
            "max_total_passes must be a positive integer",
        ),
        (dict(tol=-1e-3), "tol must be a positive number"),
        (dict(kernel="rbf"), "kernel must be a Kernel or 'precomputed'"),
    ],
)
def test_bad_arguments_are_reported(arguments, message):
    X, y = overlapping_problem(0)
    K = X @ X.T
    call = dict(C=1.0) | arguments
    with pytest.raises(ValueError, match=message):
        simplified_smo(K, y, **call)


def test_a_non_square_gram_matrix_is_reported():
    X, y = overlapping_problem(0)
    with pytest.raises(ValueError, match="must be square"):
        simplified_smo(X, y, 1.0)


def test_bound_multipliers_are_exact():
    """Round-off must not leave a multiplier a few eps away from 0 or C (it
    would count as free)."""
    for name in ("circles", "moons", "gaussians"):
        X, y = datasets()[name]
        alpha = simplified_smo(
            Kernel("rbf", gamma=1.0)(X), y, 1.0, random_state=0
        ).alpha
        near_zero = (alpha != 0.0) & (np.abs(alpha) < 1e-12)
        near_C = (alpha != 1.0) & (np.abs(alpha - 1.0) < 1e-12)
        assert not near_zero.any() and not near_C.any()
