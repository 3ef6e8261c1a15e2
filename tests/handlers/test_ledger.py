"""The ledger format on the engine: numbered turns each on its own page, the orchestrated
round barrier, the ledger and the front page (ids checked by code, one repair), crash and Stop
inside a fanned-out round; Korean and English, converging and open."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace as changed
from pathlib import Path

import pytest

import prompts
from handlers.core.effects import Effect
from handlers.core.events import ProposalApproved, StopRequested
from handlers.core.formats.keys import fill_keys
from handlers.core.formats.ledger.text import ledger_items, missing_fields
from handlers.core.i18n import Strings
from handlers.core.model import (
    AG,
    CLAUDE,
    GEMINI,
    Backend,
    Debate,
    Outcome,
    Participant,
    Phase,
    Turn,
)
from handlers.ports import DebaterOutput, TurnRequest
from tests.handlers.conftest import ALICE, Rig, proposal
from tests.handlers.doubles import reply
from tests.tools.wiki.support import turn

TRIO = (
    Participant(AG, Backend.AG_RELAY, "AG"),
    Participant(CLAUDE, Backend.CLAUDE_CLI, "Claude"),
    Participant(GEMINI, Backend.GEMINI_CLI, "Gemini"),
)
CONVERGE = (("ledger.end", "converge"), ("ledger.stance", "assigned"))
OPEN = (("ledger.end", "open"), ("ledger.stance", "neutral"))
LEDGER = {
    "agreed": ["In-process LRU is enough below three instances."],
    "amendments": ["Redis only once a shared cache is measured to pay off."],
    "open": ["Who runs a Redis cluster?"],
}


def said(who: str, n: int, stance: str = "partial") -> str:
    """A ledger turn: opinion, stance and the ledger contract's lists."""
    return reply(
        f"{who} turn {n}: steelman first, then https://example.org/{who}/{n}",
        stance,
        agreed=[f"{who} agrees {n}"],
        contested=[f"{who} contests {n}"],
        concessions=[f"{who} concedes {n}"],
    )


def confirming(*ids: str, **amended: str) -> str:
    """A confirmation-round reply: the ids confirmed as written, and each one amended."""
    block = {"opinion": "I read the ledger as written.", "confirmed": list(ids)}
    block |= {"amended": amended} if amended else {}
    return f"Read.\n\n```json\n{json.dumps(block, ensure_ascii=False)}\n```"


def front(ids: Sequence[str]) -> str:
    body = "| a | b |\n|---|---|\n" + "\n".join(f"- **{i}** plain words" for i in ids)
    return json.dumps({"markdown": body, "svg": '<svg><rect fill="#fff"/></svg>'})


async def _run(rig: Rig, topic: str | None = None) -> Debate:
    debate = await rig.h.propose(proposal() if topic is None else proposal(topic))
    assert debate is not None
    await asyncio.wait_for(rig.h.wait_idle(debate.id), 10)
    await rig.h.submit(debate.id, ProposalApproved(ALICE))
    await asyncio.wait_for(rig.h.wait_idle(debate.id), 20)
    return await rig.h.get(debate.id)


def _moderators(front_page: str) -> str:
    """The moderator's front page without the orientation line and rule code put under its
    title."""
    title, _, rest = front_page.partition("\n\n")
    assert rest.startswith("**") and "\n\n---\n\n" in rest, front_page
    return f"{title}\n\n{rest.partition(chr(10) * 2 + '---' + chr(10) * 2)[2]}"


def _confirm_all(rig: Rig) -> None:
    """Each side's turns, then its confirmation of every agreed claim and amendment."""
    for seat in (AG, CLAUDE):
        rig.debaters[seat].enqueue(said(seat, 1), confirming("A1", "M1"))


async def _turns(rig: Rig, debate_id: int) -> list[Turn]:
    return sorted(await rig.h._turns.last_turns(debate_id, 100), key=lambda t: t.number)


def _pages(rig: Rig, debate_id: int) -> dict[str, tuple[str, str]]:
    return rig.wiki.pages.get(debate_id, {})


