"""Sparse input (chapter "Kernels", section "Sparse points"; chapter
"svmlib in practice", section "Sparse input"): every kernel, the kernel
rows of the solvers, and every estimator give on a SciPy sparse matrix the
answers they give on its dense copy, scikit-learn's LIBSVM gives the same
models on the same sparse input, bad sparse input fails clearly, and the
memory used stays that of the sparse data, not of the dense matrix.

The estimators are compared at tol=1e-8, so that what is compared is the
solution and not where a stopping rule happens to stop: the dense and the
sparse Gram matrices differ in their rounding, which at the default
tolerance can steer the solver to a different (equally valid) stop.
"""

import tracemalloc
import warnings

import numpy as np
import pytest
from scipy import sparse
from sklearn import svm
from sklearn.datasets import load_iris, make_classification
from sklearn.exceptions import ConvergenceWarning

from svmlib import (
    SVC,
    SVR,
    Kernel,
    NuSVC,
    NuSVR,
    OneClassSVM,
    exponential_kernel,
    linear_kernel,
    polynomial_kernel,
    rbf_kernel,
    sigmoid_kernel,
)
from svmlib.kernels.functions import squared_distances
from svmlib.kernels.kernel_cache import KernelColumns
from svmlib.kernels.kernel_rows import (
    KernelRows,
    SparseKernelRows,
    rows_for_points,
)
from svmlib.validation import (
    check_binary_problem,
    check_matrix,
    check_sparse_matrix,
)

KERNELS = [
    Kernel("linear"),
    Kernel("poly", gamma=0.3, degree=3, coef0=1.0),
    Kernel("rbf", gamma=0.4),
    Kernel("exponential", gamma=0.4),
    Kernel("sigmoid", gamma=0.05, coef0=-0.2),
]
FORMATS = ["csr", "csc", "coo", "lil", "dok"]
MEGABYTE = 2**20


def sparse_points(n=60, d=30, density=0.15, seed=0):
    """A random n x d CSR matrix (values in [-2, 2] and a column of ones,
    so that no row is empty) and its dense copy."""
    rng = np.random.default_rng(seed)
    X = sparse.random(
        n,
        d,
        density=density,
        format="csr",
        random_state=seed,
        data_rvs=lambda k: rng.uniform(-2.0, 2.0, size=k),
    )
    X = sparse.hstack([X, np.ones((n, 1))], format="csr")
    return X, X.toarray()


def labelled(n=80, d=25, n_classes=2, seed=0):
    """A classification problem whose features are made sparse (entries
    of small magnitude set to zero), as CSR and dense."""
    X, y = make_classification(
        n_samples=n,
        n_features=d,
        n_informative=5,
        n_classes=n_classes,
        n_clusters_per_class=1,
        random_state=seed,
    )
    X[np.abs(X) < 0.8] = 0.0
    return sparse.csr_matrix(X), X, y


# ---------------------------------------------------------------- kernels


@pytest.mark.parametrize("kernel", KERNELS, ids=lambda k: k.name)
def test_kernel_of_sparse_points_is_the_dense_kernel(kernel):
    X, X_dense = sparse_points(seed=1)
    Z, Z_dense = sparse_points(n=20, seed=2)
    expected = kernel(X_dense, Z_dense)
    scale = np.abs(expected).max()
    for got in (kernel(X, Z), kernel(X, Z_dense), kernel(X_dense, Z)):
        assert isinstance(got, np.ndarray)
        assert np.abs(got - expected).max() <= 1e-12 * scale


@pytest.mark.parametrize("layout", FORMATS)
def test_every_sparse_format_gives_the_same_gram_matrix(layout):
    X, X_dense = sparse_points(seed=3)
    kernel = Kernel("rbf", gamma=0.2)
    np.testing.assert_allclose(
        kernel(X.asformat(layout)), kernel(X_dense), rtol=0, atol=1e-13
    )


def test_stand_alone_kernel_functions_take_sparse_points():
    X, X_dense = sparse_points(seed=4)
    for function, parameters in (
        (linear_kernel, {}),
        (polynomial_kernel, {"gamma": 0.5, "degree": 2, "coef0": 1.0}),
        (rbf_kernel, {"gamma": 0.5}),
        (exponential_kernel, {"gamma": 0.5}),
        (sigmoid_kernel, {"gamma": 0.1, "coef0": 0.5}),
    ):
        expected = function(X_dense, **parameters)
        np.testing.assert_allclose(
            function(X, **parameters),
            expected,
            rtol=0,
            atol=1e-12 * np.abs(expected).max(),
        )


