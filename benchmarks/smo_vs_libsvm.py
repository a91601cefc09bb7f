"""Benchmark (not a test): svmlib's WSS2 solver vs LIBSVM, in one run.

Synthetic two-class data (scikit-learn's make_classification: 20 features,
10 informative, 5% of the labels flipped, standardised), RBF kernel with
gamma = 0.05, C = 1, stopping tolerance 1e-3, a 200 MB kernel cache for
both.  For each n it prints both training times, their ratio (svmlib / SVC,
below 1 means svmlib is faster) and the relative difference of the dual
objectives, each computed from the model's own multipliers with the same
formula.

    python benchmarks/smo_vs_libsvm.py            # n = 1,000, 5,000, 20,000
    python benchmarks/smo_vs_libsvm.py 2000 8000  # other sizes
"""

import sys
import time

import numpy as np
from sklearn.datasets import make_classification
from sklearn.svm import SVC

from svmlib import Kernel, KernelColumns, c_svc_problem, solve

GAMMA, C, TOL, CACHE_MB = 0.05, 1.0, 1e-3, 200
BLOCK = 1000


def synthetic(n, seed=0):
    X, y = make_classification(
        n_samples=n,
        n_features=20,
        n_informative=10,
        flip_y=0.05,
        random_state=seed,
    )
    return (X - X.mean(axis=0)) / X.std(axis=0), 2.0 * y - 1.0


def objective(X, y, alpha, kernel):
    """1/2 a'Qa - e'a from the kernel columns of the support vectors only
    (no n x n array)."""
    support = np.flatnonzero(alpha)
    columns = KernelColumns(kernel, X)
    Qa = np.zeros(y.shape[0])
    for start in range(0, support.size, BLOCK):
        chunk = support[start : start + BLOCK]
        Qa += (alpha[chunk] * y[chunk]) @ columns.block(chunk)
    return 0.5 * float((alpha * y) @ Qa) - float(alpha.sum())


def main(sizes):
    kernel = Kernel("rbf", gamma=GAMMA)
    print(
        f"{'n':>7s} {'svmlib (s)':>11s} {'SVC (s)':>9s} {'ratio':>6s} "
        f"{'iterations':>17s} {'objective diff':>15s}"
    )
    for n in sizes:
        X, y = synthetic(n)
        start = time.perf_counter()
        reference = SVC(
            C=C, kernel="rbf", gamma=GAMMA, tol=TOL, cache_size=CACHE_MB
        ).fit(X, y)
        time_svc = time.perf_counter() - start
        start = time.perf_counter()
        ours = solve(
            c_svc_problem(X, y, C, kernel, cache_size=CACHE_MB), tol=TOL
        )
        time_ours = time.perf_counter() - start
        alpha_svc = np.zeros(n)
        alpha_svc[reference.support_] = np.abs(reference.dual_coef_[0])
        ours_objective, svc_objective = (
            objective(X, y, ours.alpha, kernel),
            objective(X, y, alpha_svc, kernel),
        )
        difference = abs(ours_objective - svc_objective) / abs(
            svc_objective
        )
        iterations = f"{ours.n_iter:,} / {int(reference.n_iter_[0]):,}"
        print(
            f"{n:>7,} {time_ours:>11.2f} {time_svc:>9.2f} "
            f"{time_ours / time_svc:>6.2f} {iterations:>17s} "
            f"{difference:>15.1e}",
            flush=True,
        )


if __name__ == "__main__":
    main([int(arg) for arg in sys.argv[1:]] or [1_000, 5_000, 20_000])
