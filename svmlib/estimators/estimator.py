# Generated from chapters/in_practice.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""The estimator svmlib.SVC (from the chapter "svmlib in practice")."""

import warnings

import numpy as np
from scipy import sparse
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.validation import check_array, check_is_fitted

from svmlib.kernels.functions import Kernel
from svmlib.kernels.kernel_cache import MEGABYTE
from svmlib.probability.libsvm_probability import ProbabilityMixin
from svmlib.result import Status
from svmlib.smo.solver import check_tol
from svmlib.formulations.svc_input import DECISION_SHAPES, check_box_bound, check_choice, check_flag, check_iteration_limit, check_kernel_choice, check_positive, check_seed, check_square_gram, checked_classification_data, first_non_finite, kernel_from_callable, kernel_points, label_text, validated_points
from svmlib.training.solvers import SOLVERS, SolverSettings, print_summary, train_binary
from svmlib.formulations.multiclass import class_pairs, ovr_scores, pack_dual_coef, pair_members, unpack_dual_coef, vote
from svmlib.estimators.weights import train_weighted, weighted_bounds


PREDICTION_BLOCK_BYTES = 64 * MEGABYTE


def dense_rows(matrix):
    """A fitted attribute as a dense array (it is sparse after a fit on
    sparse data, as in scikit-learn)."""
    return matrix.toarray() if sparse.issparse(matrix) else matrix


def stored_like(X, matrix):
    """``matrix`` as a CSR matrix if the training data X was sparse
    (scikit-learn's ``dual_coef_`` and ``coef_`` then are), else as it
    is."""
    return sparse.csr_matrix(matrix) if sparse.issparse(X) else matrix


# the share of non-zero entries from which a sparse matrix's kernel values
# are computed faster on a dense copy (a product over d entries costs
# about what one over 4 times fewer stored ones, with their indices, does)
DENSE_ENOUGH = 0.25


def working_points(X, cache_size):
    """The points as the solvers read them: a CSR matrix with at least
    DENSE_ENOUGH of its entries stored, whose dense copy fits in
    ``cache_size`` megabytes, as that dense copy (faster, and the same
    kernel values, to the last bit, as a fit on the dense array); any
    other X as it is."""
    if not sparse.issparse(X) or 0 in X.shape:
        return X
    dense_bytes = 8 * X.shape[0] * X.shape[1]
    if X.nnz >= DENSE_ENOUGH * X.shape[0] * X.shape[1] and (
        dense_bytes <= cache_size * MEGABYTE
    ):
        return X.toarray()
    return X


def training_matrix(kernel, X, cache_size=200):
    """The kernel as the estimator keeps it, and the matrix the solvers
    train on: a Kernel with gamma resolved on all of X, and X (densified
    by working_points when that pays); a kernel function, and its Gram
    matrix on X; or "precomputed", and X, which must then be square and
    dense."""
    if isinstance(kernel, Kernel):
        points = working_points(X, cache_size)
        return kernel.resolve(points), points
    if callable(kernel):
        return kernel, kernel_from_callable(
            kernel, X, X, "the training points"
        )
    if sparse.issparse(X):
        # a TypeError, as scikit-learn raises
        raise TypeError(
            "Sparse precomputed kernels are not supported: with "
            "kernel='precomputed', X must be the Gram matrix as a dense "
            "array (use X.toarray())"
        )
    check_square_gram(X)
    return kernel, X


def announce_pair(solver, classes, i, j, n_members):
    """The verbose line that opens the report on the pair of classes i and
    j."""
    print(
        f"[{solver}] class {label_text(classes[i])} (+1) against class "
        f"{label_text(classes[j])} (-1), {n_members} points"
    )


def report_pairs(solver, pairs, problems, results, classes, settings):
    """The pairs' models (members and alpha_t y_t) and results, from
    solvers that trained all pairs together; their reports if verbose."""
    for (i, j), (members, _), result in zip(pairs, problems, results):
        if settings.verbose:
            announce_pair(solver, classes, i, j, members.size)
            print_summary(result, settings.C)
    return [
        (members, result.alpha * y_pair)
        for (members, y_pair), result in zip(problems, results)
    ], results