async def test_two_party_converging_in_korean(tmp_path: Path) -> None:
    rig = Rig(tmp_path / "two.sqlite3", format="ledger", options=CONVERGE)
    rig.debaters[AG].enqueue(said(AG, 1), said(AG, 3, "agree"), confirming("A1", "M1"))
    rig.debaters[CLAUDE].enqueue(said(CLAUDE, 2), said(CLAUDE, 4, "agree"), confirming("A1", "M1"))
    rig.moderator.enqueue_task("ledger", json.dumps(LEDGER))
    rig.moderator.enqueue_task("front-page", front(["A1", "M1", "Q1"]))
    await rig.start()
    try:
        debate = await _run(rig)
        assert debate.phase is Phase.CONCLUDED and debate.ending.outcome is Outcome.CONSENSUS
        turns = await _turns(rig, debate.id)
        assert [(t.number, t.seat) for t in turns][:4] == [
            (1, AG),
            (2, CLAUDE),
            (3, AG),
            (4, CLAUDE),
        ]
        assert {(t.number, t.seat) for t in turns[4:]} == {(5, AG), (6, CLAUDE)}  # confirmed
        pages = _pages(rig, debate.id)
        for turn in turns:
            page = f"turns/{turn.number:02d}-{turn.seat}"
            assert turn.text in pages[page][1]  # every turn its own page, verbatim
        assert all(n == 1 for n in rig.wiki.keys.values())  # never rewritten
        # Claude's first brief: its assigned standpoint, the conduct, AG's turn verbatim.
        first = rig.debaters[CLAUDE].requests[0].prompt
        assert turns[0].text in first and "반대" in first and "스틸맨" in first
        # The moderator adds nothing of its own: the brief is the templates and the turn.
        topic = debate.proposal
        expected = "\n\n".join(
            (
                prompts.load(
                    "ledger/brief",
                    "ko",
                    topic=topic.topic,
                    question=topic.question,
                    context=topic.context,
                    name="Claude",
                    round="1",
                    max_rounds="3",
                ),
                prompts.load("ledger/stance_against", "ko"),
                prompts.load("ledger/turn", "ko", speaker="AG", turn="1", reply=turns[0].text),
                prompts.load(
                    "ledger/ask", "ko", additions="", reply_rule=prompts.load("ledger/reply", "ko")
                ),
            )
        )
        assert first == expected
        assert rig.debaters[AG].requests[0].prompt.count("찬성") >= 1
        # The ledger: every item in its exact wording, with its id; the front page beside it.
        conclusion = pages["conclusion"][1]
        for item_id, _, wording in ledger_items(json.dumps(LEDGER)):
            assert f"**{item_id}** {wording}" in conclusion
        assert "A1" in pages["front-page"][1] and "<svg" in pages["concepts.svg"][1]
        assert "topic" in pages and "⟦ledger.standpoint_for⟧" in pages["topic"][1]
        assert [r.task for r in rig.moderator.tasks] == ["ledger", "front-page"]
        assert rig.moderator.conclusions == 0 and rig.room.conclusions == []
        assert len(rig.room.summaries) == 1 and "**A1**" in rig.room.summaries[0]
    finally:
        await rig.stop()


