"""What a rendering read of the model, and whether that part changed: live preview's dependencies.

A template (or an API function) in live preview is given the model through `Reads.wrap`:
thin proxies that hand out the same values while recording, per model class, which fields were
read (`Release.version`, `ChangeView.anchor`), and which keys of a dict were looked up. A page
whose inputs are unchanged *in those fields* keeps its bytes (`Compare.same`): a feature page that
prints a release's version is not rendered again when that release's change list is edited,
while the release page, which reads `Release.changes`, is.

Sound by construction: every value a template prints was reached from its inputs by a chain of
recorded reads, and `same` compares every such chain. It first asks what differs at all
(`Compare.diff`, once per pair of old and new objects per render): a record that read none of it
holds at once, so a save's cost follows what the edit changed, not the number of pages. Anything the proxies cannot follow (an
equality test or membership test on a model object, printing one whole) makes the page compare
its inputs whole.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools

from markupsafe import Markup

_SCALARS = (str, int, float, bool, type(None), dt.date, Markup)
_SCALAR_TYPES = frozenset(_SCALARS) | {dt.datetime}
_ALL = None  # a dict read whole: every key


class Reads:
    """The reads of one rendering: fields per model class, and looked-up keys per dict field."""

    __slots__ = ("fields", "keys", "whole")

    def __init__(self) -> None:
        self.fields: dict[type, set[str]] = {}
        self.keys: dict[tuple[type, str], set | None] = {}  # (class, field) -> keys, or _ALL
        self.whole = False  # something was compared or printed whole

    def wrap(self, value, owner: tuple[type, str] | None = None):
        """value as the rendering sees it: a recording proxy for model objects and containers
        of them, the value itself for text, numbers and dates."""
        if isinstance(value, _SCALARS):
            return value
        if dataclasses.is_dataclass(value):
            return _Object(value, self)
        if isinstance(value, dict):
            return _Dict(value, self, owner)
        if isinstance(value, (tuple, list)):
            if all(isinstance(item, _SCALARS) for item in value):
                return value
            return _Sequence(value, self)
        if callable(value) or (isinstance(value, (set, frozenset)) and not all(isinstance(i, _SCALARS) for i in value)):
            self.whole = True  # a method reads what it likes; a set hands out what it holds unrecorded
        return value

    def frozen(self) -> tuple:
        """An immutable, comparable copy, for the record of a page."""
        return (
            frozenset((cls, frozenset(names)) for cls, names in self.fields.items()),
            frozenset((key, None if keys is _ALL else frozenset(keys)) for key, keys in self.keys.items()),
            self.whole,
        )


class _Object:
    __slots__ = ("_value", "_reads")

    def __init__(self, value, reads: Reads):
        self._value, self._reads = value, reads

    def __getattr__(self, name: str):
        cls = type(self._value)
        self._reads.fields.setdefault(cls, set()).add(name)
        return self._reads.wrap(getattr(self._value, name), (cls, name))

    def __eq__(self, other) -> bool:
        self._reads.whole = True
        return self._value == _unwrap(other)

    def __hash__(self) -> int:
        self._reads.whole = True
        return hash(self._value)

    def __str__(self) -> str:
        self._reads.whole = True
        return str(self._value)


class _Sequence:
    __slots__ = ("_value", "_reads")

    def __init__(self, value, reads: Reads):
        self._value, self._reads = value, reads

    def __iter__(self):
        wrap = self._reads.wrap
        return (wrap(item) for item in self._value)

    def __reversed__(self):
        wrap = self._reads.wrap
        return (wrap(item) for item in reversed(self._value))

    def __getitem__(self, index):
        return self._reads.wrap(self._value[index])

    def __len__(self) -> int:
        return len(self._value)

    def __bool__(self) -> bool:
        return bool(self._value)

    def __contains__(self, item) -> bool:
        self._reads.whole = True
        return _unwrap(item) in self._value

    def __eq__(self, other) -> bool:
        self._reads.whole = True
        return self._value == _unwrap(other)

    __hash__ = None

    def __str__(self) -> str:
        self._reads.whole = True
        return str(self._value)


class _Dict:
    __slots__ = ("_value", "_reads", "_owner")

    def __init__(self, value: dict, reads: Reads, owner: tuple[type, str] | None):
        self._value, self._reads, self._owner = value, reads, owner

    def _key(self, key) -> None:
        if self._owner is None:
            self._reads.whole = True
            return
        keys = self._reads.keys.setdefault(self._owner, set())
        if keys is not _ALL:
            keys.add(key)

    def _all(self) -> dict:
        if self._owner is None:
            self._reads.whole = True
        else:
            self._reads.keys[self._owner] = _ALL
        return self._value

    def __getitem__(self, key):
        self._key(key)
        return self._reads.wrap(self._value[key])

    def get(self, key, default=None):
        self._key(key)
        return self._reads.wrap(self._value.get(key, default))

    def __contains__(self, key) -> bool:
        self._key(key)
        return key in self._value

    def __iter__(self):
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def __bool__(self) -> bool:
        return bool(self._all())

    def keys(self):
        return self._all().keys()

    def values(self):
        wrap = self._reads.wrap
        return [wrap(v) for v in self._all().values()]

    def items(self):
        wrap = self._reads.wrap
        return [(k, wrap(v)) for k, v in self._all().items()]


def _unwrap(value):
    return value._value if isinstance(value, (_Object, _Sequence, _Dict)) else value


_MISSING = object()

_HERE = "here"
"""A mark of `Compare.diff`: text, numbers, a length or a set of keys differ outside any model
object's field (the caller names the field it holds them in)."""

