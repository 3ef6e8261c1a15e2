"""The boardroom's squad per debate on the card, through the real discord.py client and the
fake Discord (seed 000: a squad suggested by the kind of decision, at most five, the project
context, active spec and guardrails loaded): the card shows the moderator's squad with its
reason and offers the members in a menu of at most five; an outsider is refused privately; a
person of the conversation changes it; the forms and the settings' files give the grounding;
opened, only the chosen squad is asked, each brief carrying the grounding."""

from __future__ import annotations

import asyncio
from pathlib import Path

from handlers.core.events import OptionChosen, StopRequested
from handlers.core.model import Actor
from tests.bot.discord.conftest import KO, BotRig, People
from tests.bot.discord.support import THREADS, chat, click, wait_card
from tests.bot.discord.test_adversarial_forms import refused
from tests.bot.discord.test_card_options import ids
from tests.bot.discord.test_format_choice import menu, picked
from tests.fakes.discord_interactions import FLAG_EPHEMERAL
from tests.fakes.discord_limits import as_embed
from tests.fakes.discord_modals import text_inputs
from tests.fakes.discord_world import Json

POOL = (
    "ag:ag-relay:AG:architect,claude:claude-cli:Claude:security reviewer,"
    "claude-2:claude-cli:Claude 2:product owner,claude-3:claude-cli:Claude 3:operator,"
    "claude-4:claude-cli:Claude 4:finance,claude-5:claude-cli:Claude 5:legal counsel"
)
SUGGESTED = ("ag", "claude", "claude-3")
WHY = "캐시 계층은 설계, 보안, 운영이 함께 봐야 하는 결정입니다"
PROJECT = "결제 서비스: 초당 2천 건, 멀티 리전 @everyone"
GUARDRAILS = "- 개인정보는 리전 밖으로 나가지 않는다\n- p99 200 ms 이하"


def participants(card: Json) -> str:
    """The card's participants field: the squad, who is left out, the suggestion and why."""
    fields = as_embed(card)["fields"]
    return next(f["value"] for f in fields if f["name"] == KO("front.card_participants"))


async def choose(rig: BotRig, card: Json, custom_id: str, user: Json, values: list[str]) -> Json:
    """`user` picks `values` in the menu; the bot's answer (type 7 edits the card)."""
    record = await rig.fake.click(card["id"], custom_id, user, values)
    kind = await rig.fake.wait_ack(record)
    return {"kind": kind, **rig.fake.messages.get(record.response_message_id or "", {})}


