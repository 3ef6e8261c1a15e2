"""The AG relay against the fake Discord, with AG as a second real discord.py client."""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import AsyncIterator
from dataclasses import replace

import discord
import pytest

from bot.discord.ag.relay import AG_MODEL, AgRelayDebater
from handlers.core.model import FailureKind
from handlers.core.reply.parser import parse_reply
from handlers.leasing import LeaseLost
from handlers.ports import DebaterError, TurnRequest
from tests.bot.discord.pieces import join_pieces
from tests.fakes.discord_fixtures import ListeningClient
from tests.fakes.discord_world import Json
from tests.fakes.fake_discord import FakeDiscord
from tools.store.db import Database
from tools.store.room_messages import RoomMessages

BLOCK = '```json\n{"opinion": "LRU first, Redis past three instances.", "stance": "partial"}\n```'


@pytest.fixture
async def db(database_target: str) -> AsyncIterator[Database]:
    """The store on SQLite, then on PostgreSQL."""
    database = await Database.open(database_target)
    yield database
    await database.close()


def make_relay(
    client: ListeningClient, db: Database, ag: discord.Client, **options: object
) -> AgRelayDebater:
    """A relay the bot's client forwards every message to, as DebateBot will."""
    assert ag.user is not None
    settings: dict[str, object] = {"relay_channel_id": None, "timeout_s": 5.0, "quiet_s": 5.0}
    settings.update(options)
    relay = AgRelayDebater(client, RoomMessages(db), ag_user_ids=[ag.user.id], **settings)  # type: ignore[arg-type]  # the test's relay settings
    client.message_listeners.append(relay.on_message)
    return relay


async def open_thread(fake: FakeDiscord, client: discord.Client, db: Database) -> int:
    """The debate's thread, recorded the way the room records it."""
    channel = client.get_channel(int(fake.text_channel["id"]))
    assert isinstance(channel, discord.TextChannel)
    card = await channel.send("card")
    thread = await card.create_thread(name="🗳️ 캐시 계층")
    await db.execute(
        "INSERT INTO room_messages (debate_id, key, channel_id, message_id) VALUES (?, ?, ?, ?)",
        (12, "thread", thread.id, card.id),
    )
    return thread.id


def request(
    turn: int = 2, prompt: str = "Claude said: use Redis.\n---\n사회자: 검토해 주세요."
) -> TurnRequest:
    return TurnRequest(debate_id=12, turn=turn, round=1, prompt=prompt)


async def prompt_in(fake: FakeDiscord, channel_id: int, tag: str) -> Json:
    """The relay's first prompt message carrying `tag`."""
    return await fake.wait_for_message(
        lambda m: m["channel_id"] == str(channel_id) and tag in m["content"]
    )


def bot_messages(fake: FakeDiscord, channel_id: int) -> list[Json]:
    return [
        m
        for m in fake.messages_in(str(channel_id))
        if m["author"]["id"] == fake.bot_user["id"] and m["type"] == 0
    ]


async def ag_says(
    ag: discord.Client, channel_id: int, content: str = "", **kw: object
) -> discord.Message:
    channel = ag.get_channel(channel_id) or await ag.fetch_channel(channel_id)
    assert isinstance(channel, discord.TextChannel | discord.Thread)
    return await channel.send(content, **kw)


