# Generated from chapters/margins.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""Plotting 2-D data and decision functions (chapter "Margins")."""

import numpy as np


CLASS_STYLE = {1.0: ("tab:red", "o"), -1.0: ("tab:blue", "s")}


def plot_points(ax, X, y, support=None):
    """Scatter the two classes of 2-D points; circle the points indexed by
    ``support``."""
    X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    for label, (colour, marker) in CLASS_STYLE.items():
        mask = y == label
        ax.scatter(
            X[mask, 0],
            X[mask, 1],
            c=colour,
            marker=marker,
            edgecolors="k",
            linewidths=0.5,
            zorder=3,
            label=f"$y = {label:+.0f}$",
        )
    if support is not None:
        ax.scatter(
            X[support, 0],
            X[support, 1],
            s=200,
            facecolors="none",
            edgecolors="k",
            linewidths=1.5,
            zorder=4,
            label="support vectors",
        )
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")


def plot_decision_function(
    ax,
    decision,
    X,
    levels=(-1.0, 0.0, 1.0),
    padding=0.7,
    resolution=300,
    shade=True,
):
    """Draw the contours ``f = level`` of ``decision`` over the box around
    the 2-D points ``X``.

    ``decision`` maps an ``(m, 2)`` array to ``m`` values.  The level 0 (the
    decision boundary) is drawn solid and the others dashed; with ``shade``
    the two predicted regions are tinted.  Both axes get the same scale
    (an equal aspect ratio), so that distances and angles are not
    distorted.
    """
    X = np.asarray(X, dtype=float)
    low, high = X.min(axis=0) - padding, X.max(axis=0) + padding
    grid_0, grid_1 = np.meshgrid(
        np.linspace(low[0], high[0], resolution),
        np.linspace(low[1], high[1], resolution),
    )
    values = np.asarray(
        decision(np.column_stack([grid_0.ravel(), grid_1.ravel()]))
    ).reshape(grid_0.shape)
    if shade:
        bounds = [
            min(values.min(), 0.0) - 1.0,
            0.0,
            max(values.max(), 0.0) + 1.0,
        ]
        ax.contourf(
            grid_0,
            grid_1,
            values,
            levels=bounds,
            colors=["tab:blue", "tab:red"],
            alpha=0.08,
        )
    shown = sorted(
        level for level in levels if values.min() < level < values.max()
    )
    if shown:
        ax.contour(
            grid_0,
            grid_1,
            values,
            levels=shown,
            colors="k",
            linewidths=1.2,
            linestyles=["-" if level == 0 else "--" for level in shown],
        )
    ax.set_xlim(low[0], high[0])
    ax.set_ylim(low[1], high[1])
    ax.set_aspect("equal")
