"""The ledger's reply contract on the engine: a reply missing its fields gets one repair
request saying what was missing (then the debate goes on with what it has), the brief asks
for `convinced_by`, a turn page shows the debater's own Markdown above the reply as written,
and the thread's last word names the outcome and links the page that records it."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import handlers.core.formats.ledger.text as text
from handlers.core.formats.keys import fill_keys
from handlers.core.formats.ledger.rules import LEDGER_FORMAT
from handlers.core.i18n import Strings
from handlers.core.model import AG, CLAUDE, GEMINI, Backend, Debate, Participant, Phase
from handlers.core.reply.parser import parse_reply
from tests.handlers.conftest import DEFAULT_ROSTER, Rig
from tests.handlers.doubles import reply
from tests.handlers.test_ledger import confirming
from tests.tools.wiki.support import debate, turn

EN = Strings("en")
CONVERGE = (("ledger.end", "converge"), ("ledger.stance", "assigned"))


def full(opinion: str, stance: str = "partial") -> str:
    return reply(opinion, stance, agreed=["LRU"], contested=["Redis"], concessions=[])


async def _run(rig: Rig) -> Debate:
    await rig.start()
    debate_id = await rig.debate_to_end()
    return await rig.h.get(debate_id)


async def test_a_reply_missing_its_fields_is_asked_for_once_more(tmp_path: Path) -> None:
    rig = Rig(
        tmp_path / "repair.sqlite3", format="ledger", options=CONVERGE, max_rounds=1, language="en"
    )
    lacking = reply("AG: LRU first", "partial", agreed=["LRU"])
    rig.debaters[AG].enqueue(lacking, reply("AG: still lacking"), confirming())  # repair lacks
    rig.debaters[CLAUDE].enqueue(full("Claude: Redis later"), confirming())
    try:
        done = await _run(rig)
        assert done.phase is Phase.CONCLUDED
        first, again, _ = rig.debaters[AG].requests  # asked once more, once; then to confirm
        assert "`convinced_by`" in first.prompt  # stance moves carry their quote
        assert "missing required fields: contested, concessions" in again.prompt
        assert lacking in again.prompt and again.round == first.round == 1
        said = [(k, p) for _, k, p in rig.room.notices if k == "ledger.repair"]
        assert said == [("ledger.repair", {"seat": "AG", "missing": "contested, concessions"})]
        assert "AG: still lacking" in rig.debaters[CLAUDE].requests[0].prompt  # goes on
        seats = [t.seat for t in await rig.h._turns.last_turns(done.id, 10)]
        assert seats[:3] == [AG, AG, CLAUDE] and sorted(seats[3:]) == [AG, CLAUDE]
    finally:
        await rig.stop()


async def test_a_complete_reply_gets_no_repair_request(tmp_path: Path) -> None:
    rig = Rig(tmp_path / "whole.sqlite3", format="ledger", options=CONVERGE, max_rounds=1)
    rig.debaters[AG].enqueue(full("AG"), confirming("A1"))
    rig.debaters[CLAUDE].enqueue(full("Claude"), confirming("A1"))
    try:
        await _run(rig)
        assert len(rig.debaters[AG].requests) == 2  # its turn, and the confirmation
        assert "ledger.repair" not in rig.room.notice_keys()
    finally:
        await rig.stop()


async def test_the_last_word_names_the_outcome_and_links_the_ledger(tmp_path: Path) -> None:
    rig = Rig(tmp_path / "end.sqlite3", format="ledger", options=CONVERGE, max_rounds=1)
    rig.debaters[AG].enqueue(full("AG", "agree"), confirming("A1"))
    rig.debaters[CLAUDE].enqueue(full("Claude", "agree"), confirming("A1"))
    try:
        done = await _run(rig)
        _, key, params = rig.room.notices[-1]
        assert key == "debate.outcome_recorded"
        assert params["outcome"] == "⟦front.outcome_consensus⟧"
        assert params["url"] == f"https://wiki.test/debates/{done.id}/conclusion"
    finally:
        await rig.stop()


async def test_an_open_ledger_s_record_is_its_front_page(tmp_path: Path) -> None:
    options = (("ledger.end", "open"), ("ledger.stance", "neutral"))
    rig = Rig(tmp_path / "open.sqlite3", format="ledger", options=options, max_rounds=1)
    rig.debaters[AG].enqueue(full("AG"))
    rig.debaters[CLAUDE].enqueue(full("Claude"))
    try:
        done = await _run(rig)
        _, key, params = rig.room.notices[-1]
        assert key == "debate.outcome_recorded"
        assert params["url"] == f"https://wiki.test/debates/{done.id}/front-page"
        assert params["outcome"] == "⟦front.outcome_max_rounds⟧"
    finally:
        await rig.stop()


def test_a_turn_page_shows_the_debater_s_markdown_above_the_reply_as_written() -> None:
    text = 'Intro kept\n```json\n{"opinion": "## Cache\\n\\n- **LRU** first", "x": 1}\n```'
    said = replace(turn(1, text, seat=AG), parsed=parse_reply(text))
    _, page = LEDGER_FORMAT.render_page(debate(), "turns/01-ag", (said,))
    shown = fill_keys(page, EN)
    mine, _, raw = shown.partition("<details>")
    assert "## Cache\n\n- **LRU** first" in mine and "```" not in mine and "{" not in mine
    assert f"<summary>{EN('ledger.raw_reply')}</summary>" in raw
    assert f"```text\n{text}\n```" in raw and raw.rstrip().endswith("</details>")


def test_the_front_page_opens_with_the_orientation_line_and_rules_its_sections() -> None:
    ledger = '{"agreed": ["LRU"], "amendments": [], "open": ["Redis"]}'
    outputs = (  # confirmed by both sides (two-party): the ledger page is written
        ("ledger", ledger),
        ("ledger-unconfirmed", "[]"),
        ("front-page", "# Front\n\nbody (A1) (Q1)"),
    )
    shown = replace(
        debate(),
        setup=replace(debate().setup, format="ledger"),
        floor=replace(debate().floor, log=((1, AG), (2, CLAUDE))),
        moderation=replace(debate().moderation, outputs=outputs),
    )
    _, page = LEDGER_FORMAT.render_page(shown, "front-page", ())
    word = EN("ledger.turn")
    turns = f"[{word} 1 · AG](turns/01-ag) · [{word} 2 · Claude](turns/02-claude)"
    line = f"**{EN('ledger.orientation')}** {turns} · [{EN('ledger.page_conclusion')}](conclusion)"
    assert fill_keys(page, EN) == f"# Front\n\n{line}\n\n---\n\nbody (A1) (Q1)"
    rules = json.loads(text.fallback_front(shown, ledger, ()))["markdown"]
    assert rules.count("\n---\n") == 2  # the summary and the diagram each under a rule


def test_a_fence_the_debater_left_open_is_closed_above_the_reply_as_written() -> None:
    text = '```json\n{"opinion": "## Code\\n\\n```python\\nx = 1"}\n```'
    said = replace(turn(1, text, seat=AG), parsed=parse_reply(text))
    _, page = LEDGER_FORMAT.render_page(debate(), "turns/01-ag", (said,))
    mine = fill_keys(page, EN).partition("<details>")[0]
    assert mine.rstrip().endswith("```python\nx = 1\n```")


async def test_an_orchestrated_round_shows_the_repaired_reply_only(tmp_path: Path) -> None:
    trio = (*DEFAULT_ROSTER, Participant(GEMINI, Backend.GEMINI_CLI, "Gemini"))
    options = (*CONVERGE, ("ledger.mode", "orchestrate"))
    rig = Rig(
        tmp_path / "trio.sqlite3",
        roster=trio,
        format="ledger",
        options=options,
        max_rounds=2,
        language="en",
    )
    lacking, repaired = reply("Gemini: lacking"), full("Gemini: repaired")
    rig.debaters[GEMINI].enqueue(lacking, repaired, full("Gemini 2"))
    for seat in (AG, CLAUDE):
        rig.debaters[seat].enqueue(full(f"{seat} 1"), full(f"{seat} 2"))
    try:
        await _run(rig)
        assert len(rig.debaters[GEMINI].requests) == 3  # round 1, its repair, round 2
        second = rig.debaters[AG].requests[1].prompt
        assert repaired in second and lacking not in second
        pages = rig.wiki.pages[1]
        assert "Gemini: repaired" in pages["turns/01-gemini"][1]  # kept on its round's page
    finally:
        await rig.stop()
