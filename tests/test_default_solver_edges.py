"""Edge cases of the default solver (svmlib.training.fast,
svmlib.training.compiled) and of
the estimator that uses it, each against an independent answer: brute
force over the faces of the box, cvxopt, the full SMO chapter's solver,
LIBSVM 3.37
(libsvm-official), scikit-learn, or an identity computed from scratch."""

import itertools

import numpy as np
import pytest
from libsvm.svmutil import svm_parameter, svm_problem, svm_train
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.svm import SVC as SklearnSVC

import svmlib.training.compiled as compiled
import svmlib.training.fast as fast
from svmlib import SVC, Kernel, QPProblem, solve, solve_qp
from svmlib.formulations.c_svc import c_svc_problem
from svmlib.kernels.kernel_cache import GramQMatrix
from svmlib.kernels.kernel_rows import GramRows, KernelRows
from svmlib.result import Status
from svmlib.smo.working_set import up_low_sets
from svmlib.training.batched import (
    block_result,
    block_size,
    c_svc_block_problem,
)
from svmlib.training.compiled import signed_smo
from svmlib.training.fast import (
    auto_smo,
    gram_fits,
    solve_auto,
    solve_dense,
)


def quadratic(Q, p, alpha):
    """1/2 a'Qa + p'a, from scratch."""
    return 0.5 * alpha @ Q @ alpha + p @ alpha


def signed(K, y):
    """Q = diag(y) K diag(y)."""
    return np.outer(y, y) * K


def brute_force(Q, p, y, C, delta):
    """The minimum of 1/2 a'Qa + p'a over y'a = delta, 0 <= a <= C, by
    trying every face of the box: each variable at 0, at C_i or free, the
    free ones from the KKT system of the face (a face whose system is
    singular holds no optimum that a smaller face lacks).  Returns the
    minimiser and the minimum."""
    n = y.size
    slack = 1e-10 * max(1.0, float(C.max()))
    best, argmin = np.inf, None
    for faces in itertools.product((0, 1, 2), repeat=n):
        faces = np.array(faces)
        alpha = np.where(faces == 1, C, 0.0)
        free, fixed = np.flatnonzero(faces == 2), np.flatnonzero(faces != 2)
        if free.size:
            kkt = np.zeros((free.size + 1, free.size + 1))
            kkt[:-1, :-1] = Q[np.ix_(free, free)]
            kkt[:-1, -1] = kkt[-1, :-1] = y[free]
            rhs = np.r_[
                -p[free] - Q[np.ix_(free, fixed)] @ alpha[fixed],
                delta - y[fixed] @ alpha[fixed],
            ]
            try:
                alpha[free] = np.linalg.solve(kkt, rhs)[:-1]
            except np.linalg.LinAlgError:
                continue
        feasible = (
            abs(y @ alpha - delta) <= slack
            and np.all(alpha >= -slack)
            and np.all(alpha <= C + slack)
        )
        if feasible and quadratic(Q, p, alpha) < best:
            best, argmin = quadratic(Q, p, alpha), alpha
    return argmin, best


def cvxopt_minimum(Q, p, y, C, delta):
    """The minimum of the same problem by cvxopt (svmlib.solve_qp)."""
    n = y.size
    answer = solve_qp(
        Q,
        p,
        np.vstack([np.eye(n), -np.eye(n)]),
        np.r_[C, np.zeros(n)],
        A_eq=y[None, :],
        b_eq=np.array([delta]),
    )
    return quadratic(Q, p, answer.x)


def libsvm_alpha(X, y, C, options, tol=1e-3):
    """LIBSVM 3.37's multipliers for the C-SVC of (X, y), y in {-1, +1}."""
    model = svm_train(
        svm_problem(y, X),
        svm_parameter(f"-s 0 {options} -c {C} -e {tol} -q"),
    )
    alpha = np.zeros(y.size)
    support = np.array(model.get_sv_indices()) - 1
    alpha[support] = np.abs([coef[0] for coef in model.get_sv_coef()])
    return alpha


def c_svc_objective(K, y, alpha):
    signed_alpha = y * alpha
    return 0.5 * signed_alpha @ K @ signed_alpha - alpha.sum()


def box_start(rng, C):
    """A start in the box: about a third of the variables at C_i, a third
    at 0, the rest strictly inside (it fixes delta = y'alpha0)."""
    u = rng.random(C.size)
    inside = rng.uniform(0.1, 0.9, size=C.size) * C
    return np.where(u < 1 / 3, C, np.where(u < 2 / 3, 0.0, inside))


