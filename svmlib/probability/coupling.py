# Generated from chapters/probabilities.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""Pairwise coupling: class probabilities from the probabilities of the
pairs of classes (chapter "Probabilities from an SVM")."""

import numbers
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from svmlib.formulations.multiclass import class_pairs, pair_members
from svmlib.probability.calibration import (
    SigmoidFit,
    check_iteration_count,
    fit_sigmoid,
)
from svmlib.smo.solver import check_tol


# LIBSVM's bounds on a pairwise probability (it keeps every R_ij in
# [1e-7, 1 - 1e-7], so that no Gamma_cc of eq. (eq-coupling-matrix) is 0),
# the stopping tolerance of eq. (eq-coupling-fixed-point) (LIBSVM stops at
# 0.005 / k; svmlib goes on to near round-off), its smallest iteration
# limit (LIBSVM's max(100, k)), and how far R_ij + R_ji may be from 1.
MIN_PAIR_PROBABILITY = 1e-7
COUPLING_TOL = 1e-10
MIN_COUPLING_SWEEPS = 100
PAIR_SUM_TOL = 1e-9


def check_pairwise_probabilities(R):
    """R as a float array of shape (n, k, k) (a single k x k matrix gains
    a first axis), with k >= 2, every R_ij off the diagonal strictly
    between 0 and 1 and R_ij + R_ji = 1; the diagonal is ignored.  Returns
    the array and whether a single matrix was given."""
    try:
        R = np.array(R, dtype=float)
    except (TypeError, ValueError):
        raise ValueError("R must be a matrix of numbers") from None
    single = R.ndim == 2
    if single:
        R = R[None]
    if R.ndim != 3 or R.shape[1] != R.shape[2] or R.shape[1] < 2:
        raise ValueError(
            "R must be a k x k matrix (or a stack of them) with k >= 2; "
            f"got shape {R.shape[int(single) :]}"
        )
    if R.shape[0] == 0:
        raise ValueError("R is an empty stack: it holds no k x k matrix")
    off = ~np.eye(R.shape[1], dtype=bool)
    pairs = R[:, off]
    if not np.all((pairs > 0) & (pairs < 1)):
        raise ValueError(
            "every R_ij off the diagonal must be a number strictly between "
            "0 and 1 (clip pairwise probabilities to [1e-7, 1 - 1e-7])"
        )
    gap = np.abs(R + np.swapaxes(R, 1, 2) - 1)[:, off].max()
    if gap > PAIR_SUM_TOL:
        raise ValueError(
            f"R_ij + R_ji must be 1 for every pair; it is off by {gap:.2e}"
        )
    return R, single


def check_pair_inputs(decisions, n_pairs):
    """Pairwise decision values as a float array of shape (n, n_pairs),
    every value a finite number."""
    try:
        decisions = np.asarray(decisions, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(
            "decisions must be numbers (pairwise decision values)"
        ) from None
    if decisions.ndim != 2 or decisions.shape[1] != n_pairs:
        raise ValueError(
            f"decisions must have one column per pair of classes "
            f"({n_pairs}); got shape {decisions.shape}"
        )
    if not np.all(np.isfinite(decisions)):
        raise ValueError("decisions contain NaN or infinite values")
    return decisions


def check_n_classes(n_classes):
    """The number of classes k: an integer, at least 2."""
    if (
        isinstance(n_classes, bool)
        or not isinstance(n_classes, numbers.Integral)
        or n_classes < 2
    ):
        raise ValueError(
            f"n_classes must be an integer k >= 2; got {n_classes!r}"
        )
    return int(n_classes)


def check_class_indices(y_index, n_points, k):
    """Each point's class as an integer array of shape (n_points,), with
    values 0 to k - 1."""
    y_index = np.asarray(y_index)
    if y_index.shape != (n_points,):
        raise ValueError(
            f"y_index must hold one class per row of decisions "
            f"({n_points}); got shape {y_index.shape}"
        )
    if y_index.dtype.kind not in "iu":
        raise ValueError(
            f"y_index must hold integer classes 0 to {k - 1}; got dtype "
            f"{y_index.dtype}"
        )
    outside = y_index[(y_index < 0) | (y_index >= k)]
    if outside.size:
        raise ValueError(
            f"y_index must hold classes 0 to {k - 1} (n_classes={k}); it "
            f"contains {outside[0]}"
        )
    return y_index


def check_sigmoids(sigmoids):
    """The pairs' sigmoids: a list or tuple of SigmoidFit."""
    if not isinstance(sigmoids, (list, tuple)):
        raise ValueError(
            "sigmoids must be a list of SigmoidFit, one per pair of "
            f"classes; got {type(sigmoids).__name__}"
        )
    for p, sigmoid in enumerate(sigmoids):
        if not isinstance(sigmoid, SigmoidFit):
            raise ValueError(
                f"sigmoids[{p}] must be a SigmoidFit; got a "
                f"{type(sigmoid).__name__} (for a calibrator with slope a_ "
                "and offset b_, use SigmoidFit(a_, b_, nan, 0))"
            )
    return list(sigmoids)


