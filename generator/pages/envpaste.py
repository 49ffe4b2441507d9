"""The upgrade guide's "Paste your environment" box: what a pasted environment says (`read`), and
what the compatibility data answers for it on a target release (`answers`).

It reads the output of `python -m torch.utils.collect_env`, `pip freeze` / `pip list`, or a
requirements or lock-file line naming torch (a pin, a lower bound, a wheel URL, a lock entry): the
torch version and its build (+cu121, +rocm6.4, +cpu, +xpu; macOS on arm64 is MPS), the Python
version, the OS and architecture, and the GPU models and NVIDIA driver where given.

atlas-rules.js `readEnv` and `envAnswers` are the browser's copies, held equal to these by
tests/test_js_parity.py; the patterns are ASCII and line-based (no `\\s`, whose meaning differs
between Python and JavaScript). The compatibility rows, each support's stop (computed once, by
generator.enrich.supports: the answers look it up and compute none), the GPU data and the patches
reach the page as data (`view`, written on the guide's form by the build).
"""

from __future__ import annotations

import json
import re

from ..model import urls
from ..model.computed import Site
from ..model.content import version_key
from ..model.stops import SupportStop

_SP = r"[ \t]"
_NS = r"[^ \t\r\n]"
PATTERNS = {
    # collect_env
    "collect_torch": rf"^PyTorch version:{_SP}*({_NS}+)",
    "collect_cuda": rf"^CUDA used to build PyTorch:{_SP}*([0-9]+\.[0-9]+)",
    "collect_rocm": rf"^ROCM used to build PyTorch:{_SP}*([0-9]+\.[0-9]+)",
    "collect_xpu": rf"^Is XPU available:{_SP}*True",
    "collect_os": rf"^OS:{_SP}*([^\r\n(]*?){_SP}*(?:\(([A-Za-z0-9_]+)\))?{_SP}*$",
    "collect_python": rf"^Python version:{_SP}*([0-9]+\.[0-9]+)(?:\.[0-9]+)?([^\r\n]*)",
    "collect_gpus": r"^GPU models and configuration:([^\r\n]*)((?:\r?\n(?:GPU [0-9]+:|[ \t])[^\r\n]*)*)",
    "collect_driver": rf"^Nvidia driver version:{_SP}*([0-9]+(?:\.[0-9]+)*){_SP}*$",
    # pip freeze, requirements, collect_env's "[pip3] torch==2.5.1": a pin or a lower bound
    "pin": rf"^{_SP}*(?:\[[a-z0-9]+\]{_SP}+)?torch{_SP}*(?:===?|~=|>=){_SP}*([0-9][0-9A-Za-z.+!_-]*)",
    # pip list, conda list: "torch  2.5.1+cu121"
    "listed": rf"^{_SP}*(?:py)?torch{_SP}+([0-9][0-9A-Za-z.+!_-]*)(?:{_SP}|$)",
    # a wheel: torch-2.3.1+cu121-cp311-cp311-linux_x86_64.whl (in a URL, + is %2B); a free-threaded
    # build's ABI tag ends in t (cp313-cp313t)
    "wheel": r"torch-([0-9][0-9A-Za-z.!_]*)(?:(?:\+|%2B)([0-9A-Za-z.]+))?-cp([0-9])([0-9]+)t?-[0-9A-Za-z_]*?(t?)-([0-9A-Za-z_.]+)\.whl",
    # poetry.lock, uv.lock, Pipfile.lock
    "lock": r'^name = "torch"\r?\nversion = "([^"]+)"',
    "pipfile": r'^[ \t]*"torch": \{[^}]*?"version": "==([^"]+)"',
}
"""What `read` looks for, in this order for the torch version (the first that matches wins)."""

_RE = {k: re.compile(p, re.M | re.ASCII) for k, p in PATTERNS.items()}

