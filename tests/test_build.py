"""Atomic and reproducible builds.

Atomic: the site folder is always a complete site, the old one or the new one, whether the
build fails (content error, mkdocs --strict) or is killed at any moment. Reproducible: the
same content gives the same bytes in every file, whatever the folder, hash seed or time zone.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import gzip
import hashlib
import re
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from generator.pipeline import build as pipeline
from generator.util.writer import write_atomic
from tests.conftest import FIXTURE, ROOT, real_model, run_cli
from tests.helpers import edit, tree


def digest(root: Path) -> str:
    return hashlib.sha256(repr(sorted(tree(root).items())).encode()).hexdigest()


def leftovers(site: Path) -> list[str]:
    return sorted(p.name for p in site.parent.iterdir() if p.name.startswith(f".{site.name}."))


def running_in(folder: Path) -> list[str]:
    """Command lines of the processes that name folder (the index's child names its staging folder) and
    go on running: a process sent SIGKILL counts as ended. A child that dies with its parent
    (PR_SET_PDEATHSIG) is sent SIGKILL as the parent dies, and ends only when it next gets the
    processor, which on a busy machine can be long after the test looks: what tells it is doomed
    is the pending signal, or the kernel's mark that it is exiting."""
    found = []
    for proc in Path("/proc").glob("[0-9]*"):
        with contextlib.suppress(OSError):  # it ended meanwhile
            args = (proc / "cmdline").read_bytes().split(b"\0")
            if any(str(folder).encode() in arg for arg in args) and not _killed(proc):
                found.append(b" ".join(args).decode(errors="replace"))
    return found


SIGKILL_BIT = 1 << (signal.SIGKILL - 1)
PF_EXITING = 0x4  # include/linux/sched.h


def _killed(proc: Path) -> bool:
    """Whether the process /proc/<pid> is exiting or has SIGKILL pending."""
    status = dict(line.split(":", 1) for line in (proc / "status").read_text().splitlines() if ":" in line)
    pending = int(status["SigPnd"], 16) | int(status["ShdPnd"], 16)
    flags = int((proc / "stat").read_text().rsplit(")", 1)[1].split()[6])
    return bool(pending & SIGKILL_BIT) or bool(flags & PF_EXITING) or status["State"].strip()[0] in "ZX"


def build_cli(content: Path | None, site: Path, docs: Path, **env: str) -> subprocess.CompletedProcess:
    """python -m generator build of content (the real content when None) into site, with env added."""
    args = ["build", "--site", str(site), "--docs", str(docs)]
    if content is not None:
        args += ["--content", str(content)]
    return run_cli(*args, env=env)


@pytest.fixture(scope="module")
def real_content(tmp_path_factory) -> Path:
    """A copy of content/ elsewhere. Builds of it leave the repository alone: content/ itself
    would also update generator/published_urls.txt, and a killed build could truncate it."""
    dest = tmp_path_factory.mktemp("real-content") / "content"
    shutil.copytree(ROOT / "content", dest)
    return dest


@pytest.fixture
def old_site(tmp_path, fixture_site) -> Path:
    """A complete site (the fixture content) at tmp_path/out/site, as a previous build left it."""
    site = tmp_path / "out" / "site"
    shutil.copytree(fixture_site, site)
    return site


# Failed builds


def test_content_error_leaves_the_previous_site_byte_identical(old_site, content_copy, tmp_path):
    before = tree(old_site)
    (content_copy / "releases/2.8.yaml").write_text("version: [\n", encoding="utf-8")
    proc = build_cli(content_copy, old_site, tmp_path / "docs")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert tree(old_site) == before
    assert leftovers(old_site) == []


def test_mkdocs_config_error_leaves_the_site_and_says_why(old_site, tmp_path):
    """A bad SITE_URL aborts MkDocs' config check: exit 1 with MkDocs' message, not a silent exit."""
    before = tree(old_site)
    proc = build_cli(FIXTURE, old_site, tmp_path / "docs", SITE_URL="not a url")
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "left as it was" in proc.stderr and "site_url" in proc.stderr
    assert tree(old_site) == before
    assert leftovers(old_site) == []


def test_mkdocs_strict_failure_after_writing_leaves_the_site(old_site, tmp_path):
    """MkDocs renders every page into the temporary folder, then --strict fails on a broken link."""
    before = tree(old_site)
    docs = tmp_path / "docs"
    site, _ = pipeline.generate(FIXTURE, docs)
    (docs / "broken.md").write_text("# Broken\n\n[nowhere](nowhere.md)\n", encoding="utf-8")
    with pytest.raises(pipeline.MkDocsFailed, match="nowhere.md"):
        pipeline.mkdocs_build(site, docs, old_site)
    assert tree(old_site) == before
    assert leftovers(old_site) == []


# Killed builds

HOOKED_BUILD = """
import os, pathlib, runpy, signal, subprocess, sys, tempfile
import mkdocs.commands.build as mkdocs_build
from generator.pipeline import build

point = sys.argv.pop(1)


def die(*_args, **_kwargs):
    os.kill(os.getpid(), signal.SIGKILL)


def dies_after(func, nth=1, when=lambda result: True):
    calls = 0

    def hooked(*args, **kwargs):
        nonlocal calls
        result = func(*args, **kwargs)
        calls += when(result)
        if calls == nth:
            die()
        return result

    return hooked


def on_swap(install):
    real_swap = build.swap

    def swap(new, target):
        install(new, target)
        real_swap(new, target)

    build.swap = swap


def half_the_files(target):
    return sum(path.is_file() for path in target.rglob("*")) // 2


if point.startswith("fallback-"):
    build._exchange = lambda a, b: False
if point == "mkdocs-build-entered":
    build.mkdocs_build = die
elif point == "temp-folder-made":
    tempfile.mkdtemp = dies_after(tempfile.mkdtemp, when=lambda path: ".building-" in path)
elif point == "mkdocs-writing-pages":
    mkdocs_build._build_page = dies_after(mkdocs_build._build_page, nth=5)
elif point == "search-indexing":  # the index's child (generator.search.child) just started
    real_init = subprocess.Popen.__init__
    def started(self, args, *rest, **kwargs):
        if "generator.search.child" in " ".join(map(str, args)):  # a stand-in as slow as on a large site
            args = [sys.executable, "-c", "import time; time.sleep(30)", *map(str, args)]
            real_init(self, args, *rest, **kwargs)
            die()
        real_init(self, args, *rest, **kwargs)
    subprocess.Popen.__init__ = started
elif point == "swap-entered":
    build.swap = die
elif point == "exchanged":
    build._exchange = dies_after(build._exchange, when=bool)
elif point in ("removing-old-site", "fallback-removing-old-site"):
    on_swap(lambda new, target: setattr(os, "unlink", dies_after(os.unlink, nth=half_the_files(target))))
elif point == "fallback-old-moved-aside":
    on_swap(lambda new, target: setattr(pathlib.Path, "rename", dies_after(pathlib.Path.rename)))
elif point == "fallback-new-in-place":
    on_swap(lambda new, target: setattr(pathlib.Path, "rename", dies_after(pathlib.Path.rename, nth=2)))
elif point == "swap-returned":
    build.swap = dies_after(build.swap)
else:
    raise SystemExit(f"unknown kill point {point}")
runpy.run_module("generator", run_name="__main__", alter_sys=True)
"""
"""`python -c HOOKED_BUILD POINT build ...` is `python -m generator build ...` that SIGKILLs itself
at POINT, so every kill lands exactly where it is meant to, however fast or slow the machine."""

linux_only = pytest.mark.skipif(sys.platform != "linux", reason="the atomic exchange needs Linux renameat2")
EXCHANGE_NOT_ATOMIC = pytest.mark.xfail(
    strict=True,
    reason="without renameat2 swap() renames the old site aside, then the new one in: the site folder "
    "is missing in between (as swap() documents), and the next build deletes the moved-aside old copy",
)

KILL_POINTS = [
    # (where the build dies, what the site folder then is, how many temporary folders it leaves)
    pytest.param("search-indexing", "old", 1, id="search-indexing"),
    pytest.param("mkdocs-build-entered", "old", 1, id="mkdocs-build-entered"),
    pytest.param("temp-folder-made", "old", 2, id="temp-folder-made"),
    pytest.param("mkdocs-writing-pages", "old", 2, id="mkdocs-writing-pages"),
    pytest.param("swap-entered", "old", 1, id="swap-entered"),
    pytest.param("exchanged", "new", 1, id="exchanged", marks=linux_only),
    pytest.param("removing-old-site", "new", 1, id="removing-old-site", marks=linux_only),
    pytest.param("swap-returned", "new", 0, id="swap-returned"),
    pytest.param("fallback-old-moved-aside", "old", 2, id="fallback-old-moved-aside", marks=EXCHANGE_NOT_ATOMIC),
    pytest.param("fallback-new-in-place", "new", 1, id="fallback-new-in-place"),
    pytest.param("fallback-removing-old-site", "new", 1, id="fallback-removing-old-site"),
]
"""search-indexing: the model built, the search index's child just started (it works in a folder
of its own beside the site until placed; generator.search.indexing.Beside). mkdocs-build-entered: pages
generated, the index under way. temp-folder-made, mkdocs-writing-pages (after the fifth page),
swap-entered: the new site half or fully built beside the old one. exchanged: right after the
one-step exchange. removing-old-site: halfway through deleting the old copy. swap-returned: done,
before the process exits. fallback-*: the same with renameat2 unavailable (the path other systems
take): after each rename, and halfway through deleting the old copy."""


def killed_build(site: Path, docs: Path, point: str) -> subprocess.CompletedProcess:
    """`python -m generator build` of the fixture content into site, SIGKILLed at point."""
    return run_cli(
        "build", "--content", str(FIXTURE), "--site", str(site), "--docs", str(docs), via=("-c", HOOKED_BUILD, point)
    )


@pytest.fixture(scope="module")
def earlier_site(tmp_path_factory) -> Path:
    """A complete site that differs from the fixture's, built once: the fixture content with a
    release summary as an earlier edit had it, plus a page the fixture content no longer has."""
    out = tmp_path_factory.mktemp("earlier")
    content = out / "content"
    shutil.copytree(FIXTURE, content)
    edit(content, "summary: The second fixture release.", "summary: The second fixture release, as it was.")
    proc = build_cli(content, out / "site", out / "docs")
    assert proc.returncode == 0, proc.stderr
    (out / "site" / "retired").mkdir()
    (out / "site" / "retired" / "index.html").write_text("<p>A page of an earlier build.</p>\n", encoding="utf-8")
    return out / "site"


@pytest.fixture
def previous_site(tmp_path, earlier_site) -> Path:
    """The earlier site at tmp_path/out/site, as a previous build left it."""
    site = tmp_path / "out" / "site"
    shutil.copytree(earlier_site, site)
    return site


@pytest.mark.parametrize(("point", "after", "left"), KILL_POINTS)
def test_killed_build_leaves_the_old_site_or_the_new_one(previous_site, fixture_site, tmp_path, point, after, left):
    """Killed at any point, the site folder is the complete old site or the complete new one, never
    missing or half-written, and the next build removes what the killed one left."""
    site, docs = previous_site, tmp_path / "docs"
    expected = {"old": digest(site), "new": digest(fixture_site)}
    assert expected["old"] != expected["new"]
    proc = killed_build(site, docs, point)
    assert proc.returncode == -signal.SIGKILL, f"not killed at {point}:\n{proc.stderr}"
    assert site.is_dir(), "the site folder vanished"
    assert digest(site) == expected[after], f"the site folder is not the complete {after} site"
    assert len(leftovers(site)) == left, leftovers(site)
    assert running_in(site.parent) == [], "a child of the killed build still runs"

    proc = build_cli(FIXTURE, site, docs)
    assert proc.returncode == 0, proc.stderr
    assert leftovers(site) == []
    assert digest(site) == expected["new"]


def test_clean_leftovers_spares_other_folders(tmp_path):
    for name in ("site", ".site.building-abc", ".site.old-def", "site-other", ".sitemap", "docs"):
        (tmp_path / name).mkdir()
    pipeline.clean_leftovers(tmp_path / "site")
    assert sorted(p.name for p in tmp_path.iterdir()) == [".sitemap", "docs", "site", "site-other"]


# Reproducible builds


def assert_same_site(first: dict, second: dict, page: str) -> None:
    """Two trees (`tree`) hold the same files with the same bytes, and they are whole sites:
    sitemaps, the search index, the home page and a release page."""
    for name in ("sitemap.xml", "sitemap.xml.gz", "search-text/meta.json", "index.html", page):
        assert name in first, name
    differing = sorted(rel for rel in first.keys() | second.keys() if first.get(rel) != second.get(rel))
    assert differing == []


def test_fixture_built_by_two_processes_with_other_hash_seeds_is_byte_identical(tmp_path):
    """Two separate `python -m generator build` processes, hash seeds 1 and 2, two time zones (POSIX
    TZ strings, so no tz database is needed), other site and docs folders: the same bytes."""
    sites = []
    for seed, tz in (("1", "UTC0"), ("2", "NPT-5:45")):
        out = tmp_path / f"seed-{seed}"
        proc = build_cli(FIXTURE, out / "site", out / "docs", PYTHONHASHSEED=seed, TZ=tz)
        assert proc.returncode == 0, proc.stderr
        sites.append(tree(out / "site"))
    assert_same_site(*sites, "releases/2.8/index.html")


def test_two_builds_of_the_real_content_are_byte_identical(real_build, real_content, tmp_path):
    """Content and site in other folders, another hash seed and time zone, and a SOURCE_DATE_EPOCH
    the build must override; the same address as the session's real build."""
    proc = build_cli(
        real_content,
        tmp_path / "elsewhere" / "public",
        tmp_path / "md",
        SITE_URL=real_build.url,
        PYTHONHASHSEED="12345",
        TZ="Pacific/Kiritimati",
        SOURCE_DATE_EPOCH="1",
    )
    assert proc.returncode == 0, proc.stderr
    assert_same_site(tree(real_build.site), tree(tmp_path / "elsewhere" / "public"), "releases/2.12/index.html")


def test_sitemap_is_an_index_of_parts_that_list_every_page(real_site):
    """sitemap.xml (templates/overrides/sitemap.xml) is an index, one <sitemap><loc> a line, of the
    parts generator/render/sitemaps.py writes: Material's scripts fetch it on every first visit, so
    it names parts, not pages. The parts it names (mkdocs.yml's copy of urls.SITEMAP_PARTS) are the
    files in sitemaps/, and they list every page of the site once,
    one <url><loc> a line, without <lastmod>. sitemap.xml.gz holds the index's bytes, stamped with
    the newest release date, not the day of the build."""
    raw = (real_site / "sitemap.xml").read_bytes()
    lines = raw.decode("utf-8").splitlines()
    assert lines[:2] == [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ]
    assert lines[-1] == "</sitemapindex>"
    named = [
        re.fullmatch(r"<sitemap><loc>([^<]+)sitemaps/([a-z0-9-]+)\.xml</loc></sitemap>", line) for line in lines[2:-1]
    ]
    assert named and all(named), textwrap.shorten(str(lines[2:5]), 200)
    base = named[0].group(1)
    assert {m.group(1) for m in named} == {base}
    parts = [m.group(2) for m in named]
    assert sorted(p.stem for p in (real_site / "sitemaps").iterdir()) == sorted(parts) == sorted(set(parts))
    listed = []
    for part in parts:
        part_lines = (real_site / "sitemaps" / f"{part}.xml").read_text(encoding="utf-8").splitlines()
        assert (
            part_lines[1:2] == ['<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">']
            and part_lines[-1] == "</urlset>"
        )
        locs = [re.fullmatch(r"<url><loc>([^<]+)</loc></url>", line) for line in part_lines[2:-1]]
        assert locs and all(locs), (part, part_lines[2:4])
        listed += [m.group(1).removeprefix(base) for m in locs]
    assert sorted(listed) == sorted(page.url for page in real_model().pages)
    for url in listed:
        assert (real_site / url / "index.html").is_file(), url
    packed = (real_site / "sitemap.xml.gz").read_bytes()
    assert gzip.decompress(packed) == raw
    latest = max(real_model().releases, key=lambda r: r.date).date
    stamp = int.from_bytes(packed[4:8], "little")  # the gzip header's MTIME
    assert dt.datetime.fromtimestamp(stamp, dt.UTC).date() == latest


def test_a_renamed_tier_label_builds_and_the_home_page_says_it(content_copy, tmp_path):
    """tiers.yaml is the one home of a tier's words: renaming a label is an edit of content that
    `check` accepts and `build` shows (the glance table's letter comes from `abbr`, not the label)."""
    tiers = content_copy / "tiers.yaml"
    tiers.write_text(tiers.read_text().replace("label: Beta,", "label: Beta preview,", 1))
    assert run_cli("check", "--content", str(content_copy)).returncode == 0
    site = tmp_path / "site"
    done = build_cli(content_copy, site, tmp_path / "docs")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    home = (site / "index.html").read_text()
    assert 'title="2.7: Widget compiler: Beta preview"' in home
    assert re.search(r'<td class="atlas-cell tier-beta"[^>]*>(<[^>]+>)*B<', home)


CHILD_FAILS = """
import os, runpy, sys
import mkdocs.commands.build as mkdocs_build

me, real = os.getpid(), mkdocs_build._build_page
here = []


def page(page, *args, **kwargs):
    if os.getpid() != me:  # generator.pipeline.halves' forked child, at its first page
        open(os.environ["CHILD_MARK"], "w").close()
        raise RuntimeError("the child fails")
    here.append(page.file.src_uri)
    return real(page, *args, **kwargs)


mkdocs_build._build_page = page
try:
    runpy.run_module("generator", run_name="__main__", alter_sys=True)
finally:
    print(len(here), file=sys.stderr)
"""
"""`python -c CHILD_FAILS build ...`: the build whose second MkDocs process fails at its first page;
prints how many pages the build's own process made."""


def test_mkdocs_pages_are_the_same_whichever_process_makes_them(fixture_site, tmp_path):
    """generator.pipeline.halves shares MkDocs' pages between the build's process and a forked
    child: when the child fails, the build's process makes every page, and the site is the same
    bytes as the build whose pages both made."""
    args = ("build", "--content", str(FIXTURE), "--site", str(tmp_path / "site"), "--docs", str(tmp_path / "docs"))
    proc = run_cli(*args, via=("-c", CHILD_FAILS), env={"CHILD_MARK": str(tmp_path / "child-ran")})
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "child-ran").exists()
    pages = sum(1 for p in (tmp_path / "docs").rglob("*.md"))
    assert int(proc.stderr.strip().splitlines()[-1]) == pages
    assert_same_site(tree(fixture_site), tree(tmp_path / "site"), "releases/2.8/index.html")


