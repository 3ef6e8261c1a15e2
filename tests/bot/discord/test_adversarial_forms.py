"""The people add evidence and constraints to an adversarial debate in a form (a Discord
modal), through the real discord.py client: on the card (stored, kept across a restart, read by
the intake audit) and under the CONTEXT-INSUFFICIENT question (the debate resumes with it)."""

from __future__ import annotations

import asyncio
import copy

from handlers.core.events import StopRequested
from handlers.core.model import Actor, Phase
from tests.bot.discord.conftest import KO, BotRig, People
from tests.bot.discord.support import EDIT, chat, click, custom_ids, wait_card
from tests.bot.discord.test_card_options import ids
from tests.fakes.discord_interactions import CB_MESSAGE, CB_MODAL, CB_UPDATE, FLAG_EPHEMERAL
from tests.fakes.discord_limits import as_embed, visible_text
from tests.fakes.discord_modals import text_inputs
from tests.fakes.discord_world import Json
from tests.handlers.adversarial_script import intake

EVIDENCE = "adversarial.evidence"
ON_CARD = "측정: 캐시 적중률 82%, p99 120 ms @everyone\nCONSTRAINTS: 월 예산 10만 원 이하"
CAROLS = "메모리 여유 2 GB, 운영 인력 1명"
IN_THREAD = "추가 근거: 장애 보고서 docs/incident-42.md, 복제 지연 4 s"
REQUEST = "Redis 도입을 판단할 측정값이 있습니까?"


async def open_form(rig: BotRig, message_id: str, custom_id: str, user: Json) -> Json:
    """`user` presses the form's button: the bot answers with a modal (type 9)."""
    record = await rig.fake.click(message_id, custom_id, user)
    assert await rig.fake.wait_ack(record) == CB_MODAL and record.modal is not None
    assert record.modal["title"] == KO("front.form_title")
    assert text_inputs(record.modal)[0]["label"] == KO("front.form_label")
    return {"record": record, "modal": record.modal}


async def send_form(rig: BotRig, opened: Json, user: Json, text: str) -> Json:
    """`user` types `text` in the opened form and sends it; the bot's private answer."""
    record = await rig.fake.submit_modal(opened["record"], user, {"text": text})
    if await rig.fake.wait_ack(record) == CB_UPDATE:  # on the card: it shows who added
        response = await rig.fake.wait_for_message(lambda m: m["id"] in record.followups)
    else:
        assert record.callback_type == CB_MESSAGE
        response = rig.fake.messages[record.response_message_id or ""]
    assert response["flags"] & FLAG_EPHEMERAL
    assert rig.fake.allowed_mentions[response["id"]] == {"parse": []}
    return response


async def refused(rig: BotRig, message_id: str, custom_id: str, user: Json) -> None:
    record = await rig.fake.click(message_id, custom_id, user)
    assert await rig.fake.wait_ack(record) == 4 and record.modal is None
    response = rig.fake.messages[record.response_message_id or ""]
    assert response["flags"] & FLAG_EPHEMERAL and response["content"] == KO("front.refused")


