"""The people's poll through the ports (issue 18, feature 2): the minority report written and
checked, the poll opened with its stored end time, and its votes read once it ends."""

from __future__ import annotations

from datetime import timedelta

import prompts
from handlers.core.effects import OpenPoll
from handlers.core.events import MinorityReported, PollClosed
from handlers.core.minority import fallback, from_output, task_fields
from handlers.core.model import Debate
from handlers.core.poll_data import MINORITY_TASK
from handlers.ports import Clock, Moderator, ModeratorUnavailable, Room, TaskRequest
from handlers.store_ports import Store


async def minority_report(
    store: Store, moderator: Moderator, debate: Debate, language: str
) -> MinorityReported:
    """The moderator's report, its quotes checked; each side's stance line without a moderator."""
    turns = await store.last_turns(debate.id, max(debate.turns, 1))
    prompt = prompts.load(MINORITY_TASK, language, **task_fields(debate, turns))
    request = TaskRequest(debate.id, MINORITY_TASK, prompt, True)
    try:
        output = await moderator.perform(request)
    except ModeratorUnavailable:
        return MinorityReported(fallback(debate, turns))
    return MinorityReported(from_output(debate, turns, output))


async def open_poll(room: Room, store: Store, clock: Clock, debate: Debate) -> None:
    """The poll in the room, then its end time in the database (a repeat after a restart
    posts nothing again and keeps the first end time)."""
    hours = debate.poll.hours if debate.poll is not None else 1
    await room.show(debate, OpenPoll())
    await store.schedule_poll(debate.id, clock.now() + timedelta(hours=hours))


async def close_poll(room: Room, store: Store, clock: Clock, debate: Debate) -> PollClosed:
    """End the poll if it still runs, and read its votes."""
    counts = await room.votes(debate)
    await store.timer_done(debate.id, clock.now())
    return PollClosed(counts or (), lost=counts is None)
