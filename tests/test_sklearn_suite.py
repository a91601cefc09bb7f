"""scikit-learn's own SVM tests (test_svm.py, test_sparse.py and
test_bounds.py of the installed scikit-learn) and its GridSearchCV tests
(model_selection's test_search.py), run with svmlib's classes in place of
sklearn.svm's and svmlib.SVMGridSearchCV in place of GridSearchCV by the
plugin tests/sklearn_swap.py.

The suite runs in a separate pytest process (scikit-learn's conftest and
fixtures apply there, not this repository's options); this test reads its
JUnit report. It fails if any of scikit-learn's tests fails, if one of the
expected failures passes (they are strict), if an expected failure names a
test that no longer exists, or if there are more than MAX_EXPECTED of them;
only the GridSearchCV tests may be skipped (scikit-learn skips those of
array-API libraries that are not installed).
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
MAX_EXPECTED = 21  # at most 20 of the 308 SVM tests, 1 of GridSearchCV's
SVM_FILES = ("test_svm.py", "test_sparse.py", "test_bounds.py")
SEARCH_FILE = "test_search.py"
FILES = (
    *(Path("svm") / "tests" / name for name in SVM_FILES),
    Path("model_selection") / "tests" / SEARCH_FILE,
)


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
    package = Path(sklearn.__file__).parent
    command = [
        sys.executable,
        "-m",
        "pytest",
        *(str(package / name) for name in FILES),
        "-p",
        "sklearn_swap",
        "-p",
        "no:cacheprovider",
        "-o",
        "addopts=",
        "-q",
        f"--junitxml={junit}",
        f"--rootdir={package}",
    ]
    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(HERE), environment.get("PYTHONPATH")])
    )
    run = subprocess.run(
        command,
        cwd=package,
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
    for title, names in (
        ("SVM tests", SVM_FILES),
        ("GridSearchCV tests", (SEARCH_FILE,)),
    ):
        counts = collections.Counter(
            result
            for name, result in report.items()
            if name.split("::")[0] in names
        )
        print(
            f"\nscikit-learn {sklearn.__version__}'s {title} on svmlib: "
            + ", ".join(f"{n} {what}" for what, n in sorted(counts.items()))
        )
    failed = sorted(
        name for name, result in report.items() if result == "failed"
    )
    assert not failed, (
        "failed (or passed though expected to fail):\n" + "\n".join(failed)
    )
    skipped = [
        name for name, result in report.items() if result == "skipped"
    ]
    assert all(name.startswith(SEARCH_FILE) for name in skipped), skipped


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
