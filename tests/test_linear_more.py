"""More linear models: linear SVR (dual coordinate descent in numpy and
compiled, Newton's method on the squared loss) and Crammer and Singer's
multi-class SVM, checked against cvxopt, against each other, against
LIBLINEAR 2.50 and against scikit-learn, with svmlib.LinearSVR under
scikit-learn's estimator checks."""

import re
import warnings

import numpy as np
import pytest
from scipy import sparse
from sklearn.datasets import load_diabetes, load_digits, load_iris
from sklearn.exceptions import ConvergenceWarning
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC as LiblinearSVC
from sklearn.svm import LinearSVR as LiblinearSVR
from sklearn.utils.estimator_checks import parametrize_with_checks

from svmlib import LinearSVC, LinearSVR, solve_qp
from svmlib.linear.crammer_singer import (
    crammer_singer_problem,
    cs_dual_cd,
    cs_primal_objective,
    cs_scores,
    cs_subproblem,
    cs_violations,
    sweep_cs_numpy,
)
from svmlib.linear.cs_compiled import sweep_cs_compiled
from svmlib.linear.svr_compiled import sweep_svr_compiled
from svmlib.linear.svr_dcd import (
    linear_svr_problem,
    svr_dual_cd,
    svr_primal_objective,
    svr_step,
    svr_violation,
    svr_violations,
    sweep_svr_numpy,
)
from svmlib.linear.svr_primal import svr_newton
from svmlib.result import Status

LOSSES = ("epsilon_insensitive", "squared_epsilon_insensitive")


def regression(n, d, seed, noise=0.5):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    return X, X @ rng.normal(size=d) + 0.3 + noise * rng.normal(size=n)


def classes(n, k, seed, d=2):
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, k, size=n)
    centres = 2.0 * rng.normal(size=(k, d))
    return centres[labels] + rng.normal(size=(n, d)), labels


def sparsified(X, threshold=0.5):
    return sparse.csr_matrix(np.where(np.abs(X) > threshold, X, 0.0))


def folded(X, bias):
    X = X.toarray() if sparse.issparse(X) else X
    return np.hstack([X, np.full((X.shape[0], 1), bias)])


def svr_by_cvxopt(X, y, C, epsilon, loss, bias):
    """The SVR dual in (alpha, alpha*), 2n variables (an independent
    formulation of the dual in beta): wbar and the minimum."""
    n = y.size
    Xbar = folded(X, bias)
    K = Xbar @ Xbar.T
    P = np.block([[K, -K], [-K, K]])
    q = np.r_[epsilon - y, epsilon + y]
    if loss == "squared_epsilon_insensitive":
        P = P + np.diag(np.r_[0.5 / C, 0.5 / C])
        A, b = -np.eye(2 * n), np.zeros(2 * n)
    else:
        A = np.vstack([np.eye(2 * n), -np.eye(2 * n)])
        b = np.r_[C, C, np.zeros(2 * n)]
    x = solve_qp(P + 1e-10 * np.eye(2 * n), q, A, b).x
    return Xbar.T @ (x[:n] - x[n:]), 0.5 * x @ P @ x + q @ x


def cs_by_cvxopt(X, labels, C, k, bias):
    """Crammer and Singer's dual by cvxopt: W and the minimum."""
    n = labels.size
    Xbar = folded(X, bias)
    P = np.kron(Xbar @ Xbar.T, np.eye(k))
    e = (1.0 - np.eye(k)[labels]).ravel()
    bounds = (np.eye(k)[labels] * C[:, None]).ravel()
    A_eq = np.kron(np.eye(n), np.ones((1, k)))
    x = solve_qp(
        P + 1e-10 * np.eye(n * k),
        e,
        np.eye(n * k),
        bounds,
        A_eq,
        np.zeros(n),
    ).x
    return Xbar.T @ x.reshape(n, k), 0.5 * x @ P @ x + e @ x


def liblinear_250(X, y, options):
    """LIBLINEAR 2.50 (liblinear-official): the model and the passes of
    its dual solver."""
    liblinear = pytest.importorskip("liblinear.liblinear")
    util = pytest.importorskip("liblinear.liblinearutil")
    log = []
    collect = liblinear.PRINT_STRING_FUN(lambda t: log.append(t.decode()))
    settings = util.parameter(options)
    settings.print_func = collect
    model = util.train(util.problem(y, X), settings)
    passes = re.findall(r"#iter = (\d+)", "".join(log))
    return model, sum(int(p) for p in passes)


