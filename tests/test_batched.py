"""The batched solver of the chapter "Scaling up": kernel rows, the inner
solver, and the solver against independent answers (cvxopt, LIBSVM's
published numbers, the full SMO chapter's solver)."""

import tracemalloc

import numpy as np
import pytest
from problems import overlapping_problem

from svmlib import (
    SVC,
    Kernel,
    QPProblem,
    Status,
    soft_margin_dual,
    solve,
    solve_qp,
)
from svmlib.book.libsvm_data import load_heart_scale
from svmlib.formulations.c_svc import c_svc_problem
from svmlib.kernels.kernel_rows import GramRows, KernelRows
from svmlib.training.batched import (
    batched_smo,
    c_svc_block_problem,
    select_batch,
    solve_batched,
    solve_block,
)

KERNELS = [
    Kernel("linear"),
    Kernel("poly", gamma=0.05, degree=3, coef0=1.0),
    Kernel("rbf", gamma=0.3),
    Kernel("exponential", gamma=0.5),
    Kernel("sigmoid", gamma=0.01, coef0=-0.3),
]


@pytest.mark.parametrize("kernel", KERNELS, ids=lambda k: k.name)
@pytest.mark.parametrize(
    "dtype, bound", [(np.float32, 1e-5), (np.float64, 1e-7)]
)
def test_kernel_rows_match_the_kernel_functions(kernel, dtype, bound):
    X = np.random.default_rng(1).normal(size=(120, 5)) * 3 + 20
    rows = KernelRows(kernel, X)
    picked = np.array([3, 0, 119, 64, 3])
    exact = kernel(X[picked], X)
    found = rows.compute(picked, np.empty((5, 120), dtype=dtype))
    assert np.abs(found - exact).max() <= bound * np.abs(exact).max()
    np.testing.assert_allclose(
        rows.diagonal, np.diag(kernel(X)), rtol=1e-12, atol=1e-12
    )


@pytest.mark.parametrize("kernel", KERNELS, ids=lambda k: k.name)
def test_rows_restricted_to_columns_match_the_kernel_functions(kernel):
    X = np.random.default_rng(3).normal(size=(90, 4)) * 2 + 5
    picked, columns = np.array([7, 0, 89]), np.array([5, 5, 88, 1, 60])
    exact = kernel(X[picked], X[columns])
    found = KernelRows(kernel, X).compute(
        picked, np.empty((3, 5)), columns=columns
    )
    assert np.abs(found - exact).max() <= 1e-7 * np.abs(exact).max()
    K = kernel(X)
    np.testing.assert_array_equal(
        GramRows(K).compute(picked, np.empty((3, 5)), columns=columns),
        K[np.ix_(picked, columns)],
    )


def test_rows_come_in_blocks_without_a_full_matrix(monkeypatch):
    import svmlib.kernels.kernel_rows

    X = np.random.default_rng(2).normal(size=(300, 4))
    monkeypatch.setattr(
        svmlib.kernels.kernel_rows, "ROW_BLOCK_BYTES", 8 * 300 * 7
    )  # 7 rows per block
    rows = KernelRows(Kernel("rbf", gamma=0.5), X)
    assert rows.rows_per_block == 7
    indices = np.arange(0, 300, 3)
    np.testing.assert_allclose(
        rows.compute(indices, np.empty((100, 300))),
        Kernel("rbf", gamma=0.5)(X[indices], X),
        atol=1e-12,
    )
    assert rows.n_evaluations == 100 * 300


def test_solve_block_takes_full_smo_steps():
    X, y = load_heart_scale()
    kernel = Kernel("rbf", gamma=1 / 13)
    K = KernelRows(kernel, X).compute(np.arange(270), np.empty((270, 270)))
    alpha, psi = np.zeros(270), y.copy()
    steps = solve_block(K, psi, y, alpha, np.full(270, 1.0), 1e-3, 10**6)
    reference = solve(c_svc_problem(X, y, 1.0, kernel), shrinking=False)
    assert steps == reference.n_iter
    np.testing.assert_allclose(alpha, reference.alpha, atol=1e-10)
    np.testing.assert_allclose(
        -y * psi, (y[:, None] * y[None, :] * K) @ alpha - 1.0, atol=1e-9
    )
    with pytest.raises(ValueError, match="contiguous float64"):
        solve_block(
            K, psi.astype(np.float32), y, alpha, np.full(270, 1.0), 1e-3, 10
        )


def test_select_batch_picks_the_most_violating_outside_the_kept():
    psi = np.array([5.0, 4.0, 3.0, 2.0, 1.0, 0.0, -1.0, -2.0])
    up = np.array([True, True, True, True, False, False, False, False])
    low = ~up
    picked = select_batch(psi, up, low, np.array([0]), 4)
    assert sorted(picked.tolist()) == [1, 2, 6, 7]


