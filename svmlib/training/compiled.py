# Generated from chapters/fast_default.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""Compiled inner loops of the SMO (chapter "Fast by default")."""

import numpy as np

from svmlib.smo.working_set import TAU
from svmlib.smo.solver import UNSHRINK_FACTOR
from svmlib.numba_cache import cached_jit


@cached_jit
def select_pair(S, S_diag, psi, up, low, eps):
    """WSS2, eq. (eq-wss2-signed): i maximises psi over I_up, j maximises
    (m - psi_t)^2 / a_it over the t in I_low with psi_t < m.  Returns (i,
    j, found); found is False when m - M < ``eps``, eq. (eq-stopping)."""
    i, m = -1, -np.inf
    for t in range(psi.shape[0]):
        if up[t] and psi[t] > m:
            i, m = t, psi[t]
    if i < 0:
        return -1, -1, False
    j, best, M = -1, 0.0, np.inf
    S_i = S[i]
    for t in range(psi.shape[0]):
        if low[t]:
            M = min(M, psi[t])
            b = m - psi[t]
            if b > 0.0:
                a = (S_i[t] * -2.0 + S_diag[i]) + S_diag[t]
                gain = b * b / (a if a > 0.0 else TAU)
                if gain > best:
                    j, best = t, gain
    return i, j, j >= 0 and m - M >= eps


@cached_jit
def take_pair_step(S, psi, y, alpha, C, i, j):
    """Move alpha_i and alpha_j by the step of eq. (eq-pair-step) and psi
    by eq. (eq-signed-update); returns the old and new values of both."""
    a = (S[i, j] * -2.0 + S[i, i]) + S[j, j]
    a = a if a > 0.0 else TAU
    y_i, y_j, old_i, old_j = y[i], y[j], alpha[i], alpha[j]
    room_i = C[i] - old_i if y_i > 0 else old_i
    room_j = old_j if y_j > 0 else C[j] - old_j
    t = min((psi[i] - psi[j]) / a, room_i, room_j)
    new_i, new_j = old_i + y_i * t, old_j - y_j * t
    if t == room_i:  # exactly on the bound
        new_i = C[i] if y_i > 0 else 0.0
    if t == room_j:
        new_j = 0.0 if y_j > 0 else C[j]
    scale_i, scale_j = -(new_i - old_i) * y_i, -(new_j - old_j) * y_j
    S_i, S_j = S[i], S[j]
    for s in range(psi.shape[0]):
        psi[s] = (psi[s] + scale_i * S_i[s]) + scale_j * S_j[s]
    alpha[i], alpha[j] = new_i, new_j
    return old_i, new_i, old_j, new_j


OPTIMAL, MAX_ITER = 0, 1  # how signed_smo ended
COMPACT_BELOW = 0.5  # copy the working variables out when half remain


@cached_jit
def set_flags(t, alpha, y, C, up, low):
    """Whether variable t is in I_up and in I_low, eq. (eq-up-low)."""
    above, below = alpha[t] > 0.0, alpha[t] < C[t]
    up[t] = below if y[t] > 0 else above
    low[t] = above if y[t] > 0 else below


@cached_jit
def pair_groups(y, by_label):
    """The group of each variable, within which pairs are taken: group 0
    for all, or (``by_label``, the nu formulations) 0 for label +1 and 1
    for label -1."""
    if by_label:
        return (y < 0).astype(np.int64)
    return np.zeros(y.shape[0], dtype=np.int64)


@cached_jit
def flag_bounds(psi, group, up, low):
    """m over I_up and M over I_low, eq. (eq-m-M), within each group:
    arrays of two entries (-inf and inf for a group without members)."""
    m, M = np.full(2, -np.inf), np.full(2, np.inf)
    for t in range(psi.shape[0]):
        g = group[t]
        if up[t]:
            m[g] = max(m[g], psi[t])
        if low[t]:
            M[g] = min(M[g], psi[t])
    return m, M


@cached_jit
def shrink(psi, group, up, low, m, M):
    """Take the variables of eq. (eq-shrink) out of I_up and I_low (signed
    form: only in I_up with psi_t < M, or only in I_low with psi_t > m, m
    and M those of t's group); returns how many are left in either set."""
    left = 0
    for t in range(psi.shape[0]):
        only_up, only_low = up[t] and not low[t], low[t] and not up[t]
        g = group[t]
        if (only_up and psi[t] < M[g]) or (only_low and psi[t] > m[g]):
            up[t] = low[t] = False
        elif up[t] or low[t]:
            left += 1
    return left


