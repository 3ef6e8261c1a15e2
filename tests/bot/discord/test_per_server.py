"""Per-server settings: `/debate config` stored over the global defaults, a channel's
over its server's, shown by `status` and used by the next card; bad input changes nothing."""

from __future__ import annotations

from pathlib import Path

from handlers.core.i18n import Strings, load_table
from handlers.core.model import Phase
from handlers.core.participants import parse_roster
from handlers.core.server_config import ServerConfig, config_problem
from tests.bot.discord.conftest import KO, BotRig, People
from tests.bot.discord.slash_support import MANAGE_GUILD, registered, run
from tests.bot.discord.support import chat, click, wait_card
from tests.fakes.discord_interactions import FLAG_EPHEMERAL
from tests.fakes.discord_limits import as_embed, visible_text, walk
from tools.store.db import Database
from tools.store.server_settings import ServerSettings

EN = Strings("en")
ROSTER = parse_roster("ag:ag-relay:AG,claude:claude-cli:Claude")


async def test_per_server_config_is_used_by_the_next_card_and_shown_by_status(
    rig: BotRig, people: People
) -> None:
    await rig.start()
    await registered(rig)
    dana = rig.fake.add_user("dana")

    async def config(**options: object) -> str:
        return await run(rig, dana, "config", permissions=MANAGE_GUILD, **options)

    server, channel = KO("admin.scope_server"), KO("admin.scope_channel")
    saved = await config(format="ledger", rounds=2, language="en")
    assert saved == KO(
        "admin.config_saved", scope=server, values="language: en · format: ledger · rounds: 2"
    )
    assert await config(scope="channel", rounds=4) == KO(
        "admin.config_saved", scope=channel, values="rounds: 4"
    )
    for bad, key in (
        ({"rounds": 99}, "admin.bad_rounds"),
        ({"roster": "nobody"}, "admin.bad_roster"),
        ({"format": "nosuch"}, "admin.bad_format"),
    ):
        assert await config(**bad) == KO(key)
    assert await config() == KO(  # what the server holds, unchanged by the refused ones
        "admin.config_title", scope=server, values="language: en · format: ledger · rounds: 2"
    )

    await chat(rig, people)
    _, debate_id = await wait_card(rig)
    debate = await rig.handler.get(debate_id)
    assert debate.phase is Phase.PROPOSED
    assert (debate.setup.max_rounds, debate.setup.format) == (
        4,
        "ledger",
    )  # the channel's rounds win
    status = await run(rig, dana, "status", permissions=MANAGE_GUILD, debate=debate_id)
    assert status.splitlines()[1] == KO(
        "admin.config_title", scope=channel, values="language: en · format: ledger · rounds: 4"
    )


async def test_per_server_settings_keep_each_server_and_channel_apart(
    database_target: str,
) -> None:
    db = await Database.open(database_target)  # SQLite, then PostgreSQL (migration 0008's twin)
    try:
        settings = ServerSettings(db)
        await settings.store(1, 0, ServerConfig(language="en", rounds=3))
        await settings.store(1, 10, ServerConfig(rounds=5, roster="claude:claude-cli:Claude"))
        await settings.store(2, 0, ServerConfig(format="ledger"))
        assert await settings.lookup(1, 10) == ServerConfig("en", "", 5, "claude:claude-cli:Claude")
        assert await settings.lookup(1, 11) == ServerConfig(language="en", rounds=3)
        assert await settings.lookup(2, 10) == ServerConfig(format="ledger")
        assert await settings.lookup(3, 10) == ServerConfig()
        await settings.store(1, 0, ServerConfig(language="ko"))  # replaced, not merged
        assert await settings.stored(1) == ServerConfig(language="ko")
    finally:
        await db.close()


def test_per_server_config_problems_are_named() -> None:
    assert config_problem(ServerConfig(language="fr"), ROSTER) == "admin.bad_language"
    assert config_problem(ServerConfig(rounds=51), ROSTER) == "admin.bad_rounds"
    assert config_problem(ServerConfig(roster="??"), ROSTER) == "admin.bad_roster"
    assert config_problem(ServerConfig("pt-BR", "ledger", 50, ""), ROSTER) == ""


