"""Probabilities from an SVM (chapter "Probabilities from an SVM"):
svmlib.probability.calibration's sigmoid and svmlib.probability.coupling's
pairwise coupling,
against independent answers: scipy's minimiser of Platt's objective written
separately, scikit-learn's sigmoid calibrator, the direct solution of the
coupling's linear system, LIBSVM 3.37's own probability outputs, and
scikit-learn's CalibratedClassifierCV around sklearn.svm.SVC; bad input
refused with a ValueError that names the problem.
"""

import warnings

import numpy as np
import pytest
from libsvm.svmutil import svm_predict, svm_train
from scipy.optimize import minimize
from scipy.special import expit
from sklearn import svm
from sklearn.calibration import CalibratedClassifierCV, _SigmoidCalibration
from sklearn.datasets import (
    load_breast_cancer,
    load_iris,
    load_wine,
    make_classification,
)
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics import log_loss
from sklearn.model_selection import (
    StratifiedKFold,
    cross_val_predict,
    train_test_split,
)
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import svmlib
from svmlib.probability import calibration
from svmlib.probability.calibration import (
    SigmoidFit,
    fit_sigmoid,
    platt_objective,
    platt_targets,
    sigmoid_and_complement,
    sigmoid_probability,
)
from svmlib.probability.coupling import (
    MIN_PAIR_PROBABILITY,
    coupling_matrix,
    pair_sigmoids,
    pairwise_coupling,
    pairwise_probabilities,
)

# how close the wrapper around svmlib's SVC must come to the wrapper
# around scikit-learn's, in held-out log-loss
LOG_LOSS_AGREEMENT = 0.03


def score_sets():
    """Decision values and labels of several kinds, each with a name."""
    rng = np.random.default_rng(0)
    overlap = np.r_[rng.normal(1, 1, 150), rng.normal(-1, 1, 120)]
    separable = np.r_[rng.uniform(0.5, 3, 40), rng.uniform(-3, -0.5, 35)]
    unbalanced = np.r_[rng.normal(1.5, 1, 12), rng.normal(-1, 1, 300)]
    reversed_ = np.r_[rng.normal(-1, 1, 50), rng.normal(1, 1, 50)]
    return {
        "overlapping": (overlap, np.r_[np.ones(150), -np.ones(120)]),
        "separable": (separable, np.r_[np.ones(40), -np.ones(35)]),
        "unbalanced": (unbalanced, np.r_[np.ones(12), -np.ones(300)]),
        "reversed, labels 1 and 0": (
            reversed_,
            np.r_[np.ones(50), np.zeros(50)],
        ),
        "tiny": (np.array([-0.4, 0.1, 0.3]), np.array([-1, 1, 1])),
    }


def targets_of(y):
    """Platt's targets written out again, independently of svmlib."""
    positive = np.asarray(y) == 1
    n_positive, n_negative = positive.sum(), (~positive).sum()
    return np.where(
        positive, (n_positive + 1) / (n_positive + 2), 1 / (n_negative + 2)
    )


def objective_of(A, B, scores, targets):
    """Platt's cross-entropy by numpy's logaddexp (not svmlib's form)."""
    Z = A * scores + B
    return np.sum(np.logaddexp(0.0, Z) - (1.0 - targets) * Z)


def minimise_independently(scores, y):
    """(A, B) and the minimum of Platt's objective by scipy's BFGS with
    the gradient written here, from (0, 0)."""
    targets = targets_of(y)

    def value_and_gradient(AB):
        Z = AB[0] * scores + AB[1]
        P = 0.5 * (1.0 - np.tanh(0.5 * Z))  # 1 / (1 + e^Z)
        residual = targets - P
        return objective_of(*AB, scores, targets), np.array(
            [residual @ scores, residual.sum()]
        )

    found = minimize(
        value_and_gradient,
        [0.0, 0.0],
        jac=True,
        method="BFGS",
        options={"gtol": 1e-10},
    )
    return found.x, found.fun


@pytest.mark.parametrize("name", list(score_sets()))
def test_the_sigmoid_minimises_platts_objective(name):
    scores, y = score_sets()[name]
    fit = fit_sigmoid(scores, y, tol=1e-9)
    (A, B), minimum = minimise_independently(scores, y)
    assert fit.A == pytest.approx(A, rel=1e-5, abs=1e-7)
    assert fit.B == pytest.approx(B, rel=1e-5, abs=1e-7)
    assert fit.objective == pytest.approx(minimum, rel=1e-11)
    assert fit.objective == pytest.approx(
        objective_of(fit.A, fit.B, scores, targets_of(y)), rel=1e-12
    )


