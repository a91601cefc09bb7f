"""Benchmark (not a test): svmlib.LinearSVC against LIBLINEAR.

Writes ``benchmarks/results/linear.json``, which the chapter "Linear SVMs
at scale" reads, and prints what it measures.  Everything runs in one
process with every BLAS and OpenMP pool pinned to the same number of
threads (``pinning``; two by default).  Two LIBLINEARs:

- scikit-learn's LinearSVC (its bundled copy of LIBLINEAR, an older
  version with the trust-region Newton method, the dual stopping rule
  max PG - min PG <= tol, and max_iter passes), called with the same
  loss, dual, C, tol and max_iter as svmlib; the keys "liblinear_*";
- LIBLINEAR 2.50 itself (the package liblinear-official, in process),
  -s 3 (hinge, dual), -s 1 (squared hinge, dual) or -s 2 (squared
  hinge, primal), -c C, -e tol, -B intercept_scaling; the keys
  "official_*".

Both run on one thread whatever the setting (neither is built with
OpenMP), as do svmlib's compiled passes; svmlib's Newton method uses the
BLAS's threads for dense products.  The stopping rules line up through
tol = -e: the dual rule of svmlib and of LIBLINEAR 2.50 is max |PG| <=
tol and max PG - min PG <= tol (svmlib also confirms it on recomputed
gradients), scikit-learn's copy tests the spread only; the primal rule,
eq. (eq-primal-stopping), is the same in all three.  What cannot be
aligned: LIBLINEAR 2.50 fixes its dual solvers' limit at 300 passes (no
option sets it), after which -s 1 switches to its primal solver with
tol / 10 and -s 3 stops with a warning; scikit-learn and svmlib stop
after max_iter passes.  The cells record whether 2.50 switched.  Each
time is the best of REPEATS fits, the three taking turns.  LIBLINEAR
2.50's data are converted into its own format before its clock starts
(its Python interface converts them more slowly than the solver runs);
scikit-learn's time includes its conversion, done in C, and svmlib reads
the arrays as they are.

1. The grid: dense points (make_classification, N_TRAIN points, 50 features,
   10 informative, 1% of the labels flipped, standardised) and sparse ones
   (svmlib.book.text_data.make_documents, N_TRAIN documents as TF-IDF rows,
   CSR), C in (0.01, 0.1, 1) and loss in (hinge, squared_hinge), by dual
   coordinate descent (dual=True); and the primal (dual=False, squared
   hinge) for each C, where svmlib is also timed with the BLAS on one
   thread; all at scikit-learn's tol = 1e-4 and max_iter = 1000.  The dense
   hinge cells again at LIBLINEAR's own default, tol = 0.1.  For each cell:
   both times and their ratio, both numbers of passes (n_iter_), the
   relative difference of the primal objectives Jbar (computed here from
   each model's coef_ and intercept_), and the share of held-out points both
   predict alike.
2. svmlib's peak memory (tracemalloc: numpy's allocations) for a fit on
   each data set, against the size of the data.
3. One objective, three algorithms: the soft margin's J(w, b), offset free,
   on synthetic points (N_THREE of them, 20 features): svmlib.SVC with the
   linear kernel (the default solver), Pegasos' subgradient steps
   (svmlib.derivation.hinge.subgradient_descent), and dual coordinate
   descent with the offset folded in (LinearSVC, hinge) for
   intercept_scaling 1 and 10; times, J relative to the kernel solver's,
   held-out accuracy.
4. Approximate kernels: N_KERNEL points of a problem that needs a
   nonlinear boundary (the sign of x_1 x_2 plus noise, 10 features);
   svmlib.SVC with the RBF kernel against random Fourier features and
   the Nystroem method (scikit-learn's RBFSampler and Nystroem, the maps
   the chapter derives) followed by svmlib.LinearSVC; times (the map
   included) and held-out accuracy.

    python benchmarks/linear.py           # everything (15 minutes or more)
    python benchmarks/linear.py --quick   # smaller sizes, no JSON
    python benchmarks/linear.py --threads 1   # writes linear_1thread.json
"""

