"""Release notes stored as SQL INSERTs (2.3's copy) and a 2.0-style draft, read by the importer."""

from __future__ import annotations

import functools

import yaml

from generator.notes import sql as _sql_notes
from generator.notes.importer import parse_notes, render_changes_yaml
from tests.conftest import run_cli
from tests.helpers import NOTES_FILES, SOURCES

# Two sections as the 2.3 copy stores them: the title may end with a line break, quotes are
# escaped, area names are plain lines, an explanation follows its change, code follows a table's
# header row of versions.
SQL = """CREATE TABLE IF NOT EXISTS default.library_updates
(
    update_type  String,
    update_notes String
);

INSERT INTO default.library_updates (library_name, old_version, new_version, release_date, update_type, update_notes)
VALUES ('pytorch', '2.2.2', '2.3.0', '2024-04-26', 'Highligts', 'We are excited (no PRs here)');

INSERT INTO default.library_updates (library_name, old_version, new_version, release_date, update_type, update_notes)
VALUES ('pytorch', '2.2.2', '2.3.0', '2024-04-26', 'Backwards Incompatible Changes
         ', 'Remove deprecated widget API\\'s (#101)
         Callers of widget() must use gadget() now, as #107 discussed at length.

         2.2  2.3
         # Version 2.2
         widget(x)
         torch.export
         Remove CallSpec (#102)
         Releng
         CircleCI jobs are all gone now.');
INSERT
INTO default.library_updates (library_name, old_version, new_version, release_date, update_type, update_notes)
VALUES ('pytorch', '2.2.2', '2.3.0', '2024-04-26', 'Bug fixes', 'torch.export
         Fix a crash (#103)
         Distributed API
         C10d:
         Fix a hang (#104), and a leak (#105)
         Releng
         Fix wheels (#106)');

INSERT INTO FUNCTION s3('url')
SELECT update_type, update_notes FROM default.library_updates;
"""


def test_an_sql_copy_is_recognised_and_markdown_is_not():
    assert _sql_notes.is_sql_copy(SQL)
    assert not _sql_notes.is_sql_copy("# PyTorch 2.3 Release Notes\n# Bug fixes\n- Fixed it (#1)\n")


def test_each_insert_is_a_section_and_each_pr_citing_line_a_change():
    changes = parse_notes(SQL, "n.sql.md").changes
    assert [(c.section, c.area, c.prs) for c in changes] == [
        ("bc-breaking", "", (101, 107)),  # a ref mid-sentence under a change is its explanation
        ("bc-breaking", "torch.export", (102,)),
        ("bc-breaking", "Releng", ()),  # a change citing no PR, under an area name
        ("bug-fixes", "torch.export", (103,)),
        ("bug-fixes", "Distributed API › C10d", (104, 105)),
        ("bug-fixes", "Releng", (106,)),
    ]
    assert changes[0].text.startswith("- Remove deprecated widget API's (#101)")  # unescaped


def test_the_markdown_keeps_the_sql_files_line_numbers():
    """A warning or a refusal names the line of the SQL file the change is on."""
    lines = SQL.split("\n")
    for change in parse_notes(SQL, "n.sql.md").changes:
        if change.prs:
            assert f"(#{change.prs[0]})" in lines[change.line - 1], change
    markdown = _sql_notes.to_markdown(SQL).split("\n")
    assert len(markdown) == len(lines)
    assert markdown[lines.index("INSERT")] == "# Bug fixes"


def test_explanations_versions_rows_and_code_are_no_change_and_no_area():
    data = yaml.safe_load(
        render_changes_yaml("2.3", "https://example.org/n", parse_notes(SQL, "n.sql.md").changes, None)
    )
    texts = [c["text"] for c in data["changes"]]
    assert texts[0] == "- Remove deprecated widget API's (#101)"  # the record line alone
    assert not any("gadget" in t or "widget(x)" in t or "2.2  2.3" in t for t in texts)
    assert all("2.2" not in c["area"] and "Version" not in c["area"] for c in data["changes"])


def test_a_misspelt_section_title_is_read_as_the_section_it_is_one_slip_from():
    assert _sql_notes.section_title("Highligts") == "highlights"
    assert _sql_notes.section_title("Bug fixes") == "Bug fixes"
    assert _sql_notes.section_title("Odds and ends") == "Odds and ends"


