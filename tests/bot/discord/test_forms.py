"""Which sent forms the front end reads itself: those discord.py no longer holds."""

from __future__ import annotations

from typing import Any

import discord

from bot.discord.forms import ACTION_ROW, LABEL, TEXT_INPUT, OpenForms, OptionForm

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


async def test_an_open_form_is_left_to_discord_py_until_it_times_out() -> None:
    forms = OpenForms()
    form = OptionForm((7, "adversarial.evidence", 0), "title", "label", forget=forms.forget)
    forms.open(form)
    assert forms.orphan(SUBMIT, sent(form.custom_id, "E1 | p99 120 ms")) is None
    await form.on_timeout()  # discord.py lets go of it
    found = forms.orphan(SUBMIT, sent(form.custom_id, "E1 | p99 120 ms"))
    assert found == ((7, "adversarial.evidence", 0), "E1 | p99 120 ms")


async def test_a_form_from_before_a_restart_is_read_in_either_shape() -> None:
    before = OptionForm((12, "ledger.stance", 3), "title", "label")  # under question 3
    after_restart = OpenForms()
    for shape in (ACTION_ROW, LABEL):
        data = sent(before.custom_id, "첫 줄\n둘째 줄", wrapped_in=shape)
        assert after_restart.orphan(SUBMIT, data) == ((12, "ledger.stance", 3), "첫 줄\n둘째 줄")


async def test_only_the_bots_own_forms_are_read() -> None:
    forms = OpenForms()
    component = discord.InteractionType.component
    assert forms.orphan(component, {"custom_id": "debate:form.x:1:ab12"}) is None
    assert forms.orphan(SUBMIT, sent("someone-elses-form", "text")) is None
    assert forms.orphan(SUBMIT, sent("debate:form.x:1", "no nonce")) is None
    assert forms.orphan(SUBMIT, None) is None
    assert forms.orphan(SUBMIT, {"custom_id": "debate:form.x:1:ab12"}) == ((1, "x", 0), "")
    # a form opened before its question was named (no number): the card's
    assert forms.orphan(SUBMIT, sent("debate:form.x:1:123456", "t")) == ((1, "x", 0), "t")
    assert forms.orphan(SUBMIT, sent("debate:form.x:1:2:ab12", "t")) == ((1, "x", 2), "t")


async def test_forms_sent_long_ago_are_not_kept_for_ever() -> None:
    now = [0.0]
    forms = OpenForms(clock=lambda: now[0])
    old = forms.open(OptionForm((1, "x", 0), "title", "label"))
    now[0] = 3 * 3600.0
    forms.open(OptionForm((2, "x", 0), "title", "label"))
    assert forms.orphan(SUBMIT, sent(old.custom_id, "late")) == ((1, "x", 0), "late")
