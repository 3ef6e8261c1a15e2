"""Every field of `/debate config` is bounded where it comes in, and every private reply of the
commands fits in one Discord message whatever is stored (a 3,000-character display name made
each reply too long for Discord, which refused it: nothing was said at all)."""

from __future__ import annotations

from handlers.core.participants import DEFAULT_ROSTER, MAX_LABEL_CHARS
from handlers.core.server_config import ServerConfig
from tests.bot.discord.conftest import KO, BotRig, People
from tests.bot.discord.slash_support import MANAGE_GUILD, registered, run
from tests.bot.discord.support import chat, wait_card
from tools.store.server_settings import ServerSettings

LONG = "x" * 3000
WITHIN = "n" * MAX_LABEL_CHARS


async def test_a_name_or_persona_past_the_limit_is_refused_naming_it_and_nothing_is_kept(
    rig: BotRig,
) -> None:
    await rig.start()
    await registered(rig)
    dana = rig.fake.add_user("dana")

    async def config(**options: object) -> str:
        return await run(rig, dana, "config", permissions=MANAGE_GUILD, **options)

    refused = KO("admin.roster_too_long", limit=MAX_LABEL_CHARS)
    assert str(MAX_LABEL_CHARS) in refused
    assert await config(roster=f"ag:ag-relay:AG,claude:claude-cli:{LONG}") == refused
    assert await config(roster=f"ag:ag-relay:AG:{LONG},claude:claude-cli") == refused  # persona
    assert await config(roster=f"ag:ag-relay:AG,claude:claude-cli:{WITHIN}:{WITHIN}") == KO(
        "admin.config_saved",
        scope=KO("admin.scope_server"),
        values=f"roster: ag:ag-relay:AG,claude:claude-cli:{WITHIN}:{WITHIN}",
    )  # at the limit: kept
    assert refused not in await config()


async def test_a_roster_stored_before_the_limit_still_gets_short_replies_and_cards(
    rig: BotRig, people: People
) -> None:
    await rig.start()
    await registered(rig)
    assert rig.services is not None
    guild = int(rig.fake.world.guild_id)
    stored = f"ag:ag-relay:AG,claude:claude-cli:{LONG}"
    await ServerSettings(rig.services.db).store(guild, 0, ServerConfig(roster=stored))
    dana = rig.fake.add_user("dana")
    shown = await run(rig, dana, "config", permissions=MANAGE_GUILD)  # run: within 2,000
    assert shown.startswith(KO("admin.config_title", scope=KO("admin.scope_server"), values=""))
    assert shown.endswith(")") and "… (+" in shown  # cut, and says how much is left out

    await chat(rig, people)  # the roster no longer reads: the card is proposed with the default
    _, debate_id = await wait_card(rig)
    assert (await rig.handler.get(debate_id)).setup.roster == DEFAULT_ROSTER
    status = await run(rig, dana, "status", permissions=MANAGE_GUILD, debate=debate_id)
    assert status.startswith(f"#{debate_id} ")