def number_of_classes(n_pairs):
    """k from the number k (k - 1) / 2 of pairs of classes."""
    k = int(round((1 + np.sqrt(1 + 8 * n_pairs)) / 2))
    if n_pairs < 1 or k * (k - 1) // 2 != n_pairs:
        raise ValueError(
            f"{n_pairs} is not the number of pairs of k >= 2 classes"
        )
    return k


def coupling_matrix(R):
    """Gamma of eq. (eq-coupling-matrix) for each k x k matrix of pairwise
    probabilities in R (shape (n, k, k)): Gamma_cc = sum over j != c of
    R_jc^2, and Gamma_cj = -R_jc R_cj off the diagonal."""
    off = ~np.eye(R.shape[-1], dtype=bool)
    Gamma = np.where(off, -R * np.swapaxes(R, -1, -2), 0.0)
    diagonal = np.where(off, R, 0.0) ** 2
    return Gamma + np.eye(R.shape[-1]) * diagonal.sum(axis=-2)[..., None, :]


def coupling_residual(Gamma, P):
    """max over c of abs((Gamma P)[c] - P' Gamma P) for each point: zero
    exactly at the solution of eq. (eq-coupling-system)."""
    GP = np.einsum("ncj,nj->nc", Gamma, P)
    PGP = np.sum(P * GP, axis=1)
    return np.abs(GP - PGP[:, None]).max(axis=1)


def pairwise_coupling(R, *, tol=COUPLING_TOL, max_iter=None):
    """Class probabilities from pairwise probabilities R (k x k, or a stack
    of shape (n, k, k)) by Wu, Lin and Weng's second method, eq.
    (eq-coupling-problem). For k = 2 the answer is (R_01, R_10), returned
    as it is, as LIBSVM does. For k >= 3: the fixed-point iteration of eq.
    (eq-coupling-fixed-point) from the uniform distribution, one class at a
    time, each point until the residual of eq. (eq-coupling-system) is below
    ``tol`` (at most max(100, k) sweeps unless ``max_iter`` says otherwise;
    with tol = 0.005 / k this is LIBSVM's computation). Each update
    recomputes Gamma P, k^3 operations per sweep where LIBSVM's incremental
    update needs k^2: enough for tens of classes. Returns the k
    probabilities of each point (shape (k,) or (n, k)); a ConvergenceWarning
    if it stops short of ``tol``."""
    R, single = check_pairwise_probabilities(R)
    tol = check_tol(tol)
    n, k = R.shape[0], R.shape[-1]
    if max_iter is None:
        max_iter = max(MIN_COUPLING_SWEEPS, k)
    max_iter = check_iteration_count(max_iter)
    if k == 2:  # the solution, exercise ex-prob-two-classes
        P = np.stack([R[:, 0, 1], R[:, 1, 0]], axis=1)
        return P[0] if single else P
    Gamma = coupling_matrix(R)
    P = np.full((n, k), 1.0 / k)
    for _ in range(max_iter):
        active = coupling_residual(Gamma, P) >= tol  # points not yet done
        if not active.any():
            break
        Gamma_active, P_active = Gamma[active], P[active]
        for c in range(k):
            GP = np.einsum("ncj,nj->nc", Gamma_active, P_active)
            PGP = np.sum(P_active * GP, axis=1)
            others = GP[:, c] - Gamma_active[:, c, c] * P_active[:, c]
            P_active[:, c] = (PGP - others) / Gamma_active[:, c, c]
            P_active /= P_active.sum(axis=1, keepdims=True)
        P[active] = P_active
    else:
        residual = coupling_residual(Gamma, P).max()
        if residual >= tol:
            warnings.warn(
                f"pairwise coupling stopped after {max_iter} sweeps with "
                f"the residual at {residual:.1e}, above tol={tol:g}",
                ConvergenceWarning,
                stacklevel=2,
            )
    return P[0] if single else P


