"""The full-text index: the Atlas's own, written from generator.search.records's records by the
index's child process (generator.search.child) and searched in the browser by
templates/assets/atlas-fulltext.js, which atlas-search.js calls.

In the index's folder (child.BUNDLE):
- `meta.json`: the number of records and each chunk's first term;
- `c<n>.json`: the terms in order, in chunks of about CHUNK_BYTES, each with its postings
  "step:weight …" in base 36: the record as the step from the one before, and the term's weight
  in it ×100. The weight is BM25's term-frequency part (k1 1.4, b 0.75; a part of a record counts
  each of its words by the part's weight) computed here, so a search needs no record lengths;
  the browser multiplies it by the term's rarity;
- `f/<n>.json`: the fragments of records n × PER to n × PER + PER − 1, in order, each a record's
  url, title, text and filters; fetched for the hits shown. One file per record made the build
  create a file per record (8,377 at 1×), most of the index's time on a disk that creates files
  slowly; hits next to each other are often in one file (a page's changes are records in a row);
- `filters.json`: each filter's values and their records, fetched for a filtered search.
Words: lower case; a word with inner punctuation (torch.compile, use_cuda) gives its parts and
their joined form; each part is stemmed by `stem`. atlas-fulltext.js `stem` and `terms` are the
same functions (tests/test_search.py runs both on the same words).

Pagefind made this index until issue 47: its CPU time, at low priority on the other core, was the
build's longer chain, and its first search downloaded more (generator/benchmark.md).
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

K1, B = 1.4, 0.75
CHUNK_BYTES = 8_000
PER = 8
"""Records per fragment file."""
TOKEN = re.compile(r"[a-z0-9][a-z0-9_.+#-]*[a-z0-9+#]|[a-z0-9]")
PARTS = re.compile(r"[._\-]+")


def _b36(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = digits[r] + out
        if not n:
            return out


def stem(word: str) -> str:
    """A light English stemmer (atlas-fulltext.js `stem` is the same): plurals, -ing, -ed, a
    final e; words of 3 letters or fewer and words with digits as they are."""
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("sses"):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    if word.endswith("ing") and len(word) > 5:
        word = word[:-3]
    elif word.endswith("ed") and len(word) > 4:
        word = word[:-2]
    if word.endswith("e") and len(word) > 4:
        word = word[:-1]
    return word


def terms(text: str) -> list[str]:
    """The index terms of a text, in order (a compound gives its parts, then their joined form)."""
    out = []
    for token in TOKEN.findall(text.lower()):
        parts = [p for p in PARTS.split(token) if p]
        out += [stem(p) for p in parts]
        if len(parts) > 1:
            out.append("".join(parts))
    return out


def build(docs: list[dict], out: Path) -> dict:
    """Write the index of `docs` (records.records's records) into `out`, made anew; what it holds."""
    postings, lengths = _postings(docs)
    shutil.rmtree(out, ignore_errors=True)
    (out / "f").mkdir(parents=True)
    firsts = _write_chunks(postings, lengths, out)
    _write_fragments(docs, out)
    meta = {"count": len(docs), "chunks": firsts, "per": PER}
    (out / "meta.json").write_text(json.dumps(meta, separators=(",", ":")), encoding="utf-8")
    return {
        "records": len(docs),
        "terms": len(postings),
        "chunks": len(firsts),
    }


def _postings(docs: list[dict]) -> tuple[dict[str, dict[int, float]], list[int]]:
    """Each term's records with its weighted count in each, and each record's length in terms."""
    postings: dict[str, dict[int, float]] = {}
    lengths = []
    for rid, doc in enumerate(docs):
        n = 0
        for weight, text in doc["parts"]:
            for term in terms(text):
                n += 1
                if weight:
                    bucket = postings.setdefault(term, {})
                    bucket[rid] = bucket.get(rid, 0.0) + weight
        lengths.append(max(n, 1))
    return postings, lengths


def _write_chunks(postings: dict[str, dict[int, float]], lengths: list[int], out: Path) -> list[str]:
    """The terms in order, in chunks of about CHUNK_BYTES; the first term of each."""
    avg = sum(lengths) / len(lengths)
    chunks, firsts, size, current = [], [], 0, {}
    for term in sorted(postings):
        pairs, last = [], 0
        for rid, tf in sorted(postings[term].items()):
            norm = tf * (K1 + 1) / (tf + K1 * (1 - B + B * lengths[rid] / avg))
            pairs.append(f"{_b36(rid - last)}:{_b36(round(norm * 100))}")
            last = rid
        if not current:
            firsts.append(term)
        current[term] = " ".join(pairs)  # each record as the step from the last, then its weight
        size += len(term) + len(current[term]) + 6
        if size >= CHUNK_BYTES:
            chunks.append(current)
            current, size = {}, 0
    if current:
        chunks.append(current)
    for n, chunk in enumerate(chunks):
        (out / f"c{n}.json").write_text(json.dumps(chunk, separators=(",", ":")), encoding="utf-8")
    return firsts


def _write_fragments(docs: list[dict], out: Path) -> None:
    """Each record's fragment (what a hit shows), PER to a file, and the filters' records."""
    filters: dict[str, dict[str, list[int]]] = {}
    frags = []
    for rid, doc in enumerate(docs):
        content = " ".join(text for _, text in doc["parts"])
        frags.append({"url": doc["url"], "title": doc["title"], "content": content, "filters": doc["filters"]})
        for name, values in doc["filters"].items():
            for value in values:
                filters.setdefault(name, {}).setdefault(value, []).append(rid)
    for n in range(0, len(frags), PER):
        (out / "f" / f"{n // PER}.json").write_text(
            json.dumps(frags[n : n + PER], ensure_ascii=False, separators=(",", ":")), encoding="utf-8"
        )
    (out / "filters.json").write_text(json.dumps(filters, separators=(",", ":")), encoding="utf-8")
