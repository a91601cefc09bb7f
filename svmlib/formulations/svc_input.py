# Generated from chapters/in_practice.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""The estimator's input checks (from the chapter "svmlib in practice")."""

import numbers
from contextlib import contextmanager

import numpy as np
from scipy import sparse
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import validate_data

from svmlib.derivation.hinge import check_C
from svmlib.kernels.functions import (
    GAMMA_RULES,
    KERNEL_FUNCTIONS,
    Kernel,
    check_coef0,
    check_degree,
    check_gamma,
)


KERNEL_NAMES = (*KERNEL_FUNCTIONS, "precomputed")
DECISION_SHAPES = ("ovr", "ovo")
NO_ITERATION_LIMIT = -1


def check_choice(name, value, choices):
    """``value`` if it is one of the strings ``choices``, else a ValueError
    that lists them."""
    if not (isinstance(value, str) and value in choices):
        raise ValueError(
            f"unknown {name} {value!r}; "
            f"choose one of {', '.join(map(repr, choices))}"
        )
    return value


def check_flag(name, value, integers=False):
    """``value`` as a bool if it is one (Python's or numpy's) or, with
    ``integers``, a non-negative integer (0 is False), else a ValueError."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if integers and isinstance(value, numbers.Integral) and value >= 0:
        return value > 0
    alternative = " or a non-negative integer" if integers else ""
    raise ValueError(
        f"{name} must be True or False{alternative}; got {value!r}"
    )


def check_box_bound(C, estimator="SVC"):
    """C as a float: positive and finite (check_C of the soft-margin
    chapter), with the estimator's own word for C = inf (``estimator``
    names the class that refuses it)."""
    if (
        isinstance(C, numbers.Real)
        and not isinstance(C, bool)
        and C == np.inf
    ):
        raise ValueError(
            f"C = inf asks for a hard margin, which {estimator} does not "
            "train: "
            "use a large finite C "
            "(or svmlib.hard_margin_dual on a Gram matrix)"
        )
    return check_C(C)


def check_positive(name, value):
    """``value`` as a float if it is a positive, finite number, else a
    ValueError."""
    if (
        isinstance(value, bool)
        or not isinstance(value, numbers.Real)
        or not 0 < value < np.inf
    ):
        raise ValueError(f"{name} must be a positive number; got {value!r}")
    return float(value)


def check_iteration_limit(max_iter):
    """scikit-learn's max_iter: -1 means no limit (returned as None), else a
    positive integer."""
    if isinstance(max_iter, numbers.Integral) and not isinstance(
        max_iter, bool
    ):
        if max_iter == NO_ITERATION_LIMIT:
            return None
        if max_iter >= 1:
            return int(max_iter)
    raise ValueError(
        "max_iter must be -1 (no limit) or a positive integer; "
        f"got {max_iter!r}"
    )


def check_seed(random_state):
    """The seed of the solvers' random choices: None (fresh entropy), a
    non-negative integer, or a seed drawn from a numpy RandomState or
    Generator (which advances it, as scikit-learn does)."""
    if random_state is None:
        return None
    if (
        isinstance(random_state, numbers.Integral)
        and not isinstance(random_state, bool)
        and random_state >= 0
    ):
        return int(random_state)
    if isinstance(random_state, np.random.RandomState):
        return int(random_state.randint(np.iinfo(np.int32).max))
    if isinstance(random_state, np.random.Generator):
        return int(random_state.integers(np.iinfo(np.int64).max))
    raise ValueError(
        "random_state must be None, a non-negative integer "
        f"or a numpy random generator; got {random_state!r}"
    )


def check_kernel_choice(kernel, gamma, degree, coef0):
    """A Kernel for a kernel name (gamma may still be a rule), or the
    function itself, or "precomputed".  gamma, degree and coef0 are checked
    even when the kernel does not use them."""
    if isinstance(gamma, str):
        check_choice("gamma rule", gamma, GAMMA_RULES)
    else:
        check_gamma(gamma)
    check_degree(degree)
    check_coef0(coef0)
    if callable(kernel):
        return kernel
    check_choice("kernel", kernel, KERNEL_NAMES)
    return (
        kernel
        if kernel == "precomputed"
        else Kernel(kernel, gamma, degree, coef0)
    )


def number_of_rows(data):
    """The length of the first axis of an array, matrix, data frame or list;
    None if it has none."""
    shape = getattr(data, "shape", None)
    if shape is not None:
        return shape[0] if len(shape) > 0 else None
    try:
        return len(data)
    except TypeError:
        return None


def check_class_labels(y):
    """scikit-learn's check_classification_targets for the 1-D labels that
    validate_data returns, without its general machinery where the answer
    is plain: integers and whole floats are class labels; anything else
    (fractions, objects) goes to scikit-learn's check and its message."""
    if y.dtype.kind in "biu":
        return
    if y.dtype.kind == "f" and np.all(y == np.floor(y)):
        return
    check_classification_targets(y)


def label_text(label):
    """A class label as the user wrote it: 0 or 'cat', not np.int64(0) or
    np.str_('cat')."""
    return repr(np.asarray(label).item())