import json
import re
import sys
import time
import tracemalloc
import warnings
from importlib.metadata import version

import numpy as np
from liblinear import liblinear as liblinear_c
from liblinear.liblinearutil import parameter as official_parameter
from liblinear.liblinearutil import problem as official_problem
from liblinear.liblinearutil import train as official_train
from pinning import pinned, threads_argument, write_results
from scaling import machine
from sklearn.datasets import make_classification
from sklearn.exceptions import ConvergenceWarning
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.kernel_approximation import Nystroem, RBFSampler
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC as LiblinearSVC
from threadpoolctl import threadpool_limits

from svmlib import SVC, LinearSVC
from svmlib.book.text_data import make_documents
from svmlib.derivation.hinge import primal_objective, subgradient_descent
from svmlib.linear.linear_dcd import linear_primal_objective, linear_problem

REPEATS = 3
N_TRAIN, N_HELD_OUT = 100_000, 10_000
CS = (0.01, 0.1, 1.0)
LOSSES = ("hinge", "squared_hinge")
TOL, MAX_ITER = 1e-4, 1000  # scikit-learn's defaults
LOOSE_TOL = 0.1  # LIBLINEAR's own default for its dual solvers
N_THREE, C_THREE = 5_000, 1.0
PEGASOS_STEPS = 10_000
N_KERNEL, GAMMA, C_KERNEL = 20_000, 0.1, 1.0
RANDOM_FEATURES, LANDMARKS = 1_000, 500
# LIBLINEAR 2.50's solver for (loss, dual)
OFFICIAL_SOLVER = {
    ("hinge", True): 3,
    ("squared_hinge", True): 1,
    ("squared_hinge", False): 2,
}
OFFICIAL_PASS_LIMIT = 300  # fixed in LIBLINEAR 2.50's train_one


def contender_threads(threads):
    """The threads each contender computes on, pinned to ``threads``."""
    return {
        "svmlib, dual (compiled passes)": "1",
        "svmlib, primal (Newton)": f"BLAS, {threads}",
        "scikit-learn's LIBLINEAR": "1",
        "LIBLINEAR 2.50": "1",
    }


OFFICIAL_LOG = []  # what LIBLINEAR 2.50 prints during a fit
COLLECT_LOG = liblinear_c.PRINT_STRING_FUN(
    lambda text: OFFICIAL_LOG.append(text.decode())
)


def dense_data(n, seed=0):
    """n training and N_HELD_OUT held-out points, standardised."""
    X, y = make_classification(
        n + N_HELD_OUT,
        50,
        n_informative=10,
        flip_y=0.01,
        random_state=seed,
    )
    X = StandardScaler().fit_transform(X)
    return (X[:n], y[:n]), (X[n:], y[n:])


def sparse_data(n, seed=0):
    """n training and N_HELD_OUT held-out documents as TF-IDF rows (the
    vocabulary from the training documents)."""
    documents, topics = make_documents(n + N_HELD_OUT, seed=seed)
    X = TfidfVectorizer().fit(documents[:n]).transform(documents)
    y = (topics == topics[0]).astype(int)
    return (X[:n], y[:n]), (X[n:], y[n:])


def best_time(fit, repeats):
    """The shortest of ``repeats`` wall-clock times of ``fit()``, and its
    last result."""
    best, result = np.inf, None
    for _ in range(repeats):
        start = time.perf_counter()
        result = fit()
        best = min(best, time.perf_counter() - start)
    return best, result


def objective(model, X, y, C, loss):
    """Jbar of eq. (eq-dcd-primal) at a fitted binary model."""
    problem = linear_problem(X, np.where(y == 1, 1.0, -1.0), C, loss)
    wbar = np.append(model.coef_[0], model.intercept_[0])
    return linear_primal_objective(problem, wbar)


