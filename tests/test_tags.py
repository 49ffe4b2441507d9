"""Tags with a rule (issue #22): a change under an area heading that the catalogue gives a default
feature carries that feature, unless a hand tag or an entry's PR already puts it in the feature or
one of its members. Computed in the enrich stage; shown on pages and in the JSON API."""

from __future__ import annotations

import json
from pathlib import Path

from generator.enrich.changeviews import area_default, area_rules, derived_features
from generator.enrich.enrich import enrich
from generator.load.load import load
from generator.model.content import CatalogueFeature
from tests.conftest import real_model
from tests.helpers import CATALOGUE, edit, problems


def feature(fid: str, parent: str | None = None, *areas: str) -> CatalogueFeature:
    return CatalogueFeature(
        fid, fid, "compiler", parent, (), (), "About.", None, "features/x.yaml", 1, change_areas=areas
    )


RULES = area_rules(
    (
        feature("compile", None, "torch.compile"),
        feature("inductor", "compile", "Inductor", "torch.compile › Inductor"),
        feature("inductor-cutlass", "inductor"),
        feature("distributed", None, "Distributed"),
        feature("dtensor", "distributed", "Distributed › DTensor"),
        feature("flex", None),
    )
)


def test_a_change_takes_its_areas_default_feature():
    assert derived_features("Inductor", (), RULES) == ("inductor",)
    assert derived_features("torch.compile › Inductor › Introduced new config settings", (), RULES) == ("inductor",)
    assert derived_features("torch.compile", (), RULES) == ("compile",)
    assert derived_features("Python Frontend", (), RULES) == ()


def test_the_longest_heading_wins_and_case_does_not_matter():
    assert derived_features("distributed › dtensor", (), RULES) == ("dtensor",)
    assert derived_features("Distributed › c10d", (), RULES) == ("distributed",)
    assert area_default("DISTRIBUTED", RULES)[1] == "distributed"
    assert area_default("Distributed Checkpoint", RULES) is None  # a heading is matched part by part


def test_a_tag_in_the_family_overrides_the_default_and_one_outside_it_does_not():
    assert derived_features("Inductor", ("inductor-cutlass",), RULES) == ()
    assert derived_features("Inductor", ("inductor",), RULES) == ()
    assert derived_features("Inductor", ("flex",), RULES) == ("inductor",)
    assert derived_features("Distributed › DTensor", ("distributed",), RULES) == ("dtensor",)


def test_a_heading_claimed_by_two_features_is_refused(content_copy):
    edit(
        content_copy,
        "    about: A mesh of devices.",
        "    change_areas: [Distributed]\n    about: A mesh of devices.",
        CATALOGUE,
    )
    edit(
        content_copy,
        "    about: Compiles widgets ahead of time.",
        "    change_areas: [distributed, CUDA]\n    about: Compiles widgets ahead of time.",
        CATALOGUE,
    )
    assert problems(content_copy) == [
        "features/fixture.yaml:21:20: features[3].change_areas[0]: area heading 'Distributed' is already the "
        "default of 'widget-compiler': a change's area may default to one feature only"
    ]


def test_the_fixture_change_gets_the_default_and_the_page_shows_it(content_copy):
    edit(
        content_copy,
        "    about: A mesh of devices.",
        "    change_areas: [Distributed]\n    about: A mesh of devices.",
        CATALOGUE,
    )
    site = enrich(load(content_copy))
    views = {v.change.area: v for s in site.release_views["2.8"].sections for a in s.areas for v in a.changes}
    c10d = views["Distributed › c10d"]
    assert c10d.derived == ("mesh",) and "mesh" in c10d.features
    assert [v for _, v in site.feature_changes["mesh"]] == [c10d]  # the feature's page lists it
    assert views["CUDA"].derived == ()


def test_every_change_of_the_real_content_in_a_defaulted_area_carries_that_family():
    """Applied to all change lists: no Inductor, Dynamo, export, distributed, MPS, XPU or ROCm
    change is left without its family or a member of it."""
    site = real_model()
    rules = area_rules(site.content.catalogue)
    checked = 0
    for release in site.releases:
        for s in site.release_views[release.version].sections:
            for a in s.areas:
                for v in a.changes:
                    rule = area_default(v.change.area, rules)
                    if rule is None:
                        continue
                    checked += 1
                    assert any(f in rule[2] for f in v.features), (release.version, v.change.text[:80])
                    assert set(v.derived) <= {rule[1]}
    assert checked > 2500


def test_the_api_says_how_each_change_got_each_feature(real_site: Path):
    data = json.loads((real_site / "api/v1/releases/2.12.json").read_text(encoding="utf-8"))
    sources = {f["source"] for c in data["change_list"] for f in c["features"]}
    assert sources == {"tag", "area", "entry"}
    symm = next(c for c in data["change_list"] if "Avoid two probes when inserting handle" in c["text"])
    assert {"id": "symmetric-memory", "source": "tag"} in symm["features"]
    dynamo = [
        c for c in data["change_list"] if c["area"] == "Dynamo" and not any(f["source"] == "tag" for f in c["features"])
    ]
    assert dynamo and all({"id": "torchdynamo", "source": "area"} in c["features"] for c in dynamo)
