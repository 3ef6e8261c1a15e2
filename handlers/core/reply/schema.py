"""The JSON reply contract (handlers/core/reply/parser.py reads it) as a JSON Schema, for a
backend that validates structured output itself (the claude CLI's `--json-schema`). The
schema only checks the shape; the tolerant parser still reads whatever arrives, so an answer
the schema never got is read as before, and nothing in it is lost."""

from __future__ import annotations

import json
from typing import Any

REPLY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "opinion": {
            "type": "string",
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
REPLY_SCHEMA_JSON = json.dumps(REPLY_SCHEMA, ensure_ascii=False, separators=(",", ":"))
