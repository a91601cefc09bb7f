"""Linear SVMs at scale: dual coordinate descent (numpy and compiled, dense
and CSR), Newton's method on the primal, and svmlib.LinearSVC, checked
against cvxopt, against each other and against scikit-learn's LinearSVC
(LIBLINEAR), with scikit-learn's own estimator checks."""

import re
import tracemalloc
import warnings

import numpy as np
import pytest
from scipy import sparse
from sklearn.datasets import (
    load_breast_cancer,
    load_digits,
    load_iris,
    make_classification,
)
from sklearn.exceptions import ConvergenceWarning
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC as LiblinearSVC
from sklearn.utils.estimator_checks import parametrize_with_checks

from svmlib import LinearSVC, solve_qp
from svmlib.book.text_data import make_documents
from svmlib.linear.linear_compiled import sweep_compiled
from svmlib.linear.linear_dcd import (
    dual_cd,
    folded_weights,
    linear_dual_objective,
    linear_primal_objective,
    linear_problem,
    meets_stopping_rule,
    projected_gradients,
    sweep_numpy,
)
from svmlib.linear.linear_primal import (
    CG_FORCING,
    forcing_term,
    newton_primal,
)
from svmlib.result import Status

LOSSES = ("hinge", "squared_hinge")
# The settings LinearSVC is compared with LIBLINEAR in: (loss, dual).
SOLVERS = [
    ("hinge", True),
    ("squared_hinge", True),
    ("squared_hinge", False),
]
TIGHT = 1e-6  # a tolerance that both LIBLINEAR and svmlib reach
RELATIVE_OBJECTIVE = 1e-4  # the target of the chapter
AGREEMENT = 0.995


def blobs(n, d, seed, shift=1.0):
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    X = rng.normal(size=(n, d))
    X[:, :2] += 0.5 * shift * y[:, None]
    return X, y


def sparsified(X, threshold=0.5):
    return sparse.csr_matrix(np.where(np.abs(X) > threshold, X, 0.0))


def cvxopt_dual(X, y, C, loss, bias):
    """eq. (eq-dcd-dual) by cvxopt: alpha and the minimum."""
    X = X.toarray() if sparse.issparse(X) else X
    Xbar = np.hstack([X, np.full((X.shape[0], 1), bias)])
    n = y.size
    Q = np.outer(y, y) * (Xbar @ Xbar.T)
    if loss == "squared_hinge":
        Q = Q + np.diag(0.5 / C)
        A, b = -np.eye(n), np.zeros(n)
    else:
        A, b = np.vstack([np.eye(n), -np.eye(n)]), np.r_[C, np.zeros(n)]
    alpha = solve_qp(Q + 1e-12 * np.eye(n), -np.ones(n), A, b).x
    return alpha, 0.5 * alpha @ Q @ alpha - alpha.sum()


# --- the solvers --------------------------------------------------------


@pytest.mark.parametrize("loss", LOSSES)
@pytest.mark.parametrize("kind", ["dense", "csr"])
@pytest.mark.parametrize("bias", [0.0, 1.0, 3.0])
def test_dual_cd_matches_cvxopt(loss, kind, bias):
    X, y = blobs(60, 4, seed=1)
    if kind == "csr":
        X = sparsified(X)
    C = np.random.default_rng(2).uniform(0.05, 0.3, size=60)
    problem = linear_problem(X, y, C, loss, bias)
    result = dual_cd(problem, sweep_compiled, tol=1e-9, seed=0)
    assert result.status == Status.OPTIMAL
    alpha, minimum = cvxopt_dual(X, y, C, loss, bias)
    assert abs(result.objective / minimum - 1) < 1e-7
    w_qp = (
        np.hstack(
            [X.toarray() if kind == "csr" else X, np.full((60, 1), bias)]
        )
    ).T @ (alpha * y)
    w_cd = folded_weights(result, bias)
    assert np.abs(w_cd - w_qp).max() < 1e-4
    # strong duality: Jbar(wbar) = -D(alpha) at the solution
    primal = linear_primal_objective(problem, w_cd)
    assert abs(primal + result.objective) < 1e-6 * abs(primal)


