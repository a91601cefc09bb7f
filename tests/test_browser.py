"""The built book as a reader sees it: every page opened in Chromium.

The site is served on 127.0.0.1 and every request to any other host is
blocked (and recorded). Each page is visited once; the tests below then
check, page by page, that the bundled MathJax typeset every equation without
an error, that every image loaded, that videos (if any) play, that the
console stayed free of errors, that no request left the machine or failed,
that no cross-reference or citation was left unresolved and no equation
label stands in the text where a link should, and that no code block or
printed output (folds opened) is wider than its box at a 1280- and a
1024-pixel window, that every figure of a chapter is captioned and shown
large enough to read (and every chapter has two), and that interactive
figures respond to their sliders offline. Internal links are checked in
the HTML files. The scripts
run in the pages are in ``tests/browser/``.

A full-page screenshot of each chapter is written to ``_build/screenshots/``
for a person to look at.

Chromium: ``$SVMBOOK_CHROMIUM``, else ``chromium`` on the PATH (Debian's
package, which ``.ci/run`` installs when missing). Without one the tests are
skipped, unless ``SVMBOOK_REQUIRE_BROWSER=1`` (set by ``.ci/run``), which
turns the missing browser into a failure.
"""

import functools
import http.server
import json
import os
import shutil
import threading
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlparse

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCREENSHOTS = ROOT / "_build" / "screenshots"
CHROMIUM_FLAGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PAGE_TIMEOUT_MS = 60_000

# Scripts run in each page: what a reader sees, then (with every fold
# opened) the code blocks too wide for their box, at each window width.
SCRIPTS = ROOT / "tests" / "browser"
INSPECT_PAGE = (SCRIPTS / "inspect_page.js").read_text(encoding="utf-8")
CLIPPED_CODE = (SCRIPTS / "clipped_code.js").read_text(encoding="utf-8")
FIGURES = (SCRIPTS / "figures.js").read_text(encoding="utf-8")
# A figure the page shows below this share of its pixel width has text too
# small to read; every chapter teaches with at least this many figures.
MIN_FIGURE_SCALE = 0.6
MIN_FIGURES_PER_CHAPTER = 2
WINDOW_WIDTHS = (1280, 1024)
WINDOW_HEIGHT = 900


@dataclass
class PageReport:
    """What one visit to a page recorded."""

    name: str
    console_errors: list = field(default_factory=list)
    outside_requests: list = field(default_factory=list)
    failed_requests: list = field(default_factory=list)
    seen: dict = field(default_factory=dict)
    clipped: dict = field(default_factory=dict)
    figures: dict = field(default_factory=dict)


def find_chromium():
    for candidate in (
        os.environ.get("SVMBOOK_CHROMIUM"),
        shutil.which("chromium"),
        shutil.which("chromium-browser"),
        shutil.which("google-chrome"),
    ):
        if candidate and Path(candidate).exists():
            return candidate
    return None


def html_pages(site):
    """Every HTML page of the site except the redirects (pages that only
    forward to another)."""
    pages = []
    for path in sorted(site.rglob("*.html")):
        if (
            path.relative_to(site).parts[0] == "_static"
        ):  # the theme's templates, not pages
            continue
        text = path.read_text(encoding="utf-8")
        if 'http-equiv="Refresh"' in text and "<body" not in text:
            continue
        pages.append(path.relative_to(site).as_posix())
    return pages


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def site_url(built_book):
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0),
        functools.partial(QuietHandler, directory=str(built_book)),
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def reports(built_book, site_url):
    """Visit every page once in headless Chromium; return {page:
    PageReport}."""
    chromium = find_chromium()
    if chromium is None:
        message = (
            "no Chromium found (install Debian's chromium, "
            "or set SVMBOOK_CHROMIUM)"
        )
        if os.environ.get("SVMBOOK_REQUIRE_BROWSER") == "1":
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    found = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium, args=CHROMIUM_FLAGS
        )
        context = browser.new_context(
            viewport={"width": WINDOW_WIDTHS[0], "height": WINDOW_HEIGHT}
        )
        current = {}

        def only_local(route):
            url = route.request.url
            if (
                url.startswith(("data:", "blob:"))
                or urlparse(url).hostname == "127.0.0.1"
            ):
                route.continue_()
            else:
                current["report"].outside_requests.append(url)
                route.abort()

        context.route("**/*", only_local)
        for name in html_pages(built_book):
            report = current["report"] = PageReport(name)
            page = context.new_page()
            page.on(
                "console",
                lambda message, r=report: (
                    r.console_errors.append(message.text)
                    if message.type == "error"
                    else None
                ),
            )
            page.on(
                "pageerror",
                lambda error, r=report: r.console_errors.append(str(error)),
            )
            page.on(
                "response",
                lambda response, r=report: (
                    r.failed_requests.append(
                        f"{response.status} {response.url}"
                    )
                    if response.status >= 400
                    else None
                ),
            )
            page.goto(
                urljoin(site_url, name),
                wait_until="load",
                timeout=PAGE_TIMEOUT_MS,
            )
            report.seen = page.evaluate(INSPECT_PAGE)
            if name.startswith(("chapters/", "appendices/")):
                page.screenshot(
                    path=str(screenshot_of(name)), full_page=True
                )
            for width in WINDOW_WIDTHS:
                page.set_viewport_size(
                    {"width": width, "height": WINDOW_HEIGHT}
                )
                report.clipped[width] = page.evaluate(CLIPPED_CODE)
                if width == WINDOW_WIDTHS[0]:
                    report.figures = page.evaluate(FIGURES)
            page.close()
            found[name] = report
        browser.close()
    return found