@cached_jit
def select_pair_by_label(S, S_diag, psi, y, up, low, eps):
    """WSS2 within each label, eq. (eq-nu-wss): i_s maximises psi over the
    I_up of label s; j maximises (m_s - psi_t)^2 / a_(i_s)t over the t in
    I_low with psi_t < m_s, s the label of t.  found is False when m_s -
    M_s < ``eps`` for both labels, eq. (eq-nu-stopping)."""
    best_up, m = np.full(2, -1), np.full(2, -np.inf)
    for t in range(psi.shape[0]):
        s = 0 if y[t] > 0 else 1
        if up[t] and psi[t] > m[s]:
            best_up[s], m[s] = t, psi[t]
    j, best, M = -1, 0.0, np.full(2, np.inf)
    for t in range(psi.shape[0]):
        s = 0 if y[t] > 0 else 1
        if low[t]:
            M[s] = min(M[s], psi[t])
            b = m[s] - psi[t]
            if b > 0.0:
                i = best_up[s]
                a = (S[i, t] * -2.0 + S_diag[i]) + S_diag[t]
                gain = b * b / (a if a > 0.0 else TAU)
                if gain > best:
                    j, best = t, gain
    if j < 0:
        return -1, -1, False
    i = best_up[0 if y[j] > 0 else 1]
    return i, j, max(m[0] - M[0], m[1] - M[1]) >= eps


@cached_jit
def choose_pair(S, S_diag, psi, y, up, low, eps, by_label):
    """select_pair, or select_pair_by_label when pairs stay within a
    label."""
    if by_label:
        return select_pair_by_label(S, S_diag, psi, y, up, low, eps)
    return select_pair(S, S_diag, psi, up, low, eps)


@cached_jit
def move_bound_row(S, psi_bar, y, C, v, sign):
    """psi_bar -= sign y_v C_v S_v, eq. (eq-signed-reconstruct): variable v
    reached (sign +1) or left (sign -1) its upper bound."""
    weight = sign * y[v] * C[v]
    S_v = S[v]
    for s in range(psi_bar.shape[0]):
        psi_bar[s] -= weight * S_v[s]


@cached_jit
def reconstruct_psi(S, psi, psi_zero, psi_bar, y, alpha, C, kept):
    """psi of the variables not in ``kept``, eq.
    (eq-signed-reconstruct)."""
    dropped = np.ones(psi.shape[0], dtype=np.bool_)
    dropped[kept] = False
    others = np.flatnonzero(dropped)
    for t in others:
        psi[t] = psi_zero[t] + psi_bar[t]
    for j in range(psi.shape[0]):
        if 0.0 < alpha[j] < C[j]:
            weight, S_j = y[j] * alpha[j], S[j]
            for t in others:
                psi[t] -= weight * S_j[t]


@cached_jit
def gather(S, chosen):
    """S restricted to the rows and columns ``chosen``, contiguous (in
    S's precision)."""
    out = np.empty((chosen.size, chosen.size), dtype=S.dtype)
    for a in range(chosen.size):
        row = S[chosen[a]]
        for b in range(chosen.size):
            out[a, b] = row[chosen[b]]
    return out


@cached_jit
def every_variable(
    S,
    S_diag,
    psi,
    psi_zero,
    psi_bar,
    y,
    alpha,
    C,
    kept,
    psi_work,
    alpha_work,
):
    """Bring every variable back: write the working copies psi_work and
    alpha_work (of the variables ``kept``) into psi and alpha, rebuild the
    psi of the others, and return the full arrays as the working ones,
    with I_up and I_low."""
    n = psi.shape[0]
    if kept.size < n:
        psi[kept], alpha[kept] = psi_work, alpha_work
        reconstruct_psi(S, psi, psi_zero, psi_bar, y, alpha, C, kept)
    up, low = np.empty(n, dtype=np.bool_), np.empty(n, dtype=np.bool_)
    for t in range(n):
        set_flags(t, alpha, y, C, up, low)
    return np.arange(n), S, S_diag, psi, y, alpha, C, up, low


@cached_jit
def compact(
    S, S_diag, psi, y, alpha, C, kept, psi_work, alpha_work, up, low
):
    """Copies of the working variables still in I_up or I_low, their rows
    and columns of S included, after writing the current working values
    into psi and alpha."""
    psi[kept], alpha[kept] = psi_work, alpha_work
    local = np.flatnonzero(up | low)
    chosen = kept[local]
    return (
        chosen,
        gather(S, chosen),
        S_diag[chosen],
        psi_work[local],
        y[chosen],
        alpha_work[local],
        C[chosen],
        up[local],
        low[local],
    )