@pytest.mark.parametrize("name", ["overlapping", "separable", "unbalanced"])
def test_the_sigmoid_is_scikit_learns(name):
    """scikit-learn 1.9.1's calibrator minimises the same objective, with
    Platt's targets, by L-BFGS-B. _SigmoidCalibration is a private class
    of scikit-learn; requirements.txt pins the version it is checked in."""
    scores, y = score_sets()[name]
    fit = fit_sigmoid(scores, y)
    theirs = _SigmoidCalibration().fit(scores, (y == 1).astype(int))
    assert fit.A == pytest.approx(theirs.a_, rel=1e-4)
    assert fit.B == pytest.approx(theirs.b_, rel=1e-4, abs=1e-5)
    P = fit.probability(scores)
    np.testing.assert_allclose(P, theirs.predict(scores), atol=1e-5)


@pytest.mark.parametrize("value", [0.0, 0.7, -2.5])
def test_equal_scores_give_the_mean_target(value):
    """With all scores equal only A f + B is determined: the probability
    is the mean target, and the objective is the one-parameter minimum."""
    y = np.r_[np.ones(7), -np.ones(23)]
    fit = fit_sigmoid(np.full(30, value), y)
    mean = targets_of(y).mean()
    assert fit.probability([value])[0] == pytest.approx(mean, rel=1e-6)
    exact = -np.sum(
        targets_of(y) * np.log(mean)
        + (1 - targets_of(y)) * np.log(1 - mean)
    )
    assert fit.objective == pytest.approx(exact, rel=1e-12)


def test_the_line_search_is_needed_and_used(monkeypatch):
    """Two positives far from 2,000 negatives: from the start the full
    Newton step overshoots (with full steps the slope runs off to about
    -1e14), so the fit needs the halved steps of the line search; it must
    still reach the independent minimiser, without a warning."""
    rng = np.random.default_rng(0)
    scores = np.r_[rng.normal(3, 0.3, 2), rng.normal(-1, 0.3, 2000)]
    y = np.r_[np.ones(2), -np.ones(2000)]
    steps = []
    original = calibration.backtrack

    def recording(A, B, objective, direction, *rest):
        found = original(A, B, objective, direction, *rest)
        if found is not None:
            steps.append((found[1] - B) / direction[1])
        return found

    monkeypatch.setattr(calibration, "backtrack", recording)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fit = fit_sigmoid(scores, y, tol=1e-9)
    (A, B), minimum = minimise_independently(scores, y)
    assert fit.A == pytest.approx(A, rel=1e-6)
    assert fit.B == pytest.approx(B, rel=1e-6)
    assert fit.objective == pytest.approx(minimum, rel=1e-11)
    assert len(steps) == fit.n_iter
    assert min(steps) <= 0.5  # at least one step was shortened
    assert steps[-1] == pytest.approx(1.0)  # full steps near the end


def test_lin_lin_and_wengs_constants():
    """The settings of LIBSVM's sigmoid_train, which the tests of the fit
    alone would not pin down."""
    assert calibration.GRADIENT_TOL == 1e-5
    assert calibration.NEWTON_MAX_ITER == 100
    assert calibration.HESSIAN_RIDGE == 1e-12
    assert calibration.SUFFICIENT_DECREASE == 1e-4
    assert calibration.MIN_STEP == 1e-10


def test_a_newton_step_too_small_to_see_stops_without_a_warning():
    """With a tolerance below what the objective's precision can resolve,
    the fit stops when the slope along the Newton step is below 64
    machine epsilons of F: no warning, F at its minimum to working
    precision, although the gradient is still above tol."""
    rng = np.random.default_rng(0)
    scores = rng.normal(size=3000)
    y = np.where(scores + rng.normal(size=3000) > 0, 1, -1)
    scores /= np.abs(scores).max()  # so that tol applies to these scores
    tol = 1e-11
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fit = fit_sigmoid(scores, y, tol=tol)
    residual = targets_of(y) - expit(-(fit.A * scores + fit.B))
    gradient = np.array([residual @ scores, residual.sum()])
    assert np.abs(gradient).max() > tol
    assert fit.n_iter < calibration.NEWTON_MAX_ITER
    (A, B), minimum = minimise_independently(scores, y)
    assert fit.objective <= minimum * (1 + 64 * np.finfo(float).eps)
    assert fit.A == pytest.approx(A, rel=1e-7)
    assert fit.B == pytest.approx(B, rel=1e-6, abs=1e-8)


