"""Hostile content through the real CLI: exit code 1, one exact `path:line:col` line per problem,
never a traceback, and bounded time and memory for documents built to exhaust them.

tests/test_load.py checks the loader's messages in Python; here every kind of bad input goes
through `python -m generator` the way an author (or an attacker with a pull request) meets it.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import generator
from generator.load.yamlsrc import MAX_BYTES, MAX_DEPTH
from generator.markup import textfilters
from generator.markup.textfilters import _blocks, rich
from tests.conftest import run_cli
from tests.helpers import line_of, position

REL = "releases/2.8.yaml"


def edit(old: str, new: str, rel: str = REL) -> Callable[[Path], None]:
    """A mutation: replace the first `old` in content/rel by `new`."""

    def mutate(content: Path) -> None:
        path = content / rel
        text = path.read_text(encoding="utf-8")
        assert old in text, old
        path.write_text(text.replace(old, new, 1), encoding="utf-8")

    return mutate


def write(data: str | bytes, rel: str = REL) -> Callable[[Path], None]:
    """A mutation: replace content/rel by data."""

    def mutate(content: Path) -> None:
        (content / rel).write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))

    return mutate


def both(*mutations: Callable[[Path], None]) -> Callable[[Path], None]:
    def mutate(content: Path) -> None:
        for m in mutations:
            m(content)

    return mutate


def cli_problems(proc: subprocess.CompletedProcess, content: Path) -> list[str]:
    """The problem lines of a failed run, paths relative to content; checks what every failure shares."""
    output = proc.stdout + proc.stderr
    assert "Traceback" not in output, output
    assert proc.returncode == 1, output
    lines = proc.stderr.replace(f"{content}/", "").splitlines()
    count = len(lines) - 1
    assert lines[-1] == f"{count} problem{'s' if count != 1 else ''} found.", output
    return lines[:-1]


def at(text: str, message: str, rel: str = REL, after: int = 0) -> Callable[[Path], str]:
    """An expected problem line that points where `text` is in the edited content/rel (`after`
    characters into it): found, not pinned, so an edit of the fixture does not move it."""
    return lambda content: f"{rel}:{position(content / rel, text, after)}: {message}"


def expected_lines(expected: list, content: Path) -> list[str]:
    return [line(content) if callable(line) else line for line in expected]


def rename(old: str, new: str) -> Callable[[Path], None]:
    return lambda content: (content / old).rename(content / new)


# Each case: a mutation of the fixture content, and exactly the lines `check` must print.
CASES = {
    # YAML syntax
    "indented-too-far": (
        edit("    title: Mesh", "      title: Mesh"),
        [at("      title: Mesh", "YAML syntax error: mapping values are not allowed in this context", after=11)],
    ),
    "unclosed-quote-at-end": (
        edit(
            'removal: "2.9"\n    source: https://example.org/2.7\n',
            'removal: "2.9"\n    source: "https://example.org/2.7\n',
            "releases/2.7.yaml",
        ),
        [
            "releases/2.7.yaml:39:1: YAML syntax error: found unexpected end of stream"
            " (while scanning a quoted scalar that starts at line 38)"
        ],
    ),
    "two-documents": (
        edit("tier_vocabulary: api-stability\n", "tier_vocabulary: api-stability\n---\n"),
        [
            "releases/2.8.yaml:7:1: YAML syntax error: but found another document"
            " (expected a single document in the stream that starts at line 2)"
        ],
    ),
    "tab-indent": (
        edit("    summary: A mesh of devices.", "\tsummary: A mesh of devices."),
        [
            lambda c: (
                f"{REL}:{line_of(c / REL, chr(9))}:1: YAML syntax error: a tab character; YAML indents with spaces "
                f"only (while scanning a plain scalar that starts at line {line_of(c / REL, chr(9)) - 1})"
            )
        ],
    ),
    # Bytes that are not text
    "latin-1-byte": (
        lambda c: (c / REL).write_bytes((c / REL).read_bytes().replace(b"fixture", b"fixtur\xe9")),
        ["releases/2.8.yaml:7:27: not UTF-8: byte 0xe9 cannot be decoded"],
    ),
    "utf-16": (
        lambda c: (c / REL).write_bytes((c / REL).read_text(encoding="utf-8").encode("utf-16")),
        ["releases/2.8.yaml:1:1: not UTF-8: byte 0xff cannot be decoded"],
    ),
    "nul-byte": (
        edit("summary: The second", "summary: The\x00second"),
        ["releases/2.8.yaml:7:13: control character U+0000 is not allowed in YAML"],
    ),
    "escape-byte": (
        edit("    title: Mesh", "    title: \x1b[31mMesh"),
        [at("\x1b", "control character U+001B is not allowed in YAML")],
    ),
    # Empty files
    "empty": (write(""), ["releases/2.8.yaml:1:1: file is empty"]),
    "blank-lines": (write(" \n\n  \n"), ["releases/2.8.yaml:1:1: file is empty"]),
    "only-comments": (
        write("# yaml-language-server: $schema=x\n# nothing\n"),
        ["releases/2.8.yaml:1:1: file is empty"],
    ),
    "only-document-marker": (write("---\n"), ["releases/2.8.yaml:1:1: file is empty"]),
    "only-null": (write("~\n", "areas.yaml"), ["areas.yaml:1:1: file is empty"]),
    "a-list-not-a-mapping": (write("- a\n- b\n"), ["releases/2.8.yaml:1:1: ['a', 'b'] is not of type object"]),
    # Duplicate keys, which YAML would silently resolve to the last one
    "duplicate-top-level-key": (
        edit('previous: "2.7"', 'previous: "2.7"\nprevious: "2.6"'),
        ["releases/2.8.yaml:5:1: duplicate key 'previous' (YAML would silently keep only the last one)"],
    ),
    "duplicate-key-in-flow-mapping": (
        edit("counts: {commits: 200,", "counts: {commits: 200, commits: 300,"),
        ["releases/2.8.yaml:5:24: duplicate key 'commits' (YAML would silently keep only the last one)"],
    ),
    # Unknown keys get a did-you-mean
    "unknown-top-level-key": (
        edit("summary: The second", "sumary: The second"),
        [
            "releases/2.8.yaml:2:1: missing required field 'summary'",
            "releases/2.8.yaml:7:1: sumary: unknown field 'sumary' (did you mean 'summary'?)",
        ],
    ),
    "unknown-key-in-flow-mapping": (
        edit(
            'links: {notes: "https://example.org/notes/2.8"}',
            'links: {notes: "https://example.org/notes/2.8", blgo: "https://example.org/b"}',
        ),
        [at("blgo", "links.blgo: unknown field 'blgo' (did you mean 'blog'?)")],
    ),
    "unknown-key-in-registry": (
        edit("{id: mps, name: MPS,", "{id: mps, nmae: MPS,", "backends.yaml"),
        [
            "backends.yaml:4:5: backends[1]: missing required field 'name'",
            "backends.yaml:4:15: backends[1].nmae: unknown field 'nmae' (did you mean 'name'?)",
        ],
    ),
    # Versions written as numbers, dates that are not dates
    "unquoted-version-2.10": (
        both(
            edit('version: "2.8"', "version: 2.10"),
            rename(REL, "releases/2.10.yaml"),
            rename("changes/2.8.yaml", "changes/2.10.yaml"),
            edit('release: "2.8"', 'release: "2.10"', "changes/2.10.yaml"),
        ),
        [
            'releases/2.10.yaml:2:10: version: write the version in quotes, "2.10": unquoted, YAML reads 2.10 as the number 2.1'
        ],
    ),
    "unquoted-previous": (
        edit('previous: "2.7"', "previous: 2.7"),
        [
            'releases/2.8.yaml:4:11: previous: write the version in quotes, "2.7": unquoted, YAML reads 2.7 as the number 2.7'
        ],
    ),
    "unquoted-release-in-changes": (
        edit('release: "2.8"', "release: 2.8", "changes/2.8.yaml"),
        [
            'changes/2.8.yaml:2:10: release: write the version in quotes, "2.8": unquoted, YAML reads 2.8 as the number 2.8'
        ],
    ),
    "month-13": (
        edit("date: 2025-08-06", "date: 2025-13-01"),
        ["releases/2.8.yaml:3:7: date: '2025-13-01' is not a real date (YYYY-MM-DD)"],
    ),
    "date-in-words": (
        edit("date: 2025-08-06", "date: August 6, 2025"),
        [
            "releases/2.8.yaml:3:7: date: 'August 6, 2025' does not have the expected form (^[0-9]{4}-[0-9]{2}-[0-9]{2}$)",
            "releases/2.8.yaml:3:7: date: 'August 6, 2025' is not a real date (YYYY-MM-DD)",
        ],
    ),
    "patch-date-in-words": (
        edit('date: "2025-06"', 'date: "June 2025"', "releases/2.7.yaml"),
        [
            "releases/2.7.yaml:17:30: patches[0].date: 'June 2025' does not have the expected form (^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$)"
        ],
    ),
    # Ids become file names and URLs: no separators, no parent references
    "feature-id-with-slash": (
        edit("  - id: mesh", '  - id: "releases/mesh"'),
        [
            at(
                '"releases/mesh"',
                "features[1].id: 'releases/mesh' is not a valid id: use lowercase letters, digits, '.' and '-'",
            )
        ],
    ),
    "feature-id-with-backslash": (
        edit("  - id: mesh", '  - id: "..\\\\mesh"'),
        [
            at(
                '"..\\\\mesh"',
                "features[1].id: '..\\\\mesh' is not a valid id: use lowercase letters, digits, '.' and '-'",
            )
        ],
    ),
    "feature-id-climbing-up": (
        edit("  - id: mesh", '  - id: "../../etc/passwd"'),
        [
            at(
                '"../../etc/passwd"',
                "features[1].id: '../../etc/passwd' is not a valid id: use lowercase letters, digits, '.' and '-'",
            )
        ],
    ),
    "feature-id-with-dot-dot": (
        edit("  - id: mesh", "  - id: mesh..x"),
        [at("mesh..x", "features[1].id: 'mesh..x' is not a valid id: '..' is not allowed")],
    ),
    "backend-id-with-slash": (
        edit("{id: mps,", '{id: "m/ps",', "backends.yaml"),
        ["backends.yaml:4:10: backends[1].id: 'm/ps' is not a valid id: use lowercase letters, digits, '.' and '-'"],
    ),
    "area-id-climbing-up": (
        edit("{id: packaging,", '{id: "../packaging",', "areas.yaml"),
        ["areas.yaml:4:10: areas[1].id: '../packaging' is not a valid id: use lowercase letters, digits, '.' and '-'"],
    ),
    # Links: http(s) only
    "javascript-url": (
        edit('links: {notes: "https://example.org/notes/2.8"}', 'links: {notes: "javascript:alert(1)"}'),
        [at('"javascript:', "links.notes: not an http(s) URL: 'javascript:alert(1)'")],
    ),
    "javascript-url-mixed-case": (
        edit("    source: https://example.org/2.8\n  - id: mesh", "    source: JaVaScRiPt:alert(1)\n  - id: mesh"),
        [at("JaVaScRiPt", "features[0].source: not an http(s) URL: 'JaVaScRiPt:alert(1)'")],
    ),
    "data-url": (
        edit('source: "https://example.org/2.8"}', 'source: "data:text/html;base64,PHNjcmlwdD4="}'),
        ["releases/2.8.yaml:5:50: counts.source: not an http(s) URL: 'data:text/html;base64,PHNjcmlwdD4='"],
    ),
    "vbscript-url": (
        edit("source: https://example.org/notes/2.8", 'source: "vbscript:msgbox(1)"', "changes/2.8.yaml"),
        ["changes/2.8.yaml:3:9: source: not an http(s) URL: 'vbscript:msgbox(1)'"],
    ),
    "url-breaking-out-of-its-attribute": (
        edit(
            'links: {blog: "https://example.org/2.7"',
            "links: {blog: 'https://example.org/\"onmouseover=\"alert(1)'",
            "releases/2.7.yaml",
        ),
        ["releases/2.7.yaml:8:15: links.blog: not an http(s) URL: 'https://example.org/\"onmouseover=\"alert(1)'"],
    ),
    # Missing fields and registries
    "missing-top-level-field": (
        edit("date: 2025-08-06\n", ""),
        ["releases/2.8.yaml:2:1: missing required field 'date'"],
    ),
    "missing-feature-field": (
        edit("    source: https://example.org/2.7\n    highlight", "    highlight", "releases/2.7.yaml"),
        ["releases/2.7.yaml:19:5: features[0]: missing required field 'source'"],
    ),
    "missing-registry-file": (
        lambda c: (c / "tiers.yaml").unlink(),
        ["tiers.yaml:1:1: missing registry file tiers.yaml"],
    ),
    # References to ids that do not exist
    "unknown-tier": (
        edit("tier: api-stable", "tier: api-stabel"),
        [at("api-stabel", "features[0].tier: unknown tier 'api-stabel' (did you mean 'api-stable'?)")],
    ),
    "unknown-backend-in-a-change": (
        edit("    prs: [301]", "    prs: [301]\n    backends: [cdua]", "changes/2.8.yaml"),
        ["changes/2.8.yaml:9:16: changes[0].backends[0]: unknown backend 'cdua' (did you mean 'cuda'?)"],
    ),
    "unknown-equivalent-tier": (
        edit(
            "equivalent: [api-stable], abbr: S, description: Kept.}\n  - {id: api-unstable",
            "equivalent: [api-stabel], abbr: S, description: Kept.}\n  - {id: api-unstable",
            "tiers.yaml",
        ),
        ["tiers.yaml:18:92: tiers[2].equivalent[0]: unknown tier 'api-stabel' (did you mean 'api-stable'?)"],
    ),
    "one-letter-for-two-tier-labels": (
        edit("[api-unstable], abbr: B,", "[api-unstable], abbr: P,", "tiers.yaml"),
        ["tiers.yaml:17:107: tiers[1].abbr: abbreviation 'P' already stands for 'Prototype'"],
    ),
    "the-removed-tier-renamed": (
        edit("{id: removed,", "{id: gone,", "tiers.yaml"),
        ["tiers.yaml:16:3: tiers: no tier 'removed' of vocabulary 'all': the ledger and lifecycles need it"],
    ),
    "unknown-previous-release": (
        edit('previous: "2.7"', 'previous: "2.6"'),
        ["releases/2.8.yaml:4:11: previous: previous is 2.6, but the release before 2.8 is 2.7"],
    ),
    "changes-for-an-unknown-release": (
        both(
            rename("changes/2.8.yaml", "changes/2.9.yaml"), edit('release: "2.8"', 'release: "2.9"', "changes/2.9.yaml")
        ),
        ["changes/2.9.yaml:2:10: release: no release 2.9 in releases/ (did you mean '2.8'?)"],
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_check_points_at_the_problem(content_copy, case):
    mutate, expected = CASES[case]
    mutate(content_copy)
    proc = run_cli("check", "--content", str(content_copy))
    assert cli_problems(proc, content_copy) == expected_lines(expected, content_copy)


@pytest.mark.parametrize("case", ["nul-byte", "javascript-url", "feature-id-climbing-up", "unknown-tier"])
def test_build_stops_before_writing_anything(content_copy, tmp_path, case):
    mutate, expected = CASES[case]
    mutate(content_copy)
    proc = run_cli(
        "build", "--content", str(content_copy), "--site", str(tmp_path / "site"), "--docs", str(tmp_path / "docs")
    )
    assert cli_problems(proc, content_copy) == expected_lines(expected, content_copy)
    assert not (tmp_path / "site").exists() and not (tmp_path / "docs").exists()
    assert list(tmp_path.iterdir()) == [content_copy]  # no temporary folders either


# Exhaustion: documents small on disk that expand, nest or grow without bound.

LIMITED = """
import resource, runpy, sys
resource.setrlimit(resource.RLIMIT_AS, ({memory}, {memory}))
resource.setrlimit(resource.RLIMIT_CPU, ({cpu}, {cpu}))
sys.argv = ["generator", *sys.argv[1:]]
runpy.run_module("generator", run_name="__main__", alter_sys=True)
"""


def run_limited(*args: str, memory: int = 1 << 30, cpu: int = 10) -> subprocess.CompletedProcess:
    """The CLI under an address-space and CPU-time limit; returns the run.

    The limits are the bound: a run that expands a document past `memory` bytes or works past
    `cpu` seconds of processor time (about ten times what a refusal costs) is killed, so it
    fails `cli_problems` (exit code 1, no traceback). No wall-clock time is asserted.
    """
    return run_cli(*args, via=("-c", LIMITED.format(memory=memory, cpu=cpu)), timeout=60)


def billion_laughs(levels: int = 10) -> str:
    """Ten levels of ten aliases each: 10**10 strings if a loader expanded them."""
    lines = ['lol0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, levels):
        lines.append(f"lol{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]")
    return "\n".join(lines) + "\n"


def test_billion_laughs_is_refused_at_the_first_alias_in_bounded_time_and_memory(content_copy):
    write(billion_laughs())(content_copy)
    proc = run_limited("check", "--content", str(content_copy), memory=512 << 20)
    assert cli_problems(proc, content_copy) == [
        "releases/2.8.yaml:2:12: YAML anchors and aliases (*name) are not allowed in content"
    ]


def test_alias_inside_a_valid_release_is_refused_where_it_is_written(content_copy):
    edit("    source: https://example.org/2.8\n  - id: mesh", "    source: &src https://example.org/2.8\n  - id: mesh")(
        content_copy
    )
    edit("    source: https://example.org/2.8\n", "    source: *src\n")(content_copy)
    proc = run_cli("check", "--content", str(content_copy))
    assert cli_problems(proc, content_copy) == [
        at("*src", "YAML anchors and aliases (*name) are not allowed in content")(content_copy)
    ]


@pytest.mark.parametrize(
    "body, position",
    [
        # The root mapping is level 1; then one `[` (or `{b: `) a level.
        ("a: " + "[" * 200_000 + "]" * 200_000 + "\n", f"1:{3 + MAX_DEPTH}"),
        ("a: " + "{b: " * 50_000 + "1" + "}" * 50_000 + "\n", f"1:{4 * MAX_DEPTH}"),
        (
            "".join(f"{' ' * i}k{i}:\n" for i in range(MAX_DEPTH + 5)) + " " * (MAX_DEPTH + 5) + "x\n",
            f"{MAX_DEPTH + 1}:{MAX_DEPTH + 1}",
        ),
    ],
    ids=["lists", "mappings", "block-style"],
)
def test_deep_nesting_is_refused_without_crashing(content_copy, body, position):
    """Composers recurse once per level: unchecked, 50,000 `[` crash the interpreter (SIGSEGV)."""
    write(body)(content_copy)
    proc = run_limited("check", "--content", str(content_copy), memory=512 << 20)
    assert cli_problems(proc, content_copy) == [
        f"releases/2.8.yaml:{position}: lists and mappings nested more than {MAX_DEPTH} levels deep"
    ]


def test_oversized_file_is_refused_unread(content_copy):
    path = content_copy / REL
    path.write_bytes(path.read_bytes() + b"#" * (MAX_BYTES + 1 - path.stat().st_size))
    proc = run_limited("check", "--content", str(content_copy), memory=512 << 20)
    assert cli_problems(proc, content_copy) == [
        f"releases/2.8.yaml:1:1: file is {MAX_BYTES + 1:,} bytes; the limit is {MAX_BYTES:,}"
    ]


def test_file_of_exactly_the_limit_is_read(content_copy):
    path = content_copy / REL
    padding = MAX_BYTES - path.stat().st_size
    path.write_bytes(path.read_bytes() + b"#" + b"x" * (padding - 2) + b"\n")
    assert path.stat().st_size == MAX_BYTES
    proc = run_cli("check", "--content", str(content_copy))
    assert proc.returncode == 0, proc.stderr


def test_huge_value_in_an_error_is_shortened(content_copy):
    """A 3 MB title that breaks a rule gives a one-line message, not a 3 MB one."""
    edit("    title: Mesh", "    title: [" + "x" * 3_000_000 + "]")(content_copy)
    proc = run_cli("check", "--content", str(content_copy))
    [line] = cli_problems(proc, content_copy)
    assert line.startswith(at("title: [", "features[1].title: ", after=7)(content_copy)) and len(line) < 200


def _render_cost(body: str) -> float:
    """Processor time to render `body` inline and as blocks, every memo of the package emptied
    first (generator.clear_caches finds them all), so the run does the whole work."""
    generator.clear_caches()
    started = time.process_time()
    rich(body)
    _blocks(body + "\n\n" + body)
    return time.process_time() - started


def renders_in_linear_work(unit: str, size: int = 20_000, tries: int = 3) -> tuple[bool, float, float]:
    """Whether rendering `unit` repeated to `size` characters costs less than 8 times rendering a
    quarter of it, and the two costs of the last try (seconds of processor time).

    Linear work makes it about 4 times as long; rescanning the rest of the text from every mark
    makes it 16 times. Each try measures the quarter and then the whole, one right after the
    other, so both meet the same machine: other processes that slow one try (sharing the
    processor's caches) slow both its measurements. A try under the bound ends the guard; a
    quadratic renderer fails every try.
    """
    reps = size // len(unit)
    small = large = 0.0
    for _ in range(tries):
        small = max(_render_cost(unit * (reps // 4)), 1e-4)
        large = _render_cost(unit * reps)
        if large < 8 * small:
            return True, small, large
    return False, small, large


@pytest.mark.parametrize("unit", [" *a", "*a ", "**a", "`a", "[a](https://x"])
def test_long_text_full_of_markup_renders_in_linear_work(unit):
    """A change text may be 20 KB; rendering it may not rescan the text from every `*`.

    No wall-clock bound: the cost of a 20 KB text is compared, in this run, with that of a
    5 KB one.
    """
    linear, small, large = renders_in_linear_work(unit)
    assert linear, (small, large)


def test_the_linear_work_guard_fails_on_the_quadratic_emphasis(monkeypatch):
    """The guard above earns its place: with `_emphasis`'s bounded span put back to the unbounded
    lazy one it replaced (each `*` then rescans the rest of the text), the guard fails."""
    source = inspect.getsource(textfilters._emphasis)
    assert source.count("(.{1,600}?)") == 1, "the bounded emphasis span moved: update this mutation"
    namespace: dict = {}
    exec(source.replace("(.{1,600}?)", "(.+?)"), vars(textfilters), namespace)
    monkeypatch.setattr(textfilters, "_emphasis", namespace["_emphasis"])
    try:
        linear, small, large = renders_in_linear_work(" *a")
    finally:
        generator.clear_caches()  # no memo keeps what the mutant rendered
    assert not linear, (small, large)


def test_clear_caches_empties_every_memo_in_the_package():
    """Every memo decorator written in generator/ is one cache that clear_caches empties: a
    new memo cannot make the guard above measure a cache hit."""
    for module in pkgutil.walk_packages(generator.__path__, "generator."):
        importlib.import_module(module.name)
    decorator = re.compile(r"^\s*@(?:functools\.)?(?:lru_cache|cache)\b", re.MULTILINE)
    written = sum(
        len(decorator.findall(p.read_text(encoding="utf-8"))) for p in Path(generator.__file__).parent.rglob("*.py")
    )
    assert written > 0
    assert generator.clear_caches() == written
