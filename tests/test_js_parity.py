"""The browser's copies of Python rules give Python's answers: templates/assets/atlas-rules.js
run by Node (tests/js_parity.js) beside generator.search.records, generator.model.symbols,
generator.markup.textfilters, generator.pages.envpaste and the upgrade guide's rule
(generator.enrich.enrich.guide, which `collect` and `concerns` copy over the API's records) on the
same inputs — the real content's change texts, names and releases, and hostile and Unicode text.

JavaScript and Python differ where it is easy to miss: what counts as whitespace (`\\s`,
`str.split`), what `\\w`, `\\b` and `\\d` mean outside ASCII, string length (UTF-16 units against
code points). Each of those has an input here."""

from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import asdict

import pytest
import yaml

from generator.enrich import enrich
from generator.markup import textfilters
from generator.model import content, symbols, urls
from generator.model.computed import ChangeView
from generator.model.content import applies_to
from generator.pages import envpaste
from generator.render import api, browser
from generator.search import records as search
from generator.tools import paste
from tests.conftest import ROOT, real_model

RULES = ROOT / "templates" / "assets" / "atlas-rules.js"
ENVS = sorted((ROOT / "tests" / "data" / "env").glob("*.txt"))
CORPUS = sorted((ROOT / "tests" / "data" / "scan_corpus").glob("*.py"))
CODE = [
    "torch.onnx.export(m, x, f,\n    fallback=True)",
    "x = torch.load(p, **kw)",
    "import torch.nn.functional as F, os\nF.celu(x, alpha=0)",
    "from . import thing\nthing(use_cuda=True)",
    "from torch import (load as L,\n  save)\nL(p)",
    "class A(torch.nn.Module, metaclass=M): x = torch.cholesky(a)",
    "async def f(a: torch.Tensor = torch.zeros(1)) -> torch.Tensor: return a.qr()",
    "else: torch.load(p)",
    "y: torch.Tensor",
    "os.environ['TORCH_LOGS'] = '+dynamo'; os.getenv(\"TORCHINDUCTOR_X\")",
    "subprocess.run(['torchrun', '--standalone', '--nproc-per-node=2', 'x.py'])",
    "f'{torch.load(p)}' rb'torch.qr' " + "'" * 3 + "unterminated",
    "1.5.real.qr() foo().bar(baz=1)[0].cholesky()",
    "x = (\n torch.cat(a) # c\n)",
    "a\r\nb = torch.qr(x)\rc = 'unterminated",
]
ENV_LINES = [
    "torch==2.4.0+cu118",
    "torch>=2.2,<2.5",
    "torch~=2.6.0",
    "torch===2.7.1+xpu",
    "torch   2.7.1+cpu",
    "pytorch                   2.1.2           py3.11_cuda12.1_cudnn8.9.2_0    pytorch",
    "  torch 2.8.0+rocm6.4  ",
    "torch @ https://download.pytorch.org/whl/cu121/torch-2.3.1%2Bcu121-cp311-cp311-linux_x86_64.whl",
    "https://download.pytorch.org/whl/cpu/torch-2.5.0-cp313-cp313t-macosx_11_0_arm64.whl",
    "torch-2.9.0+cu130-cp312-cp312-win_amd64.whl",
    '[[package]]\nname = "torch"\nversion = "2.6.0+xpu"\nsource = { registry = "https://pypi.org/simple" }',
    '"torch": {\n    "hashes": [],\n    "version": "==2.2.2"\n}',
    "torchvision==0.20.1",
    "torch",
    "PyTorch version: 2.10.0+cu126\r\nPython version: 3.14.0 experimental free-threading build (main)\r\nOS: Ubuntu 24.04 LTS (aarch64)\r\n",
    "PyTorch version: 2.12.0\rOS: macOS 15.1 (arm64)\rPython version: 3.13.1",
    "PyTorch version: 2.12.0\u2028OS: Mac\u0130 (arm64)\nIs XPU available: True",
    "OS: MACOS 15 (arm64)\ntorch==2.12.0",
    "OS: Microsoft Windows 11 Pro\nGPU models and configuration: NVIDIA GeForce RTX 3090\nPyTorch version: 2.4.1+cu124",
    "GPU models and configuration:\nGPU 0: NVIDIA H100 80GB HBM3\nGPU 1: Tesla P100-PCIE-16GB\nGPU 2: NVIDIA GeForce GTX 980\n\t GPU 3: T4\nNvidia driver: x\ntorch==2.7.0+cu128",
    "GPU models and configuration: NVIDIA B200, NVIDIA L40S, Quadro RTX 8000, NVIDIA A10\ntorch==2.11.0+cu130",
    # issue #44: a B200 on cu126, an old driver with cu130 (Linux and Windows), "No CUDA", macOS below
    # MPS's minimum, a 2.14.0 and its patch, ROCm as the build tag writes it, aarch64 coverage
    "GPU models and configuration: NVIDIA B200\nNvidia driver version: 580.65.06\ntorch==2.14.0+cu126",
    "PyTorch version: 2.14.0+cu130\nOS: Ubuntu 24.04 LTS (x86_64)\nGPU models and configuration: NVIDIA A100-SXM4-80GB\nNvidia driver version: 535.161.08",
    "PyTorch version: 2.13.0+cu130\nOS: Microsoft Windows 11 Pro\nGPU models and configuration: NVIDIA GeForce RTX 5090\nNvidia driver version: 580.65.06",
    "PyTorch version: 2.8.0\nOS: macOS 13.6.1 (arm64)\nPython version: 3.9.6\nGPU models and configuration: No CUDA\nNvidia driver version: No CUDA",
    "PyTorch version: 2.12.0+cu128\nOS: Ubuntu 24.04 LTS (aarch64)\nGPU models and configuration: NVIDIA GH200 480GB\nGPU 1: Tesla T4",
    "torch==2.14.1+rocm7.14\nPython version: 3.13.1",
    "torch==2.10.0+xpu\nPython version: 3.9.1",
    "torch==2.13.0+cu132",
    "PyTorch version: 2.8.0\nPython version: 3.13.1 experimental free-threading build (main)",
    "torch==2.6.0+rocm6.2.4\nPython version: 3.16.0",
    "torch==2.11.0+cu129\nPython version: 3.7.9",
]
HARNESS = ROOT / "tests" / "js_parity.js"

