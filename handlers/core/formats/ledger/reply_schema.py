"""The ledger's reply contracts as JSON Schemas, for a seat whose backend validates its
answer's shape itself (the claude CLI's `--json-schema`).

A turn is the JSON reply contract (`handlers/core/reply/schema.py`) with the lists
`text.missing_fields` asks for (`agreed`, `contested`, `concessions`: each given, empty if
nothing); the confirmation round's answer is `LedgerConfirmation` (the opinion, the ids
confirmed as written, each amended id's own wording). The opinion is the words shown live."""

from __future__ import annotations

import copy
from typing import Any

from handlers.core.formats.ledger.schemas import LedgerConfirmation
from handlers.core.formats.ledger.text import CONTRACT
from handlers.core.reply.schema import REPLY_SCHEMA, WORDS, compact

_CLAIMS = {
    "agreed": "The claims you hold agreed, each in precise wording.",
    "contested": "The claims still contested, each in precise wording.",
    "concessions": "What you concede this turn.",
}


def turn_schema() -> str:
    """A ledger turn (JSON text)."""
    schema: dict[str, Any] = copy.deepcopy(REPLY_SCHEMA)
    for name, description in _CLAIMS.items():
        schema["properties"][name] = {
            "type": "array",
            "items": {"type": "string"},
            "description": description,
        }
    schema["required"] = list(CONTRACT)
    return compact(schema)


def confirm_schema() -> str:
    """The confirmation round's answer to the written ledger (JSON text)."""
    schema = LedgerConfirmation.model_json_schema()
    schema["properties"]["opinion"] = {
        **WORDS,
        "minLength": 1,
        "description": "What you say about the ledger, in Markdown.",
    }
    return compact(schema)
