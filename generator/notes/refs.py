"""Where release notes cite PRs and issues: the references of a text outside its code.

One home for reading references, shared by the parser, the SQL converter and the importer. The
rule (the test suite re-states it independently) is `syntax.REF`'s, plus two things copies do:
a "(#N" that ends its line unclosed was cut short (no PR), and a tracked regression's bare "#N"
is the issue it tracks (`bare_refs`, read by the parser for that section).
"""

from __future__ import annotations

import re

from .syntax import FENCE_CLOSE, FENCE_OPEN, INLINE_CODE, NOT_A_PR_URL, REF

PR_DIGITS = 5  # every PR the 2.x notes cite is #10000 or later (PyTorch passed it in 2018)


def find_prs(text: str, bare: bool = True) -> tuple[int, ...]:
    """The PR numbers `text` cites outside fenced and inline code, deduplicated, in order; with
    `bare=False`, only those a link or URL says are PRs (a tracked regression's bare "#N" is the
    issue it tracks: `bare_refs`)."""
    found: dict[int, None] = {}
    prose = _prose(text)
    examples = set(_examples(prose))
    for m in REF.finditer(prose):
        if m["num"] and int(m["num"]) in examples:
            continue
        if m["link"]:
            if not NOT_A_PR_URL.search(m["url"]):
                found[int(m["link"])] = None
        elif m["pull"]:
            found[int(m["pull"])] = None
        elif bare and not m["kw"] and not _cut_short(prose, m):
            found[int(m["num"])] = None
    return tuple(found)


def bare_refs(text: str) -> tuple[int, ...]:
    """The bare "#N" references of `text` (no link, no URL, no issue keyword), in order."""
    prose = _prose(text)
    return tuple(
        dict.fromkeys(
            int(m["num"]) for m in REF.finditer(prose) if m["num"] and not m["kw"] and not _cut_short(prose, m)
        )
    )


def _cut_short(prose: str, m: re.Match) -> bool:
    """Whether a bare "#N" is a reference the copy cut short: "(#N" ending its line unclosed,
    with fewer digits than any PR a 2.x release cites (2.3's SQL copy has "… save_for_backward
    calls (#117"), which names no PR we can link. A whole number left unclosed ("Fix Conv Binary
    Inplace Fusion issue (#115153") is still its PR."""
    hash_at = m.start("num") - 1
    unclosed = prose[hash_at - 1 : hash_at] == "(" and not prose[m.end() :].split("\n", 1)[0].strip()
    return unclosed and len(m["num"]) < PR_DIGITS


_ISSUE = re.compile(r"https?://github\.com/pytorch/pytorch/issues/(\d+)(?!\d)", re.IGNORECASE)


# Reports a change answers, named as examples of the problem rather than cited as its PRs:
# "(examples (#111785, #120248))" in an aside, or "One concrete example is here, #118337". A
# change's "improve TP examples (#121431)" or "usage example (#191384)" cites its own PRs.
_EXAMPLES = re.compile(r"(?:\(examples?\s*\(|\bexample is here,\s*)((?:#\d+[,;]?\s*)+)", re.IGNORECASE)


def _examples(prose: str) -> tuple[int, ...]:
    return tuple(int(n) for m in _EXAMPLES.finditer(prose) for n in re.findall(r"#(\d+)", m[1]))


def find_issues(text: str) -> tuple[int, ...]:
    """The pytorch/pytorch issue numbers `text` links to outside code, and the bare "#N" it names
    as examples of the problem it fixes (2.4: "a frequently raised issue in the past (examples
    (#111785, …))"; 2.3: "One concrete example is here, #118337"), deduplicated, in order."""
    prose = _prose(text)
    return tuple(dict.fromkeys([*(int(n) for n in _ISSUE.findall(prose)), *_examples(prose)]))


def _prose(text: str) -> str:
    """`text` without its fenced code blocks, and with its inline code spans blanked: where
    references are read (a `#N` or a link in code is code)."""
    prose, fence = [], None
    for line in text.split("\n"):
        fence, in_code = fence_step(fence, line)
        if not in_code:
            prose.append(line)
    return INLINE_CODE.sub(" ", "\n".join(prose))


def fence_step(fence: tuple[str, int] | None, line: str) -> tuple[tuple[str, int] | None, bool]:
    """Advance the fence state over one line: (new state, whether the line is code)."""
    if fence is None:
        m = FENCE_OPEN.match(line)
        return ((m[1][0], len(m[1])), True) if m else (None, False)
    m = FENCE_CLOSE.match(line)
    if m and m[1][0] == fence[0] and len(m[1]) >= fence[1]:
        return None, True
    return fence, True
