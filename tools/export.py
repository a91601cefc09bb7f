"""Write the svmlib package from the exported cells of the notebooks.

The notebooks in ``chapters/`` are the source of svmlib.  A code cell whose
first line is::

    #| export: svmlib/derivation/margins.py

belongs to the module ``svmlib/derivation/margins.py`` (a module of the
sub-package ``svmlib.derivation``; ``svmlib/result.py`` is one of the few
modules loose in ``svmlib/``); every other cell is only part of the book.
Which sub-packages and loose modules exist, in which layers, and which names
``import svmlib`` gives, is declared in ``tools/layout.toml``. The exporter

* gathers the exported cells of each module, in the order the table of
  contents gives the notebooks and the notebooks give their cells (a module
  comes from exactly one notebook);
* opens each module with a line naming the notebook and saying not to edit
  it, then the module docstring (the first exported cell of a module must
  start with it), then the imports of all its cells, de-duplicated and
  grouped (standard library, third party, svmlib), then the code;
* adds ``from svmlib.<package>.<module> import name`` for names the module
  uses that another exported module of the same notebook defines (in the
  notebook they are simply in scope);
* writes ``svmlib/__init__.py`` re-exporting the layout's top-level names,
  and each sub-package's ``__init__.py`` with its docstring (what it holds,
  from the layout, and the chapters that build it);
* writes the API reference page ``appendices/api.md``: every module, grouped
  by sub-package in the order of the layers, documented from its docstrings
  by Sphinx's autodoc, with a link to the chapter that derives it;
* tags each exported cell ``export`` in the notebook, so the rendered book
  can mark it, and keeps JupyterLab's folding of each code cell
  (``"jupyter": {"source_hidden": true}``) in step with its ``hide-*``
  tags, so a notebook opened in Lab folds what the book folds.

``python tools/export.py`` writes the files; ``python tools/export.py
--check`` writes nothing and exits with status 1 when ``svmlib/`` or a
notebook's tags differ from what it would write.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
import textwrap
import tomllib
from dataclasses import dataclass
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "svmlib"
MARKER = re.compile(
    r"^#\|\s*export:\s*svmlib/"
    r"(?P<module>(?:[a-z_][a-z0-9_]*/)?[a-z_][a-z0-9_]*)\.py\s*$"
)
LAYOUT = Path("tools") / "layout.toml"
EXPORT_TAG = "export"
INIT_DOCSTRING = (
    '"""svmlib: support vector machines derived and built chapter by '
    "chapter in the SVM book.\n"
    "\n"
    "The top level holds what a user imports (the estimators, the search, "
    "the kernels, the\n"
    "solver core); everything else lives in sub-packages that mirror the "
    "layers of the library\n"
    "(svmlib.kernels, svmlib.derivation, svmlib.smo, ...; "
    "tools/layout.toml lists them). Every\n"
    "module is generated from the exported cells of one chapter notebook; "
    "its docstring names\n"
    'the chapter that derives it.\n"""'
)


class ExportError(Exception):
    """A notebook breaks a rule of the export mechanism."""


@dataclass(frozen=True)
class Fragment:
    """The code of one exported cell, with where it came from."""

    notebook: str
    cell_index: int
    code: str

    @property
    def where(self) -> str:
        return f"{self.notebook}, code cell {self.cell_index}"


def cell_source(cell: dict) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else source


def notebooks_in_toc_order(root: Path = ROOT) -> list[Path]:
    """The chapter notebooks, in the order ``_toc.yml`` lists them."""
    toc = yaml.safe_load((root / "_toc.yml").read_text(encoding="utf-8"))
    found: list[Path] = []

    def walk(node) -> None:
        if isinstance(node, dict):
            if "file" in node:
                path = root / f"{node['file']}.ipynb"
                if path.exists():
                    found.append(path)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(toc)
    return found


