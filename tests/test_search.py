"""svmlib.SVMGridSearchCV (chapter "Choosing C and gamma") against
scikit-learn's GridSearchCV on the same estimator and folds, its fits on a
kernel block against the estimators' own fits on the same kernel, the warm
starts against cold ones, the checks before any fit, its progress lines,
and a Dask cluster against a local run.

GridSearchCV(svmlib.SVC()) computes each fit's kernel from the points and
starts every solver at zero; the search computes one kernel block per fold
(by another product, so the kernel values differ in the last bits) and
starts from the previous C's solution.  Both solve to the solver's
tolerance, so a test score may differ by the odd prediction that lies on
the boundary: the tests allow one test point per fold, and hold the best
parameters equal on problems where the best cell is clear.
"""

import os
import warnings

import distributed
import joblib
import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import make_classification, make_regression
from sklearn.exceptions import FitFailedWarning
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, KFold, StratifiedKFold
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import StandardScaler

from svmlib import SVC, SVR, NuSVC, SVMGridSearchCV
from svmlib.formulations.multiclass import class_pairs
from svmlib.kernels.functions import Kernel
from svmlib.kernels.kernel_rows import rows_for_points
from svmlib.selection.search_blocks import FoldBlock, block_order
from svmlib.selection.search_fits import (
    doubled,
    saturated,
    start_from,
    svc_on_block,
    svr_on_block,
)
from svmlib.selection.search_units import (
    block_fit,
    chain_order,
    group_candidates,
)

GRID = {"C": [0.1, 1, 10, 100], "gamma": [0.02, 0.1, "scale"]}
TIGHT = 1e-8  # the solvers' tol where two fits must reach one solution


def classes(n_classes=2, n=300, seed=0):
    """Standardised points of ``n_classes`` overlapping classes."""
    X, y = make_classification(
        n_samples=n,
        n_features=8,
        n_informative=5,
        n_classes=n_classes,
        n_clusters_per_class=1,
        flip_y=0.05,
        random_state=seed,
    )
    return (X - X.mean(0)) / X.std(0), y


def targets(n=200, seed=0):
    """Standardised points and targets of a noisy regression."""
    X, y = make_regression(
        n_samples=n, n_features=6, noise=10.0, random_state=seed
    )
    return (X - X.mean(0)) / X.std(0), (y - y.mean()) / y.std()


def stratified(seed=0):
    return StratifiedKFold(5, shuffle=True, random_state=seed)


def check_same_search(ours, theirs, n_test, score_gap):
    """The same cv_results_ keys and parameters; each split's test scores
    within ``score_gap`` (a share of one test point's worth, n_test the
    smallest test part); the same best parameters."""
    assert set(ours.cv_results_) == set(theirs.cv_results_)
    assert ours.cv_results_["params"] == theirs.cv_results_["params"]
    split_keys = [k for k in theirs.cv_results_ if k.startswith("split")]
    assert split_keys
    for key in split_keys:
        gap = np.abs(ours.cv_results_[key] - theirs.cv_results_[key])
        assert gap.max() <= score_gap(n_test), key
    for key in theirs.cv_results_:
        if key.startswith("param_"):
            assert (
                ours.cv_results_[key].dtype == theirs.cv_results_[key].dtype
            )
            assert (
                ours.cv_results_[key].tolist()
                == theirs.cv_results_[key].tolist()
            )
    assert ours.best_params_ == theirs.best_params_


def one_point(n_test):
    return 1.0 / n_test + 1e-12


@pytest.mark.parametrize("n_classes", [2, 3])
def test_svc_search_scores_as_grid_search(n_classes):
    X, y = classes(n_classes)
    cv = stratified()
    ours = SVMGridSearchCV(SVC(), GRID, cv=cv).fit(X, y)
    theirs = GridSearchCV(SVC(), GRID, cv=cv).fit(X, y)
    check_same_search(ours, theirs, len(y) // 5, one_point)
    assert ours.best_score_ == pytest.approx(theirs.best_score_, abs=0.01)
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))
    assert ours.score(X, y) == theirs.score(X, y)
    assert ours.best_estimator_.get_params() == (
        theirs.best_estimator_.get_params()
    )