@pytest.mark.parametrize("loss", LOSSES)
@pytest.mark.parametrize("kind", ["dense", "csr"])
@pytest.mark.parametrize("shrinking", [True, False])
def test_numpy_and_compiled_passes_take_the_same_steps(
    loss, kind, shrinking
):
    X, y = blobs(200, 10, seed=3)
    if kind == "csr":
        X = sparsified(X, 1.0)
    problem = linear_problem(X, y, 0.1, loss)
    a = dual_cd(problem, sweep_numpy, 1e-6, shrinking=shrinking, seed=5)
    b = dual_cd(problem, sweep_compiled, 1e-6, shrinking=shrinking, seed=5)
    assert a.n_iter == b.n_iter
    assert np.abs(a.alpha - b.alpha).max() < 1e-10
    assert np.abs(a.w - b.w).max() < 1e-10


def test_shrinking_reaches_the_same_optimum():
    X, y = blobs(1000, 20, seed=4)
    problem = linear_problem(X, y, 0.01, "hinge")
    a = dual_cd(
        problem, sweep_compiled, 1e-7, 10**5, shrinking=True, seed=0
    )
    b = dual_cd(
        problem, sweep_compiled, 1e-7, 10**5, shrinking=False, seed=0
    )
    assert a.status == b.status == Status.OPTIMAL
    assert abs(a.objective / b.objective - 1) < 1e-8


def test_dual_cd_stops_at_max_iter_and_reports_it():
    X, y = blobs(300, 5, seed=5)
    problem = linear_problem(X, y, 10.0, "hinge")
    result = dual_cd(problem, sweep_compiled, tol=1e-12, max_iter=3, seed=0)
    assert result.status == Status.MAX_ITER and result.n_iter == 3


def test_points_with_zero_cost_are_left_out():
    X, y = blobs(80, 3, seed=6)
    C = np.full(80, 0.2)
    C[:10] = 0.0
    for loss in LOSSES:
        weighted = dual_cd(
            linear_problem(X, y, C, loss), sweep_compiled, 1e-10, seed=0
        )
        removed = dual_cd(
            linear_problem(X[10:], y[10:], 0.2, loss),
            sweep_compiled,
            1e-10,
            seed=0,
        )
        assert np.all(weighted.alpha[:10] == 0)
        assert np.abs(weighted.w - removed.w).max() < 1e-6


@pytest.mark.parametrize("kind", ["dense", "csr"])
@pytest.mark.parametrize("C", [0.01, 1.0, 100.0])
def test_newton_primal_matches_dual_coordinate_descent(kind, C):
    X, y = blobs(300, 8, seed=7)
    if kind == "csr":
        X = sparsified(X)
    problem = linear_problem(X, y, C, "squared_hinge")
    newton = newton_primal(problem, tol=1e-10)
    cd = dual_cd(problem, sweep_compiled, 1e-9, max_iter=10**6, seed=0)
    assert newton.status == Status.OPTIMAL
    J_newton = linear_primal_objective(problem, folded_weights(newton, 1.0))
    J_cd = linear_primal_objective(problem, folded_weights(cd, 1.0))
    assert abs(J_newton / J_cd - 1) < 1e-9
    # the primal solution's alpha_i = 2 C xi_i is the dual solution
    assert (
        abs(
            linear_dual_objective(
                problem, newton.alpha, folded_weights(newton, 1.0)
            )
            + J_newton
        )
        < 1e-6 * J_newton
    )


def test_newton_primal_refuses_the_hinge():
    X, y = blobs(20, 2, seed=8)
    with pytest.raises(ValueError, match="squared_hinge"):
        newton_primal(linear_problem(X, y, 1.0, "hinge"))


