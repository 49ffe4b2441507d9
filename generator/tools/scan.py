"""`python -m generator scan PATH --from X.Y --to X.Y`: the lines of a codebase that touch a change
an upgrade meets, for CI.

It reads the same records the upgrade guide reads (the API's release files: each change's upgrade
`group`, `symbols`, note and URL), made from the content or read from a built site's
`api/v1/releases/`, and matches each line of each `.py` file with the paste filter's rules
(`symbols.tokens`, `symbols.match_keys`): a line is reported for a change exactly when pasting that
line into /upgrade/'s paste box would keep the change. The range and backend rule are the guide's
(`model.applies_to`; known issues whatever the backend).

Speed: the changes are indexed by their match keys, and a file is split into lines only when it
holds the last part of some key as a word; most files of a codebase hold none.
"""

from __future__ import annotations

import bisect
import itertools
import json
import os
import re
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

from ..markup.textfilters import plain, record_line
from ..model import symbols, urls
from ..model.content import BREAKING_GROUPS, EVERY_BACKEND_GROUPS, applies_to, version_key
from ..model.errors import UsageError, did_you_mean

MAX_BYTES = 4 * 1024 * 1024
"""A file larger than this is not code a person wrote: it is reported and skipped."""

GROUP_WORDS = {
    "known-issues": "known issue",
    "breaking": "breaking",
    "defaults": "default change",
    "removals": "removal",
    "deprecations": "deprecation",
}
"""The upgrade groups a scan reports (model.UPGRADE_GROUPS but new features), as a finding words them."""

_PART = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
"""A part of a dotted name, as `symbols.tokens` cuts one: a key a line uses ends in one of these
(or is a --flag, looked for as it is)."""


@dataclass(frozen=True)
class Target:
    """A change a scan looks for."""

    release: str
    group: str  # its UPGRADE_GROUPS id
    kind: str | None
    text: str  # its record line, as plain words
    note: str | None  # what to do, in our words
    url: str
    symbols: tuple[str, ...]

    @property
    def breaks(self) -> bool:
        """A breaking change, removal or default change: the scan exits 1."""
        return self.group in BREAKING_GROUPS


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    symbol: str  # the name the line uses
    target: Target

    def text(self) -> str:
        t = self.target
        todo = " ".join((t.note or t.text).split())
        return f"{self.path}:{self.line}: {t.release} {GROUP_WORDS[t.group]} — {self.symbol}: {todo} {t.url}"

    def record(self) -> dict:
        out = {"file": self.path, "line": self.line, "symbol": self.symbol} | asdict(self.target)
        out["symbols"] = list(self.target.symbols)
        return out | {"breaks": self.target.breaks}


# ---------------------------------------------------------------- the records


def releases_from_content(content: Path) -> tuple[list[dict], list[str]]:
    """The API's release records, made from a content folder (oldest first), and the backend ids."""
    from ..pipeline.build import site_model, site_url
    from ..render import api

    site = site_model(content)
    return [api.release_record(site, r.version, site_url()) for r in site.releases], list(site.backend_by_id)


def releases_from_site(site_dir: Path) -> tuple[list[dict], list[str]]:
    """The API's release records, read from a built site (`api/v1/releases/X.Y.json`), and the
    backend ids it has files for."""
    try:
        listing = json.loads((site_dir / urls.api_releases()).read_text(encoding="utf-8"))
        versions = sorted((r["version"] for r in listing["releases"]), key=version_key)
        releases = [json.loads((site_dir / urls.api_release(v)).read_text(encoding="utf-8")) for v in versions]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise UsageError(f"{site_dir}: not a built Atlas site with its API ({exc})") from exc
    backends = sorted(p.stem for p in (site_dir / urls.api_backend("x")).parent.glob("*.json"))
    return releases, backends


