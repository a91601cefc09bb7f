# Generated from chapters/margins.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""The result type that every svmlib solver returns (chapter "Margins")."""

from dataclasses import dataclass
from enum import Enum

import numpy as np


class Status(str, Enum):
    """How a solver stopped."""

    OPTIMAL = "optimal"  # its optimality conditions hold to its tolerance
    MAX_ITER = "max_iter"  # its iteration limit stopped it first
    # it stopped early, unable to make progress towards its tolerance
    INACCURATE = "inaccurate"


@dataclass(frozen=True, eq=False)
class SolverResult:
    """What every svmlib solver returns.

    Attributes
    ----------
    alpha : ndarray of shape (n_samples,)
        Lagrange multipliers, one per training point (for the primal solver,
        cvxopt's multipliers of the margin constraints).
    b : float
        Offset of the decision function f(x) = sum_i alpha_i y_i K(x_i, x) +
        b, eq. (eq-sign-convention).  LIBSVM's threshold is ``rho = -b``.
    objective : float
        Optimal value of the problem the solver minimised.
    n_iter : int
        Iterations the solver took.
    status : Status
        Whether it converged or hit its iteration limit.
    w : ndarray of shape (n_features,) or None
        The normal vector, for solvers that work in the input space.
    r : float or None
        LIBSVM's second threshold, for the problems whose multipliers of
        each label have a fixed sum (the nu formulations of the chapter
        "Regression and novelty detection"); None for the others.
    G : ndarray of shape (n_samples,) or None
        The gradient Q alpha + p of the dual at alpha, for the solvers that
        keep it (a warm start from this solution, chapter "Choosing C and
        gamma", reuses it instead of recomputing it); None for the others.
    """

    alpha: np.ndarray
    b: float
    objective: float
    n_iter: int
    status: Status
    w: np.ndarray | None = None
    r: float | None = None
    G: np.ndarray | None = None

    @property
    def rho(self):
        """LIBSVM's threshold, ``-b``."""
        return -self.b
