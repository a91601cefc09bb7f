# Generated from chapters/model_selection.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""A pipeline that ends in one of svmlib's kernel estimators, searched as
its last step on the points its other steps make (chapter "Choosing C and
gamma")."""

from collections.abc import Mapping
from dataclasses import dataclass

from sklearn.pipeline import Pipeline


@dataclass(frozen=True)
class SearchTarget:
    """What the units of a search fit: ``estimator`` (a pipeline's last
    step, or the search's estimator itself), ``head`` (the pipeline's
    other steps, unfitted, or None) and ``prefix``, the start of the last
    step's parameter names in param_grid ("" without a pipeline)."""

    estimator: object
    head: object = None
    prefix: str = ""

    def grid(self, param_grid):
        """param_grid with the last step's names, as its estimator takes
        them."""
        if not self.prefix:
            return param_grid
        grids = (
            [param_grid] if isinstance(param_grid, Mapping) else param_grid
        )
        return [
            {name.removeprefix(self.prefix): v for name, v in g.items()}
            for g in grids
        ]

    def named(self, candidates):
        """The candidates with the names param_grid gave them."""
        return [
            {self.prefix + name: value for name, value in params.items()}
            for params in candidates
        ]


def search_target(estimator, param_grid):
    """The SearchTarget of a search: a pipeline whose grid varies only its
    last step's parameters is searched as that step on the points of the
    steps before it, fitted on each fold's training part (the scaler of
    the recipe, say); anything else as it is."""
    if not isinstance(estimator, Pipeline) or len(estimator.steps) < 2:
        return SearchTarget(estimator)
    name, last = estimator.steps[-1]
    prefix = f"{name}__"
    grids = [param_grid] if isinstance(param_grid, Mapping) else param_grid
    try:
        names = [key for grid in grids for key in grid]
    except TypeError:  # not a grid: GridSearchCV's own fit reports it
        return SearchTarget(estimator)
    if not all(key.startswith(prefix) for key in names):
        return SearchTarget(estimator)
    return SearchTarget(last, estimator[:-1], prefix)
