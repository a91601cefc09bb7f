# Generated from chapters/linear_l1.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""CDN's pass for the L1-regularised SVM compiled by numba, for dense and
CSC columns (chapter "Sparse linear models: the L1 penalty")."""

import numpy as np

from svmlib.linear.linear_dcd import NO_STEP_BELOW
from svmlib.numba_cache import cached_jit
from svmlib.linear.linear_l1 import DECREASE_SHARE, L1_MAX_HALVINGS, MIN_CURVATURE, min_norm_subgradient, soft_threshold_direction


soft_threshold_compiled = cached_jit(soft_threshold_direction)
subgradient_compiled = cached_jit(min_norm_subgradient)


@cached_jit
def column_span(dense, csc, j):
    """Where column j's entries lie, the entries eqs. (eq-l1-gradient) and
    (eq-l1-hessian) read: (start, end) in the CSC arrays, or (0, n) in
    row j of the transposed array."""
    if csc is None:
        return 0, dense.shape[1]
    return csc[2][j], csc[2][j + 1]


@cached_jit
def column_entry(dense, csc, j, k):
    """Entry k of column j's span: the row i and the value xbar_ij."""
    if csc is None:
        return k, dense[j, k]
    return csc[1][k], csc[0][k]


@cached_jit
def column_derivatives(dense, csc, j, y, C, r):
    """g = L_j'(0) and h = H_j of eqs. (eq-l1-gradient) and
    (eq-l1-hessian), over column j's entries."""
    g = h = 0.0
    start, end = column_span(dense, csc, j)
    for k in range(start, end):
        i, x = column_entry(dense, csc, j, k)
        if r[i] > 0.0:
            g -= C[i] * y[i] * x * r[i]
            h += C[i] * x * x
    return 2.0 * g, max(2.0 * h, MIN_CURVATURE)


@cached_jit
def loss_change(dense, csc, j, y, C, r, t):
    """L_j(t) - L_j(0) of eq. (eq-l1-one-variable), the losses' change
    when w_j moves by t, over column j's entries."""
    change = 0.0
    start, end = column_span(dense, csc, j)
    for k in range(start, end):
        i, x = column_entry(dense, csc, j, k)
        old, new = max(r[i], 0.0), max(r[i] - t * y[i] * x, 0.0)
        change += C[i] * (new - old) * (new + old)
    return change


@cached_jit
def shift_shortfalls(dense, csc, j, y, r, t):
    """r_i -= t y_i xbar_ij over column j's entries (eq.
    (eq-l1-one-variable)): the shortfalls once w_j has moved by t."""
    start, end = column_span(dense, csc, j)
    for k in range(start, end):
        i, x = column_entry(dense, csc, j, k)
        r[i] -= t * y[i] * x


@cached_jit
def coordinate_step_compiled(dense, csc, j, y, C, r, w_j, g, s, Hbar_j):
    """coordinate_step compiled: the step t of eq. (eq-l1-armijo), the
    bound of eq. (eq-l1-upper) tried first; 0.0 if none is found."""
    promised = g * s + abs(w_j + s) - abs(w_j)
    t = s
    for _ in range(L1_MAX_HALVINGS):
        penalty = abs(w_j + t) - abs(w_j)
        target = DECREASE_SHARE * (t / s) * promised
        if g * t + Hbar_j * t * t + penalty <= target:
            return t
        if loss_change(dense, csc, j, y, C, r, t) + penalty <= target:
            return t
        t /= 2
    return 0.0


@cached_jit
def l1_sweep_compiled(
    dense, csc, y, C, r, w, Hbar, order, n_active, shrink_margin
):
    """l1_sweep_numpy compiled: one pass of eq. (eq-l1-direction) with the
    step of eq. (eq-l1-armijo), shrinking by eq. (eq-l1-shrink).  Returns
    n_active and the largest and the sum of the abs(grad^S_j F) met, eq.
    (eq-l1-subgradient)."""
    largest, total, s = 0.0, 0.0, 0
    while s < n_active:
        j = order[s]
        g, h = column_derivatives(dense, csc, j, y, C, r)
        if w[j] == 0.0 and abs(g) < 1.0 - shrink_margin:
            n_active -= 1
            order[s], order[n_active] = order[n_active], order[s]
            continue
        violation = subgradient_compiled(w[j], g)
        largest, total = max(largest, violation), total + violation
        s += 1
        direction = soft_threshold_compiled(w[j], g, h)
        if abs(direction) <= NO_STEP_BELOW:
            continue
        t = coordinate_step_compiled(
            dense, csc, j, y, C, r, w[j], g, direction, Hbar[j]
        )
        shift_shortfalls(dense, csc, j, y, r, t)
        w[j] += t
    return n_active, largest, total
