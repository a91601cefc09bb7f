"""The rendered book: builds with zero warnings and needs no network to show its math."""

import re
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
def test_mathjax_is_bundled_and_no_page_loads_scripts_or_styles_from_another_host(
    built_book,
):
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
