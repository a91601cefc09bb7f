"""The literate mechanism: svmlib/ must be exactly what the notebooks
export."""

import json
import textwrap

import export
import pytest
from export import ExportError, differences, expected_files, write


def test_committed_svmlib_matches_the_notebooks():
    problems = differences()
    assert not problems, "run `make export`:\n" + "\n".join(problems)


def test_every_generated_module_names_its_notebook_and_has_a_docstring():
    for path, text in expected_files().items():
        if path.suffix != ".py":
            continue
        first, second = text.splitlines()[:2]
        assert first.startswith("# Generated") and "Do not edit" in first, (
            path
        )
        assert second.startswith('"""'), (
            f"{path} does not open with its docstring"
        )


# the miniature projects' layout: loose modules, one sub-package, and the
# top-level names
LAYOUT = """
top_level = {top_level}
layers = [["alpha", "base", "user", "m"], ["pkg"]]
[packages]
pkg = "A sub-package."
"""


def make_tree(tmp_path, notebooks, top_level=()):
    """A miniature project: _toc.yml, pyproject.toml and the given
    notebooks' code cells."""
    (tmp_path / "chapters").mkdir()
    (tmp_path / "svmlib").mkdir()
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "svmlib"\nversion = "9.9"\n'
    )
    toc = "format: jb-book\nroot: intro\nchapters:\n"
    for name, cells in notebooks.items():
        toc += f"  - file: chapters/{name}\n"
        notebook = {
            "cells": [
                {
                    "cell_type": "code",
                    "metadata": {},
                    "outputs": [],
                    "execution_count": None,
                    "source": textwrap.dedent(c).strip(),
                }
                for c in cells
            ],
            "metadata": {},
            "nbformat": 4,
            "nbformat_minor": 5,
        }
        (tmp_path / "chapters" / f"{name}.ipynb").write_text(
            json.dumps(notebook)
        )
    (tmp_path / "_toc.yml").write_text(toc)
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "layout.toml").write_text(
        LAYOUT.format(top_level=json.dumps(list(top_level)))
    )
    return tmp_path


def test_imports_are_hoisted_deduplicated_and_grouped(tmp_path):
    root = make_tree(
        tmp_path,
        {
            "one": [
                '''
        #| export: svmlib/alpha.py
        """Alpha (chapter One)."""
        import numpy as np
        import math

        def f(x):
            return np.sqrt(math.pi * x)
        ''',
                "print('book only')",
                """
        #| export: svmlib/alpha.py
        import numpy as np
        from svmlib.other import thing

        def g(x):
            # a comment survives
            return f(x) + thing
        """,
            ]
        },
    )
    text = expected_files(root)[root / "svmlib" / "alpha.py"]
    assert text.splitlines()[0].startswith(
        "# Generated from chapters/one.ipynb"
    )
    assert text.count("import numpy as np") == 1
    assert (
        text.index("import math")
        < text.index("import numpy as np")
        < text.index("from svmlib.other")
    )
    assert text.index("from svmlib.other") < text.index("def f")
    assert (
        "# a comment survives" in text
        and "book only" not in text
        and "#| export" not in text
    )
    compile(text, "alpha.py", "exec")


def test_names_from_sibling_modules_of_the_same_notebook_are_imported(
    tmp_path,
):
    root = make_tree(
        tmp_path,
        {
            "one": [
                '#| export: svmlib/base.py\n"""Base."""\n'
                "def helper():\n    return 1",
                '#| export: svmlib/user.py\n"""User."""\n'
                "def use():\n    return helper()",
            ]
        },
        top_level=["helper"],
    )
    files = expected_files(root)
    assert (
        "from svmlib.base import helper"
        in files[root / "svmlib" / "user.py"]
    )
    init = files[root / "svmlib" / "__init__.py"]
    assert (
        "from .base import (\n    helper,\n)" in init
        and '__version__ = "9.9"' in init
        and "from .user" not in init
    )