def assert_feasible(alpha, y, C, delta):
    assert np.all(alpha >= 0.0) and np.all(alpha <= C)
    assert y @ alpha == pytest.approx(delta, abs=1e-10 * max(1, C.sum()))


def scratch_violation(psi, alpha, y, C):
    """m - M of eq. (eq-stopping) for a given psi."""
    up, low = up_low_sets(alpha, y, C)
    return psi[up].max() - psi[low].min()


def traced(run):
    """Run ``run(smo)`` with ``smo`` the pure-Python body of signed_smo
    (calling the same compiled helpers; solve_dense is pointed at it too),
    and record how many variables each compaction keeps and how many are
    working when every variable is brought back.  Returns run's answer and
    the record; the last entry is the end of the solve."""
    record = []
    compact, every_variable = compiled.compact, compiled.every_variable

    def compacting(*args):
        copies = compact(*args)
        record.append(("compact", copies[0].size))
        return copies

    def restoring(*args):
        record.append(("every", args[8].size))  # kept
        return every_variable(*args)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(compiled, "compact", compacting)
        patch.setattr(compiled, "every_variable", restoring)
        patch.setattr(fast, "signed_smo", signed_smo.py_func)
        answer = run(signed_smo.py_func)
    return answer, record


# Tiny problems -----------------------------------------------------------


@pytest.mark.parametrize("shrinking", [False, True])
@pytest.mark.parametrize(
    ("labels", "start"),
    [
        ((1.0, -1.0), (0.0, 0.0)),
        ((-1.0, 1.0), (0.0, 0.0)),
        ((1.0, -1.0), (0.3, 1.0)),  # one at its bound C_2 = 1
        ((1.0, 1.0), (0.4, 0.5)),  # same signs, room to move
        ((-1.0, -1.0), (0.0, 0.7)),
    ],
)
def test_two_variables_match_brute_force(labels, start, shrinking):
    """n = 2, bounds differing within the pair: the brute-force minimum."""
    rng = np.random.default_rng(20)
    y, alpha0 = np.array(labels), np.array(start)
    C = np.array([0.6, 1.0])
    X = rng.normal(size=(2, 2))
    K = rbf_kernel(X, gamma=0.8)
    p = -1.0 + rng.normal(size=2)
    result = solve_dense(
        QPProblem(None, p, y, C, alpha0), K, tol=1e-10, shrinking=shrinking
    )
    Q = signed(K, y)
    expected, minimum = brute_force(Q, p, y, C, y @ alpha0)
    assert result.status == Status.OPTIMAL
    assert_feasible(result.alpha, y, C, y @ alpha0)
    np.testing.assert_allclose(result.alpha, expected, atol=1e-8)
    assert result.objective == pytest.approx(minimum, abs=1e-10)


@pytest.mark.parametrize("shrinking", [False, True])
@pytest.mark.parametrize("seed", range(6))
def test_three_variables_match_brute_force(seed, shrinking):
    """n = 3, bounds 1e-3 to 10, a start in the box: brute-force minimum."""
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(3) < 0.5, 1.0, -1.0)
    y[0] = -y[1]  # both signs
    C = 10.0 ** rng.uniform(-3, 1, size=3)
    alpha0 = box_start(rng, C)
    # one variable inside the box, so I_up and I_low are not empty (see
    # test_single_feasible_point)
    alpha0[seed % 3] = 0.5 * C[seed % 3]
    K = rbf_kernel(rng.normal(size=(3, 2)), gamma=0.5)
    p = -1.0 + rng.normal(size=3)
    problem = QPProblem(None, p, y, C, alpha0)
    result = solve_dense(problem, K, tol=1e-10, shrinking=shrinking)
    Q = signed(K, y)
    expected, minimum = brute_force(Q, p, y, C, y @ alpha0)
    assert_feasible(result.alpha, y, C, y @ alpha0)
    np.testing.assert_allclose(result.alpha, expected, atol=1e-8)
    assert result.objective == pytest.approx(minimum, abs=1e-9)


