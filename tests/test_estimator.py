"""svmlib.SVC: labels and signs, the fitted attributes, the kernels, errors
before any solver runs, warnings, and use inside scikit-learn's tools."""

import pickle
import warnings

import numpy as np
import pytest
import scipy.sparse
from sklearn.base import clone
from sklearn.datasets import load_breast_cancer, load_iris, make_blobs
from sklearn.exceptions import ConvergenceWarning, NotFittedError
from sklearn.metrics.pairwise import pairwise_kernels
from sklearn.model_selection import GridSearchCV, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC as LibsvmSVC

import svmlib.estimators.estimator
from svmlib import SVC


@pytest.fixture(scope="module")
def cancer():
    X, y = load_breast_cancer(return_X_y=True)
    return StandardScaler().fit_transform(X), y


@pytest.fixture(scope="module")
def iris():
    return load_iris(return_X_y=True)


def test_binary_decision_is_the_kernel_expansion_positive_for_classes_1(
    cancer,
):
    X, y = cancer
    model = SVC().fit(X, y)
    K = pairwise_kernels(
        X,
        model.support_vectors_,
        metric="rbf",
        gamma=1 / (X.shape[1] * X.var()),
    )
    f = K @ model.dual_coef_[0] + model.intercept_[0]
    np.testing.assert_allclose(
        model.decision_function(X), f, rtol=0, atol=1e-10
    )
    assert np.array_equal(
        model.predict(X), model.classes_[(f > 0).astype(int)]
    )
    reference = LibsvmSVC().fit(X, y)
    assert (
        np.corrcoef(
            model.decision_function(X), reference.decision_function(X)
        )[0, 1]
        > 0.9999
    )
    assert model.dual_coef_.shape == (
        1,
        model.support_.size,
    ) and model.intercept_.shape == (1,)
    assert (
        model.n_iter_.shape == (1,)
        and model.objective_.shape == (1,)
        and model.fit_status_ == 0
    )


def test_objective_is_the_dual_objective_of_the_fitted_multipliers(cancer):
    X, y = cancer
    model = SVC(kernel="linear", C=0.3).fit(X, y)
    v = model.dual_coef_[0]
    K = model.support_vectors_ @ model.support_vectors_.T
    np.testing.assert_allclose(
        model.objective_[0], 0.5 * v @ K @ v - np.abs(v).sum(), rtol=1e-12
    )
    assert np.all(np.abs(v) <= 0.3) and abs(v.sum()) < 1e-10


@pytest.mark.parametrize(
    "labels",
    [
        np.array(["malignant", "benign"]),
        np.array([-1, 1]),
        np.array([2.0, 7.0]),
        np.array([10, -3]),
        np.array(["b", "a"], dtype=object),
    ],
)
def test_any_labels_give_the_same_model(cancer, labels):
    X, y = cancer
    named = labels[y]
    model = SVC().fit(X, named)
    assert np.array_equal(model.classes_, np.unique(named))
    predicted = model.predict(X)
    assert predicted.dtype == model.classes_.dtype
    reference = SVC().fit(X, (named == model.classes_[1]).astype(int))
    assert np.array_equal(
        predicted == model.classes_[1], reference.predict(X) == 1
    )


def test_multiclass_attributes_have_scikit_learns_shapes(iris):
    X, y = iris
    model = SVC().fit(X, y)
    assert model.dual_coef_.shape == (2, model.support_.size)
    assert (
        model.intercept_.shape == (3,)
        and model.n_iter_.shape == (3,)
        and model.objective_.shape == (3,)
    )
    assert (
        model.n_support_.sum() == model.support_.size
        and model.support_.dtype == np.int32
    )
    np.testing.assert_array_equal(model.support_vectors_, X[model.support_])
    assert model.decision_function(X).shape == (150, 3)
    ovo = SVC(decision_function_shape="ovo").fit(X, y).decision_function(X)
    assert ovo.shape == (150, 3)  # three pairs for three classes
    np.testing.assert_allclose(
        ovo,
        LibsvmSVC(decision_function_shape="ovo")
        .fit(X, y)
        .decision_function(X),
        atol=2e-3,
    )


