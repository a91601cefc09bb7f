# Generated from chapters/model_selection.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""The kernel block of a fold, computed once for all its fits (chapter
"Choosing C and gamma")."""

import time
from dataclasses import dataclass

import numpy as np
from sklearn.base import is_classifier

from svmlib.estimators.estimator import _KernelEstimator, working_points
from svmlib.estimators.one_problem import SVR
from svmlib.formulations.svc_input import check_kernel_choice
from svmlib.kernels.kernel_cache import MEGABYTE
from svmlib.kernels.kernel_rows import kernel_storage, rows_for_points


# the parameters that decide the kernel; every other one (C, epsilon, nu,
# tol, class_weight, ...) leaves the kernel matrix as it is
# the parameters that decide the kernel; every other one (C, epsilon, nu,
# tol, class_weight, ...) leaves the kernel matrix as it is
KERNEL_SETTINGS = ("kernel", "gamma", "degree", "coef0")


def kernel_key(estimator, params):
    """What the kernel of ``estimator`` with ``params`` set depends on, or
    None if its fits cannot share a kernel matrix: not one of svmlib's
    kernel estimators, or a kernel that is a function or precomputed."""
    if not isinstance(estimator, _KernelEstimator):
        return None
    merged = {**estimator.get_params(deep=False), **params}
    if not isinstance(merged["kernel"], str):
        return None
    if merged["kernel"] == "precomputed":
        return None
    return tuple((name, merged[name]) for name in KERNEL_SETTINGS)


def block_order(estimator, y, train):
    """The fold's training points in the order of its kernel block: sorted
    by class (stably) for a classifier, so that each pair of classes is
    four slices of it (class_blocks), as they are otherwise."""
    if not is_classifier(estimator) or y is None:
        return train
    return train[np.argsort(np.asarray(y)[train], kind="stable")]


def block_bytes(estimator, n_rows, n_train, itemsize):
    """The bytes of a fold's kernel block, with S = doubled(K) for an
    SVR."""
    doubled_bytes = 4 * n_train * n_train if type(estimator) is SVR else 0
    return float(itemsize) * (n_rows * n_train + doubled_bytes)


@dataclass
class FoldBlock:
    """The kernel values of one fold: K's rows are the training points (in
    block_order) and then the test points, its columns the training
    points; ``train`` and ``test`` index the data in that order."""

    K: np.ndarray
    train: np.ndarray
    test: np.ndarray
    seconds: float
    S: np.ndarray = None  # doubled(K), made by the first SVR fit


def fold_block(model, X, y, unit, memory):
    """The FoldBlock of ``unit``'s fold for ``model``'s kernel (gamma
    "scale" or "auto" resolved on the fold's training points, as its own
    fit would resolve it), computed once for all the unit's fits and kept
    in the precision the estimator keeps its Gram matrix in
    (kernel_storage); None if it needs more than ``memory`` megabytes."""
    started = time.perf_counter()
    kernel = check_kernel_choice(
        model.kernel, model.gamma, model.degree, model.coef0
    )
    points = working_points(X, model.cache_size)
    kernel = kernel.resolve(points[unit.train])
    storage = kernel_storage(kernel)
    train = block_order(model, y, unit.train)
    n_rows = train.size + unit.test.size
    if block_bytes(model, n_rows, train.size, storage.itemsize) > (
        memory * MEGABYTE
    ):
        return None
    K = rows_for_points(kernel, points).compute(
        np.concatenate([train, unit.test]),
        np.empty((n_rows, train.size), dtype=storage),
        columns=train,
    )
    return FoldBlock(K, train, unit.test, time.perf_counter() - started)
