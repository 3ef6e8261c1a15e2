"""`/debate list|status|stop|export|config` through the real client and command tree."""

from __future__ import annotations

from handlers.core.model import Phase
from tests.bot.discord.conftest import KO, BotRig, People
from tests.bot.discord.slash_support import MANAGE_GUILD, registered, run
from tests.bot.discord.support import THREADS, chat, click, wait_card
from tests.doubles import TOPIC
from tests.fakes.discord_commands import SUBCOMMAND, slash
from tests.fakes.discord_interactions import FLAG_EPHEMERAL


async def test_slash_debate_is_registered_in_the_guild_with_its_subcommands(
    rig: BotRig,
) -> None:
    await rig.start()
    command = await registered(rig)
    assert command["name"] == "debate" and command["description"] == KO("admin.group")
    subs = {o["name"]: o for o in command["options"]}
    assert set(subs) == {"list", "status", "stop", "export", "config", "stats"}
    assert all(o["type"] == SUBCOMMAND for o in subs.values())
    assert subs["stop"]["description"] == KO("admin.cmd_stop")
    assert [o["name"] for o in subs["status"]["options"]] == ["debate"]
    (days,) = subs["stats"]["options"]  # optional: every debate of the server without it
    assert (days["name"], days.get("required", False), days["min_value"]) == ("days", False, 1)
    assert {o["name"] for o in subs["config"]["options"]} == {
        "scope",
        "language",
        "format",
        "rounds",
        "roster",
        "threshold",
    }


async def test_slash_refuses_anyone_without_the_role_or_manage_server(
    rig: BotRig, people: People
) -> None:
    role = rig.fake.world.add_role("approver")
    rig.overrides["APPROVER_ROLE_ID"] = role["id"]
    await rig.start()
    await registered(rig)
    await chat(rig, people)
    _, debate_id = await wait_card(rig)

    refused = KO("admin.refused")
    assert await run(rig, people.bob, "list") == refused
    assert await run(rig, people.bob, "status", debate=debate_id) == refused
    assert await run(rig, people.bob, "stop", debate=debate_id) == refused
    assert await run(rig, people.bob, "config", rounds=2) == refused
    assert (await rig.handler.get(debate_id)).phase is Phase.PROPOSED  # nothing changed
    assert TOPIC not in await run(rig, people.bob, "list")
    assert KO("admin.config_defaults") in await run(
        rig, people.bob, "config", permissions=MANAGE_GUILD
    )  # Manage Server is enough, and nobody's refused config was kept
    assert TOPIC in await run(rig, people.bob, "list", permissions=MANAGE_GUILD)


async def test_slash_lists_shows_and_stops_a_running_debate(rig: BotRig, people: People) -> None:
    role = rig.fake.world.add_role("approver")
    dana = rig.fake.add_user("dana", roles=[role["id"]])
    rig.overrides["APPROVER_ROLE_ID"] = role["id"]
    await rig.start()
    await registered(rig)
    assert await run(rig, dana, "list") == KO("admin.none_open")
    await chat(rig, people)
    card, debate_id = await wait_card(rig)
    waiting = await run(rig, dana, "list")
    assert waiting.startswith(f"#{debate_id} {TOPIC} · {KO('front.card_proposed')}")
    assert f"<#{rig.channel_id}>" in waiting
    not_running = KO("admin.not_stopped", id=debate_id)
    assert await run(rig, dana, "stop", debate=debate_id) == not_running  # the card still waits

    rig.ag.hold.add(1)  # AG stays silent: the debate is mid-turn when it is stopped
    await click(rig, card["id"], f"debate:open:{debate_id}", people.alice)
    await rig.fake.wait_for_call("POST", THREADS)
    await rig.ag.wait_prompt(1)
    running = await run(rig, dana, "list")
    assert "라운드 1/3" in running and "AG $0.00" in running  # the round, each seat's cost
    assert f"<#{card['id']}>" in running  # the thread (made from the card: its id)
    status = await run(rig, dana, "status", debate=debate_id)
    assert status.splitlines()[0] == running
    assert KO("admin.config_defaults") in status.splitlines()[1]

    record = await slash(rig.fake, dana, "debate", "export", debate=debate_id)
    await rig.fake.wait_ack(record)
    exported = rig.fake.messages[record.response_message_id or ""]
    assert exported["content"] == KO("export.attached") and exported["flags"] & FLAG_EPHEMERAL
    [file] = exported["attachments"]
    assert file["filename"] == f"debate-{debate_id}.md"
    assert rig.fake.world.files[file["id"]].decode().startswith(f"# {TOPIC}\n")
    assert await run(rig, dana, "export", debate=999) == KO("admin.no_debate", id=999)

    assert await run(rig, dana, "stop", debate=debate_id) == KO("admin.stopped", id=debate_id)
    await rig.handler.wait_idle(debate_id)
    assert (await rig.handler.get(debate_id)).phase is Phase.STOPPED
    assert await run(rig, dana, "stop", debate=debate_id) == not_running
    assert await run(rig, dana, "list") == KO("admin.none_open")
    assert await run(rig, dana, "status", debate=999) == KO("admin.no_debate", id=999)