def targets(releases: list[dict], start: str, end: str, backend: str = "", backends=None) -> list[Target]:
    """The changes an upgrade from `start` to `end` on `backend` meets (the guide's rule)."""
    versions = [r["version"] for r in releases]
    for version in (start, end):
        if version not in versions:
            raise UsageError(
                f"no release {version!r}{did_you_mean(version, versions)}; releases: {', '.join(versions)}"
            )
    if version_key(start) >= version_key(end):
        raise UsageError(f"--from {start} must be older than --to {end}")
    if backend and backends is not None and backend not in backends:
        raise UsageError(f"no backend {backend!r}{did_you_mean(backend, backends)}; backends: {', '.join(backends)}")
    out = []
    for rel in releases:
        if not version_key(start) < version_key(rel["version"]) <= version_key(end):
            continue
        for c in rel["change_list"]:
            group = c["group"]
            if group not in GROUP_WORDS or not c["symbols"]:
                continue
            if group not in EVERY_BACKEND_GROUPS and not applies_to(tuple(c["backends"]), backend):
                continue
            text = plain(record_line(c["text"]))
            out.append(Target(rel["version"], group, c["kind"], text, c["note"], c["url"], tuple(c["symbols"])))
    return out


# ---------------------------------------------------------------- matching


class Index:
    """The targets by match key (`symbols.match_keys`), and the last words of those keys."""

    def __init__(self, found: list[Target]) -> None:
        self.by_key: dict[str, list[Target]] = defaultdict(list)
        for target in found:
            for symbol in target.symbols:
                for key in symbols.match_keys(symbol):
                    if target not in self.by_key[key]:
                        self.by_key[key].append(target)
        self.keys = frozenset(self.by_key)
        self.flags = tuple(key for key in self.by_key if key.startswith("--"))
        self.words = frozenset(key.rsplit(".", 1)[-1] for key in self.by_key if not key.startswith("--"))

    def scan(self, text: str) -> Iterator[tuple[int, str, Target]]:
        """(line number, key, target) for each target each line uses, in line order."""
        present = [*self.words.intersection(_PART.findall(text)), *(f for f in self.flags if f in text)]
        if not present:
            return
        lines = text.split("\n")
        starts = list(itertools.accumulate((len(line) + 1 for line in lines[:-1]), initial=0))
        hit: set[int] = set()
        for word in present:
            at = text.find(word)
            while at != -1:
                hit.add(bisect.bisect_right(starts, at) - 1)
                at = text.find(word, at + len(word))
        for index in sorted(hit):
            used = symbols.tokens(lines[index])
            seen: set[Target] = set()
            for key in sorted(used & self.keys, key=lambda k: (-len(k), k)):
                for target in self.by_key[key]:
                    if target not in seen:
                        seen.add(target)
                        yield index + 1, key, target


# ---------------------------------------------------------------- the files


def python_files(root: Path) -> Iterator[Path]:
    """The .py files under `root` (or `root` itself), sorted; symlinked folders are not entered,
    so a symlink loop is never walked."""
    if not root.is_dir():
        yield root
        return
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(".py"):
                yield Path(folder) / name


def read(path: Path) -> tuple[str | None, str]:
    """The file's text, or None and why it cannot be scanned."""
    try:
        if path.stat().st_size > MAX_BYTES:
            return None, f"larger than {MAX_BYTES:,} bytes"
        data = path.read_bytes()
    except OSError as exc:
        return None, _os_reason(exc)
    if b"\0" in data[:8192]:
        return None, "a binary file"
    try:
        return data.decode("utf-8-sig"), ""
    except UnicodeDecodeError as exc:
        return None, f"not UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start})"


def _os_reason(exc: OSError) -> str:
    import errno

    if exc.errno == errno.ELOOP:
        return "a symlink loop"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "no permission to read it"
    if exc.errno == errno.ENOENT:
        return "a broken symlink or a file that went away"
    return exc.strerror or str(exc)


@dataclass
class Report:
    findings: list[Finding]
    skipped: list[tuple[str, str]]  # (path, why)
    files: int  # files scanned

    @property
    def exit_code(self) -> int:
        return 1 if any(f.target.breaks for f in self.findings) else 0


