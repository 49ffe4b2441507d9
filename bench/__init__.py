"""`make bench`: how fast the site builds, previews and searches (a benchmark, not a test).

    python -m bench         the build at 1x, 10x and 50x the real content (bench/scales.py)
    python -m bench.live    live-preview latency in Chromium (bench/live.py)
    python -m bench.search  search transfer, latency and quality on a built site (bench/search.py)

corpus.py writes the larger corpora, run.py is one build in its own process, report.py turns
the measurements into the site's "How fast is it" page (generator/benchmark.md).
"""
