# Generated from chapters/regression_novelty.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""The estimators that solve one QP, and SVR (chapter "Regression and
novelty detection")."""

import warnings

import numpy as np
from scipy import sparse
from sklearn.base import RegressorMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.validation import check_is_fitted

from svmlib.estimators.estimator import (
    _KernelEstimator,
    dense_rows,
    stored_like,
    training_matrix,
)
from svmlib.estimators.weights import check_sample_weight
from svmlib.formulations.svc_input import (
    check_box_bound,
    check_flag,
    check_iteration_limit,
    check_kernel_choice,
    check_positive,
    first_non_finite,
    kernel_points,
    number_of_rows,
    validated_points,
)
from svmlib.formulations.svr_one_class import (
    check_epsilon,
    check_nu,
    one_class_problem,
    svr_coefficients,
    svr_problem,
)
from svmlib.kernels.functions import Kernel
from svmlib.result import Status
from svmlib.smo.solver import check_tol
from svmlib.training.fast import solve_auto
from svmlib.training.solvers import print_summary


class _OneProblemModel(_KernelEstimator):
    """What SVR and OneClassSVM share: the checks of the kernel and solver
    parameters and of the training points, one QP solved by the default
    solver (chapter "Fast by default"), and the storing of its answer."""

    def _checked_kernel(self):
        return check_kernel_choice(
            self.kernel, self.gamma, self.degree, self.coef0
        )

    def _checked_points(self, X, y=None):
        """X as a finite float array (and y as finite numbers, if given);
        for a kernel function, points that are not numbers are passed on
        untouched."""
        n_points, n_labels = number_of_rows(X), number_of_rows(y)
        if y is not None and None not in (n_points, n_labels):
            if n_points != n_labels:
                raise ValueError(
                    f"X has {n_points} samples but y has {n_labels} "
                    "targets; they must match"
                )
        points = kernel_points(X) if callable(self.kernel) else None
        if points is not None:  # for the kernel function alone
            return points, None if y is None else self._checked_targets(y)
        if y is None:
            X = validated_points(self, X)
        else:
            X, y = validated_points(self, X, y, y_numeric=True)
        first_non_finite(X)
        return X, None if y is None else self._checked_targets(y)

    @staticmethod
    def _checked_targets(y):
        """y as finite float numbers, one per point."""
        try:
            y = np.asarray(y).astype(np.float64).ravel()
        except ValueError as error:
            raise ValueError(
                f"y must contain numbers (regression targets): {error}"
            ) from None
        first_non_finite(y[:, None], name="y")
        return y

    def _solve(self, build, X, kernel, sample_weight=None):
        """Build the problem on the training matrix of ``kernel`` (checked
        by fit; ``build`` takes the matrix, the solver's kernel, the sample
        weights (None for none) and the indices of the points kept), solve
        it with the default solver, and return its SolverResult and the
        points it was built on (those of positive weight, as LIBSVM keeps
        them)."""
        weights = check_sample_weight(sample_weight, X.shape[0])
        if not (weights > 0).any():
            raise ValueError(
                "Invalid input - all samples have zero or negative "
                "weights. (A point of sample_weight 0 or less is left "
                "out: there is nothing to fit.)"
            )
        kept = np.flatnonzero(weights > 0)
        tol = check_tol(self.tol)
        cache_size = check_positive("cache_size", self.cache_size)
        shrinking = check_flag("shrinking", self.shrinking)
        max_iter = check_iteration_limit(self.max_iter)
        verbose = check_flag("verbose", self.verbose, integers=True)
        self._kernel, data = training_matrix(kernel, X, cache_size)
        solver_kernel = (
            self._kernel
            if isinstance(self._kernel, Kernel)
            else "precomputed"
        )
        if kept.size < X.shape[0]:
            data = (
                data[kept]
                if isinstance(self._kernel, Kernel)
                else data[np.ix_(kept, kept)]
            )
        problem = build(
            data,
            solver_kernel,
            None if sample_weight is None else weights[kept],
            kept,
        )
        result = solve_auto(problem, tol, cache_size, shrinking, max_iter)
        if verbose:
            print_summary(result, problem.C)
        return result, kept

    def _store(self, X, coef, result, kept):
        """``support_``, ``support_vectors_``, ``dual_coef_`` and
        ``intercept_`` from the coefficients of f on the points ``kept``
        and the solver's result; a ConvergenceWarning if the solver stopped
        at its limit."""
        full = np.zeros(X.shape[0])
        full[kept] = coef
        self.support_ = np.flatnonzero(full).astype(np.int32)
        self.support_vectors_ = (
            np.empty((0, 0))
            if isinstance(self._kernel, str)
            else X[self.support_]
        )
        self.dual_coef_ = stored_like(X, full[self.support_][None, :])
        self.intercept_ = np.array([result.b])
        self.n_iter_ = int(result.n_iter)
        self.fit_status_ = int(result.status != Status.OPTIMAL)
        self.shape_fit_ = X.shape
        if self.fit_status_:
            warnings.warn(
                f"the solver stopped after {result.n_iter:,} pair updates "
                f"(max_iter={self.max_iter}; -1 is LIBSVM's limit of "
                f"max(10^7, 100 n)) before reaching tol={self.tol}; the "
                "model may be inaccurate (scale the features, or raise "
                "max_iter)",
                ConvergenceWarning,
                stacklevel=3,
            )

    @property
    def coef_(self):
        """The weights w = ``dual_coef_ @ support_vectors_`` of f, shape
        (1, n_features), sparse after a sparse fit; linear kernel only."""
        if not (isinstance(self.kernel, str) and self.kernel == "linear"):
            raise AttributeError("coef_ exists only for kernel='linear'")
        check_is_fitted(self)
        coef = dense_rows(self.dual_coef_) @ self.support_vectors_
        if sparse.issparse(self.support_vectors_):
            return sparse.csr_matrix(coef)
        coef.flags.writeable = False
        return coef

    @property
    def n_support_(self):
        """The number of support vectors, as an array of one entry."""
        check_is_fitted(self)
        return np.array([self.support_.size], dtype=np.int32)

    def _raw_values(self, X):
        """The sum over the support vectors of ``dual_coef_`` k(x, s), for
        the rows of X."""
        X = self._checked_prediction_data(X)
        if self.support_.size == 0:  # f is the constant intercept_
            return np.zeros(X.shape[0])
        return self._kernel_to_support(X) @ dense_rows(self.dual_coef_)[0]


