"""Read every surface of a built site that states a feature's standing or ending, and say where one
disagrees with the model (generator.enrich.facts): the feature (or family) page's fact lines, the features
index, each backend's matrix row, the badges, the JSON API (the feature's file and features.json),
the page head (description, Open Graph and Twitter), the search records, the ledger and the home
page's list of what is on its way out. tests/test_one_truth.py runs it on the real site and on
broken copies of the fixture site, one surface broken at a time."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from generator.model import urls
from generator.model.computed import Feature, Site
from generator.search import records as search

_TAG = re.compile(r"<[^>]+>")


def text(fragment: str) -> str:
    """An HTML fragment as the words a reader sees."""
    return " ".join(html.unescape(_TAG.sub(" ", fragment)).split()).replace(" ,", ",").replace("( ", "(")


def _read(site_dir: Path, rel: str) -> str:
    path = site_dir / rel
    return path.read_text(encoding="utf-8") if path.exists() else ""


def said(feature: Feature) -> str:
    """What every surface says of a feature: its ending once removed, else its standing."""
    return feature.ending.words if feature.removed_in else feature.standing.words


def page_phrase(feature: Feature) -> str:
    """The fact line's words on its page (templates/partials/features.md.j2 tier_phrase)."""
    s = feature.standing
    if feature.removed_in:
        return feature.ending.words
    if s.tier is None:
        return "Tier: none stated"
    return f"Tier now: {s.tier.name} since {s.since}"


def disagreements(site_dir: Path, site: Site) -> list[str]:
    """Every place where a surface of the built site states another standing or ending."""
    out: list[str] = []
    index = text(_read(site_dir, urls.FEATURES + "index.html"))
    features_json = {f["id"]: f for f in json.loads(_read(site_dir, urls.api_features()) or "{}").get("features", [])}
    descriptions = search.page_meta(site)
    for f in site.features:
        out += _page(site_dir, site, f)
        out += _badges(site_dir, site, f)
        out += _api(site_dir, f, features_json.get(f.id))
        if f"{f.title} {f.first} {said(f)}" not in index:
            out.append(f"{f.id}: the features index does not say '{said(f)}'")
        meta = descriptions.get(urls.feature(f.id), ("", ""))[1]
        if f.standing.words not in meta:
            out.append(f"{f.id}: its search record says '{meta}', not '{f.standing.words}'")
        for b, s in f.backend_standings:
            out += _matrix_row(site_dir, f, b, s)
    out += _ledger(site_dir, site)
    return out


def _head(page: str) -> dict[str, str]:
    found = re.findall(r'<meta (?:name|property)="((?:og:|twitter:)?description)" content="([^"]*)"', page)
    return {k: html.unescape(v) for k, v in found}


def _page(site_dir: Path, site: Site, f: Feature) -> list[str]:
    out = []
    page = _read(site_dir, urls.feature(f.id) + "index.html")
    facts = re.search(r'<div class="atlas-facts">(.*?)</div>', page, re.S)
    words = text(facts.group(1)) if facts else ""
    if page_phrase(f) not in words:
        out.append(f"{f.id}: its page says '{words[:160]}', not '{page_phrase(f)}'")
    for b, s in f.backend_standings:
        name = site.backend_by_id[b].name
        if f"{name} ({s.words}" not in words:
            out.append(f"{f.id}: its page does not say '{name} ({s.words}'")
    head = _head(page)
    for key in ("description", "og:description", "twitter:description"):
        if f.standing.words not in head.get(key, ""):
            out.append(f"{f.id}: its {key} says '{head.get(key, '')}', not '{f.standing.words}'")
    return out


def _badges(site_dir: Path, site: Site, f: Feature) -> list[str]:
    out = []
    wanted = [(urls.badge(f.id), f"{f.title}: {f.standing.words}")]
    wanted += [
        (urls.badge(f.id, b), f"{f.title} on {site.backend_by_id[b].name}: {s.words}") for b, s in f.backend_standings
    ]
    for rel, title in wanted:
        got = re.search(r"<title>(.*?)</title>", _read(site_dir, rel))
        if got is None or html.unescape(got.group(1)) != title:
            out.append(f"{rel}: says '{got and html.unescape(got.group(1))}', not '{title}'")
    return out


def _api(site_dir: Path, f: Feature, listed: dict | None) -> list[str]:
    out = []
    raw = _read(site_dir, urls.api_feature(f.id))
    record = json.loads(raw) if raw else {}
    if record.get("status") != f.standing.words or record.get("since") != f.standing.since:
        out.append(f"{urls.api_feature(f.id)}: says '{record.get('status')}', not '{f.standing.words}'")
    for b, s in f.backend_standings:
        if record.get("backends", {}).get(b, {}).get("status") != s.words:
            out.append(f"{urls.api_feature(f.id)}: on {b} says something else than '{s.words}'")
    ending = (record.get("ending") or {}).get("words")
    if ending != (f.ending.words if f.ending else None):
        out.append(f"{urls.api_feature(f.id)}: its ending says '{ending}'")
    if listed is None or listed.get("status") != f.standing.words or listed.get("removed_in") != f.removed_in:
        out.append(f"{urls.api_features()}: {f.id} says something else than '{f.standing.words}'")
    return out


def _matrix_row(site_dir: Path, f: Feature, backend: str, s) -> list[str]:
    page = _read(site_dir, urls.backend(backend) + "index.html")
    row = re.search(rf'<tr [^>]*><th scope="row"[^>]*><a href="[./]*features/{re.escape(f.id)}/">.*?</tr>', page)
    if row is None:
        return [f"{f.id}: no row on the {backend} matrix"]
    first = re.search(r'href="[./]*releases/([0-9.]+)/#', row.group(0))
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row.group(0))
    last = text(cells[-1]) if cells else ""
    out = []
    if first is None or first.group(1) != s.first:
        out.append(f"{f.id}: the {backend} matrix starts it at {first and first.group(1)}, not {s.first}")
    if s.tier is not None and s.tier.id != "removed" and last != s.tier.label:
        out.append(f"{f.id}: the {backend} matrix ends '{last}', not '{s.tier.label}'")
    return out


def _ledger(site_dir: Path, site: Site) -> list[str]:
    out = []
    ledger = _read(site_dir, urls.DEPRECATIONS + "index.html")
    home = text(_read(site_dir, "index.html"))
    tag = {"removed": "Removed", "overdue": "Overdue"}
    for row in site.ledger:
        if row.feature is None:
            continue
        f = row.feature
        found = re.search(rf'<tr>\s*<td><a href="[./]*features/{re.escape(f.id)}/">.*?</tr>', ledger, re.S)
        cells = [text(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", found.group(0), re.S)] if found else []
        e = f.ending
        removed = e.removed_in or (f"part removed in {e.part_removed_in}" if e.part_removed_in else "—")
        if len(cells) != 5 or not cells[3].startswith(removed) or cells[4] != tag.get(e.status, "Deprecated"):
            out.append(f"{f.id}: the ledger says {cells[3:]}, not removed '{removed}', '{e.status}'")
        if e.status in ("due", "overdue") and f"{f.title} — deprecated in {e.deprecated_in}" not in home:
            out.append(f"{f.id}: the home page does not list it as deprecated in {e.deprecated_in}")
    return out