def test_sparse_distances_survive_cancellation_far_from_the_origin():
    """Sparse points are not centred, so the product form cancels for
    close points far from the origin; the recomputed pairs must still be
    right, and a duplicated point at distance exactly 0."""
    rng = np.random.default_rng(5)
    X_dense = rng.normal(size=(30, 4)) + 1e3
    X_dense[7] = X_dense[3]
    direct = ((X_dense[:, None, :] - X_dense[None, :, :]) ** 2).sum(axis=2)
    got = squared_distances(sparse.csr_matrix(X_dense))
    assert got[3, 7] == 0.0
    off = ~np.eye(30, dtype=bool) & (direct > 0)
    assert np.abs(got[off] / direct[off] - 1.0).max() < 1e-9
    assert Kernel("exponential", gamma=0.5)(sparse.csr_matrix(X_dense))[
        3, 7
    ] == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("rule", ["scale", "auto"])
def test_gamma_rules_resolve_as_on_dense_points_and_as_scikit_learn(rule):
    X, X_dense = sparse_points(seed=6)
    from_sparse = Kernel("rbf", gamma=rule).resolve(X).gamma
    assert from_sparse == pytest.approx(
        Kernel("rbf", gamma=rule).resolve(X_dense).gamma, rel=1e-12
    )
    y = np.arange(X.shape[0]) % 2
    libsvm = svm.SVC(gamma=rule).fit(X, y)
    assert from_sparse == pytest.approx(libsvm._gamma, rel=1e-12)


@pytest.mark.parametrize("kernel", KERNELS, ids=lambda k: k.name)
def test_diagonal_and_rows_of_sparse_points(kernel):
    X, X_dense = sparse_points(seed=7)
    np.testing.assert_allclose(
        kernel.diagonal(X), kernel.diagonal(X_dense), rtol=1e-12
    )
    picked = [0, 11, 59, 11]
    expected = kernel.rows(X_dense, picked)
    np.testing.assert_allclose(
        kernel.rows(X, picked),
        expected,
        rtol=0,
        atol=1e-12 * np.abs(expected).max(),
    )


# ------------------------------------------------- the solvers' kernel rows


@pytest.mark.parametrize("kernel", KERNELS, ids=lambda k: k.name)
def test_sparse_kernel_rows_equal_the_dense_rows(kernel):
    X, X_dense = sparse_points(n=200, seed=8)
    rows = rows_for_points(kernel, X)
    assert isinstance(rows, SparseKernelRows)
    assert isinstance(rows_for_points(kernel, X_dense), KernelRows)
    assert not isinstance(
        rows_for_points(kernel, X_dense), SparseKernelRows
    )
    rows.rows_per_block = 7  # several blocks
    picked = np.array([3, 0, 199, 50, 3, 120, 7, 8, 9, 10, 11])
    columns = np.array([5, 1, 150, 2])
    exact = kernel(X_dense[picked], X_dense)
    # the product form, not recomputed for close pairs, leaves a squared
    # distance of order 1e-16 at identical points, which the exponential
    # kernel's square root turns into 1e-8 (as for the dense KernelRows)
    scale = np.abs(exact).max() * (
        1e-7 if kernel.name == "exponential" else 1e-12
    )
    double = rows.compute(picked, np.empty((picked.size, 200)))
    assert np.abs(double - exact).max() <= scale
    part = rows.compute(picked, np.empty((picked.size, 4)), columns)
    assert np.abs(part - exact[:, columns]).max() <= scale
    single = rows.compute(
        picked, np.empty((picked.size, 200), dtype=np.float32)
    )
    assert np.abs(single - exact).max() <= 1e-6 * np.abs(exact).max()
    np.testing.assert_allclose(
        rows.diagonal, kernel.diagonal(X_dense), rtol=1e-12
    )
    assert rows.n_evaluations == 2 * picked.size * 200 + picked.size * 4