def train_pairs(
    solver, kernel, data, y_index, classes, settings, seed, bounds=None
):
    """Train the two-class problem of every pair of classes, eq. (eq-ovo).
    ``kernel`` is a Kernel (``data`` holds points) or "precomputed"
    (``data`` is the Gram matrix).  Returns, per pair, the members and their
    coefficients alpha_t y_t, and the SolverResults.  The "batched" solver
    trains many small pairs side by side (solve_pairs_lockstep, from the
    chapter "Scaling up"); "auto" solves them one after the other on blocks
    of one shared Gram matrix (solve_pairs_shared, from the chapter "Fast
    by default") when it fits in the cache.  With ``bounds`` (one C_t per
    point, eq. (eq-weighted-bounds)) each pair is solved on its own, its
    points of weight 0 left out."""
    pairs = class_pairs(classes.size)
    problems = [pair_members(y_index, i, j) for i, j in pairs]
    if bounds is not None:
        problems = [
            (members[bounds[members] > 0], y_pair[bounds[members] > 0])
            for members, y_pair in problems
        ]
    elif solver == "auto" and len(pairs) > 1:
        # a later chapter's module
        from svmlib.training.fast import solve_pairs_shared

        solved = solve_pairs_shared(kernel, data, y_index, pairs, settings)
        if solved is not None:
            return report_pairs(solver, pairs, *solved, classes, settings)
    elif solver == "batched":
        # a later chapter's module
        from svmlib.training.lockstep import (
            lockstep_applies,
            solve_pairs_lockstep,
        )

        if lockstep_applies(problems, y_index.size, settings.cache_size):
            results = solve_pairs_lockstep(kernel, data, problems, settings)
            return report_pairs(
                solver, pairs, problems, results, classes, settings
            )
    seeds = np.random.SeedSequence(seed).spawn(len(pairs))
    models, results = [], []
    for (i, j), (members, y_pair), pair_seed in zip(pairs, problems, seeds):
        subset = (
            data[members]
            if isinstance(kernel, Kernel)
            else data[np.ix_(members, members)]
        )
        if settings.verbose:
            announce_pair(solver, classes, i, j, members.size)
        if bounds is None:
            result = train_binary(
                solver, subset, y_pair, kernel, settings, pair_seed
            )
        else:
            result = train_weighted(
                solver, subset, y_pair, kernel, settings, bounds[members]
            )
        if settings.verbose:
            print_summary(
                result, settings.C if bounds is None else bounds[members]
            )
        models.append((members, result.alpha * y_pair))
        results.append(result)
    return models, results


class _KernelEstimator(BaseEstimator):
    """What every kernel estimator of svmlib shares: the tags (a
    precomputed kernel is pairwise and dense, points may be sparse), the
    checks of the data to predict, and the kernel between new points and
    the support vectors."""

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        precomputed = (
            isinstance(self.kernel, str) and self.kernel == "precomputed"
        )
        tags.input_tags.pairwise = precomputed
        tags.input_tags.sparse = not precomputed
        return tags

    def _checked_prediction_data(self, X):
        """X as a finite float array with the training data's features (for
        a precomputed kernel, one column per training point; for a kernel
        function, points that are not numbers are passed on untouched)."""
        check_is_fitted(self)
        if callable(self._kernel) and not isinstance(self._kernel, Kernel):
            points = kernel_points(X)
            if points is not None:
                return points
        if isinstance(self._kernel, str):
            K = check_array(X, dtype=np.float64, ensure_all_finite=False)
            first_non_finite(K)
            if K.shape[1] != self.n_features_in_:
                raise ValueError(
                    f"X has {K.shape[1]} features, but "
                    f"{type(self).__name__} is expecting "
                    f"{self.n_features_in_} features as input: with "
                    "kernel='precomputed', its columns are the kernel "
                    "values between a point and each of the "
                    f"{self.n_features_in_} training points"
                )
        X = validated_points(self, X, reset=False)
        first_non_finite(X)
        if (
            sparse.issparse(X)
            and isinstance(self._kernel, Kernel)
            and not sparse.issparse(self.support_vectors_)
        ):
            raise ValueError(
                f"cannot use sparse input in {type(self).__name__!r} "
                "trained on dense data (as in scikit-learn): pass "
                "X.toarray(), or fit on sparse data"
            )
        return X

    def _kernel_to_support(self, X):
        """k(x, s_t) between the rows of X and the support vectors (none
        after a fit that ended with every alpha_i = 0: then the decision
        values are the intercepts)."""
        if len(self.support_) == 0:
            return np.zeros((X.shape[0], 0))
        if isinstance(self._kernel, Kernel):
            return self._kernel(X, self.support_vectors_)
        if isinstance(self._kernel, str):
            return X[:, self.support_]
        return kernel_from_callable(
            self._kernel,
            X,
            self.support_vectors_,
            "the points to predict and the support vectors",
        )


