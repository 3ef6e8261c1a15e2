"""Stalemate ends in the people's decision, through the real discord.py client: at the round
limit with the sides still disagreeing, the minority report (quotes checked: a made-up one is
left out) and a native poll with the positions as answers; votes cast through the fake bind
when the stored end time passes (the bot ends the poll and reads it) and the Conclusion
records them with the counts; a tie, no votes, Stop during the vote, and a restart while the
poll is open (it still closes on its timer, nothing is posted twice)."""

from __future__ import annotations

import json
import unicodedata
from datetime import datetime, timedelta
from pathlib import Path

from handlers.core.model import Outcome, Phase
from handlers.core.poll.state import PollStage
from tests.bot.discord.conftest import KO, BotRig, People
from tests.bot.discord.support import (
    THREADS,
    assert_refused,
    chat,
    click,
    posted_twice,
    status_edit,
    wait_card,
)
from tests.fakes.discord_limits import as_embed, visible_text
from tests.fakes.discord_world import Json
from tests.handlers.doubles import reply

HOURS = 6
CLAUDE_SAYS = (
    "Redis로 가야 합니다. 멀티 인스턴스 환경에서는 캐시 일관성이 운영 부담보다 먼저입니다."
)
REAL_QUOTE = "멀티 인스턴스 환경에서는 캐시 일관성이 운영 부담보다 먼저"
MADE_UP = "Redis는 언제나 LRU보다 빠르고 비용도 더 싸다"  # Claude never wrote it
AGS = "근거 근거 근거 근거 근거"  # AG's words (AgPlayer), which Claude quotes to rebut them
REBUTTAL = f' AG는 "{AGS}"라고 반복할 뿐입니다.'
JSON_SYNTAX = '"stance": "disagree"'  # in Claude's raw reply, never in its prose
LONG_POSITION = (
    "Redis로 간다: 멀티 인스턴스에서는 캐시 일관성과 "
    "장애 복구가 운영 부담보다 훨씬 먼저이기 때문이다"
)


def report_output() -> str:
    """The moderator's minority report: one real quote of each side, one made-up one."""
    sides = [
        {
            "participant": "ag",
            "position": "LRU부터 시작",
            "case": "운영 부담이 작다.",
            "quotes": ["LRU부터 시작합시다.\n\n근거 근거"],  # AgPlayer's words, other spacing
        },
        {
            "participant": "claude",
            "position": LONG_POSITION,
            "case": "일관성이 먼저다.",
            # the real quote as copied: decomposed Hangul, a zero-width space, curly quotes
            "quotes": [f"“{copied(REAL_QUOTE)}”", MADE_UP, AGS, JSON_SYNTAX],
        },
    ]
    return json.dumps({"sides": sides}, ensure_ascii=False)


def copied(quote: str) -> str:
    """`quote` as a copy often differs: NFD Hangul, a zero-width space inside."""
    decomposed = unicodedata.normalize("NFD", quote)
    return decomposed[:6] + "\u200b" + decomposed[6:]


async def _stalemate(rig: BotRig, people: People, says: str = CLAUDE_SAYS) -> tuple[int, str]:
    """One round, Claude disagreeing: the debate pauses for the people's poll."""
    rig.overrides.update(BUDGET_PAUSE=True, POLL_HOURS=HOURS, MAX_ROUNDS=1)
    rig.claude.enqueue(reply(says, "disagree"))
    await rig.start()
    await chat(rig, people)
    card, debate_id = await wait_card(rig)
    await click(rig, card["id"], f"debate:open:{debate_id}", people.alice)
    await rig.fake.wait_for_call("POST", THREADS)
    return debate_id, card["id"]


async def _poll_message(rig: BotRig, thread_id: str) -> Json:
    return await rig.fake.wait_for_message(
        lambda m: m["channel_id"] == thread_id and "poll" in m, timeout=10
    )


async def _close_on_timer(rig: BotRig, debate_id: int) -> None:
    """Not yet due; past the stored end time the timer closes it."""
    assert await rig.handler.fire_due_timers() == []
    rig.clock.advance(HOURS * 3600 + 1)
    assert await rig.handler.fire_due_timers() == [debate_id]
    await rig.handler.wait_idle(debate_id)


async def _conclusion_page(rig: BotRig, debate_id: int) -> str:
    assert rig.services is not None and rig.services.wiki is not None
    await rig.services.wiki.drained(debate_id)
    folder = next((Path(rig.settings.LOCAL_WIKI_DIR) / "debates").iterdir())
    return (folder / "conclusion.md").read_text(encoding="utf-8")


