"""Class and sample weights in svmlib.SVC: one bound C_t = C
class_weight[y_t] sample_weight_t per point.

- scikit-learn's SVC (LIBSVM) with the same weights, both at tol=1e-6,
  gives the same decision values, support sets, coefficients, intercepts
  and class weights, for every solver that takes weights;
- cvxopt, on the weighted dual written out here, gives the same
  multipliers;
- a point of weight 0 is a removed point, an integer weight a repeated
  point, and scaling every weight by s is scaling C by s;
- uniform weights change nothing, bit for bit;
- bad weights are refused, with clear messages, before any solver runs;
- scikit-learn's estimator checks pass with class_weight="balanced".
"""

import warnings

import numpy as np
import pytest
from sklearn import svm
from sklearn.datasets import (
    load_breast_cancer,
    load_iris,
    make_blobs,
    make_classification,
)
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC as LibsvmSVC
from sklearn.utils.estimator_checks import parametrize_with_checks

import svmlib
import svmlib.estimators.estimator
from svmlib import SVC, solve_qp

WEIGHTED_SOLVERS = ["auto", "smo", "batched"]
ONE_C_SOLVERS = ["platt", "simplified", "cvxopt"]
TOL = 1e-6


def load(name):
    """Standardised data: breast cancer (two classes), iris (three) and an
    imbalanced two-class set (85% against 15%)."""
    if name == "breast_cancer":
        X, y = load_breast_cancer(return_X_y=True)
    elif name == "iris":
        X, y = load_iris(return_X_y=True)
    else:
        X, y = make_classification(
            n_samples=200,
            n_features=5,
            n_informative=3,
            weights=[0.85],
            random_state=0,
        )
    return StandardScaler().fit_transform(X), y


def random_weights(n, seed=0, zeros=10):
    """Seeded sample weights in [0.2, 2], ``zeros`` of them set to 0."""
    rng = np.random.default_rng(seed)
    weights = rng.uniform(0.2, 2.0, n)
    weights[rng.choice(n, zeros, replace=False)] = 0.0
    return weights


def weightings(y):
    """(class_weight, sample_weight) for each kind of weighting."""
    classes = np.unique(y)
    return {
        "balanced": ("balanced", None),
        "dict": ({c: 0.5 + i for i, c in enumerate(classes)}, None),
        "partial dict": ({classes[-1]: 3.0}, None),
        "sample": (None, random_weights(y.size)),
        "balanced and sample": ("balanced", random_weights(y.size, 1)),
    }


def coefficients_by_row(model, X):
    """The model's dual coefficients as a dense (n_classes - 1, n_points)
    matrix, summed over identical rows of X (iris repeats some points, and
    the split of a coefficient between copies is not unique): a matrix with
    one column per distinct row, and the distinct rows it has a nonzero
    coefficient on."""
    _, group = np.unique(X, axis=0, return_inverse=True)
    group = group.ravel()
    dense = np.zeros((model.dual_coef_.shape[0], X.shape[0]))
    dense[:, model.support_] = model.dual_coef_
    summed = np.zeros((dense.shape[0], group.max() + 1))
    np.add.at(summed.T, group, dense.T)
    return summed, set(group[model.support_].tolist())


def libsvm_support(reference, sample_weight):
    """scikit-learn's support_ in the original indices: with points of
    weight 0, its support_ counts only the points of positive weight
    (its support_vectors_ are the right rows)."""
    if sample_weight is None:
        return reference.support_
    return np.flatnonzero(sample_weight > 0)[reference.support_]


@pytest.fixture(
    scope="module", params=["breast_cancer", "iris", "imbalanced"]
)
def data(request):
    return load(request.param)