@pytest.mark.parametrize(
    "arguments, message",
    [
        ({"C": -1.0}, "C must be a positive number"),
        ({"C": np.ones(3)}, "one per point"),
        ({"loss": "log"}, "loss must be"),
        ({"bias": -1.0}, "bias must be a non-negative"),
    ],
)
def test_linear_problem_names_bad_input(arguments, message):
    X, y = blobs(20, 2, seed=9)
    with pytest.raises(ValueError, match=message):
        linear_problem(X, y, **{"C": 1.0, **arguments})


# --- the stopping rule: what OPTIMAL guarantees ---------------------------


def random_problem(seed, largest_C=30.0, most_points=200):
    """A small random problem: size, dimension, scale, C, loss, tol and
    dense or CSR rows all drawn from ``seed``."""
    rng = np.random.default_rng(seed)
    n, d = int(rng.integers(20, most_points)), int(rng.integers(2, 25))
    X, y = blobs(n, d, seed=seed, shift=rng.uniform(0, 2))
    X = X * rng.uniform(0.2, 3)
    if rng.random() < 0.5:
        X = sparsified(X, 0.7)
    loss = LOSSES[int(rng.integers(2))]
    C = 10 ** rng.uniform(-2, np.log10(largest_C))
    tol = 10 ** rng.uniform(-4, -1)
    return linear_problem(X, y, C, loss), tol


def recomputed_projected_gradients(problem, result):
    """PG_i of every visited point at the returned alpha and wbar, from
    scratch (dense algebra, independent of the solver's code)."""
    X = problem.X.toarray() if sparse.issparse(problem.X) else problem.X
    wbar = folded_weights(result, problem.bias)
    G = problem.y * (X @ wbar[:-1] + problem.bias * wbar[-1]) - 1
    G += problem.D * result.alpha
    PG = np.where(result.alpha == 0, np.minimum(G, 0), G)
    PG = np.where(result.alpha == problem.U, np.maximum(PG, 0), PG)
    return PG[problem.kept]


def test_the_rule_needs_every_projected_gradient_small():
    """LIBLINEAR 2.50's rule: the spread alone (the rule up to 2.41)
    holds at alpha = 0, where every PG_i = -1."""
    assert meets_stopping_rule(0.05, -0.05, 0.1)
    assert not meets_stopping_rule(-1.0, -1.0, 0.1)  # spread 0
    assert not meets_stopping_rule(0.08, -0.08, 0.1)  # spread 0.16
    assert not meets_stopping_rule(0.2, 0.15, 0.1)


@pytest.mark.parametrize(
    "sweep, seeds",
    [(sweep_compiled, range(120)), (sweep_numpy, range(0, 120, 6))],
    ids=["compiled", "numpy"],
)
def test_optimal_means_the_rule_holds_at_the_returned_solution(
    sweep, seeds
):
    """On many random problems, OPTIMAL guarantees max |PG_i| <= tol and
    max PG - min PG <= tol for every point, recomputed at the answer."""
    optimal = 0
    for seed in seeds:
        problem, tol = random_problem(seed)
        result = dual_cd(problem, sweep, tol, max_iter=20_000, seed=seed)
        if result.status != Status.OPTIMAL:
            continue
        optimal += 1
        PG = recomputed_projected_gradients(problem, result)
        slack = tol * (1 + 1e-9)  # round-off of the two products
        assert np.abs(PG).max() <= slack, seed
        assert PG.max() - PG.min() <= slack, seed
        own = projected_gradients(
            problem, result.alpha, folded_weights(result, problem.bias)
        )
        assert np.abs(own - PG).max() < 1e-9 * max(1, np.abs(PG).max())
    assert optimal >= 0.8 * len(seeds)


