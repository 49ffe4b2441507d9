"""What a rendering read of the model, and whether an edit changed it (generator.render.reads):
a record that read none of what differs holds without being walked, and one that did is
walked through exactly what it read."""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest

from generator.render import reads


@dataclass(frozen=True)
class Ending:
    at: str


@dataclass(frozen=True)
class Item:
    version: str
    summary: str
    ending: Ending
    notes: dict

    @property
    def removal(self) -> str:  # reads a field of another object: no field read of Item says so
        return self.ending.at


@dataclass(frozen=True)
class Model:
    items: tuple


def _model() -> Model:
    return Model(tuple(Item(f"2.{n}", f"Release {n}.", Ending(f"2.{n + 3}"), {"a": n, "b": n}) for n in range(4)))


def _edited(model: Model, **fields) -> Model:
    """The model with the last item's fields replaced, every other object the same one."""
    items = model.items
    return Model((*items[:-1], replace(items[-1], **fields)))


def _record(model: Model, read) -> tuple:
    """What `read` read of the model, as the render records it."""
    watched = reads.Reads()
    read(watched.wrap(model))
    return watched.frozen()


@pytest.fixture
def walks(monkeypatch) -> list:
    """The objects a record was walked through (reads._Walk.same's calls)."""
    seen = []
    walk = reads._Walk.same

    def same(self, a, b):
        seen.append(type(a))
        return walk(self, a, b)

    monkeypatch.setattr(reads._Walk, "same", same)
    return seen


def _versions(model) -> None:
    for item in model.items:
        str(item.version)


def test_a_record_that_read_no_field_an_edit_changed_holds_without_a_walk(walks):
    old = _model()
    new = _edited(old, summary="Edited.")
    assert reads.Compare().same(_record(old, _versions), old, new)
    assert walks == []


def test_a_record_that_read_the_changed_field_is_walked_to_it_and_does_not_hold(walks):
    old = _model()
    new = _edited(old, summary="Edited.")
    record = _record(old, lambda m: [str(i.summary) for i in m.items])
    assert not reads.Compare().same(record, old, new)
    assert Item in walks
    # Only the field it read decides: the same record holds where only the version changed.
    assert reads.Compare().same(record, old, _edited(old, version="2.99"))


def test_a_property_that_reads_another_object_is_compared_by_its_value():
    old = _model()
    moved = _edited(old, ending=Ending("2.20"))
    record = _record(old, lambda m: [str(i.removal) for i in m.items])
    derived = reads.derived_names([record])
    assert derived == {Item: frozenset({"removal"})}
    assert not reads.Compare(derived).same(record, old, moved)
    # Not told apart by name (a render without the last one's records): walked, same answer.
    assert not reads.Compare().same(record, old, moved)
    assert reads.Compare(derived).same(record, old, _edited(old, summary="Edited."))


def test_a_dict_field_is_compared_at_the_keys_a_record_looked_up():
    old = _model()
    last = old.items[-1]
    new = _edited(old, notes={**last.notes, "b": 99})
    looked_up_a = _record(old, lambda m: [str(i.notes["a"]) for i in m.items])
    assert reads.Compare().same(looked_up_a, old, new)
    looked_up_b = _record(old, lambda m: [str(i.notes["b"]) for i in m.items])
    assert not reads.Compare().same(looked_up_b, old, new)
    iterated = _record(old, lambda m: [list(i.notes) for i in m.items])
    assert not reads.Compare().same(iterated, old, _edited(old, notes={**last.notes, "c": 1}))


def test_a_record_read_whole_holds_only_while_its_inputs_are_equal():
    old = _model()
    record = _record(old, lambda m: m.items == ())
    assert record[2]
    assert reads.Compare().same(record, old, Model(tuple(replace(i) for i in old.items)))
    assert not reads.Compare().same(record, old, _edited(old, summary="Edited."))
