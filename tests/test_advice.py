"""Advice an expert would sign: a note does not stop short of what a reader needs next."""

from __future__ import annotations

import re

from generator.enrich import enrich
from generator.model.content import version_key
from tests.conftest import real_model

MOVE_TO = re.compile(r"(?:[Uu]se|Replace[^.]*?with|[Mm]ove to|[Ss]witch to|[Cc]all)\s+`([\w.]{6,})")
GONE = re.compile(r"\b(remov|delet)", re.I)


def _deletes(text: str, name: str) -> bool:
    """Whether a record line says `name` itself goes ("Deleted `size_vars` / `size_hint` API",
    "`x` has been removed"), not something in it ("Remove the `fallback` option from `torch.onnx.export`")."""
    quoted = f"`{re.escape(name)}`"
    before = re.search(rf"\b(?:remov|delet)\w*\b(?P<mid>[^.;(]*?){quoted}", text, re.I)
    after = re.search(rf"{quoted}(?P<mid>[^.;(]*?)\b(?:has been|is|are|was) (?:removed|deleted)", text, re.I)
    return any(m is not None and not re.search(r"\b(?:from|in|of|on|to)\b", m["mid"]) for m in (before, after))


def _change(version: str, pr: int):
    release = next(r for r in real_model().releases if r.version == version)
    return next(c for c in release.changes if pr in c.prs)


def test_a_note_sending_readers_to_an_api_a_later_release_deletes_names_that_deletion():
    """2.11 says "move to size_hint" and 2.12 deletes a size_hint: the move's note names the deletion's PR."""
    site = real_model()
    gone = [(r.version, c) for r in site.releases for c in r.changes if GONE.search(c.text)]
    checked, unjoined = 0, []
    for release in site.releases:
        for change in release.changes:
            for target in {m.group(1) for m in MOVE_TO.finditer(change.note or "")}:
                for version, later in gone:
                    if version_key(version) > release.key and _deletes(later.text, target):
                        checked += 1
                        if not any(f"#{pr}" in change.note for pr in later.prs):
                            unjoined.append(f"{release.version} → {target}, deleted in {version}")
    assert checked >= 1 and unjoined == []


def test_notes_name_the_way_out_the_error_or_the_reader_needs():
    weights_only = _change("2.6", 137602).note
    assert "torch.serialization.add_safe_globals" in weights_only and "safe_globals" in weights_only
    assert "#171944" in _change("2.12", 175365).note  # the deletion names the rename it may undo
    tf32 = _change("2.10", 162998).note
    assert "allow_tf32" in tf32 and "highest" in tf32  # how to keep full FP32 once the variable is gone
    assert "pytorch-triton-rocm" in _change("2.10", 169888).note  # the ROCm twin of the renamed package
    assert "#169151" in _change("2.8", 153892).note  # what became of the removal planned for 2.10


def test_a_default_a_later_release_will_flip_is_in_the_guide_of_the_release_announcing_it():
    site = real_model()
    groups = enrich.guide(site, "2.13", "2.14")
    nccl2 = [item.change for item in groups["defaults"] if 191272 in getattr(item, "change", item).prs]
    assert len(nccl2) == 1 and "2.15" in nccl2[0].note and "TORCH_DIST_USE_NCCL2=1" in nccl2[0].note