async def test_poll_report_positions_votes_and_the_binding_result(
    rig: BotRig, people: People
) -> None:
    rig.moderator.enqueue_task("minority_report", report_output())
    debate_id, thread_id = await _stalemate(rig, people, CLAUDE_SAYS + REBUTTAL)
    assert rig.services is not None

    # the minority report: the real quotes shown as quotes (matched on the prose, however
    # copied); left out and counted: the made-up one, AG's words Claude quoted to rebut
    # them, and JSON syntax of Claude's reply
    report = await rig.fake.wait_for_message(
        lambda m: (
            m["channel_id"] == thread_id
            and bool(as_embed(m))
            and KO("poll.report_title") in (as_embed(m).get("description") or "")
        ),
        timeout=10,
    )
    text = as_embed(report)["description"]
    assert f"> {REAL_QUOTE}" in text and "> LRU부터 시작합시다. 근거 근거" in text
    assert MADE_UP not in text and f"> {AGS}" not in text and "stance" not in text
    assert KO("poll.quote_rejected", count="3") in text
    assert LONG_POSITION in text  # whole in the report, cut in the poll

    # the native poll: the positions as answers (cut to 55 with a mark), the set duration
    poll_message = await _poll_message(rig, thread_id)
    status = next(m for m in rig.bot_messages(thread_id) if visible_text(m).startswith("라운드"))
    await status_edit(rig, status["id"], "🗳️ 사람들이 투표로 결정하는 중")
    poll = poll_message["poll"]
    paused = await rig.handler.get(debate_id)
    assert paused.people.paused == "poll" and paused.poll is not None
    answers = [a["poll_media"]["text"] for a in poll["answers"]]
    assert answers == list(paused.poll.answers) == ["AG: LRU부터 시작", answers[1]]
    assert answers[1].startswith("Claude: Redis로 간다") and answers[1].endswith("…")
    assert len(answers[1]) == 55
    sent = next(c.json for c in rig.fake.calls if c.json and "poll" in c.json)
    assert sent["poll"]["duration"] == HOURS and not sent["poll"]["allow_multiselect"]
    assert poll["question"]["text"] == KO("poll.question", topic=paused.proposal.topic)
    assert f"({HOURS}" in poll_message["content"] and "<t:" in poll_message["content"]
    await rig.handler.wait_idle(debate_id)  # the end time is stored once the poll is up
    row = await rig.services.db.fetch_one(
        "SELECT ends_at FROM polls WHERE debate_id = ?", (debate_id,)
    )
    assert row is not None
    ends_at = datetime.fromisoformat(row[0])
    assert abs(ends_at - rig.clock.now() - timedelta(hours=HOURS)) < timedelta(minutes=1)

    # people vote (anyone in the guild may); the timer ends the poll and the votes bind
    await rig.fake.vote(poll_message["id"], people.alice, 2)
    await rig.fake.vote(poll_message["id"], people.carol, 2)
    await rig.fake.vote(poll_message["id"], people.bob, 1)
    await _close_on_timer(rig, debate_id)
    ended = await rig.handler.get(debate_id)
    assert ended.phase is Phase.CONCLUDED and ended.ending.outcome is Outcome.PEOPLE
    assert ended.poll is not None and ended.poll.counts == (1, 2) and ended.poll.winner == 1
    expired = [c for c in rig.fake.calls if c.method == "POST" and c.path.endswith("/expire")]
    assert len(expired) == 1  # the bot ended it at its stored time

    notice = KO("poll.decided", answer=answers[1], votes=2, total=3)
    await rig.fake.wait_for_message(lambda m: visible_text(m) == notice)
    closing = await rig.fake.wait_for_message(
        lambda m: (
            m["channel_id"] == thread_id
            and bool(as_embed(m))
            and as_embed(m).get("title") == KO("front.conclusion_title")
        )
    )
    field = as_embed(closing)["fields"][0]
    assert field["name"] == KO("poll.decision_title")
    assert KO("poll.result_winner", answer=answers[1]) in field["value"]
    assert KO("poll.count_line", answer=answers[0], votes=1) in field["value"]
    assert KO("poll.count_line", answer=answers[1], votes=2) in field["value"]

    page = await _conclusion_page(rig, debate_id)
    assert KO("poll.decision_title") in page and KO("poll.total", total=3) in page
    assert KO("poll.report_heading") in page and f"> {REAL_QUOTE}" in page
    heading = f"## {KO('wiki.conclusion.decision')}"  # the title says 결론 too
    assert page.index(KO("poll.decision_title")) < page.index(heading)
    assert not await posted_twice(rig, rig.services.db, debate_id, thread_id)