async def test_prompt_pings_only_ag_and_a_long_prompt_is_split_losslessly(
    fake: FakeDiscord, client: ListeningClient, ag_client: ListeningClient, db: Database
) -> None:
    thread_id = await open_thread(fake, client, db)
    relay = make_relay(client, db, ag_client)
    role = fake.world.add_role("everyone-ish")
    prompt = (
        "Claude: @everyone <@&"
        + role["id"]
        + "> read this.\n\n"
        + "본문 " * 900
        + "\n```py\n"
        + "print('x')\n" * 200
        + "```\nEnd."
    )
    task = asyncio.create_task(relay.speak(request(prompt=prompt)))
    first = await prompt_in(fake, thread_id, "[debate 12 · turn 2]")
    assert ag_client.user is not None
    assert first["content"].startswith(f"<@{ag_client.user.id}> [debate 12 · turn 2]\n")
    await ag_says(ag_client, thread_id, BLOCK)
    output = await asyncio.wait_for(task, 5)

    parts = bot_messages(fake, thread_id)
    assert len(parts) >= 3
    assert all(len(m["content"]) <= 2000 for m in parts)
    header = f"<@{ag_client.user.id}> [debate 12 · turn 2]\n"
    pieces = [parts[0]["content"].removeprefix(header)] + [m["content"] for m in parts[1:]]
    assert join_pieces(pieces) == prompt
    assert [u["id"] for u in parts[0]["mentions"]] == [str(ag_client.user.id)]
    assert not parts[0]["mention_everyone"] and not parts[0]["mention_roles"]
    assert fake.allowed_mentions[parts[0]["id"]] == {"parse": [], "users": [ag_client.user.id]}
    for later in parts[1:]:
        assert not fake.world.was_pinged(later["id"])
    assert output.text == BLOCK


async def test_reply_in_three_messages_and_an_attachment_is_assembled(
    fake: FakeDiscord, client: ListeningClient, ag_client: ListeningClient, db: Database
) -> None:
    thread_id = await open_thread(fake, client, db)
    relay = make_relay(client, db, ag_client)
    task = asyncio.create_task(relay.speak(request()))
    await prompt_in(fake, thread_id, "[debate 12 · turn 2]")
    await ag_says(ag_client, thread_id, "1/3 캐시는")
    await ag_says(ag_client, thread_id, "2/3 운영 부담을")
    attachment = discord.File(io.BytesIO(("3/3 본문\n" + BLOCK).encode()), filename="reply.md")
    await ag_says(ag_client, thread_id, "3/3 첨부 참고", file=attachment)
    output = await asyncio.wait_for(task, 5)

    assert output.text == f"1/3 캐시는\n2/3 운영 부담을\n3/3 첨부 참고\n3/3 본문\n{BLOCK}"
    assert parse_reply(output.text).opinion.endswith("LRU first, Redis past three instances.")
    raw = json.loads(output.raw)
    assert [m["content"] for m in raw["messages"]] == [
        "1/3 캐시는",
        "2/3 운영 부담을",
        "3/3 첨부 참고",
    ]
    assert raw["messages"][2]["attachments"] == [
        {"filename": "reply.md", "text": "3/3 본문\n" + BLOCK}
    ]
    assert output.meta.model == AG_MODEL
    assert output.meta.latency_s >= 0


async def test_someone_imitating_ag_is_never_taken(
    fake: FakeDiscord, client: ListeningClient, ag_client: ListeningClient, db: Database
) -> None:
    thread_id = await open_thread(fake, client, db)
    relay = make_relay(client, db, ag_client, quiet_s=0.2)
    impostor = fake.add_user("AG")  # same name, another account
    other_bot, _ = fake.add_bot("AG-bot")
    task = asyncio.create_task(relay.speak(request()))
    await prompt_in(fake, thread_id, "[debate 12 · turn 2]")
    fake_block = BLOCK.replace("LRU first", "IMPOSTOR")
    await fake.user_message(impostor, f"AG: {fake_block}", channel_id=str(thread_id))
    await fake.user_message(other_bot, fake_block, channel_id=str(thread_id))
    await fake.user_message(
        impostor, "", channel_id=str(thread_id), attachments=[("reply.md", fake_block)]
    )
    assert not task.done()
    await ag_says(ag_client, thread_id, "the real answer")
    output = await asyncio.wait_for(task, 5)
    assert output.text == "the real answer"
    assert "IMPOSTOR" not in output.raw