@pytest.mark.parametrize("C", [0.05, 50.0])
def test_one_positive_among_negatives_brute_force(C):
    """One positive among five negatives: the brute-force minimum."""
    rng = np.random.default_rng(6)
    y = np.array([1.0, -1.0, -1.0, -1.0, -1.0, -1.0])
    Cs = C * rng.uniform(0.5, 2.0, size=6)
    K = rbf_kernel(rng.normal(size=(6, 2)), gamma=0.7)
    problem = QPProblem(None, -np.ones(6), y, Cs, np.zeros(6))
    result = solve_dense(problem, K, tol=1e-10)
    expected, minimum = brute_force(signed(K, y), -np.ones(6), y, Cs, 0.0)
    assert_feasible(result.alpha, y, Cs, 0.0)
    np.testing.assert_allclose(result.alpha, expected, atol=1e-8 * C)
    assert result.objective == pytest.approx(minimum, rel=1e-10)


@pytest.mark.parametrize("cache_size", [200.0, 0.05])
def test_one_positive_among_many_against_libsvm(cache_size):
    """One positive, 199 negatives, dense or rounds: LIBSVM's optimum."""
    rng = np.random.default_rng(7)
    X = rng.normal(size=(200, 3))
    y = -np.ones(200)
    y[17] = 1.0
    assert gram_fits(200, cache_size) == (cache_size == 200.0)
    result = auto_smo(
        X,
        y,
        5.0,
        Kernel("rbf", gamma=0.5),
        tol=1e-5,
        cache_size=cache_size,
    )
    K = rbf_kernel(X, gamma=0.5)
    reference = libsvm_alpha(X, y, 5.0, "-t 2 -g 0.5", tol=1e-5)
    assert result.status == Status.OPTIMAL
    assert_feasible(result.alpha, y, np.full(200, 5.0), 0.0)
    assert c_svc_objective(K, y, result.alpha) == pytest.approx(
        c_svc_objective(K, y, reference), rel=1e-6
    )


@pytest.mark.parametrize(
    ("X", "labels"),
    [
        ([[0.0, 0.0], [1.0, 0.5]], ["b", "a"]),
        ([[0.0, 0.0], [1.0, 0.5], [0.2, 1.0]], [3, 1, 1]),
        ([[0.0, 0.0], [1.0, 0.5], [0.2, 1.0]], [1, 3, 1]),
    ],
)
def test_tiny_estimator_matches_scikit_learn(X, labels):
    """SVC() on two or three points: scikit-learn's coefficients, values."""
    X = np.array(X)
    ours, theirs = SVC().fit(X, labels), SklearnSVC().fit(X, labels)
    grid = np.random.default_rng(8).normal(size=(25, 2))
    np.testing.assert_array_equal(ours.support_, theirs.support_)
    np.testing.assert_allclose(
        ours.dual_coef_, theirs.dual_coef_, atol=1e-6
    )
    np.testing.assert_allclose(
        ours.decision_function(grid),
        theirs.decision_function(grid),
        atol=1e-6,
    )
    np.testing.assert_array_equal(ours.predict(grid), theirs.predict(grid))


# Per-variable bounds and non-zero starts ----------------------------------


@pytest.mark.parametrize("shrinking", [False, True])
@pytest.mark.parametrize("start", ["zero", "box"])
def test_widely_spread_bounds_against_cvxopt(start, shrinking):
    """Bounds 0 and 1e-6 to 1e3, unequal for twins: cvxopt's minimum."""
    rng = np.random.default_rng(9)
    n = 40
    X = rng.normal(size=(n, 2))
    X[30:] = X[:10]  # identical points with different bounds
    K = rbf_kernel(X, gamma=0.6)
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    C = 10.0 ** rng.uniform(-6, 3, size=n)
    C[[3, 11]] = 0.0
    p = -1.0 + rng.normal(size=n)
    alpha0 = np.zeros(n) if start == "zero" else box_start(rng, C)
    delta = y @ alpha0
    problem = QPProblem(None, p, y, C, alpha0)
    result = solve_dense(problem, K, tol=1e-9, shrinking=shrinking)
    Q = signed(K, y)
    assert result.status == Status.OPTIMAL
    assert_feasible(result.alpha, y, C, delta)
    assert result.objective == pytest.approx(
        quadratic(Q, p, result.alpha), rel=1e-10
    )
    assert result.objective == pytest.approx(
        cvxopt_minimum(Q, p, y, C, delta), rel=1e-7
    )


