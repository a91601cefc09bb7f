"""The rendered book: builds with zero warnings, shows its math offline,
and keeps its look from one install to the next."""

import re
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXTERNAL = re.compile(
    r'<(?:script|link)[^>]+(?:src|href)="(?:https?:)?//[^"]+"'
)


@pytest.mark.slow
def test_every_chapter_page_is_built(built_book):
    for notebook in (ROOT / "chapters").glob("*.ipynb"):
        assert (
            built_book / "chapters" / f"{notebook.stem}.html"
        ).exists(), notebook.name
    assert (built_book / "index.html").exists() or (
        built_book / "intro.html"
    ).exists()


@pytest.mark.slow
def test_mathjax_is_bundled_and_nothing_loads_from_another_host(built_book):
    assert (built_book / "_static" / "mathjax" / "tex-chtml.js").exists()
    for page in built_book.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert not EXTERNAL.findall(text), (
            f"{page.name} loads {EXTERNAL.findall(text)[:3]}"
        )
        if "\\(" in text or "\\[" in text:
            assert "_static/mathjax/tex-chtml.js" in text, (
                f"{page.name} has math but no local MathJax"
            )


@pytest.mark.slow
def test_figures_are_embedded_as_local_images(built_book):
    page = (built_book / "chapters" / "margins.html").read_text(
        encoding="utf-8"
    )
    images = re.findall(r'<img[^>]+src="([^"]+)"', page)
    assert len(images) >= 4
    for source in images:
        assert not source.startswith(("http:", "https:", "//")), source
        assert (built_book / "chapters" / source).resolve().exists(), source


# The packages that decide what a page looks like. Unpinned, a fresh install
# takes their newest releases and the book's pages change under it.
LOOK = (
    "sphinx",
    "jupyter-book",
    "sphinx-book-theme",
    "pydata-sphinx-theme",
    "myst-nb",
    "myst-parser",
    "sphinx-togglebutton",
    "sphinx-copybutton",
    "sphinx-design",
    "sphinx-thebe",
    "sphinx-mathjax-offline",
    "sphinx-exercise",
    "docutils",
    "pygments",
)


def pinned_requirements():
    """{normalised name: version} of the ``name==version`` lines."""
    pins = {}
    text = (ROOT / "requirements.txt").read_text(encoding="utf-8")
    for line in text.splitlines():
        requirement = line.split("#")[0].strip()
        if "==" in requirement:
            name, version = requirement.split("==")
            pins[name.strip().lower().replace("_", "-")] = version.strip()
    return pins


def test_every_package_of_the_pages_look_is_pinned_and_installed():
    pins = pinned_requirements()
    for name in LOOK:
        assert name in pins, f"requirements.txt does not pin {name}"
        assert metadata.version(name) == pins[name], (
            f"{name} {metadata.version(name)} is installed, "
            f"requirements.txt pins {pins[name]}: run `make clean book`"
        )