GPU_MODELS = (
    (r"\b(?:GH|H)(?:100|200|800)\b", "Hopper"),
    (r"\b(?:GB|B)(?:100|200|300)\b|RTX 50[0-9]0|RTX PRO [0-9]+ Blackwell", "Blackwell"),
    (r"\bL(?:4|20|40S?)\b|RTX 40[0-9]0|RTX [0-9]+ Ada", "Ada"),
    (r"\bA(?:2|10|16|30|40|100|800)\b|RTX 30[0-9]0|RTX A[0-9]+", "Ampere"),
    (r"\bT4\b|RTX 20[0-9]0|GTX 16[0-9]0|Quadro RTX|TITAN RTX", "Turing"),
    (r"\bV100\b|TITAN V\b", "Volta"),
    (r"\bP(?:4|6|40|100)\b|GTX 10[0-9]0|TITAN Xp|Quadro P[0-9]+", "Pascal"),
    (r"\bM(?:4|6|10|40|60)\b|GTX 9[0-9]0|GTX TITAN X\b|Quadro M[0-9]+", "Maxwell"),
)
"""NVIDIA GPU model names to their architecture, first match wins: a naming rule (the data-centre
letter, the GeForce series number), not a fact about PyTorch. Which architectures the CUDA wheels
build for is content (content/gpu_archs.yaml)."""


def _cuda(local: str) -> str:
    """'cu121' -> '12.1', 'cu130' -> '13.0'."""
    digits = local[2:]
    return digits[:-1] + "." + digits[-1]


def _torch(text: str) -> tuple[str, str, str | None]:
    """(version, local build, how it was found) of the first torch the text names, else ('', '', None)."""
    for key in ("collect_torch", "lock", "pipfile", "pin", "listed"):
        if m := _RE[key].search(text):
            version, _, local = m[1].partition("+")
            return version, local, key
    if m := _RE["wheel"].search(text):
        return m[1], m[2] or "", "wheel"
    return "", "", None


NOT_A_GPU = ("No CUDA", "Could not collect", "N/A")
"""What collect_env writes on its GPU line when it found none."""

_BREAKS = re.compile("\r\n?|\u2028|\u2029")


def read(text: str) -> dict:
    """What a pasted environment says. `release` is "" when it names no torch version."""
    text = _BREAKS.sub("\n", text)  # one kind of line end: ^ and $ then mean the same in JavaScript
    version, local, how = _torch(text)
    release = ".".join(version.split(".")[:2]) if re.match(r"[0-9]+\.[0-9]+", version) else ""
    env = {"torch": version, "release": release, "build": local, "via": how or "", "python": "", "os": "", "arch": ""}
    env |= {"cuda": "", "rocm": "", "backend": "", "gpus": [], "driver": ""}
    if m := _RE["collect_python"].search(text):
        env["python"] = m[1] + ("t" if "free-threading" in m[2] else "")
    if m := _RE["collect_os"].search(text):
        env["os"], env["arch"] = m[1].strip(" \t"), m[2] or ""
    if how == "wheel" and (m := _RE["wheel"].search(text)):
        env["python"] = f"{m[3]}.{m[4]}{m[5]}"
        platform = m[6]
        env["os"] = "macOS" if platform.startswith("macosx") else "Windows" if platform.startswith("win") else "Linux"
        env["arch"] = "arm64" if re.search("arm64|aarch64", platform) else "x86_64"
    if m := _RE["collect_gpus"].search(text):
        lines = [m[1], *m[2].split("\n")]
        gpus = (re.sub(r"^GPU [0-9]+: ", "", line.strip(" \t")) for line in lines)
        env["gpus"] = [g for g in gpus if g and g not in NOT_A_GPU]
    if m := _RE["collect_driver"].search(text):
        env["driver"] = m[1]
    env |= _build(text, local, env["os"], env["arch"])
    return env


def _build(text: str, local: str, os_name: str, arch: str) -> dict:
    """cuda, rocm and backend from the build tag, else from collect_env's lines, else the platform."""
    cuda = _cuda(local) if re.fullmatch(r"cu[0-9]{2,4}", local) else ""
    rocm = local[4:] if re.fullmatch(r"rocm[0-9]+(\.[0-9]+)+", local) else ""  # as the compatibility rows write it
    if not local:
        cuda = m[1] if (m := _RE["collect_cuda"].search(text)) else ""
        rocm = m[1] if (m := _RE["collect_rocm"].search(text)) else ""
    mac_arm = bool(re.search("mac", os_name, re.I | re.ASCII)) and arch == "arm64"
    if cuda:
        backend = "cuda"
    elif rocm:
        backend = "rocm"
    elif local == "xpu" or _RE["collect_xpu"].search(text):
        backend = "xpu"
    elif mac_arm:
        backend = "mps"
    elif local == "cpu":
        backend = "cpu"
    else:
        backend = ""
    return {"cuda": cuda, "rocm": rocm, "backend": backend}


