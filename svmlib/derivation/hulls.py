# Generated from chapters/duality.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""Nearest points of two convex hulls (chapter "Lagrangian duality")."""

from dataclasses import dataclass

import numpy as np

from svmlib.derivation.qp import QP_TOLERANCE, solve_qp
from svmlib.validation import check_binary_problem


# mu * (size of a class) may fall short of 1 by round-off (1/49 * 49 < 1).
MU_RTOL = 1e-12


@dataclass(frozen=True)
class HullPoints:
    """The nearest points of the positive and the negative class's hull,
    their distance, and the convex weights ``c`` that build them."""

    positive: np.ndarray
    negative: np.ndarray
    distance: float
    c: np.ndarray


def nearest_hull_points(X, y, mu=1.0, tol=QP_TOLERANCE):
    """The nearest points p+ and p- of the convex hulls of the two classes,
    eq. (eq-hull-dual), with cvxopt.

    Minimises ||sum_i y_i c_i x_i||^2 over weights c >= 0 that sum to 1 on
    each class; p+ and p- are the weighted means of each class.  ``mu < 1``
    also caps every weight, c_i <= mu: the reduced convex hulls of Bennett
    and Bredensteiner (2000), which can be apart although the classes
    overlap.  ``mu`` must leave each class a feasible weighting: 1 / (size
    of the smaller class) <= mu <= 1.  When the hulls meet (the classes are
    not separable) the distance is 0 up to the solver's tolerance.
    """
    X, y = check_binary_problem(X, y)
    positive, negative = y > 0, y < 0
    smaller = min(positive.sum(), negative.sum())
    if not 0.0 < mu <= 1.0 or mu * smaller < 1.0 - MU_RTOL:
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