def wbar(result):
    return np.append(result.w, result.b)


# --- linear SVR: the step and the dual ------------------------------------


@pytest.mark.parametrize("seed", range(20))
def test_svr_step_minimises_the_one_variable_problem(seed):
    """eq. (eq-lsvr-step) against a fine grid of the function it
    minimises, G t + H t^2 / 2 + epsilon |beta + t| on the box."""
    rng = np.random.default_rng(seed)
    beta, G = rng.normal(), 2 * rng.normal()
    H, epsilon = rng.uniform(0.1, 3), rng.uniform(0, 1)
    U = np.inf if seed % 2 else abs(beta) + rng.uniform(0, 1)
    new = svr_step(beta, G, H, epsilon, U)
    low, high = max(-U, -20.0), min(U, 20.0)
    z = np.linspace(low, high, 400_001)
    values = G * (z - beta) + 0.5 * H * (z - beta) ** 2 + epsilon * abs(z)
    best = z[np.argmin(values)]
    assert abs(new - best) < 1e-3
    assert -U <= new <= U


@pytest.mark.parametrize(
    "G, new, before", [(-3.0, 0.5, 2.0), (0.5, 0.0, 1.5), (2.0, -0.05, 3.0)]
)
def test_svr_step_by_hand(G, new, before):
    """The steps of exercise ex-lsvr-step (Qbar_ii = 4, epsilon = 1, U_i =
    0.5, beta_i = 0.2): clipped at the bound, to zero, across zero; each
    leaves its own violation zero, G_i having moved by Qbar_ii t."""
    step = svr_step(0.2, G, 4.0, 1.0, 0.5)
    assert step == pytest.approx(new, abs=1e-12)
    assert svr_violation(0.2, G, 1.0, 0.5) == pytest.approx(before)
    after = svr_violation(step, G + 4.0 * (step - 0.2), 1.0, 0.5)
    assert after == pytest.approx(0.0, abs=1e-12)


@pytest.mark.parametrize("loss", LOSSES)
@pytest.mark.parametrize("kind", ["dense", "csr"])
@pytest.mark.parametrize("bias", [0.0, 1.0])
def test_svr_dual_cd_matches_cvxopt(loss, kind, bias):
    X, y = regression(60, 4, seed=1)
    if kind == "csr":
        X = sparsified(X)
    C = np.random.default_rng(2).uniform(0.05, 0.3, size=60)
    problem = linear_svr_problem(X, y, C, loss, epsilon=0.2, bias=bias)
    result = svr_dual_cd(problem, sweep_svr_compiled, 1e-10, 10**5, seed=0)
    assert result.status == Status.OPTIMAL
    w_qp, minimum = svr_by_cvxopt(X, y, C, 0.2, loss, bias)
    assert abs(result.objective / minimum - 1) < 1e-7
    assert np.abs(wbar(result) - w_qp).max() < 1e-4
    primal = svr_primal_objective(problem, wbar(result))
    assert abs(primal + result.objective) < 1e-6 * abs(primal)


@pytest.mark.parametrize("loss", LOSSES)
@pytest.mark.parametrize("kind", ["dense", "csr"])
@pytest.mark.parametrize("shrinking", [True, False])
def test_svr_numpy_and_compiled_passes_take_the_same_steps(
    loss, kind, shrinking
):
    X, y = regression(200, 10, seed=3)
    if kind == "csr":
        X = sparsified(X, 1.0)
    problem = linear_svr_problem(X, y, 0.1, loss, epsilon=0.1)
    a = svr_dual_cd(problem, sweep_svr_numpy, 1e-6, 10**4, shrinking, 5)
    b = svr_dual_cd(problem, sweep_svr_compiled, 1e-6, 10**4, shrinking, 5)
    assert a.n_iter == b.n_iter
    assert np.abs(a.alpha - b.alpha).max() < 1e-10
    assert np.abs(a.w - b.w).max() < 1e-10


def test_svr_optimal_means_the_rule_holds_afresh():
    """OPTIMAL: the violations recomputed at the answer meet eq.
    (eq-lsvr-stopping), on random problems of both losses."""
    for seed in range(30):
        rng = np.random.default_rng(seed)
        X, y = regression(int(rng.integers(20, 200)), 5, seed)
        loss = LOSSES[seed % 2]
        C, tol = 10 ** rng.uniform(-2, 1), 10 ** rng.uniform(-6, -2)
        problem = linear_svr_problem(X, y, C, loss, rng.uniform(0, 0.5))
        result = svr_dual_cd(problem, sweep_svr_compiled, tol, 10**5, seed)
        assert result.status == Status.OPTIMAL
        start = np.maximum(np.abs(y) - problem.epsilon, 0).sum()
        fresh = svr_violations(problem, result.alpha, wbar(result)).sum()
        assert fresh <= tol * start * (1 + 1e-9)


