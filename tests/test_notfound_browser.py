"""The page-not-found page in Chromium (templates/overrides/404.html, assets/atlas-notfound.js), served
as a static host serves it: 404.html, with status 404, at every address the site does not have."""

from __future__ import annotations

import contextlib
import functools
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browser import watch_page
from tests.helpers import AXE, BLOCKING

pytestmark = pytest.mark.browser


class _NotFoundHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass

    def send_error(self, code, message=None, explain=None) -> None:
        page = Path(self.directory, "404.html")
        if code != 404 or not page.is_file():
            super().send_error(code, message, explain)
            return
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


@contextlib.contextmanager
def static_host(folder: Path) -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_NotFoundHandler, directory=str(folder))
    )
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        thread.join()
        server.server_close()


@pytest.fixture(scope="module")
def host(fixture_site) -> Iterator[str]:
    with static_host(fixture_site) as url:
        yield url


def errors(watch, url: str) -> list[str]:
    """Script and console errors, less the one line Chromium logs for the page's own 404 status."""
    return [e for e in watch.errors() if "status of 404" not in e]


def test_the_404_page_runs_without_errors_and_offers_search_and_the_sections(page, host):
    watch = watch_page(page)
    answer = page.goto(host + "features/torch-compiler/")
    assert answer.status == 404
    page.wait_for_load_state("networkidle")
    assert errors(watch, host) == []
    assert page.locator("h1").first.text_content() == "Page not found"
    box = page.locator("#atlas-notfound-q")
    assert box.input_value() == "torch compiler"  # the missing address's words, ready to search
    sections = page.locator(".atlas-notfound__sections a")
    names = sections.all_text_contents()
    assert {"Home", "Releases", "Features", "Backends", "Upgrade", "Deprecations"} <= set(names), names
    hrefs = dict(zip(names, sections.evaluate_all("links => links.map(a => a.href)"), strict=True))
    assert hrefs["Releases"] == host + "releases/" and hrefs["Home"] == host
    calendar = page.locator(".atlas-notfound a", has_text="calendar.ics")
    assert calendar.evaluate("a => a.href") == host + "calendar.ics"
    assert page.locator(".atlas-notfound__release").is_hidden()  # not a release's address
    page.add_script_tag(path=str(AXE))
    found = page.evaluate("() => axe.run(document).then(r => r.violations.map(v => [v.id, v.impact]))")
    assert [v for v in found if v[1] in BLOCKING] == []
    box.press("Enter")
    page.wait_for_url(host + "search/?q=torch+compiler")


def test_at_an_uncovered_release_it_says_so_and_links_the_coverage_statement(page, host):
    watch = watch_page(page)
    assert page.goto(host + "releases/2.15/").status == 404
    line = page.locator(".atlas-notfound__release")
    line.wait_for(state="visible")
    assert line.text_content().startswith("The Atlas does not cover PyTorch 2.15.")
    assert line.locator("a").evaluate("a => a.href") == host + "releases/#coverage"
    assert errors(watch, host) == []


def test_at_a_wrong_address_under_a_covered_release_it_links_that_release(page, host):
    page.goto(host + "releases/2.8.1/nothing/")
    line = page.locator(".atlas-notfound__release")
    line.wait_for(state="visible")
    assert line.text_content() == "PyTorch 2.8 is on the Atlas, but not at this address: see PyTorch 2.8's page."
    assert line.locator("a").evaluate("a => a.href") == host + "releases/2.8/"


def test_the_404_file_itself_loads_without_errors(page, host):
    watch = watch_page(page)
    assert page.goto(host + "404.html").status == 200
    page.wait_for_load_state("networkidle")
    assert errors(watch, host) == []
    assert page.locator("#atlas-q").count() == 1  # the header's search box is there too