def random_general_qp(seed, n=50):
    rng = np.random.default_rng(seed)
    A = rng.normal(size=(n, 5))
    Q = A @ A.T + 0.1 * np.eye(n)
    y = np.where(rng.random(n) < 0.5, -1.0, 1.0)
    C = rng.uniform(0.2, 3.0, size=n)
    alpha0 = np.where(
        rng.random(n) < 0.4, rng.uniform(0, 1, size=n) * C, 0.0
    )
    return Q, rng.normal(size=n), y, C, alpha0


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("batch_size", [4, 5, 7, 16, 1024])
def test_general_qp_matches_cvxopt(seed, batch_size):
    Q, p, y, C, alpha0 = random_general_qp(seed)
    n = y.size
    problem = QPProblem(
        Q=GramRows(np.outer(y, y) * Q), p=p, y=y, C=C, alpha0=alpha0
    )
    result = solve_batched(problem, tol=1e-7, batch_size=batch_size)
    reference = solve_qp(
        Q,
        p,
        np.vstack([-np.eye(n), np.eye(n)]),
        np.concatenate([np.zeros(n), C]),
        A_eq=y,
        b_eq=float(y @ alpha0),
        tol=1e-12,
    )
    assert result.status == Status.OPTIMAL
    assert abs(result.objective - reference.objective) <= 1e-6 * max(
        1.0, abs(reference.objective)
    )
    assert abs(y @ result.alpha - y @ alpha0) < 1e-9
    assert np.all((result.alpha >= 0) & (result.alpha <= C))


def test_heart_scale_reaches_libsvms_published_optimum():
    X, y = load_heart_scale()
    result = batched_smo(X, y, 1.0, Kernel("rbf", gamma=1 / 13))
    assert abs(result.objective + 100.877288) <= 1e-5 * 100.877288
    assert abs(result.rho - 0.424462) < 1e-3


@pytest.mark.parametrize("batch_size", [64, 256])
def test_many_rounds_reach_the_optimum_of_the_full_smo(batch_size):
    X, y = overlapping_problem(3, n=1500, d=6, separation=0.6)
    kernel = Kernel("rbf", gamma=0.2)
    rounds = []
    result = batched_smo(
        X,
        y,
        2.0,
        kernel,
        batch_size=batch_size,
        callback=lambda r, v: rounds.append(v),
    )
    reference = solve(c_svc_problem(X, y, 2.0, kernel))
    assert len(rounds) > 3 and rounds[-1] < 1e-3
    assert abs(result.objective - reference.objective) <= 1e-6 * abs(
        reference.objective
    )
    assert result.status == Status.OPTIMAL


def test_precomputed_kernel_gives_the_same_model():
    X, y = overlapping_problem(5, n=200, d=3)
    kernel = Kernel("rbf", gamma=0.7)
    on_points = batched_smo(X, y, 1.0, kernel, batch_size=32)
    on_gram = batched_smo(kernel(X), y, 1.0, "precomputed", batch_size=32)
    assert abs(on_points.objective - on_gram.objective) <= 1e-6 * abs(
        on_gram.objective
    )


def test_max_iter_stops_with_max_iter_status_and_bad_input_is_refused():
    X, y = overlapping_problem(5, n=300, d=3)
    result = batched_smo(
        X, y, 1.0, Kernel("rbf", gamma=1.0), batch_size=32, max_iter=10
    )
    assert result.n_iter == 10 and result.status == Status.MAX_ITER
    with pytest.raises(ValueError, match="tol must be a positive number"):
        batched_smo(X, y, 1.0, Kernel("rbf"), tol=0.0)
    with pytest.raises(ValueError, match="C must be a positive number"):
        batched_smo(X, y, -1.0, Kernel("rbf"))
    with pytest.raises(
        ValueError, match="kernel must be a Kernel or 'precomputed'"
    ):
        c_svc_block_problem(X, y, 1.0, "rbf")


def test_twenty_thousand_points_in_bounded_memory():
    """The row buffer respects cache_size: q = 20 MB / (4 n) rows, and
    nothing is n x n."""
    rng = np.random.default_rng(0)
    n = 20_000
    X = rng.normal(size=(n, 10))
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=n) > 0, 1.0, -1.0)
    tracemalloc.start()
    result = batched_smo(X, y, 1.0, Kernel("rbf", gamma=0.1), cache_size=20)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert result.status == Status.OPTIMAL
    assert peak < 80 * 2**20  # an n x n array would be 3.2 GB


def test_estimator_with_the_batched_solver_matches_the_default_solver():
    from sklearn.datasets import load_digits

    X, y = load_digits(return_X_y=True)
    batched = SVC(solver="batched").fit(X, y)
    default = SVC().fit(X, y)
    assert np.mean(batched.predict(X) == default.predict(X)) >= 0.995
    np.testing.assert_allclose(
        batched.objective_, default.objective_, rtol=1e-5
    )


