"""`scan --site URL`: the change records of a published Atlas, read over HTTP from its API.

A scan needs the release listing (`api/v1/releases.json`) and the records of the releases its
range reaches (`api/v1/releases/X.Y.json` for `--from` < X.Y <= `--to`); with `--backend`, that
backend's file too, to know it exists. Those are all it fetches, each once. What goes wrong gets
one line and exit code 2 (a `UsageError`): a URL nothing answers at, a page that is not an Atlas,
an answer that does not come within the timeout.
"""

from __future__ import annotations

import json
import socket
import urllib.error
import urllib.parse
import urllib.request

from ..model import urls
from ..model.content import version_key
from ..model.errors import UsageError

TIMEOUT = 30.0
"""Seconds a request may wait for an answer (`scan --timeout`)."""

USER_AGENT = "pytorch-release-atlas-scan"


def is_url(site: str | None) -> bool:
    """Whether `--site` names a published Atlas (http or https) rather than a built folder."""
    return bool(site) and urllib.parse.urlsplit(site).scheme in ("http", "https")


class Atlas:
    """A published Atlas at `base`: its API files, each fetched at most once (`fetched` lists them)."""

    def __init__(self, base: str, timeout: float = TIMEOUT) -> None:
        self.base = base if base.endswith("/") else base + "/"
        self.timeout = timeout
        self.fetched: dict[str, object] = {}

    def get(self, path: str, *, missing_ok: bool = False) -> object:
        """The JSON at `path` under the base; None for a 404 when `missing_ok`."""
        if path not in self.fetched:
            self.fetched[path] = self._fetch(path, missing_ok)
        return self.fetched[path]

    def _fetch(self, path: str, missing_ok: bool) -> object:
        url = self.base + path
        request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT, "Accept": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as answer:
                body = answer.read()
        except urllib.error.HTTPError as exc:
            if missing_ok and exc.code == 404:
                return None
            raise self._not_atlas(f"{url} answered HTTP {exc.code}") from exc
        except urllib.error.URLError as exc:
            if isinstance(exc.reason, TimeoutError | socket.timeout):
                raise self._timeout(url) from exc
            raise UsageError(f"{self.base}: cannot reach it ({_reason(exc.reason)})") from exc
        except TimeoutError as exc:  # the answer started, then stalled
            raise self._timeout(url) from exc
        except (OSError, ValueError) as exc:  # a malformed URL, a connection reset
            raise UsageError(f"{self.base}: cannot reach it ({_reason(exc)})") from exc
        try:
            return json.loads(body)
        except ValueError as exc:
            raise self._not_atlas(f"{url} is not JSON") from exc

    def _not_atlas(self, why: str) -> UsageError:
        return UsageError(f"{self.base}: not a PyTorch Release Atlas with its API ({why})")

    def _timeout(self, url: str) -> UsageError:
        return UsageError(f"{self.base}: no answer within {self.timeout:g} s ({url})")


def _reason(reason) -> str:
    return getattr(reason, "strerror", None) or str(reason)


def releases(atlas: Atlas, start: str, end: str, backend: str = "") -> tuple[list[dict], list[str] | None]:
    """The release records a scan from `start` to `end` reads, oldest first, and the backend ids
    to check `backend` against (None: no check needed), as `scan.releases_from_site` gives them
    for a folder. A release outside the range is its listing summary with no change list: the
    scan reads no change of it, so its record is not fetched."""
    listing = atlas.get(urls.api_releases())
    try:
        summaries = sorted(listing["releases"], key=lambda r: version_key(r["version"]))
        versions = [r["version"] for r in summaries]
    except (TypeError, KeyError, ValueError) as exc:
        raise atlas._not_atlas(f"{urls.api_releases()} lists no releases") from exc
    records = []
    known = start in versions and end in versions
    for summary in summaries:
        inside = known and version_key(start) < version_key(summary["version"]) <= version_key(end)
        record = atlas.get(urls.api_release(summary["version"])) if inside else summary | {"change_list": []}
        if not isinstance(record, dict) or not isinstance(record.get("change_list"), list):
            raise atlas._not_atlas(f"{urls.api_release(summary['version'])} holds no change list")
        records.append(record)
    if not backend:
        return records, None
    if atlas.get(urls.api_backend(backend), missing_ok=True) is not None:
        return records, [backend]
    return records, sorted({b for r in records for c in r["change_list"] for b in c.get("backends", ())})