def screenshot_of(name):
    """Where the full-page screenshot of a page is saved."""
    return SCREENSHOTS / name.replace("/", "__").replace(".html", ".png")


def problems(reports, describe):
    """{page: what is wrong} for the pages where ``describe(report)`` finds
    something (a test asserts it is empty, so a failure lists only them)."""
    return {
        name: issue
        for name, report in reports.items()
        if (issue := describe(report))
    }


@pytest.mark.slow
def test_every_page_was_visited(reports, built_book):
    assert set(reports) == set(html_pages(built_book))
    chapters = [name for name in reports if name.startswith("chapters/")]
    assert len(chapters) == len(list((ROOT / "chapters").glob("*.ipynb")))
    for name in chapters:
        assert screenshot_of(name).stat().st_size > 0


@pytest.mark.slow
def test_every_equation_is_typeset_by_the_bundled_mathjax(reports):
    assert (
        problems(
            reports,
            lambda r: (
                r.seen["untypeset"]
                + r.seen["math_errors"]
                + r.seen["raw_tex"]
                + r.seen["stray_backslashes"]
                + r.seen["control_characters"]
            ),
        )
        == {}
    )
    assert all(
        reports[name].seen["n_math"] > 0
        for name in reports
        if name.startswith("chapters/")
    )


@pytest.mark.slow
def test_every_display_equation_fits_the_column_at_1280_pixels(reports):
    """A wider equation gets a scroll bar, and a reader sees it cut off
    (split it over lines)."""
    assert problems(reports, lambda r: r.seen["too_wide"]) == {}


@pytest.mark.slow
@pytest.mark.parametrize("width", WINDOW_WIDTHS)
def test_every_code_block_fits_the_column_with_its_folds_open(
    reports, width
):
    """Code and printed output, folded cells opened: none is wider than its
    box at this window width (a reader would scroll sideways)."""
    assert problems(reports, lambda r: r.clipped[width]["clipped"]) == {}
    assert sum(r.clipped[width]["n_blocks"] for r in reports.values()) > 100


@pytest.mark.slow
def test_equations_are_referred_to_by_links_not_raw_labels(reports):
    """ "eq. (eq-soft-dual)" in the text is a label that did not become a
    link (docstrings' labels become links in the API reference)."""
    assert problems(reports, lambda r: r.seen["raw_labels"]) == {}


@pytest.mark.slow
def test_every_image_loads_and_every_video_plays(reports):
    assert (
        problems(
            reports,
            lambda r: (
                r.seen["broken_images"] + r.seen["videos_not_playing"]
            ),
        )
        == {}
    )
    figures = sum(
        1
        for notebook in (ROOT / "chapters").glob("*.ipynb")
        for cell in json.loads(notebook.read_text(encoding="utf-8"))[
            "cells"
        ]
        for output in cell.get("outputs", [])
        if "image/png" in output.get("data", {})
    )
    assert (
        sum(
            reports[name].seen["n_images"]
            for name in reports
            if name.startswith("chapters/")
        )
        >= figures
    )


@pytest.mark.slow
def test_the_console_shows_no_errors(reports):
    assert problems(reports, lambda r: r.console_errors) == {}


@pytest.mark.slow
def test_no_request_leaves_the_machine_or_fails(reports):
    assert (
        problems(reports, lambda r: r.outside_requests + r.failed_requests)
        == {}
    )


@pytest.mark.slow
def test_cross_references_and_citations_resolve(reports):
    assert problems(reports, lambda r: r.seen["unresolved"]) == {}


class LinksAndIds(HTMLParser):
    """The href of every link and every id of one HTML page."""

    def __init__(self):
        super().__init__()
        self.links, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if attributes.get("id"):
            self.ids.add(attributes["id"])
        if tag == "a" and attributes.get("href"):
            self.links.append(attributes["href"])