_INSIDE = object()
"""A mark's name (class, _INSIDE): some object of the class differs, at any depth."""

_NONE: frozenset = frozenset()
_HERE_ONLY = frozenset({_HERE})
_WHOLE_DICT = object()  # a dict field the record compared whole (read, never looked up in)


def derived_names(records) -> dict[type, frozenset]:
    """Per model class, the names `records` (Reads.frozen) read of it that `Compare.diff` does
    not compare as fields: properties, and fields left out of ==."""
    out: dict[type, set] = {}
    for record in records:
        for cls, names in record[0]:
            extra = names - _compared(cls)
            if extra:
                out.setdefault(cls, set()).update(extra)
    return {cls: frozenset(names) for cls, names in out.items()}


@functools.cache
def _compared(cls: type) -> frozenset:
    """The fields of a model class that its == compares (all, for a class of no fields)."""
    if not dataclasses.is_dataclass(cls):
        return frozenset()
    return frozenset(f.name for f in dataclasses.fields(cls) if f.compare)


class Compare:
    """Whether inputs read under a record (`Reads.frozen`) are the same in an old and a new
    model, for one render.

    An old and a new input are told apart once, whichever pages read them (`diff`): which fields
    of which model classes differ, which keys of dict fields, and which of the properties
    `derived` names (the last render's records read them). A record that read none of those
    holds without walking anything, so a save costs a page a few look-ups; one that did is
    walked (`_Walk`), reading only what it read. What the session kept from the last save
    (generator.util.session) is identical, and told apart at once."""

    def __init__(self, derived: dict[type, frozenset] | None = None) -> None:
        self._derived = derived or {}
        self._diffs: dict[tuple, tuple] = {}  # (old, new) ids -> (marks, old, new): holding both keeps ids unique
        self._touched: dict[tuple, tuple] = {}  # (record, marks) ids -> (record reads a mark, record, marks)
        self._memo: dict[tuple, tuple] = {}  # (record, old, new) ids -> (result, old, new), for _Walk
        self._records: dict[int, tuple] = {}
        self._leaves: dict[type, bool] = {}

    def same(self, record: tuple, old, new) -> bool:
        """True if everything `record` says was read of `old` is equal in `new`."""
        if old is new:
            return True
        marks = self.diff(old, new)
        if not marks:
            return True
        if record[2] or _HERE in marks:  # read whole, or the input itself differs
            return False
        key = (id(record), id(marks))
        known = self._touched.get(key)
        if known is None:
            known = self._touched[key] = (self._reads_any(record, marks), record, marks)
        if not known[0]:
            return True
        tag = id(record)
        if tag not in self._records:
            self._records[tag] = (dict(record[0]), dict(record[1]), record)
        fields, keys, _ = self._records[tag]
        return _Walk(self, tag, fields, keys).same(old, new)

    def equal(self, a, b) -> bool:
        """True if `a` (old model) equals `b` (new model) whole."""
        return a is b or not self.diff(a, b)

    def diff(self, a, b) -> frozenset:
        """Where `a` (old model) and `b` (new model) differ: (class, name) for a field or derived
        name of a model object whose text or numbers differ (the objects it holds are marked in
        their own class), (class, name, key) for a key of a dict, (class, _INSIDE) for every
        class of object that differs, and _HERE for a difference outside any field. Empty when
        equal whole. Remembered per pair of objects, so an unchanged part of the model is told
        apart once per render, whichever pages read it."""
        if a is b:
            return _NONE
        cls = type(a)
        if cls is not type(b):
            return _HERE_ONLY
        if cls in _SCALAR_TYPES:
            return _NONE if a == b else _HERE_ONLY
        pair = (id(a), id(b))
        known = self._diffs.get(pair)
        if known is not None:
            return known[0]
        marks = self._diff(cls, a, b)
        self._diffs[pair] = (marks, a, b)
        return marks

    def _diff(self, cls: type, a, b) -> frozenset:
        leaf = self._leaves.get(cls)
        if leaf is None:
            leaf = self._leaves[cls] = _is_leaf(a, self._leaves)
        if (leaf or cls is tuple or cls is list) and a == b:  # compared in C, items by identity first
            return _NONE
        if hasattr(cls, "__dataclass_fields__"):
            return self._object_diff(cls, a, b)
        if isinstance(a, (tuple, list)):
            marks = set() if len(a) == len(b) else {_HERE}
            for x, y in zip(a, b, strict=False):  # past the shorter one's end: _HERE says so
                if x is not y:
                    marks.update(self.diff(x, y))
            return frozenset(marks)
        if isinstance(a, dict):
            marks = set() if a.keys() == b.keys() else {_HERE}
            for k in a.keys() & b.keys():
                marks.update(self.diff(a[k], b[k]))
            return frozenset(marks)
        return _NONE if a == b else _HERE_ONLY

    def _object_diff(self, cls: type, a, b) -> frozenset:
        """The marks of two model objects of one class: their fields', and where they differ,
        the class's and the derived names'."""
        marks = set()
        for name in _compared(cls):
            x, y = getattr(a, name), getattr(b, name)
            if x is not y:
                marks.update(self._field(cls, name, x, y))
        if marks:
            marks.add((cls, _INSIDE))
            for name in self._derived.get(cls, ()):
                marks.update(self._derived_field(cls, name, a, b))
        return frozenset(marks)

    def _derived_field(self, cls: type, name: str, a, b):
        """The marks of a property (or a field == leaves out) of two objects that differ."""
        try:
            x, y = getattr(a, name), getattr(b, name)
        except Exception:  # read of some objects of the class, not of these: marked, as changed
            return [(cls, name)]
        return () if x is y else self._field(cls, name, x, y)

    def _field(self, cls: type, name: str, x, y):
        """The marks of one field of a model object: _HERE named as the field (or its key)."""
        if type(x) is dict and type(y) is dict:
            out = set()
            for k in x.keys() | y.keys():
                sub = self.diff(x[k], y[k]) if k in x and k in y else _HERE_ONLY
                if _HERE in sub:
                    out.add((cls, name, k))
                out.update(m for m in sub if m is not _HERE)
            return out
        sub = self.diff(x, y)
        if _HERE not in sub:
            return sub
        return [(cls, name), *(m for m in sub if m is not _HERE)]

    def _reads_any(self, record: tuple, marks: frozenset) -> bool:
        """True if the record read a field, key or derived name `diff` marked, or, of a class
        holding a difference, a name `diff` did not compare."""
        fields, keys = dict(record[0]), dict(record[1])
        for mark in marks:
            cls, name = mark[0], mark[1]
            read = fields.get(cls)
            if not read:
                continue
            if name is _INSIDE:
                if not read <= _compared(cls) | self._derived.get(cls, _NONE):
                    return True
            elif name in read:
                if len(mark) == 2:
                    return True
                wanted = keys.get((cls, name), _WHOLE_DICT)
                if wanted is None or wanted is _WHOLE_DICT or mark[2] in wanted:
                    return True
        return False


