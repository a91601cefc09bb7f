"""Benchmark (not a test): grid searches over C and gamma, five ways.

Writes ``benchmarks/results/model_selection.json`` and prints what it
measures: the time of a whole 5-fold cross-validated grid search, C in
{0.1, 1, 10, 100, 1000} x gamma in {0.005, 0.01, 0.05, 0.2}, RBF kernel,
for SVC on Scaling up's synthetic two-class data (20 features,
standardised; ``scaling.synthetic``) at n = 2,000, 5,000 and 20,000, and
for SVR (epsilon = 0.1) on the regression data of ``formulations.py``
(the same points, a smooth target plus noise, standardised) at n = 2,000.
The contenders run in one process, side by side, every BLAS and OpenMP
pool pinned to the same number of threads (``pinning``: two by default,
``--threads 1`` for one; the pools are recorded in the JSON):

1. ``GridSearchCV(sklearn.svm.SVC(), grid, cv=folds)`` (the reference);
2. ``GridSearchCV(svmlib.SVC(), grid, cv=folds)``;
3. ``SVMGridSearchCV(svmlib.SVC(), grid, cv=folds)``: one kernel block per
   gamma and fold shared by all C values, each fit starting from the
   solution at the C before it (``warm_start=True``, the default);
4. the same with ``warm_start=False``: the pair updates that the warm
   starts save, summed per C over the gammas and folds, both ways;
5. LIBSVM 3.37 itself (libsvm-official, in process): ``svm-train -v 5``
   per cell, as LIBSVM's grid.py runs it (SVR: ``-s 3 -p 0.1 -v 5``),
   the data converted to LIBSVM's format before the clock starts.  Its
   folds are its own random ones, not the others' folds: C's rand(),
   re-seeded with srand(1) before each cell as every fresh svm-train
   process of grid.py starts, so all its cells share one split.

Contenders 1-4 share one fold object (StratifiedKFold for SVC, KFold for
SVR, 5 splits, shuffled, random_state 0), ``n_jobs=None``, the
estimators' defaults (tolerance 1e-3; LIBSVM is given -e 0.001 -m 200 to
match) and refit the best candidate, as GridSearchCV does by default.
The scores are the accuracy (SVC) and the negative mean squared error
(SVR, the measure LIBSVM's -v reports).  Per grid the JSON records each
contender's time (the best of REPEATS searches for the grids of at most
REPEAT_UP_TO points, the contenders taking turns; one search above),
its ratio to scikit-learn's, its best_params_ and best score, whether
1-4 chose the same best_params_, the largest difference of 2-4's
mean_test_score from 1's (goal: at most 2e-3), the pair updates per C,
and LIBSVM's score of every cell and its best cell.  The time goals: an
SVC search in at most a quarter of GridSearchCV(sklearn SVC)'s time, an
SVR search in at most half.  Before any timing every contender searches
a small grid once (numba compiles or loads svmlib's loops; every code
path is touched once), and before each grid the script prints an
estimate of its duration, from scikit-learn's fits of the whole grid at
PILOT_POINTS training points, scaled.

    python benchmarks/model_selection.py            # everything, 1-1.5 h
    python benchmarks/model_selection.py --quick    # tiny sizes, no JSON
    python benchmarks/model_selection.py --estimate # the estimates only
    python benchmarks/model_selection.py --sizes 2000 5000 --only svc
        # some grids, stored into the existing JSON in place of theirs
    python benchmarks/model_selection.py --threads 1
        # one thread each: model_selection_1thread.json
    python benchmarks/model_selection.py --show     # the stored table
"""

import argparse
import contextlib
import ctypes
import gc
import io
import json
import os
import sys
import time
import warnings
from datetime import datetime, timezone
from importlib.metadata import version
from pathlib import Path

import numpy as np
import scipy
import sklearn
from formulations import regression_data
from libsvm.svmutil import svm_parameter, svm_problem, svm_train
from pinning import (
    DEFAULT_THREADS,
    THREAD_SETTINGS,
    pinned,
    results_path,
    write_results,
)
from scaling import CACHE_MB, TOL, machine, synthetic
from sklearn import svm as sk
from sklearn.base import clone
from sklearn.model_selection import (
    GridSearchCV,
    KFold,
    ParameterGrid,
    StratifiedKFold,
)

import svmlib
from svmlib import SVMGridSearchCV