async def test_poll_restart_while_open_still_closes_on_its_timer_once(
    rig: BotRig, people: People
) -> None:
    # no report scripted: the moderator is unavailable and each side's stance line stands in
    debate_id, thread_id = await _stalemate(rig, people)
    assert rig.services is not None
    poll_message = await _poll_message(rig, thread_id)
    await rig.handler.wait_idle(debate_id)
    opened = await rig.handler.get(debate_id)
    assert opened.poll is not None and opened.poll.report is not None
    assert opened.poll.report.by_rules
    claude = next(s for s in opened.poll.report.sides if s.participant == "claude")
    assert claude.quotes == (CLAUDE_SAYS,)  # its stance line, verbatim from its reply

    await rig.fake.vote(poll_message["id"], people.alice, 1)
    await rig.fake.vote(poll_message["id"], people.carol, 2)

    await rig.restart()  # the bot's cache is gone; the timer is in SQLite
    rig.clock.advance(60)
    assert await rig.handler.fire_due_timers() == []
    await _close_on_timer(rig, debate_id)
    ended = await rig.handler.get(debate_id)
    assert ended.ending.outcome is Outcome.PEOPLE and ended.poll is not None
    assert ended.poll.stage is PollStage.CLOSED and ended.poll.counts == (1, 1)
    assert ended.poll.winner is None  # a tie: no decision, said so
    tied = KO("poll.tied", answers=" / ".join(ended.poll.answers), votes=1, total=2)
    await rig.fake.wait_for_message(lambda m: visible_text(m) == tied)
    page = await _conclusion_page(rig, debate_id)
    assert KO("poll.result_tie", answers=" / ".join(ended.poll.answers)) in page

    # a due tick after the close does nothing; nothing was posted twice
    rig.clock.advance(3600)
    assert await rig.handler.fire_due_timers() == []
    polls = [m for m in rig.fake.messages_in(thread_id) if "poll" in m]
    assert len(polls) == 1 and len(rig.fake.polls.results_posted) == 1
    assert not await posted_twice(rig, rig.services.db, debate_id, thread_id)


async def test_poll_stop_ends_it_early_with_no_votes(rig: BotRig, people: People) -> None:
    rig.moderator.enqueue_task("minority_report", report_output())
    debate_id, thread_id = await _stalemate(rig, people)
    assert rig.services is not None
    await _poll_message(rig, thread_id)
    await rig.handler.wait_idle(debate_id)
    status = next(m for m in rig.bot_messages(thread_id) if m["components"] and "poll" not in m)
    stop = f"debate:stop:{debate_id}"
    await assert_refused(rig, status["id"], stop, people.bob)
    kind, _ = await click(rig, status["id"], stop, people.carol)
    assert kind == 6
    await rig.fake.wait_for_message(lambda m: visible_text(m) == KO("poll.no_votes"))
    await rig.handler.wait_idle(debate_id)
    ended = await rig.handler.get(debate_id)
    assert ended.phase is Phase.CONCLUDED and ended.ending.outcome is Outcome.PEOPLE
    assert ended.poll is not None and ended.poll.counts == (0, 0)
    assert ended.poll.closed_by == "carol"
    assert await rig.handler.fire_due_timers() == []  # its timer is done too
    page = await _conclusion_page(rig, debate_id)
    assert KO("poll.result_none") in page and KO("poll.closed_by", user="carol") in page


async def test_poll_message_deleted_decides_nothing_and_says_so(
    rig: BotRig, people: People
) -> None:
    debate_id, thread_id = await _stalemate(rig, people)
    poll_message = await _poll_message(rig, thread_id)
    await rig.handler.wait_idle(debate_id)
    rig.fake.world.deleted[poll_message["id"]] = rig.fake.world.messages.pop(poll_message["id"])
    await _close_on_timer(rig, debate_id)
    ended = await rig.handler.get(debate_id)
    assert ended.ending.outcome is Outcome.PEOPLE and ended.poll is not None and ended.poll.lost
    await rig.fake.wait_for_message(lambda m: visible_text(m) == KO("poll.lost"))
    assert KO("poll.result_lost") in await _conclusion_page(rig, debate_id)
