"""A debate stored in the columns every version since 0004 has: the migration tests start from
a database of an earlier version, whose `debates` table lacks the columns later versions add
(0013's `guild_id`), so their rows cannot be written by today's store."""

from __future__ import annotations

from dataclasses import replace

from pydantic import TypeAdapter

from handlers.core.model import Debate
from tools.store.db import Database

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
    debate = replace(draft, id=debate_id, wiki_key="0a1b2c")
    await db.execute(UPDATE_STATE, (_DEBATE.dump_json(debate).decode(), debate_id))
    return debate
