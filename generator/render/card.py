"""The site's link-preview card (og:image): a 1200×630 PNG drawn and encoded in pure Python.

Unfurlers (Slack, Teams, Confluence, Open Graph readers) take PNG or JPEG, rarely SVG, and a
card drawn here needs no imaging library and no font file: the text is set in a small
built-in 5×7 bitmap font, scaled up, and the PNG is written with zlib. Same code, same bytes.
"""

from __future__ import annotations

import functools
import struct
import zlib

from .badges import TIER_COLOURS

WIDTH, HEIGHT = 1200, 630
TIERS = ("api-unstable", "api-stable", "deprecated")  # the words releases use since 2.8, drawn as written
BACKGROUND = "#262626"
ACCENT = "#ff7043"  # Material's deep orange, the site's primary colour
TEXT = "#ffffff"
MUTED = "#d6d6d6"

# 5×7 glyphs, one 5-bit row per byte, top row first (upper case: the card is set in capitals).
_GLYPHS = {
    "A": (0x0E, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11),
    "B": (0x1E, 0x11, 0x11, 0x1E, 0x11, 0x11, 0x1E),
    "C": (0x0E, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0E),
    "D": (0x1E, 0x11, 0x11, 0x11, 0x11, 0x11, 0x1E),
    "E": (0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x1F),
    "F": (0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x10),
    "G": (0x0E, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0F),
    "H": (0x11, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11),
    "I": (0x0E, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0E),
    "J": (0x07, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0C),
    "K": (0x11, 0x12, 0x14, 0x18, 0x14, 0x12, 0x11),
    "L": (0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1F),
    "M": (0x11, 0x1B, 0x15, 0x15, 0x11, 0x11, 0x11),
    "N": (0x11, 0x11, 0x19, 0x15, 0x13, 0x11, 0x11),
    "O": (0x0E, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E),
    "P": (0x1E, 0x11, 0x11, 0x1E, 0x10, 0x10, 0x10),
    "Q": (0x0E, 0x11, 0x11, 0x11, 0x15, 0x12, 0x0D),
    "R": (0x1E, 0x11, 0x11, 0x1E, 0x14, 0x12, 0x11),
    "S": (0x0F, 0x10, 0x10, 0x0E, 0x01, 0x01, 0x1E),
    "T": (0x1F, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04),
    "U": (0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E),
    "V": (0x11, 0x11, 0x11, 0x11, 0x11, 0x0A, 0x04),
    "W": (0x11, 0x11, 0x11, 0x15, 0x15, 0x15, 0x0A),
    "X": (0x11, 0x11, 0x0A, 0x04, 0x0A, 0x11, 0x11),
    "Y": (0x11, 0x11, 0x0A, 0x04, 0x04, 0x04, 0x04),
    "Z": (0x1F, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1F),
    "0": (0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E),
    "1": (0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E),
    "2": (0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F),
    "3": (0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E),
    "4": (0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02),
    "5": (0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E),
    "6": (0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E),
    "7": (0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08),
    "8": (0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E),
    "9": (0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C),
    " ": (0,) * 7,
    ".": (0, 0, 0, 0, 0, 0x0C, 0x0C),
    "-": (0, 0, 0, 0x1F, 0, 0, 0),
    "·": (0, 0, 0, 0x0C, 0x0C, 0, 0),
    ",": (0, 0, 0, 0, 0x0C, 0x04, 0x08),
    "/": (0, 0x01, 0x02, 0x04, 0x08, 0x10, 0),
}


def _rgb(colour: str) -> bytes:
    return bytes.fromhex(colour.lstrip("#"))


class _Canvas:
    def __init__(self, width: int, height: int, background: str):
        self.width, self.height = width, height
        self.pixels = bytearray(_rgb(background) * (width * height))

    def rect(self, x: int, y: int, w: int, h: int, colour: str) -> None:
        run = _rgb(colour) * w
        for row in range(y, y + h):
            start = (row * self.width + x) * 3
            self.pixels[start : start + 3 * w] = run

    def text(self, x: int, y: int, text: str, scale: int, colour: str) -> int:
        """Set text at (x, y) (its top left); returns the x after it. Unknown characters are spaces."""
        for ch in text.upper():
            for r, bits in enumerate(_GLYPHS.get(ch, _GLYPHS[" "])):
                for c in range(5):
                    if bits & (0x10 >> c):
                        self.rect(x + c * scale, y + r * scale, scale, scale, colour)
            x += 6 * scale
        return x

    def png(self) -> bytes:
        stride = self.width * 3
        raw = b"".join(b"\x00" + bytes(self.pixels[i : i + stride]) for i in range(0, len(self.pixels), stride))

        def chunk(kind: bytes, data: bytes) -> bytes:
            return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

        header = struct.pack(">IIBBBBB", self.width, self.height, 8, 2, 0, 0, 0)  # 8-bit RGB
        return (
            b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
        )


def text_width(text: str, scale: int) -> int:
    """Pixels a text takes at a scale (the last column's gap included)."""
    return 6 * scale * len(text)


@functools.cache
def png() -> bytes:
    """The site card: the site's name, what it answers, and the tier words releases use since 2.8. Drawn
    once per process: it depends on nothing in the content, and live preview asks on every save
    (README, Speed mechanisms)."""
    c = _Canvas(WIDTH, HEIGHT, BACKGROUND)
    c.rect(0, 0, WIDTH, 16, ACCENT)
    c.text(80, 110, "PYTORCH", 10, ACCENT)
    c.text(80, 200, "RELEASE ATLAS", 10, TEXT)
    c.text(84, 320, "WHAT EVERY PYTORCH 2.X RELEASE CHANGED", 4, MUTED)
    c.text(84, 370, "BY RELEASE · BY FEATURE · BY BACKEND", 4, MUTED)
    x = 80
    for tier in TIERS:
        name = tier.upper()
        bg, fg = TIER_COLOURS[tier]
        w = text_width(name, 4) + 44
        c.rect(x, 470, w, 72, bg)
        c.text(x + 24, 478 + 14, name, 4, fg)
        x += w + 24
    return c.png()