@pytest.mark.parametrize("kernel", KERNELS, ids=lambda k: k.name)
def test_kernel_columns_of_chapter_six_take_sparse_points(kernel):
    X, X_dense = sparse_points(seed=9)
    picked = [4, 0, 33]
    expected = KernelColumns(kernel, X_dense).block(picked)
    np.testing.assert_allclose(
        KernelColumns(kernel, X).block(picked),
        expected,
        rtol=0,
        atol=1e-12 * np.abs(expected).max(),
    )


@pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")
def test_sparse_rows_refuse_overflow():
    X = sparse.csr_matrix(np.full((4, 2), 1e60))  # (x'z)^3 is 8e360
    with pytest.raises(ValueError, match="overflow"):  # at the diagonal
        rows = rows_for_points(Kernel("poly", gamma=1.0, degree=3), X)
        rows.compute(np.arange(4), np.empty((4, 4)))


# ------------------------------------------------------------ input checks


def test_functions_without_sparse_support_say_so():
    X, _ = sparse_points()
    with pytest.raises(ValueError, match=r"sparse matrix.*X\.toarray\(\)"):
        check_matrix(X)
    y = np.where(np.arange(X.shape[0]) % 2 == 0, 1.0, -1.0)
    with pytest.raises(ValueError, match="sparse matrix"):
        check_binary_problem(X, y)
    checked, labels = check_binary_problem(X, y, accept_sparse=True)
    assert sparse.isspmatrix_csr(checked) and labels.shape == y.shape


def test_non_canonical_input_is_summed_without_touching_the_original():
    X = sparse.csr_matrix(
        (
            np.array([1.0, 2.0, 3.0, 4.0]),
            np.array([2, 2, 1, 0]),  # a duplicate, then unsorted columns
            np.array([0, 2, 4]),
        ),
        shape=(2, 3),
    )
    assert not X.has_canonical_format
    before = (X.data.copy(), X.indices.copy())
    checked = check_sparse_matrix(X)
    assert checked.has_canonical_format
    np.testing.assert_array_equal(
        checked.toarray(), [[0.0, 0.0, 3.0], [4.0, 3.0, 0.0]]
    )
    np.testing.assert_array_equal(X.data, before[0])
    np.testing.assert_array_equal(X.indices, before[1])


@pytest.mark.parametrize(
    "X, message",
    [
        (sparse.csr_matrix((0, 4)), r"empty \(shape \(0, 4\)\)"),
        (
            sparse.csr_matrix(
                np.array([[0.0, 1.0, 0.0], [2.0, 0.0, np.inf]])
            ),
            "the first at row 1, column 2",
        ),
        (
            sparse.csr_matrix(np.array([[0.0, np.nan], [np.nan, 1.0]])),
            "the first at row 0, column 1",
        ),
    ],
)
def test_bad_sparse_input_is_named(X, message):
    with pytest.raises(ValueError, match=message):
        check_sparse_matrix(X)


def test_estimator_names_the_first_non_finite_sparse_entry():
    X = sparse.lil_matrix((6, 5))
    X[:, 0] = 1.0
    X[4, 3], X[2, 1] = np.inf, np.nan
    with pytest.raises(ValueError, match="NaN at row 2, column 1"):
        SVC().fit(X.tocsc(), [0, 1, 0, 1, 0, 1])


def test_a_sparse_gram_matrix_is_refused():
    X, X_dense = sparse_points(n=10)
    y = np.arange(10) % 2
    K = X_dense @ X_dense.T
    with pytest.raises(TypeError, match="Sparse precomputed kernels"):
        SVC(kernel="precomputed").fit(sparse.csr_matrix(K), y)
    model = SVC(kernel="precomputed").fit(K, y)
    with pytest.raises(TypeError, match="dense data is required"):
        model.predict(sparse.csr_matrix(K))


# -------------------------------------------------------------- estimators


def close_models(from_sparse, from_dense, X, X_dense, atol):
    """The same support vectors, and decision values within ``atol`` on
    the training points, given sparse or dense."""
    np.testing.assert_array_equal(from_sparse.support_, from_dense.support_)
    values = getattr(from_sparse, "decision_function", from_sparse.predict)
    expected = getattr(from_dense, "decision_function", from_dense.predict)(
        X_dense
    )
    np.testing.assert_allclose(values(X), expected, rtol=0, atol=atol)
    np.testing.assert_allclose(values(X_dense), expected, rtol=0, atol=atol)


