# Generated from chapters/full_smo.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""The step along a pair (from the chapter "The full SMO")."""


def update_pair(alpha_i, alpha_j, y_i, y_j, G_i, G_j, a_ij, C_i, C_j):
    """Minimise along the direction that moves y_i alpha_i up and y_j
    alpha_j down by the same t, keeping y'alpha fixed, eq. (eq-pair-step): t
    = min(b_ij / a_ij, room_i, room_j).

    Needs b_ij = -y_i G_i + y_j G_j > 0 and a_ij > 0 (the working set
    guarantees both).  A variable whose room is used up is set exactly to
    its bound.  Returns the new (alpha_i, alpha_j).
    """
    b_ij = -y_i * G_i + y_j * G_j
    room_i = C_i - alpha_i if y_i > 0 else alpha_i
    room_j = alpha_j if y_j > 0 else C_j - alpha_j
    t = min(b_ij / a_ij, room_i, room_j)
    new_i = alpha_i + y_i * t
    new_j = alpha_j - y_j * t
    if t == room_i:
        new_i = C_i if y_i > 0 else 0.0
    if t == room_j:
        new_j = 0.0 if y_j > 0 else C_j
    return new_i, new_j
