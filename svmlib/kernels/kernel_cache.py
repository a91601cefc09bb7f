# Generated from chapters/smo_engineering.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""Kernel columns, LRU cache, Q (chapter "Engineering the SMO solver")."""

from collections import OrderedDict

import numpy as np

from svmlib.kernels.functions import (
    DISTANCE_KERNELS,
    KERNEL_FORMULAS,
    Kernel,
    inner_products,
    normalise_points,
    normalised_squared_distances,
    squared_norms,
)
from svmlib.validation import check_matrix


MEGABYTE = 2**20
MIN_CACHED_COLUMNS = 2


class KernelColumns:
    """Columns k(X, x_i) of the Gram matrix of X, computed on demand, a
    block at a time.

    The points are validated and prepared once (centred and scaled for a
    distance kernel, as in ``squared_distances``; sparse points are only
    scaled); each request is then one matrix product and the kernel's
    formula. ``n_evaluations`` counts the kernel values computed so far.
    """

    def __init__(self, kernel, X):
        X = check_matrix(X, accept_sparse=True)
        self.kernel = kernel.resolve(X)
        self.formula = KERNEL_FORMULAS[self.kernel.name]
        self.parameters = self.kernel.parameters()
        self.distance = self.kernel.name in DISTANCE_KERNELS
        if self.distance:
            self.X, _, self.size = normalise_points(X, X)
            self.norms = squared_norms(self.X)
        else:
            self.X = X
        self.n_samples = X.shape[0]
        self.diagonal = self.kernel.diagonal(X)
        self.n_evaluations = 0

    def block(self, indices):
        """The columns ``indices`` as the rows of an array of shape
        (len(indices), n_samples)."""
        indices = np.asarray(indices)
        self.n_evaluations += indices.size * self.n_samples
        if self.distance:
            D = normalised_squared_distances(
                self.X[indices], self.X, self.norms[indices], self.norms
            )
            return self.formula(D * self.size**2, **self.parameters)
        return self.formula(
            inner_products(self.X[indices], self.X), **self.parameters
        )


class ColumnCache:
    """Least-recently-used store of columns, never holding more than
    ``budget_bytes``.

    A budget too small for two columns is raised to two columns, as LIBSVM
    does.
    """

    def __init__(self, budget_bytes, column_bytes):
        self.budget_bytes = max(
            int(budget_bytes), MIN_CACHED_COLUMNS * column_bytes
        )
        self.column_bytes = column_bytes
        self.columns = OrderedDict()
        self.hits = self.misses = 0

    @property
    def nbytes(self):
        """Bytes held by the cached columns."""
        return len(self.columns) * self.column_bytes

    def get(self, i):
        """Column ``i`` if cached (marking it most recently used), else
        None."""
        column = self.columns.get(i)
        if column is None:
            self.misses += 1
            return None
        self.hits += 1
        self.columns.move_to_end(i)
        return column

    def put(self, i, column):
        """Store column ``i``, first evicting the least recently used
        columns to stay in budget."""
        while self.nbytes + self.column_bytes > self.budget_bytes:
            self.columns.popitem(last=False)
        self.columns[i] = column


class QMatrix:
    """Q_ij = y_i y_j k(x_i, x_j) of the C-SVC dual, one column at a time,
    from a cache of ``cache_size`` megabytes (as scikit-learn's
    ``cache_size``).  No n x n array is formed.

    ``diagonal`` holds Q_ii; ``column(i)`` returns Q_i (read-only);
    ``columns(indices)`` a block, computing the missing columns with one
    matrix product.
    """

    def __init__(self, X, y, kernel, cache_size=200.0):
        self.kernel_columns = KernelColumns(kernel, X)
        self.y = np.asarray(y, dtype=float)
        self.n_samples = self.y.shape[0]
        self.diagonal = self.kernel_columns.diagonal  # y_i^2 = 1
        self.cache = ColumnCache(
            cache_size * MEGABYTE, self.n_samples * np.dtype(float).itemsize
        )

    @property
    def n_evaluations(self):
        """Kernel values computed so far."""
        return self.kernel_columns.n_evaluations

    def compute(self, indices):
        """Compute the columns ``indices`` (one matrix product), cache them
        and return them as rows."""
        block = self.kernel_columns.block(indices)
        block *= self.y[indices, None] * self.y[None, :]
        for i, column in zip(indices, block):
            # a row of ``block`` would keep all of it alive
            column = column.copy()
            column.flags.writeable = False
            self.cache.put(int(i), column)
        return block

    def columns(self, indices):
        """Q_i for each i in ``indices``, as the rows of an array."""
        indices = [int(i) for i in indices]
        found = {i: self.cache.get(i) for i in dict.fromkeys(indices)}
        missing = [i for i, column in found.items() if column is None]
        if missing:
            found.update(zip(missing, self.compute(missing)))
        return np.array([found[i] for i in indices])

    def column(self, i):
        """Q_i, from the cache or computed."""
        column = self.cache.get(i)
        return self.compute([i])[0] if column is None else column


class GramQMatrix:
    """Q_ij = y_i y_j K_ij from a precomputed Gram matrix K, with the
    interface of QMatrix."""

    def __init__(self, K, y):
        self.y = np.asarray(y, dtype=float)
        self.Q = np.asarray(K, dtype=float) * np.outer(self.y, self.y)
        self.Q.flags.writeable = False
        self.n_samples = self.y.shape[0]
        self.diagonal = np.diag(self.Q).copy()
        self.n_evaluations = 0

    def columns(self, indices):
        """Q_i for each i in ``indices``, as the rows of an array."""
        self.n_evaluations += len(indices) * self.n_samples
        return self.Q[np.asarray(indices, dtype=int)]

    def column(self, i):
        """Q_i, a row of the stored matrix."""
        self.n_evaluations += self.n_samples
        return self.Q[i]
