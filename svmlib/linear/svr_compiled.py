# Generated from chapters/linear_more.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""Linear SVR's dual coordinate descent compiled by numba, for dense and
CSR rows (chapter "More linear models")."""

from svmlib.linear.linear_compiled import add_row, row_dot
from svmlib.numba_cache import cached_jit
from svmlib.linear.svr_dcd import NO_BETA_STEP_BELOW, svr_shrinkable, svr_step, svr_violation


# the scalar rules of the numpy pass, compiled as they are
step_compiled = cached_jit(svr_step)
violation_compiled = cached_jit(svr_violation)
shrinkable_compiled = cached_jit(svr_shrinkable)


@cached_jit
def sweep_svr_compiled(data, beta, w, order, n_active, G_max):
    """sweep_svr_numpy compiled: one pass of eq. (eq-lsvr-step) over
    order[:n_active], wbar kept up to date by eq. (eq-lsvr-w-update) over
    the non-zeros of each row, shrinking by eq. (eq-lsvr-shrink).
    Returns n_active and the sum and the largest of the violations."""
    dense, csr, y, bias, Qbar_diag, D, U, epsilon = data
    d = w.shape[0] - 1
    total, largest, s = 0.0, 0.0, 0
    while s < n_active:
        i = order[s]
        G = row_dot(dense, csr, i, w) + bias * w[d] - y[i] + D[i] * beta[i]
        if shrinkable_compiled(beta[i], G, epsilon, U[i], G_max):
            n_active -= 1
            order[s], order[n_active] = order[n_active], order[s]
            continue
        violation = violation_compiled(beta[i], G, epsilon, U[i])
        total += violation
        largest = max(largest, violation)
        new = step_compiled(beta[i], G, Qbar_diag[i], epsilon, U[i])
        if abs(new - beta[i]) > NO_BETA_STEP_BELOW:
            add_row(dense, csr, i, new - beta[i], w)
            w[d] += (new - beta[i]) * bias
            beta[i] = new
        s += 1
    return n_active, total, largest
