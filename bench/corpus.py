"""Synthetic content folders for the benchmark: the real corpus, repeated in cycles.

A corpus at scale k holds k cycles of the real releases. Cycle 0 is the real content, copied
byte for byte; cycle c >= 1 repeats every real release as version 2.(c*N + minor), with the
same features under suffixed ids
(`flex-attention-c3`), so each cycle's lifecycles span releases the way the real ones do. Tiers
of the Prototype/Beta/Stable era are carried over into API-Unstable/API-Stable, since only the
real 2.0–2.7 use that vocabulary. A release whose real model has a change list gets that list,
with its PR numbers shifted (same digit count, so page sizes stay comparable). If the real
corpus has no change lists at all, every synthetic release gets ~700 made-up changes instead.
Synthetic releases follow the last real one at the real mean interval, closer together if that
would run past 2099: MkDocs gzips the sitemap with a 32-bit timestamp, which ends in 2106.

Per-release shape (features, changes, text lengths) is the real one, so pages per release and
bytes per release page stay those of the real corpus; only what spans releases grows.
"""

from __future__ import annotations

import datetime as dt
import random
import re
import shutil
from pathlib import Path

import yaml

REGISTRIES = ("tiers.yaml", "backends.yaml", "areas.yaml")
RELEASE_HEADER = "# yaml-language-server: $schema=../../generator/schemas/release.schema.json\n"
FEATURES_HEADER = "# yaml-language-server: $schema=../../generator/schemas/features.schema.json\n"
CHANGES_HEADER = "# yaml-language-server: $schema=../../generator/schemas/changes.schema.json\n"
LAST_DATE = dt.date(2099, 12, 31)
PR_NUMBER = re.compile(r"(?<![\d.])\d{5,6}(?![\d.])")
SYNTHETIC_CHANGES = 700


def _minor(version: str) -> int:
    return int(version.split(".")[1])


def _load(path: Path):
    return yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)


class _Dumper(yaml.CSafeDumper):
    """Writes a list the corpus repeats (a feature's `also:` names) in full each time: content
    refuses YAML anchors and aliases."""

    def ignore_aliases(self, data) -> bool:
        return True


def _dump(data) -> str:
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)


class _Real:
    """The real corpus, read once."""

    def __init__(self, content: Path):
        self.content = content
        self.release_files = sorted((content / "releases").glob("*.yaml"), key=lambda p: _minor(p.stem))
        self.releases = [_load(p) for p in self.release_files]
        self.change_files = (
            {p.stem: p for p in (content / "changes").glob("*.yaml")} if (content / "changes").is_dir() else {}
        )
        dates = [r["date"] for r in self.releases]
        self.last_date, self.mean_interval = max(dates), (max(dates) - min(dates)) / max(len(dates) - 1, 1)
        self.cycle_len = max(_minor(r["version"]) for r in self.releases) + 1
        tiers = _load(content / "tiers.yaml")
        self.tier = {t["id"]: t for t in tiers["tiers"]}
        self.vocabulary = self.releases[-1]["tier_vocabulary"]  # the current one
        self.areas = [
            b for backend in _load(content / "backends.yaml")["backends"] for b in backend.get("change_areas", [])
        ]


