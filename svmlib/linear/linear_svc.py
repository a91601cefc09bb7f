# Generated from chapters/linear_scale.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""svmlib.LinearSVC, a scikit-learn estimator for linear SVMs at scale
(chapter "Linear SVMs at scale")."""

import warnings

import numpy as np
from scipy import sparse
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.validation import check_is_fitted

from svmlib.derivation.hinge import check_C
from svmlib.estimators.weights import check_sample_weight
from svmlib.formulations.svc_input import (
    check_flag,
    check_seed,
    checked_classification_data,
    label_text,
    validated_points,
)
from svmlib.kernels.functions import squared_norms
from svmlib.result import Status
from svmlib.smo.solver import check_tol
from svmlib.linear.linear_dcd import check_loss, dual_cd, problem_from_checked
from svmlib.linear.linear_setup import check_pass_limit, check_penalty_and_strategy, check_weighted_classes, constant_feature, linear_class_weights, linear_rows, one_against_the_rest, use_dual
from svmlib.linear.linear_primal import newton_primal
from svmlib.linear.linear_compiled import sweep_compiled


class LinearSVC(ClassifierMixin, BaseEstimator):
    """A linear SVM for large data; a stand-in for
    sklearn.svm.LinearSVC with its parameters, defaults and fitted
    attributes.  Trains by dual coordinate descent, eq. (eq-dcd-step),
    compiled for dense and CSR rows, or by Newton's method on the
    squared-hinge primal.

    Parameters
    ----------
    penalty : {"l2", "l1"}, default="l2"
        1/2 ||wbar||^2 of eq. (eq-dcd-primal), or ||wbar||_1 of eq.
        (eq-l1-primal) (squared hinge, primal only: many zero weights).
    loss : {"hinge", "squared_hinge"}, default="squared_hinge"
        The loss of eq. (eq-dcd-primal).
    dual : "auto" or bool, default="auto"
        True: the dual, eq. (eq-dcd-dual), by coordinate descent; False:
        the primal by Newton's method (squared hinge only); "auto": the
        dual if n_samples < n_features or for the hinge, else the primal.
    tol : float, default=1e-4
        The threshold of eq. (eq-dcd-stopping) (dual) or of eq.
        (eq-primal-stopping) (primal).
    C : float, default=1.0
        The cost of the losses, eq. (eq-dcd-primal).
    multi_class : {"ovr", "crammer_singer"}, default="ovr"
        One class against the rest, or Crammer and Singer's joint problem
        (chapter "More linear models"), which ignores loss and dual.
    fit_intercept : bool, default=True
        Append the constant feature intercept_scaling to every point.
    intercept_scaling : float, default=1
        That constant; the intercept is it times its weight, which is
        penalised like the others.
    class_weight : dict, "balanced" or None, default=None
        Multiplies C for a class's points in its own problem, eq.
        (eq-dcd-costs); "balanced" is sum(w) / (k sum of w over the
        class), w the sample weights.
    verbose : int, default=0
        Print a line per two-class problem.
    random_state : None, int, RandomState or Generator, default=None
        Seeds the order of the passes of coordinate descent.
    max_iter : int, default=1000
        Passes over the data (dual) or Newton steps (primal) per problem.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The distinct labels, sorted.
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
        w of each problem (two classes: positive for classes_[1]; for
        crammer_singer, w_1 - w_0).
    intercept_ : ndarray of shape (1,) or (n_classes,), or 0.0
        b of each problem (0.0 when fit_intercept is False).
    n_iter_ : int
        The most passes (or Newton steps) any problem took.
    n_features_in_ : int
        Number of features seen in fit.
    """

    def __init__(
        self,
        penalty="l2",
        loss="squared_hinge",
        *,
        dual="auto",
        tol=1e-4,
        C=1.0,
        multi_class="ovr",
        fit_intercept=True,
        intercept_scaling=1,
        class_weight=None,
        verbose=0,
        random_state=None,
        max_iter=1000,
    ):
        self.penalty = penalty
        self.loss = loss
        self.dual = dual
        self.tol = tol
        self.C = C
        self.multi_class = multi_class
        self.fit_intercept = fit_intercept
        self.intercept_scaling = intercept_scaling
        self.class_weight = class_weight
        self.verbose = verbose
        self.random_state = random_state
        self.max_iter = max_iter

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags

    def _checked_parameters(self):
        """C, the loss, tol, max_iter, the constant feature (0 without an
        intercept), the verbosity and the seed."""
        check_penalty_and_strategy(self.penalty, self.multi_class)
        bias = constant_feature(self.fit_intercept, self.intercept_scaling)
        return (
            check_C(self.C),
            check_loss(self.loss),
            check_tol(self.tol),
            check_pass_limit(self.max_iter),
            bias,
            check_flag("verbose", self.verbose, integers=True),
            check_seed(self.random_state),
        )

    def _checked_training_data(self, X, y):
        """X, the classes, and each label's index among them (the checks
        of svmlib.SVC, then the rows as the solvers read them)."""
        X, classes, y_index = checked_classification_data(self, X, y)
        return linear_rows(X), classes, y_index

    def fit(self, X, y, sample_weight=None):
        """Train one problem for two classes, one per class for more, with
        the costs of eq. (eq-dcd-costs); a point of weight 0 is left out.
        Returns self."""
        C, loss, tol, max_iter, bias, verbose, seed = (
            self._checked_parameters()
        )
        X, self.classes_, y_index = self._checked_training_data(X, y)
        sample_weight = check_sample_weight(sample_weight, y_index.size)
        weights = linear_class_weights(
            self.class_weight, self.classes_, y_index, sample_weight
        )
        check_weighted_classes(
            weights, y_index, sample_weight, self.classes_
        )
        norms = squared_norms(X)
        if self.multi_class == "crammer_singer":
            costs = C * weights[y_index] * sample_weight
            self._fit_crammer_singer(
                X, y_index, costs, bias, norms, tol, max_iter, seed, verbose
            )
            return self
        dual = use_dual(self.dual, loss, *X.shape, penalty=self.penalty)
        problems = one_against_the_rest(
            self.classes_, y_index, C, weights, sample_weight
        )
        seeds = np.random.SeedSequence(seed).spawn(len(problems))
        results = []
        for k, ((labels, costs), problem_seed) in enumerate(
            zip(problems, seeds)
        ):
            problem = problem_from_checked(
                X, labels, costs, loss, bias, norms
            )
            if self.penalty == "l1":
                result = self._fit_l1(problem, tol, max_iter, problem_seed)
            elif dual:
                result = dual_cd(
                    problem,
                    sweep_compiled,
                    tol,
                    max_iter,
                    seed=problem_seed,
                )
            else:
                result = newton_primal(problem, tol, max_iter)
            results.append(result)
            if verbose:
                self._report(k, result, dual)
        self._store(results, bias, max_iter, dual)
        return self

    @staticmethod
    def _fit_l1(problem, tol, max_iter, seed):
        """The L1 penalty's problem, eq. (eq-l1-primal), by the compiled
        coordinate descent of the chapter "Sparse linear models: the L1
        penalty" (the primal: this penalty has no dual solver)."""
        from svmlib.linear.l1_cdn import l1_cdn

        return l1_cdn(problem, tol, max_iter, seed=seed)

    def _steps(self, dual):
        """What an iteration is: a pass over the data (the dual, the L1
        penalty's coordinates) or a Newton step."""
        return "passes" if dual or self.penalty == "l1" else "Newton steps"

    def _fit_crammer_singer(
        self, X, y_index, costs, bias, norms, tol, max_iter, seed, verbose
    ):
        """Crammer and Singer's joint problem by the compiled sequential
        dual method of the chapter "More linear models"; with two classes
        coef_ and intercept_ keep w_1 - w_0 and b_1 - b_0, as in
        scikit-learn."""
        from svmlib.linear.crammer_singer import CSProblem, cs_dual_cd
        from svmlib.linear.cs_compiled import sweep_cs_compiled

        k = self.classes_.size
        problem = CSProblem(X, y_index, costs, bias, k, norms + bias**2)
        result = cs_dual_cd(
            problem, sweep_cs_compiled, tol, max_iter, seed=seed
        )
        coef, intercept = result.w, result.b
        if k == 2:
            coef, intercept = (
                coef[1:] - coef[:1],
                intercept[1:] - intercept[:1],
            )
        self.coef_ = coef
        self.intercept_ = intercept if bias else 0.0
        self.n_iter_ = int(result.n_iter)
        if verbose:
            print(
                f"[LinearSVC] Crammer and Singer, {k} classes: "
                f"{result.n_iter} passes, {result.status.value}"
            )
        if result.status != Status.OPTIMAL:
            warnings.warn(
                f"LinearSVC did not reach tol={self.tol} within "
                f"max_iter={max_iter} passes; raise max_iter or tol, or "
                "scale the features",
                ConvergenceWarning,
                stacklevel=3,
            )

    def _report(self, k, result, dual):
        """The verbose line of problem k."""
        which = (
            f"class {label_text(self.classes_[k])} against the rest"
            if self.classes_.size > 2
            else f"class {label_text(self.classes_[1])} (+1)"
        )
        steps = self._steps(dual)
        print(
            f"[LinearSVC] {which}: {result.n_iter} {steps}, "
            f"{result.status.value}"
        )

    def _store(self, results, bias, max_iter, dual):
        """coef_, intercept_ and n_iter_; a ConvergenceWarning
        if a problem stopped short of its tolerance."""
        self.coef_ = np.array([result.w for result in results])
        self.intercept_ = (
            np.array([result.b for result in results]) if bias else 0.0
        )
        self.n_iter_ = max(result.n_iter for result in results)
        unfinished = [
            r.status for r in results if r.status != Status.OPTIMAL
        ]
        if unfinished:
            steps = self._steps(dual)
            why = (
                f"within max_iter={max_iter} {steps}"
                if Status.MAX_ITER in unfinished
                else "before round-off stopped its steps making progress"
            )
            warnings.warn(
                f"LinearSVC did not reach tol={self.tol} in "
                f"{len(unfinished)} of {len(results)} problem(s) {why}; "
                "raise max_iter or tol, or scale the features",
                ConvergenceWarning,
                stacklevel=3,
            )

    def decision_function(self, X):
        """w'x + b of each problem: for two classes one value per point,
        positive for classes_[1]; for more, one per class."""
        check_is_fitted(self)
        X = validated_points(self, X, reset=False)
        coef = self.coef_
        if sparse.issparse(coef):
            coef = coef.toarray()
        scores = linear_rows(X) @ coef.T + self.intercept_
        return scores[:, 0] if self.classes_.size == 2 else scores

    def sparsify(self):
        """Store ``coef_`` as a scipy.sparse CSR matrix (scikit-learn's
        SparseCoefMixin): less memory when most weights are zero; the
        predictions do not change. Returns the estimator."""
        check_is_fitted(self)
        self.coef_ = sparse.csr_matrix(self.coef_)
        return self

    def densify(self):
        """Store ``coef_`` as a dense array again (the inverse of
        ``sparsify``). Returns the estimator."""
        check_is_fitted(self)
        if sparse.issparse(self.coef_):
            self.coef_ = self.coef_.toarray()
        return self

    def predict(self, X):
        """classes_[1] where the decision value is positive (two
        classes), else the class with the largest one."""
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[(scores > 0).astype(int)]
        return self.classes_[np.argmax(scores, axis=1)]
