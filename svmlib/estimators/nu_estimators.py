# Generated from chapters/regression_novelty.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""NuSVC and NuSVR: the nu formulations as estimators (chapter "Regression
and novelty detection")."""

import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from svmlib.estimators.estimator import SVC, announce_pair, training_matrix
from svmlib.estimators.one_problem import _Regressor
from svmlib.estimators.weights import (
    check_class_weight,
    check_sample_weight,
    weighted_bounds,
)
from svmlib.formulations.multiclass import class_pairs, pair_members
from svmlib.formulations.nu import (
    check_nu_feasible,
    nu_svc_problem,
    nu_svr_problem,
)
from svmlib.formulations.svc_input import label_text
from svmlib.formulations.svr_one_class import check_nu
from svmlib.kernels.functions import Kernel
from svmlib.training.fast import solve_auto
from svmlib.training.solvers import print_summary


class NuSVC(SVC):
    """nu-support vector classification, eq. (eq-nu-svc-primal), trained by
    the default solver on eq. (eq-nu-svc-core) for each pair of classes; a
    stand-in for sklearn.svm.NuSVC with its parameter names, defaults,
    fitted attributes and signs.  ``nu`` in (0, 1] replaces C; each pair's
    multipliers are divided by its r, eq. (eq-nu-svc-scaled), so that
    ``dual_coef_`` and ``intercept_`` are those of the C-SVC with C = 1 / r
    that has the same solution (``objective_`` is each pair's objective of
    eq. (eq-nu-svc-core), before that division).  Everything else is SVC's
    (``solver`` is always the default, "auto")."""

    def __init__(
        self,
        *,
        nu=0.5,
        kernel="rbf",
        degree=3,
        gamma="scale",
        coef0=0.0,
        shrinking=True,
        tol=1e-3,
        cache_size=200,
        verbose=False,
        max_iter=-1,
        decision_function_shape="ovr",
        break_ties=False,
        random_state=None,
        class_weight=None,
        probability="deprecated",
    ):
        self.nu = nu
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.shrinking = shrinking
        self.tol = tol
        self.cache_size = cache_size
        self.verbose = verbose
        self.max_iter = max_iter
        self.decision_function_shape = decision_function_shape
        self.break_ties = break_ties
        self.random_state = random_state
        self.class_weight = class_weight
        self.probability = probability

    def _checked_parameters(self):
        """SVC's checks, with nu in place of C and solver: the multipliers
        of eq. (eq-nu-svc-core) are bounded by 1."""
        check_nu(self.nu)
        return self._checked_settings(1.0)

    def _check_margin(self, r, tol, i, j):
        """An error if the margin r of the pair (i, j) is 0 (nothing to
        divide by), a warning if it is below ``tol``, the accuracy to which
        the solver knows it (eqs. (eq-nu-hulls) and (eq-nu-svc-scaled));
        like LIBSVM, the model is then divided by whatever r was found."""
        pair = (
            f"classes {label_text(self.classes_[i])} and "
            f"{label_text(self.classes_[j])}"
        )
        if r == 0.0:
            raise ValueError(
                f"nu = {self.nu:g} leaves no margin between {pair} (r = "
                "0: their reduced convex hulls meet); choose a larger nu"
            )
        if r < tol:
            warnings.warn(
                f"the margin r = {r:.3g} between {pair} is below "
                f"tol={tol:g}, the accuracy the solver knows it to, so the "
                "scale of dual_coef_ = alpha y / r is uncertain; choose a "
                "larger nu, or a smaller tol",
                ConvergenceWarning,
                stacklevel=3,
            )

    def fit(self, X, y, sample_weight=None):
        """Solve eq. (eq-nu-svc-core) for every pair of classes (nu checked
        to be feasible for each pair first); a point of sample weight w has
        the bound w, and of weight 0 is left out.  Returns self."""
        kernel, settings, seed = self._checked_parameters()
        X, self.classes_, y_index = self._checked_training_data(X, y)
        weighted = check_sample_weight(sample_weight, y_index.size) > 0
        if np.unique(y_index[weighted]).size == 1:
            raise ValueError(
                "specified nu is infeasible: every point of positive "
                "sample_weight is in one class"
            )
        # the sample weights' bounds, refused if all are zero or a class
        # is left without weight; class weights are recorded, not used
        bounds, _ = weighted_bounds(
            1.0, None, sample_weight, self.classes_, y_index, "auto"
        )
        self.class_weight_ = check_class_weight(
            self.class_weight, self.classes_, y_index
        )
        if self.class_weight is not None:
            warnings.warn(
                "NuSVC ignores class_weight, as LIBSVM and scikit-learn "
                "do (LIBSVM's nu-SVC bounds each multiplier by the point's "
                "sample weight alone); use sample_weight, or "
                "SVC(class_weight=...)",
                UserWarning,
                stacklevel=2,
            )
        weights = np.ones(y_index.size) if bounds is None else bounds
        nu = check_nu(self.nu)
        pairs = class_pairs(self.classes_.size)
        problems = []
        for i, j in pairs:
            members, y_pair = pair_members(y_index, i, j)
            keep = weights[members] > 0
            members, y_pair = members[keep], y_pair[keep]
            names = (
                label_text(self.classes_[i]),
                label_text(self.classes_[j]),
            )
            check_nu_feasible(y_pair, nu, names, weights[members])
            problems.append((members, y_pair))
        self._kernel, data = training_matrix(kernel, X, settings.cache_size)
        is_kernel = isinstance(self._kernel, Kernel)
        models, intercept, results = [], [], []
        for (i, j), (members, y_pair) in zip(pairs, problems):
            subset = (
                data[members]
                if is_kernel
                else data[np.ix_(members, members)]
            )
            problem = nu_svc_problem(
                subset,
                y_pair,
                nu,
                self._kernel if is_kernel else "precomputed",
                None if bounds is None else weights[members],
            )
            result = solve_auto(
                problem,
                settings.tol,
                settings.cache_size,
                settings.shrinking,
                settings.max_iter,
            )
            if settings.verbose:
                announce_pair("auto", self.classes_, i, j, members.size)
                print_summary(result, problem.C)
            self._check_margin(result.r, settings.tol, i, j)
            models.append((members, result.alpha * y_pair / result.r))
            intercept.append(result.b / result.r)
            results.append(result)
        self._store_model(X, y_index, models, intercept, results)
        self._fit_probability(X, y_index, weights, seed)
        return self


class NuSVR(_Regressor):
    """nu-support vector regression, eq. (eq-nu-svr-primal), trained by the
    default solver on eq. (eq-nu-svr-core); a stand-in for
    sklearn.svm.NuSVR with its parameter names, defaults, fitted attributes
    and signs: ``nu`` in (0, 1] replaces the tube width epsilon, which the
    solution chooses (epsilon = -r, eq. (eq-nu-thresholds)); predict is
    eq. (eq-svr-decision), as for SVR."""

    def __init__(
        self,
        *,
        nu=0.5,
        C=1.0,
        kernel="rbf",
        degree=3,
        gamma="scale",
        coef0=0.0,
        shrinking=True,
        tol=1e-3,
        cache_size=200,
        verbose=False,
        max_iter=-1,
    ):
        self.nu = nu
        self.C = C
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.shrinking = shrinking
        self.tol = tol
        self.cache_size = cache_size
        self.verbose = verbose
        self.max_iter = max_iter

    def _builder(self, C):
        """The problem of eq. (eq-nu-svr-core) as a function of the training
        matrix, the targets and the solver's kernel (nu checked)."""
        nu = check_nu(self.nu)
        return lambda data, y, rows, weights: nu_svr_problem(
            data, y, C, nu, rows, weights
        )
