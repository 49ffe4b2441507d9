"""`scan`'s precision and recall on the labelled corpus (tests/data/scan_corpus/, generator.tools.measure):

python -m bench.scan [--append FILE]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from bench.report import publish

ROOT = Path(__file__).resolve().parent.parent


def report() -> str:
    """The corpus figures as a Markdown section."""
    from generator.pipeline.build import site_model, site_url
    from generator.render import api
    from generator.tools import measure

    site = site_model(ROOT / "content")
    releases = [api.release_record(site, r.version, site_url()) for r in site.releases]
    score = measure.measure(ROOT / "tests" / "data" / "scan_corpus", releases)
    return (
        "\n## scan on the labelled corpus\n\n"
        f"{score.hazards} hazard lines ({len(score.expected)} findings labelled, {len(score.releases)} releases) and "
        f"{score.distractors} look-alike lines: precision {score.precision:.1%} "
        f"({len(score.true)} of {len(score.found)} findings labelled), recall {score.recall:.1%}.\n"
    )


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__)
    args.add_argument("--append", metavar="FILE", help="append the report to FILE (bench-out/results.md)")
    ns = args.parse_args()
    publish(report(), ns.append)


if __name__ == "__main__":
    main()
