"""The first fit of a fresh process and a warm fit, cell by cell, for
svmlib's default SVC, scikit-learn's SVC and LIBSVM 3.37 (a section of
``default_solver.py``).

Each contender fits each cell in a process of its own: the process pins
its BLAS and OpenMP pools (environment variables before any import, then
threadpoolctl), imports the contender and makes the data, then times its
first fit (cold: for svmlib this includes importing numba and loading its
cached code) and the best of its next ``WARM_REPEATS`` fits (warm).  The
import of the contender itself is timed apart and not counted in either.
LIBSVM's data are converted to its format before the clock starts.
For svmlib the child also adds up, in its cold fit and in its best warm
fit, the seconds spent computing kernel rows (KernelRows.compute) and in
the compiled loop (signed_smo on the dense path, solve_block_compiled in
the rounds; in a cold fit this includes loading numba and its cached
code), for the chapter's picture of where the time goes.

    python benchmarks/default_solver.py --cold-only   # this section alone
"""

import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
CS, GAMMAS, SIZES = [0.1, 1.0, 10.0, 100.0], [0.01, 0.05, 0.2], [1000, 5000]
SIZES_FULL = [1000, 5000, 10_000]
# larger cells: n -> (Cs, gammas)
LARGE_CELLS = {20_000: ([1.0, 10.0], [0.05]), 50_000: ([1.0], [0.05])}
# multi-class sets: name -> (C, gamma)
MULTI_CLASS = {
    "digits": (1.0, 0.05),
    "blobs-5-class-10000": (1.0, 0.05),
    "blobs-10-class-20000": (1.0, 0.05),
}
WARM_REPEATS = 2
CONTENDERS = ("svmlib", "sklearn", "libsvm")

CHILD = r"""
import os, sys, time, json
threads = sys.argv[4]
for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[name] = threads
sys.path.insert(0, sys.argv[5])
import numpy as np
from threadpoolctl import threadpool_limits
contender, data = sys.argv[1], sys.argv[2]
settings = json.loads(sys.argv[3])
from cold_warm import make_data
X, y = make_data(data)
start = time.perf_counter()
if contender == "svmlib":
    from svmlib import SVC
    import svmlib.training.fast as fast
    from svmlib.kernels.kernel_rows import KernelRows
    spent = {"kernel_s": 0.0, "loop_s": 0.0}

    def timed(function, key):
        def run(*args, **kwargs):
            begin = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                spent[key] += time.perf_counter() - begin
        return run

    KernelRows.compute = timed(KernelRows.compute, "kernel_s")
    fast.signed_smo = timed(fast.signed_smo, "loop_s")
    fast.solve_block_compiled = timed(fast.solve_block_compiled, "loop_s")
elif contender == "sklearn":
    from sklearn.svm import SVC
else:
    from libsvm.svmutil import svm_parameter, svm_problem, svm_train
imported = time.perf_counter() - start
C, gamma = settings["C"], settings["gamma"]
if contender == "libsvm":
    problem = svm_problem(y.tolist(), X.tolist())
    flags = f"-s 0 -t 2 -c {C} -g {gamma} -e 0.001 -m 200 -q"
    fit = lambda: svm_train(problem, svm_parameter(flags))
else:
    fit = lambda: SVC(C=C, gamma=gamma, tol=1e-3, cache_size=200).fit(X, y)
parts = {}
with threadpool_limits(limits=int(threads)):
    start = time.perf_counter()
    fit()
    cold = time.perf_counter() - start
    if contender == "svmlib":
        parts["cold"] = dict(spent)
    warm = []
    for _ in range(int(sys.argv[6])):
        if contender == "svmlib":
            spent.update(kernel_s=0.0, loop_s=0.0)
        start = time.perf_counter()
        fit()
        warm.append(time.perf_counter() - start)
        if contender == "svmlib" and warm[-1] == min(warm):
            parts["warm"] = dict(spent)
times = {"import_s": imported, "cold_s": cold, "warm_s": min(warm)}
times.update({f"{key}_parts": value for key, value in parts.items()})
print(json.dumps(times))
"""


