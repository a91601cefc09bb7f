# Generated from chapters/full_smo.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""Platt's SMO (1998), faithfully (from the chapter "The full SMO")."""

import numbers
from dataclasses import dataclass

import numpy as np

from svmlib.derivation.dual import check_gram, dual_objective
from svmlib.derivation.hinge import check_C
from svmlib.result import SolverResult, Status
from svmlib.smo.simplified_smo import (
    BOUND_ROUND_OFF,
    gram_matrix,
    pair_bounds,
    violates_kkt,
)
from svmlib.smo.solver import INTERPRETED_MIN_MAX_ITER, check_max_iter


PLATT_TOL = 1e-3
# the round-off constant of the step test: far below PLATT_TOL
PLATT_ROUNDOFF = 1e-12
PLATT_SNAP = 1e-8
MAX_PLATT_PASSES = 100_000


def snap_to_bounds(a1, C):
    """alpha_1 = alpha_1 + s (alpha_2 - a2) lands on 0 or C in exact
    arithmetic when alpha_2 stops at an end of its segment; round-off can
    leave it a few machine epsilons times C off (or outside the box).  Such
    values are set to the bound.  This guard is not in Platt's pseudo-code.
    """
    round_off = BOUND_ROUND_OFF * C
    if a1 <= round_off:
        return 0.0
    if a1 >= C - round_off:
        return C
    return a1


def check_roundoff(roundoff):
    """Return Platt's round-off constant as a float if it is a finite
    number >= 0."""
    if (
        isinstance(roundoff, bool)
        or not isinstance(roundoff, numbers.Real)
        or not 0 <= roundoff < np.inf
    ):
        raise ValueError(
            f"roundoff must be a finite number >= 0; got {roundoff!r}"
        )
    return float(roundoff)


@dataclass(frozen=True)
class PlattPair:
    """What takeStep knows about the pair (1, 2): the multipliers, labels
    and errors before the step, K_11, K_12, K_22 and Platt's threshold
    b_P."""

    alpha1: float
    alpha2: float
    y1: float
    y2: float
    E1: float
    E2: float
    k11: float
    k12: float
    k22: float
    b: float

    @property
    def s(self):
        """s = y_1 y_2."""
        return self.y1 * self.y2

    @property
    def eta(self):
        """The curvature eta = K_11 + K_22 - 2 K_12 along the segment."""
        return self.k11 + self.k22 - 2.0 * self.k12


def end_objectives(pair, L, H):
    """Psi at alpha_2 = L and at alpha_2 = H, eq. (eq-platt-ends): the dual
    (minimisation form) along the segment, up to a constant; Platt's eq.
    (19)."""
    s, k11, k12, k22 = pair.s, pair.k11, pair.k12, pair.k22
    alph1, alph2 = pair.alpha1, pair.alpha2
    f1 = pair.y1 * (pair.E1 + pair.b) - alph1 * k11 - s * alph2 * k12
    f2 = pair.y2 * (pair.E2 + pair.b) - s * alph1 * k12 - alph2 * k22

    def objective(a2):
        a1 = alph1 + s * (alph2 - a2)
        return (
            a1 * f1
            + a2 * f2
            + 0.5 * a1**2 * k11
            + 0.5 * a2**2 * k22
            + s * a1 * a2 * k12
        )

    return objective(L), objective(H)


def new_alpha2(pair, L, H, C, roundoff):
    """takeStep's alpha_2 on [L, H]: the clipped Newton step if eta > 0,
    else the end lower by more than ``roundoff`` (eq. (eq-platt-ends));
    snapped to 0 or C within PLATT_SNAP.  None if the step fails the
    round-off test."""
    alph2, eta = pair.alpha2, pair.eta
    if eta > 0:
        a2 = min(max(alph2 + pair.y2 * (pair.E1 - pair.E2) / eta, L), H)
    else:  # eq. (eq-platt-ends): compare the two ends
        L_obj, H_obj = end_objectives(pair, L, H)
        if L_obj < H_obj - roundoff:
            a2 = L
        elif L_obj > H_obj + roundoff:
            a2 = H
        else:
            a2 = alph2
    if a2 < PLATT_SNAP:  # Platt's snap of alpha_2 to the box ends
        a2 = 0.0
    elif a2 > C - PLATT_SNAP:
        a2 = C
    if abs(a2 - alph2) < roundoff * (a2 + alph2 + roundoff):
        return None
    return a2