@pytest.mark.parametrize("kernel", ["linear", "rbf"])
@pytest.mark.parametrize(
    "weighting",
    ["balanced", "dict", "partial dict", "sample", "balanced and sample"],
)
def test_weights_match_libsvm(data, kernel, weighting):
    X, y = data
    class_weight, sample_weight = weightings(y)[weighting]
    reference = LibsvmSVC(
        kernel=kernel, tol=TOL, class_weight=class_weight
    ).fit(X, y, sample_weight=sample_weight)
    f_ref = reference.decision_function(X)
    scale = np.abs(f_ref).max()
    reference_support = libsvm_support(reference, sample_weight)
    np.testing.assert_array_equal(
        X[reference_support], reference.support_vectors_
    )
    reference.support_ = reference_support
    coef_ref, support_ref = coefficients_by_row(reference, X)
    for solver in WEIGHTED_SOLVERS:
        model = SVC(
            kernel=kernel, tol=TOL, class_weight=class_weight, solver=solver
        ).fit(X, y, sample_weight=sample_weight)
        np.testing.assert_allclose(
            model.decision_function(X),
            f_ref,
            rtol=0,
            atol=1e-4 * scale,
            err_msg=solver,
        )
        coef, support = coefficients_by_row(model, X)
        assert support == support_ref, solver
        np.testing.assert_allclose(
            coef,
            coef_ref,
            rtol=0,
            atol=1e-3 * max(1.0, np.abs(coef_ref).max()),
            err_msg=solver,
        )
        np.testing.assert_allclose(
            model.intercept_,
            reference.intercept_,
            rtol=0,
            atol=1e-4 * max(1.0, np.abs(reference.intercept_).max()),
            err_msg=solver,
        )
        np.testing.assert_array_equal(model.classes_, reference.classes_)
        np.testing.assert_allclose(
            model.class_weight_, reference.class_weight_, rtol=1e-14
        )


def test_class_weight_values_are_scikit_learns_rule():
    X, y = load("imbalanced")
    counts = np.bincount(y)
    model = SVC(class_weight="balanced").fit(X, y)
    np.testing.assert_allclose(
        model.class_weight_, y.size / (2 * counts), rtol=1e-15
    )
    model = SVC(class_weight={1: 2.5}).fit(X, y)
    np.testing.assert_array_equal(model.class_weight_, [1.0, 2.5])
    np.testing.assert_array_equal(SVC().fit(X, y).class_weight_, [1, 1])