def test_without_the_confirmation_a_pass_can_stop_too_early():
    """The values a pass computes are out of date at its end: stopping at
    the first pass (no shrinking) that meets the rule with them leaves,
    on some random problems, recomputed values that break it."""
    broken = 0
    for seed in range(60):
        problem, tol = random_problem(
            seed, largest_C=100.0, most_points=300
        )
        extremes = []
        dual_cd(
            problem,
            sweep_compiled,
            tol,
            max_iter=5_000,
            shrinking=False,
            seed=seed,
            callback=lambda visited, high, low: extremes.append(
                (high, low)
            ),
        )
        first = next(
            (
                k + 1
                for k, (high, low) in enumerate(extremes)
                if meets_stopping_rule(high, low, tol)
            ),
            None,
        )
        if first is None:
            continue
        early = dual_cd(
            problem, sweep_compiled, tol, first, shrinking=False, seed=seed
        )
        PG = recomputed_projected_gradients(problem, early)
        broken += not meets_stopping_rule(PG.max(), PG.min(), tol)
    assert broken >= 5


def test_newton_forcing_term_goes_to_zero_with_the_gradient():
    assert forcing_term(1.0, 1.0) == CG_FORCING
    assert forcing_term(1e-6, 1.0) == pytest.approx(1e-3)


def test_newton_converges_superlinearly_once_V_settles():
    """Once V stops changing and the step is 1, each ratio of successive
    gradient norms is at most the forcing term, which goes to zero."""
    X, y = load_breast_cancer(return_X_y=True)
    X = StandardScaler().fit_transform(X)
    problem = linear_problem(X, np.where(y == 1, 1.0, -1.0), 1.0)
    norms, sets, steps, forcings = [], [], [], []

    def record(step, forcing, g_norm, V):
        steps.append(step)
        forcings.append(forcing)
        norms.append(g_norm)
        sets.append(V)

    newton_primal(problem, tol=1e-9, callback=record)
    settled = [
        k
        for k in range(1, len(norms))
        if steps[k] == 1 and np.array_equal(sets[k], sets[k - 1])
    ]
    assert len(settled) >= 2
    ratios = [norms[k] / norms[k - 1] for k in settled]
    assert all(r <= forcings[k] for r, k in zip(ratios, settled))
    assert ratios[-1] < 1e-2 * CG_FORCING  # far below a fixed forcing


# --- LinearSVC against scikit-learn's (LIBLINEAR) ------------------------


def breast_cancer():
    X, y = load_breast_cancer(return_X_y=True)
    return StandardScaler().fit_transform(X), y


def digits():
    X, y = load_digits(return_X_y=True)
    return X / 16.0, y


def text():
    documents, topics = make_documents(1500, seed=3)
    return TfidfVectorizer().fit_transform(documents), topics


def synthetic():
    X, y = make_classification(
        3000, 40, n_informative=10, flip_y=0.02, random_state=0
    )
    return StandardScaler().fit_transform(X), y


DATA = {
    "breast cancer": breast_cancer,
    "digits": digits,
    "text": text,
    "synthetic": synthetic,
}


def objectives(model, X, y, C, loss):
    """Jbar of every problem at a fitted model's coef_ and intercept_."""
    classes = np.unique(y)
    values = []
    for k in range(model.coef_.shape[0]):
        positive = classes[1] if classes.size == 2 else classes[k]
        problem = linear_problem(
            X, np.where(y == positive, 1.0, -1.0), C, loss
        )
        wbar = np.append(model.coef_[k], np.ravel(model.intercept_)[k])
        values.append(linear_primal_objective(problem, wbar))
    return np.array(values)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("name", DATA)
@pytest.mark.parametrize("loss, dual", SOLVERS)
@pytest.mark.parametrize("C", [0.1, 1.0])
def test_same_objective_and_predictions_as_liblinear(name, loss, dual, C):
    X, y = DATA[name]()
    settings = dict(
        loss=loss,
        dual=dual,
        C=C,
        tol=TIGHT,
        max_iter=100_000,
        random_state=0,
    )
    ours = LinearSVC(**settings).fit(X, y)
    theirs = LiblinearSVC(**settings).fit(X, y)
    J_ours, J_theirs = (
        objectives(ours, X, y, C, loss),
        objectives(theirs, X, y, C, loss),
    )
    assert np.max(np.abs(J_ours / J_theirs - 1)) < RELATIVE_OBJECTIVE
    assert np.mean(ours.predict(X) == theirs.predict(X)) >= AGREEMENT