class Official:
    """LIBLINEAR 2.50 as a fitted binary model: coef_, intercept_,
    n_iter_ (passes of the dual solver plus Newton steps), whether it
    switched from the dual to the primal, and predict (labels 0/1)."""

    def __init__(self, C, loss, dual, tol, intercept_scaling=1.0):
        solver = OFFICIAL_SOLVER[(loss, dual)]
        self.options = (
            f"-s {solver} -c {C:g} -e {tol:g} -B {intercept_scaling:g}"
        )

    def converted(self, X, y):
        """Convert (X, y) into LIBLINEAR's own format once, before any
        clock starts (as the benchmarks of LIBSVM 3.37 do)."""
        labels = np.where(y == 1, 1.0, -1.0)  # +1 first, as 2.50 orders
        self.problem = official_problem(labels, X)
        return self

    def fit(self):
        """Train on the converted data."""
        OFFICIAL_LOG.clear()
        options = official_parameter(self.options)
        options.print_func = COLLECT_LOG
        model = official_train(self.problem, options)
        w, b = model.get_decfun()
        self.coef_, self.intercept_ = np.array([w]), np.array([b])
        log = "".join(OFFICIAL_LOG)
        passes = sum(int(p) for p in re.findall(r"#iter = (\d+)", log))
        steps = len(re.findall(r"^iter +\d+", log, flags=re.MULTILINE))
        self.n_iter_ = passes + steps
        self.switched = "Switching" in log
        return self

    def predict(self, X):
        return (X @ self.coef_[0] + self.intercept_[0] > 0).astype(int)


def grid_cell(train, held_out, C, loss, dual, repeats, tol=TOL):
    """svmlib, scikit-learn's LIBLINEAR and LIBLINEAR 2.50 on one
    setting; for the primal, also svmlib with the BLAS on one thread
    (LIBLINEAR's products use one)."""
    X, y = train
    settings = dict(
        C=C,
        loss=loss,
        dual=dual,
        tol=tol,
        max_iter=MAX_ITER,
        random_state=0,
    )
    official = Official(C, loss, dual, tol).converted(X, y)
    times, models = {}, {}
    for _ in range(repeats):  # taking turns
        for name, fit in (
            ("svmlib", lambda: LinearSVC(**settings).fit(X, y)),
            ("liblinear", lambda: LiblinearSVC(**settings).fit(X, y)),
            ("official", official.fit),
        ):
            seconds, model = best_time(fit, 1)
            times[name] = min(times.get(name, np.inf), seconds)
            models[name] = model
    one_thread = None
    if not dual:
        with threadpool_limits(limits=1):
            one_thread, _ = best_time(
                lambda: LinearSVC(**settings).fit(X, y), repeats
            )
    ours, theirs = models["svmlib"], models["liblinear"]
    official = models["official"]
    J_ours = objective(ours, X, y, C, loss)
    J_theirs = objective(theirs, X, y, C, loss)
    J_official = objective(official, X, y, C, loss)
    X_test = held_out[0]
    return {
        "C": C,
        "loss": loss,
        "dual": dual,
        "tol": tol,
        "svmlib_s": times["svmlib"],
        "liblinear_s": times["liblinear"],
        "ratio": times["svmlib"] / times["liblinear"],
        "svmlib_one_thread_s": one_thread,
        "svmlib_passes": int(ours.n_iter_),
        "liblinear_passes": int(theirs.n_iter_),
        "objective_difference": (J_ours - J_theirs) / J_theirs,
        "agreement": float(
            np.mean(ours.predict(X_test) == theirs.predict(X_test))
        ),
        "accuracy": float(ours.score(*held_out)),
        "official_s": times["official"],
        "ratio_official": times["svmlib"] / times["official"],
        "official_passes": int(official.n_iter_),
        "official_switched": official.switched,
        "official_objective_difference": (J_ours - J_official) / J_official,
        "official_agreement": float(
            np.mean(ours.predict(X_test) == official.predict(X_test))
        ),
    }


