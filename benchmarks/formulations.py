"""Benchmark (not a test): SVR, NuSVR, OneClassSVM and NuSVC against LIBSVM.

Writes ``benchmarks/results/formulations.json`` and prints what it
measures.  For each formulation of the chapter "Regression and novelty
detection", over a grid of its parameters, in one process with every BLAS
and OpenMP pool pinned to the same number of threads (``pinning``):
svmlib's estimator (the default solver),
LIBSVM 3.37 itself (``svm_train`` of libsvm-official, in process, the data
converted to its format before the clock starts) and scikit-learn's
estimator (its own copy of LIBSVM), all with tolerance 1e-3 and 200 MB
caches, taking turns, each timed as the best of REPEATS fits (one fit for
the large problems).  For each fit: the times as multiples of LIBSVM's, the
relative difference of the dual objectives (svmlib against LIBSVM 3.37,
both computed from the fitted coefficients), and how alike the predictions
on held-out points are (classification and novelty: the share predicted
alike; regression: the largest difference over the standard deviation of
the targets).

    python benchmarks/formulations.py           # everything (~5 minutes)
    python benchmarks/formulations.py --quick   # a smaller run, no JSON
    python benchmarks/formulations.py --threads 1   # one thread each
"""

import sys
import time

import numpy as np
from libsvm.svmutil import (
    svm_parameter,
    svm_predict,
    svm_problem,
    svm_train,
)
from pinning import pinned, threads_argument, write_results
from scaling import CACHE_MB, TOL, machine, synthetic
from sklearn import svm as sk
from sklearn.metrics.pairwise import rbf_kernel

import svmlib

REPEATS, HELD_OUT, BLOCK = 3, 1000, 2000
# name: (svmlib and scikit-learn class, LIBSVM's -s, the grid, n)
GRIDS = {
    "SVR": ("SVR", 3, {"C": [0.1, 1.0, 10.0], "gamma": [0.01, 0.05]}),
    "NuSVR": ("NuSVR", 4, {"nu": [0.2, 0.5], "C": [0.1, 1.0, 10.0]}),
    "OneClassSVM": ("OneClassSVM", 2, {"nu": [0.05, 0.2, 0.5]}),
    "NuSVC": ("NuSVC", 1, {"nu": [0.1, 0.3, 0.5, 0.8]}),
}
FIXED = {"SVR": {"epsilon": 0.1}, "NuSVR": {"gamma": 0.05}}
LIBSVM_FLAGS = {"C": "-c", "gamma": "-g", "nu": "-n", "epsilon": "-p"}


def regression_data(n, seed=0):
    """Scaling up's synthetic points with a smooth target plus noise,
    standardised."""
    X, _ = synthetic(n, seed)
    rng = np.random.default_rng(seed + 1)
    y = np.sin(X[:, 0]) + 0.5 * X[:, 1] * X[:, 2] + 0.1 * rng.normal(size=n)
    return X, (y - y.mean()) / y.std()


def data_for(name, n):
    """Training and held-out data for a formulation."""
    if name in ("SVR", "NuSVR"):
        X, y = regression_data(n + HELD_OUT)
    else:
        X, y = synthetic(n + HELD_OUT)
    return (X[:n], y[:n]), (X[n:], y[n:])


def quadratic(X, coef, gamma):
    """coef' K coef for the RBF kernel, a block of rows at a time."""
    support = np.flatnonzero(coef)
    c = coef[support]
    total = 0.0
    for s in range(0, support.size, BLOCK):
        part = support[s : s + BLOCK]
        total += c[s : s + BLOCK] @ (
            rbf_kernel(X[part], X[support], gamma=gamma) @ c
        )
    return total


def objective(name, X, y, coef, parameters, gamma):
    """The dual objective of the formulation at the coefficients ``coef``
    (training order): alpha - alpha* for the regressions, alpha for the
    one-class SVM, y alpha / r for nu-SVC (rescaled to its sums)."""
    if name == "SVR":
        return (
            0.5 * quadratic(X, coef, gamma)
            + parameters["epsilon"] * np.abs(coef).sum()
            - y @ coef
        )
    if name == "NuSVR":
        return 0.5 * quadratic(X, coef, gamma) - y @ coef
    if name == "NuSVC":  # each label's multipliers add up to nu n / 2
        share = parameters["nu"] * y.size / 2
        coef = coef * share / np.abs(coef[coef > 0]).sum()
    return 0.5 * quadratic(X, coef, gamma)


