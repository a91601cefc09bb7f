# Generated from chapters/scaling_up.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""Kernel rows computed a block at a time by one matrix product, straight into the caller's array (from the chapter "Scaling up")."""

import numpy as np

from svmlib.kernel_cache import MEGABYTE
from svmlib.kernels import DISTANCE_KERNELS, KERNEL_FORMULAS, normalise_points
from svmlib.validation import check_matrix


ROW_BLOCK_BYTES = 8 * MEGABYTE


class KernelRows:
    """Rows k(x_i, X) of the Gram matrix of X, computed for a block of rows at a time with one
    matrix product and the kernel's formula, in place, in the precision of the output array.

    ``diagonal`` holds k(x_i, x_i); ``compute(indices, out)`` fills ``out`` (of shape
    (len(indices), n_samples), float32 or float64); ``n_evaluations`` counts the kernel values.
    """

    def __init__(self, kernel, X):
        X = check_matrix(X)
        self.kernel = kernel.resolve(X)
        self.formula = KERNEL_FORMULAS[self.kernel.name]
        self.parameters = self.kernel.parameters()
        self.distance = self.kernel.name in DISTANCE_KERNELS
        self.size = 1.0
        if self.distance:
            X, _, self.size = normalise_points(X, X)
        self.points, self.norms = {}, {}
        self.prepare(X)
        self.n_samples = X.shape[0]
        self.diagonal = self.kernel.diagonal(X)
        self.rows_per_block = max(1, ROW_BLOCK_BYTES // (4 * self.n_samples))
        self.n_evaluations = 0

    def prepare(self, X, dtype=np.float64):
        """Keep the points, and their squared norms, in the precision ``dtype``."""
        P = self.points[np.dtype(np.float64)].astype(dtype) if self.points else X.astype(dtype)
        self.points[np.dtype(dtype)] = P
        self.norms[np.dtype(dtype)] = np.einsum("ij,ij->i", P, P)

    def compute(self, indices, out):
        """out[k] = k(x_indices[k], x_j) for every j; returns out.

        The exponential kernel takes the square root of the distances, which turns the product
        form's rounding near zero into large errors in single precision; its rows are computed in
        double precision whatever the output's precision.
        """
        work = np.dtype(np.float64) if self.kernel.name == "exponential" else out.dtype
        if work not in self.points:
            self.prepare(None, work)
        P, norms = self.points[work], self.norms[work]
        for start in range(0, len(indices), self.rows_per_block):
            part = indices[start:start + self.rows_per_block]
            target = out[start:start + len(part)]
            block = target if work == out.dtype else np.empty(target.shape, dtype=work)
            np.matmul(P[part], P.T, out=block)
            if self.distance:              # ||x_i||^2 + ||x_j||^2 - 2 x_i'x_j, never negative
                block *= -2.0
                block += norms[part, None]
                block += norms[None, :]
                np.maximum(block, 0.0, out=block)
                block *= self.size**2
            self.formula(block, **self.parameters, out=block)
            if block is not target:
                target[...] = block
        self.n_evaluations += len(indices) * self.n_samples
        return out


class GramRows:
    """The rows interface of KernelRows for a matrix given in full (a precomputed kernel)."""

    def __init__(self, K):
        self.K = check_matrix(K, name="K")
        self.n_samples = self.K.shape[0]
        self.diagonal = np.diag(self.K).copy()
        self.rows_per_block = self.n_samples
        self.n_evaluations = 0

    def compute(self, indices, out):
        """out[k] = K[indices[k]]; returns out."""
        out[...] = self.K[indices]
        self.n_evaluations += len(indices) * self.n_samples
        return out