# --- LinearSVC against LIBLINEAR 2.50 itself ------------------------------

OFFICIAL_SOLVER = {
    ("hinge", True): 3,
    ("squared_hinge", True): 1,
    ("squared_hinge", False): 2,
}


def liblinear_250(X, y, C, solver, tol):
    """wbar of LIBLINEAR 2.50 (liblinear-official) with -B 1, labels in
    {-1, +1}, and the passes of its dual solver from its log."""
    liblinear = pytest.importorskip("liblinear.liblinear")
    util = pytest.importorskip("liblinear.liblinearutil")
    log = []
    collect = liblinear.PRINT_STRING_FUN(lambda t: log.append(t.decode()))
    options = util.parameter(f"-s {solver} -c {C:g} -e {tol:g} -B 1")
    options.print_func = collect
    model = util.train(util.problem(y, X), options)
    w, b = model.get_decfun()
    passes = re.findall(r"#iter = (\d+)", "".join(log))
    return np.append(w, b), sum(int(p) for p in passes)


@pytest.mark.parametrize("name", ["breast cancer", "text"])
@pytest.mark.parametrize("loss, dual", SOLVERS)
def test_same_objective_as_liblinear_250(name, loss, dual):
    """At C = 0.01 LIBLINEAR 2.50 converges within its 300 passes; then
    both reach the same Jbar to 1e-6 (and predict alike)."""
    X, y = DATA[name]()
    y = np.where(y == np.unique(y)[1], 1.0, -1.0)
    C, tol = 0.01, 1e-6
    wbar, passes = liblinear_250(X, y, C, OFFICIAL_SOLVER[loss, dual], tol)
    assert passes < 300
    ours = LinearSVC(
        loss=loss, dual=dual, C=C, tol=tol, max_iter=10**5, random_state=0
    ).fit(X, y)
    problem = linear_problem(X, y, C, loss)
    J_ours = linear_primal_objective(
        problem, np.append(ours.coef_[0], ours.intercept_[0])
    )
    J_250 = linear_primal_objective(problem, wbar)
    assert abs(J_ours / J_250 - 1) < 1e-6
    theirs = np.where(X @ wbar[:-1] + wbar[-1] > 0, 1.0, -1.0)
    assert np.mean(ours.predict(X) == theirs) >= AGREEMENT


@pytest.mark.parametrize("loss, dual", SOLVERS)
@pytest.mark.parametrize(
    "class_weight", [None, {0: 5.0, 2: 0.3}, "balanced"]
)
@pytest.mark.parametrize("weighted", [False, True])
def test_weights_follow_liblinear(loss, dual, class_weight, weighted):
    X, y = load_iris(return_X_y=True)
    sample_weight = None
    if weighted:
        sample_weight = np.random.default_rng(0).uniform(0.2, 2, y.size)
        sample_weight[:5] = 0.0
    settings = dict(
        loss=loss,
        dual=dual,
        tol=1e-8,
        max_iter=10**6,
        random_state=0,
        class_weight=class_weight,
        C=0.5,
    )
    ours = LinearSVC(**settings).fit(X, y, sample_weight=sample_weight)
    theirs = LiblinearSVC(**settings).fit(X, y, sample_weight=sample_weight)
    assert np.abs(ours.coef_ - theirs.coef_).max() < 1e-4
    assert np.abs(ours.intercept_ - theirs.intercept_).max() < 1e-4


def test_intercept_options_follow_liblinear():
    X, y = load_iris(return_X_y=True)
    for settings in (
        dict(fit_intercept=False),
        dict(intercept_scaling=10.0, dual=True),
    ):
        ours = LinearSVC(tol=1e-10, max_iter=10**6, **settings).fit(X, y)
        theirs = LiblinearSVC(tol=1e-10, max_iter=10**6, **settings).fit(
            X, y
        )
        assert np.abs(ours.coef_ - theirs.coef_).max() < 1e-5
        assert np.abs(ours.intercept_ - theirs.intercept_).max() < 1e-5
    no_intercept = LinearSVC(fit_intercept=False).fit(X, y)
    assert no_intercept.intercept_ == 0.0