def new_threshold(pair, a1, a2, C):
    """Platt's threshold after the step to (a1, a2): b1 if alpha_1 is free,
    else b2 if alpha_2 is, else their mean."""
    t1 = pair.y1 * (a1 - pair.alpha1)
    t2 = pair.y2 * (a2 - pair.alpha2)
    b1 = pair.E1 + t1 * pair.k11 + t2 * pair.k12 + pair.b
    b2 = pair.E2 + t1 * pair.k12 + t2 * pair.k22 + pair.b
    if 0 < a1 < C:
        return b1
    if 0 < a2 < C:
        return b2
    return 0.5 * (b1 + b2)


class PlattSMO:
    """Platt's SMO on a Gram matrix, with his threshold convention u = sum_j
    alpha_j y_j K_ij - b_platt.

    ``n_evaluations`` counts the kernel values the algorithm reads, as if
    none were stored: 3 per takeStep, one per non-zero alpha for an output
    u_i, 2 per non-bound example for the error cache.
    """

    def __init__(
        self,
        K,
        y,
        C,
        tol=PLATT_TOL,
        roundoff=PLATT_ROUNDOFF,
        random_state=0,
    ):
        self.K, self.y, self.C, self.tol = K, y, C, tol
        self.roundoff = roundoff  # omega of the round-off test
        self.alpha = np.zeros(y.shape[0])
        self.b = 0.0  # Platt's threshold: our b is -self.b
        self.error = -y.copy()  # E_i = u_i - y_i, valid where non-bound
        self.rng = np.random.default_rng(random_state)
        self.n_evaluations = 0
        self.n_steps = 0

    def non_bound(self):
        """Indices of the multipliers strictly between 0 and C."""
        return np.flatnonzero((self.alpha > 0) & (self.alpha < self.C))

    def error_of(self, i):
        """E_i: from the error cache for a non-bound example, else from the
        output u_i."""
        if 0 < self.alpha[i] < self.C:
            return self.error[i]
        support = np.flatnonzero(self.alpha)
        self.n_evaluations += support.size
        u = (self.alpha[support] * self.y[support]) @ self.K[
            support, i
        ] - self.b
        return u - self.y[i]

    def take_step(self, i1, i2, E2):
        """Jointly optimise alpha_i1 and alpha_i2 (Platt's takeStep); True
        if they changed."""
        if i1 == i2:
            return False
        alpha, y, K, C = self.alpha, self.y, self.K, self.C
        E1 = self.error_of(i1)
        L, H = pair_bounds(alpha[i1], alpha[i2], y[i1], y[i2], C)
        if L == H:
            return False
        self.n_evaluations += 3
        pair = PlattPair(
            alpha[i1],
            alpha[i2],
            y[i1],
            y[i2],
            E1,
            E2,
            K[i1, i1],
            K[i1, i2],
            K[i2, i2],
            self.b,
        )
        a2 = new_alpha2(pair, L, H, C, self.roundoff)
        if a2 is None:
            return False
        a1 = snap_to_bounds(pair.alpha1 + pair.s * (pair.alpha2 - a2), C)
        self.update_threshold_and_errors(i1, i2, pair, a1, a2)
        alpha[i1], alpha[i2] = a1, a2
        self.n_steps += 1
        return True

    def update_threshold_and_errors(self, i1, i2, pair, a1, a2):
        """Platt's new threshold and the error cache, eq.
        (eq-platt-error-update), for the step of ``pair`` to (a1, a2)."""
        b_new = new_threshold(pair, a1, a2, self.C)
        t1 = pair.y1 * (a1 - pair.alpha1)
        t2 = pair.y2 * (a2 - pair.alpha2)
        self.error[i1], self.error[i2] = pair.E1, pair.E2
        cached = np.union1d(self.non_bound(), [i1, i2])
        self.n_evaluations += 2 * cached.size
        self.error[cached] += (
            t1 * self.K[i1, cached]
            + t2 * self.K[i2, cached]
            + self.b
            - b_new
        )
        self.b = b_new

    def examine_example(self, i2):
        """Platt's examineExample: if alpha_i2 violates the KKT conditions
        by more than tol, look for a partner (second-choice heuristic, then
        the non-bound examples, then all); 1 if a step was taken."""
        y2, alph2, C = self.y[i2], self.alpha[i2], self.C
        E2 = self.error_of(i2)
        r2 = E2 * y2
        if not (
            (r2 < -self.tol and alph2 < C) or (r2 > self.tol and alph2 > 0)
        ):
            return 0
        non_bound = self.non_bound()
        if non_bound.size > 1:
            gaps = np.abs(self.error[non_bound] - E2)
            if self.take_step(int(non_bound[np.argmax(gaps)]), i2, E2):
                return 1
        for i1 in np.roll(
            non_bound, -self.rng.integers(max(non_bound.size, 1))
        ):
            if self.take_step(int(i1), i2, E2):
                return 1
        n = self.y.shape[0]
        for i1 in np.roll(np.arange(n), -self.rng.integers(n)):
            if self.take_step(int(i1), i2, E2):
                return 1
        return 0

    def run(self, max_passes=MAX_PLATT_PASSES, max_steps=None):
        """Platt's outer loop: a pass over all examples, then passes over
        the non-bound ones until none changes, then all again, until a pass
        over all changes nothing.  Stops early after ``max_passes`` passes
        or ``max_steps`` successful takeSteps (None: no limit).  Returns the
        passes made and whether the loop finished."""
        step_limit = np.inf if max_steps is None else max_steps
        examine_all, passes = True, 0
        changed = 0
        while (
            (changed > 0 or examine_all)
            and passes < max_passes
            and self.n_steps < step_limit
        ):
            candidates = (
                range(self.y.shape[0]) if examine_all else self.non_bound()
            )
            changed = 0
            for i in candidates:
                changed += self.examine_example(int(i))
                if self.n_steps >= step_limit:
                    break
            passes += 1
            if examine_all:
                examine_all = False
            elif changed == 0:
                examine_all = True
        return passes, changed == 0 and not examine_all