@contextmanager
def numbers_only(name="X"):
    """Turn numpy's "could not convert string to float" into an error that
    names the input."""
    try:
        yield
    except ValueError as error:
        if "could not convert" in str(error):
            raise ValueError(
                f"{name} must contain numbers only: {error}"
            ) from None
        raise


def non_finite_entries(X):
    """Rows, columns and values of the NaN and infinite entries of the 2-D
    float array or sparse matrix ``X``, row by row."""
    if sparse.issparse(X):
        X = X.tocoo()
        bad = ~np.isfinite(X.data)
        rows, columns, values = X.row[bad], X.col[bad], X.data[bad]
        order = np.lexsort((columns, rows))
        return rows[order], columns[order], values[order]
    rows, columns = np.nonzero(~np.isfinite(X))
    return rows, columns, X[rows, columns]


def first_non_finite(X, name="X", remedy="remove or impute them first"):
    """Raise a ValueError naming the first NaN or infinite entry of the 2-D
    float array or sparse matrix ``X``, if any."""
    rows, columns, values = non_finite_entries(X)
    if rows.size:
        kind = "NaN" if np.isnan(values[0]) else "an infinite value (inf)"
        raise ValueError(
            f"{name} contains {kind} at row {rows[0]}, column {columns[0]} "
            f"({rows.size} non-finite entries in all); {remedy}"
        )


def check_square_gram(K):
    """With kernel="precomputed" the training input must be the square Gram
    matrix of the points."""
    if K.shape[0] != K.shape[1]:
        raise ValueError(
            "with kernel='precomputed', X must be the square Gram matrix "
            "of the training points, of shape (n_samples, n_samples); "
            f"got shape {K.shape}"
        )


def kernel_points(X):
    """X as an array of the points as given, if they are not numbers (a
    kernel function on strings, say: scikit-learn passes them on
    untouched); None for numbers, which are checked as usual."""
    if sparse.issparse(X):
        return None
    try:
        points = np.asarray(X)
    except ValueError:  # ragged: the usual checks say so
        return None
    if points.dtype.kind not in "OUS" or points.ndim == 0:
        return None
    if points.dtype.kind == "O" and any(
        isinstance(entry, numbers.Number) for entry in points.ravel()
    ):
        return None  # numbers among others: the usual checks name them
    if points.shape[0] == 0:
        raise ValueError("X must hold at least one point")
    return points


def kernel_from_callable(kernel, X, Z, what):
    """The matrix kernel(X, Z) of a user's kernel function, checked: shape
    (len(X), len(Z)), finite (and made dense if the function returns a
    sparse matrix, as X @ Z.T does for sparse points)."""
    K = kernel(X, Z)
    K = np.asarray(K.toarray() if sparse.issparse(K) else K, dtype=float)
    expected = (X.shape[0], Z.shape[0])
    if K.shape != expected:
        raise ValueError(
            f"the kernel function returned an array of shape {K.shape} "
            f"for {what}; it must return the matrix k(X, Z) "
            f"of shape {expected}"
        )
    first_non_finite(
        K,
        name="the kernel function's output",
        remedy="a kernel must return finite values",
    )
    return K


def validated_points(estimator, X, y="no_validation", **options):
    """scikit-learn's validate_data as every svmlib estimator calls it: X
    (and y, if given) with X as float64 in C order, a sparse X as CSR, its
    non-finite entries left for first_non_finite to name, and anything
    but numbers refused by numbers_only; ``options`` go to validate_data
    (reset=False when predicting, y_numeric=True for regression)."""
    with numbers_only():
        return validate_data(
            estimator,
            X,
            y,
            accept_sparse="csr",
            dtype=np.float64,
            order="C",
            ensure_all_finite=False,
            **options,
        )


def checked_classification_data(estimator, X, y):
    """The training data of a classifier: X as a finite float array or CSR
    matrix (scikit-learn's validate_data records its number of features
    on ``estimator``), the sorted classes (at least two), and each label's
    index among them."""
    n_points, n_labels = number_of_rows(X), number_of_rows(y)
    if None not in (n_points, n_labels) and n_points != n_labels:
        raise ValueError(
            f"X has {n_points} samples but y has {n_labels} labels; "
            "they must match"
        )
    kernel = getattr(estimator, "kernel", None)
    points = kernel_points(X) if callable(kernel) else None
    if points is not None:  # for the kernel function alone
        return points, *checked_labels(y)
    X, y = validated_points(estimator, X, y)
    first_non_finite(X)
    return X, *checked_labels(y)


def checked_labels(y):
    """The sorted classes (at least two) and each label's index among
    them."""
    y = np.asarray(y)
    if y.ndim == 2 and y.shape[1] == 1:
        y = y.ravel()
    check_classification_targets(y)
    check_class_labels(y)
    classes, y_index = np.unique(y, return_inverse=True)
    if classes.size < 2:
        raise ValueError(
            f"y contains only one class ({label_text(classes[0])}); "
            "a classifier needs samples of at least two classes"
        )
    return classes, y_index
