"""Benchmark (not a test): svmlib's batched solver vs LIBSVM, in one run.

Writes ``benchmarks/results/scaling.json``, which the chapter "Scaling up"
reads, and prints what it measures.  Every BLAS and OpenMP pool is pinned
to the same number of threads for the whole run (``pinning.pinned``: two by
default, both cores of the book's machines; ``--threads 1`` for one), and
the pools are recorded in the JSON's "machine" entry.  scikit-learn's copy
of LIBSVM computes its kernel values in a scalar loop of its own and runs on
one thread whatever the setting.
It measures:

1. the comparison the chapter's targets are stated in: synthetic two-class
   data (scikit-learn's make_classification, 20 features, 10 informative, 5%
   of the labels flipped, standardised), RBF kernel with gamma = 0.05, C =
   1, tolerance 1e-3, 200 MB caches, n = 1,000 to 50,000, and the book's
   real data sets (digits, breast cancer standardised, heart_scale) with the
   estimator's defaults. For each: both fit times (the best of several runs,
   the two estimators taking turns), their ratio, the pair updates each
   made ('iterations': svmlib's n_iter_ summed over the pairs of classes,
   which counts pair updates; 'svc_iterations': scikit-learn's n_iter_
   summed likewise, LIBSVM's iterations, each one pair update), the largest
   relative difference of the dual objectives (computed here from each
   model's dual_coef_ with scikit-learn's kernel functions), the agreement
   of the predictions on held-out points, and svmlib's peak memory
   (tracemalloc: numpy's allocations);
2. fit times against n for all of the book's solvers (the chapter's log-log
   figure and its local slopes);
3. where the batched solver's time goes at n = 20,000 and at n = 1,000
   (cProfile), and its levers alone: kernel rows by one matrix product per
   block against the full SMO chapter's KernelColumns.block, in double
   precision, then
   the same in single precision, and the augmented product of
   eq. (eq-augmented-product) against adding the norms in separate passes;
   keeping half of the working set; the drift of the kept gradient in
   single precision; one BLAS thread against the pinned setting; the digits'
   pairs side by side (with each problem's pair updates both ways); and
   blocks of about 7 sqrt(n) variables against blocks of 1,024.

    python benchmarks/scaling.py           # everything (a few minutes)
    python benchmarks/scaling.py --quick   # smaller sizes, to try it out
    python benchmarks/scaling.py --threads 1   # writes scaling_1thread.json
"""

import cProfile
import os
import platform
import pstats
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np
from pinning import pinned, thread_pools, threads_argument, write_results
from sklearn.datasets import (
    load_breast_cancer,
    load_digits,
    make_classification,
)
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC as LibsvmSVC
from threadpoolctl import threadpool_limits

import svmlib
from svmlib import SVC, Kernel, soft_margin_dual, solve
from svmlib.book.libsvm_data import load_heart_scale
from svmlib.formulations.c_svc import c_svc_problem
from svmlib.formulations.multiclass import class_pairs, pair_members
from svmlib.kernels.kernel_cache import KernelColumns
from svmlib.kernels.kernel_rows import KernelRows
from svmlib.smo.platt import platt_smo
from svmlib.smo.simplified_smo import simplified_smo
from svmlib.training.batched import (
    batched_smo,
    c_svc_block_problem,
    exact_psi,
)
from svmlib.training.lockstep import solve_pairs_lockstep
from svmlib.training.solvers import SolverSettings

GAMMA, C, TOL, CACHE_MB = 0.05, 1.0, 1e-3, 200
SETTINGS = {"gamma": GAMMA, "C": C, "tol": TOL, "cache_mb": CACHE_MB}
BLOCK = 2000


def synthetic(n, seed=0):
    X, t = make_classification(
        n_samples=n,
        n_features=20,
        n_informative=10,
        flip_y=0.05,
        random_state=seed,
    )
    return (X - X.mean(axis=0)) / X.std(axis=0), np.where(t == 1, 1.0, -1.0)


def timed(fit, repeats):
    """The best time of ``repeats`` calls of fit(), and its last result."""
    best, result = np.inf, None
    for _ in range(repeats):
        start = time.perf_counter()
        result = fit()
        best = min(best, time.perf_counter() - start)
    return best, result


