# Generated from chapters/scaling_up.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""Kernel rows by one matrix product per block (chapter "Scaling up")."""

import numpy as np
from scipy import sparse

from svmlib.kernel_cache import MEGABYTE, KernelColumns
from svmlib.validation import check_matrix


def augmented_factors(X, norms, scale, dtype):
    """The two factors of eq. (eq-augmented-product), in the precision
    ``dtype``: the rows [x_i, x_i'x_i, 1] and the columns [-2 x_j, 1,
    x_j'x_j] times ``scale**2``, whose product is the matrix of scaled
    squared distances (``norms`` holds the x_i'x_i)."""
    ones = np.ones((X.shape[0], 1))
    left = np.hstack([X, norms[:, None], ones])
    right = np.hstack([-2.0 * X, ones, norms[:, None]]).T * scale**2
    return (
        np.ascontiguousarray(left, dtype=dtype),
        np.ascontiguousarray(right, dtype=dtype),
    )


def rows_in_place(left_rows, right, out, formula, parameters, distance):
    """Kernel values into ``out``: one matrix product of the factors, then,
    in place, the clipping of squared distances at zero and the kernel's
    formula; returns out."""
    np.matmul(left_rows, right, out=out)
    if distance:  # a squared distance is never negative
        np.maximum(out, 0.0, out=out)
    formula(out, **parameters, out=out)
    return out


ROW_BLOCK_BYTES = 8 * MEGABYTE
SINGLE_PRECISION_KERNELS = ("rbf", "exponential")


class KernelRows(KernelColumns):
    """Rows k(x_i, X) of the Gram matrix of X, computed for a block of rows
    at a time with one matrix product and the kernel's formula, in place, in
    the precision of the output array.

    The points are prepared as by KernelColumns, the full SMO solver's
    kernel cache (centred and scaled for a distance kernel).  ``storage``
    is the precision in which a solver should keep many rows: single for
    the distance kernels, whose values lie in (0, 1], double for the
    others, whose values can be large and close together.
    ``compute(indices, out)`` fills ``out``.
    """

    def __init__(self, kernel, X):
        super().__init__(kernel, X)
        self.storage = np.dtype(
            np.float32
            if self.kernel.name in SINGLE_PRECISION_KERNELS
            else np.float64
        )
        self.operands = {}
        self.rows_per_block = max(
            1, ROW_BLOCK_BYTES // (8 * self.n_samples)
        )

    def prepared(self, dtype):
        """The two factors of the matrix product, in the precision
        ``dtype``: the points and their transpose, or for a distance kernel
        those of eq. (eq-augmented-product) (augmented_factors)."""
        if dtype not in self.operands:
            if self.distance:
                self.operands[dtype] = augmented_factors(
                    self.X, self.norms, self.size, dtype
                )
            else:
                self.operands[dtype] = (
                    np.ascontiguousarray(self.X, dtype=dtype),
                    np.ascontiguousarray(self.X.T, dtype=dtype),
                )
        return self.operands[dtype]

    def compute(self, indices, out, columns=None):
        """out[k] = k(x_indices[k], x_j) for every j, or for the j in
        ``columns``; returns out.

        The exponential kernel takes the square root of the distances, which
        turns the product form's rounding near zero into large errors in
        single precision; its rows are computed in double precision whatever
        the output's precision.  Values that overflow raise an error.
        """
        work = (
            np.dtype(np.float64)
            if self.kernel.name == "exponential"
            else out.dtype
        )
        left, right = self.prepared(work)
        if columns is not None:
            right = right[:, columns]
        for start in range(0, len(indices), self.rows_per_block):
            part = indices[start : start + self.rows_per_block]
            target = out[start : start + len(part)]
            block = (
                target
                if work == out.dtype
                else np.empty(target.shape, dtype=work)
            )
            rows_in_place(
                left[part],
                right,
                block,
                self.formula,
                self.parameters,
                self.distance,
            )
            if not self.distance and not np.isfinite(block).all():
                raise ValueError(
                    f"the {self.kernel.name} kernel's values overflow "
                    f"{work.name}: scale the features"
                )
            if block is not target:
                target[...] = block
        self.n_evaluations += len(indices) * right.shape[1]
        return out


class GramRows:
    """The rows interface of KernelRows for a matrix given in full (a
    precomputed kernel)."""

    def __init__(self, K):
        self.K = check_matrix(K, name="K")
        self.n_samples = self.K.shape[0]
        self.diagonal = np.diag(self.K).copy()
        self.storage = np.dtype(np.float64)
        self.rows_per_block = self.n_samples
        self.n_evaluations = 0

    def compute(self, indices, out, columns=None):
        """out[k] = K[indices[k]], or its entries in ``columns``; returns
        out."""
        out[...] = (
            self.K[indices]
            if columns is None
            else self.K[np.ix_(indices, columns)]
        )
        self.n_evaluations += out.size
        return out


class SparseKernelRows(KernelRows):
    """KernelRows for sparse points (a CSR matrix, chapter "Kernels",
    section "Sparse points"): each block is one sparse product X_I X',
    made dense, to which a distance kernel adds the two squared norms, in
    double precision whatever the output's (a sparse product costs its
    index work, not its multiplications).  The points are scaled, never
    centred, and never made dense."""

    def __init__(self, kernel, X):
        super().__init__(kernel, X)
        self.X_transposed = self.X.T.tocsr()  # rows of X', for X_I X'

    def compute(self, indices, out, columns=None):
        """out[k] = k(x_indices[k], x_j) for every j, or for the j in
        ``columns``; returns out."""
        right, norms = (
            self.X_transposed,
            self.norms if self.distance else None,
        )
        if columns is not None:
            right = right[:, columns]
            norms = norms[columns] if self.distance else None
        for start in range(0, len(indices), self.rows_per_block):
            part = indices[start : start + self.rows_per_block]
            block = (self.X[part] @ right).toarray()
            if self.distance:  # eq. (eq-augmented-product), in two passes
                block *= -2.0
                block += self.norms[part, None]
                block += norms[None, :]
                block *= self.size**2
                np.maximum(block, 0.0, out=block)
            self.formula(block, **self.parameters, out=block)
            if not self.distance and not np.isfinite(block).all():
                raise ValueError(
                    f"the {self.kernel.name} kernel's values overflow: "
                    "scale the features"
                )
            out[start : start + len(part)] = block
        self.n_evaluations += len(indices) * right.shape[1]
        return out


def rows_for_points(kernel, X):
    """The rows of the Gram matrix of the points X for a Kernel: a
    KernelRows, or a SparseKernelRows if X is a sparse matrix."""
    X = check_matrix(X, accept_sparse=True)
    if sparse.issparse(X):
        return SparseKernelRows(kernel, X)
    return KernelRows(kernel, X)
