"""Words the people type in a debate's thread while no question is open reach the engine
through the Discord front end: the moderator's next judgement and the next debater get them,
attributed and verbatim; AG's own messages there are turns, not the people's words."""

from __future__ import annotations

import asyncio
from typing import Any

from handlers.core.admission import Submitted
from handlers.core.events import Event, PeopleSaid
from handlers.core.model import CLAUDE, Phase
from tests.bot.discord.conftest import BotRig, People
from tests.bot.discord.support import chat, click, wait_card

WORDS = "참고로 **트래픽은 초당 2만** 건이고 @everyone 운영 인력은 한 명입니다"


async def test_words_typed_in_the_thread_reach_the_moderator_and_the_next_debater(
    rig: BotRig, people: People
) -> None:
    rig.ag.hold.update({1, 2})  # AG's first turn waits until carol has typed
    await rig.start()
    await chat(rig, people)
    card, debate_id = await wait_card(rig)
    await click(rig, card["id"], f"debate:open:{debate_id}", people.alice)
    thread_id = card["id"]
    ag_turn = await rig.ag.wait_prompt(1)
    heard = _when_said(rig)
    await rig.fake.user_message(people.carol, WORDS, channel_id=thread_id)
    await asyncio.wait_for(heard.wait(), 10)
    await rig.ag.answer(ag_turn)
    await asyncio.wait_for(rig.handler.wait_idle(debate_id), 30)

    debate = await rig.handler.get(debate_id)
    assert debate.phase is Phase.CONCLUDED
    assert [(p.who, p.text) for p in debate.people.lines] == [("carol", WORDS)]  # AG's reply is not
    judged = [v for v in rig.moderator.views if v.people]
    assert len(judged) == 1 and judged[0].debate.floor.turns == ag_turn  # the next judgement, once
    after = [r for r in rig.claude.requests if r.turn > ag_turn]
    assert after and WORDS in after[0].prompt and "carol" in after[0].prompt
    assert all(WORDS not in r.prompt for r in after[1:])  # handed on once
    assert all(WORDS not in r.prompt for r in rig.claude.requests if r.turn < ag_turn)
    assert rig.claude.seat == CLAUDE


def _when_said(rig: BotRig) -> asyncio.Event:
    """Set once the front end has handed typed words to the engine (and they are stored)."""
    said = asyncio.Event()
    handler = rig.handler
    original = handler.submit

    async def submit_and_signal(debate_id: int, event: Event, **kw: Any) -> Submitted:
        stored = await original(debate_id, event, **kw)
        if isinstance(event, PeopleSaid):
            said.set()
        return stored

    handler.submit = submit_and_signal  # type: ignore[method-assign]  # signals each stored word
    return said
