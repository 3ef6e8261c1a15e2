"""A boardroom debate through the real discord.py client, the fake Discord and the fake Wiki.js,
in Korean and in Portuguese: AG (echoing its relay tag) and two Claude seats vote, the status
names the seed's rounds, a majority ends without a budget pause in a closing post that names
the result and links the synthesis first; a divided panel the advisor cannot reconcile is put
to the people with option buttons, and a click ends it. No relay tag in any embed or page."""

from __future__ import annotations

import asyncio
import json
import re
from urllib.parse import quote

import pytest

from handlers.core.i18n import Strings
from handlers.core.model import Outcome, Phase
from tests.bot.discord.conftest import BotRig, People
from tests.bot.discord.doubles import TAG
from tests.bot.discord.support import chat, check_no_pings, click, custom_ids, wait_card
from tests.fakes.discord_limits import as_embed, visible_text
from tests.fakes.discord_world import Json
from tests.fakes.fake_wikijs import FULL_KEY, FakeWikiJs
from tests.handlers.boardroom_script import position, rebuttal

PANEL = "ag:ag-relay:AG:architect,claude:claude-cli:Claude:security reviewer"
THIRD = ",claude-2:claude-cli:Claude 2:product owner"
DRAFT = {
    "tracker": [],
    "tensions": ["AG vs Claude on audit"],
    "insight": "claude insight",
    "conditions": ["a load test"],
    "irreconcilable": False,
    "recommendation": "draft advice",
    "guardrails": ["g1"],
}
REVIEWED = DRAFT | {
    "recommendation": "adopt the outbox after a load test",
    "review": "names the load test",
}
SPLIT = DRAFT | {
    "irreconcilable": True,
    "question": "Outbox or Streams?",
    "options": ["Outbox", "Streams"],
    "review": "no condition joins them",
}


DEFAULTS = {"DEFAULT_FORMAT": "boardroom", "AG_QUIET_SECONDS": 0.5, "BUDGET_PAUSE": True}


def moderate(rig: BotRig, advised: dict[str, object]) -> None:
    """The moderator's decision, draft synthesis and its review."""
    rig.moderator.task_outputs.update(
        decision=[json.dumps({"decision": "Adopt the outbox?"})],
        synthesis=[json.dumps(DRAFT)],
        advisor=[json.dumps(advised)],
    )


def vote_as(rig: BotRig, language: str, seats: int, ag: str, claude: str) -> None:
    """AG (asked first in each round) echoes its relay tag before each answer; the Claude
    seats answer alike."""

    def ag_reply(turn: int) -> str:
        first = turn <= seats
        said = position("ag", ag, language) if first else rebuttal("ag", ag, language)
        return f"[debate 1 · turn {turn}] {said}"

    rig.ag.reply_for = ag_reply  # type: ignore[method-assign]  # AG's answer, scripted
    rig.claude.by_round = {
        1: position("claude", claude, language),
        2: rebuttal("claude", claude, language),
    }


async def open_board(rig: BotRig, people: People, wiki: FakeWikiJs, **settings: object) -> str:
    """Settings for a boardroom on Wiki.js; the card approved: the thread's id."""
    rig.overrides.update(DEFAULTS, WIKIJS_URL=wiki.url, WIKIJS_API_KEY=FULL_KEY, **settings)
    await rig.start()
    await chat(rig, people)
    card, debate_id = await wait_card(rig)
    assert debate_id == 1  # AG's echo names it
    await click(rig, card["id"], f"debate:open:{debate_id}", people.alice)
    return str(card["id"])


def embed_texts(rig: BotRig, thread_id: str) -> list[str]:
    """Every embed's words in the thread."""
    return [
        json.dumps(embed, ensure_ascii=False)
        for message in rig.fake.messages_in(thread_id)
        for embed in message["embeds"]
    ]


async def closing(rig: BotRig, thread_id: str, t: Strings) -> Json:
    """The closing post: the format's block standing in for the Conclusion."""
    return await rig.fake.wait_for_message(
        lambda m: (
            m["channel_id"] == thread_id
            and bool(as_embed(m))
            and as_embed(m).get("title") == t("front.conclusion_title")
        ),
        timeout=60,
    )


def round_prefix(t: Strings, number: int) -> str:
    """The status line's words up to the speaker: `라운드 2/2 · 발언: `."""
    cut = "\x00"
    line = t("front.status_running", round=number, max=2, speaker=cut, minutes=0, cost=0, mode="")
    return line.split(cut)[0]