def _is_leaf(value, leaves: dict[type, bool]) -> bool:
    """A model object small enough to compare whole (a Change, an Entry, a ChangeView holding
    one Change): made of text, numbers, tuples of them and other such objects. Decided on the
    first object of its class; comparing whole is right for any object (equal whole is equal
    in every field), only slower for big ones."""
    if not hasattr(type(value), "__dataclass_fields__"):
        return False
    for name in type(value).__dataclass_fields__:
        field = getattr(value, name)
        if isinstance(field, (tuple, list)):
            if not all(type(item) in _SCALAR_TYPES for item in field):
                return False
        elif hasattr(type(field), "__dataclass_fields__"):
            if type(field) not in leaves:
                leaves[type(field)] = _is_leaf(field, leaves)
            if not leaves[type(field)]:
                return False
        elif type(field) not in _SCALAR_TYPES:
            return False
    return True


class _Walk:
    """One record's comparison of an old and a new model (Compare.same): the fields it read of
    each class, the keys it read of each dict field, and the results so far (Compare's memo)."""

    def __init__(self, compare: Compare, tag: int, fields: dict, keys: dict) -> None:
        self.equal, self.memo, self.tag, self.fields, self.keys = compare.equal, compare._memo, tag, fields, keys

    def same(self, a, b) -> bool:
        if self.equal(a, b):  # equal whole: equal in whatever the record read
            return True
        cls = type(a)
        if cls is not type(b) or cls in _SCALAR_TYPES or (cls is tuple and (not a or type(a[0]) in _SCALAR_TYPES)):
            return False  # text, numbers (or pairs led by them) that differ: read as changed
        key = (self.tag, id(a), id(b))
        if key in self.memo:
            return self.memo[key][0]
        same = self.same
        if hasattr(cls, "__dataclass_fields__"):
            result = all(self.field_same(cls, n, getattr(a, n), getattr(b, n)) for n in self.fields.get(cls, ()))
        elif isinstance(a, (tuple, list)):
            result = len(a) == len(b) and all(map(same, a, b))
        elif isinstance(a, dict):
            result = a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
        else:
            result = a == b
        self.memo[key] = (result, a, b)
        return result

    def field_same(self, cls, name: str, x, y) -> bool:
        """A field the record read: a dict field only at the keys it read (all, where None)."""
        if type(x) is not dict or (cls, name) not in self.keys:
            return self.same(x, y)
        wanted = self.keys[(cls, name)]
        if wanted is None:
            return x.keys() == y.keys() and all(self.same(x[k], y[k]) for k in x)
        return all(self.same(x.get(k, _MISSING), y.get(k, _MISSING)) for k in wanted)
