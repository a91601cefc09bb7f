"""Benchmark (not a test): the default svmlib.SVC() against LIBSVM 3.37.

Writes ``benchmarks/results/default_solver.json``, which the chapter "Fast
by default" reads, and prints what it measures.  Everything runs in one
process, every BLAS and OpenMP pool pinned to the same number of threads
(``pinning``: two by default, ``--threads 1`` for one): svmlib's
default ``SVC()`` (solver "auto"), LIBSVM 3.37 itself (``svm_train`` of the
libsvm-official package, in process; the data are converted to LIBSVM's
format before the clock starts), scikit-learn's ``SVC`` (its own copy of
LIBSVM), and svmlib's older solvers "smo" (the full SMO chapter's, the
previous default) and "batched" (Scaling up).  All with tolerance 1e-3
and 200 MB caches.  The three main contenders take turns, each timed as
the best of several fits; the older solvers are timed once or twice.

1. the grid: 3,000 synthetic points (Scaling up's data: 20 features,
   standardised), RBF kernel, C in {0.1, 1, 10, 100} x gamma in {0.005,
   0.05, 0.5}, with the time of the Gram matrix alone in each cell;
1b. larger grids: 20,000 points over the same C x gamma grid, and 50,000
   points over C in {0.1, 1, 10} x gamma in {0.005, 0.05}; the batched
   solver of Scaling up timed too, LIBSVM 3.37's update count at 20,000
   only (it costs one more fit);
2. workloads: synthetic data at n = 1,000 to 50,000 (gamma = 0.05, C = 1,
   and C = 100 at 5,000 and 20,000), and the book's real data sets with the
   estimator's defaults (heart_scale, breast cancer standardised, digits);
   with svmlib's peak memory (tracemalloc);
3. large C: the grid's points at gamma = 0.05 for C from 0.1 to 1,000, with
   the pair updates of every solver and the free support vectors;
4. the first call: a fresh process fitting a small problem with an empty
   numba cache (compiling) and with the cache in place;
5. cold and warm (``cold_warm.py``): each cell of the C x gamma grids at
   1,000, 5,000 and 10,000 points, larger cells at 20,000 and 50,000, and
   three multi-class sets, fitted by each contender in a fresh process of
   its own: the first fit of the process, and a warm one.

For each fit: the times, the largest relative difference of the dual
objectives (svmlib against LIBSVM 3.37; for the digits, each pair against
scikit-learn's), and the share of held-out points predicted alike.  The
pair updates of each solver: svmlib's and scikit-learn's n_iter_ summed over
the pairs of classes ('updates', 'sklearn_updates'), and LIBSVM 3.37's own
count ('libsvm_updates': the 'optimization finished, #iter = N' lines of an
extra, untimed fit without -q, summed likewise).  scikit-learn's copy is
another version of LIBSVM, with changes of its own, so its count can differ
from LIBSVM 3.37's.

    python benchmarks/default_solver.py           # everything (~10 minutes)
    python benchmarks/default_solver.py --quick   # a smaller run, no JSON
    python benchmarks/default_solver.py --threads 1 --headline
        # one thread each, the grids only: default_solver_1thread.json
    python benchmarks/default_solver.py --cold-only
    python benchmarks/default_solver.py --workloads-only
        # section 5 alone, stored into the existing JSON
"""

import json
import os
import re
import subprocess
import sys
import tempfile
import time
import tracemalloc
import warnings

import numpy as np
from cold_warm import cold_and_warm
from libsvm.svmutil import (
    svm_parameter,
    svm_predict,
    svm_problem,
    svm_train,
)
from pinning import (
    pinned,
    results_path,
    threads_argument,
    write_results,
)
from scaling import (
    CACHE_MB,
    TOL,
    machine,
    pair_objectives,
    synthetic,
)
from sklearn.datasets import load_breast_cancer, load_digits
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC as SklearnSVC

from svmlib import SVC, Kernel
from svmlib.book.libsvm_data import load_heart_scale
from svmlib.kernels.kernel_rows import KernelRows

GRID_N, HELD_OUT = 3000, 2000
CS, GAMMAS = [0.1, 1.0, 10.0, 100.0], [0.005, 0.05, 0.5]
LARGE_CS = [0.1, 1.0, 10.0, 100.0, 1000.0]
# n: (Cs, gammas) of the larger grids
LARGE_GRIDS = {
    20_000: (CS, GAMMAS),
    50_000: ([0.1, 1.0, 10.0], [0.005, 0.05]),
}
COUNT_LIBSVM_UPDATES_UP_TO = 20_000  # beyond, an extra LIBSVM fit is dear
SIZE_GAMMA = 0.05
BLOCK = 2000  # rows of the kernel at a time when computing objectives
SMALL_REPEATS = 60  # fits of a millisecond or two: the best of many