@pytest.mark.parametrize("kernel", KERNELS, ids=lambda k: k.name)
@pytest.mark.parametrize("n_classes", [2, 3])
def test_svc_on_sparse_points_is_svc_on_dense_points(kernel, n_classes):
    X, X_dense, y = labelled(n_classes=n_classes, seed=n_classes)
    parameters = dict(
        kernel=kernel.name,
        gamma=kernel.gamma,
        degree=kernel.degree,
        coef0=kernel.coef0,
        tol=1e-8,
    )
    from_sparse = SVC(**parameters).fit(X, y)
    from_dense = SVC(**parameters).fit(X_dense, y)
    close_models(from_sparse, from_dense, X, X_dense, atol=1e-6)
    np.testing.assert_allclose(
        from_sparse.objective_, from_dense.objective_, rtol=1e-8
    )
    assert sparse.issparse(from_sparse.support_vectors_)
    np.testing.assert_array_equal(
        from_sparse.support_vectors_.toarray(),
        X_dense[from_sparse.support_],
    )


@pytest.mark.parametrize("solver", ["smo", "batched", "cvxopt"])
def test_every_exact_solver_takes_sparse_points(solver):
    X, X_dense, y = labelled(seed=4)
    settings = dict(solver=solver, tol=1e-6)
    from_sparse = SVC(**settings).fit(X, y)
    from_dense = SVC(**settings).fit(X_dense, y)
    np.testing.assert_allclose(
        from_sparse.objective_, from_dense.objective_, rtol=1e-7
    )


