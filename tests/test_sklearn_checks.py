"""scikit-learn's own estimator checks on svmlib.SVC, for every solver
and every kind of kernel.

All checks pass; none is listed as an expected failure.  The array-API
checks are skipped by scikit-learn itself unless the environment variable
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


@parametrize_with_checks(ESTIMATORS)
def test_scikit_learn_estimator_checks(estimator, check):
    with warnings.catch_warnings():
        # Platt's and the simplified SMO may end above their tolerance on
        # the checks' tiny data sets; the estimator then warns, which is
        # what it should do (tested in test_estimator).
        warnings.simplefilter("ignore", ConvergenceWarning)
        check(estimator)
