"""The built book as a reader sees it: every page opened in headless Chromium, offline.

The site is served on 127.0.0.1 and every request to any other host is
blocked (and recorded). Each page is visited once; the tests below then
check, page by page, that the bundled MathJax typeset every equation without
an error, that every image loaded, that videos (if any) play, that the
console stayed free of errors, that no request left the machine or failed,
and that no cross-reference or citation was left unresolved. Internal links
are checked in the HTML files.

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

# Run in the page after it loaded: wait for MathJax, then report what a
# reader would see.
INSPECT_PAGE = """async () => {
    if (window.MathJax && MathJax.startup && MathJax.startup.promise) { await MathJax.startup.promise; }
    const math = [...document.querySelectorAll('.math')];
    const visible = (el) => !el.closest('pre, code, script, style, mjx-container, .highlight');
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const rawTex = [];
    while (walker.nextNode()) {
        const node = walker.currentNode;
        if (node.parentElement && visible(node.parentElement) && /\\\\(begin\\{|frac|alpha|sum_)|\\$\\$/.test(node.textContent)) {
            rawTex.push(node.textContent.trim().slice(0, 80));
        }
    }
    const videos = [];
    for (const video of document.querySelectorAll('video')) {
        video.muted = true;
        const before = video.currentTime;
        try { await video.play(); } catch (error) { videos.push(video.currentSrc + ': ' + error); continue; }
        await new Promise(resolve => setTimeout(resolve, 500));
        if (!(video.currentTime > before)) { videos.push(video.currentSrc + ': does not advance'); }
    }
    return {
        n_math: math.length,
        untypeset: math.filter(m => !m.querySelector('mjx-container')).map(m => m.textContent.slice(0, 80)),
        math_errors: [...document.querySelectorAll('mjx-merror')].map(e => e.textContent.slice(0, 80)),
        stray_backslashes: [...document.querySelectorAll('mjx-container')].filter(m => m.textContent.includes(String.fromCharCode(92)))
            .map(m => m.textContent.slice(0, 80)),
        too_wide: [...document.querySelectorAll('mjx-container[display="true"]')]
            .filter(m => m.scrollWidth > m.clientWidth + 1).map(m => m.textContent.slice(0, 80)),
        raw_tex: rawTex,
        n_images: document.images.length,
        broken_images: [...document.images].filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src),
        n_videos: document.querySelectorAll('video').length,
        videos_not_playing: videos,
        unresolved: document.body.innerText.includes('??') ? ['"??" in the text'] : [],
    };
}"""


@dataclass
class PageReport:
    """What one visit to a page recorded."""

    name: str
    console_errors: list = field(default_factory=list)
    outside_requests: list = field(default_factory=list)
    failed_requests: list = field(default_factory=list)
    seen: dict = field(default_factory=dict)


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
        message = "no Chromium found (install Debian's chromium, or set SVMBOOK_CHROMIUM)"
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
            viewport={"width": 1280, "height": 900}
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
            if name.startswith("chapters/") or name.startswith(
                "appendices/"
            ):
                page.screenshot(
                    path=str(
                        SCREENSHOTS
                        / name.replace("/", "__").replace(".html", ".png")
                    ),
                    full_page=True,
                )
            page.close()
            found[name] = report
        browser.close()
    return found


def problems(reports, describe):
    """{page: what is wrong} for the pages where ``describe(report)`` finds
    something."""
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
        assert (
            SCREENSHOTS / name.replace("/", "__").replace(".html", ".png")
        ).stat().st_size > 0


@pytest.mark.slow
def test_every_equation_is_typeset_by_the_bundled_mathjax(reports):
    assert not problems(
        reports,
        lambda r: (
            r.seen["untypeset"]
            + r.seen["math_errors"]
            + r.seen["raw_tex"]
            + r.seen["stray_backslashes"]
        ),
    )
    assert all(
        reports[name].seen["n_math"] > 0
        for name in reports
        if name.startswith("chapters/")
    )


@pytest.mark.slow
def test_every_display_equation_fits_the_text_column_of_a_1280_pixel_window(
    reports,
):
    """A wider equation gets a scroll bar, and a reader sees it cut off
    (split it over lines)."""
    assert not problems(reports, lambda r: r.seen["too_wide"])


@pytest.mark.slow
def test_every_image_loads_and_every_video_plays(reports):
    assert not problems(
        reports,
        lambda r: r.seen["broken_images"] + r.seen["videos_not_playing"],
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
    assert not problems(reports, lambda r: r.console_errors)


@pytest.mark.slow
def test_no_request_leaves_the_machine_or_fails(reports):
    assert not problems(
        reports, lambda r: r.outside_requests + r.failed_requests
    )


@pytest.mark.slow
def test_cross_references_and_citations_resolve(reports):
    assert not problems(reports, lambda r: r.seen["unresolved"])


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
