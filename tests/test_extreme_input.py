"""svmlib at the edges of float64 and of patience: numbers that overflow
get errors naming them, huge gammas give the right models, the Python
solvers' work is bounded, memory stays within cache_size, and a model
without support vectors predicts (the dependency issue's regressions)."""

import tracemalloc
import warnings

import numpy as np
import pytest
import sklearn.svm
from sklearn.datasets import make_blobs, make_classification
from sklearn.exceptions import ConvergenceWarning

import svmlib
from svmlib.kernels.functions import Kernel
from svmlib.kernels.kernel_rows import KernelRows
from svmlib.smo.solver import INTERPRETED_MIN_MAX_ITER

X, y = make_classification(60, 4, random_state=0)


@pytest.mark.parametrize(
    "estimator",
    [
        svmlib.LinearSVC(dual=False),
        svmlib.LinearSVR(dual=False, loss="squared_epsilon_insensitive"),
    ],
    ids=["LinearSVC", "LinearSVR"],
)
@pytest.mark.parametrize(
    "scale, C, weight",
    [(1.0, 1e160, 1.0), (1e150, 1.0, 1.0), (1.0, 1.0, 1e300)],
    ids=["huge C", "huge X", "huge weights"],
)
def test_the_primal_solvers_refuse_numbers_that_overflow(
    estimator, scale, C, weight
):
    """Before: coef_ = 0 and n_iter_ = 0, with only numpy's warning."""
    weights = np.full(y.size, weight)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # numpy's
        with pytest.raises(ValueError, match="overflow float64"):
            estimator.set_params(C=C).fit(X * scale, y, weights)


def test_a_huge_C_still_trains_in_the_dual():
    with pytest.warns(ConvergenceWarning):
        model = svmlib.LinearSVC(C=1e160, dual=True).fit(X, y)
    assert np.abs(model.coef_).max() > 0.01


@pytest.mark.parametrize(
    "data, parameters",
    [
        (X, {"solver": "platt", "C": 1e300}),
        (
            np.vstack([X, X[:5]]),
            {"solver": "platt", "C": 1e10},
        ),  # duplicated points with opposite labels
        (X, {"solver": "smo", "kernel": "poly", "degree": 300}),
    ],
    ids=["platt huge C", "platt duplicates", "smo poly degree 300"],
)
def test_the_python_solvers_stop_within_their_default_limit(
    data, parameters
):
    """Before: 50 to over 100 seconds of their 10^7 default iterations."""
    labels = np.concatenate([y, 1 - y[: data.shape[0] - y.size]])
    with pytest.warns(ConvergenceWarning):
        model = svmlib.SVC(**parameters).fit(data, labels)
    assert model.n_iter_.max() <= max(
        INTERPRETED_MIN_MAX_ITER, 100 * data.shape[0]
    )


@pytest.mark.parametrize(
    "name", ["SVC", "NuSVC", "SVR", "NuSVR", "OneClassSVM"]
)
def test_a_huge_gamma_gives_scikit_learns_model(name):
    """At gamma = 1e15 the Gram matrix is the identity, but for duplicated
    points; before, its computed diagonal fell to 0.17 and OneClassSVM's
    decision values differed from scikit-learn's by 0.6."""
    points = X.copy()
    points[7] = points[3]
    args = (points,) if name == "OneClassSVM" else (points, y)
    if name in ("SVR", "NuSVR"):
        args = (points, points[:, 0])
    ours = getattr(svmlib, name)(gamma=1e15, tol=1e-8).fit(*args)
    theirs = getattr(sklearn.svm, name)(gamma=1e15, tol=1e-8).fit(*args)
    assert np.allclose(
        ours.decision_function(points)
        if hasattr(ours, "decision_function")
        else ours.predict(points),
        theirs.decision_function(points)
        if hasattr(theirs, "decision_function")
        else theirs.predict(points),
        atol=1e-6,
    )


@pytest.mark.parametrize("name", ["rbf", "exponential"])
@pytest.mark.parametrize("storage", [np.float32, np.float64])
def test_kernel_rows_are_exact_for_close_pairs_at_any_gamma(name, storage):
    rng = np.random.default_rng(0)
    points = rng.normal(size=(120, 5)) + 3.0
    points[10] = points[20]
    for gamma in (0.1, 30.0, 1e6, 1e12, 1e15):
        kernel = Kernel(name, gamma=gamma)
        rows = KernelRows(kernel, points).compute(
            np.arange(120), np.empty((120, 120), dtype=storage)
        )
        assert np.abs(rows - kernel(points)).max() < 3e-5
        assert rows[10, 20] == 1.0


def test_a_multi_class_fit_stays_within_cache_size():
    """Before: 287 MiB traced (about 360 MB of peak memory) with
    cache_size=200, the shared Gram matrix and the copy of a pair's block
    together."""
    points, labels = make_blobs(
        5100, 20, centers=3, cluster_std=4.0, random_state=0
    )
    tracemalloc.start()
    try:
        svmlib.SVC(cache_size=200).fit(points, labels)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1.25 * 200 * 2**20


@pytest.mark.parametrize(
    "fit, message",
    [
        (
            lambda: svmlib.SVC(gamma=1.0).fit(X * 1e154, y),
            "squared distances overflow",
        ),
        (lambda: svmlib.SVC().fit(X * 1e154, y), r"X\.var\(\) = inf"),
        (lambda: svmlib.SVC().fit(X * 1e-160, y), r"X\.var\(\) = 1\.5"),
        (
            lambda: svmlib.SVC(kernel="linear").fit(X * 1e154, y),
            "linear kernel's values overflow",
        ),
        (
            lambda: svmlib.SVC(
                kernel="poly", degree=300, gamma=10.0, solver="platt"
            ).fit(X * 100, y),
            "poly kernel's values overflow",
        ),
        (
            lambda: svmlib.LinearSVC(intercept_scaling=1e300).fit(X, y),
            "intercept_scaling=1e\\+300 is too large",
        ),
    ],
    ids=[
        "rbf distances",
        "scale overflows",
        "scale underflows",
        "linear values",
        "poly values",
        "intercept_scaling",
    ],
)
def test_numbers_out_of_range_get_errors_that_name_them(fit, message):
    """Before: a bare OverflowError, 'gamma must be a positive number; got
    nan' for a gamma the user never set, or 'X contains NaN' for a
    finite X."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # numpy's
        with pytest.raises(ValueError, match=message):
            fit()


@pytest.mark.parametrize(
    "estimator", [svmlib.SVC(), svmlib.LinearSVC(), svmlib.SVR()]
)
def test_an_iteration_limit_beyond_int64_is_no_limit(estimator):
    """Before: numba's TypingError (first fit) or an OverflowError."""
    target = X[:, 0] if isinstance(estimator, svmlib.SVR) else y
    limited = estimator.set_params(max_iter=10**20).fit(X, target)
    default = type(estimator)().fit(X, target)
    assert np.array_equal(limited.predict(X), default.predict(X))


def test_a_model_without_support_vectors_predicts_its_intercept():
    """Before: 'Z is empty' at predict."""
    with pytest.warns(ConvergenceWarning):
        model = svmlib.SVC(solver="simplified").fit(X * 1e-300, y)
    assert model.n_support_.sum() == 0
    assert np.array_equal(
        model.decision_function(X), np.full(y.size, model.intercept_[0])
    )
    assert set(model.predict(X)) <= set(model.classes_)
