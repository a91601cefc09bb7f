"""Text in the book's figures stays legible on the page: a font size a
figure's code sets, shrunk with its figure to the width of the text column,
is at least MIN_TEXT_PX pixels high. (Text at matplotlib's default size
follows the chapters' rcParams, set for the same bound.)"""

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "chapters").glob("*.ipynb")) + sorted(
    (ROOT / "appendices").glob("*.ipynb")
)
COLUMN_PX = 690  # the text column's width in a 1280 px window
PX_PER_POINT = 100 / 72  # the figures are drawn at matplotlib's 100 dpi
MIN_TEXT_PX = 9.5
FIGURE = re.compile(r"<Figure size (\d+)x\d+")
FONT_SIZE = re.compile(r"fontsize=(\d+(?:\.\d+)?)\b")


def shown_px(points, figure_px):
    """The height on the page of text set at ``points`` in a figure
    ``figure_px`` pixels wide (the page shrinks a wider figure to the
    column, never widens a narrower one)."""
    return points * PX_PER_POINT * min(1.0, COLUMN_PX / figure_px)


def small_text(cells):
    """(code cell number, points, pixels on the page) for each font size
    set in a cell that draws a figure, where the text is too small."""
    found = []
    code = [c for c in cells if c.get("cell_type") == "code"]
    for number, cell in enumerate(code, start=1):
        widths = [
            int(match[1])
            for output in cell.get("outputs", [])
            for match in FIGURE.finditer(
                "".join(output.get("data", {}).get("text/plain", ""))
            )
        ]
        if not widths:
            continue
        source = "".join(cell["source"])
        for size in {float(s) for s in FONT_SIZE.findall(source)}:
            px = shown_px(size, max(widths))
            if px < MIN_TEXT_PX:
                found.append((number, size, round(px, 1)))
    return found


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.name)
def test_font_sizes_set_in_figures_are_legible_on_the_page(notebook):
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    assert not small_text(cells), (
        "(code cell, font size in points, pixels on the page) below "
        f"{MIN_TEXT_PX} px: {small_text(cells)}"
    )


def test_the_rule_finds_small_text_in_a_wide_figure():
    cell = {
        "cell_type": "code",
        "source": 'ax.legend(fontsize=9)\nax.text(0, 0, "a", fontsize=12)',
        "outputs": [{"data": {"text/plain": "<Figure size 1000x400>"}}],
    }
    assert small_text([cell]) == [(1, 9.0, 8.6)]
    narrow = dict(
        cell, outputs=[{"data": {"text/plain": "<Figure size 600x400>"}}]
    )
    assert small_text([narrow]) == []