NAME = "model_selection"
CS = [0.1, 1.0, 10.0, 100.0, 1000.0]
GAMMAS = [0.005, 0.01, 0.05, 0.2]  # for 20 standardised features
EPSILON = 0.1  # SVR's tube, fixed (the target is standardised)
N_FOLDS, FOLD_SEED = 5, 0
SVC_SIZES = (2000, 5000, 20_000)
SVR_SIZE = 2000
QUICK_SVC_SIZES, QUICK_SVR_SIZE = (300, 600), 300
SMALLEST = 50  # fewer points would leave folds of a handful
WARM_UP_POINTS = 300  # the untimed first search of every contender
REPEATS, REPEAT_UP_TO = 2, 2000  # best of two at n <= 2,000, else one
SCORE_GOAL = 2e-3  # largest |mean_test_score difference| from sklearn's
TIME_GOALS = {"svc": 0.25, "svr": 0.5}  # of GridSearchCV(sklearn)'s time
SCORING = {"svc": "accuracy", "svr": "neg_mean_squared_error"}
LIBSVM_TYPE = {"svc": 0, "svr": 3}  # its -s
LIBSVM_SEED = 1  # rand()'s seed in a process that never calls srand
PERCENT = 100.0  # LIBSVM's -v reports the accuracy in percent
# the pilot: scikit-learn fits every cell at these training points, and
# the grids' times are extrapolated as time ~ n^exponent, the exponent
# measured between them but at least MIN_EXPONENT (a fit computes
# kernel values for pairs of points; measured 2.0-2.2 from 1,600 to
# 3,200 points on this data, less below)
PILOT_POINTS = (400, 800)
MIN_EXPONENT = 2.0
# the other four contenders' time together, in units of scikit-learn's
# (rough: at 1,600-3,200 training points svmlib's SVC took 0.5-1.0 and
# LIBSVM 0.8-1.4 times scikit-learn's fit time, the shared-kernel
# searches well under one)
OTHERS_PER_SKLEARN = 3.0
CONTENDERS = {  # key: label
    "sklearn": "GridSearchCV(sklearn {est})",
    "svmlib": "GridSearchCV(svmlib {est})",
    "warm": "SVMGridSearchCV, warm starts",
    "cold": "SVMGridSearchCV, cold starts",
    "libsvm": "LIBSVM svm_train -v 5 per cell",
}
SEARCHES = ("sklearn", "svmlib", "warm", "cold")  # on the same folds
ESTIMATOR = {"svc": "SVC", "svr": "SVR"}
LIBC = ctypes.CDLL(None)  # the C library LIBSVM calls rand() from
IDLE, IOWAIT, GUEST = 3, 4, 8  # columns of /proc/stat's "cpu" line
BUSY = 0.1  # other processes using more of the CPUs: times unreliable


def data(kind, n):
    """The points of a grid: Scaling up's synthetic classes for SVC,
    formulations.py's regression target on the same points for SVR."""
    return synthetic(n) if kind == "svc" else regression_data(n)


def folds(kind):
    """The one fold object contenders 1-4 share."""
    splitter = StratifiedKFold if kind == "svc" else KFold
    return splitter(N_FOLDS, shuffle=True, random_state=FOLD_SEED)


def grid():
    return {"C": CS, "gamma": GAMMAS}


def estimators(kind):
    """scikit-learn's and svmlib's estimator of ``kind``, unfitted."""
    if kind == "svc":
        return sk.SVC(), svmlib.SVC()
    return sk.SVR(epsilon=EPSILON), svmlib.SVR(epsilon=EPSILON)


def searches(kind):
    """Contenders 1-4: a function making each search, unfitted."""
    theirs, ours = estimators(kind)
    common = {"cv": folds(kind), "scoring": SCORING[kind], "n_jobs": None}
    return {
        "sklearn": lambda: GridSearchCV(theirs, grid(), **common),
        "svmlib": lambda: GridSearchCV(ours, grid(), **common),
        "warm": lambda: SVMGridSearchCV(ours, grid(), **common),
        "cold": lambda: SVMGridSearchCV(
            ours, grid(), warm_start=False, **common
        ),
    }


def libsvm_flags(kind, C, gamma):
    """svm-train's options for one cell, as grid.py would pass them."""
    flags = (
        f"-s {LIBSVM_TYPE[kind]} -t 2 -c {C} -g {gamma} -e {TOL} "
        f"-m {CACHE_MB} -v {N_FOLDS} -q"
    )
    return flags + (f" -p {EPSILON}" if kind == "svr" else "")


