"""The end of a debate in Discord: the export attached after the Conclusion, and a
failed seat and a rules fallback named above the decision."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace

import pytest

from handlers.core.model import AG, Conclusion, ModeratorSource, Outcome, Phase, Stance
from handlers.core.record.chain import SCHEME, chain_head
from handlers.ports import Loaded
from tests.bot.discord.conftest import KO
from tests.bot.discord.test_room import bot_posts, debate, room, turn
from tests.effects import concluded
from tests.fakes.discord_fixtures import ListeningClient, client
from tests.fakes.discord_limits import as_embed
from tests.fakes.fake_discord import FakeDiscord
from tests.handlers.doubles import FakeWiki
from tools.store.db import Database

__all__ = ["client"]


@pytest.fixture
async def db(database_target: str) -> AsyncIterator[Database]:
    """The store on SQLite, then on PostgreSQL."""
    database = await Database.open(database_target)
    yield database
    await database.close()


async def test_export_is_attached_once_after_the_conclusion_and_holds_every_turn(
    fake: FakeDiscord, client: ListeningClient, db: Database
) -> None:
    said = "LRU로 시작합니다. ```code``` 그대로"
    conclusion = Conclusion(decision="LRU로 간다", agreed=("단순함",))
    ended = replace(
        debate(fake),
        phase=Phase.CONCLUDED,
        ending=replace(debate(fake).ending, outcome=Outcome.VERDICT, conclusion=conclusion),
        floor=replace(debate(fake).floor, faltered=(AG,), round=2),
        moderation=replace(debate(fake).moderation, fell_back=True),
    )
    effect, loaded = concluded(ended, conclusion, FakeWiki())
    shown = Loaded(links=loaded.links, turns=(turn(said),))
    for _ in range(2):  # a repeat after a restart posts nothing again
        await room(client, db).show(ended, effect, shown)
    posts = bot_posts(fake)
    assert len(posts) == 2
    decision = as_embed(posts[0])["description"]
    warning = f"{KO('degraded.line')} {KO('degraded.seats')} AG · {KO('degraded.rules')}"
    assert decision.startswith(f"**{warning}**") and decision.endswith("LRU로 간다")
    attached = posts[1]
    [file] = attached["attachments"]
    assert file["filename"] == "debate-7.md"
    text = fake.world.files[file["id"]].decode()
    head = chain_head(ended, (turn(said),), KO)  # the record's chain head, one line, in the file
    head_line = KO("record.head", scheme=SCHEME, head=head)
    assert attached["content"] == f"{KO('export.attached')}\n{head_line}" and head_line in text
    assert text.startswith("# 캐시 계층\n") and said in text  # the turn verbatim
    assert "sonnet" in text and "2026-11-29 12:00 UTC" in text  # by whom (its model) and when
    assert warning in text and KO("wiki.outcome.verdict") in text
    assert KO("credit.per_seat", seats="AG $0.00 · Claude $0.00") in text


async def test_degraded_a_rules_conclusion_names_the_rules_even_with_every_seat_agreeing(
    fake: FakeDiscord, client: ListeningClient, db: Database
) -> None:
    conclusion = Conclusion(decision="LRU", source=ModeratorSource.RULES)
    stances = ((AG, Stance.AGREE),)
    ended = replace(
        debate(fake),
        phase=Phase.CONCLUDED,
        ending=replace(debate(fake).ending, outcome=Outcome.CONSENSUS),
        floor=replace(debate(fake).floor, stances=stances),
    )
    await room(client, db).show(ended, *concluded(ended, conclusion, FakeWiki()))
    decision = as_embed(bot_posts(fake)[0])["description"]
    assert decision == f"**{KO('degraded.line')} {KO('degraded.rules')}**\n\nLRU"


async def test_rules_the_people_chose_are_said_plainly_and_not_as_a_fallback(
    fake: FakeDiscord, client: ListeningClient, db: Database
) -> None:
    conclusion = Conclusion(decision="LRU", source=ModeratorSource.RULES)
    chosen = replace(debate(fake).setup, moderator=ModeratorSource.RULES)
    ended = replace(
        debate(fake),
        phase=Phase.CONCLUDED,
        setup=chosen,
        ending=replace(debate(fake).ending, outcome=Outcome.CONSENSUS),
        moderation=replace(debate(fake).moderation, fell_back=True, source=ModeratorSource.RULES),
    )
    await room(client, db).show(ended, *concluded(ended, conclusion, FakeWiki()))
    decision = as_embed(bot_posts(fake)[0])["description"]
    assert decision == f"{KO('degraded.chosen_rules')}\n\nLRU"
    assert KO("degraded.line") not in decision
