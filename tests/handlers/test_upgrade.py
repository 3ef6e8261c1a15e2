"""A database the release before participants and formats wrote, mid-turn, migrates and its
debate runs to the end on the new engine."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from handlers.core.model import AG, CLAUDE, Outcome, Phase
from tests.handlers.conftest import Rig
from tools.store.db import bundled_migrations
from tools.store.sessions import AgentSessions

STORES = ("sqlite",)  # the old release only ever wrote SQLite files
RELEASE_DB = Path(__file__).parent / "data" / "release_0001_mid_turn.sql"


def _restore(path: Path) -> None:
    """The dump as the old release left it; one Claude session row as it stored them."""
    with sqlite3.connect(path) as conn:
        conn.executescript(RELEASE_DB.read_text(encoding="utf-8"))
        conn.execute(
            "INSERT INTO agent_sessions VALUES (1, 'claude', 'sid-old', '/tmp/w', '2026-11-29')"
        )


async def test_a_debate_left_mid_turn_by_the_release_resumes_and_ends(tmp_path: Path) -> None:
    path = tmp_path / "release.sqlite3"
    _restore(path)
    rig = Rig(path, seed=7)
    await rig.start()  # opening the file applies the new migrations
    try:
        assert rig.db is not None
        assert await rig.db.applied_versions() == [v for v, _, _ in bundled_migrations()]
        row = await rig.db.fetch_one("SELECT format FROM debates WHERE id = 1")
        assert row is not None and row[0] == "free"
        before = await rig.h.get(1)
        assert before.phase is Phase.SPEAKING and before.floor.speaker == AG
        assert before.floor.log == ((1, CLAUDE),)  # migration 0011 rebuilt it from the stored turns
        first = await rig.h._turns.turn(1, 1)
        assert await rig.h.resume_all() == [1]
        await asyncio.wait_for(rig.h.wait_idle(1), 10)

        debate = await rig.h.get(1)
        assert debate.phase is Phase.CONCLUDED and debate.ending.outcome is Outcome.MAX_ROUNDS
        turns = await rig.h._turns.last_turns(1, 100)
        assert [t.number for t in turns] == [1, 2, 3, 4, 5, 6]
        # The stored ask of turn 2 ran once: AG got Claude's turn 1 verbatim, and the agenda,
        # which the old engine never gave the round's second speaker.
        ag_asks = rig.debaters[AG].requests
        assert ag_asks[0].turn == 2 and ag_asks[0].prompt.count(first.text) == 1
        assert debate.proposal.topic in ag_asks[0].prompt
        # Turn 1 was posted by the old release (its doubles are gone): only 2..6 here, once each.
        assert sorted(rig.room.turn_posts) == [(1, n) for n in range(2, 7)]
        assert set(rig.room.turn_posts.values()) == {1}
        resume = await AgentSessions(rig.db, CLAUDE).resume_point(1, False, tmp_path)
        assert resume == ("sid-old", Path("/tmp/w"))
    finally:
        await rig.stop()