async def test_per_server_language_runs_the_debate_in_it_end_to_end(
    rig: BotRig, people: People
) -> None:
    """The server set to English while LANGUAGE is Korean: the card, the thread, a private
    reply, the debater's prompt, the status, the export and the wiki's Conclusion in English."""
    rig.ag.hold.update(range(1, 20))  # AG never answers: the debate is stopped
    await rig.start()
    assert rig.settings.LANGUAGE == "ko"
    await registered(rig)
    dana = rig.fake.add_user("dana")
    await run(rig, dana, "config", permissions=MANAGE_GUILD, language="en")

    await chat(rig, people)
    card, debate_id = await wait_card(rig)
    assert as_embed(card)["title"] == EN("front.card_title")
    assert rig.moderator.languages[-1] == "en"  # the card's topic and question asked in it
    labels = {c.get("label") for c in walk(card["components"])}
    assert EN("front.button_open") in labels
    _, refused = await click(rig, card["id"], f"debate:open:{debate_id}", people.bob)
    assert refused["flags"] & FLAG_EPHEMERAL and refused["content"] == EN("front.refused")
    await click(rig, card["id"], f"debate:open:{debate_id}", people.carol)
    thread_id = card["id"]
    status = await rig.fake.wait_for_message(
        lambda m: m["channel_id"] == thread_id and visible_text(m).startswith("Round 1/3")
    )
    turn = await rig.ag.wait_prompt(1)
    assert "Write in English." in rig.ag.prompts[turn].content  # the debaters' rules too

    await click(rig, status["id"], f"debate:stop:{debate_id}", people.alice)
    await rig.fake.wait_for_message(
        lambda m: (
            m["channel_id"] == thread_id
            and bool(as_embed(m))
            and as_embed(m).get("title") == EN("front.conclusion_title")
        )
    )
    await rig.fake.wait_for_message(
        lambda m: m["channel_id"] == thread_id and visible_text(m).startswith(EN("export.attached"))
    )
    said = await run(rig, dana, "status", permissions=MANAGE_GUILD, debate=debate_id)
    assert said.splitlines()[-1] == KO("admin.debate_language", language="en")

    assert rig.services is not None and rig.services.wiki is not None
    await rig.services.wiki.drained(debate_id)
    folder = next((Path(rig.settings.LOCAL_WIKI_DIR) / "debates").iterdir())
    conclusion = (folder / "conclusion.md").read_text(encoding="utf-8")
    assert f"## {EN('wiki.conclusion.decision')}" in conclusion
    assert KO("wiki.conclusion.decision") not in conclusion


async def test_per_server_language_writes_every_wiki_page_s_own_words_in_it(
    rig: BotRig, people: People
) -> None:
    """A debate run to its end in a server set to English while LANGUAGE is Korean: no wiki
    page holds a Korean word of the bot's own (the Round-Log's first line was Korean)."""
    await rig.start()
    await registered(rig)
    dana = rig.fake.add_user("dana")
    await run(rig, dana, "config", permissions=MANAGE_GUILD, language="en")
    await chat(rig, people)
    card, debate_id = await wait_card(rig)
    await click(rig, card["id"], f"debate:open:{debate_id}", people.alice)
    await rig.fake.wait_for_message(  # the end: the export attached after the Conclusion
        lambda m: (
            m["channel_id"] == card["id"] and visible_text(m).startswith(EN("export.attached"))
        ),
        timeout=60,
    )
    assert rig.services is not None and rig.services.wiki is not None
    await rig.services.wiki.drained(debate_id)
    folder = next((Path(rig.settings.LOCAL_WIKI_DIR) / "debates").iterdir())
    pages = {p.name: p.read_text(encoding="utf-8") for p in folder.glob("*.md")}
    assert {"agenda.md", "round-log.md", "conclusion.md"} <= set(pages)
    assert EN("wiki.round_log.intro") in pages["round-log.md"]
    korean = {
        key: text
        for key, text in load_table("ko").items()
        if key.startswith("wiki.") and "{" not in text and len(text) >= 4 and text != EN(key)
    }
    for name, content in pages.items():
        found = [key for key, text in korean.items() if text in content]
        assert not found, (name, found)
