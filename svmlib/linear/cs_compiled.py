# Generated from chapters/linear_more.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""Crammer and Singer's sequential dual method compiled by numba, for
dense and CSR rows (chapter "More linear models")."""

import numpy as np

from svmlib.numba_cache import cached_jit
from svmlib.linear.crammer_singer import NO_MOVE_BELOW, cs_subproblem


subproblem_compiled = cached_jit(cs_subproblem)


@cached_jit
def class_scores(dense, csr, i, W, classes, G):
    """G[k] = w_c'x_i, the product in G_i^c of eq. (eq-cs-sub), for c =
    classes[k], over the non-zeros of row i (the constant feature apart)."""
    G[:] = 0.0
    if csr is None:
        x = dense[i]
        for j in range(x.shape[0]):
            for k in range(classes.size):
                G[k] += x[j] * W[j, classes[k]]
    else:
        data, indices, indptr = csr
        for p in range(indptr[i], indptr[i + 1]):
            for k in range(classes.size):
                G[k] += data[p] * W[indices[p], classes[k]]


@cached_jit
def add_to_classes(dense, csr, i, W, classes, change):
    """W[:, c] += change[k] x_i for c = classes[k], eq. (eq-cs-w-update),
    over the non-zeros of row i (the constant feature apart)."""
    if csr is None:
        x = dense[i]
        for j in range(x.shape[0]):
            for k in range(classes.size):
                W[j, classes[k]] += change[k] * x[j]
    else:
        data, indices, indptr = csr
        for p in range(indptr[i], indptr[i + 1]):
            for k in range(classes.size):
                W[indices[p], classes[k]] += change[k] * data[p]


@cached_jit
def sweep_cs_compiled(data, alpha, W, active, order, n_active, shrinking):
    """sweep_cs_numpy compiled: the same rules, eqs. (eq-cs-sub),
    (eq-cs-shrink) and (eq-cs-alpha), in the same order, reading the
    non-zeros of each row only."""
    dense, csr, labels, C, A, bias = data
    d, largest, s = W.shape[0] - 1, 0.0, 0
    while s < n_active:
        i = order[s]
        classes = np.flatnonzero(active[i])
        G = np.empty(classes.size)
        class_scores(dense, csr, i, W, classes, G)
        a, bound = np.empty(classes.size), np.zeros(classes.size)
        for k in range(classes.size):
            c = classes[k]
            G[k] += bias * W[d, c] + (1.0 if c != labels[i] else 0.0)
            a[k] = alpha[i, c]
            if c == labels[i]:
                bound[k] = C[i]
        G_min, G_max = np.inf, -np.inf
        for k in range(classes.size):
            G_max = max(G_max, G[k])
            if a[k] < bound[k]:
                G_min = min(G_min, G[k])
        if shrinking:
            keep = (a < bound) | (G >= G_min)
            for k in range(classes.size):
                if not keep[k]:
                    active[i, classes[k]] = False
            if keep.sum() <= 1:
                n_active -= 1
                order[s], order[n_active] = order[n_active], order[s]
                continue
            classes, G, a = classes[keep], G[keep], a[keep]
        s += 1
        if G_max - G_min <= NO_MOVE_BELOW:
            continue
        largest = max(largest, G_max - G_min)
        y_at = -1
        for k in range(classes.size):
            if classes[k] == labels[i]:
                y_at = k
        change = subproblem_compiled(G - A[i] * a, A[i], C[i], y_at) - a
        add_to_classes(dense, csr, i, W, classes, change)
        for k in range(classes.size):
            W[d, classes[k]] += change[k] * bias
            alpha[i, classes[k]] += change[k]
    return n_active, largest
