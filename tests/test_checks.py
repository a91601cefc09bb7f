"""svmlib.book.checks: how the notebooks print quantities that should
vanish."""

from svmlib.book.checks import bounded


def test_bounded_prints_the_bound_if_it_holds_and_the_value_if_not():
    assert bounded(3e-14, 1e-12) == "< 1e-12"
    assert bounded(-3e-14, 1e-12) == "< 1e-12"
    assert bounded(2.5e-9, 1e-12) == "2.50e-09 (exceeds 1e-12)"
    assert bounded(1e-12, 1e-12).endswith("(exceeds 1e-12)")