CALLS = [
    "profile(use_cuda=True)",
    "torch.profiler.profile(activities=[ProfilerActivity.CPU], record_shapes=True)",
    "  torch.load(f, weights_only=False);  ",
    "torch.load(f)",
    "f(a == b)",
    "f(x=g(y=1), z=2)",
    "torch.onnx.export(model, args, dynamic_axes={'x': {0: 'b'}},\n  opset_version=17)",
    "x = f(a=1)",
    "f.(a=1)",
    "\u3000f(a=1)\x85",
    "\ufefff(a=1)",
    "f(é=1, a=1)",
    "f(a=1",
]

HOSTILE = [
    "",
    " ",
    "torch.cat",
    "  Torch.CAT()  ",
    "`torch.compile()`",
    "'\"torch.load\"'",
    "PR #158249",
    "pr#158249",
    "pull request 158249",
    "Pull   Request  #  12",
    "pr 12a",
    "pr \u0663\u0664",  # Arabic-Indic digits: not a PR number
    "#2.8",
    "##  2.8 ",
    "#",
    "()",
    "```",
    "flex_attention",
    "torch.nn.attention.flex_attention",
    "TORCH_LOGS=+dynamo python train.py --compile-mode=max",
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "'; DROP TABLE releases; --",
    "{{ 7*7 }} ${7*7} %s %n",
    "../../etc/passwd",
    "javascript:alert(1)",
    "a\tb\nc\rd\x0be\x0cf",
    "a\x1cb\x1dc\x1ed\x1ff",  # whitespace to Python, not to JavaScript's \s
    "a\x85b",  # NEL: whitespace to Python
    "a\ufeffb",  # BOM: whitespace to JavaScript's \s and trim(), not to Python
    "\u3000torch\u3000cat\u3000",
    "torch\u00a0cat",
    "a\u2028b\u2029c",
    "zero\u200bwidth",
    "İstanbul",
    "ΣΑΣ ΟΔΟΣ",  # final sigma
    "Straße STRASSE",
    "ǅ ǈ ǋ",  # title-case digraphs
    "\u212a\u212b",  # Kelvin, Angstrom signs
    "ﬃ ﬀ",
    "𝔱𝔬𝔯𝔠𝔥.𝔠𝔞𝔱",
    "🔥 torch 🔥",
    "e\u0301\u0301\u0301",
    "日本語 torch.cat 中文",
    "é--flag x--flag --Flag --ok-flag -- --9",
    "éFOO_BAR FOO_BARé _FOO_BAR FOO_ 9FOO_BAR",
    "torch.ñ.cat torch..cat .torch. a.b.c.d.e",
    "__init__ _._ a_b.c_d",
    'Traceback (most recent call last):\n  File "t.py", line 3, in <module>\n    torch.load(f)\nTypeError: weights_only',
    "- **bold** `code` [link](https://x.org) *em*",
    "### Heading [x](y)",
    "  * item with `tick",
    "+ plus item",
    "-no space",
    "#nospace",
    "\u2003- em-space bullet",
    "\x1c- file-separator bullet",
    "[a](b) [c](d) [](e) [f]() [unclosed](x",
    "nested [a [b]](c) ]( [[x]]",
    "**** `` ` ``",
    "### **Title of a 2.0 change (#95712)**",
    "## __Underscored title__  ",
    "### **bold** then **more**",
    "####### seven hashes",
    "Move the op (#134877)<br>",
    "a <BR/>\nb<br />\nc _(From Miscategorized)_\nd_(from miscategorized)_",
    "line one\nline two\n  - three",
    "x" * 5000,
    "\u00e9" * 300 + " " + "\U0001f525" * 300,
]


