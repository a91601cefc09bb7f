# Generated from chapters/kernels.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""Kernel functions and their Gram matrices (from the chapter "Kernels")."""

import numbers
from dataclasses import dataclass, replace

import numpy as np
from scipy import sparse

from svmlib.validation import check_matrix


def check_pair(X, Z=None):
    """Validate the two point sets of a Gram matrix (``Z = None`` means ``Z
    = X``); return them as float arrays, or both as CSR matrices if either
    is sparse (section "Sparse points")."""
    X = check_matrix(X, name="X", accept_sparse=True)
    if Z is None:
        return X, X
    Z = check_matrix(Z, name="Z", accept_sparse=True)
    if Z.shape[1] != X.shape[1]:
        raise ValueError(
            f"X has {X.shape[1]} features but Z has {Z.shape[1]}; "
            "a kernel compares points of the same dimension"
        )
    if sparse.issparse(X) != sparse.issparse(Z):
        X, Z = sparse.csr_matrix(X), sparse.csr_matrix(Z)
    return X, Z


def check_gamma(gamma):
    """Return ``gamma`` as a float if it is a positive, finite number;
    otherwise raise a ValueError."""
    if (
        isinstance(gamma, bool)
        or not isinstance(gamma, numbers.Real)
        or not 0 < gamma < np.inf
    ):
        raise ValueError(f"gamma must be a positive number; got {gamma!r}")
    return float(gamma)


def check_degree(degree):
    """Return ``degree`` if it is a non-negative integer; otherwise raise a
    ValueError."""
    if (
        isinstance(degree, bool)
        or not isinstance(degree, numbers.Integral)
        or degree < 0
    ):
        raise ValueError(
            f"degree must be a non-negative integer; got {degree!r}"
        )
    return int(degree)


def check_coef0(coef0):
    """Return ``coef0`` as a float if it is a finite number; otherwise raise
    a ValueError."""
    if (
        isinstance(coef0, bool)
        or not isinstance(coef0, numbers.Real)
        or not np.isfinite(coef0)
    ):
        raise ValueError(f"coef0 must be a finite number; got {coef0!r}")
    return float(coef0)


CANCELLATION_RTOL = 1e-3
PAIR_CHUNK = 65_536
# the largest coordinate whose square float64 holds
LARGEST_SIZE = np.sqrt(np.finfo(np.float64).max)


def normalise_points(X, Z):
    """Centre X and Z on the mean of Z and divide both by their largest
    entry: returns ``(X_c, Z_c, size)``.  Distances shrink by the factor
    ``size`` and nothing can overflow, but the distances themselves, size^2
    times the normalised ones, must not: a larger size is refused.  Sparse
    points are only scaled (scaled_sparse_points)."""
    if sparse.issparse(X):
        X_c, Z_c, size = scaled_sparse_points(X, Z)
    else:
        centre = Z.mean(axis=0)
        X_c, Z_c = X - centre, Z - centre
        size = (
            max(float(np.abs(X_c).max()), float(np.abs(Z_c).max())) or 1.0
        )
        X_c, Z_c = X_c / size, Z_c / size
    if not size < LARGEST_SIZE:
        raise ValueError(
            f"the points' coordinates reach {size:.3g}: their squared "
            "distances overflow float64; scale the features"
        )
    return X_c, Z_c, size


def normalised_squared_distances(X_c, Z_c, norms_X=None, norms_Z=None):
    """||x_i - z_j||^2 for points from normalise_points, by one matrix
    product, never negative; pairs where the product form cancels (close
    points) are recomputed directly, in chunks.

    ``norms_X`` and ``norms_Z`` are the squared norms of the rows, when
    already known.
    """
    if norms_X is None:
        norms_X = squared_norms(X_c)
    if norms_Z is None:
        norms_Z = squared_norms(Z_c)
    scale = norms_X[:, None] + norms_Z[None, :]
    D = scale - 2.0 * inner_products(X_c, Z_c)
    rows, cols = np.nonzero(D <= CANCELLATION_RTOL * scale)
    recompute_pairs(D, rows, cols, X_c, Z_c, rows, cols)
    return np.maximum(D, 0.0, out=D)


def recompute_pairs(D, rows, cols, X, Z, i, j, scale=1.0):
    """D[rows, cols] = scale ||x_i - z_j||^2, computed directly for each
    pair (``i``, ``j`` the points of the entries), in chunks of PAIR_CHUNK
    pairs to bound the memory of the differences."""
    for start in range(0, rows.size, PAIR_CHUNK):
        part = slice(start, start + PAIR_CHUNK)
        D[rows[part], cols[part]] = (
            squared_norms(X[i[part]] - Z[j[part]]) * scale
        )


def squared_distances(X, Z=None):
    """||x_i - z_j||^2 for all pairs of rows of X and Z (Z defaults to X),
    safe from overflow and from cancellation.  Memory: the n x m result,
    plus the indices of the recomputed pairs."""
    X, Z = check_pair(X, Z)
    X_c, Z_c, size = normalise_points(X, Z)
    return normalised_squared_distances(X_c, Z_c) * size**2


