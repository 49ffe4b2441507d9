"""Browser-test helpers: serve a built site on 127.0.0.1, drive Debian's Chromium with Playwright.

Fixtures (imported into conftest.py, so every test module can ask for them; `served`, the real
site's address, is conftest's: the real build is shared with the tests that read its files):
    browser   one headless Chromium per test module
    page      a fresh page in its own browser context (no storage shared between tests)
    watch     what `page` does: requests, console errors, page errors, dialogs

Chromium is the system one (/usr/bin/chromium); Playwright's own browsers are never
downloaded. Tests that use these fixtures are marked `@pytest.mark.browser`.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
PAGE_KINDS = {
    "home.md.j2": "",
    "releases.md.j2": "releases/",
    "release.md.j2": "releases/2.12/",
    "features.md.j2": "features/",
    "feature.md.j2": "features/flex-attention/",
    "family.md.j2": "features/torch-export/",
    "feature_changes.md.j2": "features/torchinductor/2.12/",
    "backends.md.j2": "backends/",
    "backend.md.j2": "backends/cuda/",
    "backend_changes.md.j2": "backends/rocm/2.12/",
    "tiers.md.j2": "tiers/",
    "contributors.md.j2": "contributors/",
    "compatibility.md.j2": "compatibility/",
    "timeline.md.j2": "timeline/",
    "compare.md.j2": "compare/?from=2.8&to=2.12",
    "upgrade.md.j2": "upgrade/?from=2.4&to=2.12&backend=rocm",
    "defaults.md.j2": "upgrade/defaults/",
    "deprecations.md.j2": "deprecations/",
    "api.md.j2": "api/",
    "speed.md.j2": "speed/",
    "symbols.md.j2": "symbols/",
    "symbol_module.md.j2": "symbols/torch.export/",
    "symbol_name.md.j2": "symbols/torch/torch.compile/",
    "search.md.j2": "search/?q=torch.cat",
}
"""One page of every kind (by its template) of the real site, for the screenshot and accessibility
tests; tests/test_site.py checks that no template is missing."""

TIMEOUT_MS = 10_000
"""Longest wait for any one browser action; a healthy page needs well under a second."""

MATRICES_AT_THE_NEWEST_END = """() => [...document.querySelectorAll(".atlas-matrix-wrap")].every(
  (wrap) => wrap.scrollLeft + wrap.clientWidth >= wrap.scrollWidth - 1)"""
"""For page.wait_for_function: every matrix of the page (if any) is scrolled to its newest
release, as atlas-page.js leaves it once the page is shown."""


def visit(page, url: str):
    """Open url; return once its scripts have run (the load event) and the network has then been
    quiet for 500 ms. Playwright's "networkidle" alone does not wait for the load event: while
    the parser still reads a long page whose bytes have all arrived, nothing is in flight, so it
    can fire before the scripts at the end of <body> are even requested (on a busy machine a
    test read `window.atlasData` on the 2.14 release page before atlas-data.js had run)."""
    response = page.goto(url, wait_until="load")
    page.wait_for_load_state("networkidle")
    return response


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the signature http.server calls
        pass


@contextlib.contextmanager
def serve(directory: Path, *, build=None) -> Iterator[str]:
    """Serve a folder at http://127.0.0.1:<free port>/ from a background thread; yield that URL.

    build(url), if given, is called once the port is known and before serving starts: a site
    built for the address it is served at (as SITE_URL), whose API, feeds and canonical links
    carry that address.
    """
    handler = functools.partial(_QuietHandler, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    thread = threading.Thread(target=server.serve_forever, name=f"serve {directory}", daemon=True)
    try:
        if build is not None:
            build(url)
        thread.start()
        yield url
    finally:
        if thread.is_alive():
            server.shutdown()
            thread.join()
        server.server_close()


@contextlib.contextmanager
def chromium():
    """A headless system Chromium under Playwright; fails (never skips) if Chromium is not installed."""
    if not CHROMIUM.exists():
        pytest.fail(
            f"{CHROMIUM} not found: run `make test` (it installs Debian's chromium) or `apt-get install chromium`"
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@contextlib.contextmanager
def new_page(browser):
    """A page in a fresh context: desktop size (Material shows its search box), short timeouts."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers="block")
    context.set_default_timeout(TIMEOUT_MS)
    try:
        yield context.new_page()
    finally:
        context.close()


@dataclass
class Watch:
    """What a page did since watching began."""

    requests: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)

    def foreign_requests(self) -> list[str]:
        """Requests to any host but 127.0.0.1 (data: and blob: URLs never leave the page)."""
        return [
            u
            for u in self.requests
            if urlsplit(u).scheme not in ("data", "blob") and urlsplit(u).hostname != "127.0.0.1"
        ]

    def errors(self) -> list[str]:
        return self.console_errors + self.page_errors


def watch_page(page) -> Watch:
    """Record a page's requests, console errors, uncaught errors and dialogs (dismissing them)."""
    seen = Watch()
    page.on("request", lambda request: seen.requests.append(request.url))
    page.on("console", lambda message: seen.console_errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: seen.page_errors.append(str(error)))

    def dialog(d):
        seen.dialogs.append(f"{d.type}: {d.message}")
        d.dismiss()

    page.on("dialog", dialog)
    return seen


def search(page, query: str):
    """Type query into the header's search box; return the result links once they are shown.

    The box searches as it is typed into; the results list names the query it shows
    (`data-query`), so the wait is for this query's results, not an earlier one's. The box is
    emptied first, so the same query twice in a row is searched again.
    """
    box = page.locator("#atlas-q")
    results = "document.querySelector('.atlas-search__results').dataset.query"
    box.fill("")
    page.wait_for_function(f"() => {results} === ''")
    box.fill(query)
    page.wait_for_function(f"q => {results} === q", arg=query.strip())
    return page.locator(".atlas-search__hit")


def result_paths(items, base: str) -> list[str]:
    """The results' addresses relative to the site's base URL, in order."""
    return [href.removeprefix(base) for href in items.evaluate_all("links => links.map(a => a.href)")]


SEARCH_QUERIES = ROOT / "tests" / "data" / "search_queries.yaml"
"""Queries a reader would type, each with the page (or pages) they want first."""


def query_ranks(page, base: str, queries: list[dict]) -> dict[str, tuple[int | None, list[str]]]:
    """Type each query of the query set: query -> (1-based rank of the first wanted page, or None;
    the first five results)."""
    out = {}
    for item in queries:
        want = item["want"] if isinstance(item["want"], list) else [item["want"]]
        paths = result_paths(search(page, str(item["query"])), base)
        out[str(item["query"])] = (next((i + 1 for i, path in enumerate(paths) if path in want), None), paths[:5])
    return out


# Fixtures


@pytest.fixture(scope="module")
def browser():
    """Per module, not per session: Playwright's sync API allows one instance at a time, and a
    test module may launch its own."""
    with chromium() as b:
        yield b


@pytest.fixture
def page(browser):
    with new_page(browser) as p:
        yield p


@pytest.fixture
def watch(page) -> Watch:
    return watch_page(page)
