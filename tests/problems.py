"""Random test problems shared by the solver tests."""

import numpy as np


def separable_problem(seed, n=60, d=2, gap=0.3):
    """Random points labelled by a random hyperplane, keeping only those at
    least ``gap`` from it."""
    rng = np.random.default_rng(seed)
    w0, b0 = rng.normal(size=d), rng.normal()
    X = rng.normal(size=(4 * n, d)) * 2
    distance = (X @ w0 + b0) / np.linalg.norm(w0)
    keep = np.flatnonzero(np.abs(distance) > gap)[:n]
    return X[keep], np.sign(distance[keep])


def overlapping_problem(seed, n=60, d=2, separation=1.0):
    """Two Gaussian classes of equal size (unit variance, means ``2 *
    separation`` apart along a random direction, around a random centre):
    for the default sizes they overlap, so no hyperplane separates them (the
    caller may check with separability_margin)."""
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    direction = rng.normal(size=d)
    direction /= np.linalg.norm(direction)
    X = (
        rng.normal(size=(n, d))
        + separation * y[:, None] * direction
        + rng.normal(size=d)
    )
    return X, y


def standardised_breast_cancer(n_train=398):
    """scikit-learn's breast-cancer data, the first ``n_train`` rows
    standardised with their own mean and standard deviation; labels +1
    (benign) and -1 (malignant)."""
    from sklearn.datasets import load_breast_cancer

    X, target = load_breast_cancer(return_X_y=True)
    X = X[:n_train]
    return (X - X.mean(axis=0)) / X.std(axis=0), np.where(
        target[:n_train] == 1, 1.0, -1.0
    )
