"""Chapter "Scaling up", many small problems side by side:
svmlib.training.lockstep
against solve_block on each problem alone, against objectives computed from
scratch, and against the estimator's pair-by-pair path."""

import numpy as np
import pytest
from sklearn.datasets import load_wine, make_classification
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.preprocessing import StandardScaler

from svmlib import SVC, Kernel, Status
from svmlib.formulations.multiclass import class_pairs, pair_members
from svmlib.kernels.kernel_rows import KernelRows
from svmlib.training.batched import BATCH_SIZE, solve_block
from svmlib.training.lockstep import (
    lockstep_applies,
    solve_lockstep,
    solve_pairs_lockstep,
)
from svmlib.training.solvers import SolverSettings


def wine():
    """Three classes of unequal sizes (59, 71, 48), so the problems are
    padded to different widths."""
    X, y = load_wine(return_X_y=True)
    return StandardScaler().fit_transform(X), y


def gram(X, gamma=0.1):
    return KernelRows(Kernel("rbf", gamma=gamma), X).compute(
        np.arange(len(X)), np.empty((len(X), len(X)))
    )


@pytest.mark.parametrize("C", [0.05, 2.0, 100.0])
def test_each_problem_is_solved_as_solve_block_solves_it_alone(C):
    X, y = wine()
    K = gram(X)
    problems = [pair_members(y, a, b) for a, b in class_pairs(3)]
    results = solve_lockstep(
        K,
        [members for members, _ in problems],
        [labels for _, labels in problems],
        C,
        1e-3,
        10**6,
    )
    assert (
        len({result.n_iter for result in results}) > 1
    )  # the problems stop at different steps
    for (members, labels), result in zip(problems, results):
        K_pair = K[np.ix_(members, members)]
        alpha, psi = np.zeros(members.size), labels.copy()
        steps = solve_block(
            K_pair,
            psi,
            labels,
            alpha,
            np.full(members.size, C),
            1e-3,
            10**6,
        )
        assert (
            result.status == Status.OPTIMAL
            and abs(result.n_iter - steps) <= 0.25 * steps
        )
        Q = labels[:, None] * labels[None, :] * K_pair
        assert result.objective == pytest.approx(
            0.5 * alpha @ Q @ alpha - alpha.sum(), rel=1e-6
        )
        assert result.objective == pytest.approx(
            0.5 * result.alpha @ Q @ result.alpha - result.alpha.sum(),
            rel=1e-9,
        )
        psi_exact = -labels * (
            Q @ result.alpha - 1.0
        )  # eq. (eq-stopping) from scratch
        up = np.where(labels > 0, result.alpha < C, result.alpha > 0)
        low = np.where(labels > 0, result.alpha > 0, result.alpha < C)
        assert psi_exact[up].max() - psi_exact[low].min() < 1e-3 + 1e-9
        assert abs(result.alpha @ labels) < 1e-9 * C * members.size
        assert np.all((result.alpha >= 0) & (result.alpha <= C))


def test_max_iter_stops_every_unfinished_problem():
    X, y = wine()
    K = gram(X)
    problems = [pair_members(y, a, b) for a, b in class_pairs(3)]
    results = solve_lockstep(
        K,
        [members for members, _ in problems],
        [labels for _, labels in problems],
        1.0,
        1e-3,
        7,
    )
    assert all(
        result.status == Status.MAX_ITER and result.n_iter == 7
        for result in results
    )
    with pytest.warns(ConvergenceWarning, match="max_iter"):
        model = SVC(solver="batched", max_iter=7).fit(X, y)
    assert model.fit_status_ == 1 and np.all(model.n_iter_ == 7)


def test_the_estimator_gives_the_model_of_the_pair_by_pair_path():
    X, y = wine()
    side_by_side = SVC(solver="batched", gamma=0.1, C=3.0).fit(X, y)
    one_by_one = SVC(
        solver="batched", gamma=0.1, C=3.0, cache_size=0.1
    ).fit(X, y)  # the Gram matrix does not fit
    assert lockstep_applies(
        [pair_members(y, a, b) for a, b in class_pairs(3)], y.size, 200.0
    )
    assert not lockstep_applies(
        [pair_members(y, a, b) for a, b in class_pairs(3)], y.size, 0.1
    )
    np.testing.assert_allclose(
        side_by_side.objective_, one_by_one.objective_, rtol=1e-6
    )
    assert np.all(side_by_side.predict(X) == one_by_one.predict(X))
    precomputed = SVC(solver="batched", kernel="precomputed", C=3.0).fit(
        gram(X), y
    )
    np.testing.assert_allclose(
        precomputed.objective_, side_by_side.objective_, rtol=1e-6
    )
    np.testing.assert_array_equal(
        precomputed.support_, side_by_side.support_
    )


