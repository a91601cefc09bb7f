# Generated from chapters/in_practice.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""One-vs-one, as LIBSVM does it (from the chapter "svmlib in practice")."""

import numbers

import numpy as np


def class_pairs(n_classes):
    """The n_classes (n_classes - 1) / 2 pairs (i, j), i < j, in LIBSVM's
    order (0, 1), (0, 2), ..., (1, 2), ..., eq. (eq-ovo)."""
    return [
        (i, j) for i in range(n_classes) for j in range(i + 1, n_classes)
    ]


def pair_members(y_index, i, j):
    """The training points of classes i and j, and their labels in the
    pair's two-class problem: +1 for class i and -1 for class j (LIBSVM's
    convention: the first class of a pair is positive)."""
    members = np.flatnonzero((y_index == i) | (y_index == j))
    return members, np.where(y_index[members] == i, 1.0, -1.0)


def vote_counts(decisions, n_classes):
    """v_c of eq. (eq-vote) for every row of the pairwise decision values,
    shape (n_samples, n_pairs): pair (i, j) votes for i where f_ij(x) > 0
    and for j otherwise."""
    votes = np.zeros((decisions.shape[0], n_classes))
    for k, (i, j) in enumerate(class_pairs(n_classes)):
        positive = decisions[:, k] > 0
        votes[:, i] += positive
        votes[:, j] += ~positive
    return votes


def vote(decisions, n_classes):
    """The index of the class with the most votes, eq. (eq-vote); a tie goes
    to the smallest index."""
    return np.argmax(vote_counts(decisions, n_classes), axis=1)


def ovr_scores(decisions, n_classes):
    """One score per class from the pairwise decision values, eq.
    (eq-ovr-score): the votes plus s_c / (3 (abs(s_c) + 1)), where s_c sums
    the decision values in favour of class c.  The second term lies in
    (-1/3, 1/3): it orders classes with equal votes and never overturns a
    vote."""
    s = np.zeros((decisions.shape[0], n_classes))
    for k, (i, j) in enumerate(class_pairs(n_classes)):
        s[:, i] += decisions[:, k]
        s[:, j] -= decisions[:, k]
    return vote_counts(decisions, n_classes) + s / (3.0 * (np.abs(s) + 1.0))


def pack_dual_coef(y_index, pair_models, n_classes):
    """Store the pairwise models in LIBSVM's layout, eq.
    (eq-dual-coef-layout).

    ``pair_models`` lists, for each pair (i, j) of class_pairs, the pair's
    member indices and their coefficients alpha_t y_t (y_t = +1 for class
    i).  Returns ``support`` (the points with a non-zero coefficient in some
    pair, grouped by class, increasing within a class), ``n_support`` (their
    number per class) and ``dual_coef`` of shape (n_classes - 1, n_SV).
    """
    is_support = np.zeros(y_index.shape[0], dtype=bool)
    for members, coef in pair_models:
        is_support[members[coef != 0]] = True
    by_class = [
        np.flatnonzero(is_support & (y_index == c))
        for c in range(n_classes)
    ]
    support = np.concatenate(by_class)
    column = np.full(y_index.shape[0], -1)
    column[support] = np.arange(support.size)
    dual_coef = np.zeros((n_classes - 1, support.size))
    for (i, j), (members, coef) in zip(class_pairs(n_classes), pair_models):
        stored = is_support[members]
        rows = np.where(y_index[members[stored]] == i, j - 1, i)
        dual_coef[rows, column[members[stored]]] = coef[stored]
    return (
        support,
        np.array([points.size for points in by_class], dtype=np.int32),
        dual_coef,
    )


def unpack_dual_coef(dual_coef, n_support):
    """The inverse of pack_dual_coef: one row per pair (i, j) over all
    support vectors, holding the pair's coefficients alpha_t y_t for the
    support vectors of classes i and j, zeros elsewhere."""
    start = np.concatenate([[0], np.cumsum(n_support)])
    pairs = class_pairs(len(n_support))
    coef = np.zeros((len(pairs), dual_coef.shape[1]))
    for k, (i, j) in enumerate(pairs):
        of_i, of_j = (
            slice(start[i], start[i + 1]),
            slice(start[j], start[j + 1]),
        )
        coef[k, of_i] = dual_coef[j - 1, of_i]
        coef[k, of_j] = dual_coef[i, of_j]
    return coef


def check_pair_decisions(decisions, n_classes):
    """The pairwise decision values as a float array of shape (n_samples,
    n_classes (n_classes - 1) / 2), or a ValueError."""
    if (
        isinstance(n_classes, bool)
        or not isinstance(n_classes, numbers.Integral)
        or n_classes < 2
    ):
        raise ValueError(
            f"n_classes must be an integer >= 2; got {n_classes!r}"
        )
    decisions = np.asarray(decisions, dtype=float)
    n_pairs = n_classes * (n_classes - 1) // 2
    if decisions.ndim != 2 or decisions.shape[1] != n_pairs:
        raise ValueError(
            f"decisions must have shape (n_samples, {n_pairs}), one column "
            f"per pair of the {n_classes} classes; "
            f"got shape {decisions.shape}"
        )
    return decisions


def dag_predict(decisions, n_classes):
    """DAGSVM's prediction, algorithm (alg-dag), from the pairwise decision
    values of shape (n_samples, n_pairs): the candidates i..j start as
    0..n_classes - 1, and each of n_classes - 1 steps tests f_ij and
    removes j where it is positive, i otherwise.  Returns the index of the
    class left."""
    decisions = check_pair_decisions(decisions, n_classes)
    column = np.zeros((n_classes, n_classes), dtype=int)
    for k, (i, j) in enumerate(class_pairs(n_classes)):
        column[i, j] = k
    points = np.arange(decisions.shape[0])
    i = np.zeros(decisions.shape[0], dtype=int)
    j = np.full(decisions.shape[0], n_classes - 1)
    for _ in range(n_classes - 1):
        i_wins = decisions[points, column[i, j]] > 0
        i, j = np.where(i_wins, i, i + 1), np.where(i_wins, j - 1, j)
    return i
