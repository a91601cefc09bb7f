"""Random test problems shared by the solver tests."""
import numpy as np


def separable_problem(seed, n=60, d=2, gap=0.3):
    """Random points labelled by a random hyperplane, keeping only those at least ``gap`` from it."""
    rng = np.random.default_rng(seed)
    w0, b0 = rng.normal(size=d), rng.normal()
    X = rng.normal(size=(4 * n, d)) * 2
    distance = (X @ w0 + b0) / np.linalg.norm(w0)
    keep = np.flatnonzero(np.abs(distance) > gap)[:n]
    return X[keep], np.sign(distance[keep])