def small_binary(seed=3, n=40):
    """Two overlapping Gaussian classes with string labels."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    y = np.where(np.arange(n) % 2 == 0, "no", "yes")
    X[y == "yes"] += 1.0
    return X, y


@pytest.mark.parametrize("solver", WEIGHTED_SOLVERS)
def test_weighted_dual_matches_cvxopt(solver):
    X, labels = small_binary()
    gamma, C = 0.7, 2.0
    class_weight = {"no": 0.5, "yes": 3.0}
    sample_weight = np.random.default_rng(4).uniform(0.1, 2.0, labels.size)
    model = SVC(
        C=C,
        gamma=gamma,
        tol=TOL,
        solver=solver,
        class_weight=class_weight,
    ).fit(X, labels, sample_weight=sample_weight)
    # +1 for classes_[0]: the layout of the two-class problem
    y = np.where(labels == model.classes_[0], 1.0, -1.0)
    bounds = (
        C
        * np.array([class_weight[label] for label in labels])
        * sample_weight
    )
    Q = np.outer(y, y) * rbf_kernel(X, gamma=gamma)
    m = y.size
    expected = solve_qp(
        Q,
        -np.ones(m),
        np.vstack([np.eye(m), -np.eye(m)]),
        np.r_[bounds, np.zeros(m)],
        A_eq=y[None, :],
        b_eq=np.zeros(1),
    ).x
    alpha = np.zeros(m)
    # for two classes dual_coef_ = -(alpha * y)
    alpha[model.support_] = -model.dual_coef_[0] * y[model.support_]
    assert (alpha >= 0).all()
    assert (alpha <= bounds * (1 + 1e-12)).all()
    assert np.abs(alpha - expected).max() < 1e-4 * bounds.max()
    objective = 0.5 * alpha @ Q @ alpha - alpha.sum()
    optimum = 0.5 * expected @ Q @ expected - expected.sum()
    assert objective == pytest.approx(optimum, rel=1e-6)
    # the offset: y_t f(x_t) = 1 on the free points, with f positive for
    # classes_[0] (the decision function is -f)
    free = (expected > 1e-3 * bounds) & (expected < (1 - 1e-3) * bounds)
    assert free.sum() >= 2
    f_without_b = (Q @ expected) * y
    b = np.median(y[free] - f_without_b[free])
    assert model.intercept_[0] == pytest.approx(-b, abs=1e-4)


def fit_both(X, y, sample_weight, solver, **parameters):
    """The model with weights (some 0) and the model on the points of
    positive weight only."""
    kept = np.flatnonzero(sample_weight > 0)
    with_zeros = SVC(solver=solver, **parameters).fit(
        X, y, sample_weight=sample_weight
    )
    removed = SVC(solver=solver, **parameters).fit(
        X[kept], y[kept], sample_weight=sample_weight[kept]
    )
    return kept, with_zeros, removed


@pytest.mark.parametrize("solver", WEIGHTED_SOLVERS)
@pytest.mark.parametrize("name", ["breast_cancer", "iris"])
def test_a_zero_weight_is_a_removed_point(name, solver):
    X, y = load(name)
    # a fixed gamma: gamma="scale" would see the points of weight 0
    sample_weight = random_weights(y.size, seed=5, zeros=25)
    kept, with_zeros, removed = fit_both(
        X, y, sample_weight, solver, gamma=0.1, tol=1e-4
    )
    # the zeros must matter: some would be support vectors otherwise
    full = SVC(solver=solver, gamma=0.1, tol=1e-4).fit(
        X, y, sample_weight=np.where(sample_weight > 0, sample_weight, 1)
    )
    assert not set(full.support_) <= set(kept.tolist())
    np.testing.assert_allclose(
        with_zeros.decision_function(X),
        removed.decision_function(X),
        rtol=0,
        atol=1e-10,
    )
    np.testing.assert_array_equal(
        with_zeros.support_, kept[removed.support_]
    )
    np.testing.assert_allclose(
        with_zeros.dual_coef_, removed.dual_coef_, rtol=0, atol=1e-10
    )
    np.testing.assert_array_equal(with_zeros.n_support_, removed.n_support_)
    assert set(with_zeros.support_.tolist()) <= set(kept.tolist())


@pytest.mark.parametrize("solver", WEIGHTED_SOLVERS)
def test_zero_weights_with_a_precomputed_kernel(solver):
    """A precomputed kernel's columns are the original points: with
    points of weight 0, svmlib's support_ still picks the right ones (the
    model equals the linear kernel's).  scikit-learn's own SVC gets this
    wrong (its support_ counts only the points of positive weight), so it
    is compared here with its linear kernel."""
    X, y = load("iris")
    K = X @ X.T
    sample_weight = random_weights(y.size, seed=8, zeros=20)
    model = SVC(
        kernel="precomputed",
        tol=TOL,
        solver=solver,
        class_weight="balanced",
    ).fit(K, y, sample_weight=sample_weight)
    f = (
        LibsvmSVC(kernel="linear", tol=TOL, class_weight="balanced")
        .fit(X, y, sample_weight=sample_weight)
        .decision_function(X)
    )
    np.testing.assert_allclose(
        model.decision_function(K),
        f,
        rtol=0,
        atol=1e-4 * np.abs(f).max(),
    )
    assert set(model.support_.tolist()) <= set(
        np.flatnonzero(sample_weight > 0).tolist()
    )


def test_a_multiclass_class_of_zero_weights_is_refused():
    X, y = load("iris")
    with pytest.raises(ValueError, match="class 2 has none"):
        SVC().fit(X, y, sample_weight=np.where(y == 2, 0.0, 1.0))


@pytest.mark.parametrize("solver", WEIGHTED_SOLVERS)
@pytest.mark.parametrize("name", ["breast_cancer", "iris"])
def test_an_integer_weight_is_a_repeated_point(name, solver):
    X, y = load(name)
    repeats = np.random.default_rng(6).integers(1, 4, y.size)
    repeats[:3] = 3  # at least one 3, and not all ones
    weighted = SVC(solver=solver, gamma=0.1, tol=TOL).fit(
        X, y, sample_weight=repeats
    )
    repeated = SVC(solver=solver, gamma=0.1, tol=TOL).fit(
        np.repeat(X, repeats, axis=0), np.repeat(y, repeats)
    )
    f = repeated.decision_function(X)
    np.testing.assert_allclose(
        weighted.decision_function(X),
        f,
        rtol=0,
        atol=1e-4 * np.abs(f).max(),
    )
    # the models differ from the unweighted one: the test can fail
    unweighted = SVC(solver=solver, gamma=0.1, tol=TOL).fit(X, y)
    assert (
        np.abs(unweighted.decision_function(X) - f).max()
        > 1e-2 * np.abs(f).max()
    )


@pytest.mark.parametrize("solver", WEIGHTED_SOLVERS)
def test_scaling_every_weight_is_scaling_c(solver):
    X, y = load("iris")
    weights = random_weights(y.size, seed=7, zeros=5)
    s = 4.0
    scaled = SVC(solver=solver, tol=TOL).fit(
        X, y, sample_weight=s * weights
    )
    larger_c = SVC(solver=solver, C=s, tol=TOL).fit(
        X, y, sample_weight=weights
    )
    # the same bounds C_t, so the same problem
    np.testing.assert_array_equal(
        scaled.decision_function(X), larger_c.decision_function(X)
    )
    np.testing.assert_array_equal(scaled.support_, larger_c.support_)
    # uniform weights s against C = s: the weighted path against the
    # unweighted one, the same problem solved to the tolerance
    uniform = SVC(solver=solver, tol=TOL).fit(
        X, y, sample_weight=np.full(y.size, s)
    )
    plain = SVC(solver=solver, C=s, tol=TOL).fit(X, y)
    f = plain.decision_function(X)
    np.testing.assert_allclose(
        uniform.decision_function(X),
        f,
        rtol=0,
        atol=1e-4 * np.abs(f).max(),
    )
    assert (
        np.abs(
            SVC(solver=solver, tol=TOL).fit(X, y).decision_function(X) - f
        ).max()
        > 1e-2 * np.abs(f).max()
    )


# the simplified SMO may stop above its tolerance: the same on both paths
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("solver", WEIGHTED_SOLVERS + ONE_C_SOLVERS)
@pytest.mark.parametrize("name", ["breast_cancer", "iris"])
def test_uniform_weights_change_nothing(name, solver):
    X, y = load(name)
    if solver in ONE_C_SOLVERS:
        X, y = X[::4], y[::4]  # the slow solvers: fewer points
    parameters = dict(solver=solver, random_state=0)
    plain = SVC(**parameters).fit(X, y)
    ones = {label: 1 for label in np.unique(y).tolist()}
    for class_weight, sample_weight in [
        (None, np.ones(y.size)),
        (None, [1] * y.size),
        (None, 1.0),
        (ones, None),
        ({y[0]: 1.0}, np.ones(y.size)),
    ]:
        model = SVC(class_weight=class_weight, **parameters).fit(
            X, y, sample_weight=sample_weight
        )
        assert np.array_equal(
            model.decision_function(X), plain.decision_function(X)
        )
        assert np.array_equal(model.support_, plain.support_)
        assert np.array_equal(model.dual_coef_, plain.dual_coef_)
        assert np.array_equal(model.intercept_, plain.intercept_)
        assert np.array_equal(model.n_iter_, plain.n_iter_)
        np.testing.assert_array_equal(model.class_weight_, 1.0)


def never_called(*args, **kwargs):
    raise AssertionError("a solver ran on bad input")


IMBALANCED_X = np.array(
    [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [2.0, 2.0], [3.0, 2.0], [2.0, 3.0]]
)
IMBALANCED_Y = np.array([0, 0, 0, 0, 1, 1])
N = IMBALANCED_Y.size

BAD_WEIGHTS = [
    (
        "NaN sample weight",
        {},
        [1, 1, np.nan, 1, 1, 1],
        "sample_weight must be finite",
    ),
    (
        "inf sample weight",
        {},
        [1, 1, np.inf, 1, 1, 1],
        "sample_weight must be finite",
    ),
    (
        "too few sample weights",
        {},
        np.ones(N - 1),
        r"one number per sample \(6\); got shape \(5,\)",
    ),
    (
        "two-dimensional sample weights",
        {},
        np.ones((N, 1)),
        r"one number per sample \(6\); got shape \(6, 1\)",
    ),
    (
        "string sample weights",
        {},
        ["a"] * N,
        "sample_weight must contain numbers; got list",
    ),
    (
        "string sample weight",
        {},
        "heavy",
        "sample_weight must contain numbers; got str",
    ),
    (
        "class weight list",
        dict(class_weight=[1, 2]),
        None,
        "class_weight must be None, 'balanced' or a dict",
    ),
    (
        "class weight unknown string",
        dict(class_weight="auto"),
        None,
        "class_weight must be None, 'balanced' or a dict",
    ),
    (
        "class weight unknown label",
        dict(class_weight={0: 1.0, 5: 2.0}),
        None,
        r"class_weight names the class 5, which is not in y "
        r"\(its classes are \[0, 1\]\)",
    ),
    (
        "negative class weight",
        dict(class_weight={1: -1.0}),
        None,
        r"class_weight\[1\] must be a non-negative number; got -1.0",
    ),
    (
        "NaN class weight",
        dict(class_weight={1: np.nan}),
        None,
        r"class_weight\[1\] must be a non-negative number; got nan",
    ),
    (
        "inf class weight",
        dict(class_weight={1: np.inf}),
        None,
        r"class_weight\[1\] must be a non-negative number; got inf",
    ),
    (
        "bool class weight",
        dict(class_weight={1: True}),
        None,
        r"class_weight\[1\] must be a non-negative number; got True",
    ),
    (
        "string class weight",
        dict(class_weight={1: "2"}),
        None,
        r"class_weight\[1\] must be a non-negative number; got '2'",
    ),
    (
        "all sample weights zero",
        {},
        np.zeros(N),
        "all samples have zero or negative weights",
    ),
    (
        "all class weights zero",
        dict(class_weight={0: 0, 1: 0}),
        None,
        "all samples have zero or negative weights",
    ),
    (
        "a class of zero weight",
        dict(class_weight={0: 0.0}),
        None,
        "all samples with positive weights belong to the same class: "
        "class 1",
    ),
    (
        "a class of zero sample weights",
        {},
        [1, 2, 1, 1, 0, 0],
        "all samples with positive weights belong to the same class: "
        "class 0",
    ),
    *[
        (
            f"{solver} with class weights",
            dict(solver=solver, class_weight="balanced"),
            None,
            f"solver '{solver}' takes one C for every point.*"
            "need one of \\('auto', 'smo', 'batched'\\)",
        )
        for solver in ONE_C_SOLVERS
    ],
    *[
        (
            f"{solver} with sample weights",
            dict(solver=solver),
            [1, 1, 1, 1, 2, 1],
            f"solver '{solver}' takes one C for every point",
        )
        for solver in ONE_C_SOLVERS
    ],
]


@pytest.mark.parametrize(
    "parameters, sample_weight, message",
    [case[1:] for case in BAD_WEIGHTS],
    ids=[case[0] for case in BAD_WEIGHTS],
)
def test_bad_weights_are_refused_before_any_solver_runs(
    monkeypatch, parameters, sample_weight, message
):
    monkeypatch.setattr(
        svmlib.estimators.estimator, "train_pairs", never_called
    )
    with pytest.raises(ValueError, match=message):
        SVC(**parameters).fit(
            IMBALANCED_X, IMBALANCED_Y, sample_weight=sample_weight
        )


def test_bad_weights_leave_a_fitted_model_unchanged():
    X, y = make_blobs(40, centers=2, random_state=0)
    model = SVC().fit(X, y)
    support = model.support_.copy()
    with pytest.raises(ValueError):
        model.fit(X, y, sample_weight=-np.ones(y.size))
    np.testing.assert_array_equal(model.support_, support)


@pytest.mark.parametrize("name", ["breast_cancer", "iris"])
def test_a_negative_weight_removes_its_point_as_in_libsvm(name):
    """As scikit-learn's LIBSVM does: a point of negative weight is left
    out, exactly as one of weight 0, and the model is scikit-learn's."""
    X, y = load(name)
    weights = random_weights(y.size, seed=3, zeros=0)
    negative = np.random.default_rng(4).choice(y.size, 20, replace=False)
    weights[negative] = -np.linspace(0.1, 5.0, 20)
    with_negative = SVC(gamma=0.1, tol=1e-4).fit(
        X, y, sample_weight=weights
    )
    with_zeros = SVC(gamma=0.1, tol=1e-4).fit(
        X, y, sample_weight=np.maximum(weights, 0.0)
    )
    np.testing.assert_array_equal(
        with_negative.support_, with_zeros.support_
    )
    np.testing.assert_array_equal(
        with_negative.dual_coef_, with_zeros.dual_coef_
    )
    theirs = LibsvmSVC(gamma=0.1, tol=1e-4).fit(X, y, sample_weight=weights)
    f = theirs.decision_function(X)
    np.testing.assert_allclose(
        with_negative.decision_function(X),
        f,
        rtol=0,
        atol=1e-2 * np.abs(f).max(),
    )


