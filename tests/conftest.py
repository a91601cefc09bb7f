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


@pytest.fixture(scope="session")
def built_book(tmp_path_factory):
    """Build the book into a temporary folder, warnings as errors, exactly
    as `make book` does; yield the folder of its HTML pages."""
    out = tmp_path_factory.mktemp("book")
    jupyter_book = Path(sys.executable).with_name("jupyter-book")
    command = [
        str(jupyter_book),
        "build",
        str(ROOT),
        "--path-output",
        str(out),
        "--warningiserror",
        "--nitpick",
        "--keep-going",
    ]
    finished = subprocess.run(
        command, capture_output=True, text=True, timeout=900
    )
    assert finished.returncode == 0, (
        finished.stdout[-4000:] + finished.stderr[-4000:]
    )
    warnings = [
        line
        for line in (finished.stdout + finished.stderr).splitlines()
        if "WARNING" in line
    ]
    assert not warnings, "\n".join(warnings)
    yield out / "_build" / "html"
    shutil.rmtree(out, ignore_errors=True)
