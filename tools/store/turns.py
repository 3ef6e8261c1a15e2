"""The stored turns: a turn as a row of the `turns` table and back (exact to the character:
text that UTF-8 cannot encode, a lone surrogate, is kept as its exact bytes)."""

from __future__ import annotations

import json
from datetime import datetime

from pydantic import TypeAdapter

from handlers.core.model import ParsedReply, Turn, TurnMeta
from tools.store.db import Row
from tools.store.json_text import storable

_PARSED = TypeAdapter(ParsedReply)

INSERT_TURN = """
INSERT INTO turns (debate_id, number, round, seat, text, raw, sha256, parsed, model,
                   input_tokens, output_tokens, cost_usd, latency_s, num_turns, session_id,
                   denied_tools, created_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
"""
SELECT_TURNS = "SELECT * FROM turns WHERE debate_id = ? ORDER BY number DESC LIMIT ?"
SELECT_TURN = "SELECT * FROM turns WHERE debate_id = ? AND number = ?"
# Where a turn was posted: the link the room gave the engine when it posted the turn.
SELECT_MESSAGE_URL = "SELECT message_url FROM turns WHERE debate_id = ? AND number = ?"
UPDATE_MESSAGE_URL = "UPDATE turns SET message_url = ? WHERE debate_id = ? AND number = ?"


def turn_row(turn: Turn, as_bytes: bool) -> tuple[object, ...]:
    """INSERT_TURN's values (`as_bytes`: text always as bytes, for PostgreSQL's BYTEA)."""
    meta = turn.meta
    return (
        turn.debate_id,
        turn.number,
        turn.round,
        turn.seat,
        _exact(turn.text, as_bytes),
        _exact(turn.raw, as_bytes),
        turn.sha256,
        storable(_PARSED, turn.parsed),
        meta.model,
        meta.input_tokens,
        meta.output_tokens,
        meta.cost_usd,
        meta.latency_s,
        meta.num_turns,
        meta.session_id,
        json.dumps(list(meta.denied_tools)),
        turn.at.isoformat(),
    )


def turn_of(row: Row) -> Turn:
    """The turn a row of the `turns` table holds."""
    get = row.__getitem__
    meta = TurnMeta(
        model=get("model"),
        input_tokens=get("input_tokens"),
        output_tokens=get("output_tokens"),
        cost_usd=get("cost_usd"),
        latency_s=get("latency_s"),
        num_turns=get("num_turns"),
        session_id=get("session_id"),
        denied_tools=tuple(json.loads(get("denied_tools"))),
    )
    return Turn(
        debate_id=get("debate_id"),
        number=get("number"),
        round=get("round"),
        seat=str(get("seat")),
        text=_text(get("text")),
        raw=_text(get("raw")),
        sha256=get("sha256"),
        parsed=_PARSED.validate_json(get("parsed")),
        meta=meta,
        at=datetime.fromisoformat(get("created_at")),
    )


def _exact(text: str, as_bytes: bool = False) -> str | bytes:
    """`text` as the database can take it: a lone surrogate (which UTF-8 cannot encode) makes
    it exact UTF-8 bytes with surrogates passed through, stored as a BLOB (always bytes for
    PostgreSQL's BYTEA column)."""
    if as_bytes:
        return text.encode("utf-8", "surrogatepass")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass")
    return text


def _text(value: str | bytes) -> str:
    """What `_exact` stored, as the text it was."""
    return value.decode("utf-8", "surrogatepass") if isinstance(value, bytes) else value