def best_in_turns(fits, repeats):
    """Call each of ``fits`` (a dict of functions) in turn, ``repeats``
    times; the best time and the last result of each."""
    best = dict.fromkeys(fits, np.inf)
    last = {}
    for _ in range(repeats):
        for name, fit in fits.items():
            start = time.perf_counter()
            last[name] = fit()
            best[name] = min(best[name], time.perf_counter() - start)
    return best, last


def libsvm_fit(X, y, C, gamma, quiet=True):
    """A function that trains LIBSVM 3.37 on (X, y), the conversion done
    beforehand; with ``quiet=False`` LIBSVM prints its progress."""
    problem = svm_problem(y, X)
    parameter = svm_parameter(
        f"-s 0 -t 2 -g {gamma} -c {C} -e {TOL} -m {CACHE_MB}"
        + (" -q" if quiet else "")
    )
    return lambda: svm_train(problem, parameter)


def libsvm_updates(X, y, C, gamma):
    """LIBSVM 3.37's own number of iterations (one pair update each),
    summed over the pairs of classes: an untimed fit without -q, its
    'optimization finished, #iter = N' lines read from the C library's
    standard output, redirected to a temporary file for the fit."""
    train = libsvm_fit(X, y, C, gamma, quiet=False)
    sys.stdout.flush()
    saved = os.dup(1)
    with tempfile.TemporaryFile() as captured:
        os.dup2(captured.fileno(), 1)
        try:
            train()  # LIBSVM flushes each line
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        captured.seek(0)
        text = captured.read().decode("ascii", errors="replace")
    counts = re.findall(r"#iter = (\d+)", text)
    if not counts:
        raise RuntimeError("LIBSVM printed no iteration count")
    return sum(int(count) for count in counts)


def binary_objective(X, y, alpha, gamma):
    """The C-SVC dual objective of alpha, the kernel a block at a time."""
    support = np.flatnonzero(alpha)
    signed = (y * alpha)[support]
    quadratic = 0.0
    for s in range(0, support.size, BLOCK):
        part = support[s : s + BLOCK]
        quadratic += signed[s : s + BLOCK] @ (
            rbf_kernel(X[part], X[support], gamma=gamma) @ signed
        )
    return 0.5 * quadratic - alpha.sum()


def libsvm_alpha(model, n):
    """The multipliers of a two-class LIBSVM model, in training order."""
    alpha = np.zeros(n)
    support = np.array(model.get_sv_indices()) - 1
    alpha[support] = np.abs([coef[0] for coef in model.get_sv_coef()])
    return alpha


def quietly(fit):
    """fit() with svmlib's ConvergenceWarnings silenced (the older solvers
    may stop at max_iter on the hardest cells; their times still count)."""

    def run():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            return fit()

    return run


