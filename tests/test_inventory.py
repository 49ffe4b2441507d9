"""/objects.inv (generator/render/inventory.py), read by sphobjinv, a reader of Sphinx inventories not
written by us: what it lists, and that every entry lands on a page and an id that exist."""

from __future__ import annotations

import re
from collections import Counter

import pytest
import sphobjinv

from generator.pipeline.build import site_model
from generator.render import inventory
from tests.conftest import FIXTURE, real_model


@pytest.fixture(scope="module")
def read(fixture_site) -> sphobjinv.Inventory:
    return sphobjinv.Inventory(fixture_site / "objects.inv")


def test_the_inventory_is_a_sphinx_inventory_of_the_atlas(read):
    model = site_model(FIXTURE)
    assert (read.project, read.version) == ("PyTorch Release Atlas", model.latest.version)
    listed = {(o.domain, o.role, o.name): o for o in read.objects}
    for feature in model.features:
        assert listed["std", "label", feature.id].dispname_expanded == feature.title
        assert ("std", "doc", f"features/{feature.id}") in listed
    for release in model.releases:
        assert listed["std", "label", f"pytorch-{release.version}"].uri_expanded == f"releases/{release.version}/"
    changes = [
        v for r in model.releases for s in model.release_views[r.version].sections for a in s.areas for v in a.changes
    ]
    assert changes
    for view in changes:
        entry = listed["std", "label", f"2.8/{view.anchor}"]
        assert entry.uri_expanded == f"releases/2.8/#{view.anchor}"
    names = {s.name for m in model.symbol_pages.values() for s in m.symbols}
    assert names and names <= {o.name for o in read.objects if o.domain == "py"}


def test_every_entry_lands_on_a_page_and_an_id_that_exist(read, fixture_site):
    for entry in read.objects:
        path, _, anchor = entry.uri_expanded.partition("#")
        page = fixture_site / path / "index.html"
        assert page.is_file(), entry.name
        if anchor:
            assert re.search(rf'\bid="{re.escape(anchor)}"', page.read_text(encoding="utf-8")), entry.name


def test_the_short_forms_of_the_format_are_used_and_read_back(read, fixture_site):
    raw = inventory_lines(fixture_site.joinpath("objects.inv").read_bytes())
    assert "torch.cat py:function 1 symbols/torch/#$ -" in raw
    cat = next(o for o in read.objects if o.name == "torch.cat")
    assert (cat.uri_expanded, cat.dispname_expanded) == ("symbols/torch/#torch.cat", "torch.cat")


def inventory_lines(data: bytes) -> list[str]:
    import zlib

    head = b"".join(data.splitlines(keepends=True)[:4])
    assert head.startswith(b"# Sphinx inventory version 2\n")
    return zlib.decompress(data[len(head) :]).decode("utf-8").splitlines()


def test_the_real_inventory_names_each_thing_once():
    model = real_model()
    entries = inventory.objects(model)
    assert not [k for k, n in Counter((name, role) for name, role, _, _ in entries).items() if n > 1]
    changes = sum(
        len(a.changes) for r in model.releases for s in model.release_views[r.version].sections for a in s.areas
    )
    assert Counter(role for _, role, uri, _ in entries if "#c-" in uri)["std:label"] == changes
    data = inventory.inventory(entries, model.latest.version)
    assert len(sphobjinv.Inventory(zlib=data).objects) == len(entries)
    assert inventory.inventory(inventory.objects(model), model.latest.version) == data  # the same bytes each time
