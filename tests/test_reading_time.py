"""tools/reading_time.py counts what a first reading meets, and nothing
that the page folds or sets aside."""

import json

from reading_time import (
    CODE_LINES_PER_MINUTE,
    MINUTES_PER_DISPLAY,
    WORDS_PER_MINUTE,
    count_words,
    main_line_text,
    measure,
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