@pytest.mark.parametrize("C", [0.01, 1.0, 100.0])
def test_svr_newton_matches_dual_cd(C):
    X, y = regression(300, 8, seed=7)
    problem = linear_svr_problem(X, y, C, LOSSES[1], epsilon=0.3)
    newton = svr_newton(problem, tol=1e-10)
    cd = svr_dual_cd(problem, sweep_svr_compiled, 1e-10, 10**6, seed=0)
    assert newton.status == Status.OPTIMAL
    J_newton = svr_primal_objective(problem, wbar(newton))
    assert (
        abs(J_newton / svr_primal_objective(problem, wbar(cd)) - 1) < 1e-9
    )
    assert np.abs(newton.alpha - cd.alpha).max() < 1e-4 * max(
        1, np.abs(cd.alpha).max()
    )


# (solver, loss, dual, tol, agreement): the L1 loss's dual converges
# slowly, so it is compared at a looser tol, to what that tol gives
SVR_SOLVERS = [
    (13, LOSSES[0], True, 1e-5, 2e-5),
    (12, LOSSES[1], True, 1e-6, 1e-6),
    (11, LOSSES[1], False, 1e-6, 1e-6),
]


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("C", [0.003, 0.01])
@pytest.mark.parametrize("solver, loss, dual, tol, agreement", SVR_SOLVERS)
def test_svr_objectives_match_liblinear_250(
    seed, C, solver, loss, dual, tol, agreement
):
    X, y = regression(1000, 15, seed=10 + seed)
    epsilon = 0.2
    model, passes = liblinear_250(
        X, y, f"-s {solver} -c {C:g} -p {epsilon:g} -e {tol:g} -B 1"
    )
    if dual:
        assert passes < 300  # LIBLINEAR converged
    problem = linear_svr_problem(X, y, C, loss, epsilon)
    if dual:
        ours = svr_dual_cd(problem, sweep_svr_compiled, tol, 10**5, seed=0)
    else:
        ours = svr_newton(problem, tol)
    w, b = model.get_decfun()
    J_250 = svr_primal_objective(problem, np.append(w, b))
    J_ours = svr_primal_objective(problem, wbar(ours))
    assert abs(J_ours / J_250 - 1) < agreement


# --- Crammer and Singer ---------------------------------------------------


@pytest.mark.parametrize("seed", range(15))
def test_cs_subproblem_matches_cvxopt(seed):
    """eq. (eq-cs-alpha) with beta of eq. (eq-cs-beta) against the QP of
    eq. (eq-cs-sub) solved by cvxopt, the point's class present or not."""
    rng = np.random.default_rng(seed)
    k = int(rng.integers(2, 8))
    B, A, C = (
        rng.normal(size=k) * 2,
        rng.uniform(0.2, 3),
        rng.uniform(0.1, 2),
    )
    y_at = int(rng.integers(-1, k))
    bound = np.zeros(k)
    if y_at >= 0:
        bound[y_at] = C
    # without the class, the other multipliers sum to -C
    total = 0.0 if y_at >= 0 else -C
    qp = solve_qp(
        A * np.eye(k), B, np.eye(k), bound, np.ones((1, k)), [total]
    ).x
    ours = cs_subproblem(B, A, C, y_at)
    assert np.abs(ours - qp).max() < 1e-6
    assert abs(ours.sum() - total) < 1e-12 * max(1, abs(total)) + 1e-12
    assert (ours <= bound).all()


def test_cs_subproblem_by_hand():
    """Exercise ex-cs-block: alpha_i = (0.5, -0.5, 0), G_i = (0.2, 1, 2),
    A_i = C_i = 1 give r = 2, beta = 1.25 and (1, -0.25, -0.75), after
    which the free classes' derivatives both equal beta."""
    G, alpha = np.array([0.2, 1.0, 2.0]), np.array([0.5, -0.5, 0.0])
    new = cs_subproblem(G - alpha, 1.0, 1.0, 0)
    assert np.allclose(new, [1.0, -0.25, -0.75], atol=1e-12)
    assert np.allclose((G + new - alpha)[1:], 1.25, atol=1e-12)


