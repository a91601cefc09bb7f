# Generated from chapters/smo_engineering.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""C-SVC as a core QP problem (chapter "Engineering the SMO solver")."""

import numpy as np

from svmlib.derivation.dual import check_gram
from svmlib.derivation.hinge import check_C
from svmlib.kernels.functions import Kernel
from svmlib.validation import check_binary_problem
from svmlib.kernels.kernel_cache import GramQMatrix, QMatrix
from svmlib.smo.solver import QPProblem, solve


def c_svc_problem(X, y, C, kernel="precomputed", cache_size=200.0):
    """The C-SVC dual, eq. (eq-soft-dual), as (Q, p, y, C): p = -1, C_i = C,
    alpha0 = 0.

    ``X`` is a Gram matrix when ``kernel="precomputed"``, else the training
    points of a Kernel, whose columns come from a cache of ``cache_size``
    megabytes.
    """
    C = check_C(C)
    if isinstance(kernel, str) and kernel == "precomputed":
        K, y = check_gram(X, y)
        Q = GramQMatrix(K, y)
    elif isinstance(kernel, Kernel):
        X, y = check_binary_problem(X, y, accept_sparse=True)
        Q = QMatrix(X, y, kernel, cache_size)
    else:
        raise ValueError(
            f"kernel must be a Kernel or 'precomputed'; got {kernel!r}"
        )
    n = y.shape[0]
    return QPProblem(
        Q=Q, p=-np.ones(n), y=y, C=np.full(n, C), alpha0=np.zeros(n)
    )


def smo(
    X,
    y,
    C,
    kernel="precomputed",
    tol=1e-3,
    second_order=True,
    shrinking=True,
    cache_size=200.0,
    max_iter=None,
    callback=None,
):
    """Train a C-SVC with the SMO solver of algorithm (alg-smo); returns a
    SolverResult."""
    problem = c_svc_problem(X, y, C, kernel, cache_size)
    return solve(problem, tol, second_order, shrinking, max_iter, callback)
