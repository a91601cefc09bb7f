"""Every contender's threads pinned alike, and recorded with the results.

The contenders use threads in different ways: svmlib computes its Gram
matrices and kernel rows by BLAS products (OpenBLAS threads); LIBSVM 3.37 as
libsvm-official builds it computes kernel columns in an OpenMP loop; the
copies of LIBSVM and LIBLINEAR inside scikit-learn, and liblinear-official,
run on one thread whatever the setting.  A fair comparison therefore sets
the BLAS *and* the OpenMP pools to the same count for everybody, and runs
once with one thread each and once with two (both cores of the book's
machines).

threadpoolctl limits only the pools of libraries already loaded, so
``pinned`` first imports every contender, then limits all pools, and
``thread_pools`` reports them as they stand while pinned: a benchmark stores
that list in its JSON next to its times.

    python benchmarks/<name>.py --threads 1   # one BLAS, one OpenMP thread
    python benchmarks/<name>.py --threads 2   # two of each (the default)
"""

import importlib
import json
import os
from contextlib import contextmanager
from pathlib import Path

from threadpoolctl import threadpool_info, threadpool_limits

THREAD_SETTINGS = (1, 2)
DEFAULT_THREADS = 2  # both cores of the book's machines
RESULTS = Path(__file__).resolve().parent / "results"
CONTENDER_MODULES = (
    "sklearn.svm",
    "libsvm.svmutil",
    "liblinear.liblinearutil",
)


def load_contenders():
    """Import every contender, so that their thread pools are loaded (and
    can be limited) before any timing starts."""
    for name in CONTENDER_MODULES:
        importlib.import_module(name)


def thread_pools():
    """The BLAS and OpenMP pools, as threadpoolctl sees them."""
    return [
        {
            "library": Path(pool["filepath"]).name,
            "api": pool["internal_api"],
            "version": pool.get("version"),
            "threads": pool["num_threads"],
        }
        for pool in threadpool_info()
    ]


@contextmanager
def pinned(threads):
    """Every BLAS and OpenMP pool limited to ``threads`` while inside."""
    if threads not in THREAD_SETTINGS:
        raise ValueError(
            f"threads must be one of {THREAD_SETTINGS}; got {threads!r}"
        )
    load_contenders()
    os.environ["OMP_NUM_THREADS"] = str(threads)
    with threadpool_limits(limits=threads):
        yield


def threads_argument(argv):
    """The value of ``--threads N`` in argv (DEFAULT_THREADS without it)."""
    if "--threads" not in argv:
        return DEFAULT_THREADS
    position = argv.index("--threads")
    try:
        return int(argv[position + 1])
    except (IndexError, ValueError):
        raise SystemExit(
            f"--threads takes one of {THREAD_SETTINGS}"
        ) from None


def results_path(name, threads):
    """Where a benchmark stores its JSON: ``<name>.json`` for the default
    setting, ``<name>_<threads>thread.json`` for the other."""
    if threads == DEFAULT_THREADS:
        return RESULTS / f"{name}.json"
    return RESULTS / f"{name}_{threads}thread.json"


def write_results(name, threads, results):
    """Store a benchmark's results as JSON where results_path says."""
    path = results_path(name, threads)
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {path}")
