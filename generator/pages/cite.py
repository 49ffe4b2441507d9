"""Ready-made citations: a page's "Link or embed" block and the data of a change's ¶ menu.

The snippet formats (Markdown, reStructuredText, Confluence wiki markup, MediaWiki, a plain
URL, and a badge image in each) are one table, `FORMATS`. Python renders a page's block from
it; the browser fills a change's ¶ menu from the same table, which the page carries as JSON
(`menu`), so the two cannot drift: templates/assets/cite.js only substitutes and escapes
characters as the table says.
"""

from __future__ import annotations

import functools
import html
import json
import re
from dataclasses import dataclass

from markupsafe import Markup

from ..markup import rawhtml


@dataclass(frozen=True)
class Format:
    """One way to paste a link: a template for a link and one for a badge image."""

    id: str
    label: str
    link: str  # placeholders: {title} {url}
    badge: str | None  # placeholders: {title} {url} {badge}; None: this format shows no image
    escapes: tuple[tuple[str, str], ...] = ()  # character -> what it becomes in {title}


FORMATS = (
    Format(
        "markdown",
        "Markdown",
        "[{title}]({url})",
        "[![{title}]({badge})]({url})",
        (("\\", "\\\\"), ("[", "\\["), ("]", "\\]")),
    ),
    Format(
        "rst",
        "reStructuredText",
        "`{title} <{url}>`__",
        ".. image:: {badge}\n   :alt: {title}\n   :target: {url}",
        (("\\", "\\\\"), ("`", "\\`"), ("<", "\\<")),
    ),
    Format(
        "confluence",
        "Confluence wiki markup",
        "[{title}|{url}]",
        "[!{badge}!|{url}]",
        (("[", "("), ("]", ")"), ("|", "/")),
    ),
    Format("mediawiki", "MediaWiki", "[{url} {title}]", "[{url} {badge}]", (("[", "&#91;"), ("]", "&#93;"))),
    Format(
        "html",
        "HTML",
        '<a href="{url}">{title}</a>',
        '<a href="{url}"><img src="{badge}" alt="{title}"></a>',
        (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ('"', "&quot;")),
    ),
    Format("url", "Plain URL", "{url}", "{badge}"),
)
"""Every snippet kind, in the order a block shows them."""

_SLOT = re.compile(r"\{(title|url|badge)\}")


def fill(template: str, escapes, title: str, url: str, badge: str = "") -> str:
    """A snippet: the template with its slots filled in one pass, the title escaped character by character."""
    table = dict(escapes)
    values = {"title": "".join(table.get(ch, ch) for ch in title), "url": url, "badge": badge}
    return _SLOT.sub(lambda m: values[m[1]], template)


@dataclass(frozen=True)
class Snippet:
    id: str  # "markdown", "badge-markdown" …
    label: str
    text: str


def snippets(title: str, url: str, badge: str | None = None) -> tuple[Snippet, ...]:
    """Every link snippet for a page, then every badge snippet when the page has a badge."""
    out = [Snippet(f.id, f.label, fill(f.link, f.escapes, title, url)) for f in FORMATS]
    if badge:
        out += [
            Snippet(f"badge-{f.id}", f"Badge, {f.label}", fill(f.badge, f.escapes, title, url, badge))
            for f in FORMATS
            if f.badge
        ]
    return tuple(out)


@dataclass(frozen=True)
class BackendBadge:
    """A feature's badge on one backend its record lists, for the block's per-backend part."""

    name: str  # the backend's name ("CUDA")
    title: str  # what its snippets call it ("FlexAttention on CUDA (PyTorch Release Atlas)")
    badge: str  # the badge's absolute URL
    preview: tuple[str, str]  # its URL relative to the page, and its text


def backend_snippets(url: str, backend: BackendBadge) -> tuple[Snippet, ...]:
    """Every badge snippet of a feature's badge on one backend."""
    key = backend.badge.rsplit("/", 1)[-1].removesuffix(".svg")
    return tuple(
        Snippet(
            f"badge-{key}-{f.id}",
            f"{backend.name} badge, {f.label}",
            fill(f.badge, f.escapes, backend.title, url, backend.badge),
        )
        for f in FORMATS
        if f.badge
    )


