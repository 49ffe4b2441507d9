"""/api/v1/symbols.json (with its schema) and /api/v1/deprecated_symbols.yaml (TorchFix's shape):
every listed name with the changes naming it, and the endings the deprecation and removal records tell."""

from __future__ import annotations

import json

import jsonschema
import pytest
import yaml

from generator.model import urls
from generator.render import symbol_data
from generator.render.render import drawn
from tests.conftest import real_model

BASE = "https://atlas.example.org/"


@pytest.fixture(scope="module")
def files() -> dict[str, bytes]:
    return drawn(symbol_data.render_symbol_data(real_model(), BASE))


@pytest.fixture(scope="module")
def data(files) -> dict:
    return json.loads(files[symbol_data.SYMBOLS_JSON])


@pytest.fixture(scope="module")
def by_name(data) -> dict:
    return {s["name"]: s for s in data["symbols"]}


def test_symbols_json_validates_against_its_published_schema(files, data):
    schema = json.loads(files[symbol_data.SYMBOLS_SCHEMA])
    assert files[symbol_data.SYMBOLS_SCHEMA] == symbol_data.SCHEMA.read_bytes()
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(data)
    assert data["schema"] == BASE + symbol_data.SYMBOLS_SCHEMA


def test_the_schema_refuses_what_it_should(files, data):
    """Not vacuous: a renamed field, a bad version and an ending with no release fail."""
    validator = jsonschema.Draft202012Validator(json.loads(files[symbol_data.SYMBOLS_SCHEMA]))
    one = json.loads(json.dumps(data["symbols"][0]))
    broken = [
        {**one, "Name": one["name"]},
        {**one, "changes": [{**c, "release": "2.x"} for c in one["changes"]] or [{"release": "x"}]},
        {**one, "ending": dict.fromkeys(("deprecated_in", "removal_announced", "removed_in", "replacement"))}
        | {"deprecation_url": None, "removal_url": None, "deprecation_prs": [], "removal_prs": []},
    ]
    for symbol in broken:
        assert not validator.is_valid({**data, "symbols": [symbol]})


def test_every_listed_name_is_there_with_the_changes_naming_it(by_name):
    site = real_model()
    listed = {s.name for m in site.symbol_pages.values() for s in m.symbols}
    assert set(by_name) == listed
    cat = by_name["torch.cat"]
    assert cat["url"] == BASE + "symbols/torch/#torch.cat"
    change = next(c for c in cat["changes"] if c["release"] == "2.9" and c["section"] == "bc-breaking")
    assert change["kind"] == "behaviour-change" and change["group"] == "defaults"
    assert "158249" in change["text"] and change["url"].startswith(BASE + "releases/2.9/#c-")
    releases = [c["release"] for c in cat["changes"]]
    assert releases == sorted(releases, key=lambda v: tuple(map(int, v.split("."))), reverse=True)


def test_endings_read_from_the_deprecation_and_removal_records(by_name):
    training = by_name["torch.export.export_for_training"]["ending"]
    assert (training["deprecated_in"], training["removed_in"], training["replacement"]) == (
        "2.9",
        "2.11",
        "torch.export.export",
    )
    assert training["deprecation_prs"] == [158203]
    assert by_name["torch.export.export"]["ending"] is None  # the replacement ends nothing
    quant = by_name["torch.ao.quantization"]["ending"]
    assert (quant["deprecated_in"], quant["removal_announced"]) == ("2.8", "2.10")
    cholesky = by_name["torch.cholesky"]["ending"]
    assert (cholesky["removed_in"], cholesky["replacement"]) == ("2.14", "torch.linalg.cholesky")
    # A record about an option of a name ends no name.
    assert by_name["torch.onnx.export"]["ending"] is None
    assert by_name["torch.compile"]["ending"] is None


