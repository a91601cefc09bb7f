"""svmlib.SVR and svmlib.OneClassSVM (chapter "Regression and novelty
detection") against independent answers: scikit-learn's SVR and
OneClassSVM (LIBSVM), cvxopt on the two duals, the nu-property, the
dense path against the rounds, errors before any solver runs, and
scikit-learn's own estimator checks.

The comparisons with LIBSVM run both solvers at tol=1e-6, so that what is
compared is the solution, not where each stopping rule happens to stop
(at the default tol=1e-3 both answers are legitimately O(1e-3) apart).
"""

import warnings

import numpy as np
import pytest
from sklearn import svm
from sklearn.datasets import load_diabetes, load_digits, make_friedman1
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics.pairwise import (
    polynomial_kernel,
    rbf_kernel,
    sigmoid_kernel,
)
from sklearn.utils.estimator_checks import (
    check_outliers_train,
    parametrize_with_checks,
)

import svmlib.estimators.one_problem
import svmlib.training.fast
from svmlib import SVR, Kernel, OneClassSVM, solve_qp
from svmlib.formulations.svr_one_class import (
    DoubledRows,
    check_epsilon,
    check_nu,
    check_targets,
    one_class_problem,
    one_class_start,
    svr_coefficients,
    svr_problem,
    training_rows,
)
from svmlib.kernels.kernel_rows import GramRows, KernelRows
from svmlib.training.fast import solve_auto

TIGHT = 1e-6  # the tol of both solvers in the comparisons with LIBSVM

# --------------------------------------------------------------------------
# Data sets (every generator seeded) and an independent kernel