def test_per_variable_bounds_against_the_full_smo():
    """A bound per point (as from weights): the full SMO chapter's
    objective."""
    rng = np.random.default_rng(10)
    n = 120
    X = rng.normal(size=(n, 3))
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=n) > 0, 1.0, -1.0)
    K = rbf_kernel(X, gamma=0.4)
    C = 10.0 ** rng.uniform(-2, 2, size=n)
    base = c_svc_problem(K, y, 1.0)
    reference = solve(
        QPProblem(base.Q, base.p, base.y, C, base.alpha0), tol=1e-8
    )
    result = solve_dense(
        QPProblem(None, base.p, y, C, base.alpha0), K, 1e-8
    )
    assert result.objective == pytest.approx(reference.objective, rel=1e-9)


def nonzero_start_problem(seed, n=600):
    """A general QP of n variables: RBF S, a random linear term, bounds per
    variable and a start with about a third of its entries at C_i."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4))
    y = np.where(X[:, 0] * X[:, 1] + 0.3 * rng.normal(size=n) > 0, 1, -1)
    y = y.astype(float)
    K = rbf_kernel(X, gamma=0.5)
    C = rng.uniform(0.1, 5.0, size=n)
    C[:20], C[20:40] = 1e-3, 100.0
    p = -1.0 + 0.2 * rng.normal(size=n)
    return K, y, p, C, box_start(rng, C)


def test_nonzero_start_with_shrinking_and_copies():
    """Many alpha0_i = C_i, copies made: cvxopt's optimum, exact psi."""
    K, y, p, C, alpha0 = nonzero_start_problem(11)
    psi_zero = -y * p

    def run(smo):
        alpha = alpha0.copy()
        psi = psi_zero - K @ (y * alpha)
        ending = smo(K, psi, psi_zero, y, alpha, C, 1e-7, 10**7, True, 10)
        return ending, alpha, psi

    ((steps, _), traced_alpha, _), record = traced(run)
    kept = [size for event, size in record if event == "compact"]
    assert kept and min(kept) < 300  # copies were made, and were small
    (n_iter, ending), alpha, psi = run(signed_smo)
    assert ending == compiled.OPTIMAL and n_iter == steps
    np.testing.assert_allclose(alpha, traced_alpha, rtol=0, atol=1e-12)
    Q = signed(K, y)
    assert_feasible(alpha, y, C, y @ alpha0)
    np.testing.assert_allclose(psi, -y * (Q @ alpha + p), rtol=0, atol=1e-9)
    assert scratch_violation(-y * (Q @ alpha + p), alpha, y, C) < 1e-7
    assert quadratic(Q, p, alpha) == pytest.approx(
        cvxopt_minimum(Q, p, y, C, y @ alpha0), rel=1e-8
    )


# Stopping at max_iter with working copies ---------------------------------


def compacting_problem():
    X_rng = np.random.default_rng(12)
    n = 600
    X = X_rng.normal(size=(n, 4))
    y = np.where(X[:, 0] * X[:, 1] + 0.3 * X_rng.normal(size=n) > 0, 1, -1)
    y = y.astype(float)
    K = rbf_kernel(X, gamma=0.5)
    return K, y


@pytest.mark.parametrize("max_iter", [650, 1000])
def test_max_iter_while_compacted(max_iter):
    """Stopped at max_iter on copies: feasible, objective and b exact."""
    K, y = compacting_problem()
    n = y.size
    C = np.full(n, 10.0)
    p = -np.ones(n)
    problem = QPProblem(None, p, y, C, np.zeros(n))
    _, record = traced(
        lambda smo: solve_dense(problem, K, max_iter=max_iter)
    )
    assert record[-1][0] == "every" and record[-1][1] < n  # on copies
    result = solve_dense(problem, K, max_iter=max_iter)
    assert result.status == Status.MAX_ITER and result.n_iter == max_iter
    Q = signed(K, y)
    assert_feasible(result.alpha, y, C, 0.0)
    assert result.objective == pytest.approx(
        quadratic(Q, p, result.alpha), rel=1e-9
    )
    psi = -y * (Q @ result.alpha + p)
    scratch = block_result(
        result.alpha, psi, y, p, C, max_iter, Status.MAX_ITER
    )
    assert result.b == pytest.approx(scratch.b, abs=1e-9)