@pytest.mark.parametrize("language", ["ko", "pt-BR"])
async def test_a_majority_ends_in_a_post_that_links_its_synthesis(
    rig: BotRig, people: People, language: str
) -> None:
    t = Strings(language)
    wiki = FakeWikiJs()
    await wiki.start()
    try:
        vote_as(rig, language, 3, ag="yes", claude="conditional")  # yes, conditional x2: MAJORITY
        moderate(rig, REVIEWED)
        thread_id = await open_board(
            rig, people, wiki, LANGUAGE=language, PARTICIPANTS=PANEL + THIRD, ADVISOR="moderator"
        )
        post = as_embed(await closing(rig, thread_id, t))
        await asyncio.wait_for(rig.handler.wait_idle(1), 30)
        debate = await rig.handler.get(1)
        assert debate.phase is Phase.CONCLUDED and debate.ending.outcome is Outcome.VERDICT
        assert debate.floor.turns == 6  # three seats, two rounds, no repair
        assert (debate.floor.round, debate.setup.max_rounds) == (
            2,
            2,
        )  # the status reads 2/2, not "1/3"
        shown = [c.json.get("content") or "" for c in rig.fake.calls if isinstance(c.json, dict)]
        assert not any(round_prefix(t, 1).replace("1/2", "1/3") in text for text in shown)
        assert t("boardroom.result_majority") in post["description"]
        assert "adopt the outbox after a load test" in post["description"]
        assert t("boardroom.reviewed_by_moderator") in post["description"]
        links = post["fields"][0]["value"]
        assert links.startswith(f"[{t('boardroom.page_synthesis')}]({wiki.url}/")  # first
        assert not any(t("budget.title") in text for text in embed_texts(rig, thread_id))
        assert rig.services is not None and rig.services.wiki is not None
        await asyncio.wait_for(rig.services.wiki.drained(1), 30)
        synthesis = next(p for p in wiki.pages.values() if p.path.endswith("/synthesis"))
        at = f"{wiki.url}/{quote(synthesis.path, safe='/')})"
        assert links.startswith(f"[{t('boardroom.page_synthesis')}]({at}")  # cut, it would stay
        page = synthesis.content
        assert f"**{t('boardroom.date')}:**" in page and f"**{t('boardroom.squad')}:**" in page
        assert t("boardroom.reviewed_by_moderator") in page and "⟦" not in page
        # The compact block's "full report" links the synthesis it names.
        report = f"{t('boardroom.full_report')}: [{t('boardroom.page_synthesis')}]({at}"
        assert report in post["description"]
        assert f"| AG | {t('boardroom.vote_yes')} | {t('boardroom.vote_yes')} |" in page
        assert page.index(t("boardroom.insight")) < page.index(t("boardroom.conditions"))
        no_tag(rig, thread_id, wiki)
        check_no_pings(rig, {thread_id}, rig.ag.user_id)
    finally:
        await wiki.stop()


async def test_a_divided_panel_is_put_to_the_people_with_buttons(
    rig: BotRig, people: People
) -> None:
    t = Strings("ko")
    wiki = FakeWikiJs()
    await wiki.start()
    try:
        vote_as(rig, "ko", 2, ag="yes", claude="no")  # one each: DIVIDED
        moderate(rig, SPLIT)
        thread_id = await open_board(rig, people, wiki, PARTICIPANTS=PANEL, ADVISOR="moderator")
        escalated = t("boardroom.escalate_buttons", why=t("boardroom.escalate_by_advisor"))
        how = await rig.fake.wait_for_message(
            lambda m: m["channel_id"] == thread_id and visible_text(m) == escalated,
            timeout=60,
        )
        question = await rig.fake.wait_for_message(
            lambda m: (
                m["channel_id"] == thread_id
                and bool(m["components"])
                and bool(as_embed(m))
                and as_embed(m).get("title") == t("front.question_title")
            )
        )
        assert int(question["id"]) > int(how["id"])  # said first, then asked
        assert as_embed(question)["description"] == "Outbox or Streams?"
        assert custom_ids(question) == ["debate:answer:1:1:0", "debate:answer:1:1:1"]  # question 1
        await click(rig, question["id"], "debate:answer:1:1:1", people.carol)
        post = as_embed(await closing(rig, thread_id, t))
        await asyncio.wait_for(rig.handler.wait_idle(1), 30)
        ended = await rig.handler.get(1)
        assert (
            ended.ending.outcome is Outcome.PEOPLE and ended.floor.turns == 4
        )  # whole answers: no repair
        assert f"{t('boardroom.people_decided')}: carol: Streams" in post["description"]
        assert rig.services is not None and rig.services.wiki is not None
        await asyncio.wait_for(rig.services.wiki.drained(1), 30)
        synthesis = next(p for p in wiki.pages.values() if p.path.endswith("/synthesis"))
        assert "Outbox or Streams?" in synthesis.content and "carol: Streams" in synthesis.content
        no_tag(rig, thread_id, wiki)
    finally:
        await wiki.stop()


def no_tag(rig: BotRig, thread_id: str, wiki: FakeWikiJs) -> None:
    """AG's echo of its relay tag is in no embed and on no page (it is addressing)."""
    assert not [text for text in embed_texts(rig, thread_id) if TAG.search(text)]
    assert not [p.path for p in wiki.pages.values() if TAG.search(p.content)]
    shown = [text for text in embed_texts(rig, thread_id) if "ag risk one" in text]
    assert shown and not re.search(r"\[debate \d+", "".join(shown))  # AG's own words, shown