@pytest.mark.parametrize("solver", ["platt", "simplified"])
def test_the_randomised_solvers_take_sparse_points(solver):
    X, X_dense, y = labelled(seed=5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        models = [
            SVC(solver=solver, random_state=0).fit(data, y)
            for data in (X, X_dense)
        ]
    np.testing.assert_allclose(
        models[0].objective_, models[1].objective_, rtol=1e-3
    )


def test_the_rounds_of_a_large_problem_take_sparse_points():
    """A cache too small for the Gram matrix sends the default solver to
    the rounds of "Scaling up", whose rows are SparseKernelRows."""
    X, X_dense, y = labelled(n=400, d=40, seed=6)
    from_sparse = SVC(cache_size=0.5, tol=1e-6).fit(X, y)
    from_dense = SVC(cache_size=0.5, tol=1e-6).fit(X_dense, y)
    np.testing.assert_allclose(
        from_sparse.objective_, from_dense.objective_, rtol=1e-7
    )


@pytest.mark.parametrize("kernel", ["linear", "poly", "rbf"], ids=str)
def test_svc_on_sparse_points_matches_libsvm_on_sparse_points(kernel):
    X, _, y = labelled(n=120, n_classes=3, seed=7)
    parameters = dict(kernel=kernel, gamma="scale", coef0=0.0, tol=1e-8)
    ours = SVC(**parameters).fit(X, y)
    libsvm = svm.SVC(**parameters).fit(X, y)
    assert sparse.issparse(libsvm.support_vectors_)
    np.testing.assert_allclose(
        ours.decision_function(X),
        libsvm.decision_function(X),
        rtol=0,
        atol=1e-5,
    )
    np.testing.assert_array_equal(ours.predict(X), libsvm.predict(X))


def test_weights_with_sparse_points():
    X, X_dense, y = labelled(n_classes=3, seed=8)
    weights = np.random.default_rng(8).uniform(0.0, 2.0, size=y.size)
    weights[:5] = 0.0
    models = [
        SVC(class_weight="balanced", tol=1e-8).fit(
            data, y, sample_weight=weights
        )
        for data in (X, X_dense)
    ]
    close_models(*models, X, X_dense, atol=1e-6)


def test_a_callable_kernel_receives_the_sparse_points():
    X, X_dense, y = labelled(seed=9)
    seen = []

    def linear(A, B):
        seen.append(sparse.issparse(A) and sparse.issparse(B))
        products = A @ B.T
        return products.toarray() if sparse.issparse(products) else products

    model = SVC(kernel=linear, tol=1e-8).fit(X, y)
    model.predict(X)
    assert seen == [True, True]
    reference = SVC(kernel="linear", tol=1e-8).fit(X_dense, y)
    close_models(model, reference, X, X_dense, atol=1e-6)


def test_linear_coef_is_sparse_and_right():
    """As in scikit-learn, coef_ is sparse after a sparse fit."""
    X, X_dense, y = labelled(seed=10)
    model = SVC(kernel="linear", tol=1e-8).fit(X, y)
    assert sparse.issparse(model.coef_)
    np.testing.assert_allclose(
        X_dense @ model.coef_.toarray()[0] + model.intercept_[0],
        model.decision_function(X),
        atol=1e-10,
    )


def regression_data(seed=11):
    X, X_dense, _ = labelled(n=90, seed=seed)
    target = X_dense @ np.linspace(-1.0, 1.0, X.shape[1]) + np.sin(
        X_dense[:, 0]
    )
    return X, X_dense, target


@pytest.mark.parametrize(
    "make",
    [
        lambda: SVR(C=3.0, epsilon=0.1, tol=1e-8),
        lambda: NuSVR(nu=0.4, tol=1e-8),
        lambda: OneClassSVM(nu=0.3, gamma=0.05, tol=1e-8),
        lambda: NuSVC(nu=0.4, kernel="poly", degree=2, tol=1e-8),
    ],
    ids=["SVR", "NuSVR", "OneClassSVM", "NuSVC"],
)
@pytest.mark.parametrize("layout", ["csr", "csc", "coo"])
def test_the_other_estimators_take_sparse_points(make, layout):
    X, X_dense, target = regression_data()
    if isinstance(make(), NuSVC):
        target = np.arange(target.size) % 3
    from_sparse = make().fit(X.asformat(layout), target)
    from_dense = make().fit(X_dense, target)
    close_models(from_sparse, from_dense, X, X_dense, atol=1e-6)
    assert sparse.issparse(from_sparse.support_vectors_)


def test_iris_as_sparse_matches_libsvm():
    X, y = load_iris(return_X_y=True)
    X_sparse = sparse.csr_matrix(X)
    ours = NuSVC(nu=0.5, tol=1e-8).fit(X_sparse, y)
    libsvm = svm.NuSVC(nu=0.5, tol=1e-8).fit(X_sparse, y)
    np.testing.assert_allclose(
        ours.decision_function(X_sparse),
        libsvm.decision_function(X_sparse),
        atol=1e-5,
    )


# ------------------------------------------------------------------ memory


def wide_sparse_problem(n=1_000, d=1_000_000, per_row=20, seed=12):
    """n rows with ``per_row`` non-zeros among d columns: 8 n d bytes
    (8 GB) as a dense array, about 0.25 MB sparse; the label is the sign
    of a column every row has."""
    rng = np.random.default_rng(seed)
    columns = rng.integers(1, d, size=(n, per_row))
    columns[:, 0] = 0
    values = rng.uniform(0.1, 1.0, size=(n, per_row))
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    values[:, 0] = y
    X = sparse.csr_matrix(
        (
            values.ravel(),
            columns.ravel(),
            np.arange(0, n * per_row + 1, 20),
        ),
        shape=(n, d),
    )
    return X, y


def peak_megabytes(call):
    """The largest amount of memory (MB) Python's allocators held at once
    while ``call`` ran."""
    tracemalloc.start()
    try:
        call()
        return tracemalloc.get_traced_memory()[1] / MEGABYTE
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize(
    "fit_and_predict",
    [
        lambda X, y: SVC(kernel="rbf").fit(X, y).predict(X),
        lambda X, y: (
            SVC(kernel="linear", cache_size=2).fit(X, y).predict(X)
        ),
        lambda X, y: SVR(kernel="rbf").fit(X, y).predict(X),
        lambda X, y: OneClassSVM(gamma=0.5).fit(X).predict(X),
    ],
    ids=["SVC rbf, dense path", "SVC linear, rounds", "SVR", "OneClassSVM"],
)
def test_memory_stays_that_of_the_sparse_data(fit_and_predict):
    """The dense matrix would take 8 GB, one dense row 8 MB; the Gram
    matrix of the SVC's dense path 8 MB and of the SVR's 2n x 2n one
    32 MB.  A peak under 100 MB leaves room for those and for nothing of
    the size of the dense points."""
    X, y = wide_sparse_problem()
    assert peak_megabytes(lambda: fit_and_predict(X, y)) < 100