def test_string_labels_with_many_classes(iris):
    X, y = iris
    names = np.array(["setosa", "versicolor", "virginica"])[y]
    by_name, by_number = SVC().fit(X, names), SVC().fit(X, y)
    assert by_name.classes_.tolist() == [
        "setosa",
        "versicolor",
        "virginica",
    ]
    assert np.array_equal(
        by_name.predict(X), by_name.classes_[by_number.predict(X)]
    )


def test_break_ties_predicts_the_largest_score():
    X, y = make_blobs(
        n_samples=120, centers=4, cluster_std=3.0, random_state=0
    )
    model = SVC(break_ties=True).fit(X, y)
    assert np.array_equal(
        model.predict(X),
        model.classes_[np.argmax(model.decision_function(X), axis=1)],
    )
    # as in scikit-learn: refused when predicting, not when fitting
    ovo = SVC(break_ties=True, decision_function_shape="ovo").fit(X, y)
    with pytest.raises(
        ValueError,
        match="break_ties must be False when decision_function_shape is",
    ):
        ovo.predict(X)


def linear_gram(A, B):
    return A @ B.T


def test_kernel_as_a_name_a_function_or_a_matrix_gives_the_same_model(iris):
    X, y = iris
    X = X - X.mean(axis=0)
    by_name = SVC(kernel="linear").fit(X, y)
    by_function = SVC(kernel=linear_gram).fit(X, y)
    by_matrix = SVC(kernel="precomputed").fit(X @ X.T, y)
    assert np.array_equal(by_name.support_, by_function.support_)
    assert np.array_equal(by_name.support_, by_matrix.support_)
    np.testing.assert_allclose(
        by_function.decision_function(X),
        by_name.decision_function(X),
        atol=1e-8,
    )
    np.testing.assert_allclose(
        by_matrix.decision_function(X @ X.T),
        by_name.decision_function(X),
        atol=1e-8,
    )
    assert by_matrix.support_vectors_.shape == (0, 0)
    with pytest.raises(
        ValueError,
        match="X has 4 features, but SVC is expecting 150 features",
    ):
        by_matrix.predict(X)


def test_coef_is_scikit_learns_for_the_linear_kernel(iris, cancer):
    for X, y in (iris, cancer):
        ours, theirs = (
            SVC(kernel="linear").fit(X, y),
            LibsvmSVC(kernel="linear").fit(X, y),
        )
        np.testing.assert_allclose(
            ours.coef_, theirs.coef_, atol=1e-3 * np.abs(theirs.coef_).max()
        )
    with pytest.raises(AttributeError, match="kernel='linear'"):
        _ = SVC().fit(*iris).coef_


def test_prediction_in_blocks_equals_prediction_at_once(iris, monkeypatch):
    X, y = iris
    model = SVC().fit(X, y)
    at_once = model.decision_function(X)
    monkeypatch.setattr(
        svmlib.estimators.estimator,
        "PREDICTION_BLOCK_BYTES",
        8 * model.support_.size * 7,
    )
    np.testing.assert_allclose(
        model.decision_function(X), at_once, rtol=0, atol=1e-12
    )


