"""Validate a document against its JSON Schema (generator/schemas/); turn each error into a
positioned Problem with a did-you-mean. Fills the schemas' section enum from `model.SECTIONS`."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import jsonschema_rs

from ..model.content import CHANGE_KINDS, SECTIONS
from ..model.errors import Problem, did_you_mean
from .yamlsrc import Document

if TYPE_CHECKING:
    import jsonschema

SCHEMA_DIR = Path(__file__).resolve().parents[1] / "schemas"


@cache
def _schema(kind: str) -> dict:
    """The schema of one file kind (schemas/<kind>.schema.json)."""
    schema = json.loads((SCHEMA_DIR / f"{kind}.schema.json").read_text(encoding="utf-8"))
    if kind == "changes":  # the section ids come from the one table, model.SECTIONS
        item = schema["properties"]["changes"]["items"]["properties"]
        item["section"]["enum"] = [s.id for s in SECTIONS]
        item["kind"]["enum"] = list(CHANGE_KINDS)  # and the kinds from model.CHANGE_KINDS
    return schema


@cache
def validator(kind: str) -> jsonschema.Draft202012Validator:
    """jsonschema's validator for one file kind: the reference, which explains what is wrong.
    Imported when first needed: valid content never needs it (a tenth of the CLI's start)."""
    import jsonschema

    jsonschema.Draft202012Validator.check_schema(_schema(kind))
    return jsonschema.Draft202012Validator(_schema(kind), format_checker=jsonschema.FormatChecker())


@cache
def _quick(kind: str):
    """The same schema compiled by jsonschema-rs: it tells whether a document is valid in a small
    part of the time jsonschema takes (README, Speed mechanisms)."""
    return jsonschema_rs.validator_for(_schema(kind), validate_formats=True)


def _quickly_valid(data, kind: str) -> bool:
    """True when jsonschema-rs finds `data` valid. jsonschema is the reference: this only spares
    running it on valid documents. Where the two differ, jsonschema-rs is the stricter (a
    pattern's `$` does not match before a final newline there, dates it checks as formats) and
    the document goes to jsonschema, which decides; tests/test_schema.py holds that jsonschema-rs
    never passes what jsonschema refuses. What it cannot read (a key that is no string) goes
    to jsonschema too."""
    try:
        return _quick(kind).is_valid(data)
    except ValueError:
        return False


def check(doc: Document, kind: str) -> list[Problem]:
    """Every schema violation in doc, one Problem each, with a readable message."""
    if _quickly_valid(doc.data, kind):
        return []
    problems = []
    for error in validator(kind).iter_errors(doc.data):
        problems.extend(_explain(doc, error))
    return problems


_MOVED_TO_CATALOGUE = ("area", "name", "parent", "about", "docs")


def _moved(key: str, allowed: dict) -> str | None:
    """A release entry's field that the feature catalogue now holds, said so."""
    if key in _MOVED_TO_CATALOGUE and "change" in allowed:
        return f"'{key}' is set once per feature in features/*.yaml, not in a release entry: remove it here"
    return None


def _explain(doc: Document, error: jsonschema.ValidationError) -> list[Problem]:
    """The error in an author's words, at its position: one function per schema keyword that
    content trips (`_SAYS`, so each message sits beside its case), and for any other keyword
    jsonschema's message with the value cut short."""
    if error.validator == "oneOf" and error.context:
        # "a value or a list of values": report the closest alternative's complaint.
        deepest = max(error.context, key=lambda e: (len(e.relative_path), e.validator != "type"))
        if deepest.validator != "type" or not isinstance(deepest.instance, (list, dict)):
            return _explain(doc, deepest)  # its absolute_path already starts at the document root
    pointer = tuple(error.absolute_path)
    if error.validator == "additionalProperties":
        allowed = error.schema.get("properties", {})
        return [
            doc.problem(
                pointer + (key,), _moved(key, allowed) or f"unknown field '{key}'{did_you_mean(key, allowed)}", key=True
            )
            for key in error.instance
            if key not in allowed
        ]
    said = _SAYS.get(error.validator, _generic)(error, error.instance, error.schema)
    if said is None:  # the keyword's case does not fit: the generic message
        said = _generic(error, error.instance, error.schema)
    return [doc.problem(pointer, said)]


def _either(error, instance, schema) -> str | None:
    if not all(set(alt) == {"required"} for alt in error.validator_value):
        return None
    return "needs " + " or ".join(f"'{key}'" for alt in error.validator_value for key in alt["required"])


def _required(error, instance, schema) -> str:
    missing = error.message.split("'")[1] if "'" in error.message else error.message
    return f"missing required field '{missing}'"


def _type(error, instance, schema) -> str:
    if isinstance(instance, float) and "string" in str(schema.get("type")):
        text = _float_text(instance)
        return f'write the version in quotes, "{text}": unquoted, YAML reads {text} as the number {float(instance)!r}'
    return f"{_short(instance)} is not of type {schema['type']}"


def _enum(error, instance, schema) -> str:
    return f"{_short(instance)} is not one of {', '.join(map(str, schema['enum']))}{did_you_mean(instance, schema['enum'])}"


def _pattern(error, instance, schema) -> str:
    pattern = schema["pattern"]
    if pattern.startswith("^https?://"):
        return f"not an http(s) URL: {_short(instance)}"
    if "a-z0-9" in pattern:
        return f"{_short(instance)} is not a valid id: use lowercase letters, digits, '.' and '-'"
    return f"{_short(instance)} does not have the expected form ({pattern})"


def _date(error, instance, schema) -> str | None:
    return f"{_short(instance)} is not a real date (YYYY-MM-DD)" if schema.get("format") == "date" else None


def _minimum(error, instance, schema) -> str | None:
    return f"must be a positive integer, not {instance}" if isinstance(instance, int) else None


def _max_length(error, instance, schema) -> str:
    return f"{len(instance):,} characters long, at most {schema['maxLength']:,}: {_short(instance)}"


def _generic(error, instance, schema) -> str:
    # Any other complaint: jsonschema quotes the whole value, which may be megabytes long.
    return error.message.replace(repr(instance), _short(instance))


_SAYS = {
    "anyOf": _either,
    "required": _required,
    "type": _type,
    "enum": _enum,
    "pattern": _pattern,
    "format": _date,
    "minimum": _minimum,
    "maxLength": _max_length,
    "minLength": lambda error, instance, schema: "must not be empty",
}
"""What each schema keyword's complaint says to an author (None: the generic message fits better)."""


def _float_text(value: float) -> str:
    return getattr(value, "text", repr(value))


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "…'"