async def test_ag_elsewhere_or_answering_another_message_does_not_count(
    fake: FakeDiscord, client: ListeningClient, ag_client: ListeningClient, db: Database
) -> None:
    thread_id = await open_thread(fake, client, db)
    relay = make_relay(client, db, ag_client, quiet_s=0.2)
    task = asyncio.create_task(relay.speak(request()))
    await prompt_in(fake, thread_id, "[debate 12 · turn 2]")
    await ag_says(ag_client, int(fake.text_channel["id"]), "wrong channel " + BLOCK)
    card = fake.messages_in(fake.text_channel["id"])[0]
    channel = ag_client.get_channel(thread_id) or await ag_client.fetch_channel(thread_id)
    assert isinstance(channel, discord.Thread)
    reference = discord.MessageReference(
        message_id=int(card["id"]),
        channel_id=int(fake.text_channel["id"]),
        fail_if_not_exists=False,
    )
    await channel.send("a reply to the card, not to the prompt", reference=reference)
    await ag_says(ag_client, thread_id, "the answer")
    output = await asyncio.wait_for(task, 5)
    assert output.text == "the answer"


async def test_silence_is_a_timeout_and_a_retry_asks_again(
    fake: FakeDiscord, client: ListeningClient, ag_client: ListeningClient, db: Database
) -> None:
    thread_id = await open_thread(fake, client, db)
    relay = make_relay(client, db, ag_client, timeout_s=0.3)
    with pytest.raises(DebaterError) as caught:
        await relay.speak(request())
    assert caught.value.kind is FailureKind.TIMEOUT
    assert len(bot_messages(fake, thread_id)) == 1

    retry = asyncio.create_task(relay.speak(request()))
    await fake.wait_for_message(
        lambda m: m["channel_id"] == str(thread_id) and len(bot_messages(fake, thread_id)) == 2
    )
    await ag_says(ag_client, thread_id, BLOCK)
    output = await asyncio.wait_for(retry, 5)
    assert output.text == BLOCK


async def test_quiet_after_an_unstructured_reply_ends_the_turn(
    fake: FakeDiscord, client: ListeningClient, ag_client: ListeningClient, db: Database
) -> None:
    thread_id = await open_thread(fake, client, db)
    relay = make_relay(client, db, ag_client, quiet_s=0.1)
    task = asyncio.create_task(relay.speak(request()))
    await prompt_in(fake, thread_id, "[debate 12 · turn 2]")
    await ag_says(ag_client, thread_id, "no block, just prose")
    output = await asyncio.wait_for(task, 5)
    assert output.text == "no block, just prose"


async def test_a_configured_relay_channel_is_used_instead_of_the_thread(
    fake: FakeDiscord, client: ListeningClient, ag_client: ListeningClient, db: Database
) -> None:
    relay_channel = fake.world.add_text_channel("ag-relay")
    await fake.dispatch("CHANNEL_CREATE", relay_channel)
    relay = make_relay(client, db, ag_client, relay_channel_id=int(relay_channel["id"]))
    task = asyncio.create_task(relay.speak(request(turn=5)))
    await prompt_in(fake, int(relay_channel["id"]), "[debate 12 · turn 5]")
    await ag_says(ag_client, int(relay_channel["id"]), BLOCK)
    assert (await asyncio.wait_for(task, 5)).text == BLOCK


async def test_without_a_thread_or_relay_channel_the_turn_fails_plainly(
    client: ListeningClient, ag_client: ListeningClient, db: Database
) -> None:
    relay = make_relay(client, db, ag_client)
    with pytest.raises(DebaterError) as caught:
        await relay.speak(request())
    assert caught.value.kind is FailureKind.USAGE