def test_one_against_the_rest_misses_the_middle_class_on_a_line():
    """Exercise ex-cs-one-vs-rest: on symmetric points of three classes
    on a line, one against the rest (hinge) gives the middle class the
    constant score -1 and predicts it nowhere; Crammer and Singer's
    joint problem labels most of the middle class correctly."""
    x = np.linspace(-2.95, 2.95, 60)
    X, y = x[:, None], np.digitize(x, [-1.0, 1.0])
    settings = dict(C=0.3, tol=1e-8, max_iter=10**5, random_state=0)
    rest = LinearSVC(loss="hinge", **settings).fit(X, y)
    assert abs(rest.coef_[1, 0]) < 1e-6
    assert rest.intercept_[1] == pytest.approx(-1.0, abs=1e-6)
    assert not (rest.predict(X) == 1).any()
    joint = LinearSVC(multi_class="crammer_singer", **settings).fit(X, y)
    assert np.sum(joint.predict(X)[y == 1] == 1) == 18


@pytest.mark.parametrize("kind", ["dense", "csr"])
@pytest.mark.parametrize("shrinking", [True, False])
@pytest.mark.parametrize("bias", [0.0, 1.0])
def test_cs_dual_cd_matches_cvxopt(kind, shrinking, bias):
    X, labels = classes(40, 4, seed=1, d=3)
    if kind == "csr":
        X = sparsified(X)
    C = np.random.default_rng(3).uniform(0.1, 1.0, size=40)
    problem = crammer_singer_problem(X, labels, C, bias)
    result = cs_dual_cd(
        problem, sweep_cs_compiled, 1e-9, 10**5, shrinking, seed=0
    )
    assert result.status == Status.OPTIMAL
    W_qp, minimum = cs_by_cvxopt(X, labels, C, 4, bias)
    assert abs(result.objective / minimum - 1) < 1e-7
    W = np.vstack([result.w.T, result.b / bias if bias else 0 * result.b])
    assert np.abs(W - W_qp).max() < 1e-4
    assert np.abs(result.alpha.sum(axis=1)).max() < 1e-10
    assert abs(cs_primal_objective(problem, W) + result.objective) < 1e-6


@pytest.mark.parametrize("kind", ["dense", "csr"])
@pytest.mark.parametrize("shrinking", [True, False])
def test_cs_numpy_and_compiled_passes_take_the_same_steps(kind, shrinking):
    X, labels = classes(150, 5, seed=4, d=6)
    if kind == "csr":
        X = sparsified(X, 1.0)
    problem = crammer_singer_problem(X, labels, 0.5)
    a = cs_dual_cd(problem, sweep_cs_numpy, 1e-6, 10**4, shrinking, 2)
    b = cs_dual_cd(problem, sweep_cs_compiled, 1e-6, 10**4, shrinking, 2)
    assert a.n_iter == b.n_iter
    assert np.abs(a.alpha - b.alpha).max() < 1e-10


def test_cs_optimal_means_the_rule_holds_afresh():
    for seed in range(20):
        rng = np.random.default_rng(seed)
        X, labels = classes(int(rng.integers(20, 200)), 4, seed)
        tol = 10 ** rng.uniform(-5, -1)
        problem = crammer_singer_problem(
            X, labels, 10 ** rng.uniform(-2, 1)
        )
        result = cs_dual_cd(problem, sweep_cs_compiled, tol, 10**5)
        assert result.status == Status.OPTIMAL
        W = np.vstack([result.w.T, result.b])
        assert cs_violations(problem, result.alpha, W).max() <= tol


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("C", [0.1, 1.0])
def test_cs_objectives_match_liblinear_250(seed, C):
    X, labels = classes(600, 4, seed=20 + seed, d=5)
    tol = 1e-4
    model, _ = liblinear_250(
        X, labels.astype(float), f"-s 4 -c {C} -e {tol} -B 1"
    )
    W_250 = np.zeros((6, 4))
    for position, label in enumerate(model.get_labels()):
        w, b = model.get_decfun(position)
        W_250[:, int(label)] = np.append(w, b)
    problem = crammer_singer_problem(X, labels, C)
    ours = cs_dual_cd(problem, sweep_cs_compiled, tol, 10**5, seed=0)
    W = np.vstack([ours.w.T, ours.b])
    P_250 = cs_primal_objective(problem, W_250)
    assert abs(cs_primal_objective(problem, W) / P_250 - 1) < 1e-4
    agree = np.argmax(cs_scores(problem, W), axis=1) == np.argmax(
        cs_scores(problem, W_250), axis=1
    )
    assert agree.mean() >= 0.99


