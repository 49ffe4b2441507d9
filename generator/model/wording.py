"""How an ending reads: the one home of its words (README "What the Atlas states").

A deprecated or removed feature, API or support ends in phrases: "deprecated in 2.8", "part
removed in 2.11", "removal announced for 2.10, which shipped without it". `computed.Ending` picks
its phrases from `ENDING_SAID`; `Ending.words` joins them for the API, link previews and the
calendar, and `templates/partials/ending.html.j2` lays the same phrases out on every page (bold,
linked, as a tag). Change a word here and every surface says the new one."""

from __future__ import annotations

from dataclasses import dataclass

# key: (the words before the release, the words after it). The keys that name an Ending field
# ("deprecated_in", "removal_planned", ...) also caption what that field was read from.
ENDING_SAID: dict[str, tuple[str, str]] = {
    "deprecated": ("deprecated", ""),  # no release states when (a support's end read from the matrix)
    "deprecated_in": ("deprecated in ", ""),
    "part_removed_in": ("part removed in ", ""),
    "removal_planned": ("removal announced for ", ""),
    "due": ("removal due in ", ""),  # announced for a release not out yet
    "overdue": ("removal announced for ", ", which shipped without it"),
    "removed_in": ("removed in ", ""),
}

# An ending's status (facts.status) as the one word of its tag on the ledger and the home page.
ENDING_TAGS: dict[str, str] = {
    "removed": "Removed",
    "overdue": "Overdue",
    "part-removed": "Deprecated",
    "due": "Deprecated",
    "deprecated": "Deprecated",
}


@dataclass(frozen=True)
class Said:
    """One phrase of an ending: `before`, the release, `after` ("removal announced for " "2.10"
    ", which shipped without it"); `key` names its words in ENDING_SAID."""

    key: str
    release: str
    before: str
    after: str = ""

    @property
    def words(self) -> str:
        return self.before + self.release + self.after

    @property
    def opening(self) -> str:
        """The phrase as the start of a sentence: its first letter a capital."""
        words = self.words
        return words[:1].upper() + words[1:]


def said(key: str, release: str | None) -> Said:
    """The phrase ENDING_SAID words under `key`, stating `release`."""
    before, after = ENDING_SAID[key]
    return Said(key, release or "", before, after)


def tag(status: str) -> str:
    """An ending's status (facts.status) in the one word of its tag."""
    return ENDING_TAGS[status]


def ending_phrases(
    deprecated_in: str | None,
    part_removed_in: str | None,
    removal_planned: str | None,
    removed_in: str | None,
    status: str,
) -> tuple[Said, ...]:
    """An ending's phrases, in the order they are said: what removed it, else when it was
    deprecated, what went of it since and where its announced removal stands."""
    if removed_in:
        return (said("removed_in", removed_in),)
    out = [said("deprecated_in", deprecated_in) if deprecated_in else said("deprecated", None)]
    if part_removed_in:
        out.append(said("part_removed_in", part_removed_in))
    if removal_planned:
        out.append(said("overdue" if status == "overdue" else "due", removal_planned))
    return tuple(out)


def sentence(phrases: tuple[Said, ...]) -> str:
    """The phrases as one sentence (no full stop): 'Deprecated in 2.8; part removed in 2.11'."""
    return "; ".join(p.opening if i == 0 else p.words for i, p in enumerate(phrases))
