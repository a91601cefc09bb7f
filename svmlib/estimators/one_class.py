# Generated from chapters/regression_novelty.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""OneClassSVM: novelty detection by one QP (chapter "Regression and
novelty detection")."""

import numpy as np
from sklearn.base import OutlierMixin

from svmlib.estimators.one_problem import _OneProblemModel
from svmlib.formulations.svr_one_class import check_nu, one_class_problem


class OneClassSVM(OutlierMixin, _OneProblemModel):
    """The one-class SVM of Schölkopf et al., eq. (eq-one-class-primal),
    trained by the default solver on eq. (eq-one-class-core); a stand-in
    for sklearn.svm.OneClassSVM: score_samples(x) = ``dual_coef_``
    k(``support_vectors_``, x), decision_function = score_samples -
    ``offset_`` with ``offset_`` = rho = -``intercept_``; predict gives +1
    (inside) or -1."""

    def __init__(
        self,
        *,
        kernel="rbf",
        degree=3,
        gamma="scale",
        coef0=0.0,
        tol=1e-3,
        nu=0.5,
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
        self.nu = nu
        self.shrinking = shrinking
        self.cache_size = cache_size
        self.verbose = verbose
        self.max_iter = max_iter

    def fit(self, X, y=None, sample_weight=None):
        """Solve eq. (eq-one-class-core) for the points X (y is ignored; a
        point of sample weight w has the bound w, and of weight 0 is left
        out); returns self."""
        nu = check_nu(self.nu)
        kernel = self._checked_kernel()
        X, _ = self._checked_points(X)
        result, kept = self._solve(
            lambda data, rows, weights, kept: one_class_problem(
                data, nu, rows, weights
            ),
            X,
            kernel,
            sample_weight,
        )
        self._store(X, result.alpha, result, kept)
        self.offset_ = -self.intercept_
        return self

    def score_samples(self, X):
        """sum_t alpha_t k(x_t, x) for every row of X: larger inside."""
        return self._raw_values(X)

    def decision_function(self, X):
        """score_samples - rho, eq. (eq-one-class-decision): positive
        inside the learned region."""
        return self.score_samples(X) - self.offset_[0]

    def predict(self, X):
        """+1 where decision_function > 0 (inside), else -1, as LIBSVM."""
        return np.where(self.decision_function(X) > 0, 1, -1)