def test_modules_of_a_sub_package_and_its_init(tmp_path):
    root = make_tree(
        tmp_path,
        {
            "one": [
                '#| export: svmlib/base.py\n"""Base."""\n'
                "def helper():\n    return 1",
                '#| export: svmlib/pkg/inner.py\n"""Inner."""\n'
                "def deep():\n    return helper()",
            ]
        },
    )
    files = expected_files(root)
    inner = files[root / "svmlib" / "pkg" / "inner.py"]
    assert "from svmlib.base import helper" in inner
    package = files[root / "svmlib" / "pkg" / "__init__.py"]
    assert '"""svmlib.pkg: A sub-package.' in package
    assert "Modules: inner." in package
    api = files[root / "appendices" / "api.md"]
    assert api.index("## Loose in `svmlib/`: the bottom layer") < api.index(
        "## `svmlib.pkg`"
    )
    assert ".. automodule:: svmlib.pkg.inner" in api


@pytest.mark.parametrize(
    "marker, message",
    [
        ("svmlib/nowhere/x.py", "not in a layer"),
        ("svmlib/stray.py", "not in a layer"),
        ("svmlib/pkg/__init__.py", "written by the exporter"),
    ],
)
def test_a_module_outside_the_layout_is_refused(tmp_path, marker, message):
    root = make_tree(
        tmp_path, {"one": [f'#| export: {marker}\n"""X."""\nx = 1']}
    )
    with pytest.raises(ExportError, match=message):
        expected_files(root)


def test_a_top_level_name_no_module_defines_is_refused(tmp_path):
    root = make_tree(
        tmp_path,
        {"one": ['#| export: svmlib/base.py\n"""Base."""\nx = 1']},
        top_level=["helper"],
    )
    with pytest.raises(ExportError, match="no exported module defines"):
        expected_files(root)


def test_write_then_check_round_trip_and_tags(tmp_path):
    root = make_tree(
        tmp_path,
        {"one": ['#| export: svmlib/base.py\n"""Base."""\nX = 1', "y = 2"]},
    )
    assert differences(root)
    write(root)
    assert differences(root) == []
    cells = json.loads((root / "chapters" / "one.ipynb").read_text())[
        "cells"
    ]
    assert (
        cells[0]["metadata"]["tags"] == ["export"]
        and "tags" not in cells[1]["metadata"]
    )
    (root / "svmlib" / "base.py").write_text("edited by hand\n")
    (root / "svmlib" / "stale.py").write_text("")
    problems = differences(root)
    assert any("base.py differs" in p for p in problems)
    assert any("stale.py is not generated" in p for p in problems)


@pytest.mark.parametrize(
    "cells, message",
    [
        (
            ["#| export: svmlib/m.py\ndef f():\n    pass"],
            "must open with the module's one-line docstring",
        ),
        (
            ['#| export: svmlib/m.py\n"""M."""\n%timeit 1'],
            "not plain Python",
        ),
        (['#| export svmlib/m.py\n"""M."""'], "malformed export line"),
    ],
)
def test_broken_export_cells_are_reported(tmp_path, cells, message):
    root = make_tree(tmp_path, {"one": cells})
    with pytest.raises(ExportError, match=message):
        expected_files(root)


def test_a_module_comes_from_one_notebook(tmp_path):
    root = make_tree(
        tmp_path,
        {
            "one": ['#| export: svmlib/m.py\n"""M."""'],
            "two": ["#| export: svmlib/m.py\nx = 1"],
        },
    )
    with pytest.raises(
        ExportError, match="a module comes from one notebook"
    ):
        expected_files(root)


def test_command_line_check_exit_status(capsys):
    assert export.main(["--check"]) == 0


@pytest.mark.parametrize(
    "tags, lab",
    [
        (["hide-input"], {"source_hidden": True}),
        (["hide-output"], {"outputs_hidden": True}),
        (["hide-cell"], {"source_hidden": True, "outputs_hidden": True}),
        ([], None),
    ],
)
def test_lab_folds_what_the_book_folds(tags, lab):
    cell = {
        "cell_type": "code",
        "metadata": {
            "tags": tags,
            "jupyter": {"source_hidden": True, "outputs_hidden": True},
        },
        "source": "x = 1",
    }
    result = export.tagged({"cells": [cell]})["cells"][0]["metadata"]
    assert result.get("jupyter") == lab