def pair_objectives(model, X, y, gamma):
    """The dual objective of each pair of classes, from the model's public
    attributes only."""
    classes = model.classes_
    k = classes.size
    start = np.concatenate([[0], np.cumsum(model.n_support_)])
    y_index = np.searchsorted(classes, y)
    objectives = []
    for i in range(k):
        for j in range(i + 1, k):
            alpha = np.zeros(y.size)
            alpha[model.support_[start[i] : start[i + 1]]] = np.abs(
                model.dual_coef_[j - 1, start[i] : start[i + 1]]
            )
            alpha[model.support_[start[j] : start[j + 1]]] = np.abs(
                model.dual_coef_[i, start[j] : start[j + 1]]
            )
            sv = np.flatnonzero(alpha)
            signed = alpha[sv] * np.where(y_index[sv] == i, 1.0, -1.0)
            quadratic = 0.0
            for s in range(0, sv.size, BLOCK):
                quadratic += signed[s : s + BLOCK] @ (
                    rbf_kernel(X[sv[s : s + BLOCK]], X[sv], gamma=gamma)
                    @ signed
                )
            objectives.append(0.5 * quadratic - alpha.sum())
    return np.array(objectives)


def timed_side_by_side(fit_a, fit_b, repeats):
    """The best times of ``repeats`` calls of fit_a() and of fit_b(), the
    calls alternating so that a passing slowdown of the machine falls on
    both; and the last results."""
    best_a = best_b = np.inf
    for _ in range(repeats):
        start = time.perf_counter()
        result_a = fit_a()
        best_a = min(best_a, time.perf_counter() - start)
        start = time.perf_counter()
        result_b = fit_b()
        best_b = min(best_b, time.perf_counter() - start)
    return best_a, result_a, best_b, result_b


def compare(name, X_train, y_train, X_test, repeats, **parameters):
    """Fit both estimators side by side; the row of the comparison table."""
    time_svc, theirs, time_ours, ours = timed_side_by_side(
        lambda: LibsvmSVC(cache_size=CACHE_MB, tol=TOL, **parameters).fit(
            X_train, y_train
        ),
        lambda: SVC(
            solver="batched", cache_size=CACHE_MB, tol=TOL, **parameters
        ).fit(X_train, y_train),
        repeats,
    )
    tracemalloc.start()
    SVC(solver="batched", cache_size=CACHE_MB, tol=TOL, **parameters).fit(
        X_train, y_train
    )
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    gamma = ours._kernel.gamma
    mine, reference = (
        pair_objectives(ours, X_train, y_train, gamma),
        pair_objectives(theirs, X_train, y_train, gamma),
    )
    row = {
        "data": name,
        "n": int(y_train.size),
        "svmlib_s": time_ours,
        "svc_s": time_svc,
        "ratio": time_ours / time_svc,
        "objective_difference": float(
            np.max(np.abs(mine - reference) / np.abs(reference))
        ),
        "agreement": float(
            np.mean(ours.predict(X_test) == theirs.predict(X_test))
        ),
        "peak_mb": peak,
        "iterations": int(ours.n_iter_.sum()),
        "svc_iterations": int(theirs.n_iter_.sum()),
    }
    print(
        f"{name:>22s} {row['n']:>7,} {time_ours:>9.3f} {time_svc:>9.3f} "
        f"{row['ratio']:>6.2f} {row['objective_difference']:>10.1e} "
        f"{100 * row['agreement']:>8.2f}% {peak:>8.1f} "
        f"{row['iterations']:>7,} {row['svc_iterations']:>7,}",
        flush=True,
    )
    return row


def warm_up():
    """A few untimed fits of both estimators first: the first fits in a
    process are slower (imports, and fresh memory that the system must map),
    for LIBSVM too."""
    X, y = synthetic(1000)
    for _ in range(20):
        LibsvmSVC(cache_size=CACHE_MB, tol=TOL, gamma=GAMMA).fit(X, y)
        SVC(
            solver="batched", cache_size=CACHE_MB, tol=TOL, gamma=GAMMA
        ).fit(X, y)


def comparison(sizes):
    warm_up()
    print(
        f"{'data':>22s} {'n':>7s} {'svmlib s':>9s} {'SVC s':>9s} "
        f"{'ratio':>6s} {'obj diff':>10s} {'agree':>9s} {'peak MB':>8s} "
        f"{'updates':>7s} {'SVC upd':>7s}"
    )
    rows = []
    for n in sizes:
        X, y = synthetic(n + 2000, seed=1)
        X_train, X_test, y_train, y_test = X[:n], X[n:], y[:n], y[n:]
        rows.append(
            compare(
                "synthetic",
                X_train,
                y_train,
                X_test,
                15
                if n <= 1000
                else 5
                if n <= 5000
                else 3
                if n <= 20000
                else 1,
                kernel="rbf",
                gamma=GAMMA,
                C=C,
            )
        )
    X, y = load_digits(return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, test_size=0.3, random_state=0, stratify=y
    )
    rows.append(compare("digits", X_train, y_train, X_test, 25))
    X, y = load_breast_cancer(return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, test_size=0.3, random_state=0, stratify=y
    )
    scaler = StandardScaler().fit(X_train)
    rows.append(
        compare(
            "breast cancer (std.)",
            scaler.transform(X_train),
            y_train,
            scaler.transform(X_test),
            25,
        )
    )
    X, y = load_heart_scale()
    rows.append(compare("heart_scale", X, y, X, 25))
    return rows


