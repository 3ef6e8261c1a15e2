"""`/debate export debate:N form:adr` through the real discord.py client against the fake
Discord: the command offers the choice in the bot's language, and the attached file is the
decision as a complete MADR record in the debate's language, linking its thread and pages; a
debate stopped mid-turn is a proposed record that chooses nothing."""

from __future__ import annotations

import re

from handlers.core.model import Phase
from tests.bot.discord.conftest import KO, BotRig, People
from tests.bot.discord.slash_support import MANAGE_GUILD, registered
from tests.bot.discord.support import THREADS, chat, click, wait_card
from tests.doubles import TOPIC
from tests.fakes.discord_commands import slash
from tests.fakes.discord_interactions import FLAG_EPHEMERAL
from tests.tools.wiki.adr_support import check_complete, front_matter

_LINK = re.compile(r"\]\(<?([^)>\s]+)>?\)")


async def test_slash_export_offers_the_adr_as_a_choice_in_the_bot_s_language(
    rig: BotRig,
) -> None:
    await rig.start()
    command = await registered(rig)
    export = next(o for o in command["options"] if o["name"] == "export")
    [form] = [o for o in export["options"] if o["name"] == "form"]
    assert form["description"] == KO("adr.param_form") and not form.get("required")
    assert [(c["name"], c["value"]) for c in form["choices"]] == [
        (KO("adr.form_transcript"), "transcript"),
        (KO("adr.form_adr"), "adr"),
    ]


async def test_slash_export_adr_of_a_stopped_debate_is_a_complete_proposed_record(
    rig: BotRig, people: People
) -> None:
    await rig.start()
    await registered(rig)
    await chat(rig, people)
    card, debate_id = await wait_card(rig)
    rig.ag.hold.add(1)  # AG stays silent: the debate is mid-turn when it is stopped
    await click(rig, card["id"], f"debate:open:{debate_id}", people.alice)
    await rig.fake.wait_for_call("POST", THREADS)
    await rig.ag.wait_prompt(1)
    stop = await slash(
        rig.fake, people.carol, "debate", "stop", debate=debate_id, permissions=MANAGE_GUILD
    )
    await rig.fake.wait_ack(stop)
    await rig.handler.wait_idle(debate_id)
    assert (await rig.handler.get(debate_id)).phase is Phase.STOPPED

    record = await slash(
        rig.fake,
        people.carol,
        "debate",
        "export",
        debate=debate_id,
        form="adr",
        permissions=MANAGE_GUILD,
    )
    await rig.fake.wait_ack(record)
    exported = rig.fake.messages[record.response_message_id or ""]
    assert exported["content"] == KO("adr.attached") and exported["flags"] & FLAG_EPHEMERAL
    [file] = exported["attachments"]
    assert re.fullmatch(rf"adr-{debate_id}-[\w-]+\.md", file["filename"]), file["filename"]
    text = rig.fake.world.files[file["id"]].decode()

    assert front_matter(text)["status"] == "proposed"
    assert f"\n# {TOPIC}\n" in text
    bodies = check_complete(text, KO)
    assert bodies["adr.outcome"].startswith(
        KO("adr.none_chosen", outcome=KO("wiki.outcome.stopped"))
    )
    more = bodies["adr.more"]
    thread = f"https://discord.com/channels/{rig.fake.world.guild_id}/{card['id']}"
    assert KO("adr.thread", url=thread) in more  # the thread was made from the card
    assert _LINK.findall(more), more  # its wiki pages, by their addresses
    assert KO("adr.ended_stopped") in more


async def test_slash_export_without_a_form_is_still_the_whole_debate(
    rig: BotRig, people: People
) -> None:
    await rig.start()
    await registered(rig)
    await chat(rig, people)
    _, debate_id = await wait_card(rig)

    record = await slash(
        rig.fake, people.carol, "debate", "export", debate=debate_id, permissions=MANAGE_GUILD
    )
    await rig.fake.wait_ack(record)
    exported = rig.fake.messages[record.response_message_id or ""]
    assert exported["content"] == KO("export.attached")
    [file] = exported["attachments"]
    assert file["filename"] == f"debate-{debate_id}.md"