def test_svr_search_several_metrics_and_training_scores():
    X, y = targets()
    grid = {"C": [0.1, 1, 10], "gamma": [0.05, 0.2], "epsilon": [0.05, 0.3]}
    options = dict(
        cv=KFold(5, shuffle=True, random_state=0),
        scoring={"r2": "r2", "mse": "neg_mean_squared_error"},
        refit="r2",
        return_train_score=True,
    )
    ours = SVMGridSearchCV(SVR(tol=TIGHT), grid, **options).fit(X, y)
    theirs = GridSearchCV(SVR(tol=TIGHT), grid, **options).fit(X, y)
    check_same_search(ours, theirs, 40, lambda n: 1e-5)
    assert ours.multimetric_ and set(ours.scorer_) == {"r2", "mse"}
    assert "mean_train_mse" in ours.cv_results_


def test_grids_it_cannot_share_still_work():
    """A list of grids with other kernels and a kernel function: fitted on
    the points (or on blocks of their own kernel), as GridSearchCV
    would."""
    X, y = classes(2, n=150)
    grid = [
        {"kernel": ["poly"], "degree": [2, 3], "C": [0.5, 5]},
        {"kernel": ["linear"], "C": [0.1, 1]},
        {"kernel": [lambda A, B: A @ B.T], "C": [1.0]},
    ]
    ours = SVMGridSearchCV(SVC(), grid, cv=stratified()).fit(X, y)
    theirs = GridSearchCV(SVC(), grid, cv=stratified()).fit(X, y)
    assert ours.cv_results_["param_degree"].mask.tolist() == (
        theirs.cv_results_["param_degree"].mask.tolist()
    )
    for key in ("mean_test_score", "split0_test_score"):
        np.testing.assert_allclose(
            ours.cv_results_[key], theirs.cv_results_[key], atol=1 / 30
        )


def test_other_estimators_and_blocks_too_large_are_fitted_on_points():
    X, y = classes(2, n=150)
    grid = {"C": [0.1, 1.0, 10.0]}
    ours = SVMGridSearchCV(LogisticRegression(), grid, cv=3).fit(X, y)
    theirs = GridSearchCV(LogisticRegression(), grid, cv=3).fit(X, y)
    np.testing.assert_array_equal(
        ours.cv_results_["mean_test_score"],
        theirs.cv_results_["mean_test_score"],
    )
    # no block fits in 1e-6 MB: every fit is GridSearchCV's, on the points
    tiny = SVMGridSearchCV(SVC(), GRID, cv=stratified(), kernel_memory=1e-6)
    plain = GridSearchCV(SVC(), GRID, cv=stratified())
    np.testing.assert_array_equal(
        tiny.fit(X, y).cv_results_["mean_test_score"],
        plain.fit(X, y).cv_results_["mean_test_score"],
    )


def same_table(ours, theirs):
    """The same cv_results_ but for the times."""
    assert ours.cv_results_.keys() == theirs.cv_results_.keys()
    for key, value in theirs.cv_results_.items():
        if "time" not in key:
            np.testing.assert_array_equal(ours.cv_results_[key], value)


def test_what_it_cannot_share_is_grid_search_own_fit():
    X, y = classes(2, n=120)
    weights = np.linspace(0.5, 1.5, y.size)
    gram = Kernel("rbf", gamma=0.1)(X)
    for estimator, points, fit_params in [
        (LogisticRegression(), X, {}),
        (SVC(), X, {"sample_weight": weights}),
        (SVC(kernel="precomputed"), gram, {}),
    ]:
        ours = SVMGridSearchCV(estimator, {"C": [0.1, 10]}, cv=3)
        theirs = GridSearchCV(estimator, {"C": [0.1, 10]}, cv=3)
        same_table(
            ours.fit(points, y, **fit_params),
            theirs.fit(points, y, **fit_params),
        )
        assert not ours.pair_updates_.any()
        assert ours.pair_updates_.shape == (2, 3)


def test_folds_as_masks_and_labels_as_a_list():
    X, y = classes(2, n=120)
    mask = np.arange(y.size) % 3 > 0
    masks = [(mask, ~mask), (~mask, mask)]
    ours = SVMGridSearchCV(SVC(), {"C": [0.1, 10]}, cv=masks)
    theirs = GridSearchCV(SVC(), {"C": [0.1, 10]}, cv=masks)
    ours.fit(X, list(y))
    check_same_search(
        ours, theirs.fit(X, list(y)), (~mask).sum(), one_point
    )
    assert ours.pair_updates_.all()