async def test_orchestrated_rounds_pass_the_barrier_and_show_exactly_the_others(
    tmp_path: Path,
) -> None:
    rig = Rig(
        tmp_path / "trio.sqlite3",
        roster=TRIO,
        format="ledger",
        options=CONVERGE,
        language="en",
        max_rounds=2,
    )
    await rig.start()
    events: list[tuple[str, str, int]] = []
    others_stored = asyncio.Event()
    store = rig.h._debates
    save = store.save_step

    async def recorded_save(
        debate: Debate, effects: Sequence[Effect], turn: Turn | None, *a: object, **k: object
    ) -> None:
        await save(debate, effects, turn, *a, **k)  # type: ignore[arg-type]  # the rest passed on as it came
        if turn is not None:
            events.append(("stored", turn.seat, turn.round))
            if sum(1 for e in events if e[0] == "stored") == 2:
                others_stored.set()

    store.save_step = recorded_save  # type: ignore[method-assign]  # records each store, then stores
    for member in TRIO:
        double = rig.debaters[member.id]
        speak = double.speak

        async def asked(
            request: TurnRequest,
            speak: Callable[[TurnRequest], Awaitable[DebaterOutput]] = speak,
        ) -> DebaterOutput:
            events.append(("asked", request.participant, request.round))
            return await speak(request)

        double.speak = asked  # type: ignore[method-assign]  # records each ask, then asks

    async def late() -> str:  # Gemini answers round 1 only after the others are stored
        await others_stored.wait()
        assert not [e for e in events if e[0] == "asked" and e[2] == 2]
        return said(GEMINI, 1)

    rig.debaters[AG].enqueue(said(AG, 1), said(AG, 2))
    rig.debaters[CLAUDE].enqueue(said(CLAUDE, 1), said(CLAUDE, 2))
    rig.debaters[GEMINI].enqueue(late, said(GEMINI, 2))
    try:
        debate = await _run(rig)
        assert debate.phase is Phase.CONCLUDED and debate.ending.outcome is Outcome.MAX_ROUNDS
        last_stored_1 = max(i for i, e in enumerate(events) if e[0] == "stored" and e[2] == 1)
        first_asked_2 = min(i for i, e in enumerate(events) if e[0] == "asked" and e[2] == 2)
        assert last_stored_1 < first_asked_2  # the barrier
        turns = await _turns(rig, debate.id)
        round1 = [t for t in turns if t.round == 1]
        assert {t.seat for t in round1} == {AG, CLAUDE, GEMINI}
        for member in TRIO:
            first, second = rig.debaters[member.id].requests
            assert all(t.text not in first.prompt for t in round1)
            for turn in round1:
                assert second.prompt.count(turn.text) == (turn.seat != member.id)
            assert "Steelman" in second.prompt or "steelman" in second.prompt
        pages = _pages(rig, debate.id)
        assert {p for p in pages if p.startswith("turns/")} == {
            f"turns/{r:02d}-{m.id}" for r in (1, 2) for m in TRIO
        }
        # Gemini unavailable (nothing queued): the rules' ledger and front page, every id on it.
        assert "ledger.task_fallback" in rig.room.notice_keys()
        ids = [i for i, _, _ in ledger_items(debate.output_of("ledger") or "")]
        assert ids and all(i in pages["front-page"][1] for i in ids)
        assert f"**Q1** {GEMINI} contests 2" not in pages["conclusion"][1]  # ag's come first
        assert "contests 2" in pages["conclusion"][1] and "concedes 2" in pages["conclusion"][1]
    finally:
        await rig.stop()


async def test_a_front_page_missing_a_ledger_id_gets_one_repair(tmp_path: Path) -> None:
    rig = Rig(tmp_path / "repair.sqlite3", format="ledger", options=CONVERGE, max_rounds=1)
    _confirm_all(rig)
    rig.moderator.enqueue_task("ledger", json.dumps(LEDGER))
    rig.moderator.enqueue_task("front-page", front(["A1", "Q1"]))  # M1 left out
    rig.moderator.enqueue_task("front-page-repair", front(["A1", "M1", "Q1"]))
    await rig.start()
    try:
        debate = await _run(rig)
        tasks = [r.task for r in rig.moderator.tasks]
        assert tasks == ["ledger", "front-page", "front-page-repair"]
        assert "M1" in rig.moderator.tasks[-1].prompt  # the repair names what was missing
        page = _pages(rig, debate.id)["front-page"][1]
        assert all(i in page for i in ("A1", "M1", "Q1"))
        assert rig.wiki.keys[f"{debate.id}:page:front-page"] == 1  # written once, repaired
    finally:
        await rig.stop()


async def test_a_repair_still_missing_an_id_falls_back_to_the_plain_page(tmp_path: Path) -> None:
    rig = Rig(tmp_path / "again.sqlite3", format="ledger", options=CONVERGE, max_rounds=1)
    _confirm_all(rig)
    rig.moderator.enqueue_task("ledger", json.dumps(LEDGER))
    rig.moderator.enqueue_task("front-page", front(["A1"]))
    rig.moderator.enqueue_task("front-page-repair", front(["A1", "M1"]))
    await rig.start()
    try:
        debate = await _run(rig)
        assert [r.task for r in rig.moderator.tasks].count("front-page-repair") == 1
        page = _pages(rig, debate.id)["front-page"][1]
        assert all(f"**{i}**" in page for i in ("A1", "M1", "Q1"))
        assert LEDGER["open"][0] in page  # the plain page restates every item
    finally:
        await rig.stop()