class _Regressor(RegressorMixin, _OneProblemModel):
    """What SVR and NuSVR share: fit solves the one QP that ``_builder``
    returns, whose 2n multipliers give the coefficients alpha - alpha* of
    f, eq. (eq-svr-decision)."""

    def fit(self, X, y, sample_weight=None):
        """Solve the problem for the points X and targets y (a point of
        sample weight w has the bounds C w, and of weight 0 is left out);
        returns self."""
        C = check_box_bound(self.C, type(self).__name__)
        build = self._builder(C)
        kernel = self._checked_kernel()
        if y is None:
            raise ValueError(
                f"{type(self).__name__} requires y to be passed, but the "
                "target y is None"
            )
        X, y = self._checked_points(X, y)
        result, kept = self._solve(
            lambda data, rows, weights, kept: build(
                data, y[kept], rows, weights
            ),
            X,
            kernel,
            sample_weight,
        )
        self._store(X, svr_coefficients(result.alpha), result, kept)
        return self

    def predict(self, X):
        """f(x) of eq. (eq-svr-decision) for every row of X."""
        return self._raw_values(X) + self.intercept_[0]


class SVR(_Regressor):
    """epsilon-support vector regression, eq. (eq-svr-primal), trained by
    the default solver on eq. (eq-svr-core); a stand-in for
    sklearn.svm.SVR with its parameter names, defaults, fitted attributes
    and signs: predict(x) = ``dual_coef_`` k(``support_vectors_``, x) +
    ``intercept_``, with ``dual_coef_`` = alpha - alpha* of the support
    vectors."""

    def __init__(
        self,
        *,
        kernel="rbf",
        degree=3,
        gamma="scale",
        coef0=0.0,
        tol=1e-3,
        C=1.0,
        epsilon=0.1,
        shrinking=True,
        cache_size=200,
        verbose=False,
        max_iter=-1,
    ):
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.tol = tol
        self.C = C
        self.epsilon = epsilon
        self.shrinking = shrinking
        self.cache_size = cache_size
        self.verbose = verbose
        self.max_iter = max_iter

    def _builder(self, C):
        """The problem of eq. (eq-svr-core) as a function of the training
        matrix, the targets and the solver's kernel (epsilon checked)."""
        epsilon = check_epsilon(self.epsilon)
        return lambda data, y, rows, weights: svr_problem(
            data, y, C, epsilon, rows, weights
        )