SOLVER_LIMITS = {
    "cvxopt": 2000,
    "simplified SMO": 1000,
    "Platt": 2000,
    "WSS2 (full SMO)": 20000,
    "batched": 50000,
    "LIBSVM": 50000,
}


def growth(sizes):
    """Fit time against n for every solver of the book, each up to the size
    it can manage."""
    kernel = Kernel("rbf", gamma=GAMMA)
    fits = {
        "cvxopt": lambda X, y: soft_margin_dual(kernel(X), y, C),
        "simplified SMO": lambda X, y: simplified_smo(X, y, C, kernel),
        "Platt": lambda X, y: platt_smo(X, y, C, kernel),
        "WSS2 (full SMO)": lambda X, y: solve(
            c_svc_problem(X, y, C, kernel, cache_size=CACHE_MB), tol=TOL
        ),
        "batched": lambda X, y: batched_smo(
            X, y, C, kernel, tol=TOL, cache_size=CACHE_MB
        ),
        "LIBSVM": lambda X, y: LibsvmSVC(
            C=C, gamma=GAMMA, tol=TOL, cache_size=CACHE_MB
        ).fit(X, y),
    }
    times = {name: {} for name in fits}
    for n in sizes:
        X, y = synthetic(n)
        line = []
        for name, fit in fits.items():
            if n <= SOLVER_LIMITS[name]:
                seconds, _ = timed(lambda: fit(X, y), 3 if n <= 2000 else 1)
                times[name][str(n)] = seconds
                line.append(f"{name} {seconds:.3f}")
        print(f"n = {n:>6,}: " + ", ".join(line), flush=True)
    return times


def profile(n, repeats=1):
    """Fractions of the batched solver's time at size n, by part of the
    round (``repeats`` fits under the profiler), and its pair updates."""
    X, y = synthetic(n)
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(repeats):
        result = batched_smo(
            X,
            y,
            C,
            Kernel("rbf", gamma=GAMMA),
            tol=TOL,
            cache_size=CACHE_MB,
        )
    profiler.disable()
    stats = pstats.Stats(profiler).stats
    total = max(value[3] for value in stats.values())
    parts = {
        "kernel rows": "compute",
        "inner solver": "solve_block",
        "selection": "select_batch",
    }
    found = {
        label: sum(
            value[3]
            for key, value in stats.items()
            if key[2] == function and "svmlib" in key[0]
        )
        for label, function in parts.items()
    }
    found["rest (gradient update, bookkeeping)"] = total - sum(
        found.values()
    )
    shares = {label: seconds / total for label, seconds in found.items()}
    print(
        f"batched solver at n = {n:,}: "
        + ", ".join(f"{k} {100 * v:.0f}%" for k, v in shares.items())
    )
    return {
        "n": n,
        "total_s": total / repeats,
        "updates": int(result.n_iter),
        "shares": shares,
    }


def rows_in_separate_passes(rows, indices, out, X_single, norms_single):
    """Kernel rows as KernelRows.compute makes them in single precision, but
    with the squared distances formed as the scaled -2 X_I X' plus the two
    norms added in separate passes (the alternative to the augmented
    product of eq. (eq-augmented-product))."""
    factor = np.float32(-2.0 * rows.size**2)
    step = rows.rows_per_block
    for s in range(0, len(indices), step):
        part = indices[s : s + step]
        target = out[s : s + len(part)]
        np.matmul(X_single[part], X_single.T, out=target)
        target *= factor
        target += norms_single[part][:, None]
        target += norms_single[None, :]
        np.maximum(target, 0.0, out=target)
        rows.formula(target, **rows.parameters, out=target)
    return out


