"""Each server sets how sure detection must be before a card is posted (`/debate config
threshold:`): a proposal below the server's threshold posts no card, one at or above it does;
a threshold that is not a number from 0 to 1 is refused with words that say so."""

from __future__ import annotations

from tests.bot.discord.conftest import KO, BotRig, People
from tests.bot.discord.slash_support import MANAGE_GUILD, registered, run
from tests.bot.discord.support import CHAT, chat, custom_ids, wait_card
from tests.fakes.discord_world import Json


async def _card_in(rig: BotRig, channel_id: str) -> Json:
    bot_id = rig.fake.bot_user["id"]
    return await rig.fake.wait_for_message(
        lambda m: (
            m["author"]["id"] == bot_id
            and m["channel_id"] == channel_id
            and any(c.startswith("debate:open:") for c in custom_ids(m))
        )
    )


async def test_two_servers_with_different_thresholds_get_cards_only_above_their_own(
    rig: BotRig, people: People
) -> None:
    other = rig.fake.world.add_guild("another server")
    lobby = rig.fake.world.add_text_channel("lobby", other)["id"]
    rig.overrides["DEBATE_CHANNEL_IDS"] = f"{rig.channel_id},{lobby}"
    rig.moderator.confidence = 0.6  # under DETECT_MIN_CONFIDENCE (0.7)
    await rig.start()
    await registered(rig)
    await registered(rig, other)
    dana, mallory = rig.fake.add_user("dana"), rig.fake.add_user("mallory")

    async def here(**options: object) -> str:
        return await run(rig, dana, "config", permissions=MANAGE_GUILD, **options)

    async def there(**options: object) -> str:
        return await run(
            rig, mallory, "config", permissions=MANAGE_GUILD, channel_id=lobby, **options
        )

    server = KO("admin.scope_server")
    assert await here(threshold="0.5") == KO(
        "admin.config_saved", scope=server, values="threshold: 0.5"
    )
    assert await there(threshold="0,8") == KO(
        "admin.config_saved", scope=server, values="threshold: 0.8"
    )

    await rig.fake.user_message(people.alice, CHAT[0], channel_id=lobby)  # 0.6 < 0.8: no card
    await rig.fake.user_message(people.carol, CHAT[1], channel_id=lobby)
    await chat(rig, people)  # 0.6 >= 0.5: a card in the first server
    card, debate_id = await wait_card(rig)
    assert len(rig.moderator.windows) == 2  # both servers' chats were judged
    debate = await rig.handler.get(debate_id)
    assert debate.proposal.confidence == 0.6
    listed = await run(rig, mallory, "list", permissions=MANAGE_GUILD, channel_id=lobby)
    assert listed == KO("admin.none_open")  # the other server's proposal got no card
    assert not [m for m in rig.fake.messages_in(lobby) if custom_ids(m)]  # no card there

    assert await there(threshold="0.6") == KO(
        "admin.config_saved", scope=server, values="threshold: 0.6"
    )
    await rig.fake.user_message(
        people.alice, "그럼 다시 정해 봐요. 어느 쪽이 나을까요", channel_id=lobby
    )
    await rig.fake.user_message(people.carol, "장단점을 정리해서 결정합시다", channel_id=lobby)
    lobby_card = await _card_in(rig, lobby)  # at its threshold exactly: a card
    assert lobby_card["id"] != card["id"]


async def test_a_threshold_that_is_not_a_number_from_0_to_1_is_refused(
    rig: BotRig, people: People
) -> None:
    await rig.start()
    await registered(rig)
    dana = rig.fake.add_user("dana")

    async def config(**options: object) -> str:
        return await run(rig, dana, "config", permissions=MANAGE_GUILD, **options)

    for bad in ("1.5", "-0.1", "NaN", "inf", "high", "70%", "0.7.1"):
        assert await config(threshold=bad) == KO("admin.bad_threshold"), bad
    assert await config() == KO(
        "admin.config_title", scope=KO("admin.scope_server"), values=KO("admin.config_defaults")
    )
    assert await config(threshold=" 0 ") == KO(
        "admin.config_saved", scope=KO("admin.scope_server"), values="threshold: 0"
    )  # 0 is a choice (every proposal gets its card), not the default
