"""Shared steps and checks of the bot tests: chat, the card, clicks, turns, mentions."""

from __future__ import annotations

from collections import Counter

from bot.formatting import SEAT_COLOURS
from tests.bot.discord.conftest import KO, BotRig, People
from tests.bot.discord.pieces import join_pieces
from tests.fakes.discord_interactions import FLAG_EPHEMERAL
from tests.fakes.discord_limits import visible_text, walk
from tests.fakes.discord_world import Json
from tools.store.db import Database
from tools.store.debates import SqliteStore

THREADS = "/channels/{channel_id}/messages/{message_id}/threads"
EDIT = "/channels/{channel_id}/messages/{message_id}"
CHAT = (
    "캐시 계층을 Redis로 갈지 그냥 in-process LRU로 갈지 아직 못 정했네. 장단점이 있어서 애매하다",
    "멀티 인스턴스면 Redis가 맞지 않아? 근데 운영 부담이… 어느 쪽이 나을까 결정해야 해",
)


async def chat(rig: BotRig, people: People) -> None:
    """alice and carol discuss an open decision in the watched channel."""
    await rig.fake.user_message(people.alice, CHAT[0])
    await rig.fake.user_message(people.carol, CHAT[1])


async def wait_card(rig: BotRig) -> tuple[Json, int]:
    """The card in the watched channel and the debate id its buttons carry."""
    bot_id = rig.fake.bot_user["id"]
    card = await rig.fake.wait_for_message(
        lambda m: (
            m["author"]["id"] == bot_id
            and m["channel_id"] == rig.channel_id
            and any(c.startswith("debate:open:") for c in custom_ids(m))
        )
    )
    opening = next(c for c in custom_ids(card) if c.startswith("debate:open:"))
    return card, int(opening.rsplit(":", 1)[1])


def custom_ids(message: Json) -> list[str]:
    """The custom_ids of a message's controls (in rows, menus, beside text), in order."""
    return [item["custom_id"] for item in walk(message["components"]) if "custom_id" in item]


async def click(
    rig: BotRig, message_id: str, custom_id: str, user: Json, *, shown: Json | None = None
) -> tuple[int, Json]:
    """`user` presses a button (on `shown`: the message as their client still shows it); the
    callback type and the response message (if any)."""
    record = await rig.fake.click(message_id, custom_id, user, shown=shown)
    kind = await rig.fake.wait_ack(record)
    response = rig.fake.messages.get(record.response_message_id or "", {})
    if response:  # every reply to a click pings nobody, whatever its text holds
        assert rig.fake.allowed_mentions[response["id"]] == {"parse": []}
        assert not rig.fake.world.was_pinged(response["id"])
    return kind, response


async def assert_refused(rig: BotRig, message_id: str, custom_id: str, user: Json) -> None:
    """The click gets an ephemeral refusal only that person sees."""
    kind, response = await click(rig, message_id, custom_id, user)
    assert kind == 4
    assert response["flags"] & FLAG_EPHEMERAL
    assert response["content"] == KO("front.refused")


async def status_edit(rig: BotRig, status_id: str, fragment: str, start: int = 0) -> Json:
    """Wait for the status message to be edited to contain `fragment`; its new content."""
    call = await rig.fake.wait_for_call(
        "PATCH",
        EDIT,
        lambda c: (
            c.path.endswith(f"/messages/{status_id}") and fragment in visible_text(c.json or {})
        ),
        start=start,
    )
    return call.json  # type: ignore[no-any-return]  # the fake's JSON is untyped


async def keyed(db: Database, debate_id: int) -> dict[str, str]:
    """Every room_messages key of a debate -> the message id posted under it."""
    rows = await db.fetch_all(
        "SELECT key, message_id FROM room_messages WHERE debate_id = ?", (debate_id,)
    )
    return {str(r["key"]): str(r["message_id"]) for r in rows}


async def check_turns(rig: BotRig, db: Database, debate_id: int) -> dict[int, str]:
    """Each stored turn is in the thread in full: its seat's colour, author, footer, text."""
    keys = await keyed(db, debate_id)
    seats = {}
    for turn in await SqliteStore(db).last_turns(debate_id, 1000):
        parts = sorted(
            (int(k.rsplit(":", 1)[1]), mid)
            for k, mid in keys.items()
            if k.startswith(f"turn:{turn.number}:")
        )
        assert parts, f"turn {turn.number} was never posted"
        embeds = [e for _, mid in parts for e in rig.fake.messages[mid]["embeds"]]
        assert {e["color"] for e in embeds} == {SEAT_COLOURS[turn.seat]}
        assert embeds[0]["author"]["name"].startswith(KO(f"discord.seat_{turn.seat}"))
        footer = embeds[-1]["footer"]["text"]
        assert KO("discord.footer_turn", turn=turn.number) in footer
        assert f"sha256 {turn.sha256[:12]}" in footer
        assert join_pieces([e.get("description") or "" for e in embeds]) == turn.parsed.opinion
        seats[turn.number] = turn.seat
    return seats


def check_no_pings(rig: BotRig, channel_ids: set[str], ag_id: int) -> int:
    """No bot message pings anyone, but the relay prompt pings AG alone; returns the count."""
    checked = 0
    for channel_id in channel_ids:
        for message in rig.bot_messages(channel_id):
            allowed = rig.fake.allowed_mentions[message["id"]]
            if message["content"].startswith(f"<@{ag_id}> [debate "):
                assert allowed == {"parse": [], "users": [ag_id]}
                assert [u["id"] for u in message["mentions"]] == [str(ag_id)]
                assert not message["mention_everyone"] and not message["mention_roles"]
            else:
                assert allowed == {"parse": []}, (message["content"][:80], allowed)
                assert not rig.fake.world.was_pinged(message["id"])
            checked += 1
    return checked


async def posted_twice(rig: BotRig, db: Database, debate_id: int, channel_id: str) -> list[str]:
    """Bot messages in a channel that repeat something: every message with embeds or a relay
    part is recorded under its own key, and every other line (a notice) appears once."""
    keyed_ids = set((await keyed(db, debate_id)).values())
    posted = rig.bot_messages(channel_id)
    notices = Counter(m["content"] for m in posted if m["id"] not in keyed_ids)
    unkeyed = [m["content"][:60] for m in posted if m["id"] not in keyed_ids and m["embeds"]]
    return unkeyed + [text[:60] for text, count in notices.items() if count > 1]


async def prompt_of(rig: BotRig, db: Database, debate_id: int, turn: int) -> str:
    """What the debater of `turn` was sent: Claude's request, or AG's relayed parts joined."""
    for request in rig.claude.requests:
        if request.debate_id == debate_id and request.turn == turn:
            return request.prompt
    keys = await keyed(db, debate_id)
    parts = sorted(
        (int(k.rsplit(":", 1)[1]), mid) for k, mid in keys.items() if k.startswith(f"relay:{turn}:")
    )
    # The relay's prompt leaves the thread once AG's reply is taken: read it where it went.
    posted = rig.fake.messages | rig.fake.world.deleted
    pieces = [posted[mid]["content"] for _, mid in parts]
    assert pieces, f"turn {turn} was never asked"
    pieces[0] = pieces[0].split("\n", 1)[1]  # the header: AG's mention and the tag
    return join_pieces(pieces)
