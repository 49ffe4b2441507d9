"""make bench's report (bench/report.py) and its reference workload (bench/ref.py): every build
figure beside its ratio to the reference timed in the same run, and the largest page of each kind."""

from __future__ import annotations

import markdown

from bench import ref, report


def test_the_reference_workload_converts_a_fixed_document_through_every_extension_it_names():
    text = ref.document()
    assert text == ref.document() and text.count("## Section ") == ref.SECTIONS == 3000
    html = markdown.markdown("\n\n".join(ref.section(i) for i in range(3)), extensions=list(ref.EXTENSIONS))
    assert html.count("<table>") == 3 and html.count('<h2 id="section-') == 3  # tables, toc
    assert '<span class="x">raw 2</span>' in html and "<em>1</em>" in html and "<code>code</code>" in html


def test_a_figure_is_printed_beside_its_ratio_to_the_reference():
    assert report.secs(4.27) == "4.27"
    assert report.secs(4.27, 1.22) == "4.27 (3.5×)"
    assert report.secs(None, 1.22) == "—"
    assert report.secs(0.41, 1.22) == "0.41 (0.34×)" and report.secs(298.3, 1.22) == "298.30 (245×)"


def _run(total: float) -> dict:
    return {
        "scale": 1,
        "status": "ok",
        "total_seconds": total,
        "generate_seconds": 1.0,
        "mkdocs_seconds": total - 1.0,
        "bytes_per_page": 30_000,
        "largest_page": ("releases/2.14/index.html", 569_000),
        "largest_by_kind": {"backend": ["backends/cuda/", 80_135], "release": ["releases/2.14/", 569_000]},
    }


def test_the_one_x_build_is_held_to_four_times_the_reference():
    def verdict(total: float, reference: float | None) -> tuple[str, str]:
        found = [(v, m) for v, name, m in report.targets([_run(total)], 600, reference) if "reference" in name]
        assert len(found) == 1
        return found[0]

    assert verdict(4.8, 1.2) == ("PASS", "4.00× (4.80 s against 1.20 s)")
    assert verdict(4.9, 1.2)[0] == "MISS"
    assert verdict(4.9, None)[0] == "SKIP"
    row = report.table([_run(4.8)], 1.2).splitlines()[2]
    assert "| 1.00 (0.83×) | 3.80 (3.2×) | 4.80 (4.0×) |" in row


def test_the_kinds_table_has_a_row_per_kind_and_a_column_per_scale():
    ten = _run(48.0) | {"scale": 10, "largest_by_kind": {"backend": ["backends/cuda/", 864_000]}}
    rows = report.kinds_table([_run(4.8), ten]).splitlines()
    assert rows[0] == "| Page kind | 1× | 10× |"
    assert rows[2] == "| backend | 80.1 kB (`/backends/cuda/`) | 864 kB (`/backends/cuda/`) |"
    assert rows[3] == "| release | 569 kB (`/releases/2.14/`) | — |"


def test_the_benchmark_build_runs_end_to_end_on_the_fixture(tmp_path):
    """bench.run, what `make bench` runs at each scale, builds the fixture and times its one-file
    edit: a rename in the pipeline that only the benchmark calls fails here, not in a long bench run."""
    import json
    import shutil
    import subprocess
    import sys

    from tests.conftest import FIXTURE, ROOT

    content = tmp_path / "content"
    shutil.copytree(FIXTURE, content)
    newest = sorted((content / "releases").glob("*.yaml"), key=lambda p: [int(n) for n in p.stem.split(".")])[-1]
    args = ["--content", str(content), "--docs", str(tmp_path / "docs"), "--site", str(tmp_path / "site")]
    proc = subprocess.run(
        [sys.executable, "-m", "bench.run", *args, "--edit", f"releases/{newest.name}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    stages = {r["stage"]: r for r in map(json.loads, proc.stdout.splitlines())}
    assert {"generate", "mkdocs", "pages", "regenerate-edit"} <= stages.keys()
    assert stages["pages"]["by_kind"]["release"][0].startswith("releases/")
    edit = stages["regenerate-edit"]
    assert f"releases/{newest.stem}/index.md" in edit["written"] and not edit["changed_without_edit"]
    # When the search index's chain and MkDocs ended, for "Where the time goes": in their order.
    moments = stages["mkdocs"]["moments"]
    chain = [moments[f"index_{step}"] for step in ("started", "records", "indexed")]
    assert chain == sorted(chain) and moments["html_end"] > chain[0]


def test_the_time_split_says_which_chain_the_build_waited_for():
    moments = {"index_started": 1.1, "index_records": 1.76, "index_indexed": 4.42}
    assert report.chains(moments) == []  # without MkDocs' end there is nothing to compare
    said = " ".join(report.chains(moments | {"html_end": 4.3}))
    assert "had written the index at 4.42 s, 2.66 s later. MkDocs ended at 4.30 s." in said
    assert "The later was the search index, by 0.12 s" in said
    assert "The later was MkDocs, by 0.50 s" in " ".join(report.chains(moments | {"html_end": 4.92}))
