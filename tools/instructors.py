"""Build the instructors' edition: the book with its exercises and without
their solutions.

sphinx-exercise's own option for this, ``hide_solutions``, stops the build
on a solution that holds code cells (sphinx-exercise 1.2.1), and most of the
book's do. So this edition is made from the sources instead: the book's
source files are copied to a scratch folder, every solution is taken out of
the copies (a ``solution-start`` ... ``solution-end`` run of cells, or a
``{solution}`` directive inside a markdown cell), the front page says which
edition it is, and Jupyter Book builds the copy exactly as ``make book``
builds the book. ``python tools/instructors.py`` (``make instructors``)
writes ``_build/instructors/_build/html``.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from export import ROOT, cell_source  # noqa: E402

# What the book is built from; everything else stays behind.
SOURCES = (
    "_config.yml",
    "_toc.yml",
    "intro.md",
    "references.bib",
    "chapters",
    "appendices",
    "_static",
    "_ext",
)
OPENING = re.compile(r"^(`{3,}|:{3,})\{?([\w:-]*)\}?")
EDITION_NOTE = (
    "```{admonition} The instructors' edition\n"
    ":class: important\n\n"
    "This edition has every exercise and none of the solutions: it is "
    "built by `make instructors` for setting the exercises as homework. "
    "The book itself, `make book`, keeps the solutions, folded below each "
    "exercise.\n```\n\n"
)


class SolutionLayoutError(ValueError):
    """A solution is laid out in a way the edition cannot take out
    cleanly."""


def without_solution_directives(markdown: str) -> str:
    """The markdown without its ``{solution}`` directives (fence and body;
    fences nested in the body are skipped with it)."""
    kept, stack = [], []
    for line in markdown.splitlines(keepends=True):
        opening = OPENING.match(line)
        closes = stack and line.strip() == stack[-1][0]
        if closes:
            fence, dropped = stack.pop()
            if not dropped and not any(d for _, d in stack):
                kept.append(line)
            continue
        if opening and line.strip() != opening.group(1):
            inside_dropped = any(d for _, d in stack)
            dropped = inside_dropped or opening.group(2) == "solution"
            stack.append((opening.group(1), dropped))
            if not dropped:
                kept.append(line)
            continue
        if not any(d for _, d in stack):
            kept.append(line)
    return "".join(kept)


def without_solutions(cells: list[dict]) -> list[dict]:
    """The cells of a notebook with every solution taken out."""
    kept, inside = [], False
    for cell in cells:
        source = cell_source(cell)
        markdown = cell.get("cell_type") == "markdown"
        if markdown and "{solution-start}" in source:
            opening = OPENING.match(source.lstrip())
            if (
                inside
                or not opening
                or opening.group(2) != "solution-start"
            ):
                raise SolutionLayoutError(
                    "a solution-start directive must open its own cell: "
                    + source[:80]
                )
            inside = True
        if inside:
            if markdown and "{solution-end}" in source:
                inside = False
            continue
        if markdown and "{solution}" in source:
            text = without_solution_directives(source)
            if not text.strip():
                continue
            cell = {**cell, "source": text}
        kept.append(cell)
    if inside:
        raise SolutionLayoutError("a solution-start has no solution-end")
    return kept


def write_sources(target: Path, root: Path = ROOT) -> int:
    """Copy the book's sources to ``target`` without the solutions; return
    how many solutions were taken out."""
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    for name in SOURCES:
        source = root / name
        if source.is_dir():
            shutil.copytree(
                source,
                target / name,
                ignore=shutil.ignore_patterns("_build"),
            )
        elif source.exists():
            shutil.copy2(source, target / name)
    removed = 0
    for notebook in sorted(target.glob("*/*.ipynb")):
        data = json.loads(notebook.read_text(encoding="utf-8"))
        before = count_solutions(data["cells"])
        data["cells"] = without_solutions(data["cells"])
        removed += before - count_solutions(data["cells"])
        notebook.write_text(
            json.dumps(data, indent=1, ensure_ascii=False) + "\n",
            encoding="utf-8",
        )
    intro = target / "intro.md"
    title, _, rest = intro.read_text(encoding="utf-8").partition("\n\n")
    intro.write_text(f"{title}\n\n{EDITION_NOTE}{rest}", encoding="utf-8")
    return removed


def count_solutions(cells: list[dict]) -> int:
    """How many solutions the cells hold (either layout)."""
    text = "\n".join(
        cell_source(c) for c in cells if c.get("cell_type") == "markdown"
    )
    return len(re.findall(r"\{solution(?:-start)?\}", text))


def build(target: Path) -> int:
    """Build the edition's copy with Jupyter Book as `make book` builds
    the book (warnings as errors); return its exit status."""
    jupyter_book = Path(sys.executable).with_name("jupyter-book")
    command = [
        str(jupyter_book),
        "build",
        str(target),
        "--warningiserror",
        "--nitpick",
        "--keep-going",
    ]
    return subprocess.run(command).returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--target",
        type=Path,
        default=ROOT / "_build" / "instructors",
        help="where the edition's sources and build go",
    )
    args = parser.parse_args(argv)
    removed = write_sources(args.target)
    print(f"took out {removed} solutions; building {args.target}")
    return build(args.target)


if __name__ == "__main__":
    sys.exit(main())