def measure(label, data, split, C, gamma, repeats, old_solvers=("smo",)):
    """One workload: the default, LIBSVM 3.37 and scikit-learn in turns,
    then the older solvers; objectives, agreement, memory, updates."""
    X, y, X_test = split
    gamma_value = (
        gamma if gamma != "scale" else 1.0 / (X.shape[1] * X.var())
    )
    times, fitted = best_in_turns(
        {
            "svmlib": lambda: SVC(C=C, gamma=gamma_value).fit(X, y),
            "libsvm": libsvm_fit(X, y, C, gamma_value),
            "sklearn": lambda: SklearnSVC(
                C=C, gamma=gamma_value, cache_size=CACHE_MB
            ).fit(X, y),
        },
        repeats,
    )
    ours, model, theirs = (
        fitted["svmlib"],
        fitted["libsvm"],
        fitted["sklearn"],
    )
    row = {
        "label": label,
        "data": data,
        "n": int(y.size),
        "C": C,
        "gamma": float(gamma_value),
        "svmlib_s": times["svmlib"],
        "libsvm_s": times["libsvm"],
        "sklearn_s": times["sklearn"],
        "updates": int(ours.n_iter_.sum()),
        "sklearn_updates": int(theirs.n_iter_.sum()),
        "libsvm_updates": (
            libsvm_updates(X, y, C, gamma_value)
            if y.size <= COUNT_LIBSVM_UPDATES_UP_TO
            else None
        ),
    }
    for name in ("smo", "batched"):
        if name in old_solvers:
            seconds, older = best_in_turns(
                {
                    name: quietly(
                        lambda name=name: SVC(
                            C=C, gamma=gamma_value, solver=name
                        ).fit(X, y)
                    )
                },
                2 if y.size <= GRID_N else 1,
            )
            row[f"{name}_s"] = seconds[name]
            row[f"{name}_updates"] = int(older[name].n_iter_.sum())
        else:
            row[f"{name}_s"] = row[f"{name}_updates"] = None
    labels, _, _ = svm_predict([], X_test, model, "-q")
    row["agreement"] = float(np.mean(ours.predict(X_test) == labels))
    if ours.classes_.size == 2:
        alpha = np.zeros(y.size)
        alpha[ours.support_] = np.abs(ours.dual_coef_[0])
        signs = np.where(y == ours.classes_[1], 1.0, -1.0)
        mine = binary_objective(X, signs, alpha, gamma_value)
        reference = binary_objective(
            X, signs, libsvm_alpha(model, y.size), gamma_value
        )
        row["objective_difference"] = float(abs(mine / reference - 1))
        free = (alpha > 0) & (alpha < C)
        row["n_sv"], row["n_free"] = (
            int(alpha.astype(bool).sum()),
            int(free.sum()),
        )
    else:  # each pair against scikit-learn's LIBSVM
        mine = pair_objectives(ours, X, y, gamma_value)
        reference = pair_objectives(theirs, X, y, gamma_value)
        row["objective_difference"] = float(
            np.max(np.abs(mine / reference - 1))
        )
        row["n_sv"] = int(ours.support_.size)
    tracemalloc.start()
    SVC(C=C, gamma=gamma_value).fit(X, y)
    row["peak_mb"] = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    ratio = row["svmlib_s"] / row["libsvm_s"]
    counted = row["libsvm_updates"]
    print(
        f"{label:28s} auto {row['svmlib_s']:7.3f} s  LIBSVM "
        f"{row['libsvm_s']:7.3f} s  ratio {ratio:5.2f}  sklearn "
        f"{row['sklearn_s'] / row['libsvm_s']:5.2f}  obj "
        f"{row['objective_difference']:.0e}  agree "
        f"{row['agreement']:.2%}  updates {row['updates']:,} "
        f"(LIBSVM {'-' if counted is None else f'{counted:,}'}, sklearn "
        f"{row['sklearn_updates']:,})  peak {row['peak_mb']:.0f} MB",
        flush=True,
    )
    return row


def synthetic_split(n):
    X, y = synthetic(n + HELD_OUT, seed=1)
    return X[:n], y[:n], X[n:]


def gram_time(X, gamma, repeats=5):
    """The best time of computing the Gram matrix of X as the dense path
    does (the matrix dropped after each, as a fit drops it)."""
    rows, every = (
        KernelRows(Kernel("rbf", gamma=gamma), X),
        np.arange(len(X)),
    )

    def compute():
        rows.compute(every, np.empty((len(X), len(X))))

    return best_in_turns({"gram": compute}, repeats)[0]["gram"]


def grid(n):
    split = synthetic_split(n)
    rows = []
    for C in CS:
        for gamma in GAMMAS:
            row = measure(
                f"C = {C:g}, gamma = {gamma:g}",
                "synthetic",
                split,
                C,
                gamma,
                3,
                ("smo", "batched"),
            )
            row["gram_s"] = gram_time(split[0], gamma)
            rows.append(row)
    return rows


def large_grid(n):
    """The grid of LARGE_GRIDS at n points: the default, LIBSVM 3.37,
    scikit-learn and the batched solver, one fit each."""
    split = synthetic_split(n)
    Cs, gammas = LARGE_GRIDS[n]
    return [
        measure(
            f"n = {n:,}, C = {C:g}, gamma = {gamma:g}",
            "synthetic",
            split,
            C,
            gamma,
            1,
            ("batched",),
        )
        for C in Cs
        for gamma in gammas
    ]


def real_data_sets():
    """The book's real data sets as (label, name, (X_train, y_train,
    X_test)): heart_scale (all points, tested on themselves), breast
    cancer standardised and the digits (stratified 70/30 splits)."""
    X, y = load_heart_scale()
    yield "heart_scale", "heart_scale", (X, y, X)
    X, y = load_breast_cancer(return_X_y=True)
    X_train, X_test, y_train, _ = train_test_split(
        X, y, test_size=0.3, random_state=0, stratify=y
    )
    scaler = StandardScaler().fit(X_train)
    yield (
        "breast cancer (std.)",
        "breast cancer",
        (scaler.transform(X_train), y_train, scaler.transform(X_test)),
    )
    X, y = load_digits(return_X_y=True)
    X_train, X_test, y_train, _ = train_test_split(
        X, y, test_size=0.3, random_state=0, stratify=y
    )
    yield "digits, 10 classes", "digits", (X_train, y_train, X_test)