# --- the estimators ------------------------------------------------------


def diabetes():
    X, y = load_diabetes(return_X_y=True)
    return StandardScaler().fit_transform(X), y


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize(
    "loss, dual",
    [(LOSSES[0], True), (LOSSES[1], True), (LOSSES[1], False)],
)
@pytest.mark.parametrize("weighted", [False, True])
def test_linear_svr_matches_scikit_learn(loss, dual, weighted):
    X, y = diabetes()
    weights = None
    if weighted:
        weights = np.random.default_rng(0).uniform(0, 2, size=y.size)
        weights[:10] = 0.0
    settings = dict(
        loss=loss, dual=dual, epsilon=5.0, C=0.5, tol=1e-8, max_iter=10**5
    )
    ours = LinearSVR(random_state=0, **settings).fit(X, y, weights)
    theirs = LiblinearSVR(random_state=0, **settings).fit(X, y, weights)
    C = 0.5 * (np.ones(y.size) if weights is None else weights)
    problem = linear_svr_problem(X, y, C, loss, 5.0)
    J_ours = svr_primal_objective(
        problem, np.append(ours.coef_, ours.intercept_)
    )
    J_theirs = svr_primal_objective(
        problem, np.append(theirs.coef_, theirs.intercept_)
    )
    assert abs(J_ours / J_theirs - 1) < 1e-6
    assert ours.coef_.shape == theirs.coef_.shape == (10,)
    assert ours.intercept_.shape == (1,)


def test_linear_svr_dense_and_sparse_give_the_same_model():
    X, y = regression(300, 20, seed=5)
    X = sparsified(X, 1.0)
    on_csr = LinearSVR(random_state=0).fit(X, y)
    dense = LinearSVR(random_state=0).fit(X.toarray(), y)
    assert np.abs(on_csr.coef_ - dense.coef_).max() < 1e-9
    assert (
        np.abs(on_csr.predict(X) - dense.predict(X.toarray())).max() < 1e-9
    )


def test_linear_svr_attributes_and_warnings():
    X, y = diabetes()
    model = LinearSVR(fit_intercept=False).fit(X, y)
    assert model.intercept_ == 0.0 and model.n_features_in_ == 10
    assert isinstance(model.n_iter_, int)
    with pytest.warns(ConvergenceWarning, match="max_iter=2"):
        model = LinearSVR(max_iter=2, tol=1e-12).fit(X, y)
    assert model.n_iter_ == 2
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        LinearSVR(loss=LOSSES[1], dual=False).fit(X, y)


@pytest.mark.parametrize(
    "parameters, message",
    [
        ({"epsilon": -1.0}, "epsilon must be a non-negative number"),
        ({"loss": "hinge"}, "unknown loss 'hinge'"),
        ({"C": 0.0}, "C must be a positive number"),
        ({"tol": 0.0}, "tol must be a positive number"),
        ({"dual": "yes"}, "dual must be 'auto', True or False"),
        ({"dual": False}, "epsilon_insensitive' has no primal solver"),
        (
            {"intercept_scaling": 0.0},
            "intercept_scaling must be a positive",
        ),
        (
            {"intercept_scaling": -1.0},
            "intercept_scaling must be a positive",
        ),
        ({"max_iter": 2.5}, "max_iter must be a non-negative integer"),
        ({"random_state": -1}, "random_state must be"),
    ],
)
def test_linear_svr_names_bad_parameters(parameters, message):
    X, y = diabetes()
    with pytest.raises(ValueError, match=message):
        LinearSVR(**parameters).fit(X, y)


def test_linear_svr_names_bad_data():
    X, y = diabetes()
    bad = X.copy()
    bad[3, 2] = np.nan
    with pytest.raises(ValueError, match="NaN at row 3, column 2"):
        LinearSVR().fit(bad, y)
    with pytest.raises(ValueError, match="y contains"):
        LinearSVR().fit(X, np.where(np.arange(y.size) == 5, np.inf, y))
    with pytest.raises(ValueError, match="442 samples but y has 441"):
        LinearSVR().fit(X, y[:-1])
    with pytest.raises(ValueError, match="sample_weight is zero"):
        LinearSVR().fit(X, y, sample_weight=np.zeros(y.size))
    with pytest.raises(ValueError, match="10 features"):
        LinearSVR().fit(X, y).predict(X[:, :3])