@cached_jit
def signed_smo(
    S,
    psi,
    psi_zero,
    y,
    alpha,
    C,
    eps,
    max_iter,
    shrinking,
    interval,
    by_label=False,
):
    """SMO with WSS2 on a dense S = diag(y) Q diag(y), in place: the loop
    of solve_block compiled, with the full SMO solver's shrinking if
    ``shrinking``; with ``by_label``, pairs, stopping test and shrinking
    within each label (the nu formulations).

    ``psi`` = -y * G at ``alpha`` on entry; ``psi_zero`` = -y * p.  Every
    ``interval`` updates the variables of eq. (eq-shrink) leave I_up and
    I_low; all return, psi rebuilt by eq. (eq-signed-reconstruct), once m -
    M <= 10 eps and whenever the others are optimal.  Returns the number of
    pair updates and OPTIMAL or MAX_ITER.
    """
    n = y.shape[0]
    S_diag, psi_bar = np.diag(S).copy(), np.zeros(n)
    for t in range(n):
        if shrinking and alpha[t] >= C[t]:
            move_bound_row(S, psi_bar, y, C, t, 1.0)
    (
        kept,
        S_work,
        diag_work,
        psi_work,
        y_work,
        alpha_work,
        C_work,
        up,
        low,
    ) = every_variable(
        S,
        S_diag,
        psi,
        psi_zero,
        psi_bar,
        y,
        alpha,
        C,
        np.arange(n),
        psi,
        alpha,
    )
    countdown, unshrunk, shrunk = interval, False, False
    n_iter, ending = 0, MAX_ITER
    while n_iter < max_iter:
        if shrinking:
            countdown -= 1
            if countdown == 0:
                countdown = interval
                group = pair_groups(y_work, by_label)
                m, M = flag_bounds(psi_work, group, up, low)
                if not unshrunk and np.max(m - M) <= UNSHRINK_FACTOR * eps:
                    unshrunk, shrunk = True, False
                    (
                        kept,
                        S_work,
                        diag_work,
                        psi_work,
                        y_work,
                        alpha_work,
                        C_work,
                        up,
                        low,
                    ) = every_variable(
                        S,
                        S_diag,
                        psi,
                        psi_zero,
                        psi_bar,
                        y,
                        alpha,
                        C,
                        kept,
                        psi_work,
                        alpha_work,
                    )
                    group = pair_groups(y_work, by_label)
                    m, M = flag_bounds(psi_work, group, up, low)
                left = shrink(psi_work, group, up, low, m, M)
                shrunk = shrunk or left < psi_work.shape[0]
                if left <= COMPACT_BELOW * psi_work.shape[0]:
                    (
                        kept,
                        S_work,
                        diag_work,
                        psi_work,
                        y_work,
                        alpha_work,
                        C_work,
                        up,
                        low,
                    ) = compact(
                        S,
                        S_diag,
                        psi,
                        y,
                        alpha,
                        C,
                        kept,
                        psi_work,
                        alpha_work,
                        up,
                        low,
                    )
        i, j, found = choose_pair(
            S_work, diag_work, psi_work, y_work, up, low, eps, by_label
        )
        if not found and shrunk:  # optimal on the working ones only
            (
                kept,
                S_work,
                diag_work,
                psi_work,
                y_work,
                alpha_work,
                C_work,
                up,
                low,
            ) = every_variable(
                S,
                S_diag,
                psi,
                psi_zero,
                psi_bar,
                y,
                alpha,
                C,
                kept,
                psi_work,
                alpha_work,
            )
            shrunk, countdown = False, 1
            i, j, found = choose_pair(
                S_work, diag_work, psi_work, y_work, up, low, eps, by_label
            )
        if not found:
            ending = OPTIMAL
            break
        n_iter += 1
        old_i, new_i, old_j, new_j = take_pair_step(
            S_work, psi_work, y_work, alpha_work, C_work, i, j
        )
        for v, old, new in ((i, old_i, new_i), (j, old_j, new_j)):
            set_flags(v, alpha_work, y_work, C_work, up, low)
            if shrinking and (old >= C_work[v]) != (new >= C_work[v]):
                sign = 1.0 if new >= C_work[v] else -1.0
                move_bound_row(S, psi_bar, y, C, kept[v], sign)
    every_variable(
        S,
        S_diag,
        psi,
        psi_zero,
        psi_bar,
        y,
        alpha,
        C,
        kept,
        psi_work,
        alpha_work,
    )
    return n_iter, ending


def solve_block_compiled(
    S, psi, y, alpha, C, eps, max_iter, A=None, by_label=False
):
    """solve_block's contract, by signed_smo without shrinking (the inner
    solver of solve_batched's rounds), pairs within each label if
    ``by_label``; ``A`` is not needed and ignored."""
    for name, array in (("S", S), ("psi", psi), ("y", y), ("C", C)):
        if array.dtype != np.float64 or not array.flags.c_contiguous:
            raise ValueError(f"{name} must be a contiguous float64 array")
    if alpha.dtype != np.float64 or not alpha.flags.writeable:
        raise ValueError("alpha must be a writeable float64 array")
    n_iter, _ = signed_smo(
        S,
        psi,
        psi,
        y,
        alpha,
        C,
        eps=float(eps),
        max_iter=int(max_iter),
        shrinking=False,
        interval=1,
        by_label=by_label,
    )
    return n_iter
