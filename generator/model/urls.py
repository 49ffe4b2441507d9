"""The URL scheme: every page path, anchor and relative link of the site is spelled here.

A page is named by its URL relative to the site root, directory style: "" (home),
"releases/2.12/", "features/flex-attention/". Each page's Markdown source is that folder's
`index.md`, so the source file and the page URL sit in the same folder: a relative link in
raw HTML then resolves the same way whether an engine resolves it against the source file
(Zensical) or against the output page (MkDocs).

This module imports nothing from the package: everything else asks it for URLs.
These URLs are published promises (see generator/published_urls.txt): add, never rename.
"""

from __future__ import annotations

import hashlib
import posixpath
import re
import unicodedata
from collections.abc import Iterable

HOME = ""
RELEASES = "releases/"
FEATURES = "features/"
BACKENDS = "backends/"
TIERS = "tiers/"
CONTRIBUTORS = "contributors/"
COMPATIBILITY = "compatibility/"
TIMELINE = "timeline/"
COMPARE = "compare/"
DEPRECATIONS = "deprecations/"
API_PAGE = "api/"
SPEED = "speed/"
UPGRADE = "upgrade/"
UPGRADE_DEFAULTS = "upgrade/defaults/"  # every default and behaviour change across releases (was /upgrade/#defaults)
SYMBOLS = "symbols/"
SEARCH = "search/"  # all the hits of a query: /search/?q=…

API = "api/v1/"
FEED = "feed.xml"
SITEMAPS = "sitemaps/"  # the sitemap's parts (generator.render.sitemaps); /sitemap.xml is their index
SITEMAP_PARTS = ("site", *(s.strip("/") for s in (RELEASES, FEATURES, BACKENDS, SYMBOLS, TIMELINE, UPGRADE)))
"""The sitemap's parts: a page whose URL's first folder names one is in it, any other in "site"."""
BADGES = "badges/"
CI = "ci"  # the upgrade guide's section on running the scan in CI
COVERAGE = "coverage"  # the anchor of the coverage statement on the home page and /releases/
SUBSCRIBE = "subscribe"  # the home page's calendar and feeds
INVENTORY = "objects.inv"  # a Sphinx inventory for intersphinx and autorefs (generator/render/inventory.py)
CALENDAR = "calendar.ics"  # every release, patch, planned release and due removal (generator/render/ical.py)
CARD = "assets/card.png"  # the site's link-preview image (og:image)
PR = "https://github.com/pytorch/pytorch/pull/{}"
ISSUE = "https://github.com/pytorch/pytorch/issues/{}"
RELEASE_NOTES = "https://github.com/pytorch/pytorch/releases/tag/v{}.0"  # a release's GitHub notes
COMPATIBILITY_MATRIX = "https://github.com/pytorch/pytorch/blob/main/RELEASE.md#release-compatibility-matrix"
PREVIEW_ADDRESS = "127.0.0.1:8000"  # where `serve` listens unless told otherwise
DEFAULT_SITE_URL = f"http://{PREVIEW_ADDRESS}/"  # the site's address without SITE_URL (mkdocs.yml's !ENV default)


def site_root(url: str) -> str:
    """A site address as pages join paths to it: with its trailing slash."""
    return url if url.endswith("/") else url + "/"


def release_notes(version: str) -> str:
    """The release's notes on GitHub (the source URL of its change list)."""
    return RELEASE_NOTES.format(version)


# ---------------------------------------------------------------- pages


def release(version: str) -> str:
    return f"{RELEASES}{version}/"


def feature(feature_id: str) -> str:
    return f"{FEATURES}{feature_id}/"


def feature_changes(feature_id: str, version: str) -> str:
    """The release-note changes one release ties to a feature or a family (a page per pair keeps
    feature and family pages from growing with every release)."""
    return f"{FEATURES}{feature_id}/{version}/"


def backend(backend_id: str) -> str:
    return f"{BACKENDS}{backend_id}/"


def backend_changes(backend_id: str, version: str) -> str:
    """One backend's release-note changes in one release (a page per pair keeps pages small)."""
    return f"{BACKENDS}{backend_id}/{version}/"


def backend_span(backend_id: str, first: str, last: str) -> str:
    """A backend's page for an earlier span of releases: ('cuda', '2.0', '2.14') -> 'backends/cuda/2.0-2.14/'."""
    return f"{BACKENDS}{backend_id}/{first}-{last}/"