async def test_after_a_restart_nothing_is_posted_twice_and_the_reply_is_picked_up(
    fake: FakeDiscord, client: ListeningClient, ag_client: ListeningClient, db: Database
) -> None:
    thread_id = await open_thread(fake, client, db)
    relay = make_relay(client, db, ag_client)
    long_prompt = "문단 " * 1500  # three messages
    first_run = asyncio.create_task(relay.speak(request(prompt=long_prompt)))
    await prompt_in(fake, thread_id, "[debate 12 · turn 2]")
    await fake.wait_for_message(lambda m: len(bot_messages(fake, thread_id)) == 3)
    first_run.cancel()  # the bot goes down mid-turn
    with pytest.raises(asyncio.CancelledError):
        await first_run
    client.message_listeners.clear()
    posted = len(bot_messages(fake, thread_id))

    await ag_says(ag_client, thread_id, "answered while the bot was down")
    await ag_says(ag_client, thread_id, BLOCK)

    restarted = make_relay(client, db, ag_client)  # a new process: new relay, same database
    output = await asyncio.wait_for(restarted.speak(request(prompt=long_prompt)), 5)
    assert output.text == f"answered while the bot was down\n{BLOCK}"
    assert len(bot_messages(fake, thread_id)) == posted
    keys = [
        row["key"]
        for row in await db.fetch_all(
            "SELECT key FROM room_messages WHERE debate_id = 12 ORDER BY key"
        )
    ]
    assert keys == ["relay:2", "relay:2:0", "relay:2:1", "relay:2:2", "thread"]


async def test_a_crash_mid_prompt_posts_only_the_missing_parts(
    fake: FakeDiscord, client: ListeningClient, ag_client: ListeningClient, db: Database
) -> None:
    thread_id = await open_thread(fake, client, db)
    relay = make_relay(client, db, ag_client)
    long_prompt = "문단 " * 1500
    # The first part goes through, the second is refused: what a crash mid-prompt leaves.
    fake.inject_error("POST", rf"/channels/{thread_id}/messages", 403, code=50013, after=1)
    run = asyncio.create_task(relay.speak(request(prompt=long_prompt)))
    with pytest.raises(DebaterError) as caught:
        await asyncio.wait_for(run, 5)
    assert caught.value.kind is FailureKind.USAGE
    assert len(bot_messages(fake, thread_id)) == 1

    resumed = asyncio.create_task(relay.speak(request(prompt=long_prompt)))
    await fake.wait_for_message(lambda m: len(bot_messages(fake, thread_id)) == 3)
    await ag_says(ag_client, thread_id, BLOCK)
    assert (await asyncio.wait_for(resumed, 5)).text == BLOCK
    parts = bot_messages(fake, thread_id)
    header = parts[0]["content"].split("\n", 1)[0] + "\n"
    pieces = [parts[0]["content"].removeprefix(header)] + [m["content"] for m in parts[1:]]
    assert join_pieces(pieces) == long_prompt


async def test_a_part_posted_but_not_recorded_is_not_posted_again(
    fake: FakeDiscord, client: ListeningClient, ag_client: ListeningClient, db: Database
) -> None:
    """A crash between Discord's answer and the database write: the nonce stops a double."""
    thread_id = await open_thread(fake, client, db)
    relay = make_relay(client, db, ag_client)
    long_prompt = "문단 " * 1500
    task = asyncio.create_task(relay.speak(request(prompt=long_prompt)))
    await prompt_in(fake, thread_id, "[debate 12 · turn 2]")
    await ag_says(ag_client, thread_id, BLOCK)
    await asyncio.wait_for(task, 5)
    posted = len(bot_messages(fake, thread_id))
    await db.execute("DELETE FROM room_messages WHERE key IN ('relay:2', 'relay:2:2')")

    again = await asyncio.wait_for(
        make_relay(client, db, ag_client).speak(request(prompt=long_prompt)), 5
    )
    assert again.text == BLOCK
    assert len(bot_messages(fake, thread_id)) == posted == 3
    nonces = [
        c.json["nonce"]
        for c in fake.calls_to("POST", "/channels/{channel_id}/messages")
        if c.path == f"/channels/{thread_id}/messages"
        and c.headers["Authorization"] == f"Bot {fake.token}"
    ]
    assert len(nonces) == 4 and nonces[2] == nonces[3]


