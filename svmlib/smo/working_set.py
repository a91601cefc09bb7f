# Generated from chapters/full_smo.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""I_up, I_low, m and M, WSS1 and WSS2 (from the chapter "The full SMO")."""

from dataclasses import dataclass

import numpy as np


TAU = 1e-12


def up_low_sets(alpha, y, C):
    """I_up (y_i alpha_i can increase) and I_low (it can decrease) as
    boolean masks, eq. (eq-up-low)."""
    below_C, above_0 = alpha < C, alpha > 0
    positive = y > 0
    I_up = (positive & below_C) | (~positive & above_0)
    I_low = (positive & above_0) | (~positive & below_C)
    return I_up, I_low


def violation_bounds(G, y, I_up, I_low):
    """m(alpha) = max over I_up and M(alpha) = min over I_low of -y_i G_i,
    eq. (eq-m-M).

    The current point is optimal to tolerance eps when m - M <= eps, eq.
    (eq-stopping).
    """
    minus_yG = -y * G
    m = float(minus_yG[I_up].max()) if I_up.any() else -np.inf
    M = float(minus_yG[I_low].min()) if I_low.any() else np.inf
    return m, M


@dataclass(frozen=True)
class WorkingSet:
    """The pair (i, j) to optimise next, and the violation m - M when it was
    chosen."""

    i: int
    j: int
    violation: float


def select_working_set(
    G, y, I_up, I_low, QD, column, tol, second_order=True, tau=TAU
):
    """Choose the pair (i, j) to update, or return None when m - M <
    ``tol``.

    i maximises -y_t G_t over I_up.  First order (WSS1, Keerthi et al.
    2001): j minimises it over I_low, the maximal violating pair, eq.
    (eq-wss1).  Second order (WSS2, Fan, Chen & Lin 2005): j maximises
    b_it^2 / a_it, twice the gain of the unclipped step, over the t in I_low
    with -y_t G_t < m, eq. (eq-wss2), with a_it = Q_ii + Q_tt - 2 y_i y_t
    Q_it replaced by ``tau`` when <= 0. ``column(i)`` returns Q_i; only WSS2
    calls it.
    """
    if not (I_up.any() and I_low.any()):  # e.g. all shrunk
        return None
    minus_yG = -y * G
    up = np.where(I_up, minus_yG, -np.inf)
    i = int(np.argmax(up))
    m = up[i]
    low = np.where(I_low, minus_yG, np.inf)
    M = low.min()
    if not m - M >= tol:
        return None
    if not second_order:
        return WorkingSet(i, int(np.argmin(low)), float(m - M))
    b_it = m - low  # > 0 exactly for the candidates t
    a_it = QD[i] + QD - 2.0 * y[i] * y * column(i)
    a_it[a_it <= 0.0] = tau
    decrease = np.where(b_it > 0.0, b_it * b_it / a_it, -np.inf)
    return WorkingSet(i, int(np.argmax(decrease)), float(m - M))