def symbol_page(module: str) -> str:
    """A module's page of API symbols: 'torch.export' -> 'symbols/torch.export/'."""
    return f"{SYMBOLS}{module}/"


def timeline_span(first: str, last: str) -> str:
    """A timeline page of earlier releases: ('2.0', '2.14') -> 'timeline/2.0-2.14/'."""
    return f"{TIMELINE}{first}-{last}/"


def contributors_span(first: str, last: str) -> str:
    """The named contributors of earlier releases: ('2.0', '2.14') -> 'contributors/2.0-2.14/'."""
    return f"{CONTRIBUTORS}{first}-{last}/"


def defaults_span(first: str, last: str) -> str:
    """The default and behaviour changes of earlier releases: ('2.0', '2.14') -> 'upgrade/defaults/2.0-2.14/'."""
    return f"{UPGRADE_DEFAULTS}{first}-{last}/"


def symbol_name_page(module: str, name: str) -> str:
    """Every change and feature naming one name, for a name its module page lists only the newest
    uses of: ('torch', 'torch.compile') -> 'symbols/torch/torch.compile/'."""
    return f"{SYMBOLS}{module}/{name}/"


def symbol_name_span(module: str, name: str, first: str, last: str) -> str:
    """A page of a name's uses in earlier releases, by its first and last (enrich._name_pages):
    ('torch', 'torch.compile', '2.0', '2.14') -> 'symbols/torch/torch.compile/2.0-2.14/'."""
    return f"{SYMBOLS}{module}/{name}/{first}-{last}/"


def sitemap_part(name: str) -> str:
    """A part of the sitemap: 'releases' -> 'sitemaps/releases.xml'."""
    return f"{SITEMAPS}{name}.xml"


def source(url: str) -> str:
    """The Markdown file under docs/ that renders a page: 'releases/2.12/' -> 'releases/2.12/index.md'."""
    return f"{url}index.md"


# ---------------------------------------------------------------- files that are not pages


def backend_feed(backend_id: str) -> str:
    return f"{BACKENDS}{backend_id}/feed.xml"


def feature_feed(feature_id: str) -> str:
    """A feature's or family's Atom feed, beside its page."""
    return f"{FEATURES}{feature_id}/feed.xml"


def symbol_feed(module: str) -> str:
    """A symbol module's Atom feed, beside its page."""
    return f"{SYMBOLS}{module}/feed.xml"


def api_releases() -> str:
    return f"{API}releases.json"


def api_release(version: str) -> str:
    return f"{API}releases/{version}.json"


def api_features() -> str:
    return f"{API}features.json"


def api_backend(backend_id: str) -> str:
    return f"{API}backends/{backend_id}.json"


def api_feature(feature_id: str) -> str:
    """One feature's tiers by release and backend, for a wiki macro that needs only that feature."""
    return f"{API}features/{feature_id}.json"


def badge(feature_id: str, backend_id: str | None = None) -> str:
    """A feature's status badge (SVG), or its badge on one backend."""
    return f"{BADGES}{feature_id}/{backend_id}.svg" if backend_id else f"{BADGES}{feature_id}.svg"


def api_schema() -> str:
    return f"{API}schema.json"


def api_supports() -> str:
    """Where each Python, CUDA and ROCm version and GPU architecture stops, with its evidence."""
    return f"{API}supports.json"


def api_symbols() -> str:
    """Every listed torch.* name with the changes naming it and its ending (generator/render/symbol_data.py)."""
    return f"{API}symbols.json"


def api_symbols_schema() -> str:
    return f"{API}symbols.schema.json"


def torchfix_symbols() -> str:
    """The endings in TorchFix's deprecated_symbols.yaml shape."""
    return f"{API}deprecated_symbols.yaml"


def pr(number: int) -> str:
    """The PR on GitHub."""
    return PR.format(int(number))


def issue(number: int) -> str:
    """The pytorch/pytorch issue on GitHub (a tracked regression's report)."""
    return ISSUE.format(int(number))


# ---------------------------------------------------------------- anchors


def entry_anchor(feature_id: str) -> str:
    """A feature's entry on a release page."""
    return feature_id


