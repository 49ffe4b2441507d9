"""Live preview (`python -m generator serve`, generator/liveserve.py): a save shows in the open page
without reloading it, where the reader was; a change to the theme reloads the page whole."""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from generator import commands, liveserve
from tests.browser import TIMEOUT_MS
from tests.conftest import FIXTURE, ROOT

pytestmark = pytest.mark.browser


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def _serving(content: Path, docs: Path, log: Path):
    """`python -m generator serve` on `content`, as a user runs it; its address once it answers."""
    port = _free_port()
    with open(log, "w") as err:
        server = subprocess.Popen(
            [sys.executable, "-m", "generator", "serve", "--content", str(content), "--docs", str(docs)]
            + ["--addr", f"127.0.0.1:{port}"],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=err,
        )
    base = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 300  # the first build; a bound on a hang, not on speed
        while True:
            try:
                urllib.request.urlopen(base + "releases/2.8/", timeout=10).close()
                break
            except OSError:
                assert server.poll() is None, log.read_text(encoding="utf-8")
                assert time.monotonic() < deadline, log.read_text(encoding="utf-8")
                time.sleep(0.3)
        yield base
    finally:
        server.terminate()
        server.wait(timeout=60)


def test_a_save_shows_in_the_open_page_without_a_reload(tmp_path, page, watch):
    content = tmp_path / "content"
    shutil.copytree(FIXTURE, content)
    with _serving(content, tmp_path / "docs", tmp_path / "serve.log") as base:
        page.set_viewport_size({"width": 1400, "height": 500})
        page.goto(base + "releases/2.8/")
        page.wait_for_function("() => window.document$ !== undefined", timeout=TIMEOUT_MS)
        page.evaluate("() => { window.atlasTestMark = 1; window.scrollTo(0, 300); }")
        page.wait_for_timeout(300)  # Material notes the scroll position after 100 ms
        scrolled = page.evaluate("window.scrollY")
        assert scrolled > 0
        release = content / "releases" / "2.8.yaml"
        text = release.read_text(encoding="utf-8")
        release.write_text(text.replace("The second fixture release.", "The second fixture release, edited."))
        page.wait_for_function(
            "() => document.body.textContent.includes('The second fixture release, edited.')",
            timeout=60_000,
            polling=100,
        )
        assert page.evaluate("window.atlasTestMark") == 1, "the page was reloaded"
        assert page.evaluate("window.scrollY") == scrolled
        assert page.evaluate("document.querySelectorAll('[data-md-component=container]').length") == 1
        assert page.title().startswith("PyTorch 2.8"), page.title()
        # The page's scripts ran on the new content: cite.js gave each snippet its copy button.
        snippets = page.evaluate("document.querySelectorAll('pre.atlas-cite-text').length")
        assert snippets > 0
        assert (
            page.evaluate("document.querySelectorAll('pre.atlas-cite-text + button.atlas-cite-copy').length")
            == snippets
        )
        assert not watch.errors(), watch.errors()
    assert "Traceback" not in (tmp_path / "serve.log").read_text(encoding="utf-8")


def test_a_poll_says_whole_after_a_rebuild_that_changed_the_theme(tmp_path):
    server = liveserve.Server(
        builder=lambda: None, host="127.0.0.1", port=_free_port(), root=str(tmp_path), poll=0.05, busy=threading.Lock()
    )

    def poll(epoch: int) -> bytes:
        answer = server._serve_request({"PATH_INFO": f"/livereload/{epoch}/1"}, lambda *a: None)
        return b"".join(answer)

    try:
        server._wanted_epoch = server._visible_epoch = 100  # a rebuild of the templates, done
        server.reload_whole()
        assert poll(50) == b"100 whole"  # a page older than it reloads whole
        server._wanted_epoch = server._visible_epoch = 200  # then a content edit
        assert poll(150) == b"200"  # a page loaded after the theme change swaps its content
        assert poll(50) == b"200 whole"
    finally:
        server.server_close()


def test_only_a_change_to_the_theme_makes_pages_reload_whole(tmp_path, monkeypatch):
    class Told:
        def __init__(self) -> None:
            self.whole = 0

        def reload_whole(self) -> None:
            self.whole += 1

    rebuild = commands._Rebuild(FIXTURE, tmp_path / "site", "http://127.0.0.1:8000/", tmp_path / "docs")
    rebuild.indexer.stop()
    rebuild.server = told = Told()
    try:
        rebuild()  # the first build: nothing was open before it
        rebuild()  # a save in content/: the open page swaps its content
        assert told.whole == 1
        stamps = commands.pipeline.theme_stamps()
        monkeypatch.setattr(commands.pipeline, "theme_stamps", lambda: (stamps, "a template saved"))
        rebuild()
        assert told.whole == 2
    finally:
        if rebuild.settler is not None:
            rebuild.settler.cancel()


def test_a_save_asks_for_a_rebuild_but_no_look_runs_during_one(tmp_path):
    watched = tmp_path / "content"
    watched.mkdir()
    (watched / "a.yaml").write_text("a: 1\n")
    busy = threading.Lock()
    server = liveserve.Server(
        builder=lambda: None, host="127.0.0.1", port=_free_port(), root=str(tmp_path), poll=0.02, busy=busy
    )
    server.watch(str(watched))
    try:
        looker = threading.Thread(target=server._watch, daemon=True)
        looker.start()
        time.sleep(0.1)  # its first look, which the save below is measured against
        with busy:  # a rebuild under way: no look may run, so no rebuild is asked for
            (watched / "a.yaml").write_text("a: 2\n")
            time.sleep(0.2)
            assert not server._want_rebuild
        deadline = time.monotonic() + 30
        while not server._want_rebuild:  # the rebuild over, the next look finds the save
            assert time.monotonic() < deadline
            time.sleep(0.01)
    finally:
        server._quit.set()
        server.server_close()