class _BaseSVC(ClassifierMixin, _KernelEstimator):
    """What SVC inherits: a constructor that only stores the parameters,
    the checks of the parameters and of the training data, and the storing
    of a fitted model."""

    def __init__(
        self,
        C=1.0,
        kernel="rbf",
        degree=3,
        gamma="scale",
        coef0=0.0,
        tol=1e-3,
        solver="auto",
        cache_size=200,
        shrinking=True,
        max_iter=-1,
        decision_function_shape="ovr",
        break_ties=False,
        random_state=None,
        verbose=False,
        class_weight=None,
        probability="deprecated",
    ):
        self.C = C
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.tol = tol
        self.solver = solver
        self.cache_size = cache_size
        self.shrinking = shrinking
        self.max_iter = max_iter
        self.decision_function_shape = decision_function_shape
        self.break_ties = break_ties
        self.random_state = random_state
        self.verbose = verbose
        self.class_weight = class_weight
        self.probability = probability

    def _checked_parameters(self):
        """The kernel (a Kernel, a function or "precomputed"), the solvers'
        settings and the seed."""
        check_choice("solver", self.solver, tuple(SOLVERS))
        return self._checked_settings(
            check_box_bound(self.C, type(self).__name__)
        )

    def _checked_settings(self, C):
        """The kernel, the solvers' settings with the box bound ``C``, and
        the seed, from the parameters every classifier has."""
        kernel = check_kernel_choice(
            self.kernel, self.gamma, self.degree, self.coef0
        )
        check_choice(
            "decision_function_shape",
            self.decision_function_shape,
            DECISION_SHAPES,
        )
        check_flag("break_ties", self.break_ties)
        settings = SolverSettings(
            C=C,
            tol=check_tol(self.tol),
            max_iter=check_iteration_limit(self.max_iter),
            cache_size=check_positive("cache_size", self.cache_size),
            shrinking=check_flag("shrinking", self.shrinking),
            verbose=check_flag("verbose", self.verbose, integers=True),
        )
        return kernel, settings, check_seed(self.random_state)

    def _check_tie_rule(self):
        """At prediction, as in scikit-learn: ties are broken by the
        "ovr" scores, which "ovo" does not compute."""
        if self.break_ties and self.decision_function_shape == "ovo":
            raise ValueError(
                "break_ties must be False when decision_function_shape is "
                "'ovo' (the 'ovr' scores break the ties)"
            )

    def _checked_training_data(self, X, y):
        """X as a finite float array or CSR matrix, the classes, and each
        label's index among them (checked_classification_data)."""
        return checked_classification_data(self, X, y)

    def _store_model(self, X, y_index, models, intercept, results):
        """The fitted attributes from each pair's members and coefficients
        alpha_t y_t (``models``), offsets and solver results: packed in
        LIBSVM's layout (pack_dual_coef), with the signs of eq.
        (eq-sklearn-binary) for two classes; a ConvergenceWarning if a
        solver stopped early."""
        support, self.n_support_, dual_coef = pack_dual_coef(
            y_index, models, self.classes_.size
        )
        intercept = np.asarray(intercept, dtype=float)
        if self.classes_.size == 2:
            # eq. (eq-sklearn-binary): a positive value means classes_[1]
            dual_coef, intercept = -dual_coef, -intercept
        if not (
            np.isfinite(dual_coef).all() and np.isfinite(intercept).all()
        ):
            raise ValueError(
                "The dual coefficients or intercepts are not finite: the "
                "kernel values overflowed or lost all precision; scale "
                "the features (StandardScaler or MinMaxScaler)"
            )
        self.support_, self.dual_coef_, self.intercept_ = (
            support.astype(np.int32),
            stored_like(X, dual_coef),
            intercept,
        )
        self.support_vectors_ = (
            np.empty((0, 0))
            if isinstance(self._kernel, str)
            else X[support]
        )
        self.n_iter_ = np.array(
            [result.n_iter for result in results], dtype=np.int32
        )
        self.objective_ = np.array([result.objective for result in results])
        self.shape_fit_ = X.shape
        # the gamma in use, under scikit-learn's private name (its tests
        # read it)
        self._gamma = getattr(self._kernel, "gamma", 0.0)
        unfinished = [
            result.status
            for result in results
            if result.status != Status.OPTIMAL
        ]
        self.fit_status_ = int(bool(unfinished))
        if unfinished:
            if Status.MAX_ITER in unfinished:
                remedy = (
                    f"Solver terminated early (max_iter={self.max_iter}).  "
                    "Consider pre-processing your data with StandardScaler "
                    "or MinMaxScaler."
                )
            else:
                remedy = (
                    "it stopped short of its tolerance: "
                    "use solver='smo' for a reliable optimum"
                )
            # NuSVC has no solver parameter: it uses the default
            solver = getattr(self, "solver", "auto")
            warnings.warn(
                f"solver {solver!r} did not reach tol={self.tol} in "
                f"{len(unfinished)} of {len(results)} two-class "
                f"problem(s); the model may be inaccurate ({remedy})",
                ConvergenceWarning,
                stacklevel=3,
            )