def test_dense_and_sparse_input_give_the_same_model():
    """Coordinate descent takes the same steps on both (up to the order
    of additions); Newton's method takes directions that differ by
    round-off, so it is compared at a tight tolerance."""
    X, y = text()
    for dual, tol, close in ((True, 1e-4, 1e-9), (False, 1e-10, 1e-7)):
        settings = dict(dual=dual, tol=tol, random_state=0)
        on_csr = LinearSVC(**settings).fit(X, y)
        on_coo = LinearSVC(**settings).fit(X.tocoo(), y)
        dense = LinearSVC(**settings).fit(X.toarray(), y)
        assert np.array_equal(on_csr.coef_, on_coo.coef_)
        assert np.abs(on_csr.coef_ - dense.coef_).max() < close
        assert np.array_equal(on_csr.predict(X), dense.predict(X.toarray()))


def test_attributes_have_scikit_learns_shapes():
    X, y = load_iris(return_X_y=True)
    three = LinearSVC(random_state=0).fit(X, y)
    assert three.coef_.shape == (3, 4) and three.intercept_.shape == (3,)
    assert isinstance(three.n_iter_, int) and three.n_iter_ >= 1
    assert three.decision_function(X).shape == (150, 3)
    two = LinearSVC(random_state=0).fit(X[y > 0], y[y > 0])
    assert two.coef_.shape == (1, 4) and two.intercept_.shape == (1,)
    scores = two.decision_function(X[y > 0])
    assert scores.shape == (100,)
    assert np.array_equal(two.predict(X[y > 0]), np.where(scores > 0, 2, 1))


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_the_seed_fixes_the_answer():
    X, y = synthetic()
    a = LinearSVC(dual=True, random_state=3).fit(X, y)
    b = LinearSVC(dual=True, random_state=3).fit(X, y)
    assert np.array_equal(a.coef_, b.coef_)
    # another seed draws other orders, so it stops at another point
    c = LinearSVC(dual=True, random_state=4).fit(X, y)
    assert not np.array_equal(a.coef_, c.coef_)
    assert np.abs(a.coef_ - c.coef_).max() < 1e-2


@pytest.mark.parametrize("loss, dual", SOLVERS)
@pytest.mark.parametrize("class_weight", [{0: 4.0}, {1: 0.25}, "balanced"])
def test_class_weight_with_two_classes_follows_liblinear(
    loss, dual, class_weight
):
    """Two classes are one problem, in which both classes carry their
    weights (unlike the problems of one class against the rest)."""
    X, y = breast_cancer()
    y = (y == 1).astype(int)
    keep = np.flatnonzero((y == 1) | (np.arange(y.size) % 3 == 0))
    X, y = X[keep], y[keep]  # unbalanced: about 357 against 70
    settings = dict(
        loss=loss,
        dual=dual,
        tol=1e-8,
        max_iter=10**6,
        random_state=0,
        class_weight=class_weight,
        C=0.5,
    )
    ours = LinearSVC(**settings).fit(X, y)
    theirs = LiblinearSVC(**settings).fit(X, y)
    assert np.abs(ours.coef_ - theirs.coef_).max() < 1e-4
    assert np.abs(ours.intercept_ - theirs.intercept_).max() < 1e-4


def test_dual_auto_follows_scikit_learns_rule():
    from svmlib.linear.linear_setup import use_dual

    assert use_dual("auto", "squared_hinge", 100, 10) is False
    assert use_dual("auto", "squared_hinge", 10, 100) is True
    assert use_dual("auto", "hinge", 100, 10) is True
    # the L1 penalty has a primal solver only, whatever the shape
    assert use_dual("auto", "squared_hinge", 10, 100, penalty="l1") is False
    with pytest.raises(ValueError, match="Unsupported set of arguments"):
        use_dual(False, "hinge", 100, 10)
    for dual in (True, False, "auto"):
        with pytest.raises(ValueError, match="penalty='l1'.*loss='hinge'"):
            use_dual(dual, "hinge", 100, 10, penalty="l1")


