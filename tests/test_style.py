"""The code of the book follows one style: ruff's lint and format, at the
width of the book's code column, over chapters, appendices, tools, tests and
benchmarks (the settings are in pyproject.toml)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUFF = [sys.executable, "-m", "ruff"]


def run_ruff(*arguments):
    return subprocess.run(
        [*RUFF, *arguments], cwd=ROOT, capture_output=True, text=True
    )


def test_ruff_finds_nothing_to_lint():
    finished = run_ruff("check", "--no-cache", ".")
    assert finished.returncode == 0, finished.stdout[-6000:]


def test_ruff_finds_nothing_to_reformat():
    finished = run_ruff("format", "--check", "--no-cache", ".")
    assert finished.returncode == 0, finished.stdout[-6000:]