def grid(kind, train, held_out, repeats, loose=False):
    """Every cell of the grid on one data set, printed as it goes; with
    ``loose``, only the hinge's cells at LOOSE_TOL."""
    cells = []
    settings = [(C, loss, True) for loss in LOSSES for C in CS]
    settings += [(C, "squared_hinge", False) for C in CS]
    if loose:
        settings = [(C, "hinge", True) for C in CS]
    for C, loss, dual in settings:
        cell = grid_cell(
            train,
            held_out,
            C,
            loss,
            dual,
            repeats,
            LOOSE_TOL if loose else TOL,
        )
        cells.append(cell)
        print(
            f"{kind:6s} {loss:13s} {'dual' if dual else 'primal':6s}"
            f" tol={cell['tol']:<6g}"
            f" C={C:<5g} svmlib {cell['svmlib_s']:7.3f} s"
            f" ({cell['svmlib_passes']:4d})"
            f"  LIBLINEAR {cell['liblinear_s']:7.3f} s"
            f" ({cell['liblinear_passes']:4d})  ratio {cell['ratio']:5.2f}"
            f"  2.50 {cell['official_s']:7.3f} s"
            f" ({cell['official_passes']:4d}"
            f"{', switched' if cell['official_switched'] else ''})"
            f"  ratio {cell['ratio_official']:5.2f}"
            f"  obj {cell['objective_difference']:+.1e}"
            f"  agree {cell['agreement']:.4f}",
            flush=True,
        )
    return cells


def peak_memory(train):
    """svmlib's peak allocations (MB) in a fit, dual and primal, and the
    size of the data (MB)."""
    X, y = train
    size = (
        X.data.nbytes + X.indices.nbytes + X.indptr.nbytes
        if hasattr(X, "indptr")
        else X.nbytes
    )
    peaks = {}
    for dual in (True, False):
        tracemalloc.start()
        LinearSVC(dual=dual, C=0.1, random_state=0).fit(X, y)
        peaks["dual" if dual else "primal"] = (
            tracemalloc.get_traced_memory()[1] / 2**20
        )
        tracemalloc.stop()
    return {"data_mb": size / 2**20, "peak_mb": peaks}


def three_algorithms(n, repeats):
    """The soft margin's J(w, b) by the kernel solver, Pegasos and
    coordinate descent (offset folded in, two scalings)."""
    (X, y), (X_test, y_test) = dense_data(n, seed=1)
    X, X_test = X[:, :20], X_test[:, :20]
    labels = np.where(y == 1, 1.0, -1.0)
    rows = {}
    seconds, kernel = best_time(
        lambda: SVC(kernel="linear", C=C_THREE, tol=1e-5).fit(X, y), repeats
    )
    w, b = kernel.coef_[0], kernel.intercept_[0]
    J_star = primal_objective(w, b, X, labels, C_THREE)
    rows["kernel solver (SVC, linear)"] = (seconds, w, b)
    seconds, pegasos = best_time(
        lambda: subgradient_descent(
            X, labels, C_THREE, n_iter=PEGASOS_STEPS
        ),
        1,
    )
    rows[f"Pegasos, {PEGASOS_STEPS:,} steps"] = (
        seconds,
        pegasos.w,
        pegasos.b,
    )
    for scaling in (1.0, 10.0):
        seconds, model = best_time(
            lambda: LinearSVC(
                loss="hinge",
                dual=True,
                C=C_THREE,
                intercept_scaling=scaling,
                random_state=0,
                max_iter=10_000,
            ).fit(X, y),
            repeats,
        )
        rows[f"coordinate descent, scaling {scaling:g}"] = (
            seconds,
            model.coef_[0],
            model.intercept_[0],
        )
    out = []
    for label, (seconds, w, b) in rows.items():
        J = primal_objective(w, b, X, labels, C_THREE)
        accuracy = np.mean(np.where(X_test @ w + b > 0, 1, 0) == y_test)
        out.append(
            {
                "label": label,
                "seconds": seconds,
                "J_relative": (J - J_star) / J_star,
                "accuracy": float(accuracy),
                "b": float(b),
            }
        )
        print(
            f"three: {label:32s} {seconds:7.3f} s"
            f"  J {out[-1]['J_relative']:+.1e}  accuracy {accuracy:.4f}",
            flush=True,
        )
    return {"n": n, "C": C_THREE, "rows": out}