def test_max_iter_raises_a_convergence_warning():
    X, y = synthetic()
    for dual in (True, False):
        with pytest.warns(ConvergenceWarning, match="max_iter=2"):
            model = LinearSVC(dual=dual, max_iter=2, tol=1e-12).fit(X, y)
        assert model.n_iter_ == 2
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        LinearSVC().fit(*breast_cancer())


def test_newton_meeting_the_rule_at_its_last_allowed_step_converged():
    """A fit that converges in k Newton steps, re-run with max_iter = k,
    must report OPTIMAL and raise no warning (the rule is checked after
    the last step too)."""
    X, y = breast_cancer()
    problem = linear_problem(
        X, np.where(y == 1, 1.0, -1.0), 1.0, "squared_hinge"
    )
    free = newton_primal(problem, 1e-4, max_iter=1000)
    assert free.status == Status.OPTIMAL
    limited = newton_primal(problem, 1e-4, max_iter=free.n_iter)
    assert limited.status == Status.OPTIMAL
    assert newton_primal(problem, 1e-4, free.n_iter - 1).status == (
        Status.MAX_ITER
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        LinearSVC(dual=False, max_iter=free.n_iter).fit(X, y)


@pytest.mark.parametrize(
    "parameters, message",
    [
        ({"penalty": "l3"}, "penalty must be 'l1' or 'l2'"),
        ({"penalty": "l1", "dual": True}, "not supported when dual=True"),
        ({"multi_class": "ovo"}, "multi_class must be 'ovr' or"),
        ({"loss": "hinge", "dual": False}, "not supported when dual=False"),
        ({"loss": "log"}, "loss must be"),
        ({"dual": "yes"}, "dual must be"),
        ({"C": 0.0}, "C must be a positive number"),
        ({"tol": -1.0}, "tol must be a positive number"),
        ({"max_iter": 2.5}, "max_iter must be a non-negative integer"),
        (
            {"intercept_scaling": 0.0},
            "intercept_scaling must be a positive",
        ),
        # named as the user named it, not as the solvers' "bias"
        (
            {"intercept_scaling": "1"},
            "intercept_scaling must be a positive",
        ),
        (
            {"intercept_scaling": np.inf},
            "intercept_scaling must be a positive",
        ),
        ({"class_weight": {7: 1.0}}, "class_weight names the class 7"),
    ],
)
def test_bad_parameters_raise_clear_errors(parameters, message):
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match=message):
        LinearSVC(**parameters).fit(X, y)


def test_bad_data_raise_clear_errors():
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match="only one class"):
        LinearSVC().fit(X, np.zeros(150))
    bad = X.copy()
    bad[3, 2] = np.nan
    with pytest.raises(ValueError, match="NaN at row 3, column 2"):
        LinearSVC().fit(bad, y)
    with pytest.raises(ValueError, match="weight is zero"):
        LinearSVC().fit(X, y, sample_weight=np.zeros(150))
    with pytest.raises(ValueError, match="class 1 has none"):
        LinearSVC().fit(X, y, sample_weight=(y != 1).astype(float))
    model = LinearSVC().fit(X, y)
    with pytest.raises(ValueError, match="4 features"):
        model.predict(X[:, :3])


