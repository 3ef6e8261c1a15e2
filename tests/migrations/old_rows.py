"""A debate stored in the columns every version since 0004 has: the migration tests start from
a database of an earlier version, whose `debates` table lacks the columns later versions add
(0013's `guild_id`), so their rows cannot be written by today's store. The state is written in
the layout those versions wrote: every field at its top level (`flat_state`)."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from pydantic import TypeAdapter

from handlers.core.model import Debate
from tools.store.db import Database
from tools.store.debate_rows import FLAT_FIELDS

_DEBATE = TypeAdapter(Debate)
INSERT_OLD = """
INSERT INTO debates (channel_id, topic, phase, state, created_at, updated_at)
VALUES (?, ?, ?, ?, ?, ?) RETURNING id
"""
UPDATE_STATE = "UPDATE debates SET state = ? WHERE id = ?"


async def stored_before(db: Database, draft: Debate) -> Debate:
    """Store `draft` as a new debate (its own id) in a database of an earlier version."""
    stamp, proposal = draft.created_at.isoformat(), draft.proposal
    row = (proposal.channel_id, proposal.topic, draft.phase.value, "{}", stamp, stamp)
    debate_id = await db.insert(INSERT_OLD, row)
    assert debate_id is not None
    debate = replace(draft, id=debate_id, setup=replace(draft.setup, wiki_key="0a1b2c"))
    await db.execute(UPDATE_STATE, (flat_state(debate), debate_id))
    return debate


def flat_state(debate: Debate) -> str:
    """The debate as JSON in the layout stored before `Debate`'s sub-records: every field at
    the top level (the money's in `spend`, beside its own)."""
    nested: dict[str, Any] = _DEBATE.dump_python(debate, mode="json")
    flat = {name: value for name, value in nested.items() if not isinstance(value, dict)}
    flat |= {"proposal": nested["proposal"], "poll": nested["poll"]}  # (no steelman yet)
    spend = dict(nested["spend"])
    for old, (part, name) in FLAT_FIELDS.items():
        flat[old] = (spend if part == "spend" else nested[part]).pop(name)
    return json.dumps(flat | {"spend": spend}, ensure_ascii=False)
