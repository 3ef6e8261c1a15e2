"""DiscordRoom on its own against the fake: repeats post nothing, notices are whole, progress."""

from __future__ import annotations

import hashlib
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import discord
import pytest

from bot.discord.room import DiscordRoom, Pace
from handlers.core.effects import AskUser, Notify, OpenRoom, PostCard
from handlers.core.model import (
    CLAUDE,
    Conclusion,
    Debate,
    ParsedReply,
    Phase,
    Proposal,
    Setup,
    Turn,
    TurnMeta,
    UserQuestion,
)
from tests.bot.discord.conftest import KO
from tests.bot.discord.pieces import join_pieces
from tests.doubles import FakeClock
from tests.effects import concluded, posted
from tests.fakes.discord_fixtures import ListeningClient, client
from tests.fakes.discord_limits import as_embed, visible_text
from tests.fakes.discord_world import Json
from tests.fakes.fake_discord import FakeDiscord
from tests.handlers.doubles import FakeWiki
from tools.store.db import Database
from tools.store.proposals import Proposals
from tools.store.room_messages import RoomMessages

__all__ = ["client"]

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


@pytest.fixture
async def db(database_target: str) -> AsyncIterator[Database]:
    """The store on SQLite, then on PostgreSQL."""
    database = await Database.open(database_target)
    yield database
    await database.close()


def debate(fake: FakeDiscord) -> Debate:
    proposal = Proposal(
        channel_id=int(fake.text_channel["id"]),
        topic="캐시 계층",
        question="q",
        reason="r",
        confidence=0.9,
        context="",
        people_ids=(1,),
    )
    return Debate(id=7, proposal=proposal, phase=Phase.SPEAKING, created_at=NOW, setup=Setup(3))


def turn(text: str) -> Turn:
    return Turn(
        debate_id=7,
        number=1,
        round=1,
        seat=CLAUDE,
        text=text,
        raw=text,
        sha256=hashlib.sha256(text.encode()).hexdigest(),
        parsed=ParsedReply(opinion=text, structured=False),
        meta=TurnMeta(model="sonnet", latency_s=41),
        at=NOW,
    )


def room(client: ListeningClient, db: Database, **options: object) -> DiscordRoom:
    return DiscordRoom(client, RoomMessages(db), Proposals(db), KO, FakeClock(), **options)  # type: ignore[arg-type]  # the test's room options


def bot_posts(fake: FakeDiscord) -> list[Json]:
    return [
        m
        for m in fake.messages_in(fake.text_channel["id"])
        if m["author"]["id"] == fake.bot_user["id"]
    ]


async def test_a_repeated_turn_posts_nothing_even_when_the_record_was_lost(
    fake: FakeDiscord, client: ListeningClient, db: Database
) -> None:
    text = "긴 답변 " * 3000  # three messages
    first = await room(client, db).show(debate(fake), *posted(turn(text)))
    sent = len(bot_posts(fake))
    assert sent >= 2
    # After a restart, the same call finds the records and posts nothing.
    assert await room(client, db).show(debate(fake), *posted(turn(text))) == first
    # A crash between the send and the record loses the record: the nonce still holds.
    await db.execute("DELETE FROM room_messages WHERE debate_id = 7")
    await room(client, db).show(debate(fake), *posted(turn(text)))
    assert len(bot_posts(fake)) == sent
    assert all(
        c.json.get("enforce_nonce")
        for c in fake.calls_to("POST", "/channels/{channel_id}/messages")
    )


async def test_a_notice_is_said_once_in_the_same_state_and_never_cut(
    fake: FakeDiscord, client: ListeningClient, db: Database
) -> None:
    the_room, state = room(client, db), debate(fake)
    answer = "가나 " * 900  # the notice is longer than one message's 2000 characters
    await the_room.show(state, Notify("user.answered", (("user", "alice"), ("answer", answer))))
    await the_room.show(state, Notify("user.answered", (("user", "alice"), ("answer", answer))))
    contents = [str(visible_text(m)) for m in bot_posts(fake)]
    assert len(contents) == 2 and all(len(c) <= 2000 for c in contents)
    assert join_pieces(contents) == KO("user.answered", user="alice", answer=answer)


async def test_a_long_turn_shows_typing_and_says_it_is_still_working(
    fake: FakeDiscord, client: ListeningClient, db: Database
) -> None:
    the_room = room(client, db, pace=Pace(typing_every_s=0.01, still_working_every_s=0.03))
    line = KO("front.still_working", seat="Claude", minutes=0)
    async with the_room.working(debate(fake), CLAUDE):
        await fake.wait_for_message(lambda m: visible_text(m) == line)
    assert (fake.text_channel["id"], fake.bot_user["id"]) in fake.world.typing


async def test_open_adopts_a_thread_made_just_before_a_crash(
    fake: FakeDiscord, client: ListeningClient, db: Database
) -> None:
    state = debate(fake)
    await room(client, db).show(state, PostCard())
    card_id = str(bot_posts(fake)[0]["id"])
    channel = client.get_channel(int(fake.text_channel["id"]))
    assert isinstance(channel, discord.TextChannel)
    await channel.get_partial_message(int(card_id)).create_thread(name="before the crash")
    # The thread exists but was never recorded: opening again adopts it (Discord says 160004).
    await room(client, db).show(state, OpenRoom())
    assert fake.channels[card_id]["name"] == "before the crash"
    assert len(fake.calls_to("POST", "/channels/{channel_id}/messages/{message_id}/threads")) == 2
    status = await fake.wait_for_message(lambda m: m["channel_id"] == card_id and visible_text(m))
    assert visible_text(status).startswith("라운드 0/3")
    assert [mid for mid, _ in fake.world.pins[card_id]] == [status["id"]]


async def test_a_long_question_is_posted_whole_and_its_embed_says_so(
    fake: FakeDiscord, client: ListeningClient, db: Database
) -> None:
    long_option = "옵션 " * 40  # 120 characters: more than a button label holds
    question = UserQuestion(text="질문 본문 " * 1200, options=(long_option, "아니오"))
    await room(client, db).show(debate(fake), AskUser(question))
    posts = bot_posts(fake)
    *whole, asked = posts
    body = "".join(e["description"] for m in whole for e in m["embeds"])
    assert body == f"{question.text}\n\n1. {long_option}\n2. 아니오"
    description = as_embed(asked)["description"]
    omitted = len(body) - description.index("… (")
    assert len(description) <= 4096
    assert description.endswith(KO("front.cut_question", omitted=omitted))
    labels = [b["label"] for row in asked["components"] for b in row["components"]]
    shown = labels[0].index("…")
    assert len(labels[0]) <= 80 and labels[0].endswith(f"(+{len(long_option) - shown})")
    assert labels[0].startswith(long_option[:60]) and labels[1] == "아니오"


async def test_a_long_decision_says_how_much_is_left_and_where_the_whole_is(
    fake: FakeDiscord, client: ListeningClient, db: Database
) -> None:
    decision = "결론: LRU로 간다. " * 500
    conclusion = Conclusion(decision=decision, agreed=("a",), open_issues=(), positions=())
    await room(client, db).show(debate(fake), *concluded(debate(fake), conclusion, FakeWiki()))
    description = as_embed(bot_posts(fake)[-2])["description"]  # the export comes last
    omitted = len(decision) - description.index("… (")
    assert len(description) <= 4096 and decision.startswith(description[:3000])
    assert description.endswith(KO("front.cut_conclusion", omitted=omitted))