def squared_norms(X):
    """||x_i||^2 for every row of X, an array or a sparse matrix (for the
    latter, from its non-zeros only)."""
    if sparse.issparse(X):
        return np.asarray(X.multiply(X).sum(axis=1)).ravel()
    return np.einsum("ij,ij->i", X, X)


def inner_products(X, Z):
    """The matrix X Z' of all inner products x_i'z_j, as a dense array
    (for sparse X and Z, by a sparse product: only non-zeros that meet
    are multiplied)."""
    S = X @ Z.T
    return S.toarray() if sparse.issparse(S) else S


def scaled_sparse_points(X, Z):
    """normalise_points for sparse X and Z: both divided by their largest
    entry, and not centred, which would fill in every zero; returns
    ``(X_s, Z_s, size)``."""
    size = max(abs(X).max(), abs(Z).max()) or 1.0
    return X / size, Z / size, float(size)


def entry_variance(X):
    """The variance of all the entries of X, zeros included: for a sparse
    X, mean(x^2) - mean(x)^2, both from the non-zeros."""
    if sparse.issparse(X):
        return float(X.multiply(X).mean() - X.mean() ** 2)
    return float(X.var())


def linear_from_products(S, out=None):
    """The linear kernel of eq. (eq-kernels), from the inner products
    S = X Z'.

    Like the four formulas below, it writes its result into ``out`` when one
    is given (which may be the input itself), so that a caller can reuse
    memory; otherwise it returns a new array (or, here, S itself)."""
    if out is None or out is S:
        return S
    np.copyto(out, S)
    return out


def polynomial_from_products(S, gamma, degree, coef0, out=None):
    """(gamma s + coef0)^degree, eq. (eq-kernels), entry by entry from the
    inner products S."""
    out = np.multiply(S, gamma, out=out)
    out += coef0
    return np.power(out, degree, out=out)


def sigmoid_from_products(S, gamma, coef0, out=None):
    """tanh(gamma s + coef0), eq. (eq-kernels), entry by entry from the
    inner products S."""
    out = np.multiply(S, gamma, out=out)
    out += coef0
    return np.tanh(out, out=out)


def rbf_from_distances(D, gamma, out=None):
    """exp(-gamma d), eq. (eq-kernels), entry by entry from the squared
    distances D."""
    out = np.multiply(D, -gamma, out=out)
    return np.exp(out, out=out)


def exponential_from_distances(D, gamma, out=None):
    """exp(-gamma sqrt(d)), eq. (eq-kernels), entry by entry from the
    squared distances D."""
    out = np.sqrt(D, out=out)
    out *= -gamma
    return np.exp(out, out=out)


def linear_kernel(X, Z=None):
    """k(x, z) = x'z, eq. (eq-kernels), for all pairs of rows of X and Z (Z
    defaults to X)."""
    X, Z = check_pair(X, Z)
    return linear_from_products(inner_products(X, Z))


def polynomial_kernel(X, Z=None, gamma=1.0, degree=3, coef0=0.0):
    """k(x, z) = (gamma x'z + coef0)^degree, eq. (eq-kernels)."""
    X, Z = check_pair(X, Z)
    return polynomial_from_products(
        inner_products(X, Z),
        check_gamma(gamma),
        check_degree(degree),
        check_coef0(coef0),
    )


def rbf_kernel(X, Z=None, gamma=1.0):
    """k(x, z) = exp(-gamma ||x - z||^2), eq. (eq-kernels); gamma = 1 / (2
    sigma^2)."""
    return rbf_from_distances(squared_distances(X, Z), check_gamma(gamma))


def exponential_kernel(X, Z=None, gamma=1.0):
    """k(x, z) = exp(-gamma ||x - z||), eq. (eq-kernels), with the Euclidean
    norm."""
    return exponential_from_distances(
        squared_distances(X, Z), check_gamma(gamma)
    )


def sigmoid_kernel(X, Z=None, gamma=1.0, coef0=0.0):
    """k(x, z) = tanh(gamma x'z + coef0), eq. (eq-kernels); not positive
    semidefinite in general."""
    X, Z = check_pair(X, Z)
    return sigmoid_from_products(
        inner_products(X, Z), check_gamma(gamma), check_coef0(coef0)
    )


KERNEL_FUNCTIONS = {
    "linear": linear_kernel,
    "poly": polynomial_kernel,
    "rbf": rbf_kernel,
    "exponential": exponential_kernel,
    "sigmoid": sigmoid_kernel,
}
KERNEL_FORMULAS = {
    "linear": linear_from_products,
    "poly": polynomial_from_products,
    "rbf": rbf_from_distances,
    "exponential": exponential_from_distances,
    "sigmoid": sigmoid_from_products,
}
KERNEL_PARAMETERS = {
    "linear": (),
    "poly": ("gamma", "degree", "coef0"),
    "rbf": ("gamma",),
    "exponential": ("gamma",),
    "sigmoid": ("gamma", "coef0"),
}
DISTANCE_KERNELS = ("rbf", "exponential")
GAMMA_RULES = ("scale", "auto")


