"""The book's notebooks as files: tags the tools act on, outputs that can
be compared, markdown free of stray control characters, and pages that fit
their column and fold their plumbing."""

import json
import re
import tomllib
from pathlib import Path

import pytest
from code_lines import count_code_lines

ROOT = Path(__file__).resolve().parent.parent
CHAPTERS = sorted((ROOT / "chapters").glob("*.ipynb"))
NOTEBOOKS = CHAPTERS + sorted((ROOT / "appendices").glob("*.ipynb"))

# The width of the book's code column, in characters: ruff formats to it.
CODE_COLUMN = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"][
    "ruff"
]["line-length"]

# What a chapter may show of its code: the rest (input checks, result types,
# solver wrappers, plotting and printing helpers) is folded.
VISIBLE_CODE_LIMITS = {"margins.ipynb": 150}

# Cell tags that a tool acts on: the exporter's mark, nbval's, and Jupyter
# Book's display tags. A misspelt tag (for instance "[nbval-ignore-output]")
# is silently ignored by every tool.
KNOWN_TAGS = {
    "export",
    "nbval-ignore-output",
    "nbval-skip",
    "raises-exception",
    "hide-input",
    "hide-output",
    "hide-cell",
    "remove-input",
    "remove-output",
    "remove-cell",
}

# Characters that a Python string escape leaves behind in LaTeX written in
# code ("\text" loses "\t", "\frac" loses "\f"); markdown never needs them.
CONTROL_CHARACTERS = {"\t": "tab", "\f": "form feed", "\b": "backspace"}
CONTROL_CHARACTERS["\v"] = "vertical tab"

RAW_LABEL = re.compile(r"\(eq-[A-Za-z0-9-]+\)")


def cells_of(path):
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def source_of(cell):
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else source


def printed_text(output):
    """The text an output shows on the page (figures excluded)."""
    if output["output_type"] == "stream":
        return "".join(output["text"])
    data = output.get("data", {})
    if output["output_type"] == "error" or "image/png" in data:
        return ""
    return "".join(data.get("text/plain", ""))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_cell_tag_is_one_a_tool_understands(path):
    for index, cell in enumerate(cells_of(path)):
        unknown = set(cell.get("metadata", {}).get("tags", [])) - KNOWN_TAGS
        assert not unknown, f"{path.name}, cell {index}: {sorted(unknown)}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_code_cells_were_run_top_to_bottom_in_one_kernel(path):
    cells = cells_of(path)
    counts = [
        c.get("execution_count") for c in cells if c["cell_type"] == "code"
    ]
    assert counts == list(range(1, len(counts) + 1)), (
        f"{path.name}: re-run it with `make notebooks`"
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_markdown_holds_no_control_characters(path):
    found = [
        f"cell {index}: {name}"
        for index, cell in enumerate(cells_of(path))
        if cell["cell_type"] == "markdown"
        for character, name in CONTROL_CHARACTERS.items()
        if character in source_of(cell)
    ]
    assert not found, f"{path.name}: {found}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_printed_output_fits_the_code_column(path):
    too_wide = [
        f"cell {index}: {line[:40]}... ({len(line)} characters)"
        for index, cell in enumerate(cells_of(path))
        for output in cell.get("outputs", [])
        for line in printed_text(output).splitlines()
        if len(line) > CODE_COLUMN
    ]
    assert not too_wide, f"{path.name}:\n" + "\n".join(too_wide)


@pytest.mark.parametrize(
    "name, limit",
    VISIBLE_CODE_LIMITS.items(),
    ids=list(VISIBLE_CODE_LIMITS),
)
def test_a_chapter_shows_its_idea_and_folds_its_plumbing(name, limit):
    lines = count_code_lines(ROOT / "chapters" / name)
    assert lines.visible <= limit, (
        f"{name} shows {lines.visible} code lines; fold the plumbing"
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_printed_output_names_no_raw_equation_label(path):
    """A label such as "(eq-soft-dual)" means nothing on the page, where
    equations are numbered: printed text says what it compares in words."""
    raw = [
        f"cell {index}: {match.group(0)}"
        for index, cell in enumerate(cells_of(path))
        for output in cell.get("outputs", [])
        for match in RAW_LABEL.finditer(printed_text(output))
    ]
    assert not raw, f"{path.name}: {raw}"


EXERCISE = re.compile(r"```\{exercise\}[^\n]*\n:label: (\S+)")
SOLUTION = re.compile(r"```\{solution(?:-start)?\} (\S+)")
MIN_EXERCISES = 6


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_every_chapter_ends_with_exercises_and_their_solutions(path):
    markdown = "\n".join(
        source_of(cell)
        for cell in cells_of(path)
        if cell["cell_type"] == "markdown"
    )
    exercises = EXERCISE.findall(markdown)
    solved = set(SOLUTION.findall(markdown))
    assert len(exercises) >= MIN_EXERCISES, f"{path.name}: {exercises}"
    assert not set(exercises) - solved, f"{path.name}: unsolved"