def test_import_notes_writes_an_sql_copy(tmp_path):
    notes = tmp_path / "release-notes-v2.3.0.sql-copy.md"
    notes.write_text(SQL, encoding="utf-8")
    out = tmp_path / "2.3.yaml"
    proc = run_cli("import-notes", str(notes), "--release", "2.3", "--output", str(out))
    assert proc.returncode == 0, proc.stderr
    data = yaml.safe_load(out.read_text(encoding="utf-8"))
    assert sorted(n for c in data["changes"] for n in c["prs"]) == [101, 102, 103, 104, 105, 106, 107]


# The 2.0 draft's breaking changes: bold `###` headings carrying their PR, with a table of two
# code blocks ("1.13" / "2.0") and prose under them; a bold heading without a PR over `####` ones.
DRAFT = """# PyTorch 2.0 Release notes

# Highlights

- &lt;Summary to be provided>

# Backwards Incompatible changes

### **Gradients are now `None` by default in `zero_grad()` (#92731)**

This changes the default.

<table>
<tr>
<th>1.13</th>
<th>2.0</th>
</tr>
<tr>
<td>

```Python
# Version 1.13 (#1)
>>> module.zero_grad()
```

</td>
</tr>
</table>

### **C++ API specific BC-Breaking Changes:**

#### **Deleted torch::deploy from PyTorch Core (#85953)**

Use the other package.

# Deprecations

## Python API

### **Deprecate TypedStorage (#85303)**

Use `untyped_storage()`.
"""


def test_a_draft_with_bold_headings_tables_and_code_gives_one_change_per_heading():
    changes = parse_notes(DRAFT, "draft.md").changes
    assert [(c.section, c.area, c.prs) for c in changes] == [
        ("bc-breaking", "", (92731,)),  # the #1 in the code is no PR
        ("bc-breaking", "C++ API specific BC-Breaking Changes", (85953,)),
        ("deprecations", "Python API", (85303,)),
    ]
    data = yaml.safe_load(render_changes_yaml("2.0", "https://example.org/n", changes, None))
    assert [c["text"] for c in data["changes"]] == [
        "### **Gradients are now `None` by default in `zero_grad()` (#92731)**",
        "#### **Deleted torch::deploy from PyTorch Core (#85953)**",
        "### **Deprecate TypedStorage (#85303)**",
    ]


def test_a_bold_heading_record_reads_as_plain_text_whole_or_cut():
    """A page that lists 2.0's breaking changes shows `### **Title (#PR)**` as its title, without
    the heading's bold: cut to a headline, its closing `**` would be lost and the opening one shown."""
    from generator.markup.textfilters import headline, record

    title = "### **Users doing wildcard import of " + "very " * 30 + "long names will break (#87917)**"
    assert "*" not in headline(title) and "<strong>" not in headline(title) and headline(title).endswith("…")
    assert str(record("#### **Deleted torch::deploy (#85953)**")).startswith("Deleted torch")
    assert "<strong>Bold</strong>" in record("- **Bold** start and **more** (#1)")  # bold inside a line stays


# --- Cases from the real copies (issue 45), each found in content/sources/ by its words ----------


def _source(name: str) -> str:
    return (SOURCES / name).read_text(encoding="utf-8")


def _sql_section(title: str, first: str, last: str) -> str:
    """A one-INSERT SQL copy of the lines of content/sources' 2.3 copy from `first` to `last`."""
    lines = _source(NOTES_FILES["2.3"]).split("\n")
    a = next(i for i, line in enumerate(lines) if line.strip().startswith(first))
    b = next(i for i in range(a, len(lines)) if lines[i].strip().startswith(last))
    body = "\n".join(lines[a : b + 1]).strip()
    return (
        "INSERT INTO default.library_updates (library_name, old_version, new_version, release_date, update_type, update_notes)\n"
        f"VALUES ('pytorch', '2.2.2', '2.3.0', '2024-04-26', '{title}', '{body}');\n"
    )


def _records(sql: str) -> list[tuple[str, str, tuple[int, ...]]]:
    changes = parse_notes(sql, "n.sql.md").changes
    data = yaml.safe_load(render_changes_yaml("2.3", "https://example.org/n", changes, None))["changes"]
    return [(c["area"], c["text"][:40], tuple(c["prs"])) for c in data]