async def test_the_rules_open_ags_first_prompt_of_a_debate_only(
    fake: FakeDiscord, client: ListeningClient, ag_client: ListeningClient, db: Database
) -> None:
    thread_id = await open_thread(fake, client, db)
    relay = make_relay(client, db, ag_client, briefing="RULES: documents only.")
    first = asyncio.create_task(relay.speak(request(turn=2, prompt="첫 질문")))
    opening = await prompt_in(fake, thread_id, "[debate 12 · turn 2]")
    await ag_says(ag_client, thread_id, BLOCK)
    await asyncio.wait_for(first, 5)
    assert "RULES: documents only.\n\n---\n\n첫 질문" in opening["content"]

    second = asyncio.create_task(relay.speak(request(turn=4, prompt="두 번째")))
    later = await prompt_in(fake, thread_id, "[debate 12 · turn 4]")
    await ag_says(ag_client, thread_id, BLOCK)
    await asyncio.wait_for(second, 5)
    assert "RULES" not in later["content"] and later["content"].endswith("두 번째")

    fresh = TurnRequest(debate_id=12, turn=6, round=3, prompt="새 세션", fresh_session=True)
    third = asyncio.create_task(relay.speak(fresh))
    restarted = await prompt_in(fake, thread_id, "[debate 12 · turn 6]")
    await ag_says(ag_client, thread_id, BLOCK)
    await asyncio.wait_for(third, 5)
    assert "RULES: documents only." in restarted["content"]


async def test_two_debates_on_one_relay_channel_each_get_their_own_late_answer(
    fake: FakeDiscord,
    client: ListeningClient,
    ag_client: ListeningClient,
    db: Database,
    caplog: pytest.LogCaptureFixture,
) -> None:
    relay_channel = fake.world.add_text_channel("ag-relay")
    await fake.dispatch("CHANNEL_CREATE", relay_channel)
    channel_id = int(relay_channel["id"])
    relay = make_relay(client, db, ag_client, relay_channel_id=channel_id, timeout_s=0.3)
    first = TurnRequest(debate_id=1, turn=3, round=2, prompt="debate one, turn three")
    with pytest.raises(DebaterError):  # AG is late for debate 1
        await relay.speak(first)

    second = asyncio.create_task(
        relay.speak(TurnRequest(debate_id=2, turn=1, round=1, prompt="debate two, turn one"))
    )
    await prompt_in(fake, channel_id, "[debate 2 · turn 1]")
    late = '[debate 1 · turn 3]\n```json\n{"opinion": "late, for debate one"}\n```'
    await ag_says(ag_client, channel_id, late)
    await ag_says(ag_client, channel_id, '[debate 7 · turn 1]\n{"opinion": "nobody waits"}')
    answer = '[debate 2 · turn 1]\n```json\n{"opinion": "for debate two"}\n```'
    await ag_says(ag_client, channel_id, answer)
    output = await asyncio.wait_for(second, 5)
    assert output.text == answer.removeprefix("[debate 2 · turn 1]\n")  # the tag is addressing
    assert "debate 7 turn 1, which is not waiting" in caplog.text

    retry = await asyncio.wait_for(relay.speak(first), 5)  # the late answer, from the history
    assert retry.text == late.removeprefix("[debate 1 · turn 3]\n")


async def test_a_reply_to_the_prompt_message_is_matched_by_its_reference(
    fake: FakeDiscord, client: ListeningClient, ag_client: ListeningClient, db: Database
) -> None:
    relay_channel = fake.world.add_text_channel("ag-relay")
    await fake.dispatch("CHANNEL_CREATE", relay_channel)
    channel_id = int(relay_channel["id"])
    relay = make_relay(client, db, ag_client, relay_channel_id=channel_id)
    task = asyncio.create_task(relay.speak(request(turn=4)))
    prompt = await prompt_in(fake, channel_id, "[debate 12 · turn 4]")
    channel = ag_client.get_channel(channel_id) or await ag_client.fetch_channel(channel_id)
    assert isinstance(channel, discord.TextChannel)
    reference = discord.MessageReference(message_id=int(prompt["id"]), channel_id=channel_id)
    # quoting another tag inside a reply to this prompt does not make it someone else's
    text = "(about [debate 3 · turn 1])\n" + BLOCK
    await channel.send(text, reference=reference)
    assert (await asyncio.wait_for(task, 5)).text == text