LINKS_REFUSED = """
import os, runpy


def refuse(*args, **kwargs):
    raise OSError(18, "Invalid cross-device link")


os.link = refuse
runpy.run_module("generator", run_name="__main__", alter_sys=True)
"""
"""`python -c LINKS_REFUSED build ...`: a build on a file system that makes no hard link."""


def test_the_docs_files_reach_the_site_the_same_linked_or_copied(fixture_site, tmp_path):
    """generator.pipeline.halves hard-links the docs' files (API records, feeds, badges) into the
    site. Where no link can be made, they are copied and the site is the same bytes; and a later
    generate that replaces a docs file leaves the built site's file as it was."""
    args = ("build", "--content", str(FIXTURE), "--site", str(tmp_path / "site"), "--docs", str(tmp_path / "docs"))
    proc = run_cli(*args, via=("-c", LINKS_REFUSED))
    assert proc.returncode == 0, proc.stderr
    assert_same_site(tree(fixture_site), tree(tmp_path / "site"), "releases/2.8/index.html")
    assert run_cli(*args).returncode == 0  # linked, this time
    feed = (tmp_path / "site" / "feed.xml").read_bytes()
    assert write_atomic(tmp_path / "docs" / "feed.xml", feed.replace(b"<feed", b"<feed xml:lang='en'", 1))
    assert (tmp_path / "site" / "feed.xml").read_bytes() == feed
