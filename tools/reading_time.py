"""How long each chapter takes to read along its main line.

The main line is what a first reading meets on the page: prose, display
equations and visible code. It leaves out what the page folds or sets
aside: exercises and their solutions, dropdowns (every "Where the notes go
wrong" box, every "Going deeper" section), and code cells tagged to fold
(``hide-cell``, ``hide-input``, ``remove-*``). The measure is a first-time
learner's pace: prose at WORDS_PER_MINUTE, visible code at
CODE_LINES_PER_MINUTE and MINUTES_PER_DISPLAY for each display equation.
``python tools/reading_time.py`` prints the table, chapter by chapter and
part by part; the tests hold the limits.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from code_lines import is_folded  # noqa: E402
from export import ROOT, cell_source  # noqa: E402

WORDS_PER_MINUTE = 100
CODE_LINES_PER_MINUTE = 8
MINUTES_PER_DISPLAY = 0.5

# Directives whose body is not on the main line: the reader opens them
# (dropdowns) or comes back to them (exercises and their solutions).
SET_ASIDE = {"exercise", "solution", "solution-start", "dropdown", "toggle"}
FENCE = re.compile(r"^(`{3,}|:{3,})\{([\w:-]+)\}")
DISPLAY = re.compile(r"\$\$.*?\$\$", re.S)
INLINE_MATH = re.compile(r"\$[^$\n]+\$")
ROLE = re.compile(r"\{[\w:-]+\}`([^`]*)`")


@dataclass(frozen=True)
class MainLine:
    """What the main line of one notebook holds."""

    words: int
    displays: int
    code_lines: int

    @property
    def minutes(self) -> float:
        return (
            self.words / WORDS_PER_MINUTE
            + self.displays * MINUTES_PER_DISPLAY
            + self.code_lines / CODE_LINES_PER_MINUTE
        )


def main_line_text(markdown: str) -> str:
    """The text of a markdown cell that stays on the main line: without
    the bodies of exercises, solutions and dropdowns."""
    kept, stack = [], []
    options_pending = False
    for line in markdown.splitlines():
        match = FENCE.match(line)
        if match:
            fence, name = match.groups()
            stack.append([fence, name in SET_ASIDE])
            options_pending = True
            continue
        if stack and line.strip() == stack[-1][0]:
            stack.pop()
            options_pending = False
            continue
        if stack and options_pending and line.startswith(":"):
            if line.startswith(":class:") and "dropdown" in line:
                stack[-1][1] = True
            continue
        options_pending = False
        if any(aside for _, aside in stack):
            continue
        kept.append(line)
    return "\n".join(kept)


def count_words(text: str) -> tuple[int, int]:
    """Words and display equations of main-line markdown: a display counts
    as a display, an inline formula and a role's text as one word."""
    displays = len(DISPLAY.findall(text))
    text = DISPLAY.sub(" ", text)
    text = INLINE_MATH.sub(" x ", text)
    text = ROLE.sub(" x ", text)
    words = [token for token in text.split() if re.search(r"\w", token)]
    return len(words), displays


def measure(path: Path) -> MainLine:
    """The main line of one notebook."""
    words = displays = code_lines = 0
    in_solution = False
    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
        source = cell_source(cell)
        if cell.get("cell_type") == "markdown":
            if "{solution-end}" in source:
                in_solution = False
                continue
            text = main_line_text(source)
            if "{solution-start}" in source:
                in_solution = True
            if not in_solution:
                counted = count_words(text)
                words, displays = words + counted[0], displays + counted[1]
        elif cell.get("cell_type") == "code":
            if in_solution or is_folded(cell):
                continue
            code_lines += sum(
                1 for line in source.splitlines() if line.strip()
            )
    return MainLine(words, displays, code_lines)


def parts(root: Path = ROOT) -> list[tuple[str, list[Path]]]:
    """The book's parts as (caption, chapter notebooks), in _toc.yml's
    order."""
    toc = yaml.safe_load((root / "_toc.yml").read_text(encoding="utf-8"))
    found = []
    for part in toc.get("parts", []):
        notebooks = [
            root / f"{entry['file']}.ipynb"
            for entry in part.get("chapters", [])
            if (root / f"{entry['file']}.ipynb").exists()
        ]
        if notebooks:
            found.append((part.get("caption", ""), notebooks))
    return found


def main() -> int:
    print(
        f"{'chapter':38s} {'words':>6s} {'displays':>8s} {'code':>5s}"
        f" {'minutes':>7s}"
    )
    for caption, notebooks in parts():
        total = 0.0
        print(caption)
        for path in notebooks:
            line = measure(path)
            total += line.minutes
            name = str(path.relative_to(ROOT))
            print(
                f"  {name:36s} {line.words:6d} {line.displays:8d}"
                f" {line.code_lines:5d} {line.minutes:7.0f}"
            )
        print(f"  {'total':36s} {'':6s} {'':8s} {'':5s} {total:7.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