async def test_open_exploration_in_english_ends_at_max_rounds_with_a_front_page(
    tmp_path: Path,
) -> None:
    rig = Rig(tmp_path / "open.sqlite3", format="ledger", options=OPEN, language="en")
    for seat in (AG, CLAUDE):
        rig.debaters[seat].default = said(seat, 0, "agree")  # agreement does not end it
    rig.moderator.enqueue_task("front-page", front([]))
    await rig.start()
    try:
        debate = await _run(rig)
        assert debate.phase is Phase.CONCLUDED and debate.ending.outcome is Outcome.MAX_ROUNDS
        assert len(await _turns(rig, debate.id)) == 2 * rig.max_rounds
        assert [r.task for r in rig.moderator.tasks] == ["front-page"]
        pages = _pages(rig, debate.id)
        assert "conclusion" not in pages and "front-page" in pages
        assert "inquiry" in rig.debaters[AG].requests[0].prompt
        assert rig.room.summaries == ["🔎 ⟦ledger.explored⟧"]
    finally:
        await rig.stop()


KEY = "⟦ledger.topic⟧"  # a real key, as a participant, a person or the moderator may write it
EN = Strings("en")


async def test_keys_written_by_participants_and_the_moderator_reach_every_page_verbatim(
    tmp_path: Path,
) -> None:
    rig = Rig(tmp_path / "keys.sqlite3", format="ledger", options=CONVERGE, language="en")
    own = reply(
        f"AG quotes {KEY} and ⟦⟦ as written",
        "agree",
        agreed=[f"LRU {KEY}"],
        contested=[],
        concessions=[],
    )
    rig.debaters[AG].enqueue(own, confirming("A1"))
    rig.debaters[CLAUDE].enqueue(said(CLAUDE, 2, "agree"), confirming("A1"))
    items = {"agreed": [f"LRU {KEY} is enough"], "amendments": [], "open": []}
    rig.moderator.enqueue_task("ledger", json.dumps(items))
    page = {"markdown": f"# Front\n\n- **A1** plain words, {KEY} kept", "svg": "<svg/>"}
    rig.moderator.enqueue_task("front-page", json.dumps(page))
    await rig.start()
    try:
        debate = await _run(rig, f"Cache {KEY} layer")
        pages = {
            name: (fill_keys(t, EN), fill_keys(m, EN))
            for name, (t, m) in _pages(rig, debate.id).items()
        }
        title, turn_page = pages["turns/01-ag"]
        assert title == f"Cache {KEY} layer — {EN('ledger.turn')} 1 · AG"
        assert own in turn_page and f"— {EN('ledger.round')} 1, #1" in turn_page
        conclusion = pages["conclusion"][1]
        assert f"# {EN('ledger.conclusion_title')}\n" in conclusion
        assert f"**{EN('ledger.topic')}:** Cache {KEY} layer" in conclusion
        assert f"**A1** LRU {KEY} is enough" in conclusion
        assert _moderators(pages["front-page"][1]) == page["markdown"]  # as written
        topic = pages["topic"][1]
        assert topic.startswith(f"# Cache {KEY} layer\n") and EN("ledger.standpoint_for") in topic
        assert fill_keys(rig.room.summaries[0], EN) == f"✅ **A1** LRU {KEY} is enough"
    finally:
        await rig.stop()