def test_lockstep_applies_only_to_several_small_pairs_that_fit():
    members = np.arange(10)
    labels = np.where(members < 5, 1.0, -1.0)
    assert not lockstep_applies(
        [(members, labels)], 10, 200.0
    )  # a single pair
    assert lockstep_applies([(members, labels)] * 3, 10, 200.0)
    large = np.arange(BATCH_SIZE + 1)
    assert not lockstep_applies(
        [(members, labels), (large, np.ones(large.size))],
        BATCH_SIZE + 1,
        200.0,
    )
    assert not lockstep_applies(
        [(members, labels)] * 3, 10**4, 1.0
    )  # 800 MB would not fit in 1 MB


def test_verbose_reports_every_pair(capsys):
    X, y = wine()
    SVC(solver="batched", verbose=True).fit(X, y)
    output = capsys.readouterr().out
    assert (
        output.count("[batched] class") == 3
        and output.count("optimization finished (optimal)") == 3
    )
    assert "class 0 (+1) against class 2 (-1), 107 points" in output


def test_the_estimators_pairs_meet_the_stopping_rule_on_the_exact_kernel():
    """Large C and noisy labels: many multipliers at C, where rounding in
    the Gram matrix or drift in psi would show.  m - M is recomputed here
    from scikit-learn's kernel, in double precision."""
    X, y = make_classification(
        n_samples=900,
        n_features=8,
        n_informative=5,
        n_classes=3,
        flip_y=0.1,
        random_state=0,
    )
    problems = [pair_members(y, a, b) for a, b in class_pairs(3)]
    results = solve_pairs_lockstep(
        Kernel("rbf", gamma=0.1),
        X,
        problems,
        SolverSettings(C=1000.0, tol=1e-3),
    )
    for (members, labels), result in zip(problems, results):
        assert result.status == Status.OPTIMAL
        K = rbf_kernel(X[members], gamma=0.1)
        psi = -labels * (
            (labels[:, None] * labels[None, :] * K) @ result.alpha - 1.0
        )
        up = np.where(labels > 0, result.alpha < 1000.0, result.alpha > 0)
        low = np.where(labels > 0, result.alpha > 0, result.alpha < 1000.0)
        assert psi[up].max() - psi[low].min() < 1e-3 * (1 + 1e-6)


def test_bad_problems_are_refused_with_a_clear_error():
    K = gram(wine()[0])
    members, labels = np.arange(10), np.where(np.arange(10) < 5, 1.0, -1.0)
    with pytest.raises(ValueError, match="labels must be -1 or"):
        solve_lockstep(K, [members], [(labels + 1) / 2], 1.0, 1e-3, 100)
    with pytest.raises(ValueError, match="C must be a positive number"):
        solve_lockstep(K, [members], [labels], 0.0, 1e-3, 100)
    with pytest.raises(ValueError, match="tol must be a positive number"):
        solve_lockstep(K, [members], [labels], 1.0, 0.0, 100)
    with pytest.raises(
        ValueError, match="max_iter must be a positive integer"
    ):
        solve_lockstep(K, [members], [labels], 1.0, 1e-3, 0)
    with pytest.raises(ValueError, match="square"):
        solve_lockstep(K[:, :50], [members], [labels], 1.0, 1e-3, 100)
    with pytest.raises(ValueError, match="must index the 178 rows"):
        solve_lockstep(K, [members + 170], [labels], 1.0, 1e-3, 100)
    with pytest.raises(ValueError, match="one length"):
        solve_lockstep(K, [members], [labels[:9]], 1.0, 1e-3, 100)
    with pytest.raises(ValueError, match="one label array per problem"):
        solve_lockstep(K, [members, members], [labels], 1.0, 1e-3, 100)
    K_bad = K.copy()
    K_bad[3, 4] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        solve_lockstep(K_bad, [members], [labels], 1.0, 1e-3, 100)


def test_the_padded_arrays_count_against_the_cache():
    sizes = [1000] + [10] * 59  # 1,770 pairs, all padded to 1,010
    y = np.repeat(np.arange(60), sizes)
    problems = [pair_members(y, a, b) for a, b in class_pairs(60)]
    assert not lockstep_applies(
        problems, y.size, 40.0
    )  # the Gram matrix alone would fit
    assert lockstep_applies(problems, y.size, 400.0)