def check_pair_sigmoid_inputs(decisions, y_index, n_classes):
    """The inputs of pair_sigmoids, checked: the pairs (i, j) of
    class_pairs for k = ``n_classes`` (an integer, at least 2), the
    decision values as a float array with one column per pair, and each
    point's class as an integer array of values 0 to k - 1."""
    k = check_n_classes(n_classes)
    pairs = class_pairs(k)
    decisions = check_pair_inputs(decisions, len(pairs))
    y_index = check_class_indices(y_index, decisions.shape[0], k)
    return pairs, decisions, y_index


def pair_points(y_index, i, j):
    """The points of the pair of classes (i, j) and their labels in the
    pair's two-class problem, +1 for class i and -1 for class j, as
    pair_members gives them, once the pair is known to have points of
    both its classes."""
    for c in (i, j):
        if not np.any(y_index == c):
            raise ValueError(
                f"the pair of classes ({i}, {j}) has no point of class "
                f"{c}: its sigmoid needs points of both classes"
            )
    return pair_members(y_index, i, j)


def pair_sigmoids(decisions, y_index, n_classes, **options):
    """One Platt sigmoid per pair of classes (i, j) of class_pairs, fitted
    by fit_sigmoid (``options`` are passed on) to the held-out decision
    values f_ij of the points of classes i and j alone, class i being the
    positive one.  ``decisions`` has one column per pair, positive for
    the pair's first class (svmlib's and LIBSVM's "ovo" values with three
    classes or more); ``y_index`` holds each point's class, an integer 0 to
    k - 1, with k = ``n_classes``; every pair needs points of both its
    classes."""
    pairs, decisions, y_index = check_pair_sigmoid_inputs(
        decisions, y_index, n_classes
    )
    sigmoids = []
    for column, (i, j) in enumerate(pairs):
        members, labels = pair_points(y_index, i, j)  # class i is +1
        sigmoids.append(
            fit_sigmoid(decisions[members, column], labels, **options)
        )
    return sigmoids


def pairwise_probabilities(decisions, sigmoids):
    """The matrices R of eq. (eq-pair-probability), shape (n, k, k): R_ij
    is the sigmoid of pair (i, j) at its decision value, kept within
    [MIN_PAIR_PROBABILITY, 1 - MIN_PAIR_PROBABILITY] as LIBSVM does, and
    R_ji = 1 - R_ij (the diagonal is 0). ``sigmoids`` is a list of
    SigmoidFit, one per pair in the order of class_pairs."""
    sigmoids = check_sigmoids(sigmoids)
    k = number_of_classes(len(sigmoids))
    decisions = check_pair_inputs(decisions, len(sigmoids))
    R = np.zeros((decisions.shape[0], k, k))
    for column, ((i, j), sigmoid) in enumerate(
        zip(class_pairs(k), sigmoids)
    ):
        R_ij = np.clip(
            sigmoid.probability(decisions[:, column]),
            MIN_PAIR_PROBABILITY,
            1 - MIN_PAIR_PROBABILITY,
        )
        R[:, i, j], R[:, j, i] = R_ij, 1 - R_ij
    return R
