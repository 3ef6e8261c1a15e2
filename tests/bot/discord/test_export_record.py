"""`/debate export` of an adversarial debate through the real discord.py client against the
fake Discord and the fake Wiki.js: the attached file holds the format's record, the Debate
Result page with its probes, Validator and reconciliation table, as the wiki has it, in the
debate's language."""

from __future__ import annotations

import asyncio

from handlers.core.i18n import Strings
from handlers.core.model import Phase
from tests.bot.discord.conftest import BotRig, People
from tests.bot.discord.slash_support import MANAGE_GUILD, registered
from tests.bot.discord.support import chat, click, wait_card
from tests.fakes.discord_commands import slash
from tests.fakes.discord_interactions import FLAG_EPHEMERAL
from tests.fakes.discord_limits import as_embed
from tests.fakes.fake_wikijs import FULL_KEY, FakeWikiJs
from tests.handlers.adversarial_script import either_role, intake, probe, reconciler, validator

PT = Strings("pt-BR")


async def test_slash_export_of_an_adversarial_debate_holds_its_debate_result(
    rig: BotRig, people: People
) -> None:
    wiki = FakeWikiJs()
    await wiki.start()
    try:
        rig.overrides.update(
            DEFAULT_FORMAT="adversarial",
            AG_QUIET_SECONDS=0.5,
            LANGUAGE="pt-BR",
            WIKIJS_URL=wiki.url,
            WIKIJS_API_KEY=FULL_KEY,
        )
        either = either_role("pt-BR")
        rig.claude.enqueue(either, reconciler("pt-BR"))  # Claude's role, then the Reconciler
        rig.moderator.task_outputs.update(
            {
                "intake": [intake(4, high_stakes=True)],
                "probe-cost": [probe("cost-first", True)],
                "probe-alternatives": [probe("alternatives-first", False)],
                "validator": [validator()],
            }
        )
        await rig.start()
        await registered(rig)
        await chat(rig, people)
        card, debate_id = await wait_card(rig)
        rig.ag.reply_for = lambda turn: either  # type: ignore[method-assign]  # AG's answer
        await click(rig, card["id"], f"debate:open:{debate_id}", people.alice)
        await rig.fake.wait_for_message(
            lambda m: (
                m["channel_id"] == card["id"]
                and bool(as_embed(m))
                and as_embed(m).get("title") == PT("front.conclusion_title")
            ),
            timeout=30,
        )
        await asyncio.wait_for(rig.handler.wait_idle(debate_id), 30)
        assert (await rig.handler.get(debate_id)).phase is Phase.CONCLUDED
        assert rig.services is not None and rig.services.wiki is not None
        await asyncio.wait_for(rig.services.wiki.drained(debate_id), 30)
        [result] = [p for p in wiki.pages.values() if p.path.endswith("/debate-result")]

        record = await slash(
            rig.fake, people.carol, "debate", "export", debate=debate_id, permissions=MANAGE_GUILD
        )
        await rig.fake.wait_ack(record)
        exported = rig.fake.messages[record.response_message_id or ""]
        assert exported["content"] == PT("export.attached") and exported["flags"] & FLAG_EPHEMERAL
        [file] = exported["attachments"]
        text = rig.fake.world.files[file["id"]].decode()
        assert f"\n## {result.title}\n" in text  # the page, under its own title
        lines = {line.lstrip("#").strip() for line in text.splitlines()}
        missing = [
            line for line in result.content.splitlines() if line.lstrip("#").strip() not in lines
        ]
        assert not missing, missing[:3]  # every line of it, as the wiki has it
        table = " | ".join(
            PT(f"adversarial.result.{c}")
            for c in ("col_point", "col_basis", "role_advocate", "role_challenger")
        )
        assert table in text and PT("adversarial.result.validation") in text
        assert "[STABLE] no — under alternatives-first" in text  # a probe's own words
    finally:
        await wiki.stop()