EQUIVALENCE = (
    "as for scikit-learn's own SVC: sample_weight is not equivalent to "
    "removing/repeating samples (the solvers stop at different points "
    "within their tolerance)"
)


def expected_failures(estimator):
    # the check's sparse data are dense enough to be trained on their
    # dense copy (svmlib.estimators.estimator.working_points): the same as
    # dense
    return {
        "check_sample_weight_equivalence_on_dense_data": EQUIVALENCE,
        "check_sample_weight_equivalence_on_sparse_data": EQUIVALENCE,
    }


@parametrize_with_checks(
    [
        SVC(class_weight="balanced"),
        SVC(kernel="linear", class_weight="balanced"),
    ],
    expected_failed_checks=expected_failures,
    xfail_strict=True,
)
def test_scikit_learn_estimator_checks_with_balanced_weights(
    estimator, check
):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        check(estimator)


# --------------------------------------------------------------------------
# The other estimators: the same bounds in their problems (LIBSVM's rules)


def family_case(name):
    """(svmlib class, scikit-learn class, parameters, X, y, weights) with
    random weights, some of them 0, and a fixed gamma."""
    rng = np.random.default_rng(21)
    if name in ("SVR", "NuSVR"):
        X = rng.normal(size=(80, 3))
        y = np.sin(X[:, 0]) + 0.1 * rng.normal(size=80)
    elif name == "OneClassSVM":
        X, y = rng.normal(size=(80, 2)), None
    else:
        X = StandardScaler().fit_transform(load_iris().data)
        y = load_iris().target
    weights = rng.uniform(0.3, 2.5, size=len(X))
    weights[::6] = 0.0
    parameters = {"gamma": 0.4, "tol": 1e-6}
    if name != "SVR":
        parameters["nu"] = 0.3
    return (
        getattr(svmlib, name),
        getattr(svm, name),
        parameters,
        X,
        y,
        weights,
    )


