# Generated from chapters/margins.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""A quiet interface to cvxopt's QP and LP solvers (chapter "Margins")."""

from dataclasses import dataclass

import cvxopt
import numpy as np

from svmlib.result import Status


QP_TOLERANCE = 1e-10
MAX_QP_ITERATIONS = 200


class QPError(RuntimeError):
    """cvxopt failed to solve a quadratic or linear program."""


@dataclass(frozen=True)
class QPSolution:
    """cvxopt's answer: the solution ``x``, the multipliers ``z`` of
    A_ub x <= b_ub (all >= 0) and ``y`` of A_eq x = b_eq, the objective
    value, the iteration count, and whether it converged."""

    x: np.ndarray
    z: np.ndarray
    y: np.ndarray
    objective: float
    n_iter: int
    converged: bool
    reached_max_iter: bool


def _dense(M):
    return cvxopt.matrix(np.ascontiguousarray(M, dtype=float))


def _call_cvxopt(solver, args, tol, max_iter=MAX_QP_ITERATIONS):
    options = {
        "show_progress": False,
        "abstol": tol,
        "reltol": tol,
        "feastol": tol,
        "maxiters": max_iter,
    }
    try:
        answer = solver(
            *[None if a is None else _dense(a) for a in args],
            options=options,
        )
    except (ValueError, ArithmeticError) as error:
        raise QPError(
            f"cvxopt could not solve the problem ({error}); check that it "
            "is feasible and that its matrices are finite"
        ) from error
    if answer["x"] is None:
        raise QPError(
            f"cvxopt found no solution (status: {answer['status']}); the "
            "problem is infeasible or unbounded"
        )
    return QPSolution(
        x=np.array(answer["x"]).ravel(),
        z=np.array(answer["z"]).ravel(),
        y=np.array(answer["y"]).ravel()
        if answer["y"] is not None
        else np.empty(0),
        objective=float(answer["primal objective"]),
        n_iter=int(answer["iterations"]),
        converged=answer["status"] == "optimal",
        reached_max_iter=int(answer["iterations"]) >= max_iter,
    )


def solver_status(solution):
    """The Status of an svmlib result solved through cvxopt."""
    if solution.converged:
        return Status.OPTIMAL
    return (
        Status.MAX_ITER if solution.reached_max_iter else Status.INACCURATE
    )


def solve_qp(
    P,
    q,
    A_ub,
    b_ub,
    A_eq=None,
    b_eq=None,
    tol=QP_TOLERANCE,
    max_iter=MAX_QP_ITERATIONS,
):
    """Solve min 1/2 x'Px + q'x subject to A_ub x <= b_ub and A_eq x = b_eq,
    eq. (eq-cvxopt-qp), with cvxopt (its G, h, A, b).

    ``A_eq`` and ``b_eq`` may be omitted when there is no equality
    constraint; ``max_iter`` caps cvxopt's interior-point iterations.
    """
    if (A_eq is None) != (b_eq is None):
        raise ValueError("an equality constraint needs both A_eq and b_eq")
    if A_eq is not None:
        A_eq, b_eq = np.atleast_2d(A_eq), np.atleast_1d(b_eq)
    return _call_cvxopt(
        cvxopt.solvers.qp, (P, q, A_ub, b_ub, A_eq, b_eq), tol, max_iter
    )


def solve_lp(c, A_ub, b_ub, tol=QP_TOLERANCE):
    """Solve the linear program min c'x subject to A_ub x <= b_ub with
    cvxopt."""
    return _call_cvxopt(cvxopt.solvers.lp, (c, A_ub, b_ub), tol)
