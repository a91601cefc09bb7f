"""tools/reading_time.py counts what a first reading meets, and nothing
that the page folds or sets aside; the book keeps within the learner's
limits by that measure."""

import json
import re

import pytest
from code_lines import is_folded
from export import ROOT, cell_source
from reading_time import (
    CODE_LINES_PER_MINUTE,
    MINUTES_PER_DISPLAY,
    WORDS_PER_MINUTE,
    count_words,
    main_line_text,
    measure,
    parts,
)


def markdown(text):
    return {"cell_type": "markdown", "metadata": {}, "source": text}


def code(text, tags=()):
    return {
        "cell_type": "code",
        "metadata": {"tags": list(tags)},
        "source": text,
        "outputs": [],
        "execution_count": None,
    }


def notebook(tmp_path, cells):
    path = tmp_path / "chapter.ipynb"
    path.write_text(json.dumps({"cells": cells}), encoding="utf-8")
    return path


def test_words_displays_and_inline_math():
    words, displays = count_words(
        "One two $x^2 + y$ three.\n\n$$\na = b\n$$\n\n{eq}`eq-a` four"
    )
    assert (words, displays) == (6, 1)


def test_folded_and_set_aside_blocks_leave_the_main_line():
    text = "\n".join(
        [
            "kept words here",
            "```{exercise} A title",
            ":label: ex-a",
            "",
            "hidden exercise words",
            "```",
            "```{admonition} Where the notes go wrong",
            ":class: caution dropdown",
            "",
            "hidden correction",
            "```",
            "```{admonition} Open box",
            ":class: caution",
            "",
            "visible box words",
            "```",
        ]
    )
    kept = main_line_text(text)
    assert "hidden" not in kept
    assert "kept words here" in kept and "visible box words" in kept


def test_a_chapter_in_minutes(tmp_path):
    prose = " ".join(["word"] * 200)
    path = notebook(
        tmp_path,
        [
            markdown(prose + "\n\n$$\nx\n$$\n\n$$\ny\n$$\n"),
            code("\n".join(f"a{i} = {i}" for i in range(16))),
            code("hidden = 1\n" * 40, tags=["hide-cell"]),
            markdown("```{solution-start} ex-a\n:class: dropdown\n```"),
            markdown(" ".join(["solution"] * 500)),
            code("in_solution = 1\n" * 40),
            markdown("```{solution-end}\n```"),
            markdown("after the solution"),
        ],
    )
    line = measure(path)
    assert (line.words, line.displays, line.code_lines) == (203, 2, 16)
    expected = (
        203 / WORDS_PER_MINUTE
        + 2 * MINUTES_PER_DISPLAY
        + 16 / CODE_LINES_PER_MINUTE
    )
    assert abs(line.minutes - expected) < 1e-12


# The limits of the learner's book: Part I, a first course, reads in eight
# hours; every chapter in one sitting.
FIRST_COURSE_MINUTES = 8 * 60
SITTING_MINUTES = 90
VISIBLE_CELL_LINES = 40
STATED_TIME = re.compile(r"\*\*Reading time:\*\* about (\d+) minutes")
NOTES_BOX = re.compile(
    r"^(`{3,}|:{3,})\{admonition\} Where the notes go wrong\n"
    r"((?::[^\n]*\n)*)",
    re.M,
)
BOOK_PARTS = parts()
CHAPTERS = [path for caption, paths in BOOK_PARTS for path in paths]
CHAPTERS = [path for path in CHAPTERS if path.parent.name == "chapters"]


def markdown_of(path):
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return [cell_source(c) for c in cells if c["cell_type"] == "markdown"]


def test_the_first_course_reads_in_eight_hours():
    caption, notebooks = BOOK_PARTS[0]
    assert caption.startswith("Part I:")
    minutes = {p.stem: round(measure(p).minutes) for p in notebooks}
    assert sum(minutes.values()) <= FIRST_COURSE_MINUTES, minutes


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_every_chapter_reads_in_one_sitting(path):
    assert measure(path).minutes <= SITTING_MINUTES


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_every_chapter_opens_with_goals_prerequisites_and_time(path):
    """The opening box says what the reader will learn, what the chapter
    assumes and how long its main line takes, by the measure above."""
    opening = "\n".join(markdown_of(path)[:2])
    assert "{admonition} In this chapter" in opening
    assert "**You will learn**" in opening and "**You need**" in opening
    stated = STATED_TIME.search(opening)
    assert stated, "no '**Reading time:** about N minutes'"
    measured = measure(path).minutes
    assert abs(int(stated.group(1)) - measured) <= 5, (
        f"the box says {stated.group(1)} minutes, the main line takes "
        f"{measured:.0f}"
    )


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_every_chapter_ends_with_what_to_remember(path):
    assert any(
        re.search(r"^## What to remember\s*$", text, re.M)
        for text in markdown_of(path)
    )


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_the_notes_corrections_start_folded(path):
    for text in markdown_of(path):
        for match in NOTES_BOX.finditer(text):
            assert "dropdown" in match.group(2), text[:200]


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_no_visible_code_cell_is_longer_than_forty_lines(path):
    long_cells = []
    in_solution = False
    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
        source = cell_source(cell)
        if cell["cell_type"] == "markdown":
            in_solution = (
                in_solution or "{solution-start}" in source
            ) and ("{solution-end}" not in source)
        elif not in_solution and not is_folded(cell):
            if len(source.splitlines()) > VISIBLE_CELL_LINES:
                long_cells.append(source.splitlines()[0])
    assert not long_cells, long_cells


INTRO_ROW = re.compile(
    r"^\* - \{doc\}`chapters/(\w+)`\n  - .*?\n  - (\d+)$", re.M | re.S
)


def test_the_front_page_gives_each_chapter_its_reading_time():
    """The front page's chapter table lists every chapter of the book, in
    order, with its main-line minutes (to the nearest five)."""
    intro = (ROOT / "intro.md").read_text(encoding="utf-8")
    rows = [
        (m.group(1), int(m.group(2))) for m in INTRO_ROW.finditer(intro)
    ]
    assert [name for name, _ in rows] == [path.stem for path in CHAPTERS]
    for (name, stated), path in zip(rows, CHAPTERS):
        measured = measure(path).minutes
        assert abs(stated - measured) <= 5, (name, stated, measured)
    first_course = sum(measure(p).minutes for p in BOOK_PARTS[0][1]) / 60
    stated = re.search(r"whole part reads in about (\d+) hours", intro)
    assert stated and abs(int(stated.group(1)) - first_course) <= 0.5
