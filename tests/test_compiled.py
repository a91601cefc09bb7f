"""The compiled SMO (svmlib.training.compiled) and the default solver
(svmlib.training.fast),
against independent answers: the numpy loop of Scaling up, the full SMO
chapter's solver, cvxopt, and LIBSVM 3.37 itself (libsvm-official)."""

import numpy as np
import pytest
from libsvm.svmutil import svm_parameter, svm_problem, svm_train
from sklearn.datasets import load_digits
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.model_selection import train_test_split
from sklearn.svm import SVC as SklearnSVC

import svmlib.training.batched as batched
import svmlib.training.fast
from svmlib import SVC, Kernel, QPProblem, solve, solve_qp
from svmlib.book.libsvm_data import load_heart_scale
from svmlib.formulations.c_svc import c_svc_problem
from svmlib.formulations.multiclass import class_pairs, pair_members
from svmlib.kernels.kernel_rows import GramRows, KernelRows
from svmlib.result import Status
from svmlib.training.batched import (
    block_result,
    c_svc_block_problem,
    solve_batched,
    solve_block,
)
from svmlib.training.compiled import signed_smo, solve_block_compiled
from svmlib.training.fast import (
    auto_smo,
    gram_fits,
    product_in_double,
    solve_auto,
    solve_dense,
    solve_pairs_shared,
)
from svmlib.training.solvers import SolverSettings, train_binary


def gram(X, gamma):
    n = X.shape[0]
    rows = KernelRows(Kernel("rbf", gamma=gamma), X)
    return rows.compute(np.arange(n), np.empty((n, n)))


def two_classes(n, seed, features=5):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, features))
    y = np.where(
        X[:, 0] * X[:, 1] + 0.4 * rng.normal(size=n) > 0, 1.0, -1.0
    )
    return X, y


def objective(K, y, alpha):
    signed = y * alpha
    return 0.5 * signed @ K @ signed - alpha.sum()


def libsvm_objective(X, y, C, gamma, tol=1e-3):
    """The dual objective of LIBSVM 3.37's solution (libsvm-official)."""
    model = svm_train(
        svm_problem(y, X),
        svm_parameter(f"-s 0 -t 2 -g {gamma} -c {C} -e {tol} -q"),
    )
    alpha = np.zeros(y.size)
    support = np.array(model.get_sv_indices()) - 1
    alpha[support] = np.abs([coef[0] for coef in model.get_sv_coef()])
    return objective(rbf_kernel(X, gamma=gamma), y, alpha)


@pytest.mark.parametrize("C", [0.5, 10.0, 1000.0])
@pytest.mark.parametrize("seed", [0, 1])
def test_without_shrinking_the_numpy_steps(C, seed):
    """Without shrinking, signed_smo takes solve_block's steps: the same
    number of pair updates and the same multipliers."""
    X, y = two_classes(150, seed)
    K = gram(X, 0.5)
    Cs = np.full(y.size, C)
    alpha_numpy, psi_numpy = np.zeros(y.size), y.copy()
    steps = solve_block(K, psi_numpy, y, alpha_numpy, Cs, 1e-3, 10**6)
    alpha, psi = np.zeros(y.size), y.copy()
    updates, ending = signed_smo(
        K,
        psi,
        y.copy(),
        y,
        alpha,
        Cs,
        eps=1e-3,
        max_iter=10**6,
        shrinking=False,
        interval=1,
    )
    assert ending == 0 and updates == steps
    np.testing.assert_allclose(alpha, alpha_numpy, rtol=0, atol=1e-9 * C)
    np.testing.assert_allclose(psi, psi_numpy, rtol=0, atol=1e-9 * C)


@pytest.mark.parametrize("C", [1.0, 100.0])
def test_with_shrinking_as_the_full_smo(C):
    """With shrinking, signed_smo reaches the objective of the full SMO
    chapter's shrinking solver, and its psi (partly rebuilt) equals
    -y (Q alpha + p)."""
    X, y = load_heart_scale()
    kernel = Kernel("rbf", gamma=1 / 13)
    K = gram(X, 1 / 13)
    reference = solve(c_svc_problem(X, y, C, kernel), shrinking=True)
    alpha, psi = np.zeros(y.size), y.copy()
    signed_smo(
        K,
        psi,
        y.copy(),
        y,
        alpha,
        np.full(y.size, C),
        eps=1e-3,
        max_iter=10**6,
        shrinking=True,
        interval=50,
    )
    assert objective(K, y, alpha) == pytest.approx(
        reference.objective, rel=1e-6
    )
    scratch = -y * (y * (K @ (y * alpha)) - 1.0)
    np.testing.assert_allclose(psi, scratch, rtol=0, atol=1e-9 * C)


