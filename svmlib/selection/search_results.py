# Generated from chapters/model_selection.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""The ``cv_results_`` table of a grid search, laid out as GridSearchCV lays
it out (chapter "Choosing C and gamma")."""

import numpy as np
from scipy.stats import rankdata


def by_cell(cells, n_candidates, n_splits, value):
    """An n_candidates x n_splits array of ``value(cell)``."""
    table = np.full((n_candidates, n_splits), np.nan)
    for cell in cells:
        table[cell.candidate, cell.fold] = value(cell)
    return table


def ranks(means):
    """1 for the best mean score, ties sharing the smallest rank; a NaN
    mean (a failed fit) ties with the worst."""
    if np.isnan(means).all():
        return np.ones(means.size, dtype=np.int32)
    filled = np.where(np.isnan(means), np.nanmin(means) - 1, means)
    return rankdata(-filled, method="min").astype(np.int32)


def store(results, key, table, splits=False, rank=False):
    """The mean and standard deviation over the folds of ``table`` under
    mean_<key> and std_<key>; with ``splits`` each fold's column as
    split<k>_<key>; with ``rank`` the ranks of the means as rank_<key>."""
    if splits:
        for fold in range(table.shape[1]):
            results[f"split{fold}_{key}"] = table[:, fold]
    means = table.mean(axis=1)
    results[f"mean_{key}"] = means
    results[f"std_{key}"] = table.std(axis=1)
    if rank:
        results[f"rank_{key}"] = ranks(means)


def parameter_columns(candidates):
    """param_<name> for every parameter of the grid: a masked array, masked
    where a candidate does not set it (a grid given as a list of dicts)."""
    names = sorted({name for params in candidates for name in params})
    columns = {}
    for name in names:
        present = [params[name] for params in candidates if name in params]
        try:
            values = np.array(present)
            dtype = (
                values.dtype
                if values.dtype.kind != "U" and values.ndim == 1
                else object
            )
        except ValueError:  # sequences of different lengths
            dtype = object
        column = np.ma.MaskedArray(
            np.empty(len(candidates), dtype=dtype), mask=True
        )
        for index, params in enumerate(candidates):
            if name in params:
                column[index] = params[name]
        columns[f"param_{name}"] = column
    return columns


def metric_score(scores, metric):
    """A cell's score for ``metric`` (None when there is one metric)."""
    return scores if metric is None else scores[metric]


def search_results(candidates, cells, n_splits, metrics, train_scores):
    """``cv_results_`` from the Cells of a search: times, parameters, and
    for each metric (``metrics`` its names, or None for one, called "score")
    the test scores per fold with their mean, std and rank, and the
    training scores too if ``train_scores``."""
    n = len(candidates)
    results = {}
    for key in ("fit_time", "score_time"):
        times = by_cell(cells, n, n_splits, lambda c: getattr(c, key))
        store(results, key, times)
    results.update(parameter_columns(candidates))
    results["params"] = candidates
    for metric in metrics or (None,):
        name = "score" if metric is None else metric
        test = by_cell(
            cells,
            n,
            n_splits,
            lambda c: metric_score(c.test_scores, metric),
        )
        store(results, f"test_{name}", test, splits=True, rank=True)
        if train_scores:
            train = by_cell(
                cells,
                n,
                n_splits,
                lambda c: metric_score(c.train_scores, metric),
            )
            store(results, f"train_{name}", train, splits=True)
    return results
