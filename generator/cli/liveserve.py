"""Live preview's server: MkDocs' live-reload server whose open pages, after a rebuild, swap in
the rebuilt page instead of reloading it.

MkDocs' own script reloads the whole page. On the largest release page (570 kB) that reload is
most of what a save costs the reader: Chromium parses the page, then runs Material's bundle and
our scripts and applies the stylesheets again, which takes twice as long as fetching the page
and putting its content in place (`python -m bench.live`). So the script this server
puts in its pages (`SCRIPT`) fetches the rebuilt page, puts its content in place of the open
one's (the parts Material's instant navigation replaces: title, header topic, the container of
the navigation, the page and its table of contents) and tells Material and our scripts through
`document$`, as instant navigation does; the scroll position stays. It reloads the whole page
instead when the save was to what pages load beside their HTML (templates/: the theme, its
stylesheets and scripts; mkdocs.yml: paths watched with `whole`), when the theme has no
`document$`, or when the fetch fails.

The poll answers "EPOCH" as MkDocs' does, or "EPOCH whole" after such a rebuild: MkDocs' own
script reads the number alone and reloads either way.

The server looks for saves itself (`Server._watch`): one thread that stamps the watched files
every `poll` seconds, as watchdog's polling observer does, but never while a rebuild runs (it
waits for the rebuild's lock). watchdog's observer, one thread per watched path, looked in the
middle of rebuilds, and each look's system calls handed the interpreter back and forth with the
rebuild, and slowed it measurably. A native observer (inotify) would not poll at all, but misses saves on
some mounted and network file systems, which MkDocs' serve polls for too.
"""

from __future__ import annotations

import re
import string
import threading
import time
from pathlib import Path

from mkdocs.livereload import LiveReloadServer

from ..pipeline.build import stamps

# The parts of a page the swap replaces, each present once in every page of Material's theme.
PARTS = (
    "title",
    "meta[name=description]",
    "[data-md-component=header-topic]",
    "[data-md-component=container]",
)

SCRIPT = string.Template(
    """
(function (epoch, requestId) {
  var req, timeout;
  var parts = ${parts};
  // The rebuilt page's parts in place of this one's, then Material's and our scripts told.
  function swap() {
    return fetch(location.pathname + location.search, {cache: "no-store"}).then(function (response) {
      if (!response.ok) throw new Error("HTTP " + response.status);
      return response.text();
    }).then(function (html) {
      var next = new DOMParser().parseFromString(html, "text/html");
      var pairs = parts.map(function (part) {
        return [document.querySelector(part), next.querySelector(part)];
      });
      if (pairs.some(function (pair) { return !pair[0] !== !pair[1]; })) throw new Error("page changed shape");
      pairs.forEach(function (pair) {
        if (pair[0]) pair[0].replaceWith(document.adoptNode(pair[1]));
      });
      window.document$$.next(document);
    });
  }
  window.atlasLive = {swap: swap};  // for bench/live.py, which times the swap alone
  function poll() {
    req = new XMLHttpRequest();
    req.onloadend = function () {
      var answer = (this.responseText || "").split(" ");
      var now = parseFloat(answer[0]);
      if (!(now > epoch)) {
        timeout = setTimeout(poll, this.status === 200 ? 0 : 3000);
      } else if (answer[1] === "whole" || !window.document$$) {
        location.reload();
      } else {
        epoch = now;
        swap().then(poll, function () { location.reload(); });
      }
    };
    req.open("GET", "/livereload/" + epoch + "/" + requestId);
    req.send();
  }
  function stop() {
    if (req) req.abort();
    if (timeout) clearTimeout(timeout);
    req = timeout = undefined;
  }
  window.addEventListener("load", function () {
    if (document.visibilityState === "visible") poll();
  });
  window.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") poll(); else stop();
  });
  window.addEventListener("beforeunload", stop);
})(${epoch}, ${request_id});
"""
)