def platt_smo(
    X,
    y,
    C,
    kernel="precomputed",
    tol=PLATT_TOL,
    roundoff=PLATT_ROUNDOFF,
    max_passes=MAX_PLATT_PASSES,
    random_state=0,
    max_steps=None,
):
    """Train a C-SVC with Platt's SMO (1998), algorithm (alg-platt); returns
    a SolverResult whose ``n_iter`` counts the successful takeSteps and
    whose b is minus Platt's threshold.

    ``roundoff`` is the constant omega of Platt's round-off test: a step
    that moves alpha_2 by less than omega (alpha_2 + alpha_2' + omega)
    is rejected.

    ``status`` is OPTIMAL only if, at the end, no point violates the KKT
    conditions by more than ``tol`` at that threshold; Platt's loop can also
    end with violators that no takeStep could move (INACCURATE), or stop at
    ``max_passes`` passes or ``max_steps`` takeSteps (MAX_ITER; None:
    max(10^5, 100 n): a loop in Python makes 10^5 takeSteps in seconds).
    """
    K, y = check_gram(gram_matrix(X, kernel), y)
    C = check_C(C)
    roundoff = check_roundoff(roundoff)
    max_steps = check_max_iter(
        max_steps, y.shape[0], floor=INTERPRETED_MIN_MAX_ITER
    )
    platt = PlattSMO(K, y, C, tol, roundoff, random_state)
    passes, finished = platt.run(max_passes, max_steps)
    r = y * (K @ (platt.alpha * y) - platt.b) - 1.0
    if not finished:
        status = Status.MAX_ITER
    elif any(
        violates_kkt(r_i, a_i, C, tol) for r_i, a_i in zip(r, platt.alpha)
    ):
        status = Status.INACCURATE
    else:
        status = Status.OPTIMAL
    return SolverResult(
        alpha=platt.alpha.copy(),
        b=-platt.b,
        objective=dual_objective(K, y, platt.alpha),
        n_iter=platt.n_steps,
        status=status,
    )