def test_sparse_training_never_densifies():
    """A million features and 20,000 points with 20 non-zeros each: the
    dense matrix would take 160 GB; the fit stays within a few times the
    size of the CSR arrays (about 5 MB)."""
    rng = np.random.default_rng(0)
    n, d, per_row = 20_000, 1_000_000, 20
    columns = rng.integers(0, d, size=(n, per_row))
    X = sparse.csr_matrix(
        (
            rng.random(n * per_row),
            columns.ravel(),
            np.arange(0, n * per_row + 1, per_row),
        ),
        shape=(n, d),
    )
    X.sum_duplicates()
    y = (
        X[:, :500_000].sum(axis=1).A1 > X[:, 500_000:].sum(axis=1).A1
    ).astype(int)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        LinearSVC(dual=True, max_iter=5).fit(X[:100], y[:100])  # compiled
        tracemalloc.start()
        LinearSVC(dual=True, max_iter=50, random_state=0).fit(X, y)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 60 * 2**20  # the weights alone take 8 MB


# --- scikit-learn's estimator checks --------------------------------------

EQUIVALENCE = (
    "as for scikit-learn's own LinearSVC (which lists these checks as "
    "expected failures): a weight of 2 and a repeated point give the same "
    "problem, but coordinate descent stops within tol, so the decision "
    "values differ by about 1e-5 where the check allows 1e-7"
)
ESTIMATORS = [
    LinearSVC(),
    LinearSVC(loss="hinge"),
    LinearSVC(dual=True),
    LinearSVC(dual=False),
]


def expected_failures(estimator):
    """On the checks' weighted data (15 points, 30 features) every setting
    but dual=False runs coordinate descent."""
    if estimator.dual is False:
        return {}
    return {
        "check_sample_weight_equivalence_on_dense_data": EQUIVALENCE,
        "check_sample_weight_equivalence_on_sparse_data": EQUIVALENCE,
    }


@parametrize_with_checks(
    ESTIMATORS, expected_failed_checks=expected_failures, xfail_strict=True
)
def test_scikit_learn_estimator_checks(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        check(estimator)


def test_verbose_fit_reports_each_problem(capsys):
    """verbose=1 prints one line per two-class problem, naming its
    classes (it once raised NameError on the class label)."""
    X, y = load_iris(return_X_y=True)
    LinearSVC(verbose=1, max_iter=5000).fit(X, y)
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3
    assert all(line.startswith("[LinearSVC] class") for line in lines)


def test_sparsify_and_densify_keep_the_model():
    """sparsify stores coef_ as CSR with exactly the nonzero weights and
    changes no decision value; densify restores the dense array."""
    X, y = load_breast_cancer(return_X_y=True)
    X = StandardScaler().fit_transform(X)
    model = LinearSVC(C=0.01).fit(X, y)
    dense_coef = model.coef_.copy()
    before = model.decision_function(X)
    assert model.sparsify() is model
    assert sparse.issparse(model.coef_) and model.coef_.format == "csr"
    assert model.coef_.nnz == np.count_nonzero(dense_coef)
    np.testing.assert_array_equal(model.decision_function(X), before)
    # CSR rows sum in another order: equal to round-off
    np.testing.assert_allclose(
        model.decision_function(sparse.csr_matrix(X)), before, rtol=1e-12
    )
    assert model.densify() is model
    assert isinstance(model.coef_, np.ndarray)
    np.testing.assert_array_equal(model.coef_, dense_coef)


@pytest.mark.parametrize("C", [0.05, 1.0])
def test_the_l1_penalty_is_scikit_learns_model(C):
    """LinearSVC(penalty="l1") against scikit-learn's (LIBLINEAR's
    coordinate descent, -s 5): the same zero weights, and the objective
    of eq. (eq-l1-primal) within the tolerance."""
    X, y = breast_cancer()
    settings = dict(penalty="l1", C=C, tol=1e-7, max_iter=20_000)
    ours = LinearSVC(**settings, random_state=0).fit(X, y)
    theirs = LiblinearSVC(**settings, random_state=0).fit(X, y)
    np.testing.assert_array_equal(ours.coef_ != 0, theirs.coef_ != 0)
    assert np.abs(ours.coef_ - theirs.coef_).max() < 1e-3
    assert np.mean(ours.predict(X) == theirs.predict(X)) > 0.99