def test_the_stopping_test_holds_on_the_exact_gradient():
    """The kept gradient drifts (single-precision sums); the result must
    satisfy m - M < tol on the gradient recomputed here in double precision
    from the multipliers."""
    rng = np.random.default_rng(4)
    n = 6000
    X = rng.normal(size=(n, 8))
    y = np.where(
        X[:, 0] + X[:, 1] ** 2 - 1 + 0.7 * rng.normal(size=n) > 0, 1.0, -1.0
    )
    kernel = Kernel("rbf", gamma=0.2)
    result = batched_smo(X, y, 1.0, kernel, batch_size=512)
    assert result.status == Status.OPTIMAL
    sv = np.flatnonzero(result.alpha)
    G = np.zeros(n)
    for start in range(0, n, 1000):
        G[start : start + 1000] = (
            y[start : start + 1000]
            * (
                kernel(X[start : start + 1000], X[sv])
                @ (result.alpha[sv] * y[sv])
            )
            - 1
        )
    minus_yG = -y * G
    up = ((y > 0) & (result.alpha < 1.0)) | ((y < 0) & (result.alpha > 0))
    low = ((y > 0) & (result.alpha > 0)) | ((y < 0) & (result.alpha < 1.0))
    assert minus_yG[up].max() - minus_yG[low].min() < 1e-3
    # the solver's final gradient uses single-precision kernel rows (summed
    # in double precision)
    assert abs(
        result.objective - (0.5 * result.alpha @ (G - 1.0))
    ) < 1e-7 * abs(result.objective)


def test_large_linear_kernel_values_keep_double_precision():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(600, 5)) + 1000.0
    y = np.where(
        X[:, 0] - 1000.0 + 0.3 * rng.normal(size=600) > 0, 1.0, -1.0
    )
    result = batched_smo(X, y, 1.0, Kernel("linear"), batch_size=64)
    reference = soft_margin_dual(Kernel("linear")(X), y, 1.0)
    assert result.status == Status.OPTIMAL
    assert abs(result.objective - reference.objective) <= 1e-5 * abs(
        reference.objective
    )


@pytest.mark.parametrize("batch_size", [0, 3, 2.5, True])
def test_batch_size_is_checked(batch_size):
    X, y = overlapping_problem(1, n=40)
    with pytest.raises(
        ValueError, match="batch_size must be an integer of at least 4"
    ):
        batched_smo(X, y, 1.0, Kernel("rbf"), batch_size=batch_size)


def test_a_tiny_cache_still_converges():
    X, y = overlapping_problem(2, n=300, d=3)
    model = SVC(solver="batched", cache_size=0.002).fit(X, y)
    reference = SVC().fit(X, y)
    assert model.fit_status_ == 0
    np.testing.assert_allclose(
        model.objective_, reference.objective_, rtol=1e-5
    )


def test_solve_block_stops_when_no_variable_of_I_low_lies_below_m():
    """m = 0 < M = 1 here (optimal), and slot 0 is in I_up only: the best
    gain is zero, and the solver must stop rather than pick slot 0 as j
    (which has no room) forever."""
    y, alpha, psi = (
        np.array([1.0, 1.0, -1.0]),
        np.zeros(3),
        np.array([-5.0, 0.0, 1.0]),
    )
    assert (
        solve_block(np.eye(3), psi, y, alpha, np.ones(3), 1e-3, 1000) == 0
    )
    np.testing.assert_array_equal(alpha, 0.0)


@pytest.mark.parametrize("seed", range(40))
def test_small_random_problems_match_the_full_smo(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 12))
    X = rng.normal(size=(n, 2))
    y = np.where(rng.random(n) < 0.5, -1.0, 1.0)
    y[:2] = [1.0, -1.0]
    kernel = Kernel("linear")
    ours = batched_smo(X, y, 1.0, kernel)
    reference = solve(c_svc_problem(X, y, 1.0, kernel))
    assert ours.status == Status.OPTIMAL and ours.n_iter < 100 * n
    assert ours.objective == pytest.approx(
        reference.objective, rel=1e-6, abs=1e-9
    )


def test_five_points_that_once_stalled_the_inner_solver_train_quickly():
    X = np.array(
        [[0.8, 0.3], [-1.3, 0.9], [0.4, -0.5], [0.6, 0.4], [0.3, 0.0]]
    )
    y = np.array([-1.0, 1.0, -1.0, 1.0, 1.0])
    for labels in (y, -y):
        ours = batched_smo(X, labels, 1.0, Kernel("linear"), max_iter=1000)
        reference = solve(c_svc_problem(X, labels, 1.0, Kernel("linear")))
        assert ours.status == Status.OPTIMAL and ours.n_iter <= 10
        assert ours.objective == pytest.approx(
            reference.objective, rel=1e-9
        )
