# Generated from chapters/margins.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""Input checks shared by every svmlib solver (chapter "Margins")."""

import numpy as np
from scipy import sparse


def check_matrix(X, name="X", accept_sparse=False):
    """Return ``X`` as a 2-D float array, or raise a ValueError that says
    what is wrong.

    Rejects non-numeric entries, arrays that are not 2-D, empty arrays, and
    NaN or infinite values (reporting the first offending row and column).
    A SciPy sparse matrix is refused, unless ``accept_sparse``: then it is
    checked alike and returned by check_sparse_matrix.
    """
    if sparse.issparse(X):
        return check_sparse_matrix(X, name, accept_sparse)
    try:
        X = np.asarray(X, dtype=float)
    except (TypeError, ValueError) as error:
        raise ValueError(
            f"{name} must contain numbers only; converting it to floats "
            f"failed: {error}"
        ) from None
    if X.ndim != 2:
        raise ValueError(
            f"{name} must be a 2-D array of shape (n_samples, n_features); "
            f"got an array with {X.ndim} dimension(s)"
        )
    if X.shape[0] == 0 or X.shape[1] == 0:
        raise ValueError(
            f"{name} is empty (shape {X.shape}); it needs at least one "
            "sample and one feature"
        )
    finite = np.isfinite(X)
    if not finite.all():
        row, column = np.argwhere(~finite)[0]
        raise ValueError(
            f"{name} contains NaN or infinite values "
            f"(the first at row {row}, column {column})"
        )
    return X


def check_sparse_matrix(X, name="X", accept_sparse=True):
    """A SciPy sparse matrix as a CSR matrix of floats in canonical form
    (sorted indices, no duplicates; copied only if it was not), checked as
    check_matrix checks an array.  Only the kernel code takes sparse points
    (chapter "Kernels"); elsewhere, with ``accept_sparse`` False, a clear
    error."""
    if not accept_sparse:
        raise ValueError(
            f"{name} is a SciPy sparse matrix, which this function does "
            f"not take: pass {name}.toarray(), or use svmlib's estimators "
            "or its kernel solvers, which take sparse input"
        )
    if X.ndim != 2:
        raise ValueError(
            f"{name} must be 2-D, of shape (n_samples, n_features); "
            f"got a sparse array with {X.ndim} dimension(s)"
        )
    try:
        X = sparse.csr_matrix(X, dtype=float)
    except (TypeError, ValueError) as error:
        raise ValueError(
            f"{name} must contain numbers only; converting it to floats "
            f"failed: {error}"
        ) from None
    if X.shape[0] == 0 or X.shape[1] == 0:
        raise ValueError(
            f"{name} is empty (shape {X.shape}); it needs at least one "
            "sample and one feature"
        )
    if not X.has_canonical_format:
        X = X.copy()
        X.sum_duplicates()
    finite = np.isfinite(X.data)
    if not finite.all():
        first = np.flatnonzero(~finite)[0]  # rows are stored in order
        row = np.searchsorted(X.indptr, first, side="right") - 1
        raise ValueError(
            f"{name} contains NaN or infinite values "
            f"(the first at row {row}, column {X.indices[first]})"
        )
    return X


def check_binary_labels(y, n_samples):
    """Return ``y`` as a float array of -1 and +1 labels, one per sample,
    with both classes present."""
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError(
            f"y must be a 1-D array of labels; got shape {y.shape}"
        )
    if y.shape[0] != n_samples:
        raise ValueError(
            f"X has {n_samples} samples but y has {y.shape[0]} labels; "
            "they must match"
        )
    if y.dtype.kind not in "biuf":
        raise ValueError(
            "the solvers take numeric labels -1 and +1, but y has dtype "
            f"{y.dtype}; map other labels to -1 and +1 first"
        )
    labels = y.astype(float)
    classes = np.unique(labels)
    if not np.isin(classes, (-1.0, 1.0)).all():
        raise ValueError(
            "the solvers take labels -1 and +1, but y contains "
            f"{classes[:5].tolist()}; map other labels to -1 and +1 first"
        )
    if classes.size < 2:
        raise ValueError(
            f"y contains a single class ({classes[0]:+.0f}); "
            "a classifier needs examples of both -1 and +1"
        )
    return labels


def check_binary_problem(X, y, accept_sparse=False):
    """Validate a training set for a two-class solver; return ``(X, y)`` as
    float arrays (X as a CSR matrix if it is sparse and ``accept_sparse``,
    which only solvers that use X through a kernel allow)."""
    X = check_matrix(X, accept_sparse=accept_sparse)
    return X, check_binary_labels(y, X.shape[0])
