# Generated from chapters/fast_default.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""Every compiled solver compiled and cached ahead of the first fit
(chapter "Fast by default")."""

import time
import warnings

import numpy as np


WARM_UP_POINTS = 45
# megabytes: too little for the Gram matrix of the points, so the rounds run
TINY_CACHE_SIZE = 0.01


def warm_up():
    """Train one tiny model with each compiled solver, so that numba
    compiles them and writes its cache now rather than during a user's
    first fit; returns the seconds it took.  Run it once per installation
    (and machine), as the user who will run svmlib."""
    # imported here: the linear estimators come in later chapters
    from svmlib.estimators.estimator import SVC
    from svmlib.estimators.nu_estimators import NuSVC
    from svmlib.linear.linear_svc import LinearSVC
    from svmlib.linear.linear_svr import LinearSVR

    rng = np.random.default_rng(0)
    X = rng.normal(size=(WARM_UP_POINTS, 3))
    y = np.arange(WARM_UP_POINTS) % 3
    fits = (
        lambda: SVC().fit(X, y),
        lambda: SVC(cache_size=TINY_CACHE_SIZE).fit(X, y),
        lambda: NuSVC(nu=0.3).fit(X, y),
        lambda: LinearSVC(dual=True).fit(X, y),
        lambda: LinearSVC(penalty="l1", dual=False).fit(X, y),
        lambda: LinearSVC(multi_class="crammer_singer").fit(X, y),
        lambda: LinearSVR(dual=True).fit(X, X[:, 0]),
    )
    start = time.perf_counter()
    with warnings.catch_warnings():
        # whether these tiny fits converge is beside the point
        warnings.simplefilter("ignore")
        for fit in fits:
            fit()
    return time.perf_counter() - start


def warm_up_command():
    """The command svmlib-warm-up (pyproject.toml's [project.scripts])."""
    seconds = warm_up()
    print(f"svmlib's compiled solvers are cached ({seconds:.1f} s)")