async def test_the_rules_front_page_is_in_the_reader_s_words_and_quotes_verbatim(
    tmp_path: Path,
) -> None:
    rig = Rig(tmp_path / "rules.sqlite3", format="ledger", options=OPEN, language="en")
    for seat in (AG, CLAUDE):
        rig.debaters[seat].default = reply(f"{seat} keeps {KEY}", "partial")
    await rig.start()  # no front page queued: the moderator is unavailable, the rules write it
    try:
        debate = await _run(rig)
        front_page = fill_keys(_pages(rig, debate.id)["front-page"][1], EN)
        assert f"- **AG:** Intro.\n\nag keeps {KEY}\n" in front_page  # the opinion, verbatim
        assert f"| {EN('ledger.meta_field')} | {EN('ledger.meta_value')} |" in front_page
        assert "⟦ledger." not in front_page.replace(KEY, "")
        assert "ledger.task_fallback" in rig.room.notice_keys()
    finally:
        await rig.stop()


async def test_stop_during_an_orchestrated_round(tmp_path: Path) -> None:
    rig = Rig(tmp_path / "stop.sqlite3", roster=TRIO, format="ledger", options=CONVERGE)
    started: set[str] = set()
    ended: set[str] = set()
    everyone = asyncio.Event()

    def hangs(who: str) -> Callable[[], Awaitable[None]]:
        async def hang() -> None:
            started.add(who)
            if len(started) == len(TRIO):
                everyone.set()
            try:
                await asyncio.Event().wait()
            finally:
                ended.add(who)

        return hang

    for member in TRIO:
        rig.debaters[member.id].enqueue(hangs(member.id))
    await rig.start()
    try:
        debate = await rig.h.propose(proposal())
        assert debate is not None
        await asyncio.wait_for(rig.h.wait_idle(debate.id), 10)
        await rig.h.submit(debate.id, ProposalApproved(ALICE))
        await asyncio.wait_for(everyone.wait(), 10)
        await rig.h.submit(debate.id, StopRequested(ALICE))
        await asyncio.wait_for(rig.h.wait_idle(debate.id), 10)
        assert ended == {AG, CLAUDE, GEMINI}
        stopped = await rig.h.get(debate.id)
        assert stopped.phase is Phase.STOPPED and stopped.floor.asked == ()
        assert rig.moderator.tasks == []  # no ledger for a stopped debate
        assert len(rig.room.conclusions) == 1  # the engine's Conclusion closes it
    finally:
        await rig.stop()


async def _calls(tmp_path: Path) -> int:
    rig = _crash_rig(tmp_path / "dry.sqlite3")
    await rig.start()
    try:
        await _run(rig)
    finally:
        await rig.stop()
    return rig.plan.calls


def _crash_rig(path: Path) -> Rig:
    rig = Rig(
        path, roster=TRIO, format="ledger", options=CONVERGE, max_rounds=2, ticking_store=True
    )
    rig.moderator.enqueue_task("ledger", json.dumps(LEDGER))
    rig.moderator.enqueue_task("front-page", front(["A1", "M1", "Q1"]))
    for member in TRIO:  # every field given: no repair request
        rig.debaters[member.id].default = said(member.id, 0)
    return rig


async def test_a_kill_inside_a_fanned_out_round_asks_only_the_missing(tmp_path: Path) -> None:
    total = await _calls(tmp_path)
    inside = 0
    for at in range(1, total + 1):
        rig = _crash_rig(tmp_path / f"crash-{at}.sqlite3")
        rig.plan.at = at
        await rig.start()
        try:
            debate = await rig.h.propose(proposal())
            assert debate is not None
            await asyncio.wait_for(rig.h.wait_idle(debate.id), 10)
            await rig.h.submit(debate.id, ProposalApproved(ALICE))
            await asyncio.wait_for(rig.h.wait_idle(debate.id), 10)
            where = f"crash at call {at} ({rig.plan.log[at - 1]})"
            stored = {t.number for t in await rig.h._turns.last_turns(debate.id, 100)}
            inside += len(stored) % len(TRIO) != 0  # a round part-answered, in any order
            asked = {m: len(d.requests) for m, d in rig.debaters.items()}
            await rig.rebuild()
            await asyncio.wait_for(rig.h.wait_idle(debate.id), 10)
            done = await rig.h.get(debate.id)
            assert done.phase is Phase.CONCLUDED, where
            assert sorted(t.number for t in await _turns(rig, debate.id)) == list(range(1, 7))
            for member, double in rig.debaters.items():
                again = {r.turn for r in double.requests[asked[member] :]}
                assert not again & stored, f"{where}: {member} asked again for {again & stored}"
            assert all(n == 1 for n in rig.room.turn_posts.values()), where
            assert all(n == 1 for n in rig.wiki.keys.values()), where
            assert len(rig.room.summaries) == 1, where
        finally:
            await rig.stop()
    assert inside >= 4