def scan_tree(root: Path, found: list[Target]) -> Report:
    """Every finding under `root`, in file then line order, and the files that could not be read."""
    index = Index(found)
    report = Report([], [], 0)
    for path in python_files(root):
        text, why = read(path)
        shown = path.as_posix()
        if text is None:
            report.skipped.append((shown, why))
            continue
        report.files += 1
        report.findings.extend(Finding(shown, n, key, t) for n, key, t in index.scan(text))
    return report


def command(args) -> int:
    """The `scan` verb: print the findings; 1 when one breaks code, else 0."""
    root = Path(args.path)
    if not root.exists() and not root.is_symlink():
        raise UsageError(f"{root}: no such file or folder")
    releases, backends = releases_from_site(Path(args.site)) if args.site else releases_from_content(Path(args.content))
    found = targets(releases, args.start, args.end, args.backend or "", backends)
    report = scan_tree(root, found)
    for path, why in report.skipped:
        print(f"{path}: skipped: {why}", file=sys.stderr)
    try:
        _print(report, args)
    except BrokenPipeError:  # `| head`: the reader has what it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return report.exit_code


def _print(report: Report, args) -> None:
    if args.format == "json":
        data = {
            "from": args.start,
            "to": args.end,
            "backend": args.backend or "",
            "files": report.files,
            "skipped": [{"file": p, "why": w} for p, w in report.skipped],
            "findings": [f.record() for f in report.findings],
        }
        print(json.dumps(data, indent=1, ensure_ascii=False))
        return
    for finding in report.findings:
        print(finding.text())
    sys.stdout.flush()
    breaking = sum(f.target.breaks for f in report.findings)
    print(
        f"{len(report.findings)} finding{'s' * (len(report.findings) != 1)} ({breaking} that can break code) "
        f"in {report.files} files, {args.start} -> {args.end}",
        file=sys.stderr,
    )


# ---------------------------------------------------------------- benchmark


def bench(n_files: int = 10_000, content: Path | None = None, start: str = "", end: str = "") -> dict:
    """Scan a synthetic codebase of `n_files` .py files (every 50th uses a name some change in the
    range names; the rest plain code of about 60 lines) in a temporary folder, and time it.
    Returns the counts and seconds (records: making the change records; scan: walking and matching)."""
    from ..util.project import DEFAULT_CONTENT

    t0 = time.perf_counter()
    releases, _ = releases_from_content(content or DEFAULT_CONTENT)
    start = start or releases[0]["version"]
    end = end or releases[-1]["version"]
    found = targets(releases, start, end)
    t1 = time.perf_counter()
    planted = sorted({s for t in found for s in t.symbols if "." in s})[:50] or ["torch.load"]
    plain = "".join(
        f"def step_{i}(batch, weights):\n    total = sum(x * w for x, w in zip(batch, weights))\n"
        f"    if total > {i}:\n        return [v / total for v in batch]\n    return batch\n\n\n"
        for i in range(8)
    )
    with tempfile.TemporaryDirectory(prefix="atlas-scan-bench-") as tmp:
        for i in range(n_files):
            folder = Path(tmp, f"pkg{i // 100}")
            folder.mkdir(exist_ok=True)
            use = f"\nresult = {planted[i // 50 % len(planted)]}(data)\n" if i % 50 == 0 else ""
            (folder / f"mod{i}.py").write_text(f'"""Module {i}."""\nimport torch\n\n{plain}{use}', encoding="utf-8")
        t2 = time.perf_counter()
        report = scan_tree(Path(tmp), found)
        t3 = time.perf_counter()
    return {
        "files": report.files,
        "lines": n_files * (plain.count("\n") + 3),
        "changes": len(found),
        "findings": len(report.findings),
        "records_s": round(t1 - t0, 3),
        "scan_s": round(t3 - t2, 3),
    }
