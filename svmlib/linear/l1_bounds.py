# Generated from chapters/linear_l1.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""The smallest C of a non-zero L1-regularised model, scikit-learn's
l1_min_c (chapter "Sparse linear models: the L1 penalty")."""

import numbers

import numpy as np
from sklearn.preprocessing import LabelBinarizer

from svmlib.validation import check_matrix


MIN_C_NUMERATORS = {"squared_hinge": 0.5, "log": 2.0}  # eq. (eq-l1-min-c)


def check_min_c_options(loss, fit_intercept, intercept_scaling):
    """The options of eq. (eq-l1-min-c), refused with scikit-learn's
    messages (a ValueError, of which scikit-learn's is a subclass)."""
    if not (isinstance(loss, str) and loss in MIN_C_NUMERATORS):
        raise ValueError(
            "The 'loss' parameter of l1_min_c must be a str among "
            f"{{'squared_hinge', 'log'}}. Got {loss!r} instead."
        )
    if not isinstance(fit_intercept, (bool, np.bool_)):
        raise ValueError(
            "The 'fit_intercept' parameter of l1_min_c must be an "
            "instance of 'bool' or an instance of 'numpy.bool'. Got "
            f"{fit_intercept!r} instead."
        )
    if (
        isinstance(intercept_scaling, (bool, np.bool_))
        or not isinstance(intercept_scaling, numbers.Real)
        or not 0 < intercept_scaling < np.inf
    ):
        raise ValueError(
            "The 'intercept_scaling' parameter of l1_min_c must be a "
            "float in the range (0.0, inf). Got "
            f"{intercept_scaling!r} instead."
        )


def l1_min_c(
    X, y, *, loss="squared_hinge", fit_intercept=True, intercept_scaling=1.0
):
    """C_min of eq. (eq-l1-min-c): for C <= C_min every weight of the L1
    model is zero, above it some are not.  0.5 (squared hinge) or 2
    (``loss="log"``) over the largest abs(sum_i y_i xbar_ij) of any feature
    in any problem (one per class against the rest, one for two)."""
    check_min_c_options(loss, fit_intercept, intercept_scaling)
    X = check_matrix(X, accept_sparse=True)
    if len(y) != X.shape[0]:
        raise ValueError(
            "Found input variables with inconsistent numbers of "
            f"samples: [{X.shape[0]}, {len(y)}]"
        )
    Y = LabelBinarizer(neg_label=-1).fit_transform(y)  # one column each
    pull = np.abs(X.T @ Y).max()  # the largest |sum_i y_i x_ij|
    if fit_intercept:
        pull = max(pull, intercept_scaling * np.abs(Y.sum(axis=0)).max())
    if pull == 0:
        raise ValueError(
            "Ill-posed l1_min_c calculation: l1 will always select zero "
            "coefficients for this data"
        )
    return MIN_C_NUMERATORS[loss] / pull
