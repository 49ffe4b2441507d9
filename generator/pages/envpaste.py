"""The upgrade guide's "Paste your environment" box: what a pasted environment says (`read`), and
what the compatibility data answers for it on a target release (`answers`).

It reads the output of `python -m torch.utils.collect_env`, `pip freeze` / `pip list`, or a
requirements or lock-file line naming torch (a pin, a lower bound, a wheel URL, a lock entry): the
torch version and its build (+cu121, +rocm6.4, +cpu, +xpu; macOS on arm64 is MPS), the Python
version, the OS and architecture, and the GPU models where given.

atlas-rules.js `readEnv` and `envAnswers` are the browser's copies, held equal to these by
tests/test_js_parity.py; the patterns are ASCII and line-based (no `\\s`, whose meaning differs
between Python and JavaScript). The compatibility rows and the GPU table reach the page as data
(`view`, written on the guide's form by the build).
"""

from __future__ import annotations

import json
import re

from ..model.computed import Site
from ..model.content import version_key

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


_BREAKS = re.compile("\r\n?|\u2028|\u2029")


def read(text: str) -> dict:
    """What a pasted environment says. `release` is "" when it names no torch version."""
    text = _BREAKS.sub("\n", text)  # one kind of line end: ^ and $ then mean the same in JavaScript
    version, local, how = _torch(text)
    release = ".".join(version.split(".")[:2]) if re.match(r"[0-9]+\.[0-9]+", version) else ""
    env = {"torch": version, "release": release, "build": local, "via": how or "", "python": "", "os": "", "arch": ""}
    env |= {"cuda": "", "rocm": "", "backend": "", "gpus": []}
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
        env["gpus"] = [g for g in (re.sub(r"^GPU [0-9]+: ", "", line.strip(" \t")) for line in lines) if g]
    env |= _build(text, local, env["os"], env["arch"])
    return env


def _build(text: str, local: str, os_name: str, arch: str) -> dict:
    """cuda, rocm and backend from the build tag, else from collect_env's lines, else the platform."""
    cuda = _cuda(local) if re.fullmatch(r"cu[0-9]{2,4}", local) else ""
    rocm = ".".join(local[4:].split(".")[:2]) if local.startswith("rocm") else ""
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
    """The compatibility rows and the GPU table, as the guide's form carries them (data-env)."""
    rows = []
    for r in site.releases:
        c = r.compatibility
        if c is None:
            continue
        rows.append(
            {
                "version": r.version,
                "python": [c.python_min, c.python_max, list(c.python_experimental)],
                "cuda": [cu.version for cu in c.cuda_stable + c.cuda_experimental],
                "rocm": c.rocm,
            }
        )
    gpu = site.content.gpu
    return {
        "looked_for": looked_for(),
        "releases": rows,
        "archs": list(gpu.names) if gpu else [],
        "models": [list(m) for m in GPU_MODELS if gpu and m[1] in gpu.names],
        "leaves": [[r, list(c), list(a), s] for r, c, a, s in gpu.left] if gpu else [],
        "cuda13": [gpu.cuda13_first if gpu else ""],
    }


def view_json(site: Site) -> str:
    """`view` as the JSON text the form carries: text, so the live preview's record of what the
    page read holds it as one value."""
    return json.dumps(view(site), sort_keys=True, separators=(",", ":"))


def _key(version: str) -> tuple[int, ...]:
    return version_key(version) if re.fullmatch(r"[0-9]+(\.[0-9]+)*", version) else (0,)


def _python_ok(row: dict, python: str) -> bool:
    low, high, experimental = row["python"]
    if python in experimental or python.endswith("t"):
        return python in experimental
    return _key(low) <= _key(python) <= _key(high)


def _minor(version: str) -> str:
    return ".".join(version.split(".")[:2])


def _stop(rows: list[dict], since: str, ok) -> str:
    """The first release after `since` whose row fails `ok`, or ""."""
    return next((r["version"] for r in rows if _key(r["version"]) > _key(since) and not ok(r)), "")


def _said(rows: list[dict], stop: str, what: str) -> str:
    if not stop:
        return ""
    last = next((r["version"] for r in reversed(rows) if _key(r["version"]) < _key(stop)), "")
    return f" The last release for {what} is {last}; it stops in {stop}."


def answers(env: dict, data: dict, target: str) -> list[dict]:
    """What the compatibility data answers for `env` moving to `target`: Python, the CUDA or ROCm
    wheel, and each GPU's architecture, each {topic, ok, text}."""
    rows = data["releases"]
    row = next((r for r in rows if r["version"] == target), None)
    if row is None:
        return []
    since = env["release"] or rows[0]["version"]
    out = []
    if py := env["python"]:
        ok = _python_ok(row, py)
        low, high, _ = row["python"]
        text = f"Python {py}: " + ("supported" if ok else "not supported") + f" by {target} ({low} to {high})."
        out.append(
            {
                "topic": "python",
                "ok": ok,
                "text": text + _said(rows, _stop(rows, since, lambda r: _python_ok(r, py)), f"Python {py}"),
            }
        )
    if cu := env["cuda"]:
        ok = cu in row["cuda"]
        text = (
            f"CUDA {cu}: {target} "
            + ("builds a wheel for it" if ok else "builds no wheel for it")
            + f" ({', '.join(row['cuda'])})."
        )
        out.append(
            {
                "topic": "cuda",
                "ok": ok,
                "text": text + _said(rows, _stop(rows, since, lambda r: cu in r["cuda"]), f"CUDA {cu}"),
            }
        )
    if ro := env["rocm"]:
        ok = _minor(row["rocm"]) == ro
        text = f"ROCm {ro}: {target} is built for ROCm {row['rocm']}."
        out.append(
            {
                "topic": "rocm",
                "ok": ok,
                "text": text + _said(rows, _stop(rows, since, lambda r: _minor(r["rocm"]) == ro), f"ROCm {ro}"),
            }
        )
    out.extend(_gpu_answers(env, data, row, since))
    return out


def arch_of(model: str, data: dict) -> str:
    """An NVIDIA GPU model's architecture, "" when the table does not know it."""
    return next((arch for pattern, arch in data["models"] if re.search(pattern, model, re.ASCII)), "")


def _gpu_answers(env: dict, data: dict, row: dict, since: str) -> list[dict]:
    order = data["archs"]
    out = []
    for arch in dict.fromkeys(a for a in (arch_of(g, data) for g in env["gpus"]) if a):
        builds = [v for v in row["cuda"] if _builds(v, arch, row["version"], data, order)]
        ok = bool(builds)
        text = f"{arch} GPUs: " + (
            f"{row['version']} builds for them with CUDA {', '.join(builds)}."
            if ok
            else f"no CUDA wheel of {row['version']} builds for them."
        )
        gone = [
            f" {arch} left the CUDA {' and '.join(c)} builds in {r}."
            for r, c, archs, _ in data["leaves"]
            if arch in archs and _key(since) < _key(r) <= _key(row["version"])
        ]
        out.append({"topic": "gpu", "ok": ok, "text": text + "".join(gone)})
    return out


def _builds(cuda: str, arch: str, release: str, data: dict, order: list[str]) -> bool:
    first = data["cuda13"][0]
    if _key(cuda) >= (13,) and order.index(arch) < order.index(first):
        return False
    return not any(arch in archs and cuda in c and _key(r) <= _key(release) for r, c, archs, _ in data["leaves"])
