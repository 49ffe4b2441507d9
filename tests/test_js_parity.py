"""The browser's copies of Python rules give Python's answers: templates/assets/atlas-rules.js
run by Node (tests/js_parity.js) beside generator.search and generator.symbols on the same
inputs — the real content's change texts and names, and hostile and Unicode text.

JavaScript and Python differ where it is easy to miss: what counts as whitespace (`\\s`,
`str.split`), what `\\w`, `\\b` and `\\d` mean outside ASCII, string length (UTF-16 units against
code points). Each of those has an input here."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
import yaml

from generator import browser, search, symbols
from tests.conftest import ROOT

RULES = ROOT / "templates" / "assets" / "atlas-rules.js"
HARNESS = ROOT / "tests" / "js_parity.js"

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
    "line one\nline two\n  - three",
    "x" * 5000,
    "\u00e9" * 300 + " " + "\U0001f525" * 300,
]


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
    payload = {
        "normalise": queries,
        "shard": [[k, search.SHARDS] for k in keys],
        "plain": HOSTILE + texts,
        "tokens": pastes,
        "matches": [[list(f), p] for f in found[:200] for p in HOSTILE[17:22] + [texts[0]]]
        + [[[n], n] for n in names[:200]]
        + [[["torch.a.abcdefgh"], "abcdefgh"], [["torch.a.\U0001f525" * 3], "\U0001f525" * 3]],
    }
    messages = [
        m for c in changes for m in ([c["symptom"]] if isinstance(c.get("symptom"), str) else c.get("symptom", []))
    ]
    payload["kind"] = keys + ["13.2.2", "v2.14.1", "2.14.1.2.3", "1.", "196351", "2.8"]
    payload["symptom"] = [
        [m, p] for m in messages for p in [m, m.upper(), f"Traceback:\n  x\n{m}\n", m[3:20], m[:11], "torch"]
    ]
    payload["symptom"] += [[m, p] for m in HOSTILE[:40] for p in HOSTILE[:40:3]]
    python = {
        "normalise": [search.normalise(q) for q in payload["normalise"]],
        "shard": [search.shard(k) for k, _ in payload["shard"]],
        "plain": [search.plain(t) for t in payload["plain"]],
        "tokens": [sorted(symbols.tokens(p)) for p in payload["tokens"]],
        "matches": [symbols.matches(tuple(s), symbols.tokens(p)) for s, p in payload["matches"]],
        "kind": [search.query_kind(k) for k in payload["kind"]],
        "symptom": [search.symptom_matches(m, p) for m, p in payload["symptom"]],
    }
    return {"input": payload, "python": python, "node": _node(payload)}


@pytest.mark.parametrize("rule", ["normalise", "shard", "plain", "tokens", "matches", "kind", "symptom"])
def test_javascript_gives_the_python_answer(cases, rule):
    inputs, python, node = cases["input"][rule], cases["python"][rule], cases["node"][rule]
    assert len(inputs) >= 60 and len(python) == len(node) == len(inputs)
    differ = [(i, p, n) for i, p, n in zip(inputs, python, node, strict=True) if p != n]
    assert differ == [], f"{len(differ)} of {len(inputs)} differ (input, python, node), e.g. {differ[:3]}"


def test_the_inputs_reach_every_branch(cases):
    """Not vacuous: the inputs include PR numbers, calls, several names files, bullets and links
    to remove, flags and variables, and both answers of `matches`."""
    python = cases["python"]
    assert {"158249", "12", "torch.compile", "torch.cat"} <= set(python["normalise"])
    assert len(set(python["shard"])) > 100
    assert "bold code link *em*" in python["plain"]
    tokens = set().union(*map(set, python["tokens"]))
    assert {"--compile-mode", "TORCH_LOGS", "--ok-flag", "FOO_BAR"} <= tokens
    assert True in python["matches"] and False in python["matches"]
    assert {"number", "version", "text"} <= set(python["kind"])
    assert True in python["symptom"] and False in python["symptom"]


def test_the_browser_reads_the_number_of_names_files_the_build_wrote():
    """The scripts spell neither the index's paths nor its 1,024: the build writes them."""
    script = browser.files()[browser.DATA_FILE].decode()
    data = json.loads(script.split("window.atlasData = ", 1)[1].rstrip().removesuffix(";"))
    assert data["search"]["shards"] == search.SHARDS
    assert data["search"]["names"] == search.NAMES + "/"
    assets = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "templates" / "assets").glob("*.js"))
    for spelled in ("1024", "0x3ff", "search-names", "pagefind/", '"releases/"', "github.com"):
        assert spelled not in assets, spelled