FAMILY = ["SVR", "NuSVR", "OneClassSVM", "NuSVC"]


def family_values(model, X):
    if hasattr(model, "decision_function"):
        return model.decision_function(X)
    return model.predict(X)


@pytest.mark.parametrize("name", FAMILY)
def test_family_sample_weights_agree_with_libsvm(name):
    """Each estimator with random sample weights (a few 0) against
    scikit-learn's with the same: the same support vectors and values."""
    ours_class, their_class, parameters, X, y, w = family_case(name)
    ours = ours_class(**parameters).fit(X, y, sample_weight=w)
    theirs = their_class(**parameters).fit(X, y, sample_weight=w)
    np.testing.assert_allclose(
        family_values(ours, X), family_values(theirs, X), atol=1e-5
    )
    unweighted = ours_class(**parameters).fit(X, y)
    assert not np.allclose(
        family_values(ours, X), family_values(unweighted, X), atol=1e-3
    )
    # scikit-learn's support_ counts only the points of positive weight
    np.testing.assert_allclose(
        ours.support_vectors_, theirs.support_vectors_, atol=0
    )


@pytest.mark.parametrize("name", FAMILY)
def test_family_zero_weight_is_removal(name):
    """A point of weight 0 is left out: the model is that of the data
    without it, and support_ indexes the original rows."""
    ours_class, _, parameters, X, y, w = family_case(name)
    kept = w > 0
    zero = ours_class(**parameters).fit(X, y, sample_weight=w)
    removed = ours_class(**parameters).fit(
        X[kept], None if y is None else y[kept], sample_weight=w[kept]
    )
    np.testing.assert_allclose(
        family_values(zero, X), family_values(removed, X), atol=1e-10
    )
    np.testing.assert_array_equal(
        zero.support_, np.flatnonzero(kept)[removed.support_]
    )


@pytest.mark.parametrize("name", FAMILY)
@pytest.mark.parametrize(
    "weights, message",
    [
        (-np.ones(80), "all samples have zero or negative weights"),
        (np.zeros(80), "all samples have zero or negative weights"),
        (np.full(80, np.nan), "sample_weight must be finite"),
        (np.ones(5), "one number per sample"),
    ],
)
def test_family_bad_sample_weights_are_refused(name, weights, message):
    ours_class, _, parameters, X, y, _ = family_case(name)
    if weights.size == 80:  # one per point of this data set
        weights = np.resize(weights, len(X))
    with pytest.raises(ValueError, match=message):
        ours_class(**parameters).fit(X, y, sample_weight=weights)