def read_notebook(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def notebook_text(notebook: dict) -> str:
    """The notebook serialised as Jupyter writes it (one-space indent,
    trailing newline)."""
    return json.dumps(notebook, indent=1, ensure_ascii=False) + "\n"


def export_module_of(cell: dict) -> str | None:
    """The module an exported code cell belongs to, dotted below svmlib
    (``derivation.margins``, ``result``), or None for a book-only cell."""
    if cell.get("cell_type") != "code":
        return None
    lines = cell_source(cell).splitlines()
    match = MARKER.match(lines[0]) if lines else None
    return match["module"].replace("/", ".") if match else None


def module_file(module: str) -> str:
    """The file of a dotted module name, relative to the project root."""
    return f"{PACKAGE}/{module.replace('.', '/')}.py"


@dataclass(frozen=True)
class Layout:
    """tools/layout.toml: the top-level names, the layers (each a list of
    sub-packages and loose modules, bottom first), the sub-packages apart
    from the layers, and each sub-package's description."""

    top_level: list[str]
    layers: list[list[str]]
    apart: list[str]
    packages: dict[str, str]

    def home(self, module: str) -> str:
        """The sub-package or loose module a module belongs to."""
        return module.split(".")[0]

    def rank(self, module: str) -> int | None:
        """The layer of a module (0 at the bottom), None when apart."""
        home = self.home(module)
        for number, layer in enumerate(self.layers):
            if home in layer:
                return number
        return None

    def order(self) -> list[str]:
        """Sub-packages and loose modules, bottom layer first, then
        apart."""
        return [h for layer in self.layers for h in layer] + self.apart


def read_layout(root: Path = ROOT) -> Layout:
    data = tomllib.loads((root / LAYOUT).read_text(encoding="utf-8"))
    return Layout(
        list(data["top_level"]),
        [list(layer) for layer in data["layers"]],
        list(data.get("apart", [])),
        dict(data.get("packages", {})),
    )


def check_homes(modules: dict[str, list[Fragment]], layout: Layout) -> None:
    """Every module lives in a declared sub-package, or is a declared loose
    module; a package is one level deep."""
    homes = set(layout.order())
    for module, fragments in modules.items():
        parts = module.split(".")
        is_package = len(parts) == 2 and parts[0] in layout.packages
        is_loose = len(parts) == 1 and parts[0] not in layout.packages
        if parts[0] not in homes or not (is_package or is_loose):
            raise ExportError(
                f"{fragments[0].where}: {module_file(module)} is not in "
                f"a layer of {LAYOUT}; declare its sub-package or module "
                "there"
            )


def collect_fragments(
    notebooks: list[Path], root: Path = ROOT
) -> dict[str, list[Fragment]]:
    """Exported cells grouped by module, each module from a single
    notebook."""
    modules: dict[str, list[Fragment]] = {}
    for path in notebooks:
        name = str(path.relative_to(root))
        code_cells = [
            c
            for c in read_notebook(path)["cells"]
            if c.get("cell_type") == "code"
        ]
        for index, cell in enumerate(code_cells, start=1):
            module = export_module_of(cell)
            if module is None:
                first_line = (cell_source(cell).splitlines() or [""])[0]
                if first_line.startswith("#| export"):
                    raise ExportError(
                        f"{name}, code cell {index}: malformed export "
                        "line; write '#| export: svmlib/<package>/"
                        "<module>.py'"
                    )
                continue
            if module.split(".")[-1] == "__init__":
                raise ExportError(
                    f"{name}: {module_file(module)} is written by the "
                    "exporter"
                )
            code = "\n".join(cell_source(cell).splitlines()[1:])
            fragment = Fragment(name, index, code)
            previous = modules.setdefault(module, [])
            if previous and previous[0].notebook != name:
                raise ExportError(
                    f"{module_file(module)} gets cells from both "
                    f"{previous[0].where} and {fragment.where}; "
                    "a module comes from one notebook"
                )
            previous.append(fragment)
    return modules


def parse(fragment: Fragment) -> ast.Module:
    try:
        return ast.parse(fragment.code)
    except SyntaxError as error:
        raise ExportError(
            f"{fragment.where}: exported code is not plain Python "
            f"({error.msg}, line {error.lineno}); "
            "notebook magics cannot be exported"
        ) from error


def top_level_names(tree: ast.Module) -> list[str]:
    """Names a module defines at top level (functions, classes,
    assignments)."""
    names: list[str] = []
    for node in tree.body:
        if isinstance(
            node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
        ):
            names.append(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = (
                node.targets
                if isinstance(node, ast.Assign)
                else [node.target]
            )
            for target in targets:  # a name, or a tuple of names
                elements = (
                    target.elts
                    if isinstance(target, ast.Tuple)
                    else [target]
                )
                names.extend(
                    e.id for e in elements if isinstance(e, ast.Name)
                )
    return names


def public_api(tree: ast.Module) -> list[str]:
    """Public functions and classes: what ``svmlib/__init__.py``
    re-exports."""
    return [
        node.name
        for node in tree.body
        if isinstance(node, (ast.FunctionDef, ast.ClassDef))
        and not node.name.startswith("_")
    ]


def imported_names(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            names.update(
                (alias.asname or alias.name).split(".")[0]
                for alias in node.names
            )
        elif isinstance(node, ast.ImportFrom):
            names.update(alias.asname or alias.name for alias in node.names)
    return names


def used_names(tree: ast.Module) -> set[str]:
    return {
        node.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)
    }


def import_group(statement: ast.stmt) -> int:
    """0: __future__, 1: standard library, 2: third party, 3: svmlib."""
    if isinstance(statement, ast.ImportFrom):
        top = (statement.module or "").split(".")[0]
    else:
        top = statement.names[0].name.split(".")[0]
    if top == "__future__":
        return 0
    if top in sys.stdlib_module_names:
        return 1
    return 3 if top == PACKAGE else 2


@dataclass
class ModuleSource:
    """A module assembled from its fragments, before it is rendered as
    text."""

    name: str
    notebook: str
    docstring: str
    imports: list[tuple[int, str]]
    bodies: list[str]
    tree: ast.Module


def assemble(module: str, fragments: list[Fragment]) -> ModuleSource:
    docstring = None
    imports: list[tuple[int, str]] = []
    bodies: list[str] = []
    statements: list[ast.stmt] = []
    for position, fragment in enumerate(fragments):
        tree = parse(fragment)
        lines = fragment.code.splitlines()
        dropped: set[int] = set()
        for number, node in enumerate(tree.body):
            is_docstring = (
                position == 0
                and number == 0
                and isinstance(node, ast.Expr)
                and isinstance(node.value, ast.Constant)
                and isinstance(node.value.value, str)
            )
            if is_docstring:
                docstring = ast.get_source_segment(fragment.code, node)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                text = ast.get_source_segment(fragment.code, node)
                if text not in (line for _, line in imports):
                    imports.append((import_group(node), text))
            else:
                statements.append(node)
                continue
            dropped.update(range(node.lineno - 1, node.end_lineno))
        body = "\n".join(
            line.rstrip()
            for i, line in enumerate(lines)
            if i not in dropped
        ).strip("\n")
        body = re.sub(r"\n{4,}", "\n\n\n", body)
        if body:
            bodies.append(body)
    if docstring is None:
        raise ExportError(
            f"{fragments[0].where}: the first exported cell of "
            f"{module_file(module)} must open with the module's one-line "
            "docstring"
        )
    return ModuleSource(
        module,
        fragments[0].notebook,
        docstring,
        imports,
        bodies,
        ast.Module(body=statements, type_ignores=[]),
    )


def add_sibling_imports(sources: dict[str, ModuleSource]) -> None:
    """Import names that a module takes from another module exported by the
    same notebook."""
    owner: dict[str, str] = {}
    for source in sources.values():
        for name in top_level_names(source.tree):
            if name in owner and owner[name] != source.name:
                raise ExportError(
                    f"'{name}' is defined in both "
                    f"{module_file(owner[name])} and "
                    f"{module_file(source.name)}"
                )
            owner[name] = source.name
    for source in sources.values():
        local = set(top_level_names(source.tree))
        present = imported_names(
            ast.parse("\n".join(text for _, text in source.imports))
        )
        needed: dict[str, list[str]] = {}
        for name in sorted(used_names(source.tree) - local - present):
            other = owner.get(name)
            if (
                other is not None
                and sources[other].notebook == source.notebook
            ):
                needed.setdefault(other, []).append(name)
        for other, names in needed.items():
            source.imports.append(
                (3, f"from {PACKAGE}.{other} import {', '.join(names)}")
            )


def render_imports(imports: list[tuple[int, str]]) -> str:
    groups = [
        [text for group, text in imports if group == g] for g in range(4)
    ]
    return "\n\n".join("\n".join(group) for group in groups if group)


def header(notebook: str) -> str:
    return (
        f"# Generated from {notebook} by tools/export.py. "
        "Do not edit: change the notebook, then run `make export`."
    )


def render_module(source: ModuleSource) -> str:
    opening = header(source.notebook) + "\n" + source.docstring
    if source.imports:
        opening += "\n\n" + render_imports(source.imports)
    parts = [opening, *source.bodies]
    return "\n\n\n".join(parts) + "\n"


def project_version(root: Path = ROOT) -> str:
    return tomllib.loads(
        (root / "pyproject.toml").read_text(encoding="utf-8")
    )["project"]["version"]


def in_layout_order(
    sources: list[ModuleSource], layout: Layout
) -> list[ModuleSource]:
    """The modules grouped by sub-package (or loose module), bottom layer
    first; within a group, in the order of the book."""
    order = layout.order()
    return sorted(sources, key=lambda s: order.index(layout.home(s.name)))


def render_init(
    sources: list[ModuleSource], version: str, layout: Layout
) -> str:
    """``svmlib/__init__.py``: the layout's top-level names, each imported
    from the module that defines it."""
    defined_in: dict[str, str] = {}
    for source in sources:
        for name in public_api(source.tree):
            defined_in[name] = source.name
    unknown = [n for n in layout.top_level if n not in defined_in]
    if unknown:
        raise ExportError(
            f"{LAYOUT}: no exported module defines {', '.join(unknown)}"
        )
    lines = [
        "# Generated by tools/export.py from the exported cells of "
        "chapters/*.ipynb and tools/layout.toml. Do not edit: run "
        "`make export`.",
        INIT_DOCSTRING,
        "",
    ]
    for source in in_layout_order(sources, layout):
        names = [
            n for n in layout.top_level if defined_in[n] == source.name
        ]
        if names:
            lines.append(f"from .{source.name} import (")
            lines.extend(f"    {name}," for name in names)
            lines.append(")")
    lines += ["", f'__version__ = "{version}"', "", "__all__ = ["]
    lines.extend(f'    "{name}",' for name in layout.top_level)
    lines.append("]")
    return "\n".join(lines) + "\n"


def chapters_of(package: str, sources: list[ModuleSource]) -> list[str]:
    """The notebooks that export a sub-package's modules, in book order."""
    found: list[str] = []
    for source in sources:
        if source.name.split(".")[0] == package and (
            source.notebook not in found
        ):
            found.append(source.notebook)
    return found


def render_package_init(
    package: str,
    sources: list[ModuleSource],
    layout: Layout,
    root: Path = ROOT,
) -> str:
    """A sub-package's ``__init__.py``: only its docstring (what it holds,
    which chapters build it, its modules); it imports nothing, so importing
    one module of a sub-package does not import the others."""
    titles = ", ".join(
        f'"{notebook_title(root / n)}"'
        for n in chapters_of(package, sources)
    )
    modules = ", ".join(
        s.name.split(".")[1]
        for s in sources
        if s.name.split(".")[0] == package
    )
    text = (
        f"svmlib.{package}: {layout.packages[package]}\n\n"
        f"Built by the chapters {titles}.\n\nModules: {modules}."
    )
    wrapped = "\n".join(
        "\n".join(textwrap.wrap(paragraph, 79)) if paragraph else ""
        for paragraph in text.split("\n")
    )
    return (
        "# Generated by tools/export.py from tools/layout.toml. "
        "Do not edit: run `make export`.\n"
        f'"""{wrapped}\n"""\n'
    )


API_PAGE = Path("appendices") / "api.md"
# Methods that scikit-learn's BaseEstimator adds to every estimator
# (metadata routing); their docstrings are scikit-learn's, not the book's.
API_EXCLUDED = (
    "set_score_request",
    "set_fit_request",
    "set_predict_request",
)
API_INTRODUCTION = (
    "(api-reference)=\n"
    "# API reference\n"
    "\n"
    "Every public function and class of svmlib, generated from its "
    "docstring, grouped by sub-package\n"
    "in the order of the library's layers (bottom first: a module imports "
    "only from its layer and\n"
    "those below), each module with a link to the chapter that derives it. "
    "A docstring names the\n"
    "equations it implements by\n"
    "their labels, as `help()` shows them (for example "
    "`eq. (eq-soft-dual)`); on this page each label\n"
    "is a link to its equation. This page is written by `tools/export.py`\n"
    "together with the package, so it always matches the code.\n"
)


def notebook_title(path: Path) -> str:
    """The title of a chapter: the first level-one heading of its markdown
    cells."""
    for cell in read_notebook(path)["cells"]:
        if cell.get("cell_type") == "markdown":
            for line in cell_source(cell).splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return path.stem


def render_api_reference(
    sources: list[ModuleSource], layout: Layout, root: Path = ROOT
) -> str:
    """The API reference page: one section per sub-package (and loose
    module), bottom layer first, one autodoc block per module with a link to
    the chapter that derives it. Its entries stay out of the book's index
    (``:no-index:``), which is the index of concepts; this page is the index
    of the API."""
    parts = [API_INTRODUCTION]
    top = ", ".join(f"`{name}`" for name in layout.top_level)
    parts.append(f"## `import svmlib`\n\nThe top level: {top}.\n")
    heading = None
    for source in in_layout_order(sources, layout):
        home = layout.home(source.name)
        if home in layout.packages:
            title = f"## `{PACKAGE}.{home}`\n\n{layout.packages[home]}\n"
        else:  # the loose modules of a layer share a heading
            rank = layout.rank(home)
            where = {
                0: "the bottom layer",
                len(layout.layers) - 1: "the top",
            }
            loose = [
                f"`{PACKAGE}.{name}`"
                for name in layout.layers[rank]
                if name not in layout.packages
            ]
            title = (
                f"## Loose in `svmlib/`: {where.get(rank, f'layer {rank}')}"
                f"\n\n{', '.join(loose)}.\n"
            )
        if title != heading:
            heading = title
            parts.append(title)
        page = Path(source.notebook).with_suffix("").as_posix()
        parts.append(
            f"### `{PACKAGE}.{source.name}`\n\n"
            f"From {{doc}}`../{page}`.\n\n"
            f"```{{eval-rst}}\n"
            f".. automodule:: {PACKAGE}.{source.name}\n"
            "   :members:\n"
            "   :no-index:\n"
            f"   :exclude-members: {', '.join(API_EXCLUDED)}\n```\n"
        )
    return "\n".join(parts)


def jupyter_folding(tags: list[str]) -> dict[str, bool]:
    """JupyterLab's own folding for a cell with these tags, as the book
    folds it: ``hide-input`` hides the source, ``hide-output`` the outputs,
    ``hide-cell`` both (Lab's ``source_hidden`` and ``outputs_hidden``)."""
    folding = {}
    if {"hide-input", "hide-cell"} & set(tags):
        folding["source_hidden"] = True
    if {"hide-output", "hide-cell"} & set(tags):
        folding["outputs_hidden"] = True
    return folding


def tagged(notebook: dict) -> dict:
    """The notebook with the ``export`` tag on exactly its exported cells,
    and JupyterLab's folding of every code cell in step with its tags."""
    result = json.loads(json.dumps(notebook))
    for cell in result["cells"]:
        if cell.get("cell_type") != "code":
            continue
        metadata = cell.setdefault("metadata", {})
        tags = [t for t in metadata.get("tags", []) if t != EXPORT_TAG]
        if export_module_of(cell) is not None:
            tags.insert(0, EXPORT_TAG)
        if tags:
            metadata["tags"] = tags
        else:
            metadata.pop("tags", None)
        lab = {
            key: value
            for key, value in metadata.get("jupyter", {}).items()
            if key not in ("source_hidden", "outputs_hidden")
        }
        lab.update(jupyter_folding(tags))
        if lab:
            metadata["jupyter"] = lab
        else:
            metadata.pop("jupyter", None)
    return result


def expected_files(root: Path = ROOT) -> dict[Path, str]:
    """Every file the exporter owns, with the text it should have."""
    layout = read_layout(root)
    notebooks = notebooks_in_toc_order(root)
    fragments = collect_fragments(notebooks, root)
    check_homes(fragments, layout)
    sources = {
        name: assemble(name, frags) for name, frags in fragments.items()
    }
    add_sibling_imports(sources)
    listed = list(sources.values())
    files = {
        root / module_file(name): render_module(source)
        for name, source in sources.items()
    }
    files[root / PACKAGE / "__init__.py"] = render_init(
        listed, project_version(root), layout
    )
    for package in sorted(
        {layout.home(n) for n in sources} & set(layout.packages)
    ):
        files[root / PACKAGE / package / "__init__.py"] = (
            render_package_init(package, listed, layout, root)
        )
    files[root / API_PAGE] = render_api_reference(listed, layout, root)
    for path in notebooks:
        files[path] = notebook_text(tagged(read_notebook(path)))
    return files


def package_files(root: Path) -> list[Path]:
    """The Python files under svmlib/ (the data it ships aside)."""
    return sorted((root / PACKAGE).rglob("*.py"))


def differences(root: Path = ROOT) -> list[str]:
    """What differs between the tree and what the exporter would write
    (empty when in sync)."""
    expected = expected_files(root)
    problems = []
    for path, text in expected.items():
        if not path.exists():
            problems.append(f"{path.relative_to(root)} is missing")
        elif path.suffix == ".ipynb":
            if json.loads(path.read_text(encoding="utf-8")) != json.loads(
                text
            ):
                problems.append(
                    f"{path.relative_to(root)}: the 'export' cell tags "
                    "are out of date"
                )
        elif path.read_text(encoding="utf-8") != text:
            problems.append(
                f"{path.relative_to(root)} differs from its notebook"
            )
    for path in package_files(root):
        if path not in expected:
            problems.append(
                f"{path.relative_to(root)} is not generated by any notebook"
            )
    return problems


def write(root: Path = ROOT) -> list[Path]:
    """Write every out-of-date file, remove stale modules; return what
    changed."""
    changed = []
    expected = expected_files(root)
    (root / API_PAGE).parent.mkdir(exist_ok=True)
    for path, text in expected.items():
        if path.suffix == ".ipynb" and json.loads(
            path.read_text(encoding="utf-8")
        ) == json.loads(text):
            continue
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            changed.append(path)
    for path in package_files(root):
        if path not in expected:
            path.unlink()
            changed.append(path)
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--check",
        action="store_true",
        help=(
            "write nothing; exit 1 if svmlib/ or the notebooks' tags are "
            "out of date"
        ),
    )
    args = parser.parse_args(argv)
    try:
        if args.check:
            problems = differences()
            for problem in problems:
                print(problem)
            return 1 if problems else 0
        for path in write():
            print(f"wrote {path.relative_to(ROOT)}")
    except ExportError as error:
        print(f"export error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