def workloads(sizes):
    rows = []
    for n, C in sizes:
        repeats = 5 if n <= 1000 else 3 if n <= 5000 else 1
        old = ("smo", "batched") if n <= 5000 else ("batched",)
        rows.append(
            measure(
                f"n = {n:,}, C = {C:g}",
                "synthetic",
                synthetic_split(n),
                C,
                SIZE_GAMMA,
                repeats,
                old,
            )
        )
    for label, data, split in real_data_sets():
        rows.append(
            measure(
                label,
                data,
                split,
                1.0,
                "scale",
                SMALL_REPEATS,
                ("smo", "batched"),
            )
        )
    return rows


def large_c(n):
    split = synthetic_split(n)
    return [
        measure(
            f"C = {C:g}, gamma = {SIZE_GAMMA:g}",
            "synthetic",
            split,
            C,
            SIZE_GAMMA,
            3,
            ("smo", "batched"),
        )
        for C in LARGE_CS
    ]


FIRST_CALL = """
import time
start = time.perf_counter()
import svmlib
from svmlib.book.datasets import gaussian_blobs
imported = time.perf_counter()
X, y = gaussian_blobs(200, random_state=0)
svmlib.SVC().fit(X, y)
first = time.perf_counter()
svmlib.SVC().fit(X, y)
print(imported - start, first - start, time.perf_counter() - first)
"""


def first_call():
    """A fresh process: import svmlib and fit twice, with an empty numba
    cache, then again with the cache it left."""
    found = {}
    with tempfile.TemporaryDirectory() as cache:
        environment = dict(os.environ, NUMBA_CACHE_DIR=cache)
        for key in ("compile_s", "cached_s"):
            output = subprocess.run(
                [sys.executable, "-c", FIRST_CALL],
                env=environment,
                capture_output=True,
                text=True,
                check=True,
            ).stdout.split()
            found["import_s"], found[key], found["warm_s"] = map(
                float, output
            )
    print(
        f"first call: import {found['import_s']:.2f} s, compiling "
        f"{found['compile_s']:.2f} s, from the cache "
        f"{found['cached_s']:.2f} s, warm {found['warm_s']:.4f} s",
        flush=True,
    )
    return found


def cold_only(threads):
    """Section 5 alone, stored into the benchmark's existing JSON."""
    path = results_path("default_solver", threads)
    results = json.loads(path.read_text(encoding="utf-8"))
    results["cold_warm"] = cold_and_warm(threads)
    write_results("default_solver", threads, results)


WORKLOAD_SIZES = [  # (n, C) of the synthetic workloads
    (1000, 1.0),
    (5000, 1.0),
    (5000, 100.0),
    (20000, 1.0),
    (20000, 100.0),
    (50000, 1.0),
]


def workloads_only(threads):
    """Sections 2 and 3 (the first call and the workloads) alone, stored
    into the benchmark's existing JSON: for a rerun on a quieter
    machine."""
    path = results_path("default_solver", threads)
    results = json.loads(path.read_text(encoding="utf-8"))
    with pinned(threads):
        SVC().fit(*synthetic(300))  # compile, or load the compiled code
        results["first_call"] = first_call()
        results["workloads"] = workloads(WORKLOAD_SIZES)
    write_results("default_solver", threads, results)


def main(argv):
    quick = "--quick" in argv
    headline = "--headline" in argv  # the grids only
    threads = threads_argument(argv)
    if "--cold-only" in argv:
        cold_only(threads)
        return
    if "--workloads-only" in argv:
        workloads_only(threads)
        return
    with pinned(threads):
        SVC().fit(*synthetic(300))  # compile, or load the compiled code
        sizes = [(1000, 1.0), (5000, 1.0)] if quick else WORKLOAD_SIZES
        results = {
            "machine": machine(threads),
            "settings": {
                "tol": TOL,
                "cache_mb": CACHE_MB,
                "grid_n": GRID_N,
                "Cs": CS,
                "gammas": GAMMAS,
                "size_gamma": SIZE_GAMMA,
                "large_grids": {
                    str(n): {"Cs": Cs, "gammas": gammas}
                    for n, (Cs, gammas) in LARGE_GRIDS.items()
                },
            },
            "grid": grid(1000 if quick else GRID_N),
            "large_grids": {
                str(n): large_grid(n)
                for n in ([] if quick else LARGE_GRIDS)
                if not (headline and n > 20_000)
            },
        }
        if not headline:
            results["first_call"] = first_call()
            results["workloads"] = workloads(sizes)
            results["large_c"] = large_c(1000 if quick else GRID_N)
    if not headline:  # fresh processes, each pinned by itself
        results["cold_warm"] = cold_and_warm(threads, quick)
    if not quick:
        write_results("default_solver", threads, results)


if __name__ == "__main__":
    main(sys.argv[1:])