def looked_for() -> str:
    """The one line a text it cannot read gets."""
    return (
        "No torch version found: paste the output of python -m torch.utils.collect_env, of pip freeze or "
        "pip list, or a requirements or lock-file line naming torch (torch==2.5.1+cu121)."
    )


# ---------------------------------------------------------------- answers


def view(site: Site) -> dict:
    """What the guide's form carries (data-env): the compatibility rows, each support's stop as
    enrich computed it (generator.enrich.supports: the box looks stops up, it computes none), the
    GPU table and what each CUDA build covers, the drivers and macOS versions the sources ask for,
    and each release's newest patch."""
    rows = []
    for r in site.releases:
        c = r.compatibility
        if c is not None:
            rows.append(
                {
                    "version": r.version,
                    "python": [c.python_min, c.python_max],
                    "cuda": [cu.version for cu in c.cuda_stable + c.cuda_experimental],
                    "rocm": c.rocm,
                    "url": urls.at(urls.release(r.version), urls.COMPATIBILITY_ANCHOR),
                }
            )
    stops: dict = {"python": {}, "cuda": {}, "rocm": {}}
    for s in site.supports:
        stops[s.kind][s.value] = {
            "ships": list(s.ships),
            "last": s.last or "",
            "stop": s.removed_in or "",
            "by": s.removed_by,
            "listed": s.listed_last or "",
            "also": list(s.also_in),
            "deprecated": s.deprecated_in or "",
            "planned": s.removal_planned or "",
            "evidence": _links(s),
        }
    gpu = site.content.gpu
    return {
        "looked_for": looked_for(),
        "releases": rows,
        "stops": stops,
        "archs": list(gpu.names) if gpu else [],
        "models": [list(m) for m in GPU_MODELS if gpu and m[1] in gpu.names],
        "left": site.left_builds,
        "builds": _builds(gpu),
        "drivers": [list(d) for d in gpu.drivers] if gpu else [],
        "mps": [list(m) for m in gpu.mps] if gpu else [],
        "patches": _patches(site),
    }


def _links(stop: SupportStop) -> list[list[str]]:
    """What a stop's answer links (its evidence, generator.enrich.supports), each URL once: every
    stated field's but `releases` (a row per release: the first and last rows stand for them)."""
    out: dict[str, str] = {}
    for field, cited in stop.evidence:
        for c in cited if field != "releases" else ():
            out.setdefault(c.url, c.label)
    return [[label, url] for url, label in out.items()]


def _builds(gpu) -> dict:
    """release -> {"source", platform -> [[CUDA version, [architectures]], ...]}."""
    out: dict = {}
    for releases, platform, cuda, archs, source in gpu.builds if gpu else ():
        for release in releases:
            out.setdefault(release, {"source": source}).setdefault(platform, []).append([cuda, list(archs)])
    return out


def _patches(site: Site) -> dict:
    """release -> [its newest patch with fixes, its date, its fixes' URL, [[heading, count], ...]]."""
    out = {}
    for r in site.releases:
        patch = next((p for p in reversed(r.patches) if p.changes), None)
        if patch is not None:
            counts: dict[str, int] = {}
            for c in patch.changes:
                counts[c.area] = counts.get(c.area, 0) + 1
            anchor = urls.patch_fixes_anchor(patch.version)
            out[r.version] = [
                patch.version,
                patch.date,
                urls.at(urls.release(r.version), anchor),
                [[h, n] for h, n in counts.items()],
            ]
    return out


def view_json(site: Site) -> str:
    """`view` as the JSON text the form carries: text, so the live preview's record of what the
    page read holds it as one value."""
    return json.dumps(view(site), sort_keys=True, separators=(",", ":"))