async def test_the_squad_is_suggested_changed_and_grounded_on_the_card(
    rig: BotRig, people: People, tmp_path: Path
) -> None:
    guardrails = tmp_path / "guardrails.md"
    guardrails.write_text(GUARDRAILS, encoding="utf-8")
    rig.overrides.update(
        DEFAULT_FORMAT="boardroom", PARTICIPANTS=POOL, BOARDROOM_GUARDRAILS_FILE=guardrails
    )
    rig.moderator.squad = (SUGGESTED, "architecture", WHY)
    briefed = asyncio.Event()

    async def answer() -> str:
        if len(rig.claude.requests) >= 2:
            briefed.set()
        await asyncio.Event().wait()  # the test stops the debate
        return ""

    rig.claude.enqueue(answer, answer)
    await rig.start()
    await chat(rig, people)
    card, debate_id = await wait_card(rig)

    # The moderator's squad for an architecture decision, with its reason and who sits out.
    shown = participants(card)
    assert "AG (architect) · Claude (security reviewer) · Claude 3 (operator)" in shown
    assert f"{KO('boardroom.squad_left')} Claude 2, Claude 4, Claude 5" in shown
    reason = f"{KO('boardroom.kind_architecture')} — {WHY}"
    assert f"🧭 {KO('boardroom.squad_suggested')} {reason}" in shown
    squad = f"debate:option.boardroom.squad:{debate_id}"
    offered = menu(card, squad)
    assert picked(card, squad) == list(SUGGESTED)
    assert (offered["min_values"], offered["max_values"]) == (2, 5)  # six members, five at most
    assert len(offered["options"]) == 6

    # bob was not in the conversation: refused privately, nothing changes
    refusal = await choose(rig, card, squad, people.bob, ["claude-2", "claude-4"])
    assert refusal["kind"] == 4 and refusal["flags"] & FLAG_EPHEMERAL
    assert refusal["content"] == KO("front.refused")
    assert (await rig.handler.get(debate_id)).option("boardroom.squad") == ""

    # carol seats the product owner and the operator; the card shows it and the suggestion
    assert (await choose(rig, card, squad, people.carol, ["claude-2", "claude-3"]))["kind"] == 7
    now = rig.fake.messages[card["id"]]
    assert picked(now, squad) == ["claude-2", "claude-3"]
    changed = participants(now)
    assert changed.startswith("Claude 2 (product owner) · Claude 3 (operator)")
    assert f"{KO('boardroom.squad_changed')} AG, Claude, Claude 3" in changed
    assert f"🧭 {KO('boardroom.squad_suggested')} {reason}" in changed

    # six members are more than a panel seats, whoever sends them (a forged interaction)
    alice = Actor(user_id=int(people.alice["id"]), name="alice")
    six = OptionChosen(alice, "boardroom.squad", "ag,claude,claude-2,claude-3,claude-4,claude-5")
    assert not (await rig.handler.submit(debate_id, six)).taken

    # alice gives the project context in its form (the guardrails come from the settings' file)
    project = f"debate:form.boardroom.project:{debate_id}"
    assert project in ids(now) and f"debate:form.boardroom.spec:{debate_id}" in ids(now)
    await refused(rig, card["id"], project, people.bob)
    record = await rig.fake.click(card["id"], project, people.alice)
    await rig.fake.wait_ack(record)
    assert record.modal is not None
    assert record.modal["title"] == KO("front.form_title_boardroom_project")
    assert text_inputs(record.modal)[0]["label"] == KO("front.form_label_boardroom_project")
    sent = await rig.fake.submit_modal(record, people.alice, {"text": PROJECT})
    await rig.fake.wait_ack(sent)
    kept = await rig.fake.wait_for_message(lambda m: m["id"] in sent.followups)
    assert kept["content"] == KO("front.form_kept_boardroom", count=len(PROJECT), people="alice")

    # opened: only carol's squad is asked, and each brief carries the grounding
    await click(rig, card["id"], f"debate:open:{debate_id}", people.alice)
    await rig.fake.wait_for_call("POST", THREADS)
    await asyncio.wait_for(briefed.wait(), 30)
    asked = {r.participant: r.prompt for r in rig.claude.requests}
    assert set(asked) == {"claude-2", "claude-3"}
    for prompt in asked.values():
        assert f"alice: {PROJECT}" in prompt and GUARDRAILS in prompt
    debate = await rig.handler.get(debate_id)
    assert debate.ids == ("claude-2", "claude-3")
    assert rig.services is not None and rig.services.wiki is not None
    await asyncio.wait_for(rig.services.wiki.drained(debate_id), 30)  # the Agenda landed
    (agenda,) = (rig.tmp / "wiki").rglob("agenda.md")  # it names only who sits
    written = agenda.read_text(encoding="utf-8")
    assert "Claude 2" in written and "Claude 3" in written and "Claude 4" not in written
    await rig.handler.submit(debate_id, StopRequested(alice))


async def test_two_members_both_sit_and_the_card_offers_no_pick(
    rig: BotRig, people: People
) -> None:
    rig.overrides.update(DEFAULT_FORMAT="boardroom")  # AG and Claude: nothing to choose
    await rig.start()
    await chat(rig, people)
    card, debate_id = await wait_card(rig)
    assert f"debate:option.boardroom.squad:{debate_id}" not in ids(card)
    assert f"debate:form.boardroom.guardrails:{debate_id}" in ids(card)  # the forms stay
    shown = participants(card)
    assert shown.startswith("AG · Claude\n🧭 ")  # nobody left out
    assert KO("boardroom.squad_all") in shown and KO("boardroom.squad_left") not in shown
