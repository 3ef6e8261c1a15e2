"""`/debate` answers about the server it is run in only: an approver of another server the bot
is in sees none of this server's debates, and its numbers are unknown there (nothing is
stopped, nothing exported); a debate stored before debates recorded their server belongs to the
server whose channel holds it."""

from __future__ import annotations

from handlers.core.model import Phase
from tests.bot.discord.conftest import KO, BotRig, People
from tests.bot.discord.slash_support import MANAGE_GUILD, registered, run
from tests.bot.discord.support import THREADS, chat, click, wait_card
from tests.doubles import TOPIC
from tests.fakes.discord_world import Json

GUILD_OF = "SELECT guild_id FROM debates WHERE id = ?"


def another_server(rig: BotRig) -> tuple[str, str]:
    """A second server the bot is in, and its text channel (made before the bot connects)."""
    other = rig.fake.world.add_guild("another server")
    return other, rig.fake.world.add_text_channel("lobby", other)["id"]


async def test_another_server_sees_none_of_the_debates_and_cannot_stop_or_export_them(
    rig: BotRig, people: People
) -> None:
    other, lobby = another_server(rig)
    await rig.start()
    await registered(rig)
    await registered(rig, other)
    await chat(rig, people)
    card, debate_id = await wait_card(rig)
    rig.ag.hold.add(1)  # AG stays silent: the debate is running while the others try
    await click(rig, card["id"], f"debate:open:{debate_id}", people.alice)
    await rig.fake.wait_for_call("POST", THREADS)
    await rig.ag.wait_prompt(1)
    mallory = rig.fake.add_user("mallory")  # Manage Server in the other server only

    async def elsewhere(sub: str, **options: object) -> str:
        return await run(rig, mallory, sub, permissions=MANAGE_GUILD, channel_id=lobby, **options)

    assert await elsewhere("list") == KO("admin.none_open")
    unknown = KO("admin.no_debate", id=debate_id)
    assert await elsewhere("status", debate=debate_id) == unknown  # as a number never given
    assert await elsewhere("export", debate=debate_id) == unknown  # no file
    assert await elsewhere("stop", debate=debate_id) == unknown
    assert await elsewhere("status", debate=999) == KO("admin.no_debate", id=999)
    debate = await rig.handler.get(debate_id)
    assert debate.phase is Phase.SPEAKING  # a stop would have ended it at once
    here = await run(rig, mallory, "list", permissions=MANAGE_GUILD)  # its own server sees it
    assert here.startswith(f"#{debate_id} {TOPIC}") and f"<#{card['id']}>" in here
    assert await run(rig, mallory, "stop", permissions=MANAGE_GUILD, debate=debate_id) == KO(
        "admin.stopped", id=debate_id
    )


async def test_a_debate_stored_without_its_server_is_its_channel_s_server_s(
    rig: BotRig, people: People
) -> None:
    other, lobby = another_server(rig)
    await rig.start()
    await registered(rig)
    await chat(rig, people)
    _, debate_id = await wait_card(rig)
    assert rig.services is not None
    # As a row written before debates recorded their server holds it.
    await rig.services.db.execute("UPDATE debates SET guild_id = 0 WHERE id = ?", (debate_id,))
    calls = len(rig.fake.calls)
    await rig.restart()  # the bot sees both servers again
    await registered(rig, start=calls)
    await registered(rig, other, start=calls)
    row = await rig.services.db.fetch_one(GUILD_OF, (debate_id,))
    assert row is not None and str(row[0]) == rig.fake.world.guild_id
    dana: Json = rig.fake.add_user("dana")
    listed = await run(rig, dana, "list", permissions=MANAGE_GUILD)
    assert listed.startswith(f"#{debate_id} {TOPIC} · {KO('front.card_proposed')}")
    assert await run(rig, dana, "list", permissions=MANAGE_GUILD, channel_id=lobby) == KO(
        "admin.none_open"
    )
