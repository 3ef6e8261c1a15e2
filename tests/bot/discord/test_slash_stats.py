"""`/debate stats` through the real discord.py client and the fake Discord, with two servers:
each approver sees its own server's seats and figures only, a server with no debate is told so,
and anyone but an approver is refused."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from bot.stats import StanceRow, seat_records, stats_text
from handlers.core.kinds import Stance
from handlers.core.model import AG, CLAUDE, Debate
from tests.bot.discord.conftest import KO, BotRig
from tests.bot.discord.slash_support import MANAGE_GUILD, registered, run
from tests.bot.discord.test_slash_servers import another_server
from tests.bot.stats_support import CONCEDED, ONE_SIDED, Said, built, stored
from tests.fakes.discord_commands import slash
from tests.fakes.discord_interactions import CB_DEFERRED_MESSAGE, FLAG_EPHEMERAL, FLAG_LOADING
from tests.fakes.discord_limits import CONTENT_LIMIT
from tests.fakes.discord_world import Json
from tools.store.debates import SqliteStore

FOLLOWUP = "/webhooks/{application_id}/{token}"


async def test_each_server_sees_only_its_own_seats_records(rig: BotRig) -> None:
    other, lobby = another_server(rig)
    await rig.start()
    await registered(rig)
    command = await registered(rig, other)
    assert "stats" in {option["name"] for option in command["options"]}
    mallory = rig.fake.add_user("mallory")  # Manage Server in each server she runs it in

    async def stats(channel: str | None = None, **options: object) -> str:
        return await deferred(rig, mallory, channel, **options)

    assert await stats() == KO("stats.none")  # nothing stored yet
    assert await stats(lobby) == KO("stats.none")
    assert rig.services is not None
    store = SqliteStore(rig.services.db)
    here, there = int(rig.fake.world.guild_id), int(other)
    now = rig.clock.now()
    old = built(
        CONCEDED, guild_id=here, unquoted=(4,), costs=((AG, 0.5),), at=now - timedelta(days=9)
    )
    new = built(ONE_SIDED, guild_id=here, faltered=(CLAUDE,), at=now)
    # The other server's seat is one this server never had, with figures of its own.
    theirs_said = (Said("gemini", Stance.DISAGREE), Said("gemini", Stance.AGREE))
    theirs = built(theirs_said, guild_id=there, costs=(("gemini", 7.25),), at=now)
    old_id = await stored(store, old, CONCEDED)
    new_id = await stored(store, new, ONE_SIDED)
    their_id = await stored(store, theirs, theirs_said)

    def expected(*pairs: tuple[Debate, tuple[Said, ...]], days: int = 0) -> str:
        debates = [debate for debate, _ in pairs]
        stances: list[StanceRow] = [
            (debate.id, n, s.seat, s.stance)
            for debate, said in pairs
            for n, s in enumerate(said, 1)
        ]
        return stats_text(seat_records(debates, stances), len(debates), KO, days)

    mine = await stats()
    assert mine == expected((_as(old, old_id), CONCEDED), (_as(new, new_id), ONE_SIDED))
    assert KO("stats.title", count=2) in mine and "$0.50" in mine
    assert "gemini" not in mine and "7.25" not in mine
    recent = await stats(days=7)  # the older debate is left out
    assert recent == expected((_as(new, new_id), ONE_SIDED), days=7)
    yours = await stats(lobby)
    assert yours == expected((_as(theirs, their_id), theirs_said))
    assert KO("stats.title", count=1) in yours and "$7.25" in yours
    assert "$0.50" not in yours  # this server's AG cost, never counted there

    dana = rig.fake.add_user("dana")  # neither the approver role nor Manage Server
    assert await run(rig, dana, "stats") == KO("admin.refused")
    assert await run(rig, dana, "stats", channel_id=lobby) == KO("admin.refused")


async def deferred(rig: BotRig, user: Json, channel: str | None, **options: object) -> str:
    """`user` runs `/debate stats` as an approver: the bot answers "thinking" at once, then
    its private reply replaces that; the reply, checked to ping nobody and to fit."""
    start = len(rig.fake.calls)
    record = await slash(
        rig.fake, user, "debate", "stats", permissions=MANAGE_GUILD, channel_id=channel, **options
    )
    assert await rig.fake.wait_ack(record) == CB_DEFERRED_MESSAGE
    await rig.fake.wait_for_call("POST", FOLLOWUP, start=start)
    reply = rig.fake.messages[record.response_message_id or ""]
    assert reply["flags"] & FLAG_EPHEMERAL and not reply["flags"] & FLAG_LOADING
    assert len(reply["content"]) <= CONTENT_LIMIT
    return str(reply["content"])


def _as(debate: Debate, debate_id: int) -> Debate:
    """The hand-built debate under the id the store gave it."""
    return replace(debate, id=debate_id)