def libsvm_grid(kind, problem):
    """LIBSVM's cross-validation of every cell, in ParameterGrid's order
    (as the other searches list their candidates): its accuracy as a
    fraction (SVC) or its negative mean squared error (SVR), so that
    larger is better as in the others' mean_test_score."""
    scores = []
    for params in ParameterGrid(grid()):
        LIBC.srand(LIBSVM_SEED)  # the folds of a fresh svm-train
        parameter = svm_parameter(
            libsvm_flags(kind, params["C"], params["gamma"])
        )
        with contextlib.redirect_stdout(io.StringIO()):  # its summary
            value = svm_train(problem, parameter)
        scores.append(value / PERCENT if kind == "svc" else -value)
    return np.array(scores)


def contenders(kind, X, y):
    """Every contender as a function running its whole search; LIBSVM's
    data converted beforehand."""
    runs = {
        key: (lambda make=make: make().fit(X, y))
        for key, make in searches(kind).items()
    }
    problem = svm_problem(y.tolist(), X.tolist())
    runs["libsvm"] = lambda: libsvm_grid(kind, problem)
    return runs


def caught(run):
    """run()'s result and the distinct warnings it raised, as text."""
    with warnings.catch_warnings(record=True) as raised:
        warnings.simplefilter("always")
        result = run()
    return result, sorted(
        {f"{w.category.__name__}: {w.message}" for w in raised}
    )


def in_turns(runs, repeats):
    """Each run in turn, ``repeats`` times: every time, the last result
    and the warnings of each."""
    seconds = {key: [] for key in runs}
    results, raised = {}, {}
    for _ in range(repeats):
        for key, run in runs.items():
            gc.collect()  # the previous search's garbage, off the clock
            start = time.perf_counter()
            results[key], raised[key] = caught(run)
            seconds[key].append(time.perf_counter() - start)
    return seconds, results, raised


def warm_up(kinds):
    """Every contender's search of a small grid, untimed: numba compiles
    (or loads) svmlib's loops, and every code path runs once."""
    for kind in kinds:
        X, y = data(kind, WARM_UP_POINTS)
        in_turns(contenders(kind, X, y), 1)


def pilot(kind):
    """scikit-learn's fit of every cell at PILOT_POINTS training points:
    the seconds for the whole grid at each, and the exponent of n."""
    X, y = data(kind, max(PILOT_POINTS))
    theirs, _ = estimators(kind)
    seconds = []
    for n in PILOT_POINTS:
        start = time.perf_counter()
        for params in ParameterGrid(grid()):
            clone(theirs).set_params(**params).fit(X[:n], y[:n])
        seconds.append(time.perf_counter() - start)
    measured = np.log(seconds[1] / seconds[0]) / np.log(
        PILOT_POINTS[1] / PILOT_POINTS[0]
    )
    return {
        "points": list(PILOT_POINTS),
        "seconds": seconds,
        "exponent": float(max(measured, MIN_EXPONENT)),
        "measured_exponent": float(measured),
    }


def estimate(found, n, repeats):
    """The seconds of scikit-learn's search at n points (every cell on
    every fold's training part, and the refit: about one cell on all n)
    and of all five contenders, from the pilot's ``found``."""

    def grid_seconds(points):
        scale = points / found["points"][-1]
        return found["seconds"][-1] * scale ** found["exponent"]

    cells = len(CS) * len(GAMMAS)
    train = n * (N_FOLDS - 1) / N_FOLDS
    alone = N_FOLDS * grid_seconds(train) + grid_seconds(n) / cells
    return {
        "sklearn_s": alone,
        "all_s": alone * (1.0 + OTHERS_PER_SKLEARN) * repeats,
    }


def duration(seconds):
    if seconds < 2 * 60:
        return f"{seconds:.0f} s"
    if seconds < 2 * 3600:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.1f} h"


def plain(params):
    """Parameters as JSON takes them."""
    return {name: float(value) for name, value in params.items()}


def updates_per_C(warm, cold):
    """The pair updates of the warm and the cold search, summed per C over
    the gammas and the folds, and the share the warm starts saved."""
    params = warm.cv_results_["params"]
    rows = []
    for C in CS:
        chosen = [index for index, p in enumerate(params) if p["C"] == C]
        with_warm = int(warm.pair_updates_[chosen].sum())
        without = int(cold.pair_updates_[chosen].sum())
        rows.append(
            {
                "C": C,
                "warm": with_warm,
                "cold": without,
                "saved": 1.0 - with_warm / without if without else 0.0,
            }
        )
    return rows


