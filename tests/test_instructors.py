"""The instructors' edition (tools/instructors.py): every exercise, no
solution, built with zero warnings like the book."""

import json
from pathlib import Path

import pytest
from instructors import (
    SolutionLayoutError,
    count_solutions,
    without_solution_directives,
    without_solutions,
    write_sources,
)

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "chapters").glob("*.ipynb"))


def markdown(text):
    return {"cell_type": "markdown", "metadata": {}, "source": text}


def code(text):
    return {"cell_type": "code", "metadata": {}, "source": text}


def test_a_solution_directive_goes_with_the_fences_inside_it():
    text = "\n".join(
        [
            "```{exercise} Title",
            ":label: ex-a",
            "",
            "Question.",
            "```",
            "",
            "````{solution} ex-a",
            ":class: dropdown",
            "",
            "```python",
            "answer = 42",
            "```",
            "Hidden words.",
            "````",
            "",
            "After.",
        ]
    )
    kept = without_solution_directives(text)
    assert "Question." in kept and "After." in kept
    assert "answer" not in kept and "Hidden" not in kept
    assert kept.count("```") == 2


def test_a_run_of_solution_cells_goes_whole():
    cells = [
        markdown("```{exercise} T\n:label: ex-a\n\nQ\n```"),
        markdown("```{solution-start} ex-a\n:class: dropdown\n```"),
        markdown("The answer."),
        code("print(42)"),
        markdown("```{solution-end}\n```"),
        markdown("Next."),
    ]
    kept = without_solutions(cells)
    assert [c["source"] for c in kept] == [cells[0]["source"], "Next."]


@pytest.mark.parametrize(
    "cells",
    [
        [markdown("```{solution-start} ex-a\n```")],
        [markdown("Words first.\n```{solution-start} ex-a\n```")],
    ],
)
def test_a_solution_the_edition_cannot_take_out_is_an_error(cells):
    with pytest.raises(SolutionLayoutError):
        without_solutions(cells)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_chapter_keeps_its_exercises_and_loses_its_solutions(path):
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    kept = without_solutions(cells)
    assert count_solutions(cells) > 0 and count_solutions(kept) == 0

    def exercises(some):
        return sum(
            "".join(c["source"]).count("{exercise}")
            for c in some
            if c["cell_type"] == "markdown"
        )

    assert exercises(kept) == exercises(cells) > 0


@pytest.mark.slow
def test_the_edition_builds_without_warnings_and_without_solutions(
    tmp_path, book_builder
):
    source = tmp_path / "edition"
    removed = write_sources(source)
    assert removed >= len(NOTEBOOKS)
    html = book_builder(source)
    assert "every exercise and none of the solutions" in (
        html / "intro.html"
    ).read_text(encoding="utf-8")
    for notebook in NOTEBOOKS:
        page = (html / "chapters" / f"{notebook.stem}.html").read_text(
            encoding="utf-8"
        )
        cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
        exercises = sum(
            "".join(c["source"]).count("{exercise}")
            for c in cells
            if c["cell_type"] == "markdown"
        )
        assert page.count('class="exercise admonition"') == exercises
        assert 'class="solution' not in page, notebook.stem