def test_a_pipeline_is_searched_as_its_last_step_on_scaled_points():
    X, y = classes(3, n=240)
    X = X * np.geomspace(0.1, 10.0, X.shape[1])  # features on many scales
    pipeline = make_pipeline(StandardScaler(), SVC())
    grid = {"svc__C": [0.1, 1, 10], "svc__gamma": [0.05, 0.2]}
    ours = SVMGridSearchCV(pipeline, grid, cv=stratified()).fit(X, y)
    theirs = GridSearchCV(pipeline, grid, cv=stratified()).fit(X, y)
    check_same_search(ours, theirs, 48, one_point)
    assert ours.pair_updates_.all()  # shared: every fit on a block
    assert isinstance(ours.best_estimator_, Pipeline)
    # a grid that varies the scaler too is GridSearchCV's own
    scaled = {"standardscaler__with_mean": [True, False], "svc__C": [1]}
    same_table(
        SVMGridSearchCV(pipeline, scaled, cv=3).fit(X, y),
        GridSearchCV(pipeline, scaled, cv=3).fit(X, y),
    )


def test_nu_svc_uses_its_own_fit_on_the_block():
    X, y = classes(3, n=240)
    grid = {"nu": [0.2, 0.5], "gamma": [0.05, 0.2]}
    ours = SVMGridSearchCV(NuSVC(), grid, cv=stratified()).fit(X, y)
    theirs = GridSearchCV(NuSVC(), grid, cv=stratified()).fit(X, y)
    check_same_search(ours, theirs, 48, one_point)


# --------------------------------------------------------------------------
# The fits on a block, against the estimators' own fits on the same kernel


def block_of(X, gamma):
    """The RBF Gram matrix of X in single precision, as a block holds it
    (made exactly symmetric, as a precomputed kernel must be)."""
    kernel = Kernel("rbf", gamma)
    n = X.shape[0]
    K = rows_for_points(kernel, X).compute(
        np.arange(n), np.empty((n, n), dtype=np.float32)
    )
    return np.triu(K) + np.triu(K, 1).T


def by_class(X, y):
    """The points sorted by class, as a fold's block holds them."""
    order = block_order(SVC(), y, np.arange(y.size))
    return X[order], y[order]


@pytest.mark.parametrize("n_classes", [2, 4])
def test_svc_on_block_is_the_precomputed_fit(n_classes):
    X, y = by_class(*classes(n_classes, n=160, seed=1))
    K = block_of(X, 0.1)
    labels, y_index = np.unique(y, return_inverse=True)
    ours, solutions = svc_on_block(
        SVC(C=3.0, tol=TIGHT), K, y_index, labels, None
    )
    own = SVC(C=3.0, tol=TIGHT, kernel="precomputed").fit(
        K.astype(float), y
    )
    assert set(vars(ours)) == set(vars(own))
    np.testing.assert_array_equal(ours.support_, own.support_)
    np.testing.assert_array_equal(ours.n_support_, own.n_support_)
    np.testing.assert_allclose(ours.dual_coef_, own.dual_coef_, atol=1e-5)
    np.testing.assert_allclose(ours.intercept_, own.intercept_, atol=1e-5)
    np.testing.assert_allclose(ours.objective_, own.objective_, rtol=1e-7)
    assert len(solutions) == n_classes * (n_classes - 1) // 2
    # each pair's Q alpha, carried for a warm start, is Q alpha indeed
    for (i, j), solution in zip(class_pairs(n_classes), solutions):
        members = np.flatnonzero((y_index == i) | (y_index == j))
        signs = np.where(y_index[members] == i, 1.0, -1.0)
        Q = np.outer(signs, signs) * K[np.ix_(members, members)]
        np.testing.assert_allclose(
            solution.Q_alpha, Q @ solution.alpha, rtol=1e-5, atol=1e-5
        )


def test_svr_on_block_is_the_precomputed_fit():
    X, y = targets(n=120, seed=2)
    K = block_of(X, 0.2)
    model = SVR(C=2.0, epsilon=0.1, tol=TIGHT)
    ours, (solution,) = svr_on_block(model, K, doubled(K), y, None)
    own = SVR(C=2.0, epsilon=0.1, tol=TIGHT, kernel="precomputed")
    own.fit(K.astype(float), y)
    assert set(vars(ours)) == set(vars(own))
    np.testing.assert_array_equal(ours.support_, own.support_)
    np.testing.assert_allclose(ours.dual_coef_, own.dual_coef_, atol=1e-5)
    np.testing.assert_allclose(ours.intercept_, own.intercept_, atol=1e-5)
    assert solution.alpha.shape == (2 * y.size,)
    # the 2n multipliers' Q = [[K, -K], [-K, K]] (eq-svr-core, unsigned)
    Q = np.block([[K, -K], [-K, K]]).astype(float)
    np.testing.assert_allclose(
        solution.Q_alpha, Q @ solution.alpha, rtol=1e-5, atol=1e-5
    )


