"""Search stage: the site's search index, written into the built site beside the pages.

Two parts, both static files fetched on demand by templates/assets/atlas-search.js:

- **Names** (`search-names/<xx>.json`): what a reader types when they know what they want —
  a feature or family name or former id, a backend, a release ("2.8", "PyTorch 2.8"), an API
  symbol (`torch.cat`, or `set_stance` when only one symbol ends so), a PR number ("158249",
  "#158249"), a page's name ("deprecations"). Each name maps to the page it names, and those
  pages are shown first. The table is split into 1,024 files by a hash of the name (FNV-1a,
  `shard`), so a search fetches one small file however large the site grows.
- **Full text** (`search-text/`): the Atlas's own index (generator.search.fulltext), made from
  the model, not from the HTML: one record per page (title, description, what it is) and one per
  release-note change (its record line, area and PRs; filterable by release, backend and
  section), so a change is found on its own anchor. Its terms are split into chunks that load
  on demand.

The records are data (`Record`), never HTML: the browser's engine escapes their text in the
excerpts it makes, and atlas-search.js keeps only the text and <mark> of those. The same content
gives the same bytes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..markup.textfilters import plain
from ..model import urls
from ..model.computed import Site
from ..model.content import SECTION_TITLES, SECTIONS
from . import child as search_child

NAMES, BUNDLE = search_child.NAMES, search_child.BUNDLE  # the index's folders in a built site

SYMPTOMS = "symptoms.json"  # in NAMES/: every change's error and warning texts (`symptoms`)
MAX_HITS = 6  # names a key may point to; more would push the full-text results off screen

# The site's sections, by their tab's title in mkdocs.yml's nav and the other words a reader
# would use; the page's own title (its front matter) is added first.
SECTION_PAGES = {
    urls.RELEASES: ("Releases", "all releases", "release list"),
    urls.FEATURES: ("Features", "feature list", "all features", "feature catalogue"),
    urls.BACKENDS: ("Backends", "all backends", "devices"),
    urls.TIERS: ("Tiers", "stability tiers", "prototype beta stable", "api-stable api-unstable"),
    urls.COMPATIBILITY: ("Compatibility", "compatibility matrix", "supported python versions", "cuda versions"),
    urls.TIMELINE: ("Timeline", "feature timeline"),
    urls.UPGRADE: ("Upgrade", "upgrade guide", "upgrading", "migration guide", "breaking changes"),
    urls.at(urls.UPGRADE, urls.DEFAULTS): (
        "default changes",
        "changed defaults",
        "behaviour changes",
        "behavior changes",
    ),
    urls.COMPARE: ("Compare", "compare releases"),
    urls.DEPRECATIONS: ("Deprecations", "deprecation", "deprecated", "deprecation ledger"),
    urls.SYMBOLS: ("Symbols", "api symbols"),
    urls.CONTRIBUTORS: ("Contributors",),
    urls.API_PAGE: ("API", "json api"),
    urls.SPEED: ("How fast is it", "speed", "benchmark"),
    urls.SEARCH: ("Search", "search results", "all results"),
}

# Where a reader subscribes: the API page's sections on the calendar and the feeds (their
# headings' anchors), by the words a reader would use for them: title, line, words.
SUBSCRIBE = {
    urls.at(urls.API_PAGE, "calendar"): (
        "Calendar of releases (calendar.ics)",
        "Every release, patch release and planned release, and the removals due in each: "
        "subscribe to it in a calendar application.",
        ("calendar", "subscribe", "calendar.ics", "ics", "ical", "icalendar", "release calendar", "release dates"),
    ),
    urls.at(urls.API_PAGE, "atom-feeds"): (
        "Atom feeds",
        "A feed of every release, and one per backend, feature and API module: follow them in a feed reader.",
        ("feed", "feeds", "subscribe", "atom", "atom feed", "rss", "rss feed", "feed.xml", "news feed"),
    ),
}
COVERAGE = urls.at(urls.RELEASES, "coverage")  # the statement of what the Atlas covers (releases.md.j2)


def normalise(query: str) -> str:
    """A name as the table keys it (atlas-search.js `normalise` does the same to what is typed):
    lower case, single spaces, without surrounding quotes or backticks, a leading '#' or 'PR', a
    trailing '()'."""
    out = " ".join(query.lower().split()).strip("`'\" ")
    out = out.removesuffix("()").lstrip("#").strip()
    return re.sub(r"^(?:pr|pull|pull request) ?#? ?(?=[0-9]+$)", "", out)  # "PR #158249" is 158249


NUMBER = re.compile(r"[0-9]+")  # a normalised query that is a PR or issue number ("#158249" is 158249)
VERSION = re.compile(r"v?[0-9]+(?:\.[0-9]+){1,3}")  # a release, a patch, a CUDA or Python version
CODE = re.compile(r"`([^`\n]+)`")  # an inline code span of hand-written Markdown
ENV_VAR = re.compile(r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b")  # TORCH_TRACE, as a change or a feature name holds it
ARGUMENT = re.compile(r"[a-z][a-z0-9]*_[a-z0-9_]+")  # use_cuda: an argument, a config key or a function, bare


def query_kind(key: str) -> str:
    """What a normalised query is (atlas-rules.js `queryKind` says the same): "number" (a PR or
    issue number, found exactly or not at all: never by a prefix), "version" (found as written:
    13.2.2 is not 13.2 nor #1322xx), else "text"."""
    if NUMBER.fullmatch(key):
        return "number"
    return "version" if VERSION.fullmatch(key) else "text"


def message_key(text: str) -> str:
    """An error or warning text as symptoms are compared (atlas-rules.js `messageKey`): lower
    case, single spaces, without surrounding quotes or backticks."""
    return " ".join(text.lower().split()).strip("`'\" ")


def symptom_matches(symptom: str, pasted: str) -> bool:
    """Does a pasted text show this symptom (atlas-rules.js `symptomMatches`): the whole message
    is in the paste (a traceback holds it), or the paste is a part of the message of at least
    three words and 12 characters (a reader types what they remember of it)."""
    message, paste = message_key(symptom), message_key(pasted)
    if not message or not paste:
        return False
    return message in paste or (len(paste) >= 12 and paste.count(" ") >= 2 and paste in message)


def name_forms(key: str) -> list[str]:
    """The other forms of a normalised query that names nothing (atlas-rules.js `nameForms`),
    tried in this order: hyphens as spaces ("cuda-graph": "cuda graph"), the last word's plural
    as its singular ("cuda graphs": "cuda graph"), and the words of that joined as a class name
    joins them ("cudagraph", for torch.cuda.CUDAGraph)."""
    spaced = " ".join(key.replace("-", " ").split())
    singular = re.sub(r"(?<=[a-z]{3})(?<!s)s$", "", spaced)
    forms = [spaced, singular, singular.replace(" ", "")] if " " in singular else [spaced, singular]
    return [f for f in dict.fromkeys(forms) if f and f != key]


CALL = re.compile(r"([A-Za-z_][A-Za-z0-9_.]*)[ \t]*\((.*)\)[ \t]*;?", re.DOTALL)
KEYWORD = re.compile(r"(?:^|[,(])[ \t\n]*([A-Za-z_][A-Za-z0-9_]*)[ \t]*=(?!=)")


def pasted_call(text: str) -> tuple[str, list[str]] | None:
    """A pasted call (atlas-rules.js `pastedCall`): `profile(use_cuda=True)` is the callee's last
    name ("profile") and the keyword arguments it passes (["use_cuda"]); None when the text is
    not one call, or passes no keyword argument."""
    match = CALL.fullmatch(text.strip())
    if not match:
        return None
    keywords = list(dict.fromkeys(KEYWORD.findall(match[2])))
    return (match[1].rstrip(".").rpartition(".")[2], keywords) if keywords else None


SHARDS = 1024  # names files; a search fetches one (about 1 kB at 1x, 12 kB at 10x)
SHARD_DIGITS = len(f"{SHARDS - 1:x}")  # a names file's name: its number in hex, this wide


def shard(key: str) -> str:
    """The names file a key lives in: FNV-1a (32 bit) of its UTF-8 bytes, its low 10 bits in hex."""
    h = 0x811C9DC5
    for byte in key.encode("utf-8"):
        h = ((h ^ byte) * 0x01000193) & 0xFFFFFFFF
    return f"{h % SHARDS:0{SHARD_DIGITS}x}"


def _version_names(version: str) -> list[str]:
    return [version, f"{version}.0", f"v{version}", f"pytorch {version}", f"torch {version}", f"release {version}"]


def _feature_names(node) -> list[str]:
    """What a reader may type for a catalogue feature: its name, id and former ids, the names it
    is also known by; a name's acronym ("… (FSDP2)"); a name without a trailing "wheels" or
    "support", and a version "13.0" as "13"; an id with underscores (flex_attention); the last
    part of a dotted API name (torch.compiler.set_stance: set_stance); an environment variable a
    name holds (tlparse and TORCH_TRACE: TORCH_TRACE), which its changes would otherwise claim, and
    the argument or option a name ends with (torch.load weights_only: weights_only), which the
    changes naming that argument would (`_change_names`)."""
    out = [node.name, *node.also]
    out += [v for name in (node.name, *node.also) for v in ENV_VAR.findall(name)]
    said = normalise(" ".join((node.name, *node.also)).replace("-", " "))
    for fid in (node.id, *node.aliases):
        # A former id's words only where the name still says them: "cuda graphs", once the id of
        # what is now CUDA Graph kernel annotations, is not that feature's name.
        spaced = fid.replace("-", " ")
        out += [fid, fid.replace("-", "_")] + ([spaced] if fid == node.id or spaced in said else [])
    acronym = re.search(r"\(([^()]+)\)\s*$", node.name)
    if acronym:
        out += [acronym[1], node.name[: acronym.start()].strip()]
    for name in list(out):
        short = re.sub(r"\s+(wheels?|support)$", "", name, flags=re.IGNORECASE)
        out += [short, re.sub(r"\b(\d+)\.0\b", r"\1", short)]
    if re.fullmatch(r"torch(\.\w+)+", node.name):
        out.append(node.name.rpartition(".")[2])
    for name in [node.name, *node.also] + ([acronym[1]] if acronym else []):
        out += _api_name_forms(name)
    for name in (node.name, *node.also):  # "torch.load weights_only": the argument it is about
        head, _, last = name.rpartition(" ")
        if head and re.fullmatch(r"[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+", last):
            out.append(last)
    return out


def _api_name_forms(name: str) -> list[str]:
    """A feature named by an API name (nn.LinearCrossEntropyLoss, "… (torch.distributed.pipelining)"):
    that name under torch., and its last part where a reader would type it for nothing else
    (a class or module name of 8 characters or more, or one joined by "_")."""
    if not re.fullmatch(r"[A-Za-z_]\w*(\.\w+)+", name):
        return []
    last = name.rpartition(".")[2]
    out = [name if name.startswith("torch.") else f"torch.{name}"]
    return out + ([last] if len(last) >= 8 or "_" in last.strip("_") else [])


# Pages of a release that a reader names with the release: "upgrading to 2.9", "2.6 deprecations".
SECTION_WORDS = {"bc-breaking": ("breaking changes", "bc breaking")}
HEADINGS = {section.id: section.headings for section in SECTIONS}


def names(site: Site, pages: dict[str, tuple[str, str]]) -> dict[str, list[list[str]]]:
    """normalised name -> [[url, title, line], ...], the pages a name points to, best first.

    Which page comes first when a name fits several: a site section, a backend, a family or
    feature, a tier, a release, an API symbol (the feature whose announcement alone names it,
    then its anchor on /symbols/), a PR, then an environment variable's changes (those an
    upgrade must act on first, newest first). `pages`: each page's title and description
    (`page_meta`)."""
    table: dict[str, list[list[str]]] = {}
    meta = dict(pages)  # and the anchors the table points to, as they come

    def add(keys: Iterable[str], url: str) -> None:
        title, line = meta.get(url) or meta.get(url.partition("#")[0], ("", ""))
        for key in dict.fromkeys(normalise(k) for k in keys):
            hits = table.setdefault(key, [])
            if key and len(hits) < MAX_HITS and all(h[0] != url for h in hits):
                hits.append([url, title, line])

    for url, words in SECTION_PAGES.items():
        add([pages[url][0], *words] if url in pages else words, url)  # the page's own title first
    for url, (title, line, words) in SUBSCRIBE.items():
        meta[url] = (title, line)
        add(words, url)
    for view in site.backend_views:  # "XPU" is the backend, not "Intel GPU (XPU) support"
        backend = view.backend
        add([backend.name, backend.id, f"{backend.name} backend", *backend.also], urls.backend(backend.id))
    nodes = [family.node for family in site.families] + list(site.content.catalogue)
    for node in nodes:  # families first: "torch.compile" is the family, not a member
        add(_feature_names(node), urls.feature(node.id))
    for feature in site.features:  # each title a release announced it under ("Modern NCCL Backend")
        add([feature.title, *(entry.title for entry in feature.entries)], urls.feature(feature.id))
    for tier in site.content.tiers:
        url = urls.at(urls.TIERS, tier.id)
        meta[url] = (f"{tier.name} tier", _short(plain(tier.description)))
        add([tier.name, tier.id, f"{tier.name} tier"], url)
    _release_names(site, add, meta)
    _uncovered_names(site, add, meta)
    _symbol_names(site, add, meta)
    _change_names(site, add, meta)
    return table


def _release_names(site: Site, add, meta: dict) -> None:
    """A release by its version (and patches), its Upgrading section, each section of its change
    list ("2.9 deprecations", "bug fixes in 2.9")."""
    for release in reversed(site.releases):
        v = release.version
        for patch in release.patches:  # 2.14.1: what it fixes where listed, else its row; then the release
            if patch.changes:
                url = urls.at(urls.release(v), urls.patch_fixes_anchor(patch.version))
                said = _short(f"{patch.date}: {plain(patch.summary or '')}")
                meta[url] = (f"PyTorch {patch.version} · What it fixes", said)
            else:
                url = urls.at(urls.release(v), urls.patch_anchor(patch.version))
                said = _short(plain(patch.summary or f"Released {patch.date}."))
                meta[url] = (f"PyTorch {patch.version} · patch release of {v}", said)
            add(_version_names(patch.version)[:3], url)
        add(_version_names(v) + [p.version for p in release.patches], urls.release(v))
        upgrading = urls.at(urls.release(v), urls.UPGRADING)
        meta[upgrading] = (f"PyTorch {v} · Upgrading from {release.previous}", meta[urls.release(v)][1])
        add([f"upgrading to {v}", f"upgrade to {v}", f"{v} upgrade", f"upgrading {release.previous} to {v}"], upgrading)
        for section in site.release_views[v].sections:
            url = urls.at(urls.release(v), urls.section_anchor(section.section))
            title = SECTION_TITLES[section.section]
            meta[url] = (f"PyTorch {v} · {title}", f"{section.count} changes")
            words = [title.lower(), *HEADINGS[section.section]]
            words += SECTION_WORDS.get(section.section, ())
            add([f"{v} {w}" for w in words] + [f"{w} {v}" for w in words] + [f"{w} in {v}" for w in words], url)


def _uncovered_names(site: Site, add, meta: dict) -> None:
    """A release PyTorch's cadence plans and the Atlas does not cover yet ("2.15", "PyTorch 2.15",
    "2.15.0"), to the statement of what the Atlas covers."""
    newest = _version_key(site.releases[-1].version)
    meta[COVERAGE] = ("Releases not on the Atlas yet", site.coverage.text)
    for planned in site.content.planned:
        if _version_key(planned.version) > newest:
            add(_version_names(planned.version), COVERAGE)


def _version_key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def _change_names(site: Site, add, meta: dict) -> None:
    """A PR number, to the change citing it first; an environment variable, or an argument a
    change that asks something of an upgrade names (`use_cuda`), to the changes that name it
    (those an upgrade must act on first, newest first). USE_CUDA and use_cuda share a key: the
    browser puts the hits whose line writes it as typed first (atlas-search.js `asTyped`)."""
    variables: dict[str, list] = {}
    for release in reversed(site.releases):
        for change in _changes(site, release):
            for pr in change.anchors:
                url = urls.at(urls.release(release.version), urls.pr_anchor(pr))
                meta[url] = (f"PyTorch {release.version} · PR #{pr}", _short(plain(change.change.text)))
                add([str(pr)], url)
            for number in change.change.issues:  # a tracked regression's report
                url = urls.at(urls.release(release.version), change.anchor)
                meta[url] = (f"PyTorch {release.version} · issue #{number}", _short(plain(change.change.text)))
                add([str(number)], url)
            for name in change.symbols:
                if ENV_VAR.fullmatch(name) or (change.group and ARGUMENT.fullmatch(name)):
                    variables.setdefault(name.lower(), []).append((not change.group, release, change))
    for name, uses in sorted(variables.items()):
        for _, release, change in sorted(uses, key=lambda u: u[0]):  # stable: newest first within
            url = urls.at(urls.release(release.version), change.anchor)
            meta[url] = (
                f"PyTorch {release.version} · {SECTION_TITLES[change.change.section]}",
                _short(plain(change.change.text)),
            )
            add([name], url)


def _changes(site: Site, release):
    """The release's change views: its notes', then its patches' fixes."""
    for section in site.release_views[release.version].sections:
        for area in section.areas:
            yield from area.changes
    for _, views in site.release_views[release.version].patches:
        yield from views


def _symbol_names(site: Site, add, meta: dict) -> None:
    """API symbols: the full dotted name and without `torch.`, and its dotted tails
    (`attention.flex_attention`, `flex_attention`) where only one symbol ends so or the tail is
    distinctive (dotted, or joined by `_`). A feature named like the symbol (XPUGraph for torch.xpu.XPUGraph), else the
    one feature whose announcements alone name it, comes first: its page tells the story; then
    the symbol's anchor."""
    last_parts: dict[str, list[str]] = {}
    named = {node.name: node.id for node in reversed(site.content.catalogue)}  # the first of a name wins
    for page, module in site.symbol_pages.items():
        for symbol in module.symbols:
            keys = [symbol.name, symbol.name.removeprefix("torch.")]
            last = symbol.name.rpartition(".")[2]
            for fid in dict.fromkeys(named[n] for n in (symbol.name, last) if n in named):
                add(keys, urls.feature(fid))  # a feature named like it: XPUGraph for torch.xpu.XPUGraph
            announced = {use.entry.id for use in symbol.uses if use.entry is not None}
            if len(announced) == 1:
                add(keys, urls.feature(announced.pop()))
            url = urls.at(urls.symbol_page(page), urls.symbol_anchor(symbol.name))
            uses = len(symbol.uses)
            meta[url] = (
                symbol.name,
                f"API symbol named by {uses} {'change or entry' if uses == 1 else 'changes and entries'}.",
            )
            add(keys, url)
            pieces = symbol.name.split(".")
            for i in range(1, len(pieces)):  # attention.flex_attention, flex_attention
                last_parts.setdefault(".".join(pieces[i:]).lower(), []).append(url)
    for part, targets in sorted(last_parts.items()):
        # A name only one symbol ends with, or a part a reader would not type for anything else
        # (dotted, or joined by "_": flex_attention finds torch.nn.attention.flex_attention).
        if len(targets) == 1 or "." in part or "_" in part.strip("_"):
            for target in targets:
                add([part], target)


def symptoms(site: Site) -> list[dict[str, str]]:
    """Every change's error and warning texts (`symptom:`), for a search or an upgrade guide's
    paste box to name the change that causes a pasted message, whatever range is chosen: the
    message, its `message_key`, the change's anchor, title and what to do. Newest release first."""
    out = []
    for release in reversed(site.releases):
        for change in _changes(site, release):
            what = change.change.note or change.change.workaround or ""
            if change.change.restore:
                what += f" Old behaviour back: {change.change.restore}"
            for message in change.change.symptom:
                out.append(
                    {
                        "key": message_key(message),
                        "message": message,
                        "url": urls.at(urls.release(release.version), change.anchor),
                        "title": f"PyTorch {release.version} · {SECTION_TITLES[change.change.section]}"
                        + (f" · {change.change.area}" if change.change.area else ""),
                        "line": plain(change.change.text),
                        "todo": _short(plain(what), 320),
                    }
                )
    return out


def _short(line: str, limit: int = 140) -> str:
    return line if len(line) <= limit else line[: limit - 1].rsplit(" ", 1)[0] + " …"


def page_meta(site: Site) -> dict[str, tuple[str, str]]:
    """Every page's URL -> its title and description, from the page list (generator.pages.pagelist): the
    words the page says about itself, which names and records both show."""
    return {p.url: (" ".join(p.title.split()), " ".join(p.description.split())) for p in site.pages}


Record = dict
"""A full-text record (generator.search.fulltext reads it): "url", "title", "filters" (a filter's
name -> its values) and "parts", the texts searched, each [weight, text]: a heading's weight is
its title's (TITLE), a paragraph's 1 unless said otherwise, a part of weight 0 is shown in the hit
but not searched."""

TITLE, ANNOUNCED = 7.0, 6.0  # as Pagefind weighed an h1 and an h2, which its records were


def records(site: Site, pages: dict[str, tuple[str, str]]) -> list[Record]:
    """The full-text records: pages (`page_meta`), then changes, newest release first."""
    out = _page_records(site, pages)
    for release in reversed(site.releases):
        view = site.release_views[release.version]
        for section in view.sections:
            for area in section.areas:
                out += [_change_record(site, release, section, area, change) for change in area.changes]
        out.extend(_patch_records(site, release, view.patches))
    return out


def _record(url: str, title: str, parts: list, filters: dict[str, list[str]]) -> Record:
    kept = {name: values for name, values in filters.items() if values}
    return {"url": url, "title": title, "filters": kept, "parts": [[w, t] for w, t in parts if t]}


def _page_records(site: Site, pages: dict[str, tuple[str, str]]) -> list[Record]:
    """A record per page: its title, description and what the content says about its subject."""
    about = {}
    for node in site.content.catalogue:
        about[urls.feature(node.id)] = " ".join([node.name, *node.aliases, node.about])
    for view in site.backend_views:
        about[urls.backend(view.backend.id)] = f"{view.backend.name} {view.backend.vendor} {view.backend.description}"
    for release in site.releases:
        about[urls.release(release.version)] = release.summary
    # The titles releases announced a feature under ("Fused Adagrad optimizer" for Fused
    # optimizers) are names a reader saw it by: parts of its record weighed nearly as its title
    # is, so a query with their words finds the feature ahead of a short change line holding them once.
    announced: dict[str, list[str]] = {}
    for feature in site.features:
        said = announced.setdefault(urls.feature(feature.id), [])
        said += [e.title for e in feature.entries if e.title.lower() != feature.title.lower()]
    out = []
    for url, (title, description) in pages.items():
        parts = [(TITLE, title)] + [(ANNOUNCED, t) for t in dict.fromkeys(announced.get(url, ()))]
        parts += [(1.0, description), (1.0, plain(about.get(url, "")))]
        out.append(_record(url, title, parts, {}))
    return out


def _change_record(site: Site, release, section, area, change) -> Record:
    """A change's record: its line and PRs, titled by its release, section and area."""
    section_title = SECTION_TITLES[section.section]
    url = urls.at(urls.release(release.version), change.anchor)
    title = " · ".join(filter(None, [f"PyTorch {release.version}", section_title, area.name]))
    line = plain(change.change.text)
    prs = " ".join(f"#{pr}" for pr in change.change.prs if str(pr) not in line)
    parts = [(2.0 if change.group else 1.0, line), (1.0, prs)]  # a change in a group asks something of an upgrade
    parts += [(4.0, m) for m in change.change.symptom]
    # The code a change's note names (`add_safe_globals` under 2.6's weights_only flip): what a
    # reader pastes, found on the change that says what to do about
    # it. Only the code spans: the note's prose would lengthen the record and sink its line below
    # shorter ones.
    code = [c for said in (change.change.note, change.change.workaround) for c in CODE.findall(said or "")]
    if code:
        parts.append((0.5, " ".join(dict.fromkeys(code))))
    filters = {
        "backend": [site.backend_by_id[b].name for b in change.backends],
        "release": [release.version],
        "section": [section_title],
    }
    return _record(url, title, parts, filters)


def _patch_records(site: Site, release, patches) -> list[Record]:
    """A record per fix of each patch release, titled by the patch and its notes' heading."""
    out = []
    for patch, views in patches:
        for change in views:
            url = urls.at(urls.release(release.version), change.anchor)
            title = f"PyTorch {patch.version} ({patch.date}) · {change.change.area}"
            parts = [(1.0, plain(change.change.text)), (1.0, plain(change.change.note or ""))]
            filters = {
                "backend": [site.backend_by_id[b].name for b in change.backends],
                "release": [release.version],
                "section": [SECTION_TITLES[change.change.section]],
            }
            out.append(_record(url, title, parts, filters))
    return out
