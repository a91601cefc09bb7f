"""How much code each page of the book shows, and how much it folds away.

A code cell tagged ``hide-input``, ``hide-cell``, ``remove-input`` or
``remove-cell``, or one inside an exercise's solution (between
``solution-start`` and ``solution-end``, which fold), shows no code until
the reader opens it, so its lines are folded; every other line is visible.
``python tools/code_lines.py`` prints the table for every notebook of the
book; the tests hold the limits.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from export import cell_source, notebooks_in_toc_order  # noqa: E402

FOLDING_TAGS = {"hide-input", "hide-cell", "remove-input", "remove-cell"}


@dataclass(frozen=True)
class CodeLines:
    """The code lines of one notebook: shown on the page and folded."""

    visible: int
    folded: int

    @property
    def total(self) -> int:
        return self.visible + self.folded


def is_folded(cell: dict) -> bool:
    """Whether the rendered page hides the cell's code until asked."""
    return bool(
        FOLDING_TAGS & set(cell.get("metadata", {}).get("tags", []))
    )


def count_code_lines(path: Path) -> CodeLines:
    """Visible and folded code lines of a notebook, blank lines included."""
    visible = folded = 0
    in_solution = False
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    for cell in cells:
        if cell.get("cell_type") == "markdown":
            text = cell_source(cell)
            if "{solution-start}" in text:
                in_solution = True
            if "{solution-end}" in text:
                in_solution = False
        if cell.get("cell_type") != "code":
            continue
        lines = cell_source(cell).splitlines()
        if in_solution or is_folded(cell):
            folded += len(lines)
        else:
            visible += len(lines)
    return CodeLines(visible, folded)


def main() -> int:
    root = Path(__file__).resolve().parent.parent
    print(f"{'notebook':34s} {'visible':>8s} {'folded':>7s} {'total':>6s}")
    for path in notebooks_in_toc_order():
        lines = count_code_lines(path)
        name = str(path.relative_to(root))
        print(
            f"{name:34s} {lines.visible:8d} {lines.folded:7d}"
            f" {lines.total:6d}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