def make_data(name):
    """The data of a cell: 'synthetic-<n>' (Scaling up's: 20 features,
    10 informative, 5% of labels flipped, standardised), 'digits' (scaled
    to [0, 1]) or 'blobs-<k>-class-<n>' (k Gaussian blobs in 20
    dimensions, standardised)."""
    import numpy as np
    from sklearn.datasets import (
        load_digits,
        make_blobs,
        make_classification,
    )

    if name == "digits":
        X, y = load_digits(return_X_y=True)
        return X / 16.0, y
    if name.startswith("synthetic-"):
        n = int(name.split("-")[1])
        X, y = make_classification(
            n, 20, n_informative=10, flip_y=0.05, random_state=0
        )
    else:
        _, k, _, n = name.split("-")
        X, y = make_blobs(
            int(n), 20, centers=int(k), cluster_std=6.0, random_state=0
        )
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    return np.ascontiguousarray(X), y


def run_cell(contender, data, C, gamma, threads, repeats=WARM_REPEATS):
    """One contender on one cell in a fresh process: its import, cold and
    warm seconds."""
    output = subprocess.run(
        [
            sys.executable,
            "-c",
            CHILD,
            contender,
            data,
            json.dumps({"C": C, "gamma": gamma}),
            str(threads),
            str(HERE),
            str(repeats),
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return json.loads(output.strip().splitlines()[-1])


def cells(quick):
    """(data, C, gamma) of every cell."""
    sizes = SIZES if quick else SIZES_FULL
    found = [
        (f"synthetic-{n}", C, gamma)
        for n in sizes
        for C in CS
        for gamma in GAMMAS
    ]
    if not quick:
        found += [
            (f"synthetic-{n}", C, gamma)
            for n, (Cs, gammas) in LARGE_CELLS.items()
            for C in Cs
            for gamma in gammas
        ]
    found += [(name, C, gamma) for name, (C, gamma) in MULTI_CLASS.items()]
    return found


def cold_and_warm(threads, quick=False):
    """Every cell, every contender: a list of rows with the times and each
    time's ratio to scikit-learn's."""
    rows = []
    for data, C, gamma in cells(quick):
        row = {"data": data, "C": C, "gamma": gamma}
        for contender in CONTENDERS:
            row[contender] = run_cell(contender, data, C, gamma, threads)
        for contender in ("svmlib", "libsvm"):
            for key in ("cold_s", "warm_s"):
                row[contender][key.replace("_s", "_ratio")] = (
                    row[contender][key] / row["sklearn"][key]
                )
        print(
            f"{data:>22s} C={C:<6g} gamma={gamma:<5g} "
            f"cold {row['svmlib']['cold_s']:7.3f} s "
            f"({row['svmlib']['cold_ratio']:5.2f}x sklearn), "
            f"warm {row['svmlib']['warm_s']:7.3f} s "
            f"({row['svmlib']['warm_ratio']:5.2f}x)",
            flush=True,
        )
        rows.append(row)
    for key in ("cold", "warm"):
        total = sum(row["svmlib"][f"{key}_s"] for row in rows) / sum(
            row["sklearn"][f"{key}_s"] for row in rows
        )
        print(f"total {key}: {total:.2f}x scikit-learn's time")
    return rows


def print_table(rows):
    """The stored cells as a table: seconds and ratios to scikit-learn's,
    cold and warm, then the totals."""
    print(
        f"{'data':>20s} {'C':>5s} {'gamma':>5s} | {'sklearn cold':>12s} "
        f"{'warm':>6s} | {'svmlib cold':>11s} {'x':>5s} {'warm':>6s} "
        f"{'x':>5s} | {'LIBSVM cold x':>13s} {'warm x':>6s}"
    )
    for row in rows:
        sk, mine, lib = row["sklearn"], row["svmlib"], row["libsvm"]
        print(
            f"{row['data']:>20s} {row['C']:5g} {row['gamma']:5g} | "
            f"{sk['cold_s']:12.3f} {sk['warm_s']:6.3f} | "
            f"{mine['cold_s']:11.3f} {mine['cold_ratio']:5.2f} "
            f"{mine['warm_s']:6.3f} {mine['warm_ratio']:5.2f} | "
            f"{lib['cold_ratio']:13.2f} {lib['warm_ratio']:6.2f}"
        )
    for key in ("cold", "warm"):
        for contender in ("svmlib", "libsvm"):
            total = sum(row[contender][f"{key}_s"] for row in rows) / sum(
                row["sklearn"][f"{key}_s"] for row in rows
            )
            worse = sum(
                row[contender][f"{key}_ratio"] > 1.0 for row in rows
            )
            print(
                f"total {key} {contender}: {total:.2f}x scikit-learn's "
                f"time; {worse} of {len(rows)} cells above 1.0x"
            )


if __name__ == "__main__":  # the stored table
    stored = HERE / "results" / "default_solver.json"
    print_table(json.loads(stored.read_text(encoding="utf-8"))["cold_warm"])
