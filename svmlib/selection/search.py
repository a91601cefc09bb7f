# Generated from chapters/model_selection.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""SVMGridSearchCV, a grid search that shares kernel values among its fits
(chapter "Choosing C and gamma")."""

import numbers
import time
import warnings

import numpy as np
from joblib import Parallel, delayed
from sklearn.base import clone
from sklearn.exceptions import FitFailedWarning
from sklearn.model_selection import GridSearchCV
from sklearn.utils.validation import indexable

from svmlib.formulations.svc_input import (
    check_flag,
    check_positive,
)
from svmlib.selection.search_checks import (
    Metrics,
    any_precomputed,
    checked_candidates,
    checked_folds,
    checked_points,
    checked_scorers,
    shares_kernels,
    unit_scorer,
)
from svmlib.selection.search_pipeline import search_target
from svmlib.selection.search_results import by_cell, search_results
from svmlib.selection.search_units import (
    SearchSettings,
    Unit,
    evaluate_unit,
    group_candidates,
)


# megabytes one unit may spend on its kernel block
KERNEL_MEMORY = 2048.0


def units_of(groups, candidates, folds):
    """The units of work: every group of candidates on every fold."""
    return [
        Unit([(index, candidates[index]) for index in group], fold, *split)
        for group in groups
        for fold, split in enumerate(folds)
    ]


class SVMGridSearchCV(GridSearchCV):
    """GridSearchCV for svmlib's kernel estimators, with its constructor,
    its fitted attributes (``cv_results_`` with the same keys,
    ``best_index_``, ``best_score_``, ``best_params_``,
    ``best_estimator_``, ``refit_time_``, ``scorer_``, ``n_splits_``,
    ``multimetric_``) and its methods (predict, score, ... through the
    refitted model).

    What it adds: the candidates that differ only in parameters other than
    the kernel's (C, epsilon, nu, tol, class_weight, ...) are fitted, fold
    by fold, on one kernel block computed once: the kernel values between
    every point and the fold's training points, from which the fits take
    their Gram matrix and the scores their test rows.  A unit of work is
    such a group of candidates on one fold; units go through joblib, so
    ``n_jobs`` uses local cores and ``joblib.parallel_backend("dask")``
    a Dask cluster.  A candidate with a kernel function is fitted on the
    points, as GridSearchCV would; a search over any other estimator, with
    fit parameters, or with a precomputed kernel is GridSearchCV's own
    fit, unchanged.

    Parameters
    ----------
    estimator, param_grid, scoring, n_jobs, refit, cv, verbose,
    pre_dispatch, error_score, return_train_score
        As for sklearn.model_selection.GridSearchCV.  ``verbose``: 1
        announces the search, 2 adds a line per candidate and fold as its
        unit finishes, 3 its score too.
    kernel_memory : float, default=2048
        Megabytes one unit may spend on its kernel block (4 bytes an entry
        for the RBF and exponential kernels, 8 for the others; an SVR
        also keeps the 2n x 2n doubled block); a larger block is not
        computed, and its candidates are fitted on the points.
    warm_start : bool, default=True
        Whether each fit on a block starts from the solution of the
        candidate before it in its chain (same parameters, a smaller C or
        another epsilon), scaled into the box when C shrinks.

    Attributes
    ----------
    pair_updates_ : ndarray of shape (n_candidates, n_splits)
        Besides GridSearchCV's attributes: the pair updates of each fit's
        solver (0 where the model does not count them, and everywhere when
        the search was GridSearchCV's own).
    """

    def __init__(
        self,
        estimator,
        param_grid,
        *,
        scoring=None,
        n_jobs=None,
        refit=True,
        cv=None,
        verbose=0,
        pre_dispatch="2*n_jobs",
        error_score=np.nan,
        return_train_score=False,
        kernel_memory=KERNEL_MEMORY,
        warm_start=True,
    ):
        super().__init__(
            estimator,
            param_grid,
            scoring=scoring,
            n_jobs=n_jobs,
            refit=refit,
            cv=cv,
            verbose=verbose,
            pre_dispatch=pre_dispatch,
            error_score=error_score,
            return_train_score=return_train_score,
        )
        self.kernel_memory = kernel_memory
        self.warm_start = warm_start

    def fit(self, X, y=None, *, groups=None, **fit_params):
        """Check everything, then fit and score every candidate on every
        fold of ``cv``, and refit the best on all of (X, y); returns
        self.  With ``fit_params`` (sample weights, say) the search is
        GridSearchCV's own, as it is for anything it cannot share."""
        target = search_target(self.estimator, self.param_grid)
        estimator = target.estimator
        candidates = (
            checked_candidates(estimator, target.grid(self.param_grid))
            if shares_kernels(estimator, fit_params)
            else None
        )
        if candidates is None or any_precomputed(estimator, candidates):
            return self._fit_as_grid_search(X, y, groups, fit_params)
        scorer, metrics = checked_scorers(
            estimator, self.scoring, self.refit
        )
        memory = check_positive("kernel_memory", self.kernel_memory)
        X, y, groups = indexable(X, y, groups)
        points = (
            checked_points(estimator, X, candidates)
            if target.head is None
            else X  # as the pipeline's first step takes it
        )
        folds = checked_folds(self.cv, estimator, points, y, groups)
        settings = SearchSettings(
            scorer=unit_scorer(estimator, self.scoring, scorer)
            if metrics is None
            else Metrics(scorer),
            scorer_names=metrics,
            return_train_score=self.return_train_score,
            error_score=self.error_score,
            memory=memory,
            warm_start=check_flag("warm_start", self.warm_start),
            head=target.head,
        )
        groups_of = group_candidates(estimator, candidates)
        units = units_of(groups_of, candidates, folds)
        named = target.named(candidates)
        cells = self._run(
            estimator, units, points, y, settings, named, folds
        )
        self.cv_results_ = search_results(
            named, cells, len(folds), metrics, self.return_train_score
        )
        self.pair_updates_ = by_cell(
            cells, len(candidates), len(folds), lambda c: c.n_updates
        ).astype(np.int64)
        self.n_splits_, self.multimetric_ = len(folds), metrics is not None
        self.scorer_ = scorer
        self._choose_best(metrics)
        if self.refit:
            self._refit_best(X, y)
        return self

    def _fit_as_grid_search(self, X, y, groups, fit_params):
        """GridSearchCV's own fit, for a search that can share nothing;
        pair_updates_ is all zeros."""
        routed = {} if groups is None else {"groups": groups}
        super().fit(X, y, **routed, **fit_params)
        self.pair_updates_ = np.zeros(
            (len(self.cv_results_["params"]), self.n_splits_), np.int64
        )
        return self

    def _run(self, estimator, units, X, y, settings, candidates, folds):
        """Every unit of ``estimator`` through joblib (``n_jobs`` workers,
        or the backend in use), reported as it finishes; returns all their
        Cells."""
        if self.verbose > 0:
            print(
                f"Fitting {len(folds)} folds for each of {len(candidates)} "
                f"candidates, totalling {len(folds) * len(candidates)} "
                f"fits\nin {len(units)} units of work"
            )
        parallel = Parallel(
            n_jobs=self.n_jobs,
            pre_dispatch=self.pre_dispatch,
            return_as="generator_unordered",
        )
        cells = []
        for finished in parallel(
            delayed(evaluate_unit)(estimator, unit, X, y, settings)
            for unit in units
        ):
            for cell in finished:
                self._report(cell, candidates[cell.candidate], len(folds))
            cells.extend(finished)
        failed = [cell for cell in cells if cell.error is not None]
        if failed:
            warnings.warn(
                f"{len(failed)} fits failed out of a total of "
                f"{len(cells)}; their scores are "
                f"error_score={self.error_score!r}.  The first failure: "
                f"{failed[0].error}",
                FitFailedWarning,
                stacklevel=3,
            )
        return cells

    def _report(self, cell, params, n_splits):
        """With verbose >= 2, one line for a finished cell (its score too
        with verbose >= 3), as GridSearchCV prints them."""
        if self.verbose < 2:
            return
        settings = ", ".join(f"{k}={v}" for k, v in params.items())
        score = ""
        if self.verbose > 2 and cell.error is None:
            scores = cell.test_scores
            score = (
                f" score={scores:.3f},"
                if not isinstance(scores, dict)
                else "".join(f" {k}={v:.3f}," for k, v in scores.items())
            )
        status = "FAILED" if cell.error is not None else "END"
        print(
            f"[CV {cell.fold + 1}/{n_splits}] {status} {settings};{score} "
            f"total time={cell.fit_time + cell.score_time:.3f}s"
        )

    def _choose_best(self, metrics):
        """best_index_, best_params_ and (unless refit is a callable)
        best_score_, as GridSearchCV chooses them: by the rank of the
        single metric or of the metric ``refit`` names, or by ``refit``
        itself if it is a callable."""
        if metrics is not None and not self.refit:
            return
        results = self.cv_results_
        if callable(self.refit):
            best = self.refit(results)
            if not isinstance(best, numbers.Integral):
                raise TypeError("best_index_ returned is not an integer")
            if not 0 <= best < len(results["params"]):
                raise IndexError("best_index_ index out of range")
        else:
            metric = "score" if metrics is None else self.refit
            best = int(results[f"rank_test_{metric}"].argmin())
            self.best_score_ = results[f"mean_test_{metric}"][best]
        self.best_index_ = best
        self.best_params_ = results["params"][best]

    def _refit_best(self, X, y):
        """best_estimator_: the best candidate fitted on all of (X, y)."""
        self.best_estimator_ = clone(self.estimator).set_params(
            **clone(self.best_params_, safe=False)
        )
        start = time.perf_counter()
        if y is None:
            self.best_estimator_.fit(X)
        else:
            self.best_estimator_.fit(X, y)
        self.refit_time_ = time.perf_counter() - start
        if hasattr(self.best_estimator_, "feature_names_in_"):
            self.feature_names_in_ = self.best_estimator_.feature_names_in_
