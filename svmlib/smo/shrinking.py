# Generated from chapters/smo_engineering.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""Shrinking and reconstructing G (chapter "Engineering the SMO solver")."""

import numpy as np


RECONSTRUCTION_BLOCK = 256


def shrinkable(G, y, I_up, I_low, m, M):
    """Variables that cannot be in a violating pair while m and M stay where
    they are, eq. (eq-shrink).

    A variable only in I_up (at a bound, able to move one way) can be the i
    of a violating pair only if -y_t G_t > M; one only in I_low can be the j
    only if -y_t G_t < m.  Free variables, in both sets, are never shrunk.
    """
    minus_yG = -y * G
    return ((I_up & ~I_low) & (minus_yG < M)) | (
        (I_low & ~I_up) & (minus_yG > m)
    )


def reconstruct_gradient(G, G_bar, p, alpha, C, active, Q):
    """Recompute G_t for the inactive t from G_bar, eq. (eq-reconstruct), in
    place: G_t = G_bar_t + p_t + sum over the free j of alpha_j Q_tj.

    G_bar_t = sum over the j with alpha_j = C_j of C_j Q_tj is kept up to
    date by the solver; variables at 0 contribute nothing, and only the free
    ones need kernel columns (fetched in blocks).
    """
    inactive = np.ones(G.shape[0], dtype=bool)
    inactive[active] = False
    if not inactive.any():
        return
    G[inactive] = G_bar[inactive] + p[inactive]
    free = np.flatnonzero((alpha > 0) & (alpha < C))
    for start in range(0, free.size, RECONSTRUCTION_BLOCK):
        chunk = free[start : start + RECONSTRUCTION_BLOCK]
        G[inactive] += alpha[chunk] @ Q.columns(chunk)[:, inactive]
