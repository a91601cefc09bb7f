"""svmlib's layout (tools/layout.toml): a small top level, sub-packages in
layers, and no import that runs back up a layer."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest
from export import Layout, read_layout

import svmlib

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "svmlib"
MOST_TOP_LEVEL_NAMES = 30
MOST_LOOSE_MODULES = 12


def dotted_name(path: Path) -> str:
    """``svmlib/kernels/kernel_rows.py`` -> ``kernels.kernel_rows``."""
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return ".".join(p for p in parts if p != "__init__") or "__init__"


def svmlib_imports(source: str, module: str) -> set[str]:
    """The svmlib modules (dotted below svmlib) a module's code imports,
    at its top or inside a function."""
    package = module.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: from the module's own package up
                base = package[: len(package) - node.level + 1]
                names = [".".join(["svmlib", *base, node.module or ""])]
            else:
                names = [node.module]
        else:
            continue
        for name in names:
            if name == "svmlib" or name.startswith("svmlib."):
                found.add(name.removeprefix("svmlib").strip("."))
    return {name for name in found if name}


def upward_imports(
    imports: dict[str, set[str]], layout: Layout
) -> list[str]:
    """Each import that runs up a layer, or from the library into a
    sub-package kept apart, as 'importer -> imported'."""
    wrong = []
    for module, targets in sorted(imports.items()):
        rank = layout.rank(module)
        if rank is None:  # the book's helpers may use the library
            continue
        for target in sorted(targets):
            target_rank = layout.rank(target)
            if target_rank is None or target_rank > rank:
                wrong.append(f"{module} -> {target}")
    return wrong


def library_imports() -> dict[str, set[str]]:
    return {
        dotted_name(path): svmlib_imports(
            path.read_text(encoding="utf-8"), dotted_name(path)
        )
        for path in PACKAGE.rglob("*.py")
        if path.name != "__init__.py"
    }


def test_no_import_runs_back_up_a_layer():
    wrong = upward_imports(library_imports(), read_layout())
    assert not wrong, "imports against the layers:\n" + "\n".join(wrong)


@pytest.mark.parametrize(
    "imports, expected",
    [
        ({"kernels.rows": {"result"}}, []),
        ({"kernels.rows": {"smo.solver"}}, ["kernels.rows -> smo.solver"]),
        (
            {"smo.solver": {"book.plotting"}},
            ["smo.solver -> book.plotting"],
        ),
        ({"book.plotting": {"smo.solver"}}, []),
        ({"linear.svc": {"selection.search"}}, []),
    ],
)
def test_the_layering_rule_catches_an_upward_import(imports, expected):
    layout = Layout(
        top_level=[],
        layers=[["result"], ["kernels"], ["smo"], ["linear", "selection"]],
        apart=["book"],
        packages={},
    )
    assert upward_imports(imports, layout) == expected


def test_imports_are_read_at_the_top_and_inside_functions():
    source = (
        "from svmlib.smo.solver import solve\n"
        "from .kernel_rows import rows\n"
        "def f():\n"
        "    import svmlib.training.fast as fast\n"
    )
    assert svmlib_imports(source, "kernels.kernel_cache") == {
        "smo.solver",
        "kernels.kernel_rows",
        "training.fast",
    }


def test_every_module_lives_in_a_declared_layer():
    layout = read_layout()
    homes = set(layout.order())
    for name in library_imports():
        assert name.split(".")[0] in homes, name


def test_the_top_level_is_the_declared_short_list():
    layout = read_layout()
    assert svmlib.__all__ == layout.top_level
    assert len(svmlib.__all__) <= MOST_TOP_LEVEL_NAMES
    public = {
        name
        for name, value in vars(svmlib).items()
        if not name.startswith("_") and not isinstance(value, type(svmlib))
    }
    assert public == set(svmlib.__all__)


def test_few_modules_are_loose_and_each_sub_package_says_what_it_holds():
    layout = read_layout()
    loose = [p for p in PACKAGE.glob("*.py") if p.name != "__init__.py"]
    assert len(loose) <= MOST_LOOSE_MODULES
    for package in layout.packages:
        init = PACKAGE / package / "__init__.py"
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert doc.startswith(f"svmlib.{package}: "), package
        assert "Built by the chapters" in doc, package


def test_importing_svmlib_leaves_the_book_helpers_out():
    printed = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, svmlib; print(sorted(m for m in sys.modules "
            "if m.startswith('svmlib.book')))",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert printed == "[]"
