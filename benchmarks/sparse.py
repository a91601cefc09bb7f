"""Benchmark (not a test): SVC on sparse text data against LIBSVM.

Writes ``benchmarks/results/sparse.json`` and prints what it measures.  The
data are svmlib's synthetic bag of words
(``svmlib.book.text_data.make_documents``, the chapter "svmlib in
practice") as TF-IDF rows, CSR.  Over a grid of C for the
linear kernel and of C and gamma for the RBF kernel, in one process with
every BLAS and OpenMP pool pinned to the same number of threads
(``pinning``): svmlib's SVC (the default solver)
on the sparse matrix, LIBSVM 3.37 itself (``svm_train`` of
libsvm-official on the same CSR matrix, converted before the clock starts)
and scikit-learn's SVC (its sparse copy of LIBSVM), with tolerance 1e-3
and 200 MB caches, taking turns, each timed as the best of REPEATS fits.
For the smallest corpus svmlib also trains on the dense copy.  For each
fit: the times as multiples of LIBSVM's, the largest difference of the
decision values from scikit-learn's on held-out documents, and the share
of them predicted alike.

    python benchmarks/sparse.py           # everything (a few minutes)
    python benchmarks/sparse.py --quick   # a smaller run, no JSON
    python benchmarks/sparse.py --threads 1   # one thread each
"""

import sys
import time

import numpy as np
from libsvm.svmutil import svm_parameter, svm_problem, svm_train
from pinning import pinned, threads_argument, write_results
from scaling import CACHE_MB, TOL, machine
from sklearn import svm as sk
from sklearn.feature_extraction.text import TfidfVectorizer

import svmlib
from svmlib.book.text_data import make_documents

REPEATS, HELD_OUT = 3, 1000
SIZES = (2_000, 5_000, 10_000)
GRID = [("linear", C, None) for C in (0.1, 1.0, 10.0)] + [
    ("rbf", C, gamma) for C in (1.0, 10.0) for gamma in (0.5, 1.0)
]
LIBSVM_KERNELS = {"linear": 0, "rbf": 2}


def corpus(n, seed=0):
    """n training and HELD_OUT held-out documents as TF-IDF rows (the
    vocabulary from the training documents), with their topics."""
    documents, topics = make_documents(n + HELD_OUT, seed=seed)
    vectorizer = TfidfVectorizer().fit(documents[:n])
    X = vectorizer.transform(documents)
    y = (topics == topics[0]).astype(float)
    return (X[:n], y[:n]), (X[n:], y[n:])


def best_time(fit, repeats):
    """The shortest of ``repeats`` wall-clock times of ``fit()``, and its
    last result."""
    best = np.inf
    for _ in range(repeats):
        start = time.perf_counter()
        result = fit()
        best = min(best, time.perf_counter() - start)
    return best, result


def cell(n, kernel, C, gamma, repeats):
    """One point of the grid: times and agreement."""
    (X, y), (X_test, y_test) = corpus(n)
    options = {"kernel": kernel, "C": C, "tol": TOL, "cache_size": CACHE_MB}
    if gamma is not None:
        options["gamma"] = gamma
    problem = svm_problem(y, X)
    flags = (
        f"-s 0 -t {LIBSVM_KERNELS[kernel]} -c {C} -e {TOL} -m {CACHE_MB} -q"
        + (f" -g {gamma}" if gamma is not None else "")
    )
    times = {}
    times["LIBSVM 3.37"], _ = best_time(
        lambda: svm_train(problem, svm_parameter(flags)), repeats
    )
    times["svmlib"], ours = best_time(
        lambda: svmlib.SVC(**options).fit(X, y), repeats
    )
    times["scikit-learn"], theirs = best_time(
        lambda: sk.SVC(**options).fit(X, y), repeats
    )
    if n == SIZES[0]:
        dense = X.toarray()
        times["svmlib, dense copy"], _ = best_time(
            lambda: svmlib.SVC(**options).fit(dense, y), repeats
        )
    f_ours = ours.decision_function(X_test)
    f_theirs = theirs.decision_function(X_test)
    return {
        "n": n,
        "n_features": X.shape[1],
        "nnz_per_row": X.nnz / n,
        "kernel": kernel,
        "C": C,
        "gamma": gamma,
        "seconds": times,
        "ratio_to_libsvm": {
            name: seconds / times["LIBSVM 3.37"]
            for name, seconds in times.items()
        },
        "decision_difference": float(np.abs(f_ours - f_theirs).max()),
        "alike": float(np.mean((f_ours >= 0) == (f_theirs >= 0))),
        "accuracy": float(ours.score(X_test, y_test)),
        "n_support": int(ours.support_.size),
    }


def report(cells):
    """Print the cells, and per size the totals of the times."""
    print(
        f"{'n':>6} {'kernel':>6} {'C':>5} {'gamma':>5}"
        f" {'svmlib/LIBSVM':>13} {'svmlib/sklearn':>14}"
        f" {'dense/sparse':>12} {'max |df|':>9} {'alike':>6}"
    )
    for c in cells:
        seconds = c["seconds"]
        dense = seconds.get("svmlib, dense copy")
        dense_ratio = (
            "" if dense is None else f"{dense / seconds['svmlib']:.2f}"
        )
        print(
            f"{c['n']:>6} {c['kernel']:>6} {c['C']:>5}"
            f" {c['gamma'] or '':>5}"
            f" {c['ratio_to_libsvm']['svmlib']:>13.2f}"
            f" {seconds['svmlib'] / seconds['scikit-learn']:>14.2f}"
            f" {dense_ratio:>12}"
            f" {c['decision_difference']:>9.1e} {c['alike']:>6.3f}"
        )
    for n in sorted({c["n"] for c in cells}):
        total = {
            name: sum(c["seconds"][name] for c in cells if c["n"] == n)
            for name in ("svmlib", "LIBSVM 3.37", "scikit-learn")
        }
        print(
            f"n = {n}: total svmlib / LIBSVM 3.37 "
            f"{total['svmlib'] / total['LIBSVM 3.37']:.2f}, "
            f"/ scikit-learn {total['svmlib'] / total['scikit-learn']:.2f}"
        )


def main(argv):
    quick = "--quick" in argv
    sizes = SIZES[:1] if quick else SIZES
    grid = GRID[::2] if quick else GRID
    repeats = 1 if quick else REPEATS
    threads = threads_argument(argv)
    with pinned(threads):
        svmlib.SVC().fit(*corpus(200)[0])  # compile before any clock
        cells = [
            cell(n, kernel, C, gamma, repeats)
            for n in sizes
            for kernel, C, gamma in grid
        ]
        report(cells)
        if not quick:
            record = {"machine": machine(threads), "cells": cells}
            write_results("sparse", threads, record)


if __name__ == "__main__":
    main(sys.argv[1:])
