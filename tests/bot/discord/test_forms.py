"""Every form the bot sends is read from its interaction: whenever and by whom it is sent."""

from __future__ import annotations

from typing import Any

import discord

from bot.discord.forms import ACTION_ROW, LABEL, TEXT_INPUT, form_modal, sent_form

SUBMIT = discord.InteractionType.modal_submit


def sent(custom_id: str, text: str, *, wrapped_in: int = ACTION_ROW) -> dict[str, Any]:
    """A MODAL_SUBMIT's data as Discord sends it (the field in an action row or a label)."""
    field = {"type": TEXT_INPUT, "custom_id": "text", "value": text}
    row = (
        {"type": ACTION_ROW, "components": [field]}
        if wrapped_in == ACTION_ROW
        else {"type": LABEL, "id": 1, "component": field}
    )
    return {"custom_id": custom_id, "components": [row]}


async def test_a_form_is_left_to_the_front_end_and_read_in_either_shape() -> None:
    form = form_modal((12, "ledger.stance", 3), "title", "label")  # under question 3
    assert form.is_finished()  # discord.py would not hold it
    for shape in (ACTION_ROW, LABEL):
        data = sent(form.custom_id, "첫 줄\n둘째 줄", wrapped_in=shape)
        assert sent_form(SUBMIT, data) == ((12, "ledger.stance", 3), "첫 줄\n둘째 줄")


async def test_two_openings_of_one_form_have_their_own_ids() -> None:
    first, second = (form_modal((7, "adversarial.evidence", 0), "t", "l") for _ in range(2))
    assert first.custom_id != second.custom_id


async def test_only_the_bots_own_forms_are_read() -> None:
    component = discord.InteractionType.component
    assert sent_form(component, {"custom_id": "debate:form.x:1:ab12"}) is None
    assert sent_form(SUBMIT, sent("someone-elses-form", "text")) is None
    assert sent_form(SUBMIT, sent("debate:form.x:1", "no nonce")) is None
    assert sent_form(SUBMIT, None) is None
    assert sent_form(SUBMIT, {"custom_id": "debate:form.x:1:ab12"}) == ((1, "x", 0), "")
    # a form opened before its question was named (no number): the card's
    assert sent_form(SUBMIT, sent("debate:form.x:1:123456", "t")) == ((1, "x", 0), "t")
    assert sent_form(SUBMIT, sent("debate:form.x:1:2:ab12", "t")) == ((1, "x", 2), "t")