def full_coef(support, values, n):
    """Coefficients in training order from the support vectors'."""
    coef = np.zeros(n)
    coef[support] = values
    return coef


def libsvm_coef(model, n):
    return full_coef(
        np.array(model.get_sv_indices()) - 1,
        [c[0] for c in model.get_sv_coef()],
        n,
    )


def cell(name, n, parameters, repeats):
    """One grid cell: the three fits side by side, and the comparisons."""
    class_name, libsvm_type, _ = GRIDS[name]
    (X, y), (X_test, y_test) = data_for(name, n)
    gamma = parameters.get("gamma", 0.05)
    options = {**FIXED.get(name, {}), **parameters, "gamma": gamma}
    ours = getattr(svmlib, class_name)(**options)
    theirs = getattr(sk, class_name)(**options)
    flags = " ".join(f"{LIBSVM_FLAGS[k]} {v}" for k, v in options.items())
    problem = svm_problem(y if name != "OneClassSVM" else np.ones(n), X)
    setting = svm_parameter(
        f"-s {libsvm_type} -t 2 {flags} -e {TOL} -m {CACHE_MB} -q"
    )
    fits = {
        "svmlib": lambda: ours.fit(X, y),
        "libsvm": lambda: svm_train(problem, setting),
        "sklearn": lambda: theirs.fit(X, y),
    }
    best = dict.fromkeys(fits, np.inf)
    for _ in range(repeats):
        for key, fit in fits.items():
            start = time.perf_counter()
            result = fit()
            best[key] = min(best[key], time.perf_counter() - start)
            if key == "libsvm":
                model = result
    mine = full_coef(ours.support_, ours.dual_coef_[0], n)
    reference = libsvm_coef(model, n)
    gap = abs(
        objective(name, X, y, mine, options, gamma)
        / objective(name, X, y, reference, options, gamma)
        - 1
    )
    labels, _, values = svm_predict(
        np.zeros(len(X_test)), X_test, model, "-q"
    )
    if name in ("SVR", "NuSVR"):
        alike = np.max(np.abs(ours.predict(X_test) - np.ravel(values)))
        alike /= y.std()
    else:
        alike = float(np.mean(ours.predict(X_test) == np.array(labels)))
    return {
        "n": n,
        "parameters": options,
        "seconds": best,
        "vs_libsvm": best["svmlib"] / best["libsvm"],
        "vs_sklearn": best["svmlib"] / best["sklearn"],
        "objective_gap": gap,
        "alike": alike,
        "support": [int(ours.support_.size), int(model.l)],
    }


def grid_cells(name, n, repeats):
    _, _, grid = GRIDS[name]
    keys = list(grid)
    values = np.array(np.meshgrid(*grid.values())).T.reshape(-1, len(keys))
    return [
        cell(name, n, dict(zip(keys, map(float, row))), repeats)
        for row in values
    ]


def report(name, cells):
    print(f"\n{name}: time / LIBSVM 3.37, / scikit-learn; gap; alike")
    for c in cells:
        shown = ", ".join(f"{k}={v:g}" for k, v in c["parameters"].items())
        print(
            f"  n={c['n']:>6,} {shown:34s} {c['vs_libsvm']:5.2f} "
            f"{c['vs_sklearn']:5.2f}  {c['objective_gap']:.0e}  "
            f"{c['alike']:.4g}"
        )
    total = sum(c["seconds"]["svmlib"] for c in cells) / sum(
        c["seconds"]["libsvm"] for c in cells
    )
    print(f"  total time / LIBSVM 3.37: {total:.2f}")
    return total


def main(argv):
    quick = "--quick" in argv
    threads = threads_argument(argv)
    n, repeats = (1000, 1) if quick else (2000, REPEATS)
    large = {} if quick else {"SVR": 6000, "NuSVR": 6000, "NuSVC": 12000}
    with pinned(threads):
        results = {"machine": machine(threads), "grid": {}, "large": {}}
        svmlib.SVR().fit(*regression_data(50))  # compile numba's loops
        svmlib.NuSVC().fit(*synthetic(50))
        for name in GRIDS:
            cells = grid_cells(name, n, repeats)
            total = report(name, cells)
            results["grid"][name] = {"cells": cells, "total": total}
        for name, size in large.items():
            _, _, grid = GRIDS[name]
            middle = {k: float(v[len(v) // 2]) for k, v in grid.items()}
            results["large"][name] = cell(name, size, middle, 1)
            report(f"{name}, large", [results["large"][name]])
    if not quick:
        write_results("formulations", threads, results)


if __name__ == "__main__":
    main(sys.argv[1:])