def record(kind, X, repeats, found, measured):
    """One grid's entry of the JSON, from what in_turns returned
    (``measured``) on the points X."""
    seconds, results, raised = measured
    reference = results["sklearn"]
    order = reference.cv_results_["params"]
    entry = {
        "kind": kind,
        "n": int(X.shape[0]),
        "n_features": int(X.shape[1]),
        "Cs": CS,
        "gammas": GAMMAS,
        "epsilon": EPSILON if kind == "svr" else None,
        "scoring": SCORING[kind],
        "n_candidates": len(order),
        "n_splits": N_FOLDS,
        "repeats": repeats,
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "estimate": found,
        "params": [plain(params) for params in order],
        "contenders": {},
    }
    best = min(seconds["sklearn"])
    means = reference.cv_results_["mean_test_score"]

    def loss(index):
        """How much worse, by sklearn's scores, a choice of the candidate
        ``index`` is than sklearn's own choice (0 for the same one)."""
        return float(means[reference.best_index_] - means[index])

    for key in SEARCHES:
        search = results[key]
        if search.cv_results_["params"] != order:
            raise RuntimeError(f"{key}'s candidates are in another order")
        difference = np.abs(search.cv_results_["mean_test_score"] - means)
        entry["contenders"][key] = {
            "label": CONTENDERS[key].format(est=ESTIMATOR[kind]),
            "seconds": min(seconds[key]),
            "all_seconds": seconds[key],
            "ratio": min(seconds[key]) / best,
            "best_params": plain(search.best_params_),
            "best_score": float(search.best_score_),
            "max_score_difference": float(difference.max()),
            "loss": loss(search.best_index_),
            "mean_test_scores": search.cv_results_[
                "mean_test_score"
            ].tolist(),
            "refit_s": float(search.refit_time_),
            "warnings": raised[key],
        }
    scores = results["libsvm"]
    top = int(np.argmax(scores))  # the first best, as rank_test_ picks
    entry["contenders"]["libsvm"] = {
        "label": CONTENDERS["libsvm"],
        "seconds": min(seconds["libsvm"]),
        "all_seconds": seconds["libsvm"],
        "ratio": min(seconds["libsvm"]) / best,
        "best_params": plain(order[top]),
        "best_score": float(scores[top]),
        "scores": scores.tolist(),
        "loss": loss(top),
        "max_score_difference_own_folds": float(
            np.abs(scores - means).max()
        ),
        "folds": "LIBSVM's own (srand(1) before each cell)",
        "warnings": raised["libsvm"],
    }
    chosen = [entry["contenders"][key]["best_params"] for key in SEARCHES]
    entry["same_best_params"] = all(p == chosen[0] for p in chosen)
    entry["max_score_difference"] = max(
        entry["contenders"][key]["max_score_difference"] for key in SEARCHES
    )
    entry["within_score_goal"] = entry["max_score_difference"] <= (
        SCORE_GOAL
    )
    entry["time_goal"] = TIME_GOALS[kind]
    entry["meets_time_goal"] = {
        key: entry["contenders"][key]["ratio"] <= TIME_GOALS[kind]
        for key in ("warm", "cold")
    }
    entry["pair_updates_per_C"] = updates_per_C(
        results["warm"], results["cold"]
    )
    entry["pair_updates"] = {  # per candidate (in "params"), all folds
        key: results[key].pair_updates_.sum(axis=1).astype(int).tolist()
        for key in ("warm", "cold")
    }
    return entry


def cpu_clocks():
    """The machine's busy CPU seconds (all processes, /proc/stat; None
    where there is none), this process's, and the wall clock."""
    try:
        fields = Path("/proc/stat").read_text().split("\n")[0].split()
    except OSError:
        busy = None
    else:
        ticks = [int(value) for value in fields[1:]]
        idle = ticks[IDLE] + ticks[IOWAIT]
        busy = (sum(ticks[:GUEST]) - idle) / os.sysconf("SC_CLK_TCK")
    return busy, time.process_time(), time.perf_counter()


def others_share(before, after):
    """The share of all the CPUs that other processes kept busy between
    two cpu_clocks() (None without /proc/stat): a busy machine makes the
    times unreliable, OpenMP's (LIBSVM's) above all."""
    if before[0] is None:
        return None
    machine_s, mine_s, wall_s = (a - b for a, b in zip(after, before))
    return max(0.0, (machine_s - mine_s) / (wall_s * os.cpu_count()))


