"""Shared test set-up: a headless matplotlib backend, the path to the
repository's tools, and the book built once for every test that reads it."""

import shutil
import subprocess
import sys
from pathlib import Path

import matplotlib
import pytest

matplotlib.use("Agg")

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))


def build_book(source, output=None):
    """Build the book at ``source`` with Jupyter Book, warnings as errors,
    exactly as `make book` does (into ``output`` if given); fail on any
    warning; return the folder of its HTML pages."""
    command = [
        str(Path(sys.executable).with_name("jupyter-book")),
        "build",
        str(source),
        "--warningiserror",
        "--nitpick",
        "--keep-going",
    ]
    if output is not None:
        command[3:3] = ["--path-output", str(output)]
    finished = subprocess.run(
        command, capture_output=True, text=True, timeout=900
    )
    log = finished.stdout + finished.stderr
    assert finished.returncode == 0, log[-8000:]
    warnings = [line for line in log.splitlines() if "WARNING" in line]
    assert not warnings, "\n".join(warnings)
    return Path(output or source) / "_build" / "html"


@pytest.fixture(scope="session")
def book_builder():
    """build_book, for tests that build a book of their own."""
    return build_book


@pytest.fixture(scope="session")
def built_book(tmp_path_factory):
    """Build the book into a temporary folder (build_book); yield the
    folder of its HTML pages."""
    out = tmp_path_factory.mktemp("book")
    yield build_book(ROOT, out)
    shutil.rmtree(out, ignore_errors=True)