def _key(version: str) -> tuple[int, ...]:
    return version_key(version) if re.fullmatch(r"[0-9]+(\.[0-9]+)*", version) else (0,)


def _answer(topic: str, ok: bool, text: str, evidence: list) -> dict:
    return {"topic": topic, "ok": ok, "text": text, "evidence": evidence}


def _said(stop: dict | None, what: str, target: str) -> str:
    """Where a support stops, as enrich stated it, and the matrix where the notes differ."""
    if stop is not None and not stop["stop"] and stop["listed"] and target not in stop["ships"]:
        return f" The compatibility matrix lists it last in {stop['listed']}, and no source says it stopped."
    if stop is not None and not stop["stop"] and stop["deprecated"]:
        planned = f"; its removal is announced for {stop['planned']}" if stop["planned"] else ""
        return f" It is deprecated since {stop['deprecated']}{planned}."
    if stop is None or not stop["stop"]:
        return ""
    if stop["last"]:
        out = f" The last release for {what} is {stop['last']}; it stops in {stop['stop']}."
    else:
        out = f" No release on the Atlas ships a wheel for {what}; it stopped in {stop['stop']}."
    if stop["listed"] and stop["listed"] != stop["last"]:
        out += f" The release notes decide: the compatibility matrix lists it last in {stop['listed']}."
    if stop["also"]:
        out += f" Another source lists it for {', '.join(stop['also'])} too."
    return out


def _support(topic: str, value: str, data: dict, row: dict) -> dict:
    stop = data["stops"][topic].get(value)
    ok = stop is not None and row["version"] in stop["ships"]
    target = row["version"]
    if topic == "python":
        unsaid = stop is not None and not ok and not stop["stop"]  # the matrix silent, the notes too
        text = (
            f"Python {value}: "
            + ("supported" if ok else "not listed" if unsaid else "not supported")
            + f" by {target} ({row['python'][0]} to {row['python'][1]})."
        )
    elif topic == "cuda":
        text = (
            f"CUDA {value}: {target} "
            + ("builds a wheel for it" if ok else "builds no wheel for it")
            + f" ({', '.join(row['cuda'])})."
        )
    else:
        text = f"ROCm {value}: {target} is built for ROCm {row['rocm']}."
    name = {"python": "Python", "cuda": "CUDA", "rocm": "ROCm"}[topic]
    # The target's row (what it builds) leads; then what the stop rests on, each URL once.
    cited = [e for e in stop["evidence"] if e[1] != row["url"]] if stop else []
    return _answer(topic, ok, text + _said(stop, f"{name} {value}", target), [_row_cited(row), *cited])


def _row_cited(row: dict) -> list[str]:
    return [f"{row['version']} compatibility row", row["url"]]


def answers(env: dict, data: dict, target: str) -> list[dict]:
    """What the data answers for `env` moving to `target`: Python, the CUDA or ROCm wheel, each GPU's
    architecture, the driver, macOS for MPS and the patch to take, each {topic, ok, text, evidence}.
    A stop is looked up, never computed: the same Python, CUDA or ROCm gets the same answer whatever
    else the paste holds."""
    row = next((r for r in data["releases"] if r["version"] == target), None)
    if row is None:
        return []
    out = [_support(topic, env[topic], data, row) for topic in ("python", "cuda", "rocm") if env[topic]]
    out.extend(_gpu_answers(env, data, row))
    out.extend(_driver_answers(env, data, row))
    out.extend(_macos_answers(env, data, target))
    out.extend(_patch_answers(env, data, target))
    return out


def arch_of(model: str, data: dict) -> str:
    """An NVIDIA GPU model's architecture, "" when the table does not know it."""
    return next((arch for pattern, arch in data["models"] if re.search(pattern, model, re.ASCII)), "")


