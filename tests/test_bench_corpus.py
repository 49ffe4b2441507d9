"""make bench builds synthetic corpora from the real content: one twice its size must pass check,
or the benchmark measures nothing at 10× and 50× (it reports "invalid corpus")."""

from __future__ import annotations

from bench.corpus import make_corpus
from generator.pipeline.build import site_model
from tests.conftest import ROOT, real_model


def test_a_synthetic_corpus_twice_the_real_one_is_valid_content(tmp_path):
    corpus = make_corpus(ROOT / "content", tmp_path / "content", 2)
    site = site_model(corpus)
    real = real_model()
    assert len(site.releases) == 2 * len(real.releases)
    assert sum(len(r.changes) for r in site.releases) == 2 * sum(len(r.changes) for r in real.releases)