def test_a_line_search_that_finds_no_step_warns(monkeypatch):
    """If no step down to MIN_STEP decreases the objective (here: the
    shortest step allowed is longer than the full step), the fit stops
    where it is, with a warning that says why."""
    scores, y = score_sets()["overlapping"]
    monkeypatch.setattr(calibration, "MIN_STEP", 2.0)
    with pytest.warns(ConvergenceWarning, match="no step along the Newton"):
        fit = fit_sigmoid(scores, y)
    assert fit.n_iter == 0
    assert fit.A == 0.0
    assert fit.B == pytest.approx(np.log(121 / 151), rel=1e-15)


def test_boolean_labels_are_the_positive_class():
    scores, y = score_sets()["overlapping"]
    assert fit_sigmoid(scores, y == 1) == fit_sigmoid(scores, y)
    np.testing.assert_array_equal(platt_targets(y == 1), platt_targets(y))


def test_targets_zero_and_one_let_the_slope_grow_without_bound():
    scores = np.array([-3.0, -2.0, -1.0, 1.0, 2.0, 3.0])
    y = np.array([-1, -1, -1, 1, 1, 1])
    slopes = [
        fit_sigmoid(scores, y, corrected_targets=False, tol=tol).A
        for tol in (1e-3, 1e-6, 1e-9)
    ]
    assert slopes[0] > slopes[1] + 3 > slopes[2] + 6
    corrected = [fit_sigmoid(scores, y, tol=tol).A for tol in (1e-3, 1e-9)]
    assert corrected[0] == pytest.approx(corrected[1], rel=1e-3)


def test_platts_targets():
    y = np.array([1, 1, 1, -1, 1, -1])
    np.testing.assert_allclose(
        platt_targets(y), [5 / 6, 5 / 6, 5 / 6, 1 / 4, 5 / 6, 1 / 4]
    )
    np.testing.assert_array_equal(
        platt_targets(np.array([1, 0, 0])),
        [
            2 / 3,
            1 / 4,
            1 / 4,
        ],
    )


