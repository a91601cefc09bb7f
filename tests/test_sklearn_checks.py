"""scikit-learn's own estimator checks on svmlib.SVC, for every solver
and every kind of kernel.

Two kinds of checks are expected to fail, with the reasons below: the
sample-weight equivalence check, which scikit-learn's own SVC fails too (and
lists as an expected failure), and, for the solvers that take one C for
every point (Platt's, the simplified SMO and cvxopt), the checks that fit
with weights, which those solvers refuse by design.  The array-API checks
are skipped by scikit-learn itself unless the environment variable
SCIPY_ARRAY_API is set (neither svmlib nor scikit-learn's SVC supports other
array libraries).
"""

import warnings

from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.estimator_checks import parametrize_with_checks

from svmlib import SVC


def linear_gram(A, B):
    """A kernel function, as a user would pass one (module level, so the
    estimator pickles)."""
    return A @ B.T


ESTIMATORS = [
    SVC(),
    SVC(kernel="linear"),
    SVC(kernel="precomputed"),
    SVC(kernel=linear_gram),
    SVC(solver="cvxopt"),
    SVC(solver="platt", random_state=0),
    SVC(solver="simplified", random_state=0),
    SVC(solver="batched"),
]


EQUIVALENCE = (
    "as for scikit-learn's own SVC (which lists this check as an expected "
    "failure): a weight of 2 and a repeated point give the same problem, "
    "but the solvers stop at different points within their tolerance "
    "(the decision values differ by about 1e-3, the check allows 1e-7), "
    "and gamma='scale' sees the repeated rows"
)
ONE_C = (
    "this solver takes one C for every point, so it refuses class_weight "
    "and sample_weight (which need 'auto', 'smo' or 'batched')"
)
WEIGHT_CHECKS = [
    "check_sample_weights_list",
    "check_all_zero_sample_weights_error",
    "check_sample_weights_not_overwritten",
    "check_classifiers_one_label_sample_weights",
    "check_class_weight_classifiers",
]

WEIGHT_EQUIVALENCE_CHECKS = [
    "check_sample_weight_equivalence_on_dense_data",
    "check_sample_weight_equivalence_on_sparse_data",
]


def expected_failures(estimator):
    """The checks expected to fail for ``estimator``, with why."""
    failures = {}
    if estimator.kernel != "precomputed":
        failures.update(
            dict.fromkeys(WEIGHT_EQUIVALENCE_CHECKS, EQUIVALENCE)
        )
    linear = estimator.kernel is linear_gram
    if linear and estimator.solver == "auto":
        # a kernel function gets the check's sparse data as they are, and
        # the default solver then stops at the same point for the
        # weighted and the repeated problem, so it passes
        del failures["check_sample_weight_equivalence_on_sparse_data"]
    if estimator.solver in ("platt", "simplified", "cvxopt"):
        failures.update(dict.fromkeys(WEIGHT_CHECKS, ONE_C))
    return failures


@parametrize_with_checks(
    ESTIMATORS, expected_failed_checks=expected_failures, xfail_strict=True
)
def test_scikit_learn_estimator_checks(estimator, check):
    with warnings.catch_warnings():
        # Platt's and the simplified SMO may end above their tolerance on
        # the checks' tiny data sets; the estimator then warns, which is
        # what it should do (tested in test_estimator).
        warnings.simplefilter("ignore", ConvergenceWarning)
        check(estimator)