def _listed(call):
    """A pasted call as JSON gives it back: lists, not tuples."""
    return None if call is None else [call[0], call[1]]


def _change_texts() -> list[dict]:
    out = []
    for path in sorted((ROOT / "content" / "changes").glob("*.yaml")):
        out += yaml.safe_load(path.read_text(encoding="utf-8")).get("changes") or []
    return out


def _node(payload: dict) -> dict:
    node = shutil.which("node")
    assert node, "node is not on PATH: make test needs Node (it installs axe-core with npm)"
    proc = subprocess.run(
        [node, str(HARNESS), str(RULES)],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        timeout=120,
        encoding="utf-8",
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


@pytest.fixture(scope="module")
def cases() -> dict:
    """The inputs, and both sides' outputs."""
    changes = _change_texts()
    texts = [c["text"] for c in changes]
    found = [symbols.of_text(c["text"], c.get("note"), c.get("restore")) for c in changes]
    names = sorted({n for f in found for n in f} | {n.rsplit(".", 1)[-1] for f in found for n in f})
    queries = HOSTILE + names + [t.split("\n")[0] for t in texts[:400]]
    pastes = HOSTILE + [c.get("note") or "" for c in changes[:300]] + names[:300]
    keys = [search.normalise(q) for q in queries]
    envs = [p.read_text(encoding="utf-8") for p in ENVS]
    env_data = envpaste.view(real_model())
    # A release that builds CUDA 13 only (as 2.15 is planned to): no wheel for pre-Turing GPUs.
    env_data["releases"].append(
        {
            "version": "9.8",
            "python": ["3.11", "3.15", []],
            "cuda": ["13.0"],
            "rocm": "9.0",
            "url": "releases/9.8/#compatibility",
        }
    )
    # A support deprecated while it still ships (none is on the real content yet).
    env_data["stops"]["cuda"]["13.2"] |= {"deprecated": "2.14", "planned": "2.16"}
    targets = [r["version"] for r in env_data["releases"]][-7:] + ["9.9"]
    payload = {
        "normalise": queries,
        "shard": [[k, search.SHARDS] for k in keys],
        "plain": HOSTILE + texts,
        "tokens": pastes,
        "env": HOSTILE + ENV_LINES + envs,
        "answers": {"data": env_data, "cases": [[p, t] for p in ENV_LINES + envs for t in targets]},
    }
    messages = [
        m for c in changes for m in ([c["symptom"]] if isinstance(c.get("symptom"), str) else c.get("symptom", []))
    ]
    payload["kind"] = keys + ["13.2.2", "v2.14.1", "2.14.1.2.3", "1.", "196351", "2.8"]
    payload["symptom"] = [
        [m, p] for m in messages for p in [m, m.upper(), f"Traceback:\n  x\n{m}\n", m[3:20], m[:11], "torch"]
    ]
    payload["symptom"] += [[m, p] for m in HOSTILE[:40] for p in HOSTILE[:40:3]]
    payload["forms"] = keys + ["cuda graphs", "cuda-graphs", "class", "kernels", "bus", "fsdp2 wrappers"]
    payload["call"] = HOSTILE + CALLS + [t.split("\n")[0] for t in texts[:200]]
    corpus = [p.read_text(encoding="utf-8") for p in CORPUS]
    lines = [line for text in corpus for line in text.splitlines() if line.strip()]
    payload["uses"] = HOSTILE + CODE + corpus + lines
    site = real_model()
    records = [json.loads(api._release(r, site.release_views[r.version], (), "http://x/")) for r in site.releases]
    subjects = sorted({(tuple(c["subject"]), c["group"]) for r in records for c in r["change_list"] if c["subject"]})
    payload["used"] = {"subjects": [[list(s), g] for s, g in subjects], "pastes": CODE + corpus + lines[:150]}
    guides = [["2.9", "2.12", "rocm"], ["2.13", "2.14", "mps"], ["2.5", "2.8", "cuda"], ["2.11", "2.14", ""]]
    guides += [["2.13", "2.14", b] for b in ("cpu", "xpu", "distributed")]
    steps = [list(g) for g in content.UPGRADE_GROUPS]
    every = list(content.EVERY_BACKEND_GROUPS)
    payload["collect"] = {"releases": records, "steps": steps, "cases": guides, "everyBackend": every}
    python = {
        "normalise": [search.normalise(q) for q in payload["normalise"]],
        "shard": [search.shard(k) for k, _ in payload["shard"]],
        "plain": [textfilters.plain(t) for t in payload["plain"]],
        "tokens": [sorted(symbols.tokens(p)) for p in payload["tokens"]],
        "env": [envpaste.read(p) for p in payload["env"]],
        "answers": [envpaste.answers(envpaste.read(p), env_data, t) for p, t in payload["answers"]["cases"]],
        "kind": [search.query_kind(k) for k in payload["kind"]],
        "symptom": [search.symptom_matches(m, p) for m, p in payload["symptom"]],
        "forms": [search.name_forms(k) for k in payload["forms"]],
        "call": [_listed(search.pasted_call(t)) for t in payload["call"]],
        "uses": [[_use(u) for u in paste.uses(p)] for p in payload["uses"]],
        "used": [
            [paste.used(s, found, g) for s, g in payload["used"]["subjects"]]
            for found in map(paste.uses, payload["used"]["pastes"])
        ],
        "collect": [_guide_paths(site, *case) for case in guides],
    }
    payload["concerns"], python["concerns"] = _concerns()
    return {"input": payload, "python": python, "node": _node(payload)}


def _concerns() -> tuple[list, list]:
    """model.applies_to, `concerns` in the browser: every backend, and none, against lists of them."""
    backends = [b.id for b in real_model().content.backends]
    lists = [[], *([b] for b in backends), backends[1:3], backends, ["not-a-backend"]]
    inputs = [[b, backend] for b in lists for backend in ["", *backends, "not-a-backend"]]
    return inputs, [applies_to(tuple(b), backend) for b, backend in inputs]


def _use(use) -> dict:
    return asdict(use) | {"args": list(use.args)}


def _guide_paths(site, start: str, end: str, backend: str) -> dict:
    """enrich.guide's groups as the paths of their items (a change's or an entry's anchor): the
    reference for atlas-rules.js `collect` and `concerns`."""
    out = {}
    for group, items in enrich.guide(site, start, end, backend).items():
        out[group] = [
            urls.at(urls.release(i.change.release), i.anchor)
            if isinstance(i, ChangeView)
            else urls.at(urls.release(i.release), urls.entry_anchor(i.id))
            for i in items
        ]
    return out | {"elsewhere": {g: n for g, n in enrich.elsewhere(site, start, end, backend).items() if n}}


HELD = [
    "normalise",
    "shard",
    "plain",
    "tokens",
    "env",
    "answers",
    "kind",
    "symptom",
    "uses",
    "used",
    "forms",
    "call",
    "concerns",
]


@pytest.mark.parametrize("rule", [*HELD, "collect"])
def test_javascript_gives_the_python_answer(cases, rule):
    inputs, python, node = cases["input"][rule], cases["python"][rule], cases["node"][rule]
    if rule in ("answers", "collect"):
        inputs = inputs["cases"]
    elif rule == "used":
        inputs = inputs["pastes"]
    if rule == "collect":  # seven ranges and backends, each a whole guide; the page orders each group
        assert len(python) == len(node) == len(inputs) == 7
        python, node = (
            [{g: paths if g == "elsewhere" else sorted(paths) for g, paths in guide.items()} for guide in side]
            for side in (python, node)
        )
    else:
        assert len(inputs) >= 60 and len(python) == len(node) == len(inputs)
    differ = [(i, p, n) for i, p, n in zip(inputs, python, node, strict=True) if p != n]
    assert differ == [], f"{len(differ)} of {len(inputs)} differ (input, python, node), e.g. {differ[:3]}"


def test_the_inputs_reach_every_branch(cases):
    """Not vacuous: the inputs include PR numbers, calls, several names files, bullets and links
    to remove, flags and variables, pasted code of every kind of use, and both answers of each test."""
    python = cases["python"]
    assert {"158249", "12", "torch.compile", "torch.cat"} <= set(python["normalise"])
    assert len(set(python["shard"])) > 100
    assert "bold code link *em*" in python["plain"]
    assert {"Title of a 2.0 change (#95712)", "Move the op (#134877)", "a b c d"} <= set(python["plain"])
    assert "Deprecated private API torch._six (#94709)" in python["plain"]  # the notes wrote torch.\\_six
    assert True in python["concerns"] and False in python["concerns"]
    tokens = set().union(*map(set, python["tokens"]))
    assert {"--compile-mode", "TORCH_LOGS", "--ok-flag", "FOO_BAR"} <= tokens
    read = python["env"]
    assert {e["backend"] for e in read} >= {"cuda", "rocm", "mps", "xpu", "cpu", ""}
    assert {e["via"] for e in read} >= {"collect_torch", "pin", "listed", "wheel", "lock", "pipfile", ""}
    answered = [a for case in python["answers"] for a in case]
    assert {(a["topic"], a["ok"]) for a in answered} >= {
        (t, ok) for t in ("python", "cuda", "rocm", "gpu", "driver", "macos", "patch") for ok in (True, False)
    }
    assert any(a["evidence"] for a in answered) and any("notes decide" in a["text"] for a in answered)
    assert any("deprecated since" in a["text"] for a in answered)
    assert {"number", "version", "text"} <= set(python["kind"])
    assert True in python["symptom"] and False in python["symptom"]
    assert ["cuda graph", "cudagraph"] in python["forms"] and [] in python["forms"]
    assert ["profile", ["use_cuda"]] in python["call"] and None in python["call"]
    used = [u for found in python["uses"] for u in found]
    assert {"TORCH_LOGS", "TORCHINDUCTOR_X"} <= {u["env"] for u in used}
    assert {"--standalone", "--nproc-per-node"} <= {u["flag"] for u in used}
    assert {u["arg"] for u in used} >= {"fallback", "use_cuda", "alpha"}
    assert any(u["imported"] for u in used) and any(u["some_args"] for u in used)
    assert any(u["name"] is None and u["written"] == ".cholesky" for u in used)  # after a call: no alias
    matched = {m for row in python["used"] for m in row}
    assert "" in matched and {"torch.profiler.profile(use_cuda=)", "torch.load(!weights_only=)"} <= matched
    mps = python["collect"][1]  # 2.13 -> 2.14 on MPS: the use_cuda removal is everyone's
    records = cases["input"]["collect"]["releases"]
    (use_cuda,) = [c["path"] for r in records for c in r["change_list"] if 192543 in c["prs"]]
    assert use_cuda in mps["removals"]
    assert mps["elsewhere"] == {"known-issues": 1} and mps["known-issues"] == []  # 2.14 reports one, for ROCm


def test_the_browser_reads_the_number_of_names_files_the_build_wrote():
    """The scripts spell neither the index's paths nor its 1,024: the build writes them."""
    script = browser.files()[browser.DATA_FILE].decode()
    data = json.loads(script.split("window.atlasData = ", 1)[1].rstrip().removesuffix(";"))
    assert data["search"]["shards"] == search.SHARDS
    assert data["search"]["names"] == search.NAMES + "/"
    assets = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "templates" / "assets").glob("*.js"))
    for spelled in ("1024", "0x3ff", "search-names", "search-text", '"releases/"', "github.com"):
        assert spelled not in assets, spelled
