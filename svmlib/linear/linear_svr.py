# Generated from chapters/linear_more.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""svmlib.LinearSVR, a scikit-learn estimator for linear support vector
regression (chapter "More linear models")."""

import warnings

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.validation import check_is_fitted

from svmlib.derivation.hinge import check_C
from svmlib.estimators.weights import check_sample_weight
from svmlib.formulations.svc_input import (
    check_choice,
    check_flag,
    check_seed,
    first_non_finite,
    number_of_rows,
    validated_points,
)
from svmlib.formulations.svr_one_class import check_epsilon
from svmlib.kernels.functions import squared_norms
from svmlib.linear.linear_setup import (
    check_pass_limit,
    constant_feature,
    linear_rows,
)
from svmlib.result import Status
from svmlib.smo.solver import check_tol
from svmlib.linear.svr_dcd import SVR_LOSSES, svr_dual_cd, svr_problem_from_checked
from svmlib.linear.svr_primal import svr_newton
from svmlib.linear.svr_compiled import sweep_svr_compiled


def use_svr_dual(dual, loss, n_samples, n_features):
    """Whether to solve the dual: the user's choice, or scikit-learn's
    rule for dual='auto' (the dual if n_samples < n_features, else the
    primal, which exists for the squared loss only)."""
    if isinstance(dual, str) and dual == "auto":
        return n_samples < n_features or loss == "epsilon_insensitive"
    if not isinstance(dual, (bool, np.bool_)):
        raise ValueError(
            f"dual must be 'auto', True or False; got {dual!r}"
        )
    if not dual and loss == "epsilon_insensitive":
        raise ValueError(
            "loss='epsilon_insensitive' has no primal solver (nor in "
            "LIBLINEAR): use dual=True or dual='auto', or "
            "loss='squared_epsilon_insensitive'"
        )
    return bool(dual)


class LinearSVR(RegressorMixin, BaseEstimator):
    """Linear support vector regression for large data; a stand-in for
    sklearn.svm.LinearSVR with its parameters, defaults and fitted
    attributes.  Trains by dual coordinate descent on eq. (eq-lsvr-dual),
    compiled for dense and CSR rows, or by Newton's method on the primal
    of the squared loss, eq. (eq-lsvr-primal).

    Parameters
    ----------
    epsilon : float, default=0.0
        The tube's half-width in eq. (eq-lsvr-primal).
    tol : float, default=1e-4
        The relative threshold of eq. (eq-lsvr-stopping) (dual) or of eq.
        (eq-lsvr-newton-stopping) (primal).
    C : float, default=1.0
        The cost of the losses.
    loss : {"epsilon_insensitive", "squared_epsilon_insensitive"}
        The loss of eq. (eq-lsvr-primal); default "epsilon_insensitive".
    fit_intercept : bool, default=True
        Append the constant feature intercept_scaling to every point.
    intercept_scaling : float, default=1.0
        That constant; the intercept is it times its (penalised) weight.
    dual : "auto" or bool, default="auto"
        True: the dual by coordinate descent; False: the primal by
        Newton's method (squared loss only); "auto": the dual if
        n_samples < n_features or for the epsilon-insensitive loss.
    verbose : int, default=0
        Print a line about the fit.
    random_state : None, int, RandomState or Generator, default=None
        Seeds the order of the passes of coordinate descent.
    max_iter : int, default=1000
        Passes over the data (dual) or Newton steps (primal).

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,)
        The weights w.
    intercept_ : ndarray of shape (1,), or 0.0
        b (0.0 when fit_intercept is False).
    n_iter_ : int
        The passes (or Newton steps) taken.
    n_features_in_ : int
        Number of features seen in fit.
    """

    def __init__(
        self,
        *,
        epsilon=0.0,
        tol=1e-4,
        C=1.0,
        loss="epsilon_insensitive",
        fit_intercept=True,
        intercept_scaling=1.0,
        dual="auto",
        verbose=0,
        random_state=None,
        max_iter=1000,
    ):
        self.epsilon = epsilon
        self.tol = tol
        self.C = C
        self.loss = loss
        self.fit_intercept = fit_intercept
        self.intercept_scaling = intercept_scaling
        self.dual = dual
        self.verbose = verbose
        self.random_state = random_state
        self.max_iter = max_iter

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags

    def _checked_parameters(self):
        """epsilon, tol, C, the loss, max_iter, the constant feature (0
        without an intercept), the verbosity and the seed."""
        bias = constant_feature(self.fit_intercept, self.intercept_scaling)
        return (
            check_epsilon(self.epsilon),
            check_tol(self.tol),
            check_C(self.C),
            check_choice("loss", self.loss, SVR_LOSSES),
            check_pass_limit(self.max_iter),
            bias,
            check_flag("verbose", self.verbose, integers=True),
            check_seed(self.random_state),
        )

    def _checked_data(self, X, y):
        """X as the passes read it and y as finite floats."""
        n_points, n_targets = number_of_rows(X), number_of_rows(y)
        if None not in (n_points, n_targets) and n_points != n_targets:
            raise ValueError(
                f"X has {n_points} samples but y has {n_targets} "
                "targets; they must match"
            )
        X, y = validated_points(self, X, y, y_numeric=True)
        first_non_finite(np.asarray(y, dtype=float)[:, None], name="y")
        return linear_rows(X), np.asarray(y, dtype=float)

    def fit(self, X, y, sample_weight=None):
        """Train on the points X (array or sparse) and targets y, each
        point's cost C times its sample weight (weight 0: left out).
        Returns self."""
        epsilon, tol, C, loss, max_iter, bias, verbose, seed = (
            self._checked_parameters()
        )
        X, y = self._checked_data(X, y)
        weights = check_sample_weight(sample_weight, y.size)
        if not (weights > 0).any():
            raise ValueError(
                "every sample_weight is zero: there is nothing to fit"
            )
        problem = svr_problem_from_checked(
            X, y, C * weights, loss, bias, epsilon, squared_norms(X)
        )
        dual = use_svr_dual(self.dual, loss, *X.shape)
        if dual:
            result = svr_dual_cd(
                problem, sweep_svr_compiled, tol, max_iter, seed=seed
            )
        else:
            result = svr_newton(problem, tol, max_iter)
        self.coef_ = result.w.copy()
        self.intercept_ = np.array([result.b]) if bias else 0.0
        self.n_iter_ = int(result.n_iter)
        steps = "passes" if dual else "Newton steps"
        if verbose:
            print(
                f"[LinearSVR] {self.n_iter_} {steps}, {result.status.value}"
            )
        if result.status != Status.OPTIMAL:
            why = (
                f"within max_iter={max_iter} {steps}"
                if result.status == Status.MAX_ITER
                else "before round-off stopped Newton's steps"
            )
            warnings.warn(
                f"LinearSVR did not reach tol={self.tol} {why}; raise "
                "max_iter or tol, or scale the features",
                ConvergenceWarning,
                stacklevel=2,
            )
        return self

    def predict(self, X):
        """w'x + b for every row of X."""
        check_is_fitted(self)
        X = validated_points(self, X, reset=False)
        return linear_rows(X) @ self.coef_ + self.intercept_