def test_shrinking_with_copies_on_a_larger_problem():
    """Enough variables shrink for the working copies (compaction) to be
    made; the answer is still the optimum, by the stopping test over all
    variables, and it agrees with the solve without shrinking."""
    X, y = two_classes(1200, 3, features=8)
    problem = c_svc_block_problem(X, y, 50.0, Kernel("rbf", gamma=0.2))
    S = gram(X, 0.2)
    shrunk = solve_dense(problem, S, tol=1e-4, shrinking=True)
    plain = solve_dense(problem, S, tol=1e-4, shrinking=False)
    assert shrunk.status == plain.status == Status.OPTIMAL
    assert shrunk.objective == pytest.approx(plain.objective, rel=1e-7)
    psi = -y * (y * (S @ (y * shrunk.alpha)) - 1.0)
    up = np.where(y > 0, shrunk.alpha < 50, shrunk.alpha > 0)
    low = np.where(y > 0, shrunk.alpha > 0, shrunk.alpha < 50)
    assert psi[up].max() - psi[low].min() < 1e-4


@pytest.mark.parametrize("shrinking", [False, True])
def test_general_qp_against_cvxopt(shrinking):
    """solve_dense on eq. (eq-general-qp) with a random linear term, bounds
    that differ per variable and a non-zero feasible start reaches
    cvxopt's optimum."""
    rng = np.random.default_rng(5)
    n = 40
    X = rng.normal(size=(n, 3))
    K = rbf_kernel(X, gamma=0.5) + 0.1 * np.eye(n)
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    p = rng.normal(size=n)
    C = rng.uniform(0.5, 3.0, size=n)
    alpha0 = np.zeros(n)
    first_positive, first_negative = (
        np.flatnonzero(y > 0)[0],
        np.flatnonzero(y < 0)[0],
    )
    alpha0[[first_positive, first_negative]] = 0.25
    problem = QPProblem(Q=None, p=p, y=y, C=C, alpha0=alpha0)
    result = solve_dense(problem, K.copy(), tol=1e-8, shrinking=shrinking)
    Q = np.outer(y, y) * K
    reference = solve_qp(
        Q,
        p,
        np.vstack([np.eye(n), -np.eye(n)]),
        np.r_[C, np.zeros(n)],
        A_eq=y[None, :],
        b_eq=np.array([y @ alpha0]),
    )
    assert result.objective == pytest.approx(
        0.5 * reference.x @ Q @ reference.x + p @ reference.x, abs=1e-6
    )
    assert y @ result.alpha == pytest.approx(y @ alpha0, abs=1e-12)
    assert np.all((result.alpha >= 0) & (result.alpha <= C))


@pytest.mark.parametrize(
    ("C", "gamma", "cache_size"),
    [(1.0, 0.1, 200.0), (100.0, 0.1, 200.0), (10.0, 0.5, 2.0)],
)
def test_auto_against_libsvm_337(C, gamma, cache_size):
    """The default solver, dense (200 MB) or in rounds (2 MB for 1,000
    points), reaches LIBSVM 3.37's objective to 1e-6."""
    X, y = two_classes(1000, 7)
    assert gram_fits(1000, cache_size) == (cache_size == 200.0)
    result = auto_smo(
        X, y, C, Kernel("rbf", gamma=gamma), cache_size=cache_size
    )
    assert result.status == Status.OPTIMAL
    mine = objective(rbf_kernel(X, gamma=gamma), y, result.alpha)
    assert mine == pytest.approx(libsvm_objective(X, y, C, gamma), rel=1e-6)


