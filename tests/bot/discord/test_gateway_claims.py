"""Two gateway processes' front ends receive the same words typed in a debate's thread (as
every session of the bot does): the engine gets them once, from whichever claims the message.
The message is a real one, received by the real client from the fake Discord."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import discord

from bot.discord.front import DiscordFront
from handlers.core.admission import Admission, Submitted
from handlers.core.events import Event, PeopleSaid
from handlers.core.i18n import Strings
from handlers.core.model import Debate, Phase, Proposal
from handlers.detection import DetectionHandler, DetectionLimits
from handlers.rules_moderator import RulesModerator
from tests.doubles import FakeClock, draft
from tests.fakes.discord_fixtures import ListeningClient
from tests.fakes.fake_discord import FakeDiscord
from tests.handlers.conftest import proposal
from tools.store.claims import DatabaseClaims
from tools.store.db import Database
from tools.store.room_messages import RoomMessages

DEBATE = replace(draft(proposal(), 3, datetime(2026, 12, 1, tzinfo=UTC)), id=1)


class Engine:
    """The engine as a front end sees it: the debate speaking, and what it was handed."""

    def __init__(self) -> None:
        self.submitted: list[Event] = []

    async def get(self, debate_id: int) -> Debate:
        return replace(DEBATE, phase=Phase.SPEAKING)

    async def submit(self, debate_id: int, event: Event) -> Submitted:
        self.submitted.append(event)
        return Submitted(Admission.TAKEN)

    async def propose(self, proposal: Proposal) -> Debate | None:
        return None


async def no_open_topic(channel_id: int, topic: str) -> bool:
    return False


def front(engine: Engine, db: Database) -> DiscordFront:
    """One gateway process's front end, claiming events in the shared database."""
    detection = DetectionHandler(
        RulesModerator(Strings("ko")),
        channels=(),
        bot_user_id=0,
        limits=DetectionLimits(0, 3, 0.5),
        clock=FakeClock(),
        has_open_topic=no_open_topic,
    )
    return DiscordFront(
        engine,
        detection,
        RoomMessages(db),
        Strings("ko"),
        approver_role_id=None,
        claims=DatabaseClaims(db),
    )


async def test_words_in_a_thread_reach_the_engine_from_one_gateway_of_two(
    fake: FakeDiscord, client: ListeningClient, tmp_path: Path
) -> None:
    db = await Database.open(str(tmp_path / "shared.sqlite3"))
    try:
        channel = client.get_channel(int(fake.text_channel["id"]))
        assert isinstance(channel, discord.TextChannel) and client.user is not None
        card = await channel.send("card")
        thread = await card.create_thread(name="debate")
        await RoomMessages(db).put_all(1, [("thread", (thread.id, thread.id, thread.jump_url))])
        received: asyncio.Queue[discord.Message] = asyncio.Queue()
        client.message_listeners.append(received.put)
        alice = fake.add_user("alice")
        await fake.user_message(alice, "traffic is 20k/s", channel_id=str(thread.id))
        message = await asyncio.wait_for(received.get(), 5)

        engine = Engine()
        fronts = [front(engine, db) for _ in "ab"]  # both processes got the message
        await asyncio.gather(*(f.on_message(message, client.user.id) for f in fronts))
        assert [type(e) for e in engine.submitted] == [PeopleSaid]  # passed on once
    finally:
        await db.close()
