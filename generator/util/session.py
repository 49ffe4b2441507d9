"""A build session: the one owner of what enrich derived last time.

The shape of Salsa (rust-analyzer) and of "Build Systems à la Carte" (Mokhov, Mitchell, Peyton
Jones, 2018): a derived value is a module-level function of its arguments, and `derive` memoises
it on exactly those arguments, so what a value depends on is what it was called with; nobody
lists inputs by hand, and they cannot drift from what the function reads. Live preview keeps
one session across saves (build.Preview); a build makes a fresh one. The session holds load's
values too: each file's parsed document, derived from the file's bytes (so a file is parsed
again only when its content changed, whatever its mtime says), and what load builds of each
document (a release, a change list, the registries and the catalogue).

Arguments are compared with ==, which stops at identical objects: load hands out the same
Release, Entry and Change objects for every file an edit did not touch, so an edit recomputes
what it touched. A value computed again is, item by item, last time's object where equal
(`_kept`), so comparing the old model with the new (generator.render.reads) finds the rest identical at
once. What this earns is measured by `make bench` ("one-file edit"): the derivations an edit
does not reach are not run.
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Callable
from typing import Any


class Session:
    """The derivations of the last enrich, each with the arguments it was computed from."""

    def __init__(self) -> None:
        self._last: dict = {}
        self._now: dict = {}

    def derive(self, fn: Callable[..., Any], *args: Any, key: object = None) -> Any:
        """fn(*args), or last time's value of fn under `key` if it was called with equal arguments.
        `key` tells apart the calls of one function for several things (a release's views)."""
        slot = _slot(fn, key)
        last = self._last.get(slot)
        if last is not None and _same(last[0], args):
            value = last[1]
        else:
            value = fn(*args) if last is None else _kept(fn(*args), last[1])
        self._now[slot] = (args, value)
        return value

    def lookup(self, fn: Callable[..., Any], args: tuple, key: object = None) -> Any:
        """Last time's value of fn(*args) under `key`, kept for this run, or MISSING: for a caller
        that computes the values it lacks together (load reads the files it lacks on both cores)
        and gives each back with `remember`."""
        slot = _slot(fn, key)
        last = self._last.get(slot)
        if last is None or not _same(last[0], args):
            return MISSING
        self._now[slot] = last
        return last[1]

    def remember(self, fn: Callable[..., Any], args: tuple, value: Any, key: object = None) -> None:
        """fn(*args) under `key` is `value` (computed by the caller, after `lookup` missed)."""
        self._now[_slot(fn, key)] = (args, value)

    def start(self) -> None:
        """A new load and enrich begin: forget what one that failed half-way derived."""
        self._now = {}

    def done(self) -> None:
        """The derivations since `start` are the ones the next run reuses."""
        self._last, self._now = self._now, {}


MISSING = object()
"""What `Session.lookup` returns for a value it does not hold."""


def now(fn: Callable[..., Any], *args: Any, key: object = None) -> Any:
    """fn(*args): `Session.derive` for a caller with no session (the importer's checks)."""
    return fn(*args)


def _slot(fn: Callable[..., Any], key: object) -> tuple:
    """Where a derivation's value is kept: its function's name, and `key`."""
    return (fn.__module__, fn.__qualname__, key)


def _same(a: tuple, b: tuple) -> bool:
    return len(a) == len(b) and all(x is y or x == y for x, y in zip(a, b, strict=True))


def _kept(new, old, depth: int = 2):
    """new, with old's object wherever old is equal: the whole, or each item of a tuple (by
    position) or of a dict (by key), in new's order; within a changed model object (a frozen
    dataclass), each field, `depth` levels down. A page that read only the unchanged parts of a
    changed object (a family's matrix, when a release's summary changed) then finds them
    identical at once (generator.render.reads.Compare)."""
    if new is old or type(new) is not type(old):
        return new
    if depth and type(new) is tuple and len(new) == len(old):
        if all(map(operator.is_, new, old)):  # made anew of last time's items: no item to walk
            return old
        items = tuple(n if n is o else _kept(n, o, depth - 1) for n, o in zip(new, old, strict=True))
        return old if all(map(operator.is_, items, old)) else items
    if depth and type(new) is dict:
        if list(new) == list(old) and all(map(operator.is_, new.values(), old.values())):
            return old
        items = {k: v if k not in old or v is old[k] else _kept(v, old[k], depth - 1) for k, v in new.items()}
        same = list(items) == list(old) and all(items[k] is old[k] for k in items)
        return old if same else items
    if new == old:
        return old
    if depth and dataclasses.is_dataclass(new) and hasattr(new, "__dict__"):
        for f in dataclasses.fields(new):
            value = getattr(new, f.name)
            kept = _kept(value, getattr(old, f.name), depth - 1)
            if kept is not value:  # a fresh object no one else holds yet
                object.__setattr__(new, f.name, kept)
    return new