@pytest.mark.parametrize("scale", [1e6, 1e150, 1e300])
def test_huge_scores_neither_overflow_nor_change_the_probabilities(scale):
    scores, y = score_sets()["overlapping"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        reference = fit_sigmoid(scores, y)
        huge = fit_sigmoid(scores * scale, y)
        P = huge.probability(scores * scale)
    assert huge.A * scale == pytest.approx(reference.A, rel=1e-9)
    assert huge.B == pytest.approx(reference.B, rel=1e-9)
    np.testing.assert_allclose(P, reference.probability(scores), rtol=1e-9)


@pytest.mark.parametrize("scale", [1e-4, 1e-8, 1e-300])
def test_tiny_scores_give_the_same_probabilities(scale):
    """The scores are divided by their largest absolute value whatever it
    is, so scores of order 1e-8 are fitted as well as those of order 1
    (without the division, 1e-8 stops at max_iter with half the slope)."""
    scores, y = score_sets()["overlapping"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        reference = fit_sigmoid(scores, y)
        tiny = fit_sigmoid(scores * scale, y)
        P = tiny.probability(scores * scale)
    assert tiny.A * scale == pytest.approx(reference.A, rel=1e-9)
    assert tiny.B == pytest.approx(reference.B, rel=1e-9)
    assert tiny.n_iter == reference.n_iter
    np.testing.assert_allclose(P, reference.probability(scores), rtol=1e-9)


def test_all_scores_zero_keep_the_unit_scale():
    y = np.r_[np.ones(3), -np.ones(5)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fit = fit_sigmoid(np.zeros(8), y)
    mean = targets_of(y).mean()
    assert np.isfinite(fit.A)
    assert fit.probability(0.0) == pytest.approx(mean, rel=1e-7)


def test_one_score_gives_a_float():
    fit = SigmoidFit(-2.0, 0.5, np.nan, 0)
    P = fit.probability(0.3)
    assert isinstance(P, float)
    assert P == fit.probability([0.3])[0] == 1 / (1 + np.exp(-0.6 + 0.5))
    assert sigmoid_probability(np.float64(0.3), -2.0, 0.5) == P


def test_the_sigmoid_and_its_complement_are_both_accurate():
    """Neither P nor 1 - P is computed by a subtraction from 1, so both
    keep their relative accuracy where they are tiny."""
    Z = np.array([-700.0, -40.0, -1.0, 0.0, 1.0, 40.0, 700.0])
    P, one_minus_P = sigmoid_and_complement(Z)
    np.testing.assert_allclose(P, expit(-Z), rtol=1e-14, atol=0)
    np.testing.assert_allclose(one_minus_P, expit(Z), rtol=1e-14, atol=0)
    assert one_minus_P[1] == pytest.approx(np.exp(-40.0), rel=1e-14)


def test_the_objective_and_the_probability_are_stable_at_extreme_values():
    Z = np.array([-1e4, -800.0, -40.0, 0.0, 40.0, 800.0, 1e4])
    targets = np.full(Z.size, 0.9)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        terms = [
            platt_objective(1.0, 0.0, np.array([z]), np.array([t]))
            for z, t in zip(Z, targets)
        ]
        P = sigmoid_probability(Z, 1.0, 0.0)
        # A f overflows to -inf: the probability is 1, without a warning
        assert sigmoid_probability([1e308], -10.0, 0.0)[0] == 1.0
        assert sigmoid_probability([1e308], 10.0, 0.0)[0] == 0.0
    np.testing.assert_allclose(
        terms, np.logaddexp(0.0, Z) - 0.1 * Z, rtol=1e-14
    )
    assert np.all(np.isfinite(terms))
    # 1 / (1 + e^Z) against scipy's logistic function, down to e^-1e4 = 0
    np.testing.assert_allclose(P, expit(-Z), rtol=1e-14, atol=0)
    assert P[0] == 1.0 and P[-1] == 0.0
    assert P[4] == pytest.approx(np.exp(-40.0), rel=1e-14)


@pytest.mark.parametrize(
    "scores, y, message",
    [
        ([0.1, 0.2, 0.3], [1, -1], "3 values but y has shape"),
        ([0.1, 0.2], [1, 1], "only the label 1"),
        ([0.1, 0.2], [0, 0], "only the label 0"),
        ([0.1, np.nan], [1, -1], "NaN or infinite"),
        ([0.1, np.inf], [1, -1], "NaN or infinite"),
        ([0.1, 0.2], [1, 2], "labels \\+1 and -1"),
        ([0.1, 0.2], [-1, 0], "labels \\+1 and -1"),
        ([0.1, 0.2], ["a", "b"], "dtype"),
        ([[0.1, 0.2]], [1, -1], "1-D array"),
        (["x", "y"], [1, -1], "numbers"),
        ([], [], "no labels"),
    ],
)
def test_bad_input_is_refused_by_name(scores, y, message):
    with pytest.raises(ValueError, match=message):
        fit_sigmoid(scores, y)


def test_bad_settings_are_refused_and_a_short_run_warns():
    scores, y = score_sets()["overlapping"]
    with pytest.raises(ValueError, match="tol must be a positive"):
        fit_sigmoid(scores, y, tol=0)
    with pytest.raises(ValueError, match="max_iter must be a positive"):
        fit_sigmoid(scores, y, max_iter=0)
    with pytest.raises(ValueError, match="A must be a finite number"):
        sigmoid_probability(scores, np.nan, 0.0)
    for flag in ("no", 1, None):
        with pytest.raises(ValueError, match="corrected_targets must be"):
            fit_sigmoid(scores, y, corrected_targets=flag)
    with pytest.warns(ConvergenceWarning, match="max_iter=1"):
        short = fit_sigmoid(scores, y, max_iter=1)
    assert short.n_iter == 1
    assert short.objective > fit_sigmoid(scores, y).objective


# CalibratedClassifierCV around svmlib's SVC and around scikit-learn's


def calibration_data():
    cancer = load_breast_cancer(return_X_y=True)
    synthetic = make_classification(
        600, n_features=10, n_informative=4, flip_y=0.05, random_state=1
    )
    return {
        "breast cancer": cancer,
        "synthetic": synthetic,
        "iris": load_iris(return_X_y=True),
    }


@pytest.mark.parametrize("name", list(calibration_data()))
@pytest.mark.parametrize("method", ["sigmoid", "isotonic"])
def test_the_wrapper_around_svmlib_matches_the_one_around_libsvm(
    name, method
):
    X, y = calibration_data()[name]
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, test_size=0.3, random_state=0, stratify=y
    )
    losses, probabilities = [], []
    for svc in (svmlib.SVC(), svm.SVC()):
        model = CalibratedClassifierCV(
            make_pipeline(StandardScaler(), svc),
            method=method,
            ensemble=False,
        ).fit(X_train, y_train)
        P = model.predict_proba(X_test)
        probabilities.append(P)
        losses.append(log_loss(y_test, P))
    assert abs(losses[0] / losses[1] - 1) < LOG_LOSS_AGREEMENT
    ours = probabilities[0]
    assert np.all(ours >= 0) and np.all(ours <= 1)
    np.testing.assert_allclose(ours.sum(axis=1), 1.0, atol=1e-12)
    if method == "sigmoid":  # better than the share of each class
        shares = np.bincount(y_train) / y_train.size
        baseline = log_loss(y_test, np.tile(shares, (y_test.size, 1)))
        assert losses[0] < 0.5 * baseline


def test_the_wrappers_sigmoid_is_fit_sigmoid_on_its_held_out_scores():
    X, y = load_breast_cancer(return_X_y=True)
    model = make_pipeline(StandardScaler(), svmlib.SVC())
    wrapper = CalibratedClassifierCV(model, ensemble=False).fit(X, y)
    held_out = cross_val_predict(
        model, X, y, cv=StratifiedKFold(5), method="decision_function"
    )
    fit = fit_sigmoid(held_out, y)
    inside = wrapper.calibrated_classifiers_[0].calibrators[0]
    assert fit.A == pytest.approx(inside.a_, rel=1e-4)
    assert fit.B == pytest.approx(inside.b_, rel=1e-4, abs=1e-5)


# pairwise coupling


def direct_solution(R):
    """The coupling's linear system, eq. (eq-coupling-system), built from
    its definition and solved by numpy."""
    k = R.shape[0]
    Gamma = np.zeros((k, k))
    for c in range(k):
        for j in range(k):
            if j != c:
                Gamma[c, c] += R[j, c] ** 2
                Gamma[c, j] = -R[j, c] * R[c, j]
    system = np.block([[Gamma, np.ones((k, 1))], [np.ones((1, k)), 0.0]])
    return np.linalg.solve(system, np.r_[np.zeros(k), 1.0])[:k]


def random_pairwise(k, rng, low=0.01):
    upper = np.triu(rng.uniform(low, 1 - low, size=(k, k)), 1)
    R = upper + np.tril(1 - upper.T, -1)
    np.fill_diagonal(R, rng.uniform(size=k))  # ignored
    return R


@pytest.mark.parametrize("k", [2, 3, 4, 6, 10])
def test_coupling_solves_the_linear_system(k):
    rng = np.random.default_rng(k)
    R = np.array([random_pairwise(k, rng) for _ in range(50)])
    P = pairwise_coupling(R)
    expected = np.array([direct_solution(r) for r in R])
    np.testing.assert_allclose(P, expected, atol=1e-9)
    assert np.all(P >= 0)
    np.testing.assert_allclose(P.sum(axis=1), 1.0, atol=1e-12)
    # one matrix at a time gives the same answer
    np.testing.assert_allclose(pairwise_coupling(R[0]), P[0], atol=1e-12)


@pytest.mark.parametrize("k", [3, 5, 8])
def test_consistent_pairwise_probabilities_are_recovered(k):
    rng = np.random.default_rng(10 + k)
    truth = rng.dirichlet(np.ones(k), size=30)
    R = truth[:, :, None] / (truth[:, :, None] + truth[:, None, :])
    np.testing.assert_allclose(pairwise_coupling(R), truth, atol=1e-9)
    objective = np.einsum("nc,ncj,nj->n", truth, coupling_matrix(R), truth)
    assert np.abs(objective).max() < 1e-14


def test_extreme_pairwise_probabilities():
    rng = np.random.default_rng(3)
    values = [MIN_PAIR_PROBABILITY, 1 - MIN_PAIR_PROBABILITY, 0.5, 1e-3]
    for k in (3, 7):
        for _ in range(20):
            upper = np.triu(rng.choice(values, size=(k, k)), 1)
            R = upper + np.tril(1 - upper.T, -1)
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                P = pairwise_coupling(R)
            np.testing.assert_allclose(P, direct_solution(R), atol=1e-8)


def test_two_classes_give_the_pairs_probability():
    """For k = 2 the answer is (R_01, R_10) itself, bit for bit, as LIBSVM
    returns it (and the direct solution agrees)."""
    rng = np.random.default_rng(2)
    R = np.array([random_pairwise(2, rng, low=1e-7) for _ in range(100)])
    P = pairwise_coupling(R)
    np.testing.assert_array_equal(P, np.stack([R[:, 0, 1], R[:, 1, 0]], 1))
    np.testing.assert_array_equal(pairwise_coupling(R[0]), P[0])
    expected = np.array([direct_solution(r) for r in R])
    np.testing.assert_allclose(P, expected, atol=1e-12)


def test_libsvms_clip_constant():
    """LIBSVM's min_prob in svm_predict_probability; the fast tests would
    pass with other values, the comparison with LIBSVM only on data that
    reach the clip."""
    assert MIN_PAIR_PROBABILITY == 1e-7
    sigmoids = [SigmoidFit(-1.0, 0.0, 0.0, 0)]
    R = pairwise_probabilities(np.array([[50.0], [-50.0]]), sigmoids)
    np.testing.assert_array_equal(R[:, 0, 1], [1 - 1e-7, 1e-7])


@pytest.mark.parametrize(
    "R, message",
    [
        (np.array([[0, 0.3], [0.6, 0]]), "R_ij \\+ R_ji must be 1"),
        (np.array([[0, 1.0], [0.0, 0]]), "strictly between 0 and 1"),
        (np.array([[0, np.nan], [0.5, 0]]), "strictly between 0 and 1"),
        (np.array([[0.5]]), "k >= 2"),
        (np.zeros((2, 3)), "k x k"),
        (np.zeros((2, 2, 2, 2)), "k x k"),
        ([[0, "a"], ["b", 0]], "numbers"),
        (np.zeros((0, 3, 3)), "empty stack"),
    ],
)
def test_invalid_pairwise_probabilities_are_refused(R, message):
    with pytest.raises(ValueError, match=message):
        pairwise_coupling(R)


def test_a_short_coupling_warns():
    R = random_pairwise(6, np.random.default_rng(4))
    with pytest.warns(ConvergenceWarning, match="residual"):
        pairwise_coupling(R, max_iter=1)


@pytest.mark.parametrize("load", [load_breast_cancer, load_iris, load_wine])
def test_coupling_reproduces_libsvms_probabilities(load):
    """LIBSVM 3.37 trained with -b 1 stores each pair's sigmoid; with its
    pairwise decision values and its tolerance 0.005 / k, svmlib's
    functions give LIBSVM's own probabilities. For two classes (breast
    cancer) LIBSVM returns the pair's clipped sigmoid, and so does svmlib,
    whatever the tolerance."""
    X, y = load(return_X_y=True)
    X = StandardScaler().fit_transform(X).tolist()
    model = svm_train(y.tolist(), X, "-b 1 -q")
    k = len(model.get_labels())
    assert model.get_labels() == list(range(k))
    sigmoids = [
        SigmoidFit(model.probA[p], model.probB[p], np.nan, 0)
        for p in range(k * (k - 1) // 2)
    ]
    _, _, decisions = svm_predict(y.tolist(), X, model, "-q")
    _, _, expected = svm_predict(y.tolist(), X, model, "-b 1 -q")
    R = pairwise_probabilities(np.array(decisions), sigmoids)
    P = pairwise_coupling(R, tol=0.005 / k)
    np.testing.assert_allclose(P, expected, atol=1e-12)
    if k == 2:
        np.testing.assert_allclose(
            pairwise_coupling(R), expected, atol=1e-15
        )


def test_pair_sigmoids_and_the_coupled_probabilities_of_an_svc():
    X, y = load_iris(return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, test_size=0.3, random_state=0, stratify=y
    )
    model = make_pipeline(
        StandardScaler(), svmlib.SVC(decision_function_shape="ovo")
    )
    held_out = cross_val_predict(
        model, X_train, y_train, cv=5, method="decision_function"
    )
    sigmoids = pair_sigmoids(held_out, y_train, 3)
    assert len(sigmoids) == 3 and all(s.A < 0 for s in sigmoids)
    # the pair (0, 2) is fitted on the points of classes 0 and 2 only
    members = (y_train == 0) | (y_train == 2)
    alone = fit_sigmoid(
        held_out[members, 1], np.where(y_train[members] == 0, 1, -1)
    )
    assert sigmoids[1] == alone
    model.fit(X_train, y_train)
    decisions = model.decision_function(X_test)
    R = pairwise_probabilities(decisions, sigmoids)
    off = ~np.eye(3, dtype=bool)
    assert np.all(R[:, off] >= MIN_PAIR_PROBABILITY)
    np.testing.assert_allclose((R + R.transpose(0, 2, 1))[:, off], 1.0)
    # R_ij > 1/2 exactly where f_ij > -B/A, as the sigmoid says
    for column, (i, j) in enumerate([(0, 1), (0, 2), (1, 2)]):
        threshold = -sigmoids[column].B / sigmoids[column].A
        np.testing.assert_array_equal(
            R[:, i, j] > 0.5, decisions[:, column] > threshold
        )
    P = pairwise_coupling(R)
    assert log_loss(y_test, P) < 0.25
    assert np.mean(P.argmax(axis=1) == y_test) > 0.9


def fitted_sigmoids():
    return [SigmoidFit(-1.0, 0.0, 0.0, 0)] * 3


@pytest.mark.parametrize(
    "call, message",
    [
        (
            lambda: pair_sigmoids(np.zeros((4, 3)), [0, 1, 2, 5], 3),
            "classes 0 to 2 \\(n_classes=3\\); it contains 5",
        ),
        (
            lambda: pair_sigmoids(np.zeros((4, 3)), [0, 1, -1, 2], 3),
            "it contains -1",
        ),
        (
            lambda: pair_sigmoids(
                np.zeros((4, 3)), ["a", "b", "c", "a"], 3
            ),
            "integer classes 0 to 2",
        ),
        (
            lambda: pair_sigmoids(np.zeros((4, 3)), [0.0, 1, 2, 0], 3),
            "integer classes",
        ),
        (
            lambda: pair_sigmoids(np.zeros((4, 3)), [0, 1, 2, 0], 3.0),
            "n_classes must be an integer",
        ),
        (
            lambda: pair_sigmoids(np.zeros((4, 0)), [0, 0, 0, 0], 1),
            "n_classes must be an integer k >= 2",
        ),
        (
            lambda: pair_sigmoids(np.zeros((4, 1)), [0, 1, 1, 0], True),
            "n_classes must be an integer",
        ),
        (
            lambda: pair_sigmoids(np.zeros((4, 3)), [0, 1, 1, 0], 3),
            "pair of classes \\(0, 2\\) has no point of class 2",
        ),
        (
            lambda: pair_sigmoids([["a", "b", "c"]], [0], 3),
            "decisions must be numbers",
        ),
        (
            lambda: pairwise_probabilities(
                [["a", "b", "c"]], fitted_sigmoids()
            ),
            "decisions must be numbers",
        ),
        (
            lambda: pairwise_probabilities(
                [[0.0, np.nan, 1.0]], fitted_sigmoids()
            ),
            "decisions contain NaN",
        ),
        (
            lambda: pairwise_probabilities(
                [[0.0, 0.0, 0.0]], (s for s in fitted_sigmoids())
            ),
            "sigmoids must be a list of SigmoidFit",
        ),
        (
            lambda: pairwise_probabilities(
                [[0.0, 0.0, 0.0]],
                [
                    _SigmoidCalibration().fit(
                        np.array([-1.0, 1.0, 2.0]), np.array([0, 1, 1])
                    )
                ]
                * 3,
            ),
            "sigmoids\\[0\\] must be a SigmoidFit; got a _Sigmoid",
        ),
    ],
)
def test_bad_pairwise_inputs_are_refused_by_name(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_pairwise_inputs_are_checked():
    sigmoids = [SigmoidFit(-1.0, 0.0, 0.0, 0)] * 3
    with pytest.raises(ValueError, match="one column per pair"):
        pairwise_probabilities(np.zeros((4, 2)), sigmoids)
    with pytest.raises(ValueError, match="not the number of pairs"):
        pairwise_probabilities(np.zeros((4, 2)), sigmoids[:2])
    with pytest.raises(ValueError, match="one class per row"):
        pair_sigmoids(np.zeros((4, 3)), np.zeros(5, dtype=int), 3)
    huge = pairwise_probabilities(np.array([[1e6, -1e6, 0.0]]), sigmoids)
    assert huge[0, 0, 1] == 1 - MIN_PAIR_PROBABILITY
    assert huge[0, 0, 2] == MIN_PAIR_PROBABILITY
