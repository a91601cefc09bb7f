"""scikit-learn's own SVM tests (test_svm.py, test_sparse.py and
test_bounds.py of the installed scikit-learn), run with svmlib's classes
in place of sklearn.svm's by the plugin tests/sklearn_swap.py.

The suite runs in a separate pytest process (scikit-learn's conftest and
fixtures apply there, not this repository's options); this test reads its
JUnit report. It fails if any of scikit-learn's tests fails, if one of the
expected failures passes (they are strict), if an expected failure names a
test that no longer exists, or if there are more than MAX_EXPECTED of them.
Print the counts with ``python -m pytest tests/test_sklearn_suite.py -s``.
"""

import collections
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import sklearn
import sklearn_swap

HERE = Path(__file__).resolve().parent
MAX_EXPECTED = 20  # the goal: at most 20 of the 308 fail
FILES = ("test_svm.py", "test_sparse.py", "test_bounds.py")


def outcome(case):
    """passed, failed, xfailed or skipped, from a JUnit test case."""
    for tag in ("failure", "error"):
        if case.find(tag) is not None:
            return "failed"
    skipped = case.find("skipped")
    if skipped is None:
        return "passed"
    if skipped.get("type") == "pytest.xfail":
        return "xfailed"
    return "skipped"


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """{test id: outcome} of scikit-learn's SVM tests run on svmlib."""
    junit = tmp_path_factory.mktemp("sklearn") / "junit.xml"
    tests = Path(sklearn.__file__).parent / "svm" / "tests"
    command = [
        sys.executable,
        "-m",
        "pytest",
        *(str(tests / name) for name in FILES),
        "-p",
        "sklearn_swap",
        "-p",
        "no:cacheprovider",
        "-o",
        "addopts=",
        "-q",
        f"--junitxml={junit}",
        f"--rootdir={tests.parent.parent}",
    ]
    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(HERE), environment.get("PYTHONPATH")])
    )
    run = subprocess.run(
        command,
        cwd=tests,
        env=environment,
        capture_output=True,
        text=True,
    )
    assert junit.exists(), run.stdout[-3000:] + run.stderr[-3000:]
    results = {}
    for case in ET.parse(junit).getroot().iter("testcase"):
        module = case.get("classname").rsplit(".", 1)[-1]
        results[f"{module}.py::{case.get('name')}"] = outcome(case)
    return results


def test_every_test_passes_or_is_an_expected_failure(report):
    counts = collections.Counter(report.values())
    print(
        f"\nscikit-learn {sklearn.__version__}'s SVM tests on svmlib: "
        + ", ".join(f"{n} {what}" for what, n in sorted(counts.items()))
    )
    failed = sorted(
        name for name, result in report.items() if result == "failed"
    )
    assert not failed, (
        "failed (or passed though expected to fail):\n" + "\n".join(failed)
    )
    assert counts["passed"] + counts["xfailed"] == len(report)


def test_expected_failures_are_few_and_current(report):
    assert len(sklearn_swap.EXPECTED) <= MAX_EXPECTED
    xfailed = [
        name for name, result in report.items() if result == "xfailed"
    ]
    assert len(xfailed) <= MAX_EXPECTED
    for key in sklearn_swap.EXPECTED:
        assert any(
            name == key or name.split("[")[0] == key for name in report
        ), f"{key} names no test of scikit-learn's suite"
