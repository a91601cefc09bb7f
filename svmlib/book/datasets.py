# Generated from chapters/margins.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""Small synthetic data sets used in the book (chapter "Margins")."""

import numpy as np


def gaussian_blobs(
    n_per_class=20,
    centers=((2.0, 2.0), (-1.0, -0.5)),
    scale=0.6,
    random_state=0,
):
    """Two Gaussian clouds: ``n_per_class`` points labelled +1 around
    ``centers[0]`` and as many labelled -1 around ``centers[1]``, each
    coordinate with standard deviation ``scale``.

    Returns ``(X, y)`` with ``X`` of shape ``(2 * n_per_class, d)`` and
    ``y`` in {-1, +1}.
    """
    rng = np.random.default_rng(random_state)
    centers = np.asarray(centers, dtype=float)
    positive = rng.normal(
        centers[0], scale, size=(n_per_class, centers.shape[1])
    )
    negative = rng.normal(
        centers[1], scale, size=(n_per_class, centers.shape[1])
    )
    X = np.vstack([positive, negative])
    y = np.concatenate([np.ones(n_per_class), -np.ones(n_per_class)])
    return X, y


def hand_example():
    """The three points of the example worked by hand (chapter "Margins"):
    x_1 = (0, 0) labelled -1, x_2 = (2, 0) and x_3 = (0, 2) labelled +1.

    Returns ``(X_hand, y_hand)``, new arrays at every call.
    """
    X_hand = np.array([[0.0, 0.0], [2.0, 0.0], [0.0, 2.0]])
    y_hand = np.array([-1.0, 1.0, 1.0])
    return X_hand, y_hand
