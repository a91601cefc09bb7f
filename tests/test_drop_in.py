"""What makes svmlib's kernel estimators a drop-in for sklearn.svm's,
beyond probabilities: sparse fitted attributes after a sparse fit, a dense
enough sparse matrix trained bit for bit as its dense copy, negative
weights dropped, kernel functions on strings, and scikit-learn's errors
(checked against scikit-learn's own estimators where they compute)."""

import numpy as np
import pytest
from scipy import sparse
from sklearn import svm as sklearn_svm
from sklearn.datasets import load_iris, make_classification
from sklearn.preprocessing import StandardScaler

from svmlib import SVC, SVR, NuSVC, NuSVR, OneClassSVM
from svmlib.estimators.estimator import DENSE_ENOUGH


def iris():
    X, y = load_iris(return_X_y=True)
    return StandardScaler().fit_transform(X), y


def fit(estimator, X, y):
    if isinstance(estimator, OneClassSVM):
        return estimator.fit(X)
    if isinstance(estimator, (SVR, NuSVR)):
        return estimator.fit(X, y.astype(float))
    return estimator.fit(X, y)


ESTIMATORS = [SVC, NuSVC, SVR, NuSVR, OneClassSVM]


@pytest.mark.parametrize("Estimator", ESTIMATORS)
@pytest.mark.parametrize("kernel", ["linear", "rbf"])
def test_a_sparse_fit_stores_sparse_attributes(Estimator, kernel):
    X, y = iris()
    dense = fit(Estimator(kernel=kernel), X, y)
    csr = fit(Estimator(kernel=kernel), sparse.csr_matrix(X), y)
    assert sparse.issparse(csr.dual_coef_)
    assert sparse.issparse(csr.support_vectors_)
    # iris is dense: the sparse fit runs on its dense copy, bit for bit
    np.testing.assert_array_equal(
        csr.dual_coef_.toarray(), dense.dual_coef_
    )
    np.testing.assert_array_equal(csr.support_, dense.support_)
    if kernel == "linear":
        assert sparse.issparse(csr.coef_)
        np.testing.assert_allclose(
            csr.coef_.toarray(), dense.coef_, rtol=1e-9, atol=1e-12
        )
    values = getattr(csr, "decision_function", csr.predict)
    np.testing.assert_allclose(
        values(sparse.csr_matrix(X)),
        getattr(dense, "decision_function", dense.predict)(X),
        rtol=1e-10,
        atol=1e-12,
    )


def test_a_sparse_matrix_below_the_density_is_trained_sparse():
    rng = np.random.default_rng(0)
    X = sparse.random(120, 200, density=DENSE_ENOUGH / 5, random_state=1)
    y = rng.integers(0, 2, 120)
    ours = SVC(kernel="linear", tol=1e-6).fit(X.tocsr(), y)
    theirs = sklearn_svm.SVC(kernel="linear", tol=1e-6).fit(X.tocsr(), y)
    assert sparse.issparse(ours.dual_coef_)
    f = theirs.decision_function(X)
    np.testing.assert_allclose(
        ours.decision_function(X), f, atol=1e-4 * np.abs(f).max()
    )


@pytest.mark.parametrize("Estimator", ESTIMATORS)
def test_a_model_trained_on_dense_data_refuses_sparse_ones(Estimator):
    X, y = iris()
    model = fit(Estimator(), X, y)
    with pytest.raises(ValueError, match="cannot use sparse input in"):
        model.predict(sparse.csr_matrix(X))


def test_break_ties_with_ovo_is_refused_before_the_data_are_read():
    X, y = iris()
    model = SVC(break_ties=True, decision_function_shape="ovo").fit(X, y)
    with pytest.raises(ValueError, match="break_ties must be False"):
        model.predict(y)  # not even a matrix: the rule comes first


def count_kernel(A, B):
    """A kernel on strings: the products of the counts of 'a' and 'b'."""
    counts = [
        np.array([[s.count("a"), s.count("b")] for s in points], float)
        for points in (A, B)
    ]
    return counts[0] @ counts[1].T


@pytest.mark.parametrize("Estimator", [SVC, NuSVC])
def test_a_kernel_function_takes_strings_untouched(Estimator):
    words = ["aa", "a", "b", "bb", "ab", "aab", "bbb", "ba"]
    y = np.array([0, 0, 1, 1, 0, 0, 1, 1])
    counts = count_kernel(words, ["a", "b"])
    on_words = Estimator(kernel=count_kernel).fit(words, y)
    on_counts = Estimator(kernel="linear").fit(counts, y)
    np.testing.assert_allclose(
        on_words.decision_function(words),
        on_counts.decision_function(counts),
        rtol=1e-9,
        atol=1e-12,
    )


def test_svr_kernel_function_on_strings():
    words = ["aa", "a", "b", "bb", "ab", "aab"]
    targets = np.array([2.0, 1.0, -1.0, -2.0, 0.0, 1.0])
    counts = count_kernel(words, ["a", "b"])
    on_words = SVR(kernel=count_kernel, C=10).fit(words, targets)
    on_counts = SVR(kernel="linear", C=10).fit(counts, targets)
    np.testing.assert_allclose(
        on_words.predict(words), on_counts.predict(counts), atol=1e-9
    )


def test_nusvc_records_and_ignores_class_weight_as_libsvm():
    X, y = iris()
    with pytest.warns(UserWarning, match="NuSVC ignores class_weight"):
        weighted = NuSVC(class_weight={0: 5.0}).fit(X, y)
    plain = NuSVC().fit(X, y)
    np.testing.assert_array_equal(weighted.dual_coef_, plain.dual_coef_)
    np.testing.assert_array_equal(weighted.class_weight_, [5.0, 1.0, 1.0])
    theirs = sklearn_svm.NuSVC(class_weight={0: 5.0}).fit(X, y)
    np.testing.assert_allclose(
        weighted.decision_function(X),
        theirs.decision_function(X),
        atol=1e-2,
    )


@pytest.mark.parametrize(
    "Estimator, message",
    [
        (SVC, "all samples with positive weights belong to the same class"),
        (NuSVC, "specified nu is infeasible"),
    ],
)
def test_one_class_left_by_the_weights_is_scikit_learns_error(
    Estimator, message
):
    X, y = make_classification(40, random_state=0)
    weights = np.where(y == 1, -1.0, 1.0)
    with pytest.raises(ValueError, match=message):
        Estimator().fit(X, y, sample_weight=weights)
