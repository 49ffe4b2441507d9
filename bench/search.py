"""Search in the browser, for `make bench`: what a first visit plus a first search downloads, how
long a result takes after the last keystroke, and how often the query set lands first.

    python -m bench.search SITE [--page releases/2.12/] [--quality]

SITE is a built site folder; it is served on 127.0.0.1 and opened in headless Chromium with an
empty cache. Transfer: every response body of a first visit to the page (until the network is
idle) and of one search typed into the header's box. Latency: from the input event of the last
keystroke to the results list showing that query, for the first search (typed a key every 80 ms
after a click in the box, which starts loading the engine) and the median of the searches after
it. Quality (--quality): tests/data/search_queries.yaml,
the share of queries whose wanted page comes first and in the top three.
Prints one JSON object. A benchmark: it asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

import yaml

from tests.browser import CHROMIUM, CHROMIUM_ARGS, SEARCH_QUERIES, query_ranks, serve, visit

TIMED = ["torch.compile", "FlexAttention", "scaled_dot_product_attention", "158249", "ROCm", "deprecations"]

_TIME_ONE = """async (query) => {
  const box = document.getElementById("atlas-q");
  const list = document.querySelector(".atlas-search__results");
  box.value = query.slice(0, -1);
  const shown = new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (list.dataset.query === query) { observer.disconnect(); resolve(performance.now()); }
    });
    observer.observe(list, { attributes: true, attributeFilter: ["data-query"] });
  });
  const started = performance.now();
  box.value = query;
  box.dispatchEvent(new Event("input", { bubbles: true }));
  return (await shown) - started;
}"""


def measure(site: Path, page_path: str, quality: bool) -> dict:
    from playwright.sync_api import sync_playwright

    out: dict = {"page": page_path}
    with serve(site) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1400, "height": 900}, service_workers="block")
        page = context.new_page()
        sizes: list[tuple[str, int]] = []

        def finished(request) -> None:
            sizes.append((request.url, request.sizes()["responseBodySize"]))

        page.on("requestfinished", finished)
        visit(page, base + page_path)  # its scripts run, then the network quiet
        out["visit_bytes"] = sum(n for _, n in sizes)
        visited = len(sizes)
        page.locator("#atlas-q").click()  # a reader clicks the box and types (a key every 80 ms) ...
        page.keyboard.type(TIMED[0][:-1], delay=80)
        out["first_search_ms"] = round(page.evaluate(_TIME_ONE, TIMED[0]), 1)  # ... and the last key
        page.wait_for_load_state("networkidle")
        out["search_bytes"] = sum(n for _, n in sizes[visited:])
        out["search_requests"] = [url.removeprefix(base) for url, _ in sizes[visited:]]
        out["first_visit_and_search_bytes"] = out["visit_bytes"] + out["search_bytes"]
        # What the bytes are, largest first (repeats summed): what to cut next.
        out["largest_responses"] = _largest([(url.removeprefix(base), n) for url, n in sizes])
        # Counted: the visit and the first search. A request still finishing when the browser
        # closes would ask its sizes of a closed page.
        page.remove_listener("requestfinished", finished)
        warm = [page.evaluate(_TIME_ONE, q) for q in TIMED[1:]]
        out["median_search_ms"] = round(statistics.median(warm), 1)
        out["slowest_search_ms"] = round(max(warm), 1)
        if quality:
            ranks = query_ranks(page, base, yaml.safe_load(SEARCH_QUERIES.read_text(encoding="utf-8")))
            out.update(
                queries=len(ranks),
                first=sum(rank == 1 for rank, _ in ranks.values()),
                top3=sum(rank is not None and rank <= 3 for rank, _ in ranks.values()),
                not_first={
                    q: {"rank": rank, "first": (paths or [None])[0]} for q, (rank, paths) in ranks.items() if rank != 1
                },
            )
        browser.close()
    return out


def _largest(sizes: list[tuple[str, int]], count: int = 12) -> dict[str, int]:
    """The `count` largest responses by path (a query string dropped, repeats summed), largest first."""
    total: dict[str, int] = {}
    for url, n in sizes:
        path = url.partition("?")[0]
        total[path] = total.get(path, 0) + max(n, 0)
    return dict(sorted(total.items(), key=lambda item: (-item[1], item[0]))[:count])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.search", description=__doc__.split("\n\n")[0])
    p.add_argument("site", type=Path)
    p.add_argument("--page", default="releases/2.12/", help="the page of the first visit (default releases/2.12/)")
    p.add_argument("--quality", action="store_true", help="also type the query set")
    args = p.parse_args(argv)
    print(json.dumps(measure(args.site, args.page, args.quality)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