def test_torchfix_yaml_is_in_torchfix_shape(files):
    """TorchFix reads each item's name, and its remove_pr: None for deprecated, set for removed."""
    items = yaml.safe_load(files[symbol_data.TORCHFIX_YAML])
    assert isinstance(items, list) and len(items) >= 10
    config = {item["name"]: item for item in items}  # as TorchFix's _read_deprecated_config does
    for item in items:
        assert set(item) <= {"name", "deprecate_pr", "remove_pr", "replacement", "reference"}
        assert {"name", "deprecate_pr", "remove_pr"} <= set(item)
        assert item["deprecate_pr"] == "TBA" or item["deprecate_pr"].startswith(urls.PR.format(""))
    training = config["torch.export.export_for_training"]
    assert training == {
        "name": "torch.export.export_for_training",
        "deprecate_pr": urls.pr(158203),
        "remove_pr": training["remove_pr"],
        "replacement": "torch.export.export",
        "reference": training["reference"],
    }
    assert training["remove_pr"].startswith(urls.PR.format("")) and training["reference"].startswith(BASE)
    assert config["torch.ao.quantization"]["remove_pr"] is None  # deprecated, not removed
    assert config["torch.cholesky"]["deprecate_pr"] == "TBA"  # the notes at hand do not say when


def test_the_build_publishes_them(fixture_site):
    for path in (symbol_data.SYMBOLS_JSON, symbol_data.SYMBOLS_SCHEMA, symbol_data.TORCHFIX_YAML):
        assert (fixture_site / path).is_file(), path
    data = json.loads((fixture_site / symbol_data.SYMBOLS_JSON).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(json.loads(symbol_data.SCHEMA.read_text(encoding="utf-8"))).validate(data)
    assert "torch.cat" in {s["name"] for s in data["symbols"]}


def test_every_symbol_ending_is_the_one_facts_computed(by_name):
    """One home: symbols.json states, for every name, the ending enrich computed (Site.name_endings),
    and no name has one unless a record's `ends:` says that very name is deprecated or removed."""
    site = real_model()
    facts = {e.name: e for e in site.name_endings}
    said = {
        n for r in site.releases for c in r.changes if c.ends for n in c.ends if n.startswith("torch.")
    }  # what the records say they end
    assert facts and set(facts) <= said
    compared = 0
    for name, symbol in by_name.items():
        ending, fact = symbol["ending"], facts.get(name)
        if fact is None:
            assert ending is None, name
            continue
        compared += 1
        stated = (ending["deprecated_in"], ending["removal_announced"], ending["removed_in"], ending["replacement"])
        assert stated == (fact.deprecated_in, fact.removal_planned, fact.removed_in, fact.replacement), name
        for field in ("deprecated_in", "removal_announced", "removed_in"):
            assert bool(ending["evidence"].get(field)) == bool(ending[field]), (name, field)
    assert compared == len(facts)
    # A record both read: the ledger row of a deprecation states what the name's ending states.
    rows = {r.url: r for r in site.ledger if r.change is not None}
    checked = 0
    for fact in facts.values():
        url = urls.at(urls.release(fact.deprecated_in), fact.deprecation.anchor) if fact.deprecation else None
        row = rows.get(url)
        if row is not None:
            checked += 1
            assert fact.deprecated_in == row.deprecated_in, fact.name
            if not row.change.features:  # a row of its own, not a feature's ending
                assert fact.removal_planned == row.removal_planned, fact.name
    assert checked >= 5


def test_names_a_record_only_mentions_end_nothing(by_name):
    """The names the audit found wrongly ended: live APIs and a replacement."""
    for name in ("torch.istft", "torch.testing", "torch.no_grad", "torch.load", "torch.nn.attention.sdpa_kernel"):
        assert by_name[name]["ending"] is None, name
    onnx = by_name["torch.onnx._export"]["ending"]  # "Deprecated internal API … has been removed"
    assert (onnx["deprecated_in"], onnx["removed_in"]) == (None, "2.5")
    evidence = by_name["torch.cholesky"]["ending"]["evidence"]
    assert evidence["removed_in"][0].startswith(BASE + "releases/2.14/#c-")
    assert evidence["removed_in"][1] == urls.pr(186817)