def test_rounds_switch_to_double_precision(monkeypatch):
    """At a large C single-precision rows cannot reach the tolerance; the
    rounds go on in double precision and end OPTIMAL at the dense path's
    objective."""
    X, y = two_classes(1500, 11, features=10)
    C, gamma = 1e4, 0.05
    precisions = []
    original = batched.exact_psi

    def recording(problem, alpha, storage=None):
        precisions.append(
            np.dtype(problem.Q.storage if storage is None else storage)
        )
        return original(problem, alpha, storage)

    monkeypatch.setattr(batched, "exact_psi", recording)
    kernel = Kernel("rbf", gamma=gamma)
    rounds = solve_batched(
        c_svc_block_problem(X, y, C, kernel),
        cache_size=1.0,
        inner=solve_block_compiled,
    )
    dense = auto_smo(X, y, C, kernel)
    assert rounds.status == Status.OPTIMAL
    assert np.dtype(np.float64) in precisions[1:]
    assert rounds.objective == pytest.approx(dense.objective, rel=1e-6)


def test_solve_block_compiled_checks_its_arrays():
    """The compiled inner solver refuses arrays it cannot work on in
    place, naming the array."""
    K = np.eye(4)
    y = np.array([1.0, 1.0, -1.0, -1.0])
    every_other = np.ones(8)[::2]
    with pytest.raises(ValueError, match="psi must be a contiguous"):
        solve_block_compiled(
            K, every_other, y, np.zeros(4), np.ones(4), 1e-3, 10
        )
    with pytest.raises(ValueError, match="S must be a contiguous"):
        solve_block_compiled(
            np.ones((8, 4))[::2],
            y.copy(),
            y,
            np.zeros(4),
            np.ones(4),
            1e-3,
            10,
        )
    with pytest.raises(ValueError, match="alpha must be a writeable"):
        solve_block_compiled(
            K, y.copy(), y, np.zeros(4, dtype=int), np.ones(4), 1e-3, 10
        )


def test_precomputed_kernel_goes_dense():
    """A precomputed Gram matrix takes the dense path and matches the
    same problem from the points."""
    X, y = two_classes(300, 2)
    K = rbf_kernel(X, gamma=0.3)
    on_points = auto_smo(X, y, 2.0, Kernel("rbf", gamma=0.3))
    on_gram = auto_smo(K, y, 2.0, "precomputed")
    assert on_gram.objective == pytest.approx(on_points.objective, rel=1e-8)


def test_shared_gram_pairs_match_one_after_another():
    """The pairs of classes solved on blocks of one shared Gram matrix
    reach the objectives of each pair solved alone."""
    X, y = load_digits(return_X_y=True)
    X, _, y, _ = train_test_split(
        X, y, test_size=0.5, random_state=0, stratify=y
    )
    kernel = Kernel("rbf", gamma=1 / (64 * X.var()))
    settings = SolverSettings(C=1.0, tol=1e-3)
    pairs = class_pairs(10)
    problems, shared = solve_pairs_shared(kernel, X, y, pairs, settings)
    for (i, j), (members, labels), result in zip(pairs, problems, shared):
        expected_members, expected_labels = pair_members(y, i, j)
        order = np.argsort(members)
        np.testing.assert_array_equal(members[order], expected_members)
        np.testing.assert_array_equal(labels[order], expected_labels)
        alone = train_binary(
            "auto", X[expected_members], expected_labels, kernel, settings
        )
        assert result.objective == pytest.approx(alone.objective, rel=1e-6)


def test_shared_gram_needs_room():
    """No shared Gram matrix when it does not fit: the estimator then
    trains the pairs one after another."""
    X, y = load_digits(return_X_y=True)
    settings = SolverSettings(C=1.0, tol=1e-3, cache_size=1.0)
    kernel = Kernel("rbf", gamma=1 / (64 * X.var()))
    assert (
        solve_pairs_shared(kernel, X, y, class_pairs(10), settings) is None
    )
    small_cache = SVC(cache_size=1.0).fit(X, y)
    default = SVC().fit(X, y)
    assert np.mean(small_cache.predict(X) == default.predict(X)) > 0.999


