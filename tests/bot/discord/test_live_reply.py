"""A reply shown as it is written: the embed appears with the first text, grows in coalesced
edits, and becomes the reply's first final message (the final posts as they always were)."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import replace

import pytest

from bot.discord import render
from bot.discord.room import Pace
from bot.discord.room.turn import LIVE_TEXT_LIMIT
from handlers.core.effects import OpenRoom, PostCard, UpdateStatus
from handlers.core.formats.boardroom.rules import POSITION
from handlers.core.model import CLAUDE, FailureKind, OpenAsk
from handlers.core.participants import AG
from handlers.ports import DebaterError
from tests.bot.discord.conftest import KO
from tests.bot.discord.test_room import bot_posts, db, debate, room, turn
from tests.effects import posted
from tests.fakes.discord_fixtures import ListeningClient, client
from tests.fakes.discord_limits import visible_text
from tests.fakes.fake_discord import FakeDiscord, RestCall
from tools.store.db import Database

__all__ = ["client", "db"]

POST = ("POST", "/channels/{channel_id}/messages")
EDIT = ("PATCH", "/channels/{channel_id}/messages/{message_id}")
TYPING = ("POST", "/channels/{channel_id}/typing")


def description(call_json: dict[str, object]) -> str:
    embeds = call_json["embeds"]
    assert isinstance(embeds, list)
    return str(embeds[0]["description"])


async def test_the_reply_grows_in_one_message_that_becomes_its_first_final_post(
    fake: FakeDiscord, client: ListeningClient, db: Database
) -> None:
    the_room = room(client, db, live_window_s=0.2, pace=Pace(typing_every_s=0.02))
    state = replace(debate(fake), floor=replace(debate(fake).floor, asked=(OpenAsk(CLAUDE, 1),)))
    text = "".join(f"{i:04d} 캐시는 Redis로 간다; 근거는 운영 부담이다.\n" for i in range(300))
    pieces = [text[:end] for end in range(250, len(text) + 250, 250)]
    working = the_room.working(state, CLAUDE)
    async with working:
        await fake.wait_for_call(*TYPING)  # typing, while nothing is written yet
        working.show_text(pieces[0])
        first = await fake.wait_for_call(*POST)
        assert description(first.json) == pieces[0]  # visible with the first text
        assert KO("front.live_note", seat="Claude") in str(first.json)
        typing = len(fake.calls_to(*TYPING))
        for piece in pieces[1:]:  # written faster than the window: folded into few edits
            working.show_text(piece)
        last = await fake.wait_for_call(
            *EDIT, lambda c: description(c.json).endswith(text[-100:]), timeout=10
        )
        assert description(last.json) == "…" + text[-LIVE_TEXT_LIMIT:]  # what fits, said so
        assert str(len(text)) in str(last.json)
        # Typing went on until the text showed (and perhaps one already under way); not after.
        assert typing >= 1 and len(fake.calls_to(*TYPING)) <= typing + 1
    live_edits = len(fake.calls_to(*EDIT))
    assert live_edits < len(pieces) // 4  # coalesced
    gaps = [b.at - a.at for a, b in itertools.pairwise(fake.calls_to(*EDIT))]
    assert all(gap >= 0.19 for gap in gaps)  # one edit per window, at most
    assert len(fake.calls_to(*POST)) == 1

    await the_room.show(state, *posted(turn(text)))
    posts = bot_posts(fake)
    expected = [
        [e.to_dict() for e in batch] for batch in render.turn_messages(turn(text), KO, state)
    ]
    assert len(posts) == len(expected) >= 2  # no live copy left over
    assert posts[0]["id"] == first.response["id"]  # the live message became the first post
    for message, batch in zip(posts, expected, strict=True):
        assert [e.get("description") for e in message["embeds"]] == [
            e.get("description") for e in batch
        ]
    assert (
        "".join(d for p in posts for e in p["embeds"] if (d := e.get("description"))).count(
            "0299 캐시는"
        )
        == 1
    )


async def test_a_failed_turn_takes_its_live_message_away(
    fake: FakeDiscord, client: ListeningClient, db: Database
) -> None:
    the_room = room(client, db, live_window_s=0.2)
    state = replace(debate(fake), floor=replace(debate(fake).floor, asked=(OpenAsk(CLAUDE, 1),)))
    working = the_room.working(state, CLAUDE)
    with pytest.raises(DebaterError):
        async with working:
            working.show_text("절반쯤 쓴 답")
            await fake.wait_for_call(*POST)
            raise DebaterError(FailureKind.TIMEOUT)
    await fake.wait_for_call("DELETE", "/channels/{channel_id}/messages/{message_id}")
    assert bot_posts(fake) == []
    assert await the_room.recorded(state.id, "live:1:0") is None  # a retry starts anew


async def test_the_status_says_who_is_writing_from_the_first_text_on(
    fake: FakeDiscord, client: ListeningClient, db: Database
) -> None:
    the_room = room(client, db, live_window_s=0.2, status_window_s=0.05)
    state = replace(
        debate(fake), floor=replace(debate(fake).floor, asked=(OpenAsk(AG, 1),), speaker=AG)
    )
    await the_room.show(state, PostCard())
    await the_room.show(state, OpenRoom())
    writing = KO("front.status_writing", seat="AG")
    status = await the_room.recorded(state.id, "status")
    assert status is not None and writing not in status[2]

    def status_edit(with_note: bool) -> Callable[[RestCall], bool]:
        return lambda c: (
            c.path.endswith(str(status[1])) and (writing in visible_text(c.json)) is with_note
        )

    working = the_room.working(state, AG)
    with pytest.raises(DebaterError):
        async with working:
            assert not fake.calls_to(*EDIT)  # nothing written yet: the status is as it was
            working.show_text("AG의 첫 메시지")  # AG's first message in the relay channel
            await fake.wait_for_call(*EDIT, status_edit(True))
            raise DebaterError(FailureKind.TIMEOUT)
    await fake.wait_for_call(*EDIT, status_edit(False))  # the turn ended: the note goes


async def test_a_blind_round_shows_no_live_text_only_who_is_writing(
    fake: FakeDiscord, client: ListeningClient, db: Database
) -> None:
    the_room = room(client, db, live_window_s=0.05, status_window_s=0.05)
    asks = (OpenAsk(CLAUDE, 1), OpenAsk(AG, 2))  # boardroom round 1: both at once, isolated
    state = replace(
        debate(fake),
        setup=replace(debate(fake).setup, format="boardroom"),
        floor=replace(debate(fake).floor, step=POSITION, asked=asks, speaker=CLAUDE),
    )
    await the_room.show(state, PostCard())
    await the_room.show(state, OpenRoom())
    status = await the_room.recorded(state.id, "status")
    assert status is not None
    posts = len(fake.calls_to(*POST))
    writing = KO("front.status_writing", seat="AG, Claude")  # both seen writing

    claude, ag = the_room.working(state, CLAUDE), the_room.working(state, AG)
    async with claude, ag:
        claude.show_text("Claude: 라운드 1의 비밀 답")  # the CLI started writing
        ag.show_text("AG: 라운드 1의 비밀 답")  # AG wrote in the relay channel
        await fake.wait_for_call(
            *EDIT, lambda c: c.path.endswith(str(status[1])) and writing in visible_text(c.json)
        )
    assert len(fake.calls_to(*POST)) == posts  # nothing of the answer in the thread
    assert "비밀" not in str([c.json for c in fake.calls_to(*EDIT)])


async def test_a_status_refresh_that_would_show_the_same_line_sends_no_edit(
    fake: FakeDiscord, client: ListeningClient, db: Database
) -> None:
    the_room = room(client, db, status_window_s=60)  # each edit sent by `flush`, not a timer
    state = debate(fake)
    await the_room.show(state, PostCard())
    await the_room.show(state, OpenRoom())
    status = await the_room.recorded(state.id, "status")
    assert status is not None

    def edits() -> int:
        return sum(1 for c in fake.calls_to(*EDIT) if c.path.endswith(str(status[1])))

    await the_room.show(replace(state, floor=replace(state.floor, round=2)), UpdateStatus())
    await the_room.status.flush()
    assert edits() == 1
    await the_room.show(
        replace(state, floor=replace(state.floor, round=2)), UpdateStatus()
    )  # the same line again
    await the_room.status.flush()
    assert edits() == 1
    await the_room.show(replace(state, floor=replace(state.floor, round=3)), UpdateStatus())
    await the_room.status.flush()
    assert edits() == 2
