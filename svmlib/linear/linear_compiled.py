# Generated from chapters/linear_scale.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""Dual coordinate descent compiled by numba, for dense and CSR rows
(chapter "Linear SVMs at scale")."""

import numpy as np

from svmlib.numba_cache import cached_jit
from svmlib.linear.linear_dcd import NO_STEP_BELOW


@cached_jit
def row_dot(dense, csr, i, w):
    """w'x_i over the non-zeros of row i (the product in G_i, eq.
    (eq-dcd-gradient)): of the array ``dense`` if ``csr`` is None, else
    of the CSR arrays (data, indices, indptr)."""
    total = 0.0
    if csr is None:
        x = dense[i]
        for j in range(x.shape[0]):
            total += x[j] * w[j]
    else:
        data, indices, indptr = csr
        for k in range(indptr[i], indptr[i + 1]):
            total += data[k] * w[indices[k]]
    return total


@cached_jit
def add_row(dense, csr, i, scale, w):
    """w += scale x_i over the non-zeros of row i, eq.
    (eq-dcd-w-update)."""
    if csr is None:
        x = dense[i]
        for j in range(x.shape[0]):
            w[j] += scale * x[j]
    else:
        data, indices, indptr = csr
        for k in range(indptr[i], indptr[i + 1]):
            w[indices[k]] += scale * data[k]


@cached_jit
def sweep_compiled(
    dense,
    csr,
    y,
    alpha,
    w,
    bias,
    Qbar_diag,
    D,
    U,
    order,
    n_active,
    G_max,
    G_min,
):
    """sweep_numpy compiled: one pass of eq. (eq-dcd-step) over
    order[:n_active], wbar kept up to date by eq. (eq-dcd-w-update) over
    the non-zeros of each row, shrinking by eq. (eq-dcd-shrink).  Returns
    the new n_active and the largest and smallest projected gradients,
    eq. (eq-dcd-projected)."""
    d = w.shape[0] - 1
    PG_max, PG_min = -np.inf, np.inf
    s = 0
    while s < n_active:
        i = order[s]
        x_dot_w = row_dot(dense, csr, i, w) + bias * w[d]
        G = y[i] * x_dot_w - 1.0 + D[i] * alpha[i]
        at_zero, at_top = alpha[i] == 0.0, alpha[i] == U[i]
        if (at_zero and G > G_max) or (at_top and G < G_min):
            n_active -= 1
            order[s], order[n_active] = order[n_active], order[s]
            continue
        PG = min(G, 0.0) if at_zero else max(G, 0.0) if at_top else G
        PG_max, PG_min = max(PG_max, PG), min(PG_min, PG)
        if abs(PG) > NO_STEP_BELOW:
            new = min(max(alpha[i] - G / Qbar_diag[i], 0.0), U[i])
            step = (new - alpha[i]) * y[i]
            add_row(dense, csr, i, step, w)
            w[d] += step * bias
            alpha[i] = new
        s += 1
    return n_active, PG_max, PG_min