def change_anchor(text: str) -> str:
    """A change on its release page: `c-` and a hash of its record line (the first line of its
    text, spaces collapsed), so the same line keeps the same anchor across rebuilds and
    re-imports, wherever the change moves in the list. A change whose line is edited keeps its
    old anchor as an alias (its `anchors:` in content/changes/X.Y.yaml)."""
    record = " ".join(text.strip().split("\n", 1)[0].split())
    return "c-" + hashlib.sha1(record.encode("utf-8")).hexdigest()[:8]


def change_anchors(texts: Iterable[str]) -> list[str]:
    """The anchors of a release's changes, in list order: a record line that repeats gets
    `-2`, `-3` … after its first occurrence, so no two changes share one."""
    taken: set[str] = set()
    return [unique(change_anchor(text), taken) for text in texts]


CHANGE_ANCHOR = re.compile(r"c-[0-9a-f]{8}(?:-[0-9]+)?")
"""What `change_anchors` spells (the changes schema's pattern for `anchors:` says the same)."""


def unique(anchor: str, taken: set[str]) -> str:
    """anchor, or anchor-2, anchor-3 … whichever `taken` does not hold yet; added to `taken`."""
    out, n = anchor, 1
    while out in taken:
        n += 1
        out = f"{anchor}-{n}"
    taken.add(out)
    return out


def pr_anchor(number: int) -> str:
    """On a release page: the first change that cites the PR (published; kept where it is)."""
    return f"pr-{number}"


def symbol_anchor(name: str) -> str:
    """A symbol on its module page: the dotted name itself ('torch.cat' -> #torch.cat).

    MkDocs keeps dots and underscores in ids, and ids are matched literally, so a link
    `symbols/torch/#torch.cat` lands on the symbol (a CSS selector would need the dots escaped).
    """
    return name


def release_anchor(version: str) -> str:
    """A release's section on a feature or backend page: '2.12' -> 'release-2-12'."""
    return "release-" + version.replace(".", "-")


def patch_anchor(version: str) -> str:
    return "v" + version.replace(".", "-")


def patch_fixes_anchor(version: str) -> str:
    """A release page's list of what a patch release fixes."""
    return patch_anchor(version) + "-fixes"


def patch_fixes(version: str) -> str:
    """Where a patch release's fixes are listed: on its minor release's page (2.14.1: releases/2.14/)."""
    return at(release(version.rsplit(".", 1)[0]), patch_fixes_anchor(version))


def tier_anchor(tier_id: str) -> str:
    return f"tier-{tier_id}"


def section_anchor(section_id: str) -> str:
    return f"changes-{section_id}"


def area_anchor(area_anchor_id: str) -> str:
    return f"changes-{area_anchor_id}"


CHANGES = "changes"  # the change list on a release page
COMPATIBILITY_ANCHOR = "compatibility"
UPGRADING = "upgrading"


def upgrading_step(group: str) -> str:
    """A step of a release page's "Upgrading" section (a model.UPGRADE_GROUPS id): 'upgrading-breaking'."""
    return f"{UPGRADING}-{group}"


DEFAULTS = "defaults"  # the upgrade guide's list of every default and behaviour change
EARLIER_REMOVALS = "removals-of-earlier-deprecations"  # /deprecations/: removals of what an earlier release deprecated
MEMBER_ACTIONS = "member-actions"  # a family's members' changes an upgrade must act on (its page, its release pages)
KNOWN_ISSUES = "known-issues"  # a release page's tracked regressions, above its features


def deprecations_span(first: str, last: str) -> str:
    """The deprecation ledger of an earlier span of releases: ('2.0', '2.14') -> 'deprecations/2.0-2.14/'."""
    return f"{DEPRECATIONS}{first}-{last}/"


def tiers_span(first: str, last: str) -> str:
    """The entries of each tier of an earlier span of releases: ('2.0', '2.14') -> 'tiers/2.0-2.14/'."""
    return f"{TIERS}{first}-{last}/"


def features_span(first: str, last: str) -> str:
    """The features first announced in an earlier span of releases: ('2.0', '2.14') ->
    'features/2.0-2.14/'. Beside the features' own pages: a feature id has a letter (load.catalogue)."""
    return f"{FEATURES}{first}-{last}/"


RULES = "how-the-atlas-states"  # /tiers/: how every page states a feature's standing and ending


def upgrade(start: str, end: str) -> str:
    """The upgrade guide opened on a range: /upgrade/?from=2.11&to=2.12."""
    return f"{UPGRADE}?from={start}&to={end}"


