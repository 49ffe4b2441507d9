"""The upgrade guide counts each step once in any range (issue 45, reader task 13): a change is
listed once, and a feature a step that asks something already tells (2.13's Bazel removal, a
breaking change citing the PR of the `bazel-build` removed entry) is not listed again under
another such step, nor again by a later release's entry (TorchScript, deprecated in 2.10, 2.11
and 2.12)."""

from __future__ import annotations

from collections import Counter

from generator.enrich.changeviews import ACTING_GROUPS
from generator.enrich.enrich import guide
from generator.model.content import version_key
from tests.conftest import real_model


def _told_twice(site, start: str, end: str, backend: str) -> list:
    """What the guide from `start` to `end` on `backend` tells twice."""
    changes, entries, told = Counter(), Counter(), {}  # told: (kind, feature) -> first release a change tells it
    for group, items in guide(site, start, end, backend).items():
        kind = "acts" if group in ACTING_GROUPS else group
        for item in items:
            if hasattr(item, "anchor"):  # a change view
                changes[(item.change.release, item.anchor)] += 1
                for f in item.features:
                    key = (kind, f)
                    told[key] = min(told.get(key, item.change.release), item.change.release, key=version_key)
            else:  # a feature entry
                entries[(kind, item.id, item.release)] += 1
    twice = [k for k, n in changes.items() if n > 1]
    per_feature = Counter((kind, f) for kind, f, _ in entries)
    for kind, f, release in entries:
        earlier = (kind, f) in told and version_key(told[(kind, f)]) <= version_key(release)
        if per_feature[(kind, f)] > 1 or earlier:
            twice.append((kind, f, release))
    return twice


def test_no_step_is_counted_twice_in_any_range_on_any_backend():
    site = real_model()
    versions, backends = site.versions, ["", *(b.id for b in site.content.backends)]
    ranges = [(a, b) for i, a in enumerate(versions) for b in versions[i + 1 :]]
    found = {(a, b, be): t for a, b in ranges for be in backends if (t := _told_twice(site, a, b, be))}
    assert not found, sorted(found.items())[:5]
    assert len(ranges) * len(backends) > 500


def _about(item) -> tuple[str, ...]:
    """The features a guide item tells: a change view's, or an entry's own."""
    return item.features if hasattr(item, "anchor") else (item.id,)


def test_the_cases_the_reader_met_are_told_once():
    site = real_model()
    groups = guide(site, "2.12", "2.14", "cuda")
    assert [g for g, items in groups.items() for i in items if "bazel-build" in _about(i)] == ["breaking"]
    assert [g for g, items in groups.items() for i in items if "python-3.13t-support" in _about(i)] == ["breaking"]
    older = guide(site, "2.9", "2.12", "rocm")  # 2.10's change tells it; 2.11's and 2.12's entries add nothing
    assert not [i for g in ACTING_GROUPS for i in older[g] if not hasattr(i, "anchor") and i.id == "torchscript"]
    told = [i.change.release for g in ACTING_GROUPS for i in older[g] if "torchscript" in getattr(i, "features", ())]
    assert min(told, key=version_key) == "2.10"
    cuda = {i.id: i.note for i in groups["removals"] if not hasattr(i, "anchor")}
    assert cuda["cuda-12.8-wheel"] and cuda["cuda-12.9-wheel"]  # each says what to do
    new = [getattr(i, "id", "") for i in guide(site, "2.9", "2.12", "rocm")["new"]]
    assert "release-cadence" not in new  # a schedule, not a feature


def test_a_release_page_step_and_the_api_tell_a_feature_once():
    """The release page's upgrade step and the API's `group` (which /upgrade/ and /compare/ read)
    follow the same rule: 2.13's Bazel removal is under Breaking changes only."""
    import json

    from generator.render.api import _release

    site = real_model()
    release = next(r for r in site.releases if r.version == "2.13")
    view = site.release_views["2.13"]
    listed = {(g.id, e.id) for g in view.upgrade for e in g.entries}
    assert not {f for _, f in listed} & {"bazel-build", "python-3.13t-support"}
    assert ("removals", "cuda-12.8-wheel") in listed
    api = json.loads(_release(release, view, (), "http://x/"))
    assert {(e["group"], e["id"]) for e in api["entries"] if e["group"]} == listed
