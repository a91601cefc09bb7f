"""The four solvers behind one call: same problem, same answer, honest
limits."""

import numpy as np
import pytest
from problems import overlapping_problem

from svmlib import Kernel, Status, soft_margin_dual
from svmlib.smo.platt import platt_smo
from svmlib.training.solvers import (
    SOLVERS,
    SolverSettings,
    print_progress,
    print_summary,
    train_binary,
)


@pytest.fixture(scope="module")
def problem():
    X, y = overlapping_problem(7, n=120, d=3)
    kernel = Kernel("rbf", gamma=0.5)
    return X, y, kernel, soft_margin_dual(kernel(X), y, 1.0)


@pytest.mark.parametrize("solver", list(SOLVERS))
def test_every_solver_reaches_cvxopts_objective(problem, solver):
    X, y, kernel, reference = problem
    result = train_binary(
        solver, X, y, kernel, SolverSettings(C=1.0, tol=1e-3), seed=0
    )
    bound = 1e-3 if solver == "simplified" else 1e-5
    assert abs(result.objective - reference.objective) <= bound * abs(
        reference.objective
    )
    assert result.alpha.shape == y.shape and np.all(
        (result.alpha >= 0) & (result.alpha <= 1.0)
    )
    assert abs(result.alpha @ y) < 1e-8


@pytest.mark.parametrize("solver", list(SOLVERS))
def test_a_gram_matrix_gives_the_same_model_as_the_points(problem, solver):
    X, y, kernel, _ = problem
    settings = SolverSettings(C=1.0, tol=1e-3)
    on_points = train_binary(solver, X, y, kernel, settings, seed=0)
    on_gram = train_binary(
        solver, kernel(X), y, "precomputed", settings, seed=0
    )
    # the batched solver computes kernel rows by the product form (chapter
    # "Scaling up"), which differs from the kernels chapter's distances in
    # the last digits; the paths then differ by a step
    bound = 1e-6 if solver == "batched" else 1e-9
    assert abs(on_points.objective - on_gram.objective) <= bound * abs(
        on_gram.objective
    )


def test_cvxopt_multipliers_are_exactly_on_their_bounds(problem):
    X, y, kernel, reference = problem
    result = train_binary(
        "cvxopt", X, y, kernel, SolverSettings(C=1.0, tol=1e-3)
    )
    assert np.any(
        reference.alpha[(reference.alpha > 0) & (reference.alpha < 1e-7)]
    )  # cvxopt's own are not
    inside = (result.alpha > 0) & (result.alpha < 1.0)
    assert np.all(result.alpha[inside] > 1e-6) and np.all(
        1.0 - result.alpha[inside] > 1e-6
    )
    assert np.any(result.alpha == 0.0) and np.any(result.alpha == 1.0)


@pytest.mark.parametrize(
    "solver, limit",
    [("smo", 7), ("platt", 5), ("simplified", 2), ("cvxopt", 3)],
)
def test_max_iter_bounds_what_n_iter_counts(problem, solver, limit):
    X, y, kernel, _ = problem
    result = train_binary(
        solver,
        X,
        y,
        kernel,
        SolverSettings(C=1.0, tol=1e-3, max_iter=limit),
        seed=0,
    )
    assert result.n_iter == limit
    assert result.status != Status.OPTIMAL


def test_platt_step_limit_stops_inside_a_pass(problem):
    X, y, kernel, _ = problem
    assert platt_smo(X, y, 1.0, kernel, max_steps=1).n_iter == 1
    with pytest.raises(
        ValueError, match="max_iter must be a positive integer"
    ):
        platt_smo(X, y, 1.0, kernel, max_steps=0)


def test_verbose_reports(problem, capsys):
    X, y, kernel, _ = problem
    result = train_binary(
        "smo", X, y, kernel, SolverSettings(C=1.0, tol=1e-3, verbose=True)
    )
    print_summary(result, 1.0)
    print_progress(2000, 0.0123)
    print_progress(2001, 0.0123)
    out = capsys.readouterr().out.splitlines()
    assert (
        out[0]
        == f"optimization finished (optimal), #iter = {result.n_iter}"
    )
    assert out[1] == f"obj = {result.objective:.6f}, rho = {result.rho:.6f}"
    n_support = np.count_nonzero(result.alpha)
    n_bounded = np.count_nonzero(result.alpha == 1.0)
    assert out[2] == f"nSV = {n_support}, nBSV = {n_bounded}"
    assert out[3:] == ["  iteration     2000   m - M = 1.230e-02"]