def upgrade_step(group: str) -> str:
    """The anchor of one step of the upgrade guide (a model.UPGRADE_GROUPS id): 'upgrade-breaking'.
    atlas-upgrade.js gives its lists the same ids ("upgrade-" + the step's id)."""
    return f"upgrade-{group}"


def at(url: str, anchor: str = "") -> str:
    """A page URL with an optional #anchor."""
    return f"{url}#{anchor}" if anchor else url


_PR_ANCHOR = re.compile(r"pr-([0-9]+)")


def promise(url: str) -> tuple[str, str, str]:
    """What a published URL is, read back from its spelling (the inverse of the functions
    above): (kind, page, anchor) with kind one of "page", "file", "change", "pr", "symbol",
    "section", "entry". The URL guard says how to keep each kind."""
    page, _, anchor = url.partition("#")
    if not anchor and (page.startswith((BADGES, API)) or page == INVENTORY):
        return "file", page, ""  # a badge, a feature's JSON, the inventory
    if not anchor:
        return "page", page, ""
    if page.startswith(SYMBOLS):
        return "symbol", page, anchor
    if anchor in (UPGRADING, DEFAULTS, KNOWN_ISSUES):
        return "section", page, anchor
    if page.startswith(RELEASES) and CHANGE_ANCHOR.fullmatch(anchor):
        return "change", page, anchor
    if page.startswith(RELEASES) and _PR_ANCHOR.fullmatch(anchor):
        return "pr", page, anchor
    return "entry", page, anchor


def version_of(page: str) -> str:
    """'releases/2.12/' -> '2.12' (the inverse of `release`)."""
    return page[len(RELEASES) :].rstrip("/")


def module_of(page: str) -> str:
    """'symbols/torch.export/' -> 'torch.export' (the inverse of `symbol_page`)."""
    return page[len(SYMBOLS) :].rstrip("/")


# ---------------------------------------------------------------- links between pages


def _split(to: str) -> tuple[str, str]:
    """'releases/2.12/?a=b#x' -> ('releases/2.12/', '?a=b#x')."""
    target, hash_, anchor = to.partition("#")
    target, q, query = target.partition("?")
    return target, (f"?{query}" if q else "") + (f"#{anchor}" if hash_ else "")


def relpath(path: str, start: str) -> str:
    """posixpath.relpath for the site's own paths, which are relative and normalised (no "..";
    "." only as the root): the same answer without making both absolute through os.getcwd(),
    which every one of the site's many links would otherwise call (README, Speed mechanisms)."""
    if ".." in path or ".." in start:
        return posixpath.relpath(path, start)
    to = [part for part in path.split("/") if part and part != "."]
    at = [part for part in start.split("/") if part and part != "."]
    common = 0
    for a, b in zip(to, at, strict=False):  # the paths part where they differ
        if a != b:
            break
        common += 1
    return "/".join([".."] * (len(at) - common) + to[common:]) or "."


def relative(from_url: str, to: str) -> str:
    """A relative URL from one page to another page, file or anchor ('releases/2.12/#x').

    Targets ending in '/' (or empty) are pages; others are files such as 'feed.xml'.
    """
    target, suffix = _split(to)
    if not target and suffix:  # '#x' or '?q': this page
        target = from_url
    rel = relpath(target or ".", from_url or ".")
    if target.endswith("/") or target == "":
        rel = "./" if rel == "." else rel + "/"
    return rel + suffix


def root(from_url: str) -> str:
    """The site's root relative to a page ('releases/2.12/' -> '../../', '' -> './'): where the
    browser scripts resolve the paths the build gives them (`relative(page, HOME)` is the page
    itself, as an empty link is)."""
    return "../" * from_url.count("/") or "./"


def md_link(from_url: str, to: str) -> str:
    """A Markdown link MkDocs (and Zensical) validate: the relative path of the target's source.

    Files that are not pages (feeds, JSON) are linked by their own path.
    """
    target, suffix = _split(to)
    if not target and suffix:
        return suffix
    path = source(target) if target.endswith("/") or target == "" else target
    return relpath(path, from_url or ".") + suffix


def slugify(text: str) -> str:
    """ASCII slug for names: 'Jane Xu' -> 'jane-xu'."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")
    return slug or "x" + hashlib.sha1(text.encode()).hexdigest()[:8]