@pytest.mark.parametrize("max_iter", [300, 450, 700, 900])
def test_max_iter_with_nonzero_start_and_copies(max_iter):
    """Non-zero start, stopped on copies: feasible, exact psi, objective."""
    K, y, p, C, alpha0 = nonzero_start_problem(13)
    psi_zero = -y * p

    def run(smo):
        alpha = alpha0.copy()
        psi = psi_zero - K @ (y * alpha)
        n_iter, ending = smo(
            K, psi, psi_zero, y, alpha, C, 1e-7, max_iter, True, 10
        )
        return n_iter, ending, alpha, psi

    _, record = traced(run)
    assert record[-1][1] < y.size  # it stopped on working copies
    n_iter, ending, alpha, psi = run(signed_smo)
    assert ending == compiled.MAX_ITER and n_iter == max_iter
    Q = signed(K, y)
    assert_feasible(alpha, y, C, y @ alpha0)
    np.testing.assert_allclose(psi, -y * (Q @ alpha + p), rtol=0, atol=1e-9)
    result = block_result(alpha, psi, y, p, C, n_iter, Status.MAX_ITER)
    assert result.objective == pytest.approx(
        quadratic(Q, p, alpha), rel=1e-9
    )


# Duplicates and the linear kernel ----------------------------------------


def duplicated_points():
    """30 points, ten of them twice and five three times; five copies
    carry the opposite label."""
    rng = np.random.default_rng(14)
    X = rng.normal(size=(30, 2))
    X = np.vstack([X, X[:10], X[:5]])
    y = np.where(X[:, 0] + X[:, 1] > 0, 1.0, -1.0)
    y[30:35] *= -1.0
    return X, y


@pytest.mark.parametrize("cache_size", [200.0, 0.002])
@pytest.mark.parametrize("C", [0.1, 3.0, 1000.0])
def test_linear_duplicates_against_libsvm(C, cache_size):
    """Linear kernel, points repeated with both labels: LIBSVM's optimum."""
    X, y = duplicated_points()
    K = KernelRows(Kernel("linear"), X).compute(
        np.arange(y.size), np.empty((y.size, y.size))
    )
    assert abs(K[0, 0] + K[30, 30] - 2 * K[0, 30]) <= 1e-12  # a_it ~ 0
    result = auto_smo(
        X, y, C, Kernel("linear"), tol=1e-6, cache_size=cache_size
    )
    reference = libsvm_alpha(X, y, C, "-t 0", tol=1e-6)
    assert result.status == Status.OPTIMAL
    assert_feasible(result.alpha, y, np.full(y.size, C), 0.0)
    ours, theirs = (
        c_svc_objective(X @ X.T, y, result.alpha),
        c_svc_objective(X @ X.T, y, reference),
    )
    assert ours == pytest.approx(theirs, rel=1e-7)
    assert result.objective == pytest.approx(ours, rel=1e-10)


@pytest.mark.parametrize(
    ("kernel", "options"), [("linear", "-t 0"), ("rbf", "-t 2 -g 0.5")]
)
def test_identical_points_brute_force(kernel, options):
    """Six copies of one point (all a_it = 0): brute force, LIBSVM's b."""
    X = np.tile([[0.3, -1.2]], (6, 1))
    y = np.array([1.0, -1.0, 1.0, -1.0, 1.0, -1.0])
    result = auto_smo(X, y, 2.0, Kernel(kernel, gamma=0.5))
    K = Kernel(kernel, gamma=0.5)(X, X)
    _, minimum = brute_force(
        signed(K, y), -np.ones(6), y, np.full(6, 2.0), 0.0
    )
    assert result.objective == pytest.approx(minimum, rel=1e-12)
    model = svm_train(
        svm_problem(y, X), svm_parameter(f"-s 0 {options} -c 2 -q")
    )
    assert result.b == pytest.approx(-model.rho[0], abs=1e-12)


# Precomputed kernels through the estimator -------------------------------


def three_classes(n, seed, features=3):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, features))
    score = X[:, 0] + 0.5 * X[:, 1] ** 2 + 0.3 * rng.normal(size=n)
    return X, np.digitize(score, [-0.3, 0.8])