def test_default_estimator_matches_scikit_learn_on_digits():
    """SVC() (solver "auto") against scikit-learn's SVC on the digits:
    the same predictions on held-out points, decision values to the
    tolerance."""
    X, y = load_digits(return_X_y=True)
    X_train, X_test, y_train, _ = train_test_split(
        X, y, test_size=0.3, random_state=0, stratify=y
    )
    ours = SVC(decision_function_shape="ovo").fit(X_train, y_train)
    theirs = SklearnSVC(decision_function_shape="ovo").fit(X_train, y_train)
    assert ours.solver == "auto"
    assert np.mean(ours.predict(X_test) == theirs.predict(X_test)) >= 0.999
    np.testing.assert_allclose(
        ours.decision_function(X_test),
        theirs.decision_function(X_test),
        atol=5e-3,
    )


def test_max_iter_is_reported():
    """The dense path stops at max_iter pair updates and says so."""
    X, y = two_classes(400, 4)
    with pytest.warns(Warning, match="max_iter"):
        model = SVC(C=100.0, max_iter=5).fit(X, y)
    assert model.fit_status_ == 1 and model.n_iter_[0] == 5


def test_dense_result_is_a_solver_result():
    """solve_dense packs its answer as the numpy loop's answer is packed:
    the same b and objective."""
    X, y = two_classes(100, 6)
    problem = c_svc_block_problem(X, y, 1.0, Kernel("rbf", gamma=1.0))
    S = gram(X, 1.0)
    result = solve_dense(problem, S)
    alpha, psi = np.zeros(100), y.copy()
    steps = solve_block(S.copy(), psi, y, alpha, np.ones(100), 1e-3, 10**6)
    reference = block_result(
        alpha, psi, y, -np.ones(100), np.ones(100), steps, Status.OPTIMAL
    )
    assert result.b == pytest.approx(reference.b, abs=1e-9)
    assert result.objective == pytest.approx(reference.objective, rel=1e-12)


def test_rounds_with_gram_rows():
    """solve_auto in rounds on a precomputed matrix (GramRows) reaches the
    dense answer."""
    X, y = two_classes(600, 8)
    K = rbf_kernel(X, gamma=0.4)
    problem = QPProblem(
        Q=GramRows(K),
        p=-np.ones(600),
        y=y,
        C=np.full(600, 5.0),
        alpha0=np.zeros(600),
    )
    rounds = solve_auto(problem, cache_size=1.0)
    dense = solve_auto(problem, cache_size=200.0)
    assert rounds.objective == pytest.approx(dense.objective, rel=1e-6)


@pytest.mark.parametrize("C", [1.0, 100.0])
@pytest.mark.parametrize("share", [1.25, 0.2])
def test_rounds_then_dense_against_libsvm_337(monkeypatch, C, share):
    """The gamble of solve_auto (rounds first, the whole Gram matrix if
    they need more than their share of rows): LIBSVM 3.37's objective,
    whether the rounds finish (share 1.25 at C = 1) or hand over to the
    dense path (share 0.2)."""
    import svmlib.training.fast as fast

    X, y = two_classes(1500, 7)  # above BATCH_SIZE: rounds of blocks
    monkeypatch.setattr(fast, "ROUNDS_FIRST_ABOVE", 500)
    monkeypatch.setattr(fast, "ROUNDS_ROW_SHARE", share)
    dense_calls = []
    original = fast.solve_dense

    def recording(problem, S, *args):
        dense_calls.append(problem.alpha0.copy())
        return original(problem, S, *args)

    monkeypatch.setattr(fast, "solve_dense", recording)
    rounds = []
    result = auto_smo(
        X,
        y,
        C,
        Kernel("rbf", gamma=0.1),
        callback=lambda round_, gap: rounds.append(gap),
    )
    assert result.status == Status.OPTIMAL and len(rounds) > 1
    handed_over = len(dense_calls) == 1
    if share < 1.0 or C == 1.0:
        assert handed_over == (share < 1.0)
    if handed_over:  # the dense path went on from the rounds' alpha
        assert dense_calls[0].any()
    mine = objective(rbf_kernel(X, gamma=0.1), y, result.alpha)
    assert mine == pytest.approx(libsvm_objective(X, y, C, 0.1), rel=1e-6)


def test_rounds_then_dense_shares_max_iter(monkeypatch):
    """max_iter counts the updates of the rounds and of the dense path
    together."""
    import svmlib.training.fast as fast

    X, y = two_classes(1500, 3)
    monkeypatch.setattr(fast, "ROUNDS_FIRST_ABOVE", 500)
    monkeypatch.setattr(fast, "ROUNDS_ROW_SHARE", 0.2)
    kernel = Kernel("rbf", gamma=0.1)
    free = auto_smo(X, y, 100.0, kernel)
    limit = free.n_iter // 2
    limited = auto_smo(X, y, 100.0, kernel, max_iter=limit)
    assert limited.status == Status.MAX_ITER and limited.n_iter == limit


