# Generated from chapters/soft_margin.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""The offset b = -rho as LIBSVM computes it (chapter "The soft margin")."""

from dataclasses import dataclass

import numpy as np

from svmlib.derivation.dual import SUPPORT_RTOL, check_gram, support_indices
from svmlib.derivation.hinge import check_C


def dual_gradient(K, y, alpha):
    """The gradient G = Q alpha - 1 of the dual objective, with Q_ij = y_i
    y_j K_ij, eq. (eq-dual-gradient)."""
    return y * (K @ (alpha * y)) - 1.0


@dataclass(frozen=True)
class BoundStatus:
    """Which multipliers sit on a bound of the box 0 <= alpha_i <= C: three
    disjoint boolean masks."""

    lower: np.ndarray  # alpha_i = 0
    free: np.ndarray  # 0 < alpha_i < C
    upper: np.ndarray  # alpha_i = C


def bound_status(alpha, C, rtol=SUPPORT_RTOL):
    """Classify each alpha_i as at 0 (below ``rtol`` times the largest
    alpha), at C (within ``rtol * C`` of it) or free.  Exact for SMO's
    alphas; robust for an interior-point solver's."""
    alpha = np.asarray(alpha, dtype=float)
    upper = alpha >= (1.0 - rtol) * C
    lower = np.ones(alpha.shape, dtype=bool)
    lower[support_indices(alpha, rtol)] = False
    lower &= ~upper
    return BoundStatus(lower=lower, free=~lower & ~upper, upper=upper)


def rho_interval(G, y, status):
    """The interval [lb, ub] to which the bounded multipliers confine rho,
    eq. (eq-rho-interval).

    An end with no index to bound it is infinite.
    """
    yG = y * G
    upper_end = (status.lower & (y > 0)) | (status.upper & (y < 0))
    lower_end = (status.lower & (y < 0)) | (status.upper & (y > 0))
    ub = float(yG[upper_end].min()) if upper_end.any() else np.inf
    lb = float(yG[lower_end].max()) if lower_end.any() else -np.inf
    return lb, ub


def compute_rho(G, y, status):
    """LIBSVM's threshold rho, eq. (eq-rho): the mean of y_i G_i over the
    free multipliers, or, when none is free, the midpoint of the interval
    from rho_interval.

    An infinite end cannot occur for a feasible alpha with both classes
    present (an empty upper set would put every positive at C and every
    negative at 0, so sum(alpha y) = C n_+ != 0); for an infeasible alpha
    the finite end is returned.
    """
    if status.free.any():
        return float(np.mean(y[status.free] * G[status.free]))
    lb, ub = rho_interval(G, y, status)
    if np.isinf(lb) or np.isinf(ub):
        return ub if np.isinf(lb) else lb
    return 0.5 * (lb + ub)


def intercept_from_kkt(K, y, alpha, C):
    """The offset b = -rho of the decision function for the multipliers
    ``alpha`` of eq. (eq-soft-dual)."""
    K, y = check_gram(K, y)
    C = check_C(C)
    alpha = np.asarray(alpha, dtype=float)
    if alpha.shape != y.shape:
        raise ValueError(
            f"alpha has shape {alpha.shape} but there are {y.shape[0]} "
            "labels"
        )
    status = bound_status(alpha, C)
    return -compute_rho(dual_gradient(K, y, alpha), y, status)