class SVC(ProbabilityMixin, _BaseSVC):
    """C-support vector classification, trained by one of the book's
    solvers; a stand-in for sklearn.svm.SVC with the same parameter names,
    defaults, fitted attributes and signs.

    Parameters
    ----------
    C : float, default=1.0
        The box bound of eq. (eq-soft-dual).
    kernel : str or callable, default="rbf"
        "linear", "poly", "rbf", "sigmoid" or "exponential", the kernels
        of eq. (eq-kernels), or "precomputed"; a callable ``kernel(X, Z)``
        returns the matrix k(x_i, z_j).
    degree, gamma, coef0 : kernel parameters, default 3, "scale", 0.0
        gamma: "scale" is 1 / (n_features X.var()), "auto" 1 / n_features,
        or a positive number.
    tol : float, default=1e-3
        The solver's stopping tolerance.
    solver : str, default="auto"
        Which solver trains each two-class problem: "auto" (the fastest
        for the problem, see svmlib.training.fast), "smo", "platt",
        "simplified", "cvxopt" or "batched"; see svmlib.training.solvers.
    cache_size : float, default=200
        Megabytes for the Gram matrix of "auto" (used when it fits), the
        kernel cache of "smo", or the row buffer of "batched" and "auto".
    shrinking : bool, default=True
        Whether the "auto" and "smo" solvers shrink.
    max_iter : int, default=-1
        Iteration limit of the solver per two-class problem; -1 for none.
    decision_function_shape : {"ovr", "ovo"}, default="ovr"
        With more than two classes: one score per class, eq. (eq-ovr-score),
        or one value per pair.
    break_ties : bool, default=False
        With "ovr" and more than two classes, predict the class of the
        largest score rather than the first class with the most votes.
    random_state : None, int, numpy RandomState or Generator, default=None
        Seed of the random choices of the "platt" and "simplified" solvers.
    verbose : bool or int, default=False
        Print the solver's progress and, for each two-class problem,
        LIBSVM's summary.
    class_weight : dict, "balanced" or None, default=None
        Multiplies C for the points of each class, eq.
        (eq-weighted-bounds): a dict from labels to weights (1 for the
        labels it omits), or "balanced", n / (n_classes n_c) for class c.
        Only the solvers "auto", "smo" and "batched" take weights.
    probability : bool or "deprecated", default="deprecated"
        True: also fit LIBSVM's probability model (5-fold cross-validation
        per pair of classes, chapter "Probabilities from an SVM"), for
        predict_proba; deprecated in scikit-learn 1.9, as here (setting it
        warns): prefer CalibratedClassifierCV(SVC(), ensemble=False).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The distinct labels, sorted.
    support_ : ndarray of shape (n_SV,)
        Indices of the support vectors in the training data, grouped by
        class.
    support_vectors_ : ndarray of shape (n_SV, n_features)
        The support vectors (of shape (0, 0) for a precomputed kernel).
    n_support_ : ndarray of shape (n_classes,)
        Number of support vectors of each class.
    dual_coef_ : ndarray or CSR matrix of shape (n_classes - 1, n_SV)
        The coefficients y_t alpha_t in LIBSVM's layout, eq.
        (eq-dual-coef-layout); for two classes the single row of eq.
        (eq-sklearn-binary).
    intercept_ : ndarray of shape (n_pairs,)
        The offset b of each pair's model (n_pairs = n_classes (n_classes -
        1) / 2).
    n_iter_ : ndarray of shape (n_pairs,)
        The iterations of each pair's solver (what an iteration is depends
        on the solver).
    objective_ : ndarray of shape (n_pairs,)
        The dual objective 1/2 a'Qa - sum(a) of each pair's problem at its
        solution.
    fit_status_ : int
        0 if every solver met its stopping rule, else 1 (and a
        ConvergenceWarning was issued).
    class_weight_ : ndarray of shape (n_classes,)
        The weight of each class (all ones without class_weight).
    probA_, probB_ : ndarray of shape (n_pairs,)
        Each pair's sigmoid, eq. (eq-platt-sigmoid) (empty without
        probability=True; deprecated, as in scikit-learn 1.9).
    shape_fit_ : tuple
        The shape of the training data.
    n_features_in_ : int
        Number of features seen in fit.
    """

    def fit(self, X, y, sample_weight=None):
        """Train one two-class SVM per pair of classes (a single one for two
        classes); ``sample_weight`` multiplies C point by point, eq.
        (eq-weighted-bounds), and a point of weight 0 is left out.  Returns
        self."""
        kernel, settings, seed = self._checked_parameters()
        X, self.classes_, y_index = self._checked_training_data(X, y)
        bounds, self.class_weight_ = weighted_bounds(
            settings.C,
            self.class_weight,
            sample_weight,
            self.classes_,
            y_index,
            self.solver,
        )
        self._kernel, data = training_matrix(kernel, X, settings.cache_size)
        solver_kernel = (
            self._kernel
            if isinstance(self._kernel, Kernel)
            else "precomputed"
        )
        models, results = train_pairs(
            self.solver,
            solver_kernel,
            data,
            y_index,
            self.classes_,
            settings,
            seed,
            bounds,
        )
        intercept = [result.b for result in results]
        self._store_model(X, y_index, models, intercept, results)
        self._fit_probability(
            X,
            y_index,
            np.ones(y_index.size)
            if bounds is None
            else bounds / settings.C,
            seed,
        )
        return self

    def _pair_decisions(self, X):
        """f_ij(x) for every pair of classes, one column each, positive for
        the pair's first class (for two classes: positive for classes_[1]);
        the kernel is computed a block of rows at a time."""
        return self._decisions_of(self._checked_prediction_data(X))

    def _decisions_of(self, X):
        """_pair_decisions of an X already checked (the search of the
        chapter "Choosing C and gamma" scores many models on one block of
        kernel rows, checked once)."""
        coef = unpack_dual_coef(
            dense_rows(self.dual_coef_), self.n_support_
        )
        rows_per_block = max(
            1, PREDICTION_BLOCK_BYTES // (8 * max(coef.shape[1], 1))
        )
        decisions = np.empty((X.shape[0], coef.shape[0]))
        for start in range(0, X.shape[0], rows_per_block):
            block = slice(start, start + rows_per_block)
            decisions[block] = (
                self._kernel_to_support(X[block]) @ coef.T + self.intercept_
            )
        return decisions

    def decision_function(self, X):
        """Two classes: f(x) of eq. (eq-sklearn-binary), positive for
        classes_[1].  More: one score per class ("ovr", eq. (eq-ovr-score))
        or f_ij(x) for each pair ("ovo")."""
        decisions = self._pair_decisions(X)
        if self.classes_.size == 2:
            return decisions[:, 0]
        if self.decision_function_shape == "ovo":
            return decisions
        return ovr_scores(decisions, self.classes_.size)

    def predict(self, X):
        """The class of each row of X: classes_[1] where f >= 0 for two
        classes (eq. (eq-sklearn-binary)), else by the vote of eq.
        (eq-vote), or by the largest score with break_ties=True."""
        self._check_tie_rule()
        return self._labels_of(self._pair_decisions(X))

    def _labels_of(self, decisions):
        """predict's classes from the pairs' decision values."""
        n_classes = self.classes_.size
        if n_classes == 2:
            return self.classes_[(decisions[:, 0] >= 0).astype(int)]
        if self.break_ties:
            return self.classes_[
                np.argmax(ovr_scores(decisions, n_classes), axis=1)
            ]
        return self.classes_[vote(decisions, n_classes)]

    @property
    def coef_(self):
        """w = sum_t alpha_t y_t s_t of each pair's model, shape (n_pairs,
        n_features), sparse after a sparse fit; linear kernel only."""
        if not (isinstance(self.kernel, str) and self.kernel == "linear"):
            raise AttributeError("coef_ exists only for kernel='linear'")
        check_is_fitted(self)
        coef = (
            unpack_dual_coef(dense_rows(self.dual_coef_), self.n_support_)
            @ self.support_vectors_
        )
        if sparse.issparse(self.support_vectors_):
            return sparse.csr_matrix(coef)
        coef.flags.writeable = False
        return coef