def test_the_gamble_starts_above_its_size(monkeypatch):
    """solve_auto gambles only above ROUNDS_FIRST_ABOVE points and only if
    the Gram matrix fits."""
    import svmlib.training.fast as fast

    calls = []
    original = fast.rounds_then_dense
    monkeypatch.setattr(
        fast,
        "rounds_then_dense",
        lambda problem, *args: (
            calls.append(problem.y.size) or original(problem, *args)
        ),
    )
    above = fast.ROUNDS_FIRST_ABOVE + 1
    for n, cache_size in [
        (above - 1, 200.0),
        (above, 200.0),
        (above, 50.0),
    ]:
        X, y = two_classes(n, 5, features=3)
        auto_smo(X, y, 1.0, Kernel("rbf", gamma=0.5), cache_size=cache_size)
    assert gram_fits(above, 200.0) and not gram_fits(above, 50.0)
    assert calls == [above]


def test_shared_gram_in_single_precision_for_distance_kernels():
    """The shared Gram matrix is kept in single precision for the RBF
    kernel (half the memory and the copies; LIBSVM keeps its cache so),
    in double for a polynomial or precomputed kernel; the memory rule
    counts its real size, and the pairs still reach LIBSVM 3.37's
    objectives (each pair's problem is solved exactly on the rounded
    entries, which move the objective by about 1e-6 of it)."""
    import svmlib.training.fast as fast
    from svmlib.kernels.kernel_rows import ROUNDING_RTOL

    assert fast.shared_storage(Kernel("rbf", gamma=0.1)) == np.float32
    assert fast.shared_storage(Kernel("poly", degree=2)) == np.float64
    assert fast.shared_storage("precomputed") == np.float64
    # 5,000 points: 95 MiB in single precision, 191 MiB in double
    assert fast.gram_fits(5000, 100.0, itemsize=4)
    assert not fast.gram_fits(5000, 100.0)
    rng = np.random.default_rng(4)
    X = rng.normal(size=(300, 4))
    y = (X[:, 0] > 0).astype(int) + (X[:, 1] > 0.5).astype(int)
    order = np.argsort(y, kind="stable")
    kernel = Kernel("rbf", gamma=0.5)
    K = fast.shared_gram(kernel, X, order, 200.0)
    assert K.dtype == np.float32
    exact = rbf_kernel(X[order], gamma=0.5)
    # within the bound KernelRows keeps its single-precision rows to
    assert np.abs(K - exact).max() < ROUNDING_RTOL
    settings = SolverSettings(C=10.0, tol=1e-3)
    pairs = class_pairs(3)
    problems, results = solve_pairs_shared(kernel, X, y, pairs, settings)
    for (members, labels), result in zip(problems, results):
        assert result.status == Status.OPTIMAL
        mine = objective(
            rbf_kernel(X[members], gamma=0.5), labels, result.alpha
        )
        reference = libsvm_objective(X[members], labels, 10.0, 0.5)
        assert mine == pytest.approx(reference, rel=1e-5)


def test_product_in_double_widens_single_precision_a_block_at_a_time():
    """The warm start's gradient: S @ v in double precision, for a float32
    S as for a float64 one, whatever the block of rows (forced small)."""
    rng = np.random.default_rng(7)
    S = rng.random((300, 300)).astype(np.float32)
    v = np.where(rng.random(300) < 0.3, rng.random(300), 0.0)
    exact = S.astype(np.float64) @ v
    np.testing.assert_allclose(product_in_double(S, v), exact, rtol=1e-13)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(
            svmlib.training.fast, "WIDEN_BLOCK_BYTES", 8 * 100 * 7
        )
        np.testing.assert_allclose(
            product_in_double(S, v), exact, rtol=1e-13
        )
    S64 = S.astype(np.float64)
    np.testing.assert_allclose(product_in_double(S64, v), exact, rtol=1e-13)
    assert not product_in_double(S, np.zeros(300)).any()
