"""Benchmark (not a test): svmlib's batched solver vs LIBSVM, in one run.

Writes ``benchmarks/results/scaling.json``, which the chapter "Scaling up"
reads, and prints:

1. the comparison the chapter's targets are stated in: synthetic two-class
   data (scikit-learn's make_classification, 20 features, 10 informative, 5%
   of the labels flipped, standardised), RBF kernel with gamma = 0.05, C =
   1, tolerance 1e-3, 200 MB caches, n = 1,000 to 50,000, and the book's
   real data sets (digits, breast cancer standardised, heart_scale) with the
   estimator's defaults. For each: both fit times (the best of several runs,
   the two estimators taking turns), their ratio, the largest relative
   difference of the dual objectives (computed here from each model's
   dual_coef_ with scikit-learn's kernel functions), the agreement of the
   predictions on held-out points, and svmlib's peak memory (tracemalloc:
   numpy's allocations);
2. fit times against n for all of the book's solvers (the chapter's log-log
   figure);
3. where the batched solver's time goes at n = 20,000 (cProfile), and four
   of its levers alone (kernel rows in blocks, keeping half of the working
   set, the digits' pairs side by side, and blocks of about 7 sqrt(n)
   variables against blocks of 1,024).

    python benchmarks/scaling.py           # everything (a few minutes)
    python benchmarks/scaling.py --quick   # smaller sizes, to try it out
"""

import cProfile
import json
import os
import platform
import pstats
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np
from sklearn.datasets import (
    load_breast_cancer,
    load_digits,
    make_classification,
)
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC as LibsvmSVC

import svmlib
from svmlib import (
    SVC,
    Kernel,
    KernelColumns,
    c_svc_problem,
    load_heart_scale,
    platt_smo,
    simplified_smo,
    soft_margin_dual,
    solve,
)
from svmlib.batched import batched_smo
from svmlib.kernel_rows import KernelRows
from svmlib.lockstep import solve_pairs_lockstep
from svmlib.multiclass import class_pairs, pair_members
from svmlib.solvers import SolverSettings

RESULTS = Path(__file__).resolve().parent / "results" / "scaling.json"
GAMMA, C, TOL, CACHE_MB = 0.05, 1.0, 1e-3, 200
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
        f"{100 * row['agreement']:>8.2f}% {peak:>8.1f}",
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
        f"{'ratio':>6s} {'obj diff':>10s} {'agree':>9s} {'peak MB':>8s}"
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
    "WSS2 (Chapter 6)": 20000,
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
        "WSS2 (Chapter 6)": lambda X, y: solve(
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


def profile(n):
    """Fractions of the batched solver's time at size n, by part of the
    round."""
    X, y = synthetic(n)
    profiler = cProfile.Profile()
    profiler.enable()
    batched_smo(
        X, y, C, Kernel("rbf", gamma=GAMMA), tol=TOL, cache_size=CACHE_MB
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
    return {"n": n, "total_s": total, "shares": shares}


def levers(n):
    """Two levers on their own: kernel rows by Chapter 6's
    KernelColumns.block against KernelRows, and the solver with and without
    keeping half of the working set."""
    X, y = synthetic(n)
    kernel = Kernel("rbf", gamma=GAMMA)
    indices = np.arange(1024)
    columns, rows = KernelColumns(kernel, X), KernelRows(kernel, X)
    out = np.empty((1024, n), dtype=np.float32)
    step = rows.rows_per_block
    seconds_columns, _ = timed(
        lambda: [
            out.__setitem__(
                slice(s, s + step), columns.block(indices[s : s + step])
            )
            for s in range(0, 1024, step)
        ],
        3,
    )
    seconds_rows, _ = timed(lambda: rows.compute(indices, out), 3)
    found = {
        "n": n,
        "columns_block_s": seconds_columns,
        "kernel_rows_s": seconds_rows,
    }
    for name, keep in (("keep_half", True), ("replace_all", False)):
        rounds = []
        start = time.perf_counter()
        batched_smo(
            X,
            y,
            C,
            kernel,
            tol=TOL,
            cache_size=CACHE_MB,
            keep_half=keep,
            callback=lambda r, v: rounds.append(r),
        )
        found[name] = {
            "rounds": len(rounds) - 1,
            "seconds": time.perf_counter() - start,
        }
    print(
        f"levers at n = {n:,}: rows {seconds_columns:.3f} s "
        f"(KernelColumns.block) vs {seconds_rows:.3f} s (KernelRows); "
        f"rounds {found['keep_half']['rounds']} keeping half vs "
        f"{found['replace_all']['rounds']} replacing all"
    )
    return found


def block_size_lever(sizes):
    """The batched solver with blocks of about 7 sqrt(n) variables (its
    rule) against blocks of BATCH_SIZE, side by side at each n (the best of
    a few runs each)."""
    import svmlib.batched as batched

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
    (svmlib.lockstep, as the estimator does) against one after the other
    with batched_smo (the best of several runs each)."""
    X, y = load_digits(return_X_y=True)
    X, _, y, _ = train_test_split(
        X, y, test_size=0.3, random_state=0, stratify=y
    )
    kernel = Kernel("rbf", gamma="scale").resolve(X)
    problems = [pair_members(y, a, b) for a, b in class_pairs(10)]
    settings = SolverSettings(C=1.0, tol=TOL, cache_size=CACHE_MB)
    side_by_side, _ = timed(
        lambda: solve_pairs_lockstep(kernel, X, problems, settings), 15
    )
    one_by_one, _ = timed(
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
    return {"side_by_side_s": side_by_side, "one_by_one_s": one_by_one}


def machine():
    """What the times were measured on (LIBSVM runs on one core; numpy's
    BLAS may use all)."""
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
    }


def main(argv):
    quick = "--quick" in argv
    sizes = [1_000, 5_000] if quick else [1_000, 5_000, 20_000, 50_000]
    growth_sizes = (
        [250, 500, 1000, 2000]
        if quick
        else [250, 500, 1000, 2000, 5000, 10000, 20000, 50000]
    )
    results = {
        "machine": machine(),
        "settings": {
            "gamma": GAMMA,
            "C": C,
            "tol": TOL,
            "cache_mb": CACHE_MB,
        },
        "comparison": comparison(sizes),
        "growth": growth(growth_sizes),
        "profile": profile(5_000 if quick else 20_000),
        "levers": levers(5_000 if quick else 20_000),
        "pairs": pairs_lever(),
        "block_sizes": block_size_lever(
            [2_000, 5_000] if quick else [2_000, 5_000, 20_000]
        ),
    }
    if not quick:
        RESULTS.parent.mkdir(exist_ok=True)
        RESULTS.write_text(
            json.dumps(results, indent=1) + "\n", encoding="utf-8"
        )
        print(f"wrote {RESULTS}")


if __name__ == "__main__":
    main(sys.argv[1:])
