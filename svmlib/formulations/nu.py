# Generated from chapters/regression_novelty.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""The nu formulations as instances of the core QP, with fixed sums per
label (chapter "Regression and novelty detection")."""

import numpy as np

from svmlib.derivation.hinge import check_C
from svmlib.derivation.intercept import BoundStatus, compute_rho
from svmlib.formulations.svr_one_class import (
    DoubledRows,
    check_nu,
    check_targets,
    training_rows,
)
from svmlib.smo.solver import QPProblem
from svmlib.smo.working_set import TAU
from svmlib.validation import check_binary_labels
from svmlib.formulations.svr_one_class import fill_in_order, unit_weights


def within_label_pair(S, psi, y, up, low, eps):
    """WSS2 within each label, eq. (eq-nu-wss), in numpy (the compiled
    select_pair_by_label does the same in one pass): for each label s, i_s
    maximises psi over its I_up and j the gain (m_s - psi_t)^2 / a_(i_s)t
    over its I_low; the pair with the larger gain wins (the smaller j on a
    tie).  Returns (i, j, found), found False when both labels' m_s - M_s
    are below ``eps``, eq. (eq-nu-stopping)."""
    best_i, best_j, best_gain, gap = -1, -1, 0.0, -np.inf
    for label in (1.0, -1.0):
        psi_up = np.where(up & (y == label), psi, -np.inf)
        psi_low = np.where(low & (y == label), psi, np.inf)
        i = int(np.argmax(psi_up))
        m = psi_up[i]
        gap = max(gap, m - psi_low.min())
        b_it = m - psi_low  # > 0 exactly for the candidates
        a_it = S[i, i] + np.diag(S) - 2.0 * S[i]
        a_it = np.where(a_it > 0.0, a_it, TAU)
        gain = np.where(b_it > 0.0, b_it * b_it / a_it, 0.0)
        j = int(np.argmax(gain))
        better = gain[j] > best_gain or (
            gain[j] == best_gain and j < best_j
        )
        if gain[j] > 0.0 and better:
            best_i, best_j, best_gain = i, j, gain[j]
    return best_i, best_j, best_j >= 0 and gap >= eps


def label_thresholds(G, y, status):
    """rho and r of eq. (eq-nu-thresholds) from the gradient G: r_plus and
    r_minus are each label's threshold by eq. (eq-rho) applied to G itself
    (the mean over the free variables, else the middle of the interval the
    bounded ones allow); rho = (r_plus - r_minus) / 2 and r = (r_plus +
    r_minus) / 2."""
    thresholds = []
    for mine in (y > 0, y < 0):
        part = BoundStatus(
            lower=status.lower[mine],
            free=status.free[mine],
            upper=status.upper[mine],
        )
        thresholds.append(compute_rho(G[mine], np.ones(mine.sum()), part))
    r_plus, r_minus = thresholds
    return 0.5 * (r_plus - r_minus), 0.5 * (r_plus + r_minus)


def check_nu_feasible(y, nu, names=("+1", "-1"), bounds=None):
    """nu-SVC's feasibility condition for the labels y of one two-class
    problem: each label's bounds (1, or the sample weights) must add up to
    at least nu sum(bounds) / 2, i.e. nu n / 2 <= min(n_plus, n_minus)
    without weights; ``names`` name the two classes in the error."""
    bounds = unit_weights(bounds, y.size)
    totals = {
        names[0]: float(bounds[y > 0].sum()),
        names[1]: float(bounds[y < 0].sum()),
    }
    smaller = min(totals, key=totals.get)
    share = nu * bounds.sum() / 2
    if share > totals[smaller]:
        raise ValueError(
            f"specified nu is infeasible: with nu = {nu:g} each of the "
            f"classes {names[0]} and {names[1]} must carry nu n / 2 = "
            f"{share:g} (n the sum of the weights), but class {smaller} "
            f"can carry at most {totals[smaller]:g}; nu must be at most "
            f"{2 * totals[smaller] / bounds.sum():.4g} here"
        )


def nu_svc_problem(X, y, nu, kernel="precomputed", sample_weight=None):
    """The scaled nu-SVC dual, eq. (eq-nu-svc-core), as (Q, p, y, C): S =
    K, p = 0, labels y (-1 and +1), bounds 1, nu n / 2 in each label (the
    start fills it in order), pairs within a label (``by_label``); with
    sample weights w, bounds w and nu sum(w) / 2 in each label."""
    nu = check_nu(nu)
    rows = training_rows(X, kernel)
    n = rows.n_samples
    y = check_binary_labels(y, n)
    bounds = unit_weights(sample_weight, n)
    check_nu_feasible(y, nu, bounds=bounds)
    alpha0 = np.zeros(n)
    for mine in (y > 0, y < 0):
        alpha0[mine] = fill_in_order(bounds[mine], nu * bounds.sum() / 2)
    return QPProblem(
        Q=rows,
        p=np.zeros(n),
        y=y,
        C=bounds,
        alpha0=alpha0,
        by_label=True,
    )


def nu_svr_problem(X, y, C, nu, kernel="precomputed", sample_weight=None):
    """The scaled nu-SVR dual, eq. (eq-nu-svr-core), as (Q, p, y, C): 2n
    variables (alpha, alpha*), S = [[K, K], [K, K]], p = (-y, y), labels
    (+1, -1), bounds C, C nu n / 2 in each half (filled in order), pairs
    within a label (``by_label``); with sample weights w, bounds C w_t and
    C nu sum(w) / 2 in each half."""
    C, nu = check_C(C), check_nu(nu)
    rows = training_rows(X, kernel)
    n = rows.n_samples
    y = check_targets(y, n)
    bounds = C * unit_weights(sample_weight, n)
    half = fill_in_order(bounds, nu * bounds.sum() / 2)
    return QPProblem(
        Q=DoubledRows(rows),
        p=np.concatenate([-y, y]),
        y=np.concatenate([np.ones(n), -np.ones(n)]),
        C=np.tile(bounds, 2),
        alpha0=np.concatenate([half, half]),
        by_label=True,
    )
