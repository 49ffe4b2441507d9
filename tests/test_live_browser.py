"""Live preview (`python -m generator serve`, generator/cli/liveserve.py): a save shows in the open page
without reloading it, where the reader was; a save to the theme reloads the page whole. Every wait
here is for an event (the server saying it rebuilt, a look taken), not for a length of time."""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from generator.cli import liveserve
from tests.browser import TIMEOUT_MS
from tests.conftest import FIXTURE, ROOT


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _Said:
    """What the server writes to stderr, read line by line as it comes."""

    def __init__(self, stream) -> None:
        self.stream, self.lines = stream, []

    def until_rebuilt(self) -> None:
        """Read until the server says it finished a rebuild ("rebuilt in …"); fail if it exits first."""
        for line in self.stream:
            self.lines.append(line)
            if line.startswith("rebuilt in "):
                return
        pytest.fail("the server stopped:\n" + "".join(self.lines))


@contextlib.contextmanager
def _serving(content: Path, docs: Path):
    """`python -m generator serve` on `content`, as a user runs it, once its first build is done:
    (its address, what it says)."""
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "generator", "serve", "--content", str(content), "--docs", str(docs)]
        + ["--addr", f"127.0.0.1:{port}"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    said = _Said(server.stderr)
    try:
        said.until_rebuilt()
        yield f"http://127.0.0.1:{port}/", said
    finally:
        server.terminate()
        server.communicate()


@pytest.mark.browser
def test_a_save_shows_in_the_open_page_without_a_reload(tmp_path, page, watch):
    content = tmp_path / "content"
    shutil.copytree(FIXTURE, content)
    with _serving(content, tmp_path / "docs") as (base, said):
        page.set_viewport_size({"width": 1400, "height": 500})
        page.goto(base + "releases/2.8/")
        page.wait_for_function("() => window.document$ !== undefined", timeout=TIMEOUT_MS)
        page.evaluate("() => { window.atlasTestMark = 1; window.scrollTo(0, 300); }")
        scrolled = page.evaluate("window.scrollY")
        assert scrolled > 0
        release = content / "releases" / "2.8.yaml"
        text = release.read_text(encoding="utf-8")
        release.write_text(text.replace("The second fixture release.", "The second fixture release, edited."))
        said.until_rebuilt()  # the save's rebuild is done; the page swaps its content next
        page.wait_for_function(
            "() => document.body.textContent.includes('The second fixture release, edited.')", timeout=TIMEOUT_MS
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
    assert not any("Traceback" in line for line in said.lines), "".join(said.lines)


@contextlib.contextmanager
def _server(tmp_path: Path, busy=None):
    """A liveserve.Server that is never started: its looks and its poll's answers are called directly."""
    built = []
    server = liveserve.Server(
        builder=lambda: built.append(server._wanted_epoch),
        host="127.0.0.1",
        port=_free_port(),
        root=str(tmp_path),
        poll=0.05,
        busy=busy or threading.Lock(),
    )
    server.built = built
    try:
        yield server
    finally:
        server.server_close()


def _poll(server, epoch: int) -> bytes:
    return b"".join(server._serve_request({"PATH_INFO": f"/livereload/{epoch}/1"}, lambda *a: None))


def _folder(tmp_path: Path, name: str) -> Path:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "a.txt").write_text("1\n")
    return folder


def test_a_save_to_the_theme_makes_older_pages_reload_whole(tmp_path):
    content, theme = _folder(tmp_path, "content"), _folder(tmp_path, "templates")
    with _server(tmp_path) as server:
        server.watch(str(content))
        server.watch(str(theme), whole=True)
        last = server._look()
        (theme / "a.txt").write_text("22\n")  # a stylesheet saved
        last = server._step(last)
        assert server._want_rebuild
        server._wanted_epoch = server._visible_epoch = 100  # MkDocs' build loop: this rebuild's epoch
        server._build()
        assert server.built == [100]
        assert _poll(server, 50) == b"100 whole"  # a page older than it reloads whole
        (content / "a.txt").write_text("333\n")  # then a content edit
        server._step(last)
        server._wanted_epoch = server._visible_epoch = 200
        server._build()
        assert _poll(server, 150) == b"200"  # a page loaded after the theme change swaps its content
        assert _poll(server, 50) == b"200 whole"


def test_a_content_save_asks_for_a_rebuild_that_swaps_pages(tmp_path):
    content = _folder(tmp_path, "content")
    with _server(tmp_path) as server:
        server.watch(str(content))
        last = server._look()
        assert server._step(last) == last and not server._want_rebuild  # nothing saved: nothing asked
        (content / "a.txt").write_text("22\n")
        server._step(last)
        assert server._want_rebuild
        server._wanted_epoch = server._visible_epoch = 100
        server._build()
        assert server.whole_after == -1
        assert _poll(server, 50) == b"100"


def test_a_look_holds_the_rebuilds_lock(tmp_path, monkeypatch):
    """A look never runs during a rebuild: it takes the lock the rebuild holds (commands._Rebuild)."""
    events = []

    class Busy:
        def __enter__(self):
            events.append("lock")

        def __exit__(self, *exc):
            events.append("unlock")

    content = _folder(tmp_path, "content")
    with _server(tmp_path, busy=Busy()) as server:
        server.watch(str(content))
        stamps = liveserve.stamps
        monkeypatch.setattr(liveserve, "stamps", lambda path: events.append("look") or stamps(path))
        server._step(server._look())
    assert events == ["lock", "look", "unlock", "lock", "look", "unlock"]