async def test_evidence_on_the_card_and_in_the_thread_reach_the_audit(
    rig: BotRig, people: People
) -> None:
    rig.overrides.update({"DEFAULT_FORMAT": "adversarial", "AG_QUIET_SECONDS": 0.5})
    rig.moderator.task_outputs["intake"] = [intake(0, request=REQUEST), intake(3)]
    audited = asyncio.Event()

    async def audit_asked() -> None:
        audited.set()

    await rig.start()
    await chat(rig, people)
    card, debate_id = await wait_card(rig)
    form = f"debate:form.{EVIDENCE}:{debate_id}"
    assert form in ids(card)  # the adversarial card's form, and no other format's menus
    assert not [i for i in ids(card) if i.startswith("debate:option.ledger")]

    # bob was not in the conversation: refused privately, no form
    await refused(rig, card["id"], form, people.bob)

    # alice adds evidence and constraints: kept, every character, under her name
    opened = await open_form(rig, card["id"], form, people.alice)
    assert not text_inputs(opened["modal"])[0].get("value")
    response = await send_form(rig, opened, people.alice, ON_CARD)
    assert response["content"] == KO("front.form_kept", count=len(ON_CARD), people="alice")
    assert (await rig.handler.get(debate_id)).added_text(EVIDENCE) == f"alice: {ON_CARD}"

    # restarted while the card waits: kept, and alice's form opens holding hers, carol's not
    await rig.restart()
    assert (await rig.handler.get(debate_id)).added_by(EVIDENCE, int(people.alice["id"])) == ON_CARD
    carols = await open_form(rig, card["id"], form, people.carol)
    assert not text_inputs(carols["modal"])[0].get("value")
    alices = await open_form(rig, card["id"], form, people.alice)
    assert text_inputs(alices["modal"])[0]["value"] == ON_CARD
    assert carols["modal"]["custom_id"] != alices["modal"]["custom_id"]
    # alice sends hers again first; carol's, sent later, is kept beside it
    await send_form(rig, alices, people.alice, ON_CARD)
    response = await send_form(rig, carols, people.carol, CAROLS)
    kept = KO("front.form_kept", count=len(CAROLS), people="alice, carol")
    assert response["content"] == kept
    both = f"alice: {ON_CARD}\n\ncarol: {CAROLS}"
    assert (await rig.handler.get(debate_id)).added_text(EVIDENCE) == both
    shown = as_embed(rig.fake.messages[card["id"]])["fields"]  # the card shows each
    assert {
        "name": KO("front.card_added"),
        "value": "\n".join(
            f"{who}: {KO('front.form_added', count=len(text))}"
            for who, text in (("alice", ON_CARD), ("carol", CAROLS))
        ),
        "inline": False,
    } in shown

    # opened: the intake audit reads it with the conversation; too thin, the people are asked
    await click(rig, card["id"], f"debate:open:{debate_id}", people.alice)
    answer = f"{form}:1"  # the form under question 1 names it
    asked = await rig.fake.wait_for_message(
        lambda m: m["channel_id"] == card["id"] and answer in ids(m), timeout=30
    )
    as_shown = copy.deepcopy(asked)  # as a client that misses the edit keeps showing it
    first = rig.moderator.task_requests[0]
    assert first.task == "intake" and both in first.prompt  # every sender's, by name
    debate = await rig.handler.get(debate_id)
    assert debate.phase is Phase.AWAITING_USER and not debate.floor.turns
    assert REQUEST in str(asked["embeds"])

    # under the question: bob is refused; alice's form answers it and the audit runs again
    await refused(rig, asked["id"], answer, people.bob)
    rig.moderator.task_hooks["intake"] = audit_asked
    opened = await open_form(rig, asked["id"], answer, people.alice)
    assert not text_inputs(opened["modal"])[0].get("value")
    response = await send_form(rig, opened, people.alice, IN_THREAD)
    assert response["content"] == KO("front.answer_taken", answer=IN_THREAD)
    await asyncio.wait_for(audited.wait(), 30)
    again = rig.moderator.task_requests[1]
    assert again.task == "intake" and IN_THREAD in again.prompt and ON_CARD in again.prompt
    await rig.fake.wait_for_message(
        lambda m: m["channel_id"] == card["id"] and IN_THREAD in visible_text(m), timeout=30
    )  # said in the thread, like a typed answer
    after = await rig.handler.get(debate_id)
    assert after.people.user_question is None and after.people.lines[-1].text == IN_THREAD

    # the question is answered: its form no longer opens (nor shows: the buttons went)
    await rig.fake.wait_for_call(
        "PATCH", EDIT, lambda c: c.path.endswith(asked["id"]) and custom_ids(c.json) == []
    )
    record = await rig.fake.click(asked["id"], answer, people.carol, shown=as_shown)
    assert await rig.fake.wait_ack(record) == 4 and record.modal is None
    told = rig.fake.messages[record.response_message_id or ""]["content"]
    assert told.startswith(KO("front.answered_already", number=1, user="alice", answer=IN_THREAD))
    await rig.handler.submit(
        debate_id, StopRequested(Actor(user_id=int(people.alice["id"]), name="alice"))
    )


async def test_a_form_sent_after_a_restart_is_read(rig: BotRig, people: People) -> None:
    """A form opened before a restart and sent after it is read from the interaction."""
    rig.overrides.update({"DEFAULT_FORMAT": "adversarial"})
    await rig.start()
    await chat(rig, people)
    card, debate_id = await wait_card(rig)
    form = f"debate:form.{EVIDENCE}:{debate_id}"

    # opened before a restart, sent after it
    alices = await open_form(rig, card["id"], form, people.alice)
    await rig.restart()
    response = await send_form(rig, alices, people.alice, ON_CARD)
    assert response["content"] == KO("front.form_kept", count=len(ON_CARD), people="alice")
    assert (await rig.handler.get(debate_id)).added_text(EVIDENCE) == f"alice: {ON_CARD}"

    await rig.handler.submit(
        debate_id, StopRequested(Actor(user_id=int(people.alice["id"]), name="alice"))
    )


async def test_asked_again_before_any_turn_the_second_question_is_posted_too(
    rig: BotRig, people: People
) -> None:
    """The intake audit finds the first answer too thin and asks again, with no turn between:
    the second question gets its own message and buttons, naming question 2."""
    rig.overrides.update({"DEFAULT_FORMAT": "adversarial"})
    again = "복제 지연은 몇 초입니까?"
    rig.moderator.task_outputs["intake"] = [
        intake(0, request=REQUEST),
        intake(0, request=again),
        intake(3),
    ]
    await rig.start()
    await chat(rig, people)
    card, debate_id = await wait_card(rig)
    await click(rig, card["id"], f"debate:open:{debate_id}", people.alice)
    form = f"debate:form.{EVIDENCE}:{debate_id}"
    first = await rig.fake.wait_for_message(
        lambda m: m["channel_id"] == card["id"] and f"{form}:1" in ids(m), timeout=30
    )
    assert REQUEST in str(first["embeds"])
    await rig.fake.user_message(people.alice, IN_THREAD, channel_id=card["id"])
    second = await rig.fake.wait_for_message(
        lambda m: m["channel_id"] == card["id"] and f"{form}:2" in ids(m), timeout=30
    )
    assert again in str(second["embeds"]) and second["id"] != first["id"]
    await rig.handler.submit(
        debate_id, StopRequested(Actor(user_id=int(people.alice["id"]), name="alice"))
    )
