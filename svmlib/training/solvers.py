# Generated from chapters/in_practice.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""The solvers behind one call (from the chapter "svmlib in practice")."""

from dataclasses import dataclass, replace

from svmlib.derivation.dual import dual_objective
from svmlib.derivation.intercept import bound_status, intercept_from_kkt
from svmlib.derivation.qp import MAX_QP_ITERATIONS, QP_TOLERANCE
from svmlib.derivation.soft_margin import soft_margin_dual
from svmlib.formulations.c_svc import smo
from svmlib.smo.platt import platt_smo
from svmlib.smo.simplified_smo import (
    MAX_TOTAL_PASSES,
    gram_matrix,
    simplified_smo,
)


PROGRESS_INTERVAL = 1000


@dataclass(frozen=True)
class SolverSettings:
    """What the estimator asks of every solver: the box bound C, the
    stopping tolerance, an iteration limit (None: the solver's own), and
    options that only some solvers use."""

    C: float
    tol: float
    max_iter: int | None = None
    cache_size: float = 200.0
    shrinking: bool = True
    verbose: bool = False


def print_progress(iteration, violation):
    """The "smo" solver's progress, every PROGRESS_INTERVAL pair updates:
    m(alpha) - M(alpha)."""
    if iteration % PROGRESS_INTERVAL == 0:
        print(f"  iteration {iteration:>8d}   m - M = {violation:.3e}")


def train_smo(X, y, kernel, settings, seed):
    """The full SMO chapter's solver, algorithm (alg-smo): WSS2, shrinking
    and the kernel cache."""
    return smo(
        X,
        y,
        settings.C,
        kernel,
        tol=settings.tol,
        shrinking=settings.shrinking,
        cache_size=settings.cache_size,
        max_iter=settings.max_iter,
        callback=print_progress if settings.verbose else None,
    )


def train_platt(X, y, kernel, settings, seed):
    """Platt's SMO, algorithm (alg-platt), on the Gram matrix; max_iter
    counts takeSteps."""
    return platt_smo(
        X,
        y,
        settings.C,
        kernel,
        tol=settings.tol,
        random_state=seed,
        max_steps=settings.max_iter,
    )


def train_simplified(X, y, kernel, settings, seed):
    """The simplified SMO, algorithm (alg-simplified-smo); max_iter counts
    passes."""
    max_passes = (
        MAX_TOTAL_PASSES if settings.max_iter is None else settings.max_iter
    )
    return simplified_smo(
        X,
        y,
        settings.C,
        kernel,
        tol=settings.tol,
        random_state=seed,
        max_total_passes=max_passes,
    )


def train_cvxopt(X, y, kernel, settings, seed):
    """The dual QP eq. (eq-soft-dual-qp) by cvxopt, to the tolerance
    min(tol, QP_TOLERANCE). Multipliers within round-off of a bound are set
    to it; b and the objective follow them."""
    K = gram_matrix(X, kernel)
    max_iter = (
        MAX_QP_ITERATIONS
        if settings.max_iter is None
        else settings.max_iter
    )
    result = soft_margin_dual(
        K,
        y,
        settings.C,
        tol=min(settings.tol, QP_TOLERANCE),
        max_iter=max_iter,
    )
    at = bound_status(result.alpha, settings.C)
    alpha = result.alpha.copy()
    alpha[at.lower], alpha[at.upper] = 0.0, settings.C
    return replace(
        result,
        alpha=alpha,
        b=intercept_from_kkt(K, y, alpha, settings.C),
        objective=dual_objective(K, y, alpha),
    )


def print_round(round_, violation):
    """The "batched" solver's progress, once per round: m(alpha) - M(alpha)
    over all variables."""
    print(f"  round {round_:>5d}   m - M = {violation:.3e}")


def train_batched(X, y, kernel, settings, seed):
    """The batched solver of the chapter "Scaling up" (imported here, when
    first used, because that chapter comes after this one); max_iter counts
    pair updates, cache_size bounds its row buffer."""
    from svmlib.training.batched import batched_smo

    return batched_smo(
        X,
        y,
        settings.C,
        kernel,
        tol=settings.tol,
        cache_size=settings.cache_size,
        max_iter=settings.max_iter,
        callback=print_round if settings.verbose else None,
    )


def train_auto(X, y, kernel, settings, seed):
    """The default: the solver the chapter "Fast by default" chooses by the
    problem (imported when first used, as that chapter comes later);
    max_iter counts pair updates."""
    from svmlib.training.fast import auto_smo

    return auto_smo(
        X,
        y,
        settings.C,
        kernel,
        tol=settings.tol,
        cache_size=settings.cache_size,
        shrinking=settings.shrinking,
        max_iter=settings.max_iter,
        callback=print_round if settings.verbose else None,
    )


SOLVERS = {
    "auto": train_auto,
    "smo": train_smo,
    "platt": train_platt,
    "simplified": train_simplified,
    "cvxopt": train_cvxopt,
    "batched": train_batched,
}


def train_binary(solver, X, y, kernel, settings, seed=None):
    """Train the two-class problem (X, y), y in {-1, +1}, with the solver
    named ``solver``.

    ``kernel`` is a Kernel with a numeric gamma (X holds the points) or
    "precomputed" (X is their Gram matrix); ``seed`` feeds the random
    choices of Platt's and the simplified SMO.
    """
    return SOLVERS[solver](X, y, kernel, settings, seed)


def print_summary(result, C):
    """LIBSVM's report on a solved two-class problem: iterations, objective,
    rho, support vectors."""
    print(
        f"optimization finished ({result.status.value}), "
        f"#iter = {result.n_iter}"
    )
    print(f"obj = {result.objective:.6f}, rho = {result.rho:.6f}")
    print(
        f"nSV = {int((result.alpha > 0).sum())}, "
        f"nBSV = {int((result.alpha >= C).sum())}"
    )
