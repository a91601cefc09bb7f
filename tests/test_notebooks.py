"""The chapter notebooks as files: tags the tools act on, and outputs that can be compared."""

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHAPTERS = sorted((ROOT / "chapters").glob("*.ipynb"))

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


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_every_cell_tag_is_one_a_tool_understands(path):
    for index, cell in enumerate(
        json.loads(path.read_text(encoding="utf-8"))["cells"]
    ):
        unknown = set(cell.get("metadata", {}).get("tags", [])) - KNOWN_TAGS
        assert not unknown, (
            f"{path.name}, cell {index}: unknown tag(s) {sorted(unknown)}"
        )


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_code_cells_were_run_top_to_bottom_in_one_kernel(path):
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    counts = [
        cell.get("execution_count")
        for cell in cells
        if cell["cell_type"] == "code"
    ]
    assert counts == list(range(1, len(counts) + 1)), (
        f"{path.name}: re-run it with `make notebooks`"
    )
