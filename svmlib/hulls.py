# Generated from chapters/duality.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""Nearest points of two convex hulls (chapter "Lagrangian duality")."""

from dataclasses import dataclass

import numpy as np

from svmlib.qp import QP_TOLERANCE, solve_qp
from svmlib.validation import check_binary_problem


@dataclass(frozen=True)
class HullPoints:
    """The nearest points of the positive and the negative class's hull,
    their distance, and the convex weights ``c`` that build them."""

    positive: np.ndarray
    negative: np.ndarray
    distance: float
    c: np.ndarray


def nearest_hull_points(X, y, mu=1.0, tol=QP_TOLERANCE):
    """The closest points p+ and p- of the (reduced) convex hulls of the two
    classes, eq. (eq-hull-dual): minimise ||sum_i y_i c_i x_i||^2 over
    weights c with sum c_i = 1 on each class and 0 <= c_i <= mu.

    ``mu = 1`` gives the convex hulls; a smaller ``mu`` the reduced hulls
    of the soft margin (it must leave each class a feasible weighting:
    mu * (size of the class) >= 1).
    """
    X, y = check_binary_problem(X, y)
    positive, negative = y > 0, y < 0
    smaller = min(positive.sum(), negative.sum())
    if not 0.0 < mu <= 1.0 or mu * smaller < 1.0:
        raise ValueError(
            f"mu must lie in [1/{smaller}, 1] (1 over the size of the "
            f"smaller class, up to 1); got {mu!r}"
        )
    n = y.size
    signed = y[:, None] * X
    A_eq = np.vstack([positive, negative]).astype(float)
    solution = solve_qp(
        signed @ signed.T,
        np.zeros(n),
        np.vstack([-np.eye(n), np.eye(n)]),
        np.concatenate([np.zeros(n), np.full(n, mu)]),
        A_eq=A_eq,
        b_eq=np.ones(2),
        tol=tol,
    )
    c = np.clip(solution.x, 0.0, mu)
    p_plus, p_minus = c[positive] @ X[positive], c[negative] @ X[negative]
    return HullPoints(
        positive=p_plus,
        negative=p_minus,
        distance=float(np.linalg.norm(p_plus - p_minus)),
        c=c,
    )