def make_corpus(content: Path, dest: Path, scale: int, seed: int = 8) -> Path:
    """Write a content folder `scale` times the real one into dest (replacing it); return dest."""
    real = _Real(content)
    if dest.exists():
        shutil.rmtree(dest)
    (dest / "releases").mkdir(parents=True)
    (dest / "changes").mkdir()
    for name in REGISTRIES:
        shutil.copy2(content / name, dest / name)
    for path in real.release_files:
        shutil.copy2(path, dest / "releases" / path.name)
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
        if scale > 1 and "next" in raw:  # only the newest release names the next one: a synthetic one is newer
            raw.pop("next")
            (dest / "releases" / path.name).write_text(RELEASE_HEADER + _dump(raw), encoding="utf-8")
    for path in real.change_files.values():
        shutil.copy2(path, dest / "changes" / path.name)
    _catalogue(content, dest, scale)
    rng = random.Random(seed)
    synthetic = (scale - 1) * len(real.releases)
    interval = min(real.mean_interval, (LAST_DATE - real.last_date) / max(synthetic, 1))
    for cycle in range(1, scale):
        levels: dict[str, int] = {}
        for i, raw in enumerate(real.releases):
            date = real.last_date + interval * ((cycle - 1) * len(real.releases) + i + 1)
            release = _release(real, raw, cycle, date, levels)
            version = release["version"]
            (dest / "releases" / f"{version}.yaml").write_text(RELEASE_HEADER + _dump(release), encoding="utf-8")
            changes = _changes(real, raw["version"], version, cycle, rng)
            if changes is not None:
                (dest / "changes" / f"{version}.yaml").write_text(changes, encoding="utf-8")
    return dest


def _catalogue(content: Path, dest: Path, scale: int) -> None:
    """Each cycle's features under its suffixed ids, in the same families."""
    (dest / "features").mkdir()
    for path in sorted((content / "features").glob("*.yaml")):
        items = _load(path)["features"]
        out = list(items)
        for cycle in range(1, scale):
            suffix = f"-c{cycle}"
            for raw in items:
                copy = {**raw, "id": raw["id"] + suffix}
                if raw.get("parent"):
                    copy["parent"] = raw["parent"] + suffix
                if raw.get("aliases"):
                    copy["aliases"] = [a + suffix for a in raw["aliases"]]
                # A release-note area defaults to one feature: the first cycle's keeps it.
                copy.pop("change_areas", None)
                out.append(copy)
        (dest / "features" / path.name).write_text(FEATURES_HEADER + _dump({"features": out}), encoding="utf-8")


def shift_version(version: str, cycle: int, cycle_len: int) -> str:
    """'2.7' in cycle 3 of 13 releases -> '2.46'; patch versions keep their patch number."""
    parts = version.split(".")
    parts[1] = str(int(parts[1]) + cycle * cycle_len)
    return ".".join(parts)


def _shift_pr(number: int, cycle: int) -> int:
    """A different PR number with the same digit count (a bijection per cycle)."""
    low = 10 ** (len(str(number)) - 1)
    return low + (number - low + cycle * 7919) % (9 * low)


def _release(real: _Real, raw: dict, cycle: int, date: dt.date, levels: dict) -> dict:
    n = real.cycle_len
    shift = date - raw["date"]
    out = dict(raw)
    out["version"] = shift_version(raw["version"], cycle, n)
    first = raw is real.releases[0]
    out["previous"] = f"2.{cycle * n - 1}" if first else shift_version(raw["previous"], cycle, n)
    out["date"] = date
    out.pop("next", None)  # the next release by the cadence is the real newest one's, not a synthetic one's
    out["tier_vocabulary"] = real.vocabulary
    out["patches"] = [
        {**p, "version": shift_version(p["version"], cycle, n), "date": _shift_date(p["date"], shift)}
        for p in raw.get("patches", [])
    ]
    out["features"] = [_feature(real, f, cycle, levels) for f in raw["features"]]
    return out


def _shift_date(value: str, shift: dt.timedelta) -> str:
    if len(value) == 7:  # YYYY-MM
        return (dt.date.fromisoformat(value + "-01") + shift).isoformat()[:7]
    return (dt.date.fromisoformat(str(value)) + shift).isoformat()


