"""The names a change mentions that a reader's code could use: `torch.*` names, identifiers in
code spans (functions, arguments, config keys), environment variables and CLI flags.

The upgrade guide's "paste your code" filter keeps a change when the pasted text uses one of
them; atlas.js tokenises the paste the same way (`tokens` here is its reference).
"""

from __future__ import annotations

import re

_CODE = re.compile(r"`([^`\n]+)`")
_TORCH = re.compile(r"\btorch(?:\.[A-Za-z_][A-Za-z0-9_]*)+")
_ENV = re.compile(r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b")
_FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]+")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")

# Words too common to tell one change from another when a reader pastes code.
COMMON = frozenset(
    """torch true false none self this that with from import return class def lambda else elif
    none args kwargs model input inputs output outputs tensor tensors float int bool str list dict
    tuple type device cuda cpu default value values data name names mode module modules function
    functions python pytorch support supported when then also only true_ false_ print""".split()
)


def of_text(*texts: str | None) -> tuple[str, ...]:
    """Sorted distinct symbols named in Markdown texts (a change's record line, note, restore)."""
    found: set[str] = set()
    for text in texts:
        if not text:
            continue
        found.update(_TORCH.findall(text))
        found.update(_ENV.findall(text))
        found.update(_FLAG.findall(text))
        for span in _CODE.findall(text):
            for name in _IDENT.findall(span):
                if _distinctive(name):
                    found.add(name)
    return tuple(sorted(found - {"torch"}))


def _distinctive(name: str) -> bool:
    last = name.rsplit(".", 1)[-1]
    return "." in name or "_" in name or (len(last) >= 4 and last.lower() not in COMMON)


def tokens(pasted: str) -> set[str]:
    """What a pasted snippet uses: every dotted name with its dotted prefixes and last parts,
    identifiers, environment variables and flags."""
    out: set[str] = set(_FLAG.findall(pasted)) | set(_ENV.findall(pasted))
    for name in _IDENT.findall(pasted):
        parts = name.split(".")
        out.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
        out.update(parts)
    return out


def matches(symbols: tuple[str, ...], pasted_tokens: set[str]) -> bool:
    """A change applies to the pasted code when the code uses one of its symbols: the full name,
    or its last part when that part is distinctive (e.g. `scaled_dot_product_attention`)."""
    for symbol in symbols:
        if symbol in pasted_tokens:
            return True
        last = symbol.rsplit(".", 1)[-1]
        if "." in symbol and ("_" in last or len(last) >= 8) and last in pasted_tokens:
            return True
    return False