def test_random_state_makes_platt_and_the_simplified_smo_repeatable(iris):
    X, y = iris
    for solver in ("platt", "simplified"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            first = SVC(solver=solver, random_state=3).fit(X, y)
            second = SVC(solver=solver, random_state=3).fit(X, y)
        np.testing.assert_array_equal(first.dual_coef_, second.dual_coef_)


@pytest.mark.parametrize(
    "solver, max_iter",
    [
        ("auto", 3),
        ("smo", 3),
        ("platt", 2),
        ("simplified", 1),
        ("cvxopt", 2),
    ],
)
def test_max_iter_stops_the_solver_with_a_convergence_warning(
    cancer, solver, max_iter
):
    X, y = cancer
    with pytest.warns(
        ConvergenceWarning,
        match=f"solver '{solver}' did not reach tol=0.001 in 1 of 1",
    ):
        model = SVC(solver=solver, max_iter=max_iter, random_state=0).fit(
            X, y
        )
    assert model.fit_status_ == 1 and model.n_iter_.tolist() == [max_iter]


def test_verbose_prints_libsvms_report_for_each_pair(iris, capsys):
    X, y = iris
    SVC(verbose=True).fit(X, y)
    out = capsys.readouterr().out
    assert (
        out.count("optimization finished (optimal)") == 3
        and out.count("nSV = ") == 3
    )
    assert "[auto] class 0 (+1) against class 1 (-1), 100 points" in out
    SVC().fit(X, y)
    assert capsys.readouterr().out == ""


def test_works_inside_pipelines_and_grid_searches(cancer):
    X, y = cancer
    ours = cross_val_score(
        make_pipeline(StandardScaler(), SVC()), X, y, cv=5
    )
    theirs = cross_val_score(
        make_pipeline(StandardScaler(), LibsvmSVC()), X, y, cv=5
    )
    assert np.all(
        np.abs(ours - theirs) <= 1 / 113 + 1e-12
    )  # at most one test point per fold
    search = GridSearchCV(
        SVC(), {"C": [0.1, 1.0], "gamma": ["scale", 0.01]}, cv=3
    ).fit(X, y)
    assert (
        set(search.best_params_) == {"C", "gamma"}
        and search.best_score_ > 0.9
    )
    assert (
        clone(SVC(C=3.0, solver="platt")).get_params()["solver"] == "platt"
    )


def test_pickled_model_predicts_the_same(iris):
    X, y = iris
    model = SVC().fit(X, y)
    np.testing.assert_array_equal(
        pickle.loads(pickle.dumps(model)).decision_function(X),
        model.decision_function(X),
    )


def never_called(*args, **kwargs):
    raise AssertionError("a solver ran although the input was invalid")


X_GOOD = np.arange(24, dtype=float).reshape(8, 3) % 5
Y_GOOD = np.array([0, 1] * 4)
X_NAN = X_GOOD.copy()
X_NAN[2, 1] = np.nan
X_INF = X_GOOD.copy()
X_INF[5, 0] = -np.inf

BAD_INPUTS = [
    (
        "C=0",
        dict(C=0),
        X_GOOD,
        Y_GOOD,
        ValueError,
        "C must be a positive number",
    ),
    (
        "C=-1",
        dict(C=-1.0),
        X_GOOD,
        Y_GOOD,
        ValueError,
        "C must be a positive number",
    ),
    (
        "C=inf",
        dict(C=np.inf),
        X_GOOD,
        Y_GOOD,
        ValueError,
        "C = inf asks for a hard margin",
    ),
    (
        "C='1'",
        dict(C="1"),
        X_GOOD,
        Y_GOOD,
        ValueError,
        "C must be a positive number",
    ),
    (
        "tol=0",
        dict(tol=0.0),
        X_GOOD,
        Y_GOOD,
        ValueError,
        "tol must be a positive number",
    ),
    (
        "tol=nan",
        dict(tol=np.nan),
        X_GOOD,
        Y_GOOD,
        ValueError,
        "tol must be a positive number",
    ),
    (
        "kernel",
        dict(kernel="gaussian"),
        X_GOOD,
        Y_GOOD,
        ValueError,
        "unknown kernel 'gaussian'; choose one of",
    ),
    (
        "solver",
        dict(solver="libsvm"),
        X_GOOD,
        Y_GOOD,
        ValueError,
        "unknown solver 'libsvm'; choose one of",
    ),
    (
        "gamma=0",
        dict(gamma=0.0),
        X_GOOD,
        Y_GOOD,
        ValueError,
        "gamma must be a positive number",
    ),
    (
        "gamma=-2",
        dict(gamma=-2),
        X_GOOD,
        Y_GOOD,
        ValueError,
        "gamma must be a positive number",
    ),
    (
        "gamma rule",
        dict(gamma="scaled"),
        X_GOOD,
        Y_GOOD,
        ValueError,
        "unknown gamma rule 'scaled'",
    ),
    (
        "degree=-1",
        dict(degree=-1),
        X_GOOD,
        Y_GOOD,
        ValueError,
        "degree must be a non-negative integer",
    ),
    (
        "degree=2.5",
        dict(degree=2.5),
        X_GOOD,
        Y_GOOD,
        ValueError,
        "degree must be a non-negative integer",
    ),
    (
        "coef0=nan",
        dict(coef0=np.nan),
        X_GOOD,
        Y_GOOD,
        ValueError,
        "coef0 must be a finite number",
    ),
    (
        "cache_size",
        dict(cache_size=0),
        X_GOOD,
        Y_GOOD,
        ValueError,
        "cache_size must be a positive number",
    ),
    (
        "max_iter=0",
        dict(max_iter=0),
        X_GOOD,
        Y_GOOD,
        ValueError,
        "max_iter must be -1 .no limit. or a positive",
    ),
    (
        "max_iter=1.5",
        dict(max_iter=1.5),
        X_GOOD,
        Y_GOOD,
        ValueError,
        "max_iter must be -1",
    ),
    (
        "shrinking",
        dict(shrinking="yes"),
        X_GOOD,
        Y_GOOD,
        ValueError,
        "shrinking must be True or False",
    ),
    (
        "verbose",
        dict(verbose="yes"),
        X_GOOD,
        Y_GOOD,
        ValueError,
        "verbose must be True or False or a non-neg",
    ),
    (
        "verbose=-1",
        dict(verbose=-1),
        X_GOOD,
        Y_GOOD,
        ValueError,
        "verbose must be True or False",
    ),
    (
        "shape",
        dict(decision_function_shape="ovx"),
        X_GOOD,
        Y_GOOD,
        ValueError,
        "unknown decision_function_shape",
    ),
    (
        "random_state",
        dict(random_state=-1),
        X_GOOD,
        Y_GOOD,
        ValueError,
        "random_state must be None, a non-negative",
    ),
    (
        "random_state str",
        dict(random_state="0"),
        X_GOOD,
        Y_GOOD,
        ValueError,
        "random_state must be None",
    ),
    (
        "NaN",
        {},
        X_NAN,
        Y_GOOD,
        ValueError,
        r"X contains NaN at row 2, column 1 \(1 non-finite",
    ),
    (
        "inf",
        {},
        X_INF,
        Y_GOOD,
        ValueError,
        r"X contains an infinite value \(inf\) at row 5, column 0",
    ),
    (
        "text",
        {},
        [["1", "x"], ["2", "3"]],
        [0, 1],
        ValueError,
        "X must contain numbers only",
    ),
    (
        "object",
        {},
        np.array([[1.0, {"a": 1}], [2.0, 3.0]], dtype=object),
        [0, 1],
        TypeError,
        "float",
    ),
    (
        "complex",
        {},
        X_GOOD + 1j,
        Y_GOOD,
        ValueError,
        "Complex data not supported",
    ),
    (
        "sparse Gram matrix",
        {"kernel": "precomputed"},
        scipy.sparse.csr_matrix(X_GOOD @ X_GOOD.T),
        Y_GOOD,
        TypeError,
        "Sparse precomputed kernels are not supported",
    ),
    (
        "sparse NaN",
        {},
        scipy.sparse.csr_matrix(X_NAN),
        Y_GOOD,
        ValueError,
        r"X contains NaN at row \d+, column \d+",
    ),
    (
        "1-D X",
        {},
        X_GOOD[:, 0],
        Y_GOOD,
        ValueError,
        "Expected 2D array, got 1D array",
    ),
    (
        "lengths",
        {},
        X_GOOD,
        Y_GOOD[:7],
        ValueError,
        "X has 8 samples but y has 7 labels",
    ),
    (
        "empty",
        {},
        np.empty((0, 3)),
        np.empty(0),
        ValueError,
        r"0 sample\(s\)",
    ),
    (
        "no features",
        {},
        np.empty((8, 0)),
        Y_GOOD,
        ValueError,
        r"0 feature\(s\)",
    ),
    (
        "one class",
        {},
        X_GOOD,
        np.ones(8),
        ValueError,
        r"y contains only one class \(1.0\)",
    ),
    (
        "one string class",
        {},
        X_GOOD,
        ["a"] * 8,
        ValueError,
        r"y contains only one class \('a'\)",
    ),
    (
        "continuous y",
        {},
        X_GOOD,
        np.linspace(0, 1, 8),
        ValueError,
        "Unknown label type: continuous",
    ),
    ("y None", {}, X_GOOD, None, ValueError, "requires y to be passed"),
    (
        "kernel shape",
        dict(kernel=lambda A, B: A @ B.T[:, :2]),
        X_GOOD,
        Y_GOOD,
        ValueError,
        r"the kernel function returned an array of shape \(8, 2\) "
        "for the training points",
    ),
    (
        "kernel NaN",
        dict(kernel=lambda A, B: np.full((len(A), len(B)), np.nan)),
        X_GOOD,
        Y_GOOD,
        ValueError,
        "the kernel function's output contains NaN",
    ),
    (
        "not square",
        dict(kernel="precomputed"),
        X_GOOD,
        Y_GOOD,
        ValueError,
        "must be the square Gram matrix",
    ),
    (
        "not symmetric",
        dict(kernel="precomputed"),
        np.triu(np.ones((8, 8))),
        Y_GOOD,
        ValueError,
        "must be symmetric",
    ),
]


@pytest.mark.parametrize(
    "parameters, X, y, error, message",
    [case[1:] for case in BAD_INPUTS],
    ids=[case[0] for case in BAD_INPUTS],
)
def test_bad_input_is_refused_before_any_solver_runs(
    monkeypatch, parameters, X, y, error, message
):
    if (
        message != "must be symmetric"
    ):  # checked by the solvers' own input checks
        monkeypatch.setattr(
            svmlib.estimators.estimator, "train_binary", never_called
        )
    with pytest.raises(error, match=message):
        SVC(**parameters).fit(X, y)


def test_cvxopt_refuses_an_indefinite_kernel_with_a_clear_error(cancer):
    X, y = cancer
    with pytest.raises(
        ValueError, match="not conditionally positive semidefinite"
    ):
        SVC(kernel="sigmoid", solver="cvxopt").fit(X[:100], y[:100])


def test_bad_prediction_input_is_refused():
    model = SVC().fit(X_GOOD, Y_GOOD)
    with pytest.raises(NotFittedError, match="not fitted yet"):
        SVC().predict(X_GOOD)
    with pytest.raises(
        ValueError,
        match="X has 2 features, but SVC is expecting 3 features",
    ):
        model.predict(X_GOOD[:, :2])
    with pytest.raises(
        ValueError, match="X contains NaN at row 2, column 1"
    ):
        model.decision_function(X_NAN)
    with pytest.raises(ValueError, match="Reshape your data"):
        model.predict(X_GOOD[0])
    function_model = SVC(kernel=lambda A, B: A @ B.T).fit(X_GOOD, Y_GOOD)
    function_model.kernel = function_model._kernel = lambda A, B: np.ones(
        (len(A), 1)
    )
    with pytest.raises(
        ValueError,
        match="for the points to predict and the support vectors",
    ):
        function_model.predict(X_GOOD)


def test_parameters_are_stored_unchanged_and_checked_only_by_fit():
    model = SVC(C=-5, kernel="nonsense", gamma=0)
    assert (
        model.get_params()["C"] == -5 and model.set_params(C=2.0).C == 2.0
    )
    assert not hasattr(model, "classes_")


def test_a_point_on_the_boundary_goes_to_the_second_class_as_in_libsvm():
    X, y = np.array([[-1.0], [1.0]]), np.array([0, 1])
    for model in (SVC(kernel="linear"), LibsvmSVC(kernel="linear")):
        model.fit(X, y)
        assert model.decision_function([[0.0]])[0] == pytest.approx(
            0.0, abs=1e-12
        )
        assert model.predict([[0.0]]).tolist() == [1]


def test_scikit_learn_attributes_and_read_only_coef(iris):
    X, y = iris
    model = SVC(kernel="linear").fit(X, y)
    assert (
        model.class_weight_.tolist() == [1.0, 1.0, 1.0]
        and model.shape_fit_ == X.shape
    )
    with pytest.raises(ValueError, match="read-only"):
        model.coef_[0, 0] = 1.0


def test_random_generators_and_integer_verbosity_are_accepted(iris, capsys):
    X, y = iris
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        first = SVC(
            solver="platt", random_state=np.random.RandomState(5)
        ).fit(X, y)
        second = SVC(
            solver="platt", random_state=np.random.RandomState(5)
        ).fit(X, y)
        SVC(solver="platt", random_state=np.random.default_rng(5)).fit(X, y)
    np.testing.assert_array_equal(first.dual_coef_, second.dual_coef_)
    SVC(verbose=1).fit(X, y)
    assert "optimization finished" in capsys.readouterr().out


def test_break_ties_with_ovo_is_refused_at_predict_too(iris):
    X, y = iris
    model = SVC(break_ties=True).fit(X, y)
    model.set_params(decision_function_shape="ovo")
    with pytest.raises(
        ValueError,
        match="break_ties must be False when decision_function_shape is",
    ):
        model.predict(X)