def _feature(real: _Real, raw: dict, cycle: int, levels: dict) -> dict:
    out = dict(raw)
    suffix = f"-c{cycle}"
    out["id"] = raw["id"] + suffix
    if raw.get("aliases"):
        out["aliases"] = [a + suffix for a in raw["aliases"]]
    if raw.get("removal"):
        out["removal"] = shift_version(raw["removal"], cycle, real.cycle_len)
    tier = raw.get("tier")
    if tier and real.tier[tier]["vocabulary"] not in ("all", real.vocabulary):
        out["tier"] = next(
            t for t in real.tier[tier].get("equivalent", []) if real.tier[t]["vocabulary"] == real.vocabulary
        )
    if out.get("tier"):
        level = real.tier[out["tier"]]["level"]
        if level < levels.get(out["id"], 0) and not out.get("reason"):
            # Prototype -> API-Unstable raises a level, so a later real tier can now look like a step down.
            out["reason"] = "Synthetic benchmark data: the tier was carried into the API-stability vocabulary."
        levels[out["id"]] = level
    prs = raw.get("prs")
    if isinstance(prs, list):
        out["prs"] = [_shift_pr(p, cycle) for p in prs]
    elif prs is not None:
        out["prs"] = _shift_pr(prs, cycle)
    return out


def _changes(real: _Real, model_version: str, version: str, cycle: int, rng: random.Random) -> str | None:
    """The change list of a synthetic release, as text; None if its real model has none."""
    if real.change_files:
        path = real.change_files.get(model_version)
        if path is None:
            return None
        text = path.read_text(encoding="utf-8")
        text = re.sub(r"^release: .*$", f'release: "{version}"', text, count=1, flags=re.M)
        text = PR_NUMBER.sub(lambda m: str(_shift_pr(int(m.group()), cycle)), text)
        return _answered(text) if cycle else text
    return _synthetic_changes(real, version, rng)


def _answered(text: str) -> str:
    """A later cycle's copy with every record's endings answered (`ends: []` where the real record
    has none): its records keep the real feature ids, so a removal copied past the real deprecation
    of its feature would be a new question (check lists it) that no reader of the copy answers."""
    head, *changes = text.split("\n  - section:")
    return head + "".join(
        "\n  - section:" + (c if "\n    ends:" in c else c.replace("\n", "\n    ends: []\n", 1)) for c in changes
    )


SECTIONS = [
    ("bc-breaking", 3),
    ("deprecations", 2),
    ("new-features", 12),
    ("improvements", 35),
    ("bug-fixes", 30),
    ("performance", 8),
    ("documentation", 5),
    ("developers", 5),
]
AREAS = [
    "CUDA",
    "Distributed › c10d",
    "Distributed › FSDP",
    "MPS",
    "ROCm",
    "XPU",
    "CPU (x86)",
    "Inductor",
    "Dynamo",
    "torch.nn",
    "Python Frontend",
    "Autograd",
    "ONNX",
    "Export",
    "Quantization",
    "Sparse Frontend",
    "Linear Algebra",
    "Releng",
]
WORDS = "add support fix crash when tensor kernel shape dtype stride memory compile graph backend operator gradient fused faster error message allow default deprecate remove improve handle dynamic symbolic".split()


def _synthetic_changes(real: _Real, version: str, rng: random.Random) -> str:
    """~700 made-up changes with real-looking sections, areas, lengths and PR links."""
    areas = AREAS + real.areas
    sections = [s for s, w in SECTIONS for _ in range(w)]
    changes = []
    for _ in range(rng.randint(SYNTHETIC_CHANGES - 100, SYNTHETIC_CHANGES + 100)):
        prs = [rng.randint(100000, 170000) for _ in range(rng.choice((1, 1, 1, 1, 2, 3)))]
        words = " ".join(rng.choice(WORDS) for _ in range(int(rng.lognormvariate(2.6, 0.5))))
        links = ", ".join(f"[#{p}](https://github.com/pytorch/pytorch/pull/{p})" for p in prs)
        changes.append(
            {
                "section": rng.choice(sections),
                "area": rng.choice(areas),
                "text": f"- {words.capitalize()} `torch.{rng.choice(WORDS)}` ({links})",
                "prs": prs,
            }
        )
    changes.sort(key=lambda c: [s for s, _ in SECTIONS].index(c["section"]))
    data = {
        "release": version,
        "source": f"https://github.com/pytorch/pytorch/releases/tag/v{version}.0",
        "changes": changes,
    }
    return CHANGES_HEADER + _dump(data)