def test_beta_feature_lines_are_changes_not_the_explanation_of_the_line_above():
    """2.3's headline, "(beta feature) torch.compile works with User defined triton kernels - …",
    sat under "Mutable variable trackers - …" and was read as its explanation: dropped."""
    records = _records(_sql_section("New Features", "Dynamo", "Create a sentinel file"))
    assert [r[1] for r in records] == [
        "- Mutable variable trackers - TorchDynam",
        "- (beta feature) Improved automatic dele",
        "- (beta feature) torch.compile works wit",
        "- (beta feature) Improved tracing rules ",
        "- Create a sentinel file for each dynamo",
    ]
    assert {r[0] for r in records} == {"Dynamo"}


def test_a_sentence_after_a_self_explained_change_and_a_title_after_a_change_are_changes():
    improvements = _records(
        _sql_section("Improvements", "Fewer graph breaks for dicts", "Improve TORCHDYNAMO_EXTENDED")
    )
    assert [r[1] for r in improvements] == [
        "- Fewer graph breaks for dicts - ConstDi",
        "- Improved TorchDynamo reliability by fi",
        "- Improve TORCHDYNAMO_EXTENDED_DEBUG for",
    ]
    docs = _records(
        _sql_section("Documentation", "Distributed Checkpointing (DCP):", "Add doc for torch.distributed.breakpoint")
    )
    texts = [r[1] for r in docs]
    assert "- Add torchrec even row-wise sharding ex" in texts
    # ...while a sentence under a change still explains it.
    explained = _records(_sql_section("Improvements", "Avoid mkldnn ops appearing", "Add decomp pixel_shuffle"))
    assert [r[1] for r in explained] == [
        "- Avoid mkldnn ops appearing in graph in",
        "- Add decomp pixel_shuffle/unshuffle (#1",
    ]


@functools.cache
def _whole_copy() -> dict[int, object]:
    """2.3's whole SQL copy, parsed: each change by its first PR (or issue)."""
    changes = parse_notes(_source(NOTES_FILES["2.3"]), "sql-copy.md").changes
    return {(c.prs or c.issues or (0,))[0]: c for c in changes}


def test_an_area_line_after_changes_is_a_sibling_of_their_area_not_its_child():
    """2.3: "DDP", one change, then "Functional Collectives" (18 changes were filed `DDP ›
    Functional Collectives`); "Distributed Checkpointing (DCP):", two changes, then "DTensor"
    and "Misc:"; "JIT", two changes, then "NestedTensors". A sub-area right under its area stays
    under it ("Distributed API" over "C10d")."""
    by_pr = _whole_copy()
    assert [by_pr[n].area for n in (110662, 119229, 121457)] == [
        "DDP",
        "Functional Collectives",
        "Functional Collectives",
    ]
    assert [by_pr[n].area for n in (121276, 115365, 115656)] == ["Distributed Checkpointing (DCP)", "DTensor", "Misc"]
    assert [by_pr[n].area for n in (113835, 118442)] == ["JIT", "NestedTensors"]
    assert [by_pr[n].area for n in (116222, 117038)] == ["Distributed API › C10d", "Distributed API › DDP"]


def test_a_reference_the_copy_cut_short_is_no_pr_and_a_tracked_regression_cites_its_issue():
    """2.3's "… multiple save_for_backward calls (#117" linked PR 117, an unrelated 2016 change;
    a whole number left unclosed is still its PR; a tracked regression's "(#124497)" is an issue."""
    cut = _records(_sql_section("Improvements", "Respect autograd.Function", "Support attribute access"))
    assert [r[2] for r in cut] == [(), (117666,)]
    whole = _records(_sql_section("Bug fixes", "Fix Conv Binary Inplace Fusion issue", "Fixed issue in upsample"))
    assert [r[2] for r in whole] == [(115153,), (117538,)]
    by_pr = _whole_copy()
    assert 117 not in by_pr
    tracked = [by_pr[n] for n in (124497, 123954, 120233)]
    assert [(c.section, c.prs, c.issues) for c in tracked] == [
        ("tracked-regressions", (), (n,)) for n in (124497, 123954, 120233)
    ]


def test_an_unbalanced_backtick_hides_no_pr_of_the_line():
    """2.0's draft: "torch.sparse.sampled_addmm`(#86401),`frac`, …" paired the stray backtick with
    the next one and lost the 7 PRs after it."""
    line = next(x for x in _source(NOTES_FILES["2.0"]).split("\n") if "sampled_addmm`(#86401)" in x)
    (change,) = parse_notes(f"# Improvements\n{line}\n", "draft.md").changes
    assert change.prs == (86203, 86300, 92979, 86401, 88153, 88156, 88442, 86749, 91695, 90718, 92248, 94829)
