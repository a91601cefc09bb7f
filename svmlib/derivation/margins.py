# Generated from chapters/margins.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""Functional and geometric margins of a hyperplane (chapter "Margins")."""

import numpy as np


def _as_hyperplane(X, w):
    X, w = np.asarray(X, dtype=float), np.asarray(w, dtype=float)
    if X.ndim != 2:
        raise ValueError(
            "X must be a 2-D array of shape (n_samples, n_features); "
            f"got shape {X.shape}"
        )
    if w.ndim != 1 or X.shape[1] != w.shape[0]:
        raise ValueError(
            f"X has shape {X.shape} but w has shape {w.shape}; "
            "w needs one entry per column of X"
        )
    return X, w


def _norm_of(w):
    norm = float(np.linalg.norm(w))
    if norm == 0.0:
        raise ValueError(
            "w is the zero vector, which defines no hyperplane"
        )
    return norm


def decision_function(X, w, b):
    """The decision function f(x) = w'x + b of eq. (eq-decision), for each
    row of ``X``."""
    X, w = _as_hyperplane(X, w)
    return X @ w + float(b)


def functional_margin(X, y, w, b):
    """Functional margins y_i f(x_i): positive exactly for correctly
    classified points."""
    f = decision_function(X, w, b)
    y = np.asarray(y, dtype=float)
    if y.shape != f.shape:
        raise ValueError(
            f"y must hold one label per row of X, shape {f.shape}; "
            f"got shape {y.shape}"
        )
    return y * f


def geometric_margin(X, y, w, b):
    """Geometric margins y_i f(x_i) / ||w||, the signed distances of eq.
    (eq-signed-distance)."""
    return functional_margin(X, y, w, b) / _norm_of(
        np.asarray(w, dtype=float)
    )


def dataset_margin(X, y, w, b):
    """The margin of a data set: its smallest geometric margin, positive iff
    (w, b) separates it."""
    return float(np.min(geometric_margin(X, y, w, b)))


def project_onto_hyperplane(X, w, b):
    """The orthogonal projection x_0 of each row of ``X`` onto w'x + b = 0,
    from eq. (eq-projection)."""
    X, w = _as_hyperplane(X, w)
    return X - np.outer(decision_function(X, w, b), w) / _norm_of(w) ** 2