_POLL = re.compile(r"/livereload/([0-9]+)/[0-9]+")


class Server(LiveReloadServer):
    """MkDocs' LiveReloadServer (mkdocs<2), with `SCRIPT` in its pages, a poll that says when a
    page must reload whole, and its own look for saves (`watch`)."""

    def __init__(self, builder, host: str, port: int, root: str, *, poll: float, busy: threading.Lock) -> None:
        """`poll`: seconds between two looks at the watched files; `busy`: held by the builder while
        it rebuilds, when nothing looks."""
        # MkDocs' watchdog observer watches nothing here (`watch`); its idle thread wakes once a second.
        super().__init__(builder=self._build, host=host, port=port, root=root, polling_interval=1.0)
        self.whole_after = -1  # epoch of the newest rebuild that changed what pages load beside their HTML
        self._builder, self._poll, self._busy = builder, poll, busy
        self._looked: list[tuple[Path, bool]] = []
        self._whole_pending = False  # a look found a change that pages load whole (under _rebuild_cond)
        self._quit = threading.Event()

    def watch(self, path: str, func: None = None, *, recursive: bool = True, whole: bool = False) -> None:
        """Rebuild when a file under the folder `path` (or the file `path`) is saved, added or
        removed: this server's own look (`_watch`), in place of MkDocs' watchdog observer. `whole`:
        what pages load beside their HTML (the theme, its scripts and styles, mkdocs.yml), so a
        change there makes open pages reload whole."""
        self._watched_paths[path] = 1  # MkDocs puts its script in pages only while something is watched
        self._looked.append((Path(path), whole))

    def serve(self, *, open_in_browser: bool = False) -> None:
        threading.Thread(target=self._watch, name="look for saves", daemon=True).start()
        super().serve(open_in_browser=open_in_browser)

    def shutdown(self, wait: bool = False) -> None:
        self._quit.set()
        super().shutdown(wait=wait)

    def _look(self) -> tuple:
        with self._busy:  # not during a rebuild
            return tuple(stamps(path) for path, _ in self._looked)

    def _step(self, last: tuple) -> tuple:
        """One look: when the watched files differ from `last`, ask for a rebuild (and say whether
        pages must reload whole after it). Returns what it saw."""
        now = self._look()
        if now != last:
            whole = any(w and a != b for (_, w), a, b in zip(self._looked, last, now, strict=True))
            with self._rebuild_cond:  # as MkDocs' own watch callback asks for a rebuild
                self._whole_pending = self._whole_pending or whole
                self._want_rebuild = True
                self._rebuild_cond.notify_all()
        return now

    def _watch(self) -> None:
        last = self._look()
        while not self._quit.wait(self._poll):
            last = self._step(last)

    def _build(self) -> None:
        """The builder, run by MkDocs' _build_loop: after a look found a change pages load whole,
        pages older than this rebuild (its epoch, set by the loop before it builds) reload whole."""
        with self._rebuild_cond:
            whole, self._whole_pending = self._whole_pending, False
        if whole:
            self.whole_after = self._wanted_epoch
        self._builder()

    def _serve_request(self, environ, start_response):
        answer = super()._serve_request(environ, start_response)
        poll = _POLL.fullmatch(environ["PATH_INFO"])
        if poll and answer and int(poll[1]) < self.whole_after:
            return [b"".join(answer) + b" whole"]
        return answer

    def _inject_js_into_html(self, content: bytes, epoch: int) -> bytes:
        body_end = content.rfind(b"</body>")
        if body_end < 0:
            body_end = len(content)
        script = SCRIPT.substitute(
            parts="[" + ", ".join(f'"{part}"' for part in PARTS) + "]",
            epoch=epoch,
            request_id=time.monotonic_ns() // 1000,  # names the page in MkDocs' log of polls
        )
        return b"%b<script>%b</script>%b" % (content[:body_end], script.encode(), content[body_end:])