def row_levers(n):
    """1,024 kernel rows at size n, four ways: the full SMO chapter's
    KernelColumns.block (new arrays for every block, close pairs
    re-checked) copied into a double-precision buffer; KernelRows into a
    double-precision buffer (the block method alone); KernelRows into a
    single-precision buffer (then single precision alone); and the
    single-precision rows with the norms added in separate passes."""
    X, _ = synthetic(n)
    kernel = Kernel("rbf", gamma=GAMMA)
    indices = np.arange(1024)
    columns, rows = KernelColumns(kernel, X), KernelRows(kernel, X)
    out_double = np.ones((1024, n))  # touched before the timing
    out_single = np.ones((1024, n), dtype=np.float32)
    step = rows.rows_per_block
    X_single = np.ascontiguousarray(rows.X, dtype=np.float32)
    norms_single = (rows.norms * rows.size**2).astype(np.float32)
    found = {"n": n}
    for name, fill in (
        (
            "columns_block_s",
            lambda: [
                out_double.__setitem__(
                    slice(s, s + step), columns.block(indices[s : s + step])
                )
                for s in range(0, 1024, step)
            ],
        ),
        ("kernel_rows_double_s", lambda: rows.compute(indices, out_double)),
        ("kernel_rows_s", lambda: rows.compute(indices, out_single)),
        (
            "separate_passes_s",
            lambda: rows_in_separate_passes(
                rows, indices, out_single, X_single, norms_single
            ),
        ),
    ):
        found[name], _ = timed(fill, 5)
    print(
        f"1,024 rows at n = {n:,}: KernelColumns.block "
        f"{found['columns_block_s']:.3f} s, KernelRows in double "
        f"{found['kernel_rows_double_s']:.3f} s, in single "
        f"{found['kernel_rows_s']:.3f} s, norms in separate passes "
        f"{found['separate_passes_s']:.3f} s",
        flush=True,
    )
    return found


class DriftProbe:
    """Wraps svmlib.training.batched.exact_psi while installed: at each
    exact recomputation of psi inside solve_batched, records the largest
    difference between the psi the rounds kept (read from the caller's
    frame) and the recomputed one."""

    def __init__(self):
        import svmlib.training.batched as batched

        self.module, self.original, self.differences = (
            batched,
            batched.exact_psi,
            [],
        )

    def __call__(self, problem, alpha, storage=None):
        psi = self.original(problem, alpha, storage)
        kept = sys._getframe(1).f_locals.get("psi")
        if kept is not None:
            self.differences.append(float(np.max(np.abs(kept - psi))))
        return psi

    def __enter__(self):
        self.module.exact_psi = self
        return self

    def __exit__(self, *exc):
        self.module.exact_psi = self.original


def levers(n):
    """The solver at size n with and without keeping half of the working
    set (rounds, pair updates, time); the drift of the kept psi at the exact
    checks, and the error of the exact psi itself (single-precision rows
    summed in double precision) against psi from double-precision rows."""
    X, y = synthetic(n)
    kernel = Kernel("rbf", gamma=GAMMA)
    found = row_levers(n)
    for name, keep in (("keep_half", True), ("replace_all", False)):
        rounds = []
        with DriftProbe() as probe:
            seconds, result = timed(
                lambda: batched_smo(
                    X,
                    y,
                    C,
                    kernel,
                    tol=TOL,
                    cache_size=CACHE_MB,
                    keep_half=keep,
                    callback=lambda r, v: rounds.append(r),
                ),
                1,
            )
        found[name] = {
            "rounds": len(rounds) - 1,
            "updates": int(result.n_iter),
            "seconds": seconds,
        }
        if keep:
            single = c_svc_block_problem(X, y, C, kernel)
            double = c_svc_block_problem(X, y, C, kernel)
            double.Q.storage = np.dtype(np.float64)
            found["drift"] = {
                "kept_vs_exact": probe.differences,
                "exact_vs_double": float(
                    np.max(
                        np.abs(
                            exact_psi(single, result.alpha)
                            - exact_psi(double, result.alpha)
                        )
                    )
                ),
            }
    print(
        f"levers at n = {n:,}: rounds {found['keep_half']['rounds']} "
        f"keeping half vs {found['replace_all']['rounds']} replacing all; "
        f"drift of the kept psi {found['drift']['kept_vs_exact']}, "
        f"exact psi vs double {found['drift']['exact_vs_double']:.1e}",
        flush=True,
    )
    return found


def threads_lever(sizes):
    """The bare batched solver with one BLAS thread against the run's
    setting, side by side at each n (one run each)."""
    kernel = Kernel("rbf", gamma=GAMMA)
    found = {}
    for n in sizes:
        X, y = synthetic(n)

        def fit():
            return batched_smo(
                X, y, C, kernel, tol=TOL, cache_size=CACHE_MB
            )

        def fit_one_thread():
            with threadpool_limits(limits=1, user_api="blas"):
                return fit()

        both, _, one, _ = timed_side_by_side(fit, fit_one_thread, 1)
        found[str(n)] = {"threads_s": both, "one_thread_s": one}
        print(
            f"n = {n:,}: pinned threads {both:.3f} s, one {one:.3f} s",
            flush=True,
        )
    return found