def test_a_warm_start_is_feasible_and_reaches_the_cold_solution():
    X, y = by_class(*classes(2, n=200, seed=3))
    K = block_of(X, 0.1)
    labels, y_index = np.unique(y, return_inverse=True)
    signs = np.where(y_index == 0, 1.0, -1.0)
    _, (solution,) = svc_on_block(SVC(C=1.0), K, y_index, labels, None)
    for C in (10.0, 0.3):  # the box grows; the box shrinks
        (start,) = start_from((1.0, [solution]), C)
        assert start.alpha.min() >= 0 and start.alpha.max() <= C + 1e-12
        assert abs(signs @ start.alpha) <= 1e-9 * C
        warm, _ = svc_on_block(
            SVC(C=C, tol=TIGHT), K, y_index, labels, [start]
        )
        cold, _ = svc_on_block(
            SVC(C=C, tol=TIGHT), K, y_index, labels, None
        )
        np.testing.assert_allclose(
            warm.objective_, cold.objective_, rtol=1e-7
        )
        np.testing.assert_allclose(
            warm.decision_function(K), cold.decision_function(K), atol=1e-4
        )
    assert start_from(None, 1.0) is None


def test_a_saturated_solution_is_reused_without_an_update():
    """Once no multiplier is at its bound, a larger C has the same answer
    (exercise ex-select-saturation): the chain reuses the model."""
    X, y = by_class(*classes(2, n=120, seed=6))
    K = block_of(X, 2.0)  # a narrow kernel: few multipliers reach C
    block = FoldBlock(K, np.arange(y.size), np.arange(0), 0.0)
    previous = {}
    first = block_fit(SVC(C=1e3, tol=TIGHT), block, y, previous)
    (link,) = previous.values()
    assert saturated(link, 1e4, None) and not saturated(link, 10.0, None)
    second = block_fit(SVC(C=1e4, tol=TIGHT), block, y, previous)
    assert second.C == 1e4 and first.C == 1e3
    assert second.n_iter_.sum() == 0 < first.n_iter_.sum()
    np.testing.assert_array_equal(
        second.decision_function(K), first.decision_function(K)
    )
    labels, y_index = np.unique(y, return_inverse=True)
    cold, _ = svc_on_block(SVC(C=1e4, tol=TIGHT), K, y_index, labels, None)
    np.testing.assert_allclose(
        cold.objective_, second.objective_, rtol=1e-7
    )


def test_warm_and_cold_searches_agree_and_count_updates():
    X, y = classes(2, n=300, seed=4)
    grid = {"C": [0.1, 1, 10, 100], "gamma": [0.05, 0.2]}
    warm = SVMGridSearchCV(SVC(), grid, cv=stratified()).fit(X, y)
    cold = SVMGridSearchCV(SVC(), grid, cv=stratified(), warm_start=False)
    cold.fit(X, y)
    gap = np.abs(
        warm.cv_results_["mean_test_score"]
        - cold.cv_results_["mean_test_score"]
    )
    assert gap.max() <= 1 / 60 + 1e-12
    assert warm.pair_updates_.shape == (8, 5)
    assert (warm.pair_updates_ > 0).all() and (cold.pair_updates_ > 0).all()


def test_candidates_share_a_kernel_in_chains_of_ascending_C():
    candidates = [
        {"C": 10, "gamma": 0.1},
        {"C": 1, "gamma": 0.1},
        {"C": 1, "gamma": 1.0},
        {"C": 0.1, "gamma": 0.1, "tol": 1e-4},
        {"C": 5, "gamma": 0.1, "tol": 1e-4},
    ]
    groups = group_candidates(SVC(), candidates)
    assert sorted(map(sorted, groups)) == [[0, 1, 3, 4], [2]]
    shared = next(group for group in groups if len(group) == 4)
    keys = [chain_order(candidates[index]) for index in shared]
    assert keys == sorted(keys)
    assert shared == [1, 0, 3, 4]
    # a kernel function cannot be shared: a group of its own
    with_function = [{"kernel": lambda A, B: A @ B.T}, {"C": 2}]
    assert group_candidates(SVC(), with_function) == [[0], [1]]


# --------------------------------------------------------------------------
# Errors before any fit, failed fits, progress


class Refuses(ClassifierMixin, BaseEstimator):
    """A classifier whose fit fails when ``fail`` is set."""

    def __init__(self, fail=False):
        self.fail = fail

    def fit(self, X, y):
        if self.fail:
            raise RuntimeError("told to fail")
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        return np.full(len(X), self.classes_[0])


