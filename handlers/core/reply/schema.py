"""The JSON reply contract (handlers/core/reply/parser.py reads it) as a JSON Schema, for a
backend that validates structured output itself (the claude CLI's `--json-schema`). The
schema only checks the shape; the tolerant parser still reads whatever arrives, so an answer
the schema never got is read as before, and nothing in it is lost.

Every format's schema marks the fields that hold what the reply says, in the debate's words
(`contentMediaType: text/markdown`, JSON Schema's own annotation, which validators ignore):
those are shown live as the model writes them. A schema whose one property is such a field
(`text_only`) wraps a reply whose contract is text (the adversarial line prefixes): the
record is that text, as written."""

from __future__ import annotations

import json
from typing import Any

MARKDOWN = "text/markdown"
# The annotation on a field that holds the reply's own words.
WORDS: dict[str, Any] = {"type": "string", "contentMediaType": MARKDOWN}


def compact(schema: dict[str, Any]) -> str:
    """A schema as the JSON text a backend is given."""
    return json.dumps(schema, ensure_ascii=False, separators=(",", ":"))


REPLY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "opinion": {
            **WORDS,
            "minLength": 1,
            "description": "Your whole argument, in Markdown; posted in full and relayed verbatim.",
        },
        "wiki_action": {
            "type": "object",
            "properties": {
                "page": {"type": "string"},
                "mode": {"enum": ["append", "replace"]},
                "content": {"type": "string"},
            },
            "required": ["page", "mode", "content"],
        },
        "question": {
            "type": "object",
            "properties": {"to": {"enum": ["opponent", "user"]}, "text": {"type": "string"}},
            "required": ["to", "text"],
        },
        "stance": {"enum": ["agree", "partial", "disagree"]},
        "convinced_by": {
            "type": "string",
            "description": "Word for word, the sentence of another debater that moved you.",
        },
    },
    "required": ["opinion"],
}
REPLY_SCHEMA_JSON = compact(REPLY_SCHEMA)


def words_fields(schema_json: str) -> tuple[str, ...]:
    """The top-level fields of a reply schema (JSON text) that hold the reply's words, in the
    schema's order; () for no schema or one that is not an object's."""
    try:
        schema = json.loads(schema_json) if schema_json else None
    except ValueError:
        return ()
    properties = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(properties, dict):
        return ()
    return tuple(
        name
        for name, field in properties.items()
        if isinstance(field, dict) and field.get("contentMediaType") == MARKDOWN
    )


def text_only(schema_json: str) -> str:
    """The one field of a schema that only wraps a text contract ('' for any other schema)."""
    fields = words_fields(schema_json)
    properties = json.loads(schema_json)["properties"] if fields else {}
    return fields[0] if len(fields) == 1 and len(properties) == 1 else ""