def block_size_lever(sizes):
    """The batched solver with blocks of about 7 sqrt(n) variables (its
    rule) against blocks of BATCH_SIZE, side by side at each n (the best of
    a few runs each)."""
    import svmlib.training.batched as batched

    kernel = Kernel("rbf", gamma=GAMMA)
    found = {}
    for n in sizes:
        X, y = synthetic(n)
        repeats = 5 if n <= 5000 else 2
        rule, _ = timed(
            lambda: batched_smo(
                X, y, C, kernel, tol=TOL, cache_size=CACHE_MB
            ),
            repeats,
        )
        saved, batched.BLOCK_PER_ROOT_N = (
            batched.BLOCK_PER_ROOT_N,
            float(n),
        )  # never below BATCH_SIZE
        try:
            fixed, _ = timed(
                lambda: batched_smo(
                    X, y, C, kernel, tol=TOL, cache_size=CACHE_MB
                ),
                repeats,
            )
        finally:
            batched.BLOCK_PER_ROOT_N = saved
        found[str(n)] = {
            "block": int(round(saved * np.sqrt(n))),
            "rule_s": rule,
            "fixed_s": fixed,
        }
        print(
            f"n = {n:,}: blocks of {found[str(n)]['block']} {rule:.3f} s "
            f"vs blocks of {batched.BATCH_SIZE} {fixed:.3f} s"
        )
    return found


def pairs_lever():
    """The digits' 45 pairs of classes: solved side by side
    (svmlib.training.lockstep, as the estimator does) against one after
    the other with batched_smo (the best of several runs each), with each
    problem's pair updates both ways."""
    X, y = load_digits(return_X_y=True)
    X, _, y, _ = train_test_split(
        X, y, test_size=0.3, random_state=0, stratify=y
    )
    kernel = Kernel("rbf", gamma="scale").resolve(X)
    problems = [pair_members(y, a, b) for a, b in class_pairs(10)]
    settings = SolverSettings(C=1.0, tol=TOL, cache_size=CACHE_MB)
    side_by_side, together = timed(
        lambda: solve_pairs_lockstep(kernel, X, problems, settings), 15
    )
    one_by_one, alone = timed(
        lambda: [
            batched_smo(X[members], labels, 1.0, kernel, tol=TOL)
            for members, labels in problems
        ],
        15,
    )
    print(
        f"digits' 45 pairs: {side_by_side:.4f} s side by side vs "
        f"{one_by_one:.4f} s one after the other"
    )
    return {
        "side_by_side_s": side_by_side,
        "one_by_one_s": one_by_one,
        "side_by_side_updates": [int(r.n_iter) for r in together],
        "one_by_one_updates": [int(r.n_iter) for r in alone],
    }


def machine(threads):
    """What the times were measured on: the machine, the threads every
    contender was pinned to, and the thread pools (BLAS and OpenMP) as
    threadpoolctl reports them while pinned."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    blas = (
        np.show_config(mode="dicts")
        .get("Build Dependencies", {})
        .get("blas", {})
    )
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "blas": (
            f"{blas.get('name', '?')} {blas.get('version', '')}".strip()
        ),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "svmlib": svmlib.__version__,
        "threads": threads,
        "blas_threads": threads,
        "omp_threads": threads,
        "thread_pools": thread_pools(),
    }


def main(argv):
    threads = threads_argument(argv)
    with pinned(threads):
        run(argv, threads)


def run(argv, threads):
    quick = "--quick" in argv
    sizes = [1_000, 5_000] if quick else [1_000, 5_000, 20_000, 50_000]
    growth_sizes = (
        [250, 500, 1000, 2000]
        if quick
        else [250, 500, 1000, 2000, 5000, 10000, 20000, 50000]
    )
    results = {
        "machine": machine(threads),
        "settings": SETTINGS,
        "comparison": comparison(sizes),
        "growth": growth(growth_sizes),
        "profile": profile(5_000 if quick else 20_000),
        "profile_small": profile(1_000, repeats=10),
        "levers": levers(5_000 if quick else 20_000),
        "threads": threads_lever([5_000] if quick else [20_000, 50_000]),
        "pairs": pairs_lever(),
        "block_sizes": block_size_lever(
            [2_000, 5_000] if quick else [2_000, 5_000, 20_000]
        ),
    }
    if not quick:
        write_results("scaling", threads, results)


if __name__ == "__main__":
    main(sys.argv[1:])
