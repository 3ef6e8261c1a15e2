"""Every character a debater writes reaches the export and the wiki: one a file cannot show as
it is (NUL, a control character, a terminal's colour code) is written as its `\\uXXXX` escape,
and the export says so once (a NUL in a reply was dropped from the export without a word)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.bot.discord.conftest import KO, BotRig, People
from tests.bot.discord.slash_support import MANAGE_GUILD, registered
from tests.bot.discord.support import chat, click, wait_card
from tests.fakes.discord_commands import slash
from tests.fakes.discord_limits import visible_text

# In the prose and in the block's opinion (where JSON writes them as \u0000 ...).
ODD = "NUL[\x00] BEL[\x07] ESC[\x1b[31mred\x1b[0m] DEL[\x7f]"
SAYS = f"{ODD}\n\n```json\n{json.dumps({'opinion': ODD, 'stance': 'partial'})}\n```"
SHOWN = ("NUL[\\u0000]", "BEL[\\u0007]", "ESC[\\u001b[31mred\\u001b[0m]", "DEL[\\u007f]")


async def test_control_characters_in_a_reply_are_written_visibly_and_said_once(
    rig: BotRig, people: People
) -> None:
    rig.ag.says = SAYS
    await rig.start()
    await registered(rig)
    await chat(rig, people)
    card, debate_id = await wait_card(rig)
    await click(rig, card["id"], f"debate:open:{debate_id}", people.alice)
    thread_id = card["id"]
    attached = await rig.fake.wait_for_message(  # the end of the debate: its export attached
        lambda m: (
            m["channel_id"] == thread_id and visible_text(m).startswith(KO("export.attached"))
        ),
        timeout=60,
    )
    dana = rig.fake.add_user("dana")
    record = await slash(rig.fake, dana, "debate", "export", permissions=MANAGE_GUILD, debate=1)
    await rig.fake.wait_ack(record)
    asked = rig.fake.messages[record.response_message_id or ""]
    for message in (attached, asked):
        [file] = message["attachments"]
        text = rig.fake.world.files[file["id"]].decode("utf-8")
        for shown in SHOWN:
            assert text.count(shown) >= 2  # AG's turns: the prose and the opinion, each
        assert not any(c in text for c in "\x00\x07\x1b\x7f")
        assert text.count(KO("export.escaped")) == 1
        assert text.splitlines()[2] == f"_{KO('export.escaped')}_"  # under the title

    assert rig.services is not None and rig.services.wiki is not None
    await rig.services.wiki.drained(debate_id)
    folder = next((Path(rig.settings.LOCAL_WIKI_DIR) / "debates").iterdir())
    log = (folder / "round-log.md").read_text(encoding="utf-8")
    assert all(shown in log for shown in SHOWN)  # the wiki keeps them too, visibly
