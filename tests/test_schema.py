"""The quick schema check (jsonschema-rs) never lets through what jsonschema refuses.

`schema.check` asks jsonschema-rs first and runs jsonschema only when it says no: a document
jsonschema-rs passes is never shown to jsonschema. So every content file, and thousands of
random breakages of them, must get the same verdict where jsonschema refuses them.
"""

from __future__ import annotations

import copy
import random

import pytest

from generator.load import schema, yamlsrc
from tests.conftest import ROOT

CONTENT = ROOT / "content"
FILES = {
    "release": sorted((CONTENT / "releases").glob("*.yaml")),
    "changes": sorted((CONTENT / "changes").glob("*.yaml")),
    "features": sorted((CONTENT / "features").glob("*.yaml")),
    "tiers": [CONTENT / "tiers.yaml"],
    "backends": [CONTENT / "backends.yaml"],
    "areas": [CONTENT / "areas.yaml"],
    "symbols": [CONTENT / "symbols.yaml"],
}

# What an author gets wrong: a value of another type, a near miss of a pattern or an enum, a
# string too long or empty, a list emptied or with an item twice, a key dropped or misspelt.
WRONG_VALUES = [
    None,
    0,
    -1,
    1.5,
    True,
    "",
    " ",
    "x" * 5000,
    [],
    {},
    "2.x",
    "2.12\n",
    "C++1",
    "https//x",
    "torch.",
    "A B",
]


def _places(data, at=()):
    """Every (container, key) in data, depth first."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield data, key
            yield from _places(value, (*at, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield data, i
            yield from _places(value, (*at, i))


def _break(rng: random.Random, data):
    """A copy of data with one random thing wrong (or, by chance, still right)."""
    data = copy.deepcopy(data)
    container, key = rng.choice(list(_places(data)))
    value = container[key]
    what = rng.randrange(6)
    if what == 0:
        container[key] = rng.choice(WRONG_VALUES)
    elif what == 1 and isinstance(value, str):
        container[key] = rng.choice([value + "\n", " " + value, value.upper(), value[:-1], value + "x" * 3000])
    elif what == 2 and isinstance(container, dict):
        del container[key]
    elif what == 3 and isinstance(container, dict):
        container[key + "s" if isinstance(key, str) else "extra"] = container.pop(key)
    elif what == 4 and isinstance(value, list) and value:
        container[key] = rng.choice([[], value + value[:1], [value[0], None]])
    elif what == 5 and isinstance(value, (int, float)) and not isinstance(value, bool):
        container[key] = rng.choice([-value - 1, str(value), value + 0.5])
    else:
        container[key] = rng.choice(WRONG_VALUES)
    return data


def _refused(kind: str, data) -> bool:
    return any(True for _ in schema.validator(kind).iter_errors(data))


@pytest.mark.parametrize("kind", sorted(FILES))
def test_every_content_file_is_valid_to_both(kind):
    assert FILES[kind], kind
    for path in FILES[kind]:
        doc, problems = yamlsrc.read(path, str(path))
        assert doc is not None and not problems, path
        assert schema._quickly_valid(doc.data, kind), path  # the quick way is taken for real content
        assert not _refused(kind, doc.data), path


@pytest.mark.parametrize("kind", sorted(FILES))
def test_what_jsonschema_refuses_the_quick_check_refuses_too(kind):
    rng = random.Random(f"schema-{kind}")
    refused = 0
    for path in FILES[kind]:
        doc, _ = yamlsrc.read(path, str(path))
        # Long lists cut to their first items: breaking a copy of 1,000 changes costs, and adds
        # nothing the first ten do not.
        sample = {k: v[:10] if isinstance(v, list) else v for k, v in doc.data.items()}
        for _ in range(max(40, 400 // len(FILES[kind]))):
            broken = _break(rng, sample)
            if _refused(kind, broken):
                refused += 1
                assert not schema._quickly_valid(broken, kind), (path.name, broken)
                assert schema.check(yamlsrc.Document(doc.path, broken, doc.positions, doc.key_positions), kind)
    assert refused >= 100, refused  # the breakages do break: the test tests something