def measure(kind, n, found):
    """One grid: the estimate printed, every contender timed, the record
    printed and returned."""
    repeats = REPEATS if n <= REPEAT_UP_TO else 1
    guess = estimate(found, n, repeats)
    print(
        f"\n{kind.upper()}, n = {n:,}: GridSearchCV(sklearn) about "
        f"{duration(guess['sklearn_s'])}, all five about "
        f"{duration(guess['all_s'])} ({repeats} search"
        f"{'es' if repeats > 1 else ''} each)",
        flush=True,
    )
    X, y = data(kind, n)
    before = cpu_clocks()
    measured = in_turns(contenders(kind, X, y), repeats)
    entry = record(kind, X, repeats, {**found, **guess}, measured)
    entry["others_cpu_share"] = others_share(before, cpu_clocks())
    print_grid(entry)
    return entry


def settings(threads, quick):
    """What the times were measured with and on."""
    return {
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "threads": threads,
        "cpu_count": os.cpu_count(),
        "machine": machine(threads),
        "versions": {
            "python": sys.version.split()[0],
            "numpy": np.__version__,
            "scipy": scipy.__version__,
            "sklearn": sklearn.__version__,
            "svmlib": svmlib.__version__,
            "libsvm": version("libsvm-official"),
        },
        "quick": quick,
        "n_folds": N_FOLDS,
        "folds": {kind: repr(folds(kind)) for kind in ("svc", "svr")},
        "libsvm_flags": {
            kind: libsvm_flags(kind, "<C>", "<gamma>")
            for kind in ("svc", "svr")
        },
        "libsvm_folds": (
            "LIBSVM's own random folds (svm_cross_validation, C's "
            "rand()), re-seeded with srand(1) before each cell as a "
            "fresh svm-train process of grid.py starts; not the folds "
            "of the other contenders"
        ),
        "tol": TOL,
        "cache_mb": CACHE_MB,
        "repeats": REPEATS,  # at n <= repeat_up_to; one above
        "repeat_up_to": REPEAT_UP_TO,
        "score_goal": SCORE_GOAL,
        "time_goals": TIME_GOALS,
        "scoring": SCORING,
        "contenders": CONTENDERS,
    }


def print_grid(entry):
    """One grid's table: times, ratios, best cells, score differences,
    the goals, then the pair updates per C."""
    kind, goal = entry["kind"], entry["time_goal"]
    print(
        f"{kind.upper()}, n = {entry['n']:,}: {len(entry['Cs'])} C x "
        f"{len(entry['gammas'])} gamma, {entry['n_splits']} folds, "
        f"{entry['scoring']}"
    )
    print(
        f"{'contender':30s} {'seconds':>7s} {'ratio':>6s} "
        f"{'best C':>6s} {'gamma':>6s} {'d score':>8s} {'loss':>8s}"
    )
    for row in entry["contenders"].values():
        difference = row.get("max_score_difference")
        best = row["best_params"]
        print(
            f"{row['label']:30s} {row['seconds']:7.2f} "
            f"{row['ratio']:6.3f} {best['C']:6g} {best['gamma']:6g} "
            + (
                f"{difference:8.1e}"
                if difference is not None
                else f"{'own':>8s}"
            )
            + f" {row['loss']:8.1e}"
        )
    print(
        "d score: largest |mean_test_score - sklearn's| (LIBSVM: on its "
        "own folds)\nloss: sklearn's best mean score - its mean score at "
        "the contender's best_params_"
    )
    verdicts = ", ".join(
        f"{key} {entry['contenders'][key]['ratio']:.3f} "
        f"({'met' if met else 'missed'})"
        for key, met in entry["meets_time_goal"].items()
    )
    print(f"goal: at most {goal:g} x sklearn's time: {verdicts}")
    print(
        f"best_params_ of 1-4 alike: "
        f"{'yes' if entry['same_best_params'] else 'NO'}; mean test "
        f"scores within {SCORE_GOAL:g} of sklearn's: "
        f"{'yes' if entry['within_score_goal'] else 'NO'} "
        f"(max {entry['max_score_difference']:.1e})"
    )
    print("pair updates per C (warm / cold starts, saved):")
    for row in entry["pair_updates_per_C"]:
        print(
            f"  C = {row['C']:<6g} {row['warm']:>12,} / "
            f"{row['cold']:>12,}  {row['saved']:6.1%}"
        )
    share = entry.get("others_cpu_share")
    if share is not None and share > BUSY:
        print(
            f"  machine busy: other processes used {share:.0%} of the "
            "CPUs meanwhile; the times are unreliable"
        )
    for key, row in entry["contenders"].items():
        for text in row["warnings"]:
            print(f"  warning ({key}): {text[:60]}")