async def test_the_reply_is_parsed_once_and_handed_over_with_the_text(
    fake: FakeDiscord, client: ListeningClient, ag_client: ListeningClient, db: Database
) -> None:
    thread_id = await open_thread(fake, client, db)
    relay = make_relay(client, db, ag_client)
    task = asyncio.create_task(relay.speak(request()))
    await prompt_in(fake, thread_id, "[debate 12 · turn 2]")
    await ag_says(ag_client, thread_id, "앞 " + BLOCK)
    output = await asyncio.wait_for(task, 5)
    assert output.parsed == parse_reply(output.text) and output.parsed.structured


async def test_a_400kb_attachment_full_of_object_starts_is_taken_whole(
    fake: FakeDiscord, client: ListeningClient, ag_client: ListeningClient, db: Database
) -> None:
    thread_id = await open_thread(fake, client, db)
    relay = make_relay(client, db, ag_client)
    task = asyncio.create_task(relay.speak(request()))
    await prompt_in(fake, thread_id, "[debate 12 · turn 2]")
    flood = '{"opinion": {"' * 30_000  # 420 KB that is no block: the quadratic case
    attachment = discord.File(io.BytesIO((flood + "\n" + BLOCK).encode()), filename="reply.md")
    await ag_says(ag_client, thread_id, "첨부", file=attachment)
    output = await asyncio.wait_for(task, 5)
    assert output.text == f"첨부\n{flood}\n{BLOCK}"
    assert output.parsed is not None and output.parsed.structured
    assert output.parsed.opinion.startswith("첨부\n" + flood.strip())


async def test_ag_writing_outside_the_thread_is_reported_from_its_first_message_on(
    fake: FakeDiscord, client: ListeningClient, ag_client: ListeningClient, db: Database
) -> None:
    relay_channel = fake.world.add_text_channel("ag-relay")
    await fake.dispatch("CHANNEL_CREATE", relay_channel)
    relay = make_relay(client, db, ag_client, relay_channel_id=int(relay_channel["id"]))
    channel_id = int(relay_channel["id"])
    shown: asyncio.Queue[str] = asyncio.Queue()
    ask = replace(request(turn=5), on_text=shown.put_nowait)
    task = asyncio.create_task(relay.speak(ask))
    await prompt_in(fake, channel_id, "[debate 12 · turn 5]")
    await ag_says(ag_client, channel_id, "1/2 캐시는 LRU로")
    assert await asyncio.wait_for(shown.get(), 5) == "1/2 캐시는 LRU로"  # before the rest
    await ag_says(ag_client, channel_id, BLOCK)
    assert (await asyncio.wait_for(task, 5)).text == f"1/2 캐시는 LRU로\n{BLOCK}"
    later = [shown.get_nowait() for _ in range(shown.qsize())]
    assert later[-1] == f"1/2 캐시는 LRU로\n{BLOCK}"


async def test_ag_writing_in_the_thread_itself_needs_no_report(
    fake: FakeDiscord, client: ListeningClient, ag_client: ListeningClient, db: Database
) -> None:
    thread_id = await open_thread(fake, client, db)
    relay = make_relay(client, db, ag_client)
    shown: list[str] = []
    task = asyncio.create_task(relay.speak(replace(request(), on_text=shown.append)))
    await prompt_in(fake, thread_id, "[debate 12 · turn 2]")
    await ag_says(ag_client, thread_id, BLOCK)
    assert (await asyncio.wait_for(task, 5)).text == BLOCK
    assert shown == []  # people watch AG's own messages there