def _gpu_answers(env: dict, data: dict, row: dict) -> list[dict]:
    """Each GPU architecture against the target's CUDA builds, per build as the CUDA support matrix
    lists them for the pasted platform; the newest release whose notes say it left a build."""
    target, out = row["version"], []
    builds = data["builds"].get(target)
    platform = "aarch64" if env["arch"] in ("arm64", "aarch64") and env["os"] != "macOS" else "x86_64"
    table = builds.get(platform, []) if builds else []
    for arch in dict.fromkeys(a for a in (arch_of(g, data) for g in env["gpus"]) if a):
        if not table:
            text, ok, evidence = (
                f"{arch} GPUs: no source at hand lists which architectures {target}'s CUDA builds cover.",
                False,
                [_row_cited(row)],  # what its CUDA builds are, where no source says what they cover
            )
        else:
            cover = [c for c, archs in table if arch in archs]
            miss = [c for c, archs in table if arch not in archs]
            text = f"{arch} GPUs: " + (
                f"{target}'s CUDA {', '.join(cover)} wheels cover them"
                if cover
                else f"none of {target}'s CUDA wheels covers them"
            )
            text += f"; its CUDA {', '.join(miss)} wheels do not." if miss and cover else "."
            ok = bool(cover) and env["cuda"] not in miss
            if env["cuda"] in miss:
                text += f" Your CUDA {env['cuda']} build is one that does not."
            evidence = [[f"CUDA support matrix ({target})", builds["source"]]]
        if left := data["left"].get(arch):
            text += f" {arch} left the CUDA {' and '.join(left['cuda'])} builds in {left['release']}"
            text += f" (the {left['first']} notes said so first)." if left["first"] != left["release"] else "."
            evidence += left["evidence"]
        out.append(_answer("gpu", ok, text, evidence))
    return out


def _driver_answers(env: dict, data: dict, row: dict) -> list[dict]:
    """The pasted NVIDIA driver against what the target's newer CUDA wheels need, where a source says."""
    if not env["driver"] or not env["gpus"]:
        return []
    out = []
    for cuda, linux, windows, release, source in data["drivers"]:
        needing = [c for c in row["cuda"] if _key(c) >= _key(cuda)]
        if not needing or _key(release) > _key(row["version"]):
            continue
        need = windows if env["os"].startswith("Microsoft Windows") or env["os"] == "Windows" else linux
        ok = _key(env["driver"]) >= _key(need)
        text = (
            f"NVIDIA driver {env['driver']}: {row['version']}'s CUDA {', '.join(needing)} wheels need {need} or newer"
        )
        older = [c for c in row["cuda"] if c not in needing]
        if ok:
            text += "; yours is."
        else:
            text += "; yours is older" + (
                f", so of its CUDA wheels only {', '.join(older)} runs on it." if older else "."
            )
        out.append(_answer("driver", ok, text, [[f"{release} release post: CUDA {cuda}+ needs driver {need}", source]]))
    return out


def _macos_answers(env: dict, data: dict, target: str) -> list[dict]:
    """The pasted macOS against the oldest macOS the target's MPS runs on, where a source says."""
    m = re.match(r"macOS ([0-9]+(?:\.[0-9]+)*)", env["os"])
    rules = [r for r in data["mps"] if _key(r[0]) <= _key(target)]
    if not m or not rules:
        return []
    release, macos, source = rules[-1]
    ok = _key(m[1])[:2] >= _key(macos)[:2]
    text = f"macOS {m[1]}: {target}'s MPS (Apple GPU) needs macOS {macos} or newer, from {release} on."
    before = [r["version"] for r in data["releases"] if _key(r["version"]) < _key(release)]
    if not ok and before:
        text += f" The last release whose MPS runs on it is {before[-1]}."
    return [_answer("macos", ok, text, [[f"{release} notes: MPS needs macOS {macos}", source]])]


def _patch_answers(env: dict, data: dict, target: str) -> list[dict]:
    """The target's newest patch, and why, for a paste older than it."""
    patch = data["patches"].get(target)
    if patch is None or not re.fullmatch(r"[0-9]+(\.[0-9]+)*", env["torch"]) or _key(env["torch"]) >= _key(patch[0]):
        return []
    version, date, url, counts = patch
    why = ", ".join(f"{n} under “{heading}”" for heading, n in counts)
    text = f"Take {version} ({date}) rather than {target}.0: its notes list {why}."
    return [_answer("patch", env["release"] != target, text, [[f"What {version} fixes", url]])]