MEDIAWIKI_NOTE = (
    "A MediaWiki page shows a badge as an image only where its wiki allows images from other sites "
    "($wgAllowExternalImages, or $wgAllowExternalImagesFrom listing this site's address); elsewhere it shows the address."
)
NO_BACKEND_BADGES = (
    "No per-backend badges: the Atlas records this feature's standing for PyTorch as a whole, not on each "
    "backend, so the badge above is its only one."
)


def _rows(found) -> str:
    return "".join(
        f'<dt>{html.escape(s.label)}</dt><dd><pre class="atlas-cite-text" tabindex="0" data-cite="{s.id}">{_pre(s.text)}</pre></dd>'
        for s in found
    )


def _image(preview: tuple[str, str], words: str = "") -> str:
    src, alt = (html.escape(v, quote=True) for v in preview)
    return f'<p class="atlas-cite-badge"><img src="{src}" alt="{alt}" height="20">{words}</p>'


def _per_backend(url: str, backends: tuple[BackendBadge, ...] | None) -> str:
    """The block's badges by backend (one closed <details> each), or why the feature has none;
    nothing for a page without a feature badge (None)."""
    if backends is None:
        return ""
    if not backends:
        return f'<p class="atlas-cite-note">{html.escape(NO_BACKEND_BADGES)}</p>'
    return "".join(
        f'<details class="atlas-cite-backend"><summary>Badge on {html.escape(b.name)}</summary>'
        f'{_image(b.preview)}<dl class="atlas-cite-list">{_rows(backend_snippets(url, b))}</dl></details>'
        for b in backends
    )


def _pre(text: str) -> str:
    # Newlines as entities: a blank line would end the raw HTML block in Markdown.
    return html.escape(text, quote=True).replace("\n", "&#10;")


@functools.lru_cache(maxsize=1 << 14)
def block(
    title: str,
    url: str,
    badge: str | None = None,
    preview: tuple[str, str] | None = None,
    backends: tuple[BackendBadge, ...] | None = None,
) -> Markup:
    """The "Link or embed" block: a closed <details> whose snippets are selectable text, so
    nothing needs JavaScript; cite.js adds a copy button to each. Kept out of the search index.

    `badge` is the badge's absolute URL (for the snippets), `preview` its (relative URL, text)
    to show it on the page; `backends` the feature's badge on each backend its record lists
    (an empty tuple: it has none, and the block says so). Memoised: every render (every save of
    live preview) makes every page's block for its head, and drawing them all again is a tenth
    of a one-file edit at 10x (README, Speed mechanisms)."""
    rows = _rows(snippets(title, url, badge))
    image = _image(preview, " The badge follows each release.") if preview else ""
    note = f'<p class="atlas-cite-note">{html.escape(MEDIAWIKI_NOTE)}</p>' if badge else ""
    return Markup(
        rawhtml.wrap(  # finished HTML: Markdown passes it through unparsed (on every page)
            '<details class="atlas-cite">'
            "<summary>Link or embed</summary>"
            f'{image}<dl class="atlas-cite-list">{rows}</dl>{note}{_per_backend(url, backends)}</details>'
        )
    )


def menu(page_url: str, prefix: str) -> Markup:
    """The one ¶ menu of a page of changes, filled by cite.js when a change's ¶ is activated:
    the page's absolute URL, the text each change's title starts with, and the formats."""
    formats = [{"id": f.id, "label": f.label, "link": f.link, "escapes": dict(f.escapes)} for f in FORMATS]
    data = json.dumps(formats, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
    return Markup(
        f'<div id="atlas-cite-menu" class="atlas-cite-menu" role="group" aria-label="Link or embed this change" hidden'
        f' data-cite-page="{html.escape(page_url, quote=True)}" data-cite-prefix="{html.escape(prefix, quote=True)}"'
        f" data-cite-formats='{html.escape(data, quote=False).replace(chr(39), '&#39;')}'></div>"
    )