@dataclass(frozen=True)
class Kernel:
    """A kernel of eq. (eq-kernels) with its parameters, named and defaulted
    as in sklearn.svm.SVC.

    "exponential" is an addition (Euclidean norm; scikit-learn's
    laplacian_kernel uses the L1 norm).  The stand-alone kernel functions
    default to gamma = 1, not to scikit-learn's 1 / n_features.

    ``name`` is one of "linear", "poly", "rbf", "exponential", "sigmoid";
    ``gamma`` a positive number or the rule "scale" or "auto", which
    ``resolve`` turns into a number.  Calling the object returns a Gram
    matrix; ``rows`` a block of its rows; ``diagonal`` its diagonal.
    """

    name: str = "rbf"
    gamma: float | str = "scale"
    degree: int = 3
    coef0: float = 0.0

    def __post_init__(self):
        if self.name not in KERNEL_FUNCTIONS:
            raise ValueError(
                f"unknown kernel {self.name!r}; choose one of "
                f"{', '.join(KERNEL_FUNCTIONS)}"
            )
        if isinstance(self.gamma, str):
            if self.gamma not in GAMMA_RULES:
                raise ValueError(
                    "gamma must be a positive number, 'scale' or 'auto'; "
                    f"got {self.gamma!r}"
                )
        else:
            check_gamma(self.gamma)
        check_degree(self.degree)
        check_coef0(self.coef0)

    def resolve(self, X):
        """This kernel with a numeric gamma: "scale" -> 1 / (n_features *
        X.var()) (1 if X is constant), "auto" -> 1 / n_features; a numeric
        gamma is kept.  A "scale" that is not a positive finite number is
        refused, unless the kernel has no gamma."""
        if not isinstance(self.gamma, str):
            return self
        X = check_matrix(X, accept_sparse=True)
        variance = entry_variance(X)
        if self.gamma == "auto" or variance == 0.0:
            gamma = 1.0 / X.shape[1] if self.gamma == "auto" else 1.0
        else:
            gamma = 1.0 / (X.shape[1] * variance)
        if not 0.0 < gamma < np.inf:  # X.var() overflowed or underflowed
            if "gamma" in KERNEL_PARAMETERS[self.name]:
                raise ValueError(
                    "gamma='scale' is 1 / (n_features * X.var()), which "
                    f"X.var() = {variance:.3g} makes {gamma}: scale the "
                    "features"
                )
            gamma = 1.0  # a kernel without gamma
        return replace(self, gamma=gamma)

    def parameters(self):
        """The keyword arguments of this kernel's Gram-matrix function."""
        if "gamma" in KERNEL_PARAMETERS[self.name] and isinstance(
            self.gamma, str
        ):
            raise ValueError(
                f"gamma={self.gamma!r} must first be resolved from the "
                "training data: use kernel.resolve(X_train)"
            )
        return {
            name: getattr(self, name)
            for name in KERNEL_PARAMETERS[self.name]
        }

    def __call__(self, X, Z=None):
        """The Gram matrix k(x_i, z_j) for all rows of X and Z (Z defaults
        to X); values that overflow float64 are refused (check_values)."""
        return self.check_values(
            KERNEL_FUNCTIONS[self.name](X, Z, **self.parameters())
        )

    def check_values(self, values):
        """``values`` if they are all finite; else a ValueError that says
        the kernel's values overflow, which finite points can only make
        them do."""
        if not np.all(np.isfinite(values)):
            raise ValueError(
                f"the {self.name} kernel's values overflow float64: scale "
                "the features"
            )
        return values

    def rows(self, X, indices):
        """Rows ``indices`` of the Gram matrix of X, without forming the
        rest of it."""
        X = check_matrix(X, accept_sparse=True)
        return self(X[np.asarray(indices)], X)

    def diagonal(self, X):
        """k(x_i, x_i) for every row of X, without forming the Gram matrix.

        A distance kernel is the same at every x (distance 0).  An
        inner-product kernel depends on x only through s = x'x, which is
        also the inner product of the 1-D points s and 1, so the kernel
        function evaluated between the column of all s and the single point
        1 gives the diagonal.
        """
        X = check_matrix(X, accept_sparse=True)
        function = KERNEL_FUNCTIONS[self.name]
        if self.name in DISTANCE_KERNELS:  # the formula at distance 0
            formula = KERNEL_FORMULAS[self.name]
            at_zero = formula(np.zeros(1), **self.parameters())
            return np.full(X.shape[0], at_zero[0])
        inner = self.check_values(squared_norms(X))
        return self.check_values(
            function(inner[:, None], np.ones((1, 1)), **self.parameters())[
                :, 0
            ]
        )


def kernel_decision_function(kernel, X_train, dual_coef, b, Z):
    """f(z) = sum_i dual_coef_i k(x_i, z) + b, eq. (eq-kernel-decision),
    with dual_coef_i = alpha_i y_i.

    Only the training points with a non-zero ``dual_coef`` (the support
    vectors) matter, so ``X_train`` may be just those.
    """
    return kernel(Z, X_train) @ np.asarray(dual_coef, dtype=float) + b