@pytest.mark.parametrize("cache_size", [200.0, 0.05])
@pytest.mark.parametrize("n_classes", [2, 3])
def test_precomputed_estimator_matches_scikit_learn(n_classes, cache_size):
    """SVC(kernel='precomputed'), 2 or 3 classes: scikit-learn's answers."""
    X, y = three_classes(240, 15)
    assert gram_fits(240, cache_size) == (cache_size == 200.0)
    if n_classes == 2:
        y = (y > 0).astype(int)
    test = np.random.default_rng(16).normal(size=(60, 3))
    K, K_test = rbf_kernel(X, gamma=0.4), rbf_kernel(test, X, gamma=0.4)
    ours = SVC(kernel="precomputed", C=4.0, cache_size=cache_size)
    ours.fit(K, y)
    theirs = SklearnSVC(kernel="precomputed", C=4.0).fit(K, y)
    np.testing.assert_array_equal(ours.support_, theirs.support_)
    np.testing.assert_array_equal(
        ours.predict(K_test), theirs.predict(K_test)
    )
    np.testing.assert_allclose(
        ours.decision_function(K_test),
        theirs.decision_function(K_test),
        atol=5e-3,
    )


# The rounds path ----------------------------------------------------------


def two_classes(n, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4))
    y = np.where(X[:, 0] * X[:, 1] + 0.4 * rng.normal(size=n) > 0, 1, -1)
    return X, y.astype(float)


def test_single_block_rounds_take_the_dense_steps():
    """Rounds in one block: solve_dense's pair updates, LIBSVM's optimum."""
    X, y = two_classes(300, 17)
    kernel = Kernel("rbf", gamma=0.3)
    assert not gram_fits(300, 0.5) and block_size(300, 4, 1024, 0.5) == 300
    rounds = auto_smo(X, y, 20.0, kernel, cache_size=0.5)
    problem = c_svc_block_problem(X, y, 20.0, kernel)
    S = problem.Q.compute(np.arange(300), np.empty((300, 300)))
    dense = solve_dense(problem, S, shrinking=False)
    assert rounds.status == dense.status == Status.OPTIMAL
    assert rounds.n_iter == dense.n_iter
    np.testing.assert_allclose(rounds.alpha, dense.alpha, atol=1e-9)
    K = rbf_kernel(X, gamma=0.3)
    reference = libsvm_alpha(X, y, 20.0, "-t 2 -g 0.3")
    assert c_svc_objective(K, y, rounds.alpha) == pytest.approx(
        c_svc_objective(K, y, reference), rel=1e-6
    )


@pytest.mark.parametrize("C", [0.5, 50.0])
def test_rounds_in_blocks_against_libsvm(C):
    """Rounds of several blocks (cache_size=0.5): LIBSVM's optimum."""
    X, y = two_classes(400, 18)
    assert block_size(400, 4, 1024, 0.5) < 400
    rounds = []
    result = auto_smo(
        X,
        y,
        C,
        Kernel("rbf", gamma=0.3),
        cache_size=0.5,
        callback=lambda round_, gap: rounds.append(gap),
    )
    K = rbf_kernel(X, gamma=0.3)
    reference = libsvm_alpha(X, y, C, "-t 2 -g 0.3")
    assert result.status == Status.OPTIMAL and len(rounds) > 2
    assert_feasible(result.alpha, y, np.full(400, C), 0.0)
    assert c_svc_objective(K, y, result.alpha) == pytest.approx(
        c_svc_objective(K, y, reference), rel=1e-6
    )


def test_general_qp_in_rounds_against_cvxopt():
    """A general QP in rounds on GramRows, box start: cvxopt's minimum."""
    rng = np.random.default_rng(19)
    n = 80
    X = rng.normal(size=(n, 2))
    K = rbf_kernel(X, gamma=0.5)
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    C = 10.0 ** rng.uniform(-2, 1, size=n)
    p = -1.0 + rng.normal(size=n)
    alpha0 = box_start(rng, C)
    problem = QPProblem(GramRows(K), p, y, C, alpha0)
    assert block_size(n, 8, 1024, 0.01) < n
    result = solve_auto(problem, tol=1e-8, cache_size=0.01)
    Q = signed(K, y)
    assert result.status == Status.OPTIMAL
    assert_feasible(result.alpha, y, C, y @ alpha0)
    assert result.objective == pytest.approx(
        quadratic(Q, p, result.alpha), rel=1e-10
    )
    assert result.objective == pytest.approx(
        cvxopt_minimum(Q, p, y, C, y @ alpha0), rel=1e-8
    )


