"""Benchmark (not a test): svmlib's WSS2 solver vs LIBSVM, in one run.

Synthetic two-class data (scikit-learn's make_classification: 20 features,
10 informative, 5% of the labels flipped, standardised), RBF kernel with
gamma = 0.05, C = 1, stopping tolerance 1e-3, a 200 MB kernel cache for
both.  For each n it prints both training times, their ratio (svmlib / SVC,
below 1 means svmlib is faster) and the relative difference of the dual
objectives, each computed from the model's own multipliers with the same
formula.

With the default sizes it writes ``benchmarks/results/smo_vs_libsvm.json``
(the chapter "The full SMO" may read it): for each n the times, the
iterations of both (svmlib's pair updates, scikit-learn's n_iter_) and the
objective difference, with the machine and its thread pools.  Every BLAS
and OpenMP pool is pinned to the same number of threads (``pinning``):
svmlib's numpy calls use that many BLAS threads; scikit-learn's copy of
LIBSVM is built without OpenMP and runs on one core whatever the setting.
Other sizes only print.

    python benchmarks/smo_vs_libsvm.py            # n = 1,000, 5,000, 20,000
    python benchmarks/smo_vs_libsvm.py 2000 8000  # other sizes, no JSON
    python benchmarks/smo_vs_libsvm.py --threads 1  # one thread each
"""

import sys
import time

import numpy as np
from pinning import pinned, threads_argument, write_results
from scaling import CACHE_MB, GAMMA, SETTINGS, TOL, C, machine, synthetic
from sklearn.svm import SVC

from svmlib import Kernel, solve
from svmlib.formulations.c_svc import c_svc_problem
from svmlib.kernels.kernel_cache import KernelColumns

BLOCK = 1000
SIZES = [1_000, 5_000, 20_000]


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


def main(sizes, threads):
    kernel = Kernel("rbf", gamma=GAMMA)
    rows = []
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
        rows.append(
            {
                "n": n,
                "svmlib_s": time_ours,
                "sklearn_s": time_svc,
                "svmlib_iterations": int(ours.n_iter),
                "sklearn_iterations": int(reference.n_iter_[0]),
                "objective_difference": float(difference),
            }
        )
    if sizes == SIZES:
        results = {
            "machine": machine(threads),
            "settings": SETTINGS,
            "sizes": rows,
        }
        write_results("smo_vs_libsvm", threads, results)


def sizes_argument(argv):
    """The sizes named in argv (every word but ``--threads N``)."""
    words = list(argv)
    if "--threads" in words:
        at = words.index("--threads")
        del words[at : at + 2]
    return [int(word) for word in words] or SIZES


if __name__ == "__main__":
    threads = threads_argument(sys.argv[1:])
    with pinned(threads):
        main(sizes_argument(sys.argv[1:]), threads)