@pytest.mark.parametrize(
    "grid, message",
    [
        ([], "no candidates"),
        ({"C": [1.0], "gama": [0.1]}, "has no parameter 'gama'"),
        ({"C": [1.0, -1.0]}, "C must be a positive number"),
        ({"gamma": [0.1, "often"]}, "unknown gamma rule 'often'"),
        ({"kernel": ["rbf", "cubic"]}, "unknown kernel 'cubic'"),
    ],
)
def test_bad_grids_are_refused_before_any_fit(grid, message):
    X, y = classes(2, n=60)
    with pytest.raises(ValueError, match=message):
        SVMGridSearchCV(SVC(), grid).fit(X, y)


def test_a_fold_that_trains_on_one_class_is_refused():
    X, y = classes(2, n=60)
    order = np.argsort(y, kind="stable")
    X, y = X[order], y[order]
    with pytest.raises(ValueError, match="trains on one class only"):
        SVMGridSearchCV(SVC(), {"C": [1.0]}, cv=KFold(2)).fit(X, y)


def test_bad_points_settings_and_metrics_are_refused():
    X, y = classes(2, n=60)
    X_nan = X.copy()
    X_nan[3, 2] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        SVMGridSearchCV(SVC(), {"C": [1.0]}).fit(X_nan, y)
    with pytest.raises(ValueError, match="kernel_memory"):
        SVMGridSearchCV(SVC(), {"C": [1.0]}, kernel_memory=0).fit(X, y)
    with pytest.raises(ValueError, match="refit must be one of"):
        SVMGridSearchCV(
            SVC(), {"C": [1.0]}, scoring=["accuracy", "f1"]
        ).fit(X, y)


def test_failed_fits_score_error_score_or_raise():
    X, y = classes(2, n=60)
    grid = {"fail": [False, True]}
    with pytest.warns(FitFailedWarning, match="5 fits failed"):
        search = SVMGridSearchCV(Refuses(), grid, cv=5).fit(X, y)
    assert np.isnan(search.cv_results_["mean_test_score"][1])
    assert search.cv_results_["rank_test_score"].tolist() == [1, 2]
    with pytest.raises(RuntimeError, match="told to fail"):
        SVMGridSearchCV(Refuses(), grid, cv=5, error_score="raise").fit(
            X, y
        )


def test_verbose_reports_every_cell(capsys):
    X, y = classes(2, n=100)
    grid = {"C": [1, 10], "gamma": [0.1, 0.5]}
    SVMGridSearchCV(SVC(), grid, cv=3, verbose=3).fit(X, y)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Fitting 3 folds for each of 4 candidates")
    cells = [line for line in lines if line.startswith("[CV ")]
    assert len(cells) == 12
    assert all(" END " in line and "score=" in line for line in cells)


# --------------------------------------------------------------------------
# joblib: local processes and a Dask cluster


def scores_of(search):
    return {
        key: value
        for key, value in search.cv_results_.items()
        if "time" not in key
    }


def dask_search(grid, X, y):
    """The search run on a local cluster of two worker processes, started
    and closed here."""
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
        ) as cluster,
        distributed.Client(cluster),
        joblib.parallel_backend("dask"),
    ):
        return SVMGridSearchCV(SVC(), grid, cv=stratified()).fit(X, y)


def test_local_processes_and_a_dask_cluster_give_the_same_results():
    X, y = classes(3, n=240)
    grid = {"C": [0.5, 5], "gamma": [0.05, 0.3]}
    local = SVMGridSearchCV(SVC(), grid, cv=stratified()).fit(X, y)
    two = SVMGridSearchCV(SVC(), grid, cv=stratified(), n_jobs=2).fit(X, y)
    environment = dict(os.environ)
    try:
        with warnings.catch_warnings():
            # the cluster's start-up may warn about ports and resources
            warnings.simplefilter("ignore")
            on_dask = dask_search(grid, X, y)
    finally:
        # distributed sets OMP_NUM_THREADS=1 and others in this process's
        # environment, which the notebooks that later tests start inherit
        os.environ.clear()
        os.environ.update(environment)
    for other in (two, on_dask):
        ours, theirs = scores_of(local), scores_of(other)
        assert set(ours) == set(theirs)
        for key, value in ours.items():
            if key == "params":
                assert value == theirs[key]
            else:
                np.testing.assert_array_equal(value, theirs[key], key)
    assert on_dask.best_params_ == local.best_params_