def print_stored(path):
    """The stored results as tables, measuring nothing."""
    if not path.exists():
        raise SystemExit(f"no stored results at {path}: run it first")
    stored = json.loads(path.read_text(encoding="utf-8"))
    about = stored["settings"]
    print(
        f"{path.name}: {about['date']}, {about['threads']} thread(s) per "
        f"pool, {about['cpu_count']} CPUs, svmlib "
        f"{about['versions']['svmlib']}, sklearn "
        f"{about['versions']['sklearn']}, LIBSVM "
        f"{about['versions']['libsvm']}"
    )
    for entry in stored["grids"]:
        print()
        print_grid(entry)


def merged(path, fresh):
    """``fresh`` with the grids of the JSON at ``path`` that it does not
    measure again (a run of some grids only keeps the others)."""
    if not path.exists():
        return fresh
    old = json.loads(path.read_text(encoding="utf-8"))
    measured = {(entry["kind"], entry["n"]) for entry in fresh["grids"]}
    kept = [
        entry
        for entry in old.get("grids", [])
        if (entry["kind"], entry["n"]) not in measured
    ]
    return {**fresh, "grids": kept + fresh["grids"]}


def parsed(argv):
    parser = argparse.ArgumentParser(
        description="Grid searches over C and gamma, five ways."
    )
    parser.add_argument("--sizes", type=int, nargs="+", help="SVC grids' n")
    parser.add_argument(
        "--svr-size", type=int, help=f"the SVR grid's n ({SVR_SIZE})"
    )
    parser.add_argument(
        "--threads",
        type=int,
        choices=THREAD_SETTINGS,
        default=DEFAULT_THREADS,
        help=f"threads of every BLAS and OpenMP pool ({DEFAULT_THREADS})",
    )
    parser.add_argument("--only", choices=("svc", "svr"))
    parser.add_argument(
        "--quick", action="store_true", help="tiny sizes, no JSON"
    )
    parser.add_argument(
        "--estimate",
        action="store_true",
        help="print the estimated durations only",
    )
    parser.add_argument(
        "--show",
        action="store_true",
        help="print the stored table, measuring nothing",
    )
    args = parser.parse_args(argv)
    for n in (args.sizes or []) + [args.svr_size or SVR_SIZE]:
        if n < SMALLEST:
            parser.error(f"sizes must be at least {SMALLEST}; got {n}")
    return args


def planned(args):
    """The (kind, n) of every grid to measure."""
    svc = args.sizes or (QUICK_SVC_SIZES if args.quick else SVC_SIZES)
    svr = args.svr_size or (QUICK_SVR_SIZE if args.quick else SVR_SIZE)
    grids = [("svc", n) for n in svc] + [("svr", svr)]
    return [(kind, n) for kind, n in grids if args.only in (None, kind)]


def main(argv):
    args = parsed(argv)
    path = results_path(NAME, args.threads)
    if args.show:
        print_stored(path)
        return
    grids = planned(args)
    kinds = sorted({kind for kind, _ in grids})
    with pinned(args.threads):
        pilots = {kind: pilot(kind) for kind in kinds}
        if args.estimate:
            total = 0.0
            for kind, n in grids:
                repeats = REPEATS if n <= REPEAT_UP_TO else 1
                guess = estimate(pilots[kind], n, repeats)
                total += guess["all_s"]
                print(
                    f"{kind.upper()}, n = {n:,}: GridSearchCV(sklearn) "
                    f"{duration(guess['sklearn_s'])}, all five "
                    f"{duration(guess['all_s'])}"
                )
            print(f"in all about {duration(total)}")
            return
        warm_up(kinds)
        results = {
            "settings": settings(args.threads, args.quick),
            "grids": [measure(kind, n, pilots[kind]) for kind, n in grids],
        }
    if args.quick:
        return
    partial = args.sizes or args.svr_size or args.only
    write_results(
        NAME, args.threads, merged(path, results) if partial else results
    )


if __name__ == "__main__":
    main(sys.argv[1:])