async def test_ag_s_echo_of_the_relay_tag_is_not_part_of_its_words(
    fake: FakeDiscord, client: ListeningClient, ag_client: ListeningClient, db: Database
) -> None:
    thread_id = await open_thread(fake, client, db)
    relay = make_relay(client, db, ag_client)
    task = asyncio.create_task(relay.speak(request()))
    await prompt_in(fake, thread_id, "[debate 12 · turn 2]")
    assert ag_client.user is not None
    await ag_says(ag_client, thread_id, f"[debate 12 · turn 2] 답변입니다.\n{BLOCK}")
    output = await asyncio.wait_for(task, 5)

    assert output.text == f"답변입니다.\n{BLOCK}"  # shown, stored and relayed without it
    raw = json.loads(output.raw)
    assert raw["messages"][0]["content"].startswith("[debate 12 · turn 2] ")  # kept in the raw


class LostLease:
    """The guard of a process whose lease on the debate is gone."""

    def holds(self, debate_id: int) -> bool:
        return False

    def generation(self, debate_id: int) -> int | None:
        return None

    async def confirm(self, debate_id: int) -> None:
        raise LeaseLost(debate_id)


async def test_a_process_that_lost_the_lease_posts_no_prompt(
    fake: FakeDiscord, client: ListeningClient, ag_client: ListeningClient, db: Database
) -> None:
    thread = await open_thread(fake, client, db)
    relay = make_relay(client, db, ag_client, guard=LostLease())
    with pytest.raises(LeaseLost):
        await relay.speak(request())
    assert bot_messages(fake, thread) == []  # the new holder asks AG, once


async def test_a_worker_hears_nothing_and_reads_ags_reply_from_the_history(
    fake: FakeDiscord, client: ListeningClient, ag_client: ListeningClient, db: Database
) -> None:
    """Without a gateway (poll_s), AG's two messages are read from the channel's history, and
    a channel where AG says nothing times out."""
    thread_id = await open_thread(fake, client, db)
    relay = make_relay(client, db, ag_client, poll_s=0.05, quiet_s=0.5, timeout_s=1.0)
    client.message_listeners.remove(relay.on_message)  # a worker is forwarded nothing
    task = asyncio.create_task(relay.speak(request()))
    await prompt_in(fake, thread_id, "[debate 12 · turn 2]")
    await ag_says(ag_client, thread_id, "첫 부분.")
    await ag_says(ag_client, thread_id, "둘째 부분.")
    output = await asyncio.wait_for(task, 5)
    assert "첫 부분." in output.text and "둘째 부분." in output.text
    with pytest.raises(DebaterError) as failed:
        await asyncio.wait_for(relay.speak(request(turn=4)), 5)
    assert failed.value.kind is FailureKind.TIMEOUT


async def test_an_attachment_s_bytes_that_are_not_utf8_are_kept_as_themselves(
    fake: FakeDiscord, client: ListeningClient, ag_client: ListeningClient, db: Database
) -> None:
    thread_id = await open_thread(fake, client, db)
    relay = make_relay(client, db, ag_client)
    task = asyncio.create_task(relay.speak(request()))
    await prompt_in(fake, thread_id, "[debate 12 · turn 2]")
    data = b"Latin-1 caf\xe9, a NUL \x00.\n" + BLOCK.encode()
    await ag_says(ag_client, thread_id, "첨부", file=discord.File(io.BytesIO(data), "reply.txt"))
    output = await asyncio.wait_for(task, 5)

    assert output.text == "첨부\n" + data.decode("utf-8", "surrogateescape")  # not U+FFFD
    assert output.text.encode("utf-8", "surrogateescape") == "첨부\n".encode() + data
    prose = parse_reply(output.text).opinion
    assert "caf\\udce9, a NUL \\u0000." in prose  # shown, and said as what it was
