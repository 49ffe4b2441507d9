"""Status badges: a static SVG per feature and per feature × backend, written into the site.

A badge says, in words, a feature's tier now and the release it reached it
("FlexAttention | API-Unstable since 2.5"), in its tier's colours; the words carry the
meaning, the colour only repeats it. Badges are files of the site: an embedded badge follows
the next promotion when the site is rebuilt. The bytes depend only on the content.
"""

from __future__ import annotations

from collections.abc import Callable
from xml.sax.saxutils import escape, quoteattr

from ..model import urls
from ..model.computed import Site, Standing
from ..pages.describe import feature_standing
from ..util.project import SITE_NAME

LABEL = ("#404040", "#ffffff")  # (background, text) of the left half, the feature's name
TIER_COLOURS = {
    # (background, text): the light palette of templates/assets/atlas.css (--atlas-<tier>, -fg)
    "prototype": ("#fde7c7", "#6b3a00"),
    "beta": ("#d7e8fb", "#0b3d73"),
    "api-unstable": ("#d7e8fb", "#0b3d73"),
    "stable": ("#d3f0d8", "#0c4a1c"),
    "api-stable": ("#d3f0d8", "#0c4a1c"),
    "deprecated": ("#f9d6d5", "#7a1411"),
    "removed": ("#d9d9d9", "#2b2b2b"),
}
NO_TIER = ("#eeeeee", "#2b2b2b")
HEIGHT = 20
PAD = 6
FONT = "Verdana,DejaVu Sans,Geneva,sans-serif"

# Rough advance widths at 11px Verdana: the text is then stretched to exactly this width
# (textLength), so a badge never depends on the fonts of the machine that shows it.
_NARROW, _WIDE = set("iljtfI.,:;'!|()[] "), set("mwMW@%")


def text_width(text: str) -> float:
    """The width given to a text in a badge, in pixels."""
    width = 0.0
    for ch in text:
        if ch in _NARROW:
            width += 3.9
        elif ch in _WIDE:
            width += 10.2
        elif ch.isupper() or ch.isdigit():
            width += 7.6 if ch.isupper() else 7.0
        else:
            width += 6.7
    return round(width, 1)


STATES = (
    f"A feature's standing as the {SITE_NAME} states it: its tier "
    "now, in the 2.8+ vocabulary, and the release it has held that tier since."
)


def svg(label: str, message: str, colours: tuple[str, str]) -> bytes:
    """One badge: the label on the left, the message on the right; its title is both, for screen
    readers."""
    lw, mw = text_width(label) + 2 * PAD, text_width(message) + 2 * PAD
    width = round(lw + mw, 1)
    title = f"{label}: {message}"
    bg, fg = colours
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{HEIGHT}" role="img" '
        f"aria-label={quoteattr(title)}>"
        f"<title>{escape(title)}</title><desc>{STATES}</desc>"
        f'<rect width="{lw:g}" height="{HEIGHT}" fill="{LABEL[0]}"/>'
        f'<rect x="{lw:g}" width="{mw:g}" height="{HEIGHT}" fill="{bg}"/>'
        f'<g font-family="{FONT}" font-size="11">'
        f'<text x="{PAD}" y="14" fill="{LABEL[1]}" textLength="{lw - 2 * PAD:g}" lengthAdjust="spacingAndGlyphs">{escape(label)}</text>'
        f'<text x="{lw + PAD:g}" y="14" fill="{fg}" textLength="{mw - 2 * PAD:g}" lengthAdjust="spacingAndGlyphs">{escape(message)}</text>'
        "</g></svg>\n"
    ).encode()


def colours(standing: Standing) -> tuple[str, str]:
    """The (background, text) colours of a standing's tier."""
    return TIER_COLOURS.get(standing.tier.id, NO_TIER) if standing.tier else NO_TIER


def render_badges(site: Site) -> dict[str, tuple[tuple, Callable[..., bytes]]]:
    """Every badge, keyed by its path under docs/: one per feature, one per feature and backend,
    under the feature's id and each of its former ids; each as the words and colours it is drawn
    from and `svg` (render.render_site keeps a badge whose words are unchanged)."""
    out = {}
    for feature in site.features:
        s = feature_standing(feature)
        badge = ((feature.title, s.words, colours(s)), svg)
        per_backend = {}
        for backend_id in feature.backends:
            s = feature_standing(feature, backend_id)
            label = f"{feature.title} on {site.backend_by_id[backend_id].name}"
            per_backend[backend_id] = ((label, s.words, colours(s)), svg)
        for fid in (feature.id, *feature.aliases):  # a renamed feature's old badge keeps working
            out[urls.badge(fid)] = badge
            out.update((urls.badge(fid, b), part) for b, part in per_backend.items())
    return out
