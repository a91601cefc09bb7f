# Generated from chapters/duality.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""KKT residuals of the SVM dual (chapter "Lagrangian duality")."""

import numpy as np


def kkt_residuals(K, y, alpha, b, C=np.inf):
    """How far (alpha, b) is from satisfying each KKT condition, eq.
    (eq-kkt), of the SVM.

    ``C = inf`` is the hard margin.  With a finite ``C`` the slacks xi_i =
    max(0, 1 - y_i f(x_i)) make every margin constraint feasible, and
    complementary slackness also asks (C - alpha_i) xi_i = 0.  Returns a
    dict of non-negative residuals, all zero at an optimum.
    """
    alpha = np.asarray(alpha, dtype=float)
    margin = y * (K @ (alpha * y) + b)
    xi = np.maximum(0.0, 1.0 - margin)
    hard = np.isinf(C)
    slackness = np.abs(alpha * (margin - 1.0 + xi)).max()
    if not hard:
        slackness = max(slackness, np.abs((C - alpha) * xi).max())
    return {
        "stationarity": float(abs(alpha @ y)),
        "primal feasibility": float(xi.max()) if hard else 0.0,
        "dual feasibility": float(
            max(0.0, -alpha.min(), (alpha - C).max())
        ),
        "complementary slackness": float(slackness),
    }


def kkt_violation(K, y, alpha, b, C=np.inf):
    """The largest KKT residual: one number that is zero exactly at an
    optimum."""
    return max(kkt_residuals(K, y, alpha, b, C).values())