def xor_data(n, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 10))
    y = (X[:, 0] * X[:, 1] + 0.3 * rng.normal(size=n) > 0).astype(int)
    return X, y


def approximate_kernels(n, repeats):
    """The RBF kernel exactly (svmlib.SVC) and approximately (a feature
    map, then svmlib.LinearSVC)."""
    X, y = xor_data(n, seed=0)
    X_test, y_test = xor_data(5_000, seed=1)
    models = {
        "SVC, RBF kernel": lambda: SVC(C=C_KERNEL, gamma=GAMMA),
        f"random features ({RANDOM_FEATURES:,}) + LinearSVC": lambda: (
            make_pipeline(
                RBFSampler(
                    gamma=GAMMA,
                    n_components=RANDOM_FEATURES,
                    random_state=0,
                ),
                LinearSVC(C=C_KERNEL, random_state=0),
            )
        ),
        f"Nystroem ({LANDMARKS} landmarks) + LinearSVC": lambda: (
            make_pipeline(
                Nystroem(
                    gamma=GAMMA, n_components=LANDMARKS, random_state=0
                ),
                LinearSVC(C=C_KERNEL, random_state=0),
            )
        ),
    }
    rows = []
    for label, make in models.items():
        seconds, model = best_time(lambda: make().fit(X, y), repeats)
        accuracy = float(model.score(X_test, y_test))
        rows.append(
            {"label": label, "seconds": seconds, "accuracy": accuracy}
        )
        print(
            f"kernels: {label:40s} {seconds:7.3f} s"
            f"  accuracy {accuracy:.4f}"
        )
    return {"n": n, "gamma": GAMMA, "C": C_KERNEL, "rows": rows}


def main(argv):
    quick = "--quick" in argv
    n = 10_000 if quick else N_TRAIN
    repeats = 1 if quick else REPEATS
    started = time.perf_counter()
    threads = threads_argument(argv)
    with pinned(threads), warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        LinearSVC(dual=True).fit(*dense_data(200)[0])  # compile first
        LinearSVC(dual=True).fit(*sparse_data(200)[0])
        dense, sparse = dense_data(n), sparse_data(n)
        results = {
            "machine": machine(threads),
            "settings": {
                "n": n,
                "held_out": N_HELD_OUT,
                "tol": TOL,
                "max_iter": MAX_ITER,
                "repeats": repeats,
                "threads": contender_threads(threads),
                "versions": {
                    "scikit-learn": version("scikit-learn"),
                    "liblinear-official": version("liblinear-official"),
                },
                "official_pass_limit": OFFICIAL_PASS_LIMIT,
            },
            "data": {
                "dense": {
                    "n_features": dense[0][0].shape[1],
                },
                "sparse": {
                    "n_features": sparse[0][0].shape[1],
                    "nnz_per_row": sparse[0][0].nnz / n,
                },
            },
            "dense": grid("dense", *dense, repeats),
            "dense_loose": grid("dense", *dense, repeats, loose=True),
            "sparse": grid("sparse", *sparse, repeats),
            "memory": {
                "dense": peak_memory(dense[0]),
                "sparse": peak_memory(sparse[0]),
            },
            "three_algorithms": three_algorithms(
                1_000 if quick else N_THREE, repeats
            ),
            "approximate_kernels": approximate_kernels(
                2_000 if quick else N_KERNEL, repeats
            ),
        }
    results["total_s"] = time.perf_counter() - started
    print("memory:", json.dumps(results["memory"]))
    print(f"total {results['total_s']:.0f} s")
    if not quick:
        write_results("linear", threads, results)
    return results


if __name__ == "__main__":
    main(sys.argv[1:])