@pytest.mark.parametrize("language", ["ko", "en"])
@pytest.mark.parametrize("mode", ["turns", "orchestrate"])
@pytest.mark.parametrize("end", ["converge", "open"])
async def test_every_mode_end_state_and_language(
    tmp_path: Path, language: str, mode: str, end: str
) -> None:
    roster = TRIO if mode == "orchestrate" else TRIO[:2]
    options = (("ledger.end", end), ("ledger.mode", mode), ("ledger.stance", "assigned"))
    rig = Rig(
        tmp_path / "m.sqlite3",
        roster=roster,
        format="ledger",
        options=options,
        language=language,
        max_rounds=2,
    )
    for member in roster:
        rig.debaters[member.id].enqueue(said(member.id, 1), said(member.id, 2))
        if mode == "turns" and end == "converge":  # two-party: the confirmation round
            rig.debaters[member.id].enqueue(confirming())
    await rig.start()
    try:
        debate = await _run(rig)
        assert debate.phase is Phase.CONCLUDED and debate.ending.outcome is Outcome.MAX_ROUNDS
        turns = await _turns(rig, debate.id)
        confirmed = len(roster) if (mode, end) == ("turns", "converge") else 0
        assert len(turns) == 2 * len(roster) + confirmed
        pages = _pages(rig, debate.id)
        assert len([p for p in pages if p.startswith("turns/")]) == len(turns)
        assert ("conclusion" in pages) is (end == "converge") and "front-page" in pages
        words = {"ko": "스틸맨", "en": "steelman"}[language]
        # every turn's brief carries the conduct (the confirmation round's asks the ledger)
        assert all(words in r.prompt for d in rig.debaters.values() for r in d.requests[:2])
        stance = {"ko": "반대", "en": "AGAINST"}[language]
        assert stance in rig.debaters[CLAUDE].requests[0].prompt
        expected = {"converge": ["ledger", "front-page"], "open": ["front-page"]}[end]
        assert [r.task for r in rig.moderator.tasks] == expected
        assert len(rig.room.summaries) == 1
    finally:
        await rig.stop()


def test_the_ledger_contract_names_what_a_reply_lacks() -> None:
    whole = turn(1, said(AG, 1), seat=AG)
    assert missing_fields(whole) == ()
    partial = changed(whole, text=reply("only an opinion"))
    assert missing_fields(partial) == ("agreed", "contested", "concessions")
    prose = changed(whole, text="no block at all")
    assert missing_fields(prose) == (
        "opinion",
        "agreed",
        "contested",
        "concessions",
    )


async def test_a_keyed_flag_in_the_moderator_s_front_page_fills_no_key(tmp_path: Path) -> None:
    # "keyed" is a trust the engine records for the rules' own page; a model writing it into
    # its JSON must not get its ⟦area.key⟧ words filled.
    rig = Rig(tmp_path / "flag.sqlite3", format="ledger", options=CONVERGE, language="en")
    rig.debaters[AG].enqueue(said(AG, 1, "agree"), confirming("A1"))
    rig.debaters[CLAUDE].enqueue(said(CLAUDE, 2, "agree"), confirming("A1"))
    rig.moderator.enqueue_task(
        "ledger", json.dumps({"agreed": ["x"], "amendments": [], "open": []})
    )
    page = {"markdown": "# Front\n\n- **A1** x ⟦ledger.topic⟧", "svg": "<svg/>", "keyed": True}
    rig.moderator.enqueue_task("front-page", json.dumps(page))
    await rig.start()
    try:
        debate = await _run(rig)
        shown = fill_keys(_pages(rig, debate.id)["front-page"][1], EN)
        assert _moderators(shown) == page["markdown"]  # the words as the moderator wrote them
        assert EN("ledger.topic") not in shown
    finally:
        await rig.stop()