@pytest.mark.slow
def test_internal_links_point_to_existing_pages_and_anchors(built_book):
    parsed = {}
    for path in built_book.rglob("*.html"):
        parser = LinksAndIds()
        parser.feed(path.read_text(encoding="utf-8"))
        parsed[path.resolve()] = parser
    broken = []
    for path, parser in parsed.items():
        for href in parser.links:
            target = urlparse(href)
            if target.scheme or href.startswith("//"):
                continue
            page = (
                (path.parent / unquote(target.path)).resolve()
                if target.path
                else path
            )
            if page.is_dir():
                page = page / "index.html"
            if not page.exists():
                broken.append(f"{path.name}: {href} (no such file)")
            elif (
                target.fragment
                and page in parsed
                and unquote(target.fragment) not in parsed[page].ids
            ):
                broken.append(f"{path.name}: {href} (no such anchor)")
    assert not broken, "\n".join(broken[:20])


@pytest.mark.slow
def test_search_excerpts_show_no_raw_tex(site_url):
    """A search's excerpts leave formulas out (_static/search_excerpts.js)
    rather than show their TeX source, which MathJax never typesets
    there."""
    chromium = find_chromium()
    if chromium is None:
        if os.environ.get("SVMBOOK_REQUIRE_BROWSER") == "1":
            pytest.fail("no Chromium found")
        pytest.skip("no Chromium found")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium, args=CHROMIUM_FLAGS
        )
        page = browser.new_page()
        page.goto(urljoin(site_url, "search.html?q=multiplier"))
        page.wait_for_function(
            "document.querySelectorAll('#search-results p.context')"
            ".length >= 5",
            timeout=PAGE_TIMEOUT_MS,
        )
        excerpts = page.eval_on_selector_all(
            "#search-results p.context", "ps => ps.map(p => p.textContent)"
        )
        browser.close()
    raw = [text for text in excerpts if "\\(" in text or "\\[" in text]
    assert not raw, raw[:3]


@pytest.mark.slow
def test_a_link_into_a_folded_box_opens_it(site_url, built_book):
    """Following a link whose target sits in a folded box (a Going-deeper
    dropdown, say) opens the box and shows the target
    (_static/open_folds.js), instead of an empty box."""
    chromium = find_chromium()
    if chromium is None:
        if os.environ.get("SVMBOOK_REQUIRE_BROWSER") == "1":
            pytest.fail("no Chromium found")
        pytest.skip("no Chromium found")
    from playwright.sync_api import sync_playwright

    folded_target = (
        "() => { const t = document.querySelector("
        "'.toggle-hidden [id^=\"equation-\"]'); return t ? t.id : null; }"
    )
    shown = (
        "id => { const t = document.getElementById(id);"
        " const r = t.getBoundingClientRect();"
        " return t.checkVisibility({visibilityProperty: true,"
        " opacityProperty: true}) && r.height > 0"
        " && r.top >= 0 && r.top < window.innerHeight; }"
    )
    checked = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium, args=CHROMIUM_FLAGS
        )
        page = browser.new_page()
        for chapter in sorted((built_book / "chapters").glob("*.html")):
            url = urljoin(site_url, f"chapters/{chapter.name}")
            page.goto(url, wait_until="load")
            target = page.evaluate(folded_target)
            if target is None:
                continue
            page.goto(f"{url}#{target}", wait_until="load")
            page.wait_for_timeout(500)
            checked.append(
                (chapter.name, target, page.evaluate(shown, target))
            )
        browser.close()
    assert len(checked) >= 3
    assert all(ok for _, _, ok in checked), checked


@pytest.mark.slow
def test_every_figure_is_captioned_and_legible(reports):
    """Every figure of a chapter has a caption and is shown at no less than
    MIN_FIGURE_SCALE of its pixel width at 1280 pixels (a wide figure is
    laid out as a grid, not shrunk); every chapter has at least
    MIN_FIGURES_PER_CHAPTER figures."""

    def faults(report):
        if not report.name.startswith("chapters/"):
            return None
        figures = report.figures["static"] + report.figures["interactive"]
        found = [
            f"uncaptioned: {f['text']}"
            for f in figures
            if not f["captioned"]
        ] + [
            f"shown at {f['scale']:.2f} of its width: {f['text']}"
            for f in report.figures["static"]
            if f["scale"] < MIN_FIGURE_SCALE
        ]
        if len(figures) < MIN_FIGURES_PER_CHAPTER:
            found.append(f"{len(figures)} figures")
        return found

    assert problems(reports, faults) == {}


@pytest.mark.slow
def test_interactive_figures_respond_offline(reports):
    """Each interactive figure (an animation or an explorer) changes its
    image when any of its sliders moves, with every other host blocked:
    it needs nothing but the page."""
    interactive = [
        figure
        for report in reports.values()
        for figure in report.figures.get("interactive", [])
    ]
    assert interactive, "the book has no interactive figure"
    assert all(f["sliders"] and f["responds"] for f in interactive), (
        interactive
    )