def test_problem_builders_name_bad_input():
    X, y = regression(20, 2, seed=0)
    with pytest.raises(ValueError, match="one number per training point"):
        linear_svr_problem(X, y[:5])
    with pytest.raises(ValueError, match="unknown loss"):
        linear_svr_problem(X, y, loss="squared_hinge")
    with pytest.raises(ValueError, match="squared_epsilon_insensitive"):
        svr_newton(linear_svr_problem(X, y))
    with pytest.raises(ValueError, match="at least two classes"):
        crammer_singer_problem(X, np.zeros(20))
    with pytest.raises(ValueError, match="bias must be"):
        crammer_singer_problem(X, np.arange(20) % 3, bias=-1.0)


SVR_ESTIMATORS = [
    LinearSVR(),
    LinearSVR(loss="squared_epsilon_insensitive", dual=True),
    LinearSVR(loss="squared_epsilon_insensitive", dual=False),
]
EQUIVALENCE = (
    "as for scikit-learn's own LinearSVR: coordinate descent stops within "
    "its relative tolerance, so a weight of 2 and a repeated point give "
    "decision values that differ by more than the check's 1e-7"
)


def svr_expected_failures(estimator):
    if estimator.dual is False:
        return {}
    return {
        "check_sample_weight_equivalence_on_dense_data": EQUIVALENCE,
        "check_sample_weight_equivalence_on_sparse_data": EQUIVALENCE,
    }


@parametrize_with_checks(
    SVR_ESTIMATORS,
    expected_failed_checks=svr_expected_failures,
    xfail_strict=True,
)
def test_linear_svr_passes_scikit_learn_checks(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        check(estimator)


@pytest.mark.parametrize(
    "name", ["iris", "digits", "weighted iris", "two classes"]
)
def test_crammer_singer_matches_scikit_learn(name):
    if name == "digits":
        X, y = load_digits(return_X_y=True)
        X = X / 16.0
    else:
        X, y = load_iris(return_X_y=True)
    settings = dict(multi_class="crammer_singer", C=0.1, tol=1e-6)
    settings.update(max_iter=10**5, random_state=0)
    extra, C = {}, 0.1 * np.ones(y.size)
    if name == "weighted iris":
        weights = np.random.default_rng(1).uniform(0.2, 2, size=y.size)
        extra = {"sample_weight": weights}
        settings["class_weight"] = {2: 4.0}
        C = C * weights * np.where(y == 2, 4.0, 1.0)
    if name == "two classes":
        X, y, C = X[y > 0], y[y > 0], C[y > 0]
    ours = LinearSVC(**settings).fit(X, y, **extra)
    theirs = LiblinearSVC(**settings).fit(X, y, **extra)
    assert ours.coef_.shape == theirs.coef_.shape
    assert ours.intercept_.shape == theirs.intercept_.shape
    assert np.mean(ours.predict(X) == theirs.predict(X)) >= 0.99
    if name != "two classes":
        problem = crammer_singer_problem(X, y, C)
        P = [
            cs_primal_objective(
                problem, np.vstack([m.coef_.T, m.intercept_])
            )
            for m in (ours, theirs)
        ]
        assert abs(P[0] / P[1] - 1) < 1e-5
    else:
        assert ours.coef_.shape == (1, 4)
        scores = ours.decision_function(X)
        assert np.array_equal(ours.predict(X), np.where(scores > 0, 2, 1))
        assert np.abs(ours.coef_ - theirs.coef_).max() < 1e-3


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_crammer_singer_predicts_the_largest_score_and_warns():
    X, y = load_iris(return_X_y=True)
    model = LinearSVC(multi_class="crammer_singer", random_state=0)
    model.fit(X, y)
    scores = model.decision_function(X)
    assert scores.shape == (150, 3)
    assert np.array_equal(model.predict(X), np.argmax(scores, axis=1))
    no_intercept = LinearSVC(
        multi_class="crammer_singer", fit_intercept=False
    )
    assert no_intercept.fit(X, y).intercept_ == 0.0
    with pytest.warns(ConvergenceWarning, match="max_iter=2"):
        LinearSVC(multi_class="crammer_singer", max_iter=2).fit(X, y)
    with pytest.raises(ValueError, match="multi_class must be"):
        LinearSVC(multi_class="ovo").fit(X, y)
    with pytest.raises(ValueError, match="penalty='l1'"):
        LinearSVC(multi_class="crammer_singer", penalty="l1").fit(X, y)
