"""The session's reuse of last time's values (generator/util/session.py)."""

from __future__ import annotations

import functools

from generator.util import session


def _counting(monkeypatch) -> list:
    """Count the calls of session._kept, its calls of itself included."""
    calls: list = []
    kept = session._kept

    @functools.wraps(kept)
    def spy(new, old, depth=2):
        calls.append(depth)
        return kept(new, old, depth)

    monkeypatch.setattr(session, "_kept", spy)
    return calls


def test_a_value_made_anew_of_last_times_items_is_last_times_without_a_walk(monkeypatch):
    """A derivation computed again often returns a fresh tuple or dict holding the very objects it
    held last time (a join over shares the session kept): it is last time's value, found without
    visiting its items one by one (a dict of every feature's changes at 50x)."""
    calls = _counting(monkeypatch)
    items = tuple((f"release {n}", [n]) for n in range(500))
    old_tuple, old_dict = items, {f"feature {n}": item for n, item in enumerate(items)}
    assert session._kept(tuple(list(items)), old_tuple) is old_tuple
    assert session._kept(dict(old_dict), old_dict) is old_dict
    assert len(calls) == 2


def test_a_value_with_one_new_item_keeps_the_others(monkeypatch):
    """Where one item changed, the rest are still last time's objects, and the walk goes on."""
    items = tuple((f"release {n}", [n]) for n in range(5))
    changed = (*items[:4], ("release 4", [4, "edited"]))
    out = session._kept(changed, items)
    assert out is not items and out == changed
    assert all(a is b for a, b in zip(out[:4], items[:4], strict=True))
    assert out[4] == changed[4] and out[4][0] is items[4][0]  # within the new item too
    reordered = dict(reversed(list({k: v for k, v in items}.items())))
    assert list(session._kept(reordered, dict(items))) == list(reordered)  # a new order is kept


def test_only_the_items_that_are_not_last_times_are_walked(monkeypatch):
    """Within a value that changed, the items still last time's objects are taken as they are: the
    walk visits the changed item alone (a feature's pairs over 750 releases, one release edited)."""
    calls = _counting(monkeypatch)
    items = tuple((f"release {n}", [n]) for n in range(500))
    changed = (*items[:-1], ("release 499", [499, "edited"]))
    by_feature = {f"feature {n}": item for n, item in enumerate(items)}
    assert session._kept(changed, items)[:-1] == items[:-1]
    assert len(calls) == 4  # the tuple, its one new item and that item's two parts
    calls.clear()
    session._kept({**by_feature, "feature 499": changed[-1]}, by_feature)
    assert len(calls) == 4