def noisy_sinc(seed=0, n=120):
    """A noisy 1-D sinc on [-5, 5], and a grid to predict on."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(-5, 5, size=(n, 1))
    y = np.sinc(X[:, 0]) + 0.1 * rng.normal(size=n)
    return X, y, np.linspace(-6, 6, 241)[:, None]


def diabetes():
    """load_diabetes, features and target standardised; the last 42 rows
    held out."""
    X, y = load_diabetes(return_X_y=True)
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    y = (y - y.mean()) / y.std()
    return X[:400], y[:400], X[400:]


def friedman():
    """make_friedman1 with noise, target standardised; 200 to train, 100
    held out."""
    X, y = make_friedman1(n_samples=300, noise=0.5, random_state=0)
    y = (y - y.mean()) / y.std()
    return X[:200], y[:200], X[200:]


def friedman_gram():
    """friedman's data as precomputed rbf Gram matrices (gamma 0.5):
    train x train, and held-out x train."""
    X, y, X_test = friedman()
    return rbf_kernel(X, gamma=0.5), y, rbf_kernel(X_test, X, gamma=0.5)


def blob(seed=0):
    """A 2-D Gaussian blob of 190 points with 13 uniform outliers in
    [-6, 6]^2 (203 points, so nu * n is never a whole number below), and
    a held-out sample of 950 + 50 drawn the same way."""
    rng = np.random.default_rng(seed)
    X = np.vstack([rng.normal(size=(190, 2)), rng.uniform(-6, 6, (13, 2))])
    X_test = np.vstack(
        [rng.normal(size=(950, 2)), rng.uniform(-6, 6, (50, 2))]
    )
    return X, X_test


def digits():
    """The first 111 zeros of load_digits (scaled to [0, 1]) to train on;
    the other zeros and every fifth other digit held out."""
    X, t = load_digits(return_X_y=True)
    X = X / 16
    zeros, others = X[t == 0], X[t != 0]
    return zeros[:111], np.vstack([zeros[111:], others[::5]])


def digits_gram():
    """digits as precomputed rbf Gram matrices (gamma 0.02)."""
    X, X_test = digits()
    return rbf_kernel(X, gamma=0.02), rbf_kernel(X_test, X, gamma=0.02)


def kernel_matrix(A, B, params, X_fit):
    """k(A, B) for the estimator parameters ``params``, by scikit-learn's
    pairwise kernels (not svmlib's), gamma="scale" resolved as
    1 / (n_features * X_fit.var()); for a precomputed kernel, A itself
    (the training Gram matrix)."""
    kernel = params.get("kernel", "rbf")
    if kernel == "precomputed":
        return A
    if kernel == "linear":
        return A @ B.T
    gamma = params.get("gamma", "scale")
    if gamma == "scale":
        gamma = 1 / (X_fit.shape[1] * X_fit.var())
    if kernel == "rbf":
        return rbf_kernel(A, B, gamma=gamma)
    coef0 = params.get("coef0", 0.0)
    if kernel == "poly":
        return polynomial_kernel(
            A, B, degree=params.get("degree", 3), gamma=gamma, coef0=coef0
        )
    return sigmoid_kernel(A, B, gamma=gamma, coef0=coef0)


def full_coefficients(model, n):
    """dual_coef_ spread over all n training points (0 off the support)."""
    coef = np.zeros(n)
    coef[model.support_] = model.dual_coef_[0]
    return coef


def svr_objective(K, y, epsilon, coef):
    """The epsilon-SVR dual objective in terms of coef = alpha - alpha*:
    1/2 coef'K coef + epsilon sum|coef| - y'coef."""
    return 0.5 * coef @ K @ coef + epsilon * np.abs(coef).sum() - y @ coef


def one_class_objective(K, alpha):
    """The one-class dual objective 1/2 alpha'K alpha."""
    return 0.5 * alpha @ K @ alpha


def prediction_tolerance(epsilon):
    """How far two answers' regression predictions may be apart: 1e-3,
    and never more than epsilon / 10 (so the tube itself is resolved).

    At tol=1e-6 svmlib's answers are within 1e-5 of each other; LIBSVM's
    are up to 2e-4 off on the flat linear-kernel dual of diabetes (its
    duality gap stays 1.5e-3 even at tol=1e-10, where svmlib's is 1e-9),
    so 1e-3 leaves a margin of five over the worst case seen.
    """
    return min(1e-3, epsilon / 10) if epsilon > 0 else 1e-3


# --------------------------------------------------------------------------
# 1. Against scikit-learn's SVR and OneClassSVM (LIBSVM)

REGRESSION_DATA = {
    "sinc": noisy_sinc,
    "diabetes": diabetes,
    "friedman": friedman,
    "friedman_gram": friedman_gram,
}

SVR_CASES = [
    ("sinc", dict(gamma=1.0, C=1.0, epsilon=0.1)),
    ("sinc", dict(C=100.0, epsilon=0.01)),
    ("sinc", dict(gamma=0.5, C=10.0, epsilon=0.0)),
    ("diabetes", dict(gamma=0.1, C=10.0, epsilon=0.1)),
    ("diabetes", dict(kernel="linear", C=10.0, epsilon=0.1)),
    ("diabetes", dict(kernel="linear", C=0.1, epsilon=0.5)),
    (
        "diabetes",
        dict(kernel="poly", degree=2, gamma=0.1, coef0=1.0, epsilon=0.5),
    ),
    ("diabetes", dict(kernel="sigmoid", gamma=0.01, C=1.0)),
    ("friedman", dict(C=10.0, epsilon=0.2)),
    (
        "friedman",
        dict(kernel="poly", gamma=0.2, coef0=1.0, C=1.0, epsilon=0.05),
    ),
    ("friedman_gram", dict(kernel="precomputed", C=10.0, epsilon=0.1)),
]


@pytest.mark.parametrize("data, params", SVR_CASES)
def test_svr_agrees_with_libsvm(data, params):
    """SVR: LIBSVM's dual objective, predictions, intercept, support."""
    X, y, X_test = REGRESSION_DATA[data]()
    model = SVR(tol=TIGHT, **params).fit(X, y)
    reference = svm.SVR(tol=TIGHT, **params).fit(X, y)
    epsilon = params.get("epsilon", 0.1)
    K = kernel_matrix(X, X, params, X)
    n = y.size
    ours = svr_objective(K, y, epsilon, full_coefficients(model, n))
    theirs = svr_objective(K, y, epsilon, full_coefficients(reference, n))
    assert ours == pytest.approx(theirs, rel=1e-5, abs=1e-12)
    close = prediction_tolerance(epsilon)
    for Z in (X, X_test):
        np.testing.assert_allclose(
            model.predict(Z), reference.predict(Z), rtol=0, atol=close
        )
    assert abs(model.intercept_[0] - reference.intercept_[0]) < close
    # a point may be a support vector for one and not the other only if
    # it sits on the edge of the tube, |y - f| = epsilon
    differ = np.setxor1d(model.support_, reference.support_)
    residual = np.abs(y - reference.predict(X))[differ]
    np.testing.assert_allclose(residual, epsilon, rtol=0, atol=close)
    assert differ.size <= max(1, 0.02 * n)


def test_svr_default_parameters_agree_with_libsvm():
    """SVR() with every default (gamma="scale", tol=1e-3) on the sinc."""
    X, y, X_test = noisy_sinc(seed=3)
    model, reference = SVR().fit(X, y), svm.SVR().fit(X, y)
    K = kernel_matrix(X, X, {}, X)
    ours = svr_objective(K, y, 0.1, full_coefficients(model, y.size))
    theirs = svr_objective(K, y, 0.1, full_coefficients(reference, y.size))
    assert ours == pytest.approx(theirs, rel=1e-5)
    # both stop once the KKT conditions hold within tol=1e-3, so their
    # predictions may be O(tol) apart: 1e-2 = epsilon / 10 bounds that
    np.testing.assert_allclose(
        model.predict(X_test), reference.predict(X_test), rtol=0, atol=1e-2
    )


ONE_CLASS_DATA = {
    "blob": blob,
    "digits": digits,
    "digits_gram": digits_gram,
}

ONE_CLASS_CASES = [
    ("blob", dict(nu=0.05)),
    ("blob", dict(nu=0.3)),
    ("blob", dict(gamma=0.5, nu=0.1)),
    ("blob", dict(kernel="poly", degree=2, coef0=1.0, nu=0.2)),
    ("digits", dict(nu=0.1)),
    ("digits", dict(nu=0.5)),
    ("digits", dict(kernel="linear", nu=0.25)),
    ("digits", dict(kernel="sigmoid", gamma=0.01, nu=0.2)),
    ("digits_gram", dict(kernel="precomputed", nu=0.1)),
]


@pytest.mark.parametrize("data, params", ONE_CLASS_CASES)
def test_one_class_agrees_with_libsvm(data, params):
    """OneClassSVM: LIBSVM's objective, offset, predictions, support."""
    X, X_test = ONE_CLASS_DATA[data]()
    model = OneClassSVM(tol=TIGHT, **params).fit(X)
    reference = svm.OneClassSVM(tol=TIGHT, **params).fit(X)
    K = kernel_matrix(X, X, params, X)
    n = X.shape[0]
    ours = one_class_objective(K, full_coefficients(model, n))
    theirs = one_class_objective(K, full_coefficients(reference, n))
    assert ours == pytest.approx(theirs, rel=1e-5)
    # rho is a value of the decision function's scale, which grows with
    # nu n: compare relative to it
    scale = max(1.0, abs(reference.offset_[0]))
    assert abs(model.offset_[0] - reference.offset_[0]) < 1e-4 * scale
    np.testing.assert_array_equal(model.intercept_, -model.offset_)
    agree = np.mean(model.predict(X_test) == reference.predict(X_test))
    assert agree >= 0.995
    np.testing.assert_allclose(
        model.decision_function(X_test),
        reference.decision_function(X_test),
        rtol=0,
        atol=1e-3 * scale,
    )
    np.testing.assert_allclose(
        model.score_samples(X_test),
        reference.score_samples(X_test),
        rtol=0,
        atol=1e-3 * scale,
    )
    # a point may be a support vector for one and not the other only if
    # it sits on the boundary, decision_function = 0
    differ = np.setxor1d(model.support_, reference.support_)
    margin = reference.decision_function(X)[differ]
    np.testing.assert_allclose(margin, 0, rtol=0, atol=1e-3 * scale)
    assert differ.size <= max(1, 0.02 * n)


def test_one_class_default_parameters_agree_with_libsvm():
    """OneClassSVM() with every default (nu=0.5, tol=1e-3) on the blob."""
    X, X_test = blob(seed=4)
    model, reference = OneClassSVM().fit(X), svm.OneClassSVM().fit(X)
    K = kernel_matrix(X, X, {}, X)
    ours = one_class_objective(K, full_coefficients(model, X.shape[0]))
    theirs = one_class_objective(
        K, full_coefficients(reference, X.shape[0])
    )
    assert ours == pytest.approx(theirs, rel=1e-5)
    agree = np.mean(model.predict(X_test) == reference.predict(X_test))
    assert agree >= 0.995


def test_offset_when_no_multiplier_is_free():
    """nu n whole: rho is not unique; both offsets lie in its interval."""
    # nu n = 90 exactly: all multipliers end at 0 or 1 and any rho in
    # [max G over alpha = 1, min G over alpha = 0] is optimal.  svmlib
    # takes the midpoint (LIBSVM's rule); LIBSVM's own start leaves
    # 90.0 - 90 = 8.5e-14 in one multiplier, which it then counts as free,
    # so scikit-learn reports that point's G, an end of the interval.
    X, _ = digits()
    X = X[:100]
    model = OneClassSVM(gamma=0.5, nu=0.9).fit(X)
    reference = svm.OneClassSVM(gamma=0.5, nu=0.9).fit(X)
    K = rbf_kernel(X, gamma=0.5)
    alpha = full_coefficients(model, 100)
    assert np.all((alpha == 0) | (alpha == 1))
    G = K @ alpha
    low, high = G[alpha == 1].max(), G[alpha == 0].min()
    assert low < high
    assert model.offset_[0] == pytest.approx((low + high) / 2, rel=1e-12)
    assert low - 1e-9 <= reference.offset_[0] <= high + 1e-9
    assert one_class_objective(K, alpha) == pytest.approx(
        one_class_objective(K, full_coefficients(reference, 100)),
        rel=1e-12,
    )


def test_one_sample_one_class_matches_libsvm():
    """OneClassSVM on one point: alpha = nu, rho = nu k(x, x), as LIBSVM."""
    X = np.random.default_rng(5).normal(size=(1, 3))
    for nu in (0.3, 1.0):
        model = OneClassSVM(nu=nu).fit(X)
        np.testing.assert_allclose(model.dual_coef_, [[nu]])
        np.testing.assert_allclose(model.offset_, [nu])  # rbf: k(x,x)=1
    reference = svm.OneClassSVM(nu=0.3).fit(X)
    np.testing.assert_allclose(
        OneClassSVM(nu=0.3).fit(X).offset_, reference.offset_, rtol=1e-12
    )


def test_nu_one_puts_every_multiplier_at_one():
    """nu = 1: alpha = 1 everywhere, offset_ the finite end, max_i G_i."""
    # every multiplier at its upper bound leaves rho in [max G, inf);
    # svmlib returns the finite end (LIBSVM's midpoint is infinite, and
    # scikit-learn refuses the model as not finite)
    X, _ = blob(seed=16)
    model = OneClassSVM(nu=1.0).fit(X)
    np.testing.assert_array_equal(model.dual_coef_, np.ones((1, 203)))
    G = kernel_matrix(X, X, {}, X).sum(axis=1)
    assert model.offset_[0] == pytest.approx(G.max(), rel=1e-12)
    assert np.all(model.decision_function(X) <= 1e-12 * G.max())


@pytest.mark.parametrize("kernel", ["rbf", "linear"])
def test_svr_without_support_vectors_predicts_its_intercept(kernel):
    """A tube wide enough for every target: f is the constant intercept_."""
    rng = np.random.default_rng(6)
    X, y = rng.normal(size=(20, 3)), rng.normal(size=20)
    epsilon = 1 + np.ptp(y)
    model = SVR(kernel=kernel, epsilon=epsilon).fit(X, y)
    reference = svm.SVR(kernel=kernel, epsilon=epsilon).fit(X, y)
    assert model.support_.size == 0 == reference.support_.size
    np.testing.assert_allclose(
        model.intercept_, reference.intercept_, rtol=1e-12
    )
    np.testing.assert_allclose(
        model.predict(X), reference.predict(X), rtol=1e-12
    )


def test_svr_on_one_sample_predicts_its_target():
    """SVR on one point (as LIBSVM accepts it): f is that point's target."""
    rng = np.random.default_rng(7)
    X, y = rng.normal(size=(1, 3)), rng.normal(size=1)
    reference = svm.SVR().fit(X, y)
    np.testing.assert_allclose(reference.predict(X), y, rtol=1e-12)
    model = SVR().fit(X, y)
    np.testing.assert_allclose(model.predict(X), y, rtol=1e-12)


# --------------------------------------------------------------------------
# 2. Against cvxopt on the duals, and the nu-property


def box(m, upper):
    """0 <= x <= upper as A_ub x <= b_ub."""
    return np.vstack([np.eye(m), -np.eye(m)]), np.concatenate(
        [np.full(m, upper), np.zeros(m)]
    )


@pytest.mark.parametrize(
    "kernel, C, epsilon",
    [("rbf", 1.0, 0.05), ("rbf", 10.0, 0.2), ("linear", 5.0, 0.1)],
)
def test_svr_dual_matches_cvxopt(kernel, C, epsilon):
    """The 2n-variable SVR dual: svmlib's optimum is cvxopt's."""
    X, y, _ = noisy_sinc(seed=8, n=30)
    X = np.hstack([X, np.random.default_rng(9).normal(size=(30, 1))])
    params = dict(kernel=kernel, gamma=1.0)
    K = kernel_matrix(X, X, params, X)
    n = y.size
    A_ub, b_ub = box(2 * n, C)
    sides = np.concatenate([np.ones(n), -np.ones(n)])
    cvx = solve_qp(
        np.block([[K, -K], [-K, K]]),
        np.concatenate([epsilon - y, epsilon + y]),
        A_ub,
        b_ub,
        A_eq=sides[None, :],
        b_eq=[0.0],
    ).x
    cvx_objective = (
        0.5 * (cvx[:n] - cvx[n:]) @ K @ (cvx[:n] - cvx[n:])
        + epsilon * cvx.sum()
        - y @ (cvx[:n] - cvx[n:])
    )
    model = SVR(tol=TIGHT, C=C, epsilon=epsilon, **params).fit(X, y)
    coef = full_coefficients(model, n)
    assert svr_objective(K, y, epsilon, coef) == pytest.approx(
        cvx_objective, rel=1e-6
    )
    assert np.all(np.abs(coef) <= C * (1 + 1e-12))
    assert abs(coef.sum()) < 1e-10 * C
    # the kernel expansions (f less its offset) agree at the points
    np.testing.assert_allclose(
        K @ coef, K @ (cvx[:n] - cvx[n:]), rtol=0, atol=1e-4
    )
    # the problem itself, solved directly: alpha_i alpha*_i = 0, and
    # svr_coefficients gives the estimator's coefficients
    problem = svr_problem(K, y, C, epsilon, "precomputed")
    result = solve_auto(problem, tol=TIGHT)
    alpha = result.alpha
    assert np.all(alpha[:n] * alpha[n:] == 0)
    assert abs(sides @ alpha) < 1e-10 * C
    np.testing.assert_allclose(
        K @ svr_coefficients(alpha), K @ coef, rtol=0, atol=1e-5
    )


@pytest.mark.parametrize("kernel", ["rbf", "poly"])
@pytest.mark.parametrize("nu", [0.1, 0.5, 0.95])
def test_one_class_dual_matches_cvxopt(kernel, nu):
    """The one-class dual (LIBSVM scaling): svmlib's optimum is cvxopt's."""
    X, _ = blob(seed=10)
    X = X[::5]  # 41 points
    n = X.shape[0]
    params = dict(kernel=kernel, degree=2, coef0=1.0)
    K = kernel_matrix(X, X, params, X)
    A_ub, b_ub = box(n, 1.0)
    cvx = solve_qp(K, np.zeros(n), A_ub, b_ub, np.ones((1, n)), [nu * n]).x
    model = OneClassSVM(tol=TIGHT, nu=nu, **params).fit(X)
    alpha = full_coefficients(model, n)
    assert one_class_objective(K, alpha) == pytest.approx(
        one_class_objective(K, cvx), rel=1e-6
    )
    assert alpha.sum() == pytest.approx(nu * n, rel=1e-12)
    assert np.all((alpha >= 0) & (alpha <= 1))
    np.testing.assert_allclose(
        model.score_samples(X), K @ cvx, rtol=0, atol=1e-4 * nu * n
    )


@pytest.mark.parametrize("nu", [0.02, 0.1, 0.25, 0.5, 0.8])
@pytest.mark.parametrize("gamma", ["scale", 2.0])
@pytest.mark.parametrize("tol", [1e-3, TIGHT])
def test_nu_bounds_outliers_and_support_vectors(nu, gamma, tol):
    """outliers / n <= nu <= support vectors / n (one point of slack)."""
    X, _ = blob(seed=11)
    n = X.shape[0]
    model = OneClassSVM(nu=nu, gamma=gamma, tol=tol).fit(X)
    # the free multipliers' points lie on the boundary only up to the
    # stopping rule: their G = k(x, .) alpha is within tol of rho, so
    # half of them may show decision_function a hair below 0.  An outlier
    # is a point beyond that, decision_function < -tol; the solver's
    # stopping rule then puts its multiplier at the bound 1.
    decision = model.decision_function(X)
    outliers = np.sum(decision < -tol)
    assert outliers / n <= nu + 1 / n
    assert model.support_.size / n >= nu - 1 / n
    alpha = full_coefficients(model, n)
    assert np.all(alpha[decision < -tol] == 1)
    # and the multipliers are feasible for the dual
    assert alpha.sum() == pytest.approx(nu * n, rel=1e-12)
    assert np.all((alpha >= 0) & (alpha <= 1))


def test_svr_kkt_conditions_hold():
    """SVR: outside the tube |coef| = C, strictly inside coef = 0."""
    X, y, _ = friedman()
    C, epsilon, tol = 3.0, 0.2, TIGHT
    model = SVR(C=C, epsilon=epsilon, tol=tol).fit(X, y)
    coef = full_coefficients(model, y.size)
    residual = y - model.predict(X)
    # the gradient of the 2n dual is a residual less epsilon, so the
    # stopping rule leaves KKT violations of at most about tol
    outside = np.abs(residual) > epsilon + 1e-4
    inside = np.abs(residual) < epsilon - 1e-4
    assert outside.any() and inside.any()
    np.testing.assert_allclose(
        coef[outside], C * np.sign(residual[outside]), rtol=1e-12
    )
    assert np.all(coef[inside] == 0)


# --------------------------------------------------------------------------
# The building blocks of problems.py


def test_doubled_rows_are_the_two_by_two_block_of_k():
    """DoubledRows gives the rows (and columns) of [[K, K], [K, K]]."""
    rng = np.random.default_rng(12)
    A = rng.normal(size=(7, 7))
    K = A @ A.T
    rows = DoubledRows(GramRows(K))
    S = np.block([[K, K], [K, K]])
    assert rows.n_samples == 14
    np.testing.assert_array_equal(rows.diagonal, np.diag(S))
    indices = np.array([0, 9, 13, 6])
    out = np.empty((4, 14))
    rows.compute(indices, out)
    np.testing.assert_array_equal(out, S[indices])
    columns = np.array([1, 8, 12])
    part = np.empty((4, 3))
    rows.compute(indices, part, columns=columns)
    np.testing.assert_array_equal(part, S[np.ix_(indices, columns)])


def test_svr_problem_is_the_2n_variable_dual():
    """svr_problem: p = (eps - y, eps + y), labels (+1, -1), start 0."""
    K = np.eye(3) + 0.5
    y = np.array([1.0, -2.0, 0.5])
    problem = svr_problem(K, y, 2.0, 0.25)
    np.testing.assert_array_equal(
        problem.p, [-0.75, 2.25, -0.25, 1.25, -1.75, 0.75]
    )
    np.testing.assert_array_equal(problem.y, [1, 1, 1, -1, -1, -1])
    np.testing.assert_array_equal(problem.C, np.full(6, 2.0))
    np.testing.assert_array_equal(problem.alpha0, np.zeros(6))
    np.testing.assert_array_equal(
        svr_coefficients(np.arange(6.0)), [-3.0, -3.0, -3.0]
    )


@pytest.mark.parametrize(
    "n, nu", [(10, 0.35), (7, 1.0), (5, 0.1), (203, 0.05), (3, 1e-9)]
)
def test_one_class_start_is_feasible(n, nu):
    """one_class_start: sum nu n in the box, the first floor(nu n) at 1."""
    alpha = one_class_start(n, nu)
    assert alpha.shape == (n,)
    assert alpha.sum() == pytest.approx(nu * n, rel=1e-12)
    assert np.all((alpha >= 0) & (alpha <= 1))
    whole = int(nu * n)
    assert np.all(alpha[:whole] == 1)
    problem = one_class_problem(np.eye(n), nu)
    np.testing.assert_array_equal(problem.alpha0, alpha)
    np.testing.assert_array_equal(problem.p, np.zeros(n))
    np.testing.assert_array_equal(problem.y, np.ones(n))


def test_the_parameter_checks_directly():
    """check_epsilon, check_nu, check_targets and training_rows."""
    assert check_epsilon(0) == 0.0 and check_epsilon(np.float32(0.5)) == 0.5
    assert check_nu(1) == 1.0 and check_nu(1e-300) == 1e-300
    for bad in (-1e-300, np.nan, np.inf, "0.1", None, True):
        with pytest.raises(ValueError, match="epsilon must be"):
            check_epsilon(bad)
    for bad in (0, -0.5, 1 + 1e-15, np.nan, "a", None, True):
        with pytest.raises(ValueError, match="nu must be in"):
            check_nu(bad)
    np.testing.assert_array_equal(check_targets([1, 2], 2), [1.0, 2.0])
    with pytest.raises(ValueError, match="one number per training point"):
        check_targets([1.0, 2.0], 3)
    with pytest.raises(ValueError, match="NaN or infinite"):
        check_targets([1.0, np.inf], 2)
    with pytest.raises(ValueError, match="must be square"):
        training_rows(np.ones((3, 2)), "precomputed")
    with pytest.raises(ValueError, match="kernel must be"):
        training_rows(np.ones((3, 2)), "rbf")


# --------------------------------------------------------------------------
# 5. The rounds path (a Gram matrix larger than cache_size) and the dense


def test_svr_rounds_agree_with_dense(monkeypatch):
    """SVR(cache_size=0.05) on 300 points: rounds, same answer as dense."""
    X, y = make_friedman1(n_samples=300, noise=0.5, random_state=13)
    y = (y - y.mean()) / y.std()
    dense = SVR(C=10.0, epsilon=0.1, tol=TIGHT).fit(X, y)
    calls = []
    original = svmlib.training.fast.solve_batched

    def counted(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(svmlib.training.fast, "solve_batched", counted)
    rounds = SVR(C=10.0, epsilon=0.1, tol=TIGHT, cache_size=0.05).fit(X, y)
    assert calls, "the rounds were not used"
    # same tolerance rule, another order of steps: 1e-4 is a hundred
    # times the tol, and far below epsilon
    np.testing.assert_allclose(
        rounds.predict(X), dense.predict(X), rtol=0, atol=1e-4
    )
    np.testing.assert_array_equal(rounds.support_, dense.support_)
    K = rbf_kernel(X, gamma=1 / (X.shape[1] * X.var()))
    assert svr_objective(
        K, y, 0.1, full_coefficients(rounds, 300)
    ) == pytest.approx(
        svr_objective(K, y, 0.1, full_coefficients(dense, 300)), rel=1e-8
    )


def test_one_class_rounds_agree_with_dense(monkeypatch):
    """OneClassSVM(cache_size=0.05) on 300 points: same answer as dense."""
    rng = np.random.default_rng(14)
    X, X_test = rng.normal(size=(300, 2)), rng.normal(size=(1000, 2))
    dense = OneClassSVM(nu=0.2, tol=TIGHT).fit(X)
    calls = []
    original = svmlib.training.fast.solve_batched

    def counted(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(svmlib.training.fast, "solve_batched", counted)
    rounds = OneClassSVM(nu=0.2, tol=TIGHT, cache_size=0.05).fit(X)
    assert calls, "the rounds were not used"
    # both stop within tol=1e-6 of the optimum's KKT conditions: 1e-4 is
    # a hundred times that (the training points on the boundary may fall
    # either side of 0, so predictions are compared on held-out points)
    for Z in (X, X_test):
        np.testing.assert_allclose(
            rounds.decision_function(Z),
            dense.decision_function(Z),
            rtol=0,
            atol=1e-4,
        )
    agree = np.mean(rounds.predict(X_test) == dense.predict(X_test))
    assert agree >= 0.995
    np.testing.assert_array_equal(rounds.support_, dense.support_)


# --------------------------------------------------------------------------
# 4. Bad input: a clear error naming the problem, before any solver runs

RNG = np.random.default_rng(15)
X_GOOD, Y_GOOD = RNG.normal(size=(20, 3)), RNG.normal(size=20)
X_NAN = X_GOOD.copy()
X_NAN[3, 1] = np.nan
Y_NAN = Y_GOOD.copy()
Y_NAN[5] = np.nan

BAD_INPUT = [
    (SVR, dict(epsilon=-0.1), X_GOOD, Y_GOOD, "epsilon must be"),
    (SVR, dict(epsilon=np.nan), X_GOOD, Y_GOOD, "epsilon must be"),
    (SVR, dict(C=0.0), X_GOOD, Y_GOOD, "C must be a positive"),
    (SVR, dict(C=-1.0), X_GOOD, Y_GOOD, "C must be a positive"),
    (OneClassSVM, dict(nu=0.0), X_GOOD, None, r"nu must be in \(0, 1\]"),
    (OneClassSVM, dict(nu=-0.5), X_GOOD, None, r"nu must be in \(0, 1\]"),
    (OneClassSVM, dict(nu=1.5), X_GOOD, None, r"nu must be in \(0, 1\]"),
    (OneClassSVM, dict(nu="a"), X_GOOD, None, r"nu must be in \(0, 1\]"),
    (SVR, {}, X_NAN, Y_GOOD, "X contains NaN at row 3, column 1"),
    (OneClassSVM, {}, X_NAN, None, "X contains NaN at row 3, column 1"),
    (SVR, {}, X_GOOD, Y_NAN, "y contains NaN"),
    (SVR, {}, X_GOOD, Y_GOOD[:-1], "X has 20 samples but y has 19"),
    (
        SVR,
        dict(kernel="precomputed"),
        X_GOOD,
        Y_GOOD,
        "must be the square Gram matrix",
    ),
    (
        OneClassSVM,
        dict(kernel="precomputed"),
        X_GOOD,
        None,
        "must be the square Gram matrix",
    ),
    (
        SVR,
        {},
        X_GOOD,
        np.array(["a"] * 20),
        "y must contain numbers",
    ),
    (
        SVR,
        {},
        X_GOOD,
        None,
        "requires y to be passed",
    ),
]


def never_called(*args, **kwargs):
    """Stands in for the solver where none may run."""
    raise AssertionError("a solver ran on bad input")


@pytest.mark.parametrize("estimator, parameters, X, y, message", BAD_INPUT)
def test_bad_input_is_refused_before_any_solver_runs(
    monkeypatch, estimator, parameters, X, y, message
):
    """Each bad input: a ValueError naming the problem, no solver run."""
    monkeypatch.setattr(
        svmlib.estimators.one_problem, "solve_auto", never_called
    )
    with pytest.raises(ValueError, match=message):
        if estimator is SVR:
            estimator(**parameters).fit(X, y)
        else:
            estimator(**parameters).fit(X)


def test_bad_prediction_input_is_refused():
    """predict refuses NaN and the wrong number of features."""
    for model in (SVR().fit(X_GOOD, Y_GOOD), OneClassSVM().fit(X_GOOD)):
        with pytest.raises(ValueError, match="X contains NaN at row 3"):
            model.predict(X_NAN)
        with pytest.raises(ValueError, match="expecting 3 features"):
            model.predict(X_GOOD[:, :2])


# --------------------------------------------------------------------------
# 3. scikit-learn's estimator checks


def linear_gram(A, B):
    """A kernel function, as a user would pass one (module level, so the
    estimator pickles)."""
    return A @ B.T


ESTIMATORS = [
    SVR(),
    SVR(kernel="linear"),
    SVR(kernel="precomputed"),
    SVR(kernel=linear_gram),
    SVR(cache_size=0.01),  # the rounds
    OneClassSVM(),
    OneClassSVM(kernel="linear"),
    OneClassSVM(kernel="precomputed"),
    OneClassSVM(kernel=linear_gram),
    OneClassSVM(cache_size=0.01),
]

OUTLIER_CHECKS_ON_RAW_X = (
    "scikit-learn's outlier check feeds raw (300, 2) data to a "
    "precomputed-kernel detector; sklearn.svm.OneClassSVM("
    "kernel='precomputed') fails it the same way (see "
    "test_libsvm_fails_the_outlier_checks_with_a_precomputed_kernel)"
)


WEIGHT_EQUIVALENCE = (
    "as for scikit-learn's own SVR and OneClassSVM (which list this check "
    "as an expected failure): a weight of 2 and a repeated point give the "
    "same problem, but the solver stops at different points within its "
    "tolerance (the check allows differences of 1e-7), and gamma='scale' "
    "sees the repeated rows"
)

WEIGHT_EQUIVALENCE_CHECKS = [
    "check_sample_weight_equivalence_on_dense_data",
    "check_sample_weight_equivalence_on_sparse_data",
]


def expected_failures(estimator):
    """The checks expected to fail, with why."""
    failures = {}
    if estimator.kernel != "precomputed":
        failures.update(
            dict.fromkeys(WEIGHT_EQUIVALENCE_CHECKS, WEIGHT_EQUIVALENCE)
        )
    if isinstance(estimator, OneClassSVM) and estimator.kernel == (
        "precomputed"
    ):
        failures["check_outliers_train"] = OUTLIER_CHECKS_ON_RAW_X
        failures["check_outliers_fit_predict"] = OUTLIER_CHECKS_ON_RAW_X
    return failures


@parametrize_with_checks(
    ESTIMATORS, expected_failed_checks=expected_failures, xfail_strict=True
)
def test_scikit_learn_estimator_checks(estimator, check):
    """One of scikit-learn's estimator checks."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        check(estimator)


def test_libsvm_fails_the_outlier_checks_with_a_precomputed_kernel():
    """scikit-learn's own OneClassSVM fails check_outliers_train too."""
    with pytest.raises(ValueError, match="must be a square matrix"):
        check_outliers_train(
            "OneClassSVM", svm.OneClassSVM(kernel="precomputed")
        )


@pytest.mark.parametrize("make", [SVR, OneClassSVM])
def test_linear_kernel_gives_coef_like_scikit_learn(make):
    """coef_ = dual_coef_ @ support_vectors_ for the linear kernel, as
    scikit-learn's; other kernels have none."""
    rng = np.random.default_rng(31)
    X = rng.normal(size=(80, 3))
    y = X @ np.array([1.0, 2.0, -1.0]) + 0.1 * rng.normal(size=80)
    fit_args = (X, y) if make is SVR else (X,)
    ours = make(kernel="linear", tol=1e-8).fit(*fit_args)
    theirs = getattr(svm, make.__name__)(kernel="linear", tol=1e-8).fit(
        *fit_args
    )
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=1e-4)
    with pytest.raises(AttributeError, match="only for kernel='linear'"):
        _ = make().fit(*fit_args).coef_


def test_doubled_rows_in_any_order():
    """DoubledRows gives the rows (and columns) asked for, in the order
    asked for, from the block matrix [[K, K], [K, K]]."""
    rng = np.random.default_rng(41)
    X = rng.normal(size=(7, 2))
    K = rbf_kernel(X, gamma=0.5)
    S = np.block([[K, K], [K, K]])
    rows = DoubledRows(KernelRows(Kernel("rbf", gamma=0.5), X))
    indices = np.array([12, 3, 10, 0, 3])
    columns = np.array([13, 1, 8, 6])
    np.testing.assert_allclose(
        rows.compute(indices, np.empty((5, 14))), S[indices], atol=1e-12
    )
    np.testing.assert_allclose(
        rows.compute(indices, np.empty((5, 4)), columns=columns),
        S[np.ix_(indices, columns)],
        atol=1e-12,
    )


@pytest.mark.parametrize("estimator", [SVR])
def test_an_infinite_C_is_refused_in_the_estimators_own_name(estimator):
    """C = inf is a hard margin (a hard tube for SVR), which the
    estimator does not train: the message names the estimator itself."""
    X = np.arange(10.0).reshape(-1, 1)
    with pytest.raises(ValueError, match="which SVR does not train"):
        estimator(C=np.inf).fit(X, X[:, 0])
