# Generated from chapters/duality.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""KKT residuals of the SVM dual (chapter "Lagrangian duality")."""

import numpy as np

from svmlib.derivation.dual import check_gram


def kkt_residuals(K, y, alpha, b, C=np.inf):
    """How far (alpha, b) is from satisfying each KKT condition of the SVM,
    eq. (eq-kkt), as the unit-free residuals of eq. (eq-kkt-relative).

    ``C = inf`` is the hard margin.  With a finite ``C`` the slacks xi_i =
    max(0, 1 - y_i f(x_i)) make every margin constraint feasible, and
    complementary slackness also asks (C - alpha_i) xi_i = 0.  Terms
    weighted by alpha are divided by max|alpha_i|, those weighted by C -
    alpha_i by C, so the residuals do not change when the features are
    scaled by s, alpha by 1/s^2 and C by 1/s^2.  Returns a dict of
    non-negative residuals, all zero at an optimum.
    """
    K, y = check_gram(K, y)
    alpha = np.asarray(alpha, dtype=float)
    if alpha.shape != y.shape:
        raise ValueError(
            f"alpha must hold one multiplier per point ({y.size}); got "
            f"shape {alpha.shape}"
        )
    if not C > 0:
        raise ValueError(
            f"C must be positive (inf: hard margin); got {C!r}"
        )
    hard = np.isinf(C)
    alpha_max = np.abs(alpha).max() or 1.0
    margin = y * (K @ (alpha * y) + b)
    xi = np.maximum(0.0, 1.0 - margin)
    slackness = np.abs(alpha * (margin - 1.0 + xi)).max() / alpha_max
    excess = 0.0
    if not hard:
        slackness = max(slackness, np.abs((C - alpha) * xi).max() / C)
        excess = (alpha - C).max() / C
    return {
        "stationarity": float(abs(alpha @ y) / alpha_max),
        "primal feasibility": float(xi.max()) if hard else 0.0,
        "dual feasibility": float(
            max(0.0, -alpha.min() / alpha_max, excess)
        ),
        "complementary slackness": float(slackness),
    }


def kkt_violation(K, y, alpha, b, C=np.inf):
    """The largest KKT residual, eq. (eq-kkt-relative): one unit-free
    number that is zero exactly at an optimum."""
    return max(kkt_residuals(K, y, alpha, b, C).values())