def test_multiclass_estimator_with_a_tiny_cache():
    """Three classes, cache_size=0.5, pairs in rounds: the dense answers."""
    X, y = three_classes(600, 4)
    assert not gram_fits(600, 0.5)
    solved_in_rounds = []
    original = fast.solve_batched

    def counting(problem, *args, **kwargs):
        solved_in_rounds.append(problem.y.size)
        return original(problem, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(fast, "solve_batched", counting)
        tiny = SVC(C=3.0, tol=1e-4, cache_size=0.5).fit(X, y)
    assert len(solved_in_rounds) == 3
    assert all(block_size(m, 4, 1024, 0.5) < m for m in solved_in_rounds)
    dense = SVC(C=3.0, tol=1e-4).fit(X, y)
    theirs = SklearnSVC(C=3.0, tol=1e-4).fit(X, y)
    np.testing.assert_allclose(tiny.objective_, dense.objective_, rtol=1e-6)
    np.testing.assert_array_equal(tiny.predict(X), theirs.predict(X))


# Labels ------------------------------------------------------------------


@pytest.mark.parametrize(
    "labels",
    [
        ["no", "yes"],
        ["cat", "dog", "emu"],
        [-1.0, 2.0],
        [0.0, 1.0, 5.0],
    ],
)
def test_string_and_float_labels(labels):
    """String or float labels: scikit-learn's classes_ and predictions."""
    X, index = three_classes(150, 21, features=2)
    if len(labels) == 2:
        index = (index > 0).astype(int)
    y = np.array(labels)[index]
    test = np.random.default_rng(22).normal(size=(50, 2))
    ours, theirs = SVC().fit(X, y), SklearnSVC().fit(X, y)
    np.testing.assert_array_equal(ours.classes_, theirs.classes_)
    assert ours.predict(test).dtype == theirs.predict(test).dtype
    np.testing.assert_array_equal(ours.predict(test), theirs.predict(test))
    np.testing.assert_allclose(
        ours.decision_function(test),
        theirs.decision_function(test),
        atol=5e-3,
    )


def test_fractional_float_labels_are_refused_like_scikit_learn():
    """Fractional float labels are refused, as scikit-learn refuses them."""
    X = np.random.default_rng(23).normal(size=(20, 2))
    y = np.where(X[:, 0] > 0, 0.5, 2.25)
    with pytest.raises(ValueError, match="continuous"):
        SklearnSVC().fit(X, y)
    with pytest.raises(ValueError, match="continuous"):
        SVC().fit(X, y)


# Two bugs these tests found, fixed: an empty I_up or I_low at the start,
# and the single block of the rounds starting from single-precision rows.


@pytest.mark.parametrize(
    ("labels", "start"),
    [
        ((1.0, 1.0, 1.0), (0.0, 0.0, 0.0)),
        ((1.0, 1.0, -1.0), (1.0, 2.0, 0.0)),
    ],
)
def test_single_feasible_point(labels, start):
    """When alpha0 is the only feasible point, solve_dense returns it."""
    K = np.array([[2.0, 0.5, 0.1], [0.5, 1.0, 0.3], [0.1, 0.3, 1.5]])
    y, alpha0 = np.array(labels), np.array(start)
    C = np.array([1.0, 2.0, 3.0])
    reference = solve(
        QPProblem(GramQMatrix(K, y), -np.ones(3), y, C, alpha0)
    )
    assert reference.status == Status.OPTIMAL
    result = solve_dense(QPProblem(None, -np.ones(3), y, C, alpha0), K)
    assert result.status == Status.OPTIMAL
    np.testing.assert_array_equal(result.alpha, reference.alpha)
    assert result.objective == pytest.approx(reference.objective)


def test_single_block_rounds_from_a_nonzero_start():
    """One-block rounds from a non-zero start: OPTIMAL means m - M < tol."""
    rng = np.random.default_rng(0)
    n = 40
    X = rng.normal(size=(n, 2))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    rows = KernelRows(Kernel("rbf", gamma=1.0), X)
    assert not gram_fits(n, 0.01) and block_size(n, 4, 1024, 0.01) == n
    C = np.full(n, 100.0)
    problem = QPProblem(rows, -np.ones(n), y, C, np.full(n, 50.0))
    result = solve_auto(problem, tol=1e-6, cache_size=0.01)
    K = rbf_kernel(X, gamma=1.0)
    psi = -y * (y * (K @ (y * result.alpha)) - 1.0)
    assert result.status == Status.OPTIMAL
    assert scratch_violation(psi, result.alpha, y, C) < 1e-6
    assert result.objective == pytest.approx(
        c_svc_objective(K, y, result.alpha), rel=1e-9
    )
