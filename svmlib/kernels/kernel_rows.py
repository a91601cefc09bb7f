# Generated from chapters/scaling_up.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""Kernel rows by one matrix product per block (chapter "Scaling up")."""

import numpy as np
from scipy import sparse

from svmlib.kernels.functions import recompute_pairs
from svmlib.kernels.kernel_cache import MEGABYTE, KernelColumns
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


def rows_in_place(
    left_rows, right, out, formula, parameters, distance, correct=None
):
    """Kernel values into ``out``: one matrix product of the factors, then,
    in place, the clipping of squared distances at zero, ``correct(out)``
    if given (it may overwrite distances the product form got wrong), and
    the kernel's formula; returns out."""
    np.matmul(left_rows, right, out=out)
    if distance:  # a squared distance is never negative
        np.maximum(out, 0.0, out=out)
    if correct is not None:
        correct(out)
    formula(out, **parameters, out=out)
    return out


ROW_BLOCK_BYTES = 8 * MEGABYTE
SINGLE_PRECISION_KERNELS = ("rbf", "exponential")
# the largest change of a kernel value, relative to itself, that the product
# form's rounding may cause before KernelRows works around it
ROUNDING_RTOL = 1e-5
# gamma d beyond which exp(-gamma d) < 5e-18 is zero next to 1 in double
# precision: pairs farther apart need no exact distance
NEGLIGIBLE_EXPONENT = 40.0


def kernel_storage(kernel):
    """The precision in which a solver keeps many values of ``kernel``'s
    Gram matrix: single for the distance kernels (SINGLE_PRECISION_KERNELS,
    values in (0, 1]), double for the others."""
    single = kernel.name in SINGLE_PRECISION_KERNELS
    return np.dtype(np.float32 if single else np.float64)


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

    The product form's rounding error in a squared distance is about
    eps max_i ||x_i||^2 whatever the distance (``rounding``): a large
    gamma turns it into a large error of the kernel values of close pairs
    (at gamma = 1e15 on unit-scale points, a diagonal of 0.17 instead of
    1).  Where it could exceed ROUNDING_RTOL, the rows are computed in
    double precision (``work_precision``), and where even that is not
    enough, the distances of close pairs are recomputed directly
    (``exact_close_pairs``).
    """

    def __init__(self, kernel, X):
        super().__init__(kernel, X)
        self.storage = kernel_storage(self.kernel)
        self.operands = {}
        self.rows_per_block = max(
            1, ROW_BLOCK_BYTES // (8 * self.n_samples)
        )
        self.exact_pairs_needed = (
            self.distance
            and self.exponent_error(np.dtype(np.float64)) > ROUNDING_RTOL
        )

    def rounding(self, dtype):
        """A bound on the product form's rounding error in a squared
        distance, in the precision ``dtype``: 4 eps max_i ||x_i||^2, in the
        units of the points before their scaling."""
        largest = float(self.norms.max()) if self.norms.size else 0.0
        return 4.0 * np.finfo(dtype).eps * largest * self.size**2

    def exponent_error(self, dtype):
        """How far that rounding can move the exponent gamma d of a distance
        kernel (d the squared distance for rbf, its root for exponential),
        which is the relative error of the kernel value."""
        error = self.rounding(dtype)
        if self.kernel.name == "exponential":
            error = np.sqrt(error)
        return self.kernel.gamma * error

    def work_precision(self, dtype):
        """The precision in which to compute rows stored in ``dtype``:
        ``dtype``, or double precision for the exponential kernel (whose
        square root magnifies the rounding near zero) and wherever the
        exponent_error of ``dtype`` exceeds ROUNDING_RTOL."""
        if self.kernel.name == "exponential" or (
            self.distance and self.exponent_error(dtype) > ROUNDING_RTOL
        ):
            return np.dtype(np.float64)
        return np.dtype(dtype)

    def exact_close_pairs(self, D, rows, columns=None):
        """Recompute in place, as ||x_i - x_j||^2 directly, the squared
        distances in the block D (rows ``rows``, columns ``columns`` or
        all) whose kernel value may not be negligible: gamma d below
        NEGLIGIBLE_EXPONENT.  At the large gammas where this is needed,
        they are the diagonal and duplicated points."""
        rows = np.asarray(rows)
        limit = NEGLIGIBLE_EXPONENT / self.kernel.gamma
        if self.kernel.name == "exponential":
            limit = limit**2
        # the computed distances may be off by their rounding
        r, c = np.nonzero(D <= limit + self.rounding(D.dtype))
        points = c if columns is None else np.asarray(columns)[c]
        recompute_pairs(
            D, r, c, self.X, self.X, rows[r], points, self.size**2
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

    def corrector(self, rows, columns):
        """The ``correct`` step of rows_in_place for a block of rows:
        exact_close_pairs if this kernel needs it, else None."""
        if not self.exact_pairs_needed:
            return None
        return lambda D: self.exact_close_pairs(D, rows, columns)

    def compute(self, indices, out, columns=None):
        """out[k] = k(x_indices[k], x_j) for every j, or for the j in
        ``columns``; returns out.

        The rows are computed in the work_precision of the output's, with
        exact_close_pairs where that is needed.  Values that overflow raise
        an error.
        """
        work = self.work_precision(out.dtype)
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
                self.corrector(part, columns),
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
                if self.exact_pairs_needed:
                    self.exact_close_pairs(block, part, columns)
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
