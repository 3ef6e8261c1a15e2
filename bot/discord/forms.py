"""A format's free-text card option as a Discord form: a persistent button that opens a modal
with one text field (`debate:form.<key>:<id>`); the text sent is read by the front end."""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping
from typing import Any

import discord

from bot.discord.clicks import DebateClick, front_of
from handlers.core.formats.base import FORM_LIMIT
from handlers.core.shorten import shorten

Button = discord.ui.Button[Any]
Modal = discord.ui.Modal
LABEL_LIMIT = 45  # Discord's limit for a modal's title and a text input's label
# A form's button, `debate:form.<key>:<id>[:<question>]`; each form it opens adds `:<nonce>`.
BUTTON_ID = r"debate:form\.(?P<key>[a-z_.]+):(?P<id>\d+)(?::(?P<question>\d+))?"
FORM_ID = re.compile(BUTTON_ID + r":[0-9a-f]+")


class FormButton(
    DebateClick,
    discord.ui.DynamicItem[Button],
    template=BUTTON_ID,
):
    """Opens the form of card option `key`: on the card, or under question number `question`."""

    def __init__(
        self, key: str, debate_id: int, label: str = "", row: int | None = None, question: int = 0
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=shorten(label or key, 80),
                style=discord.ButtonStyle.primary,
                custom_id=f"debate:form.{key}:{debate_id}" + (f":{question}" if question else ""),
                emoji="📎",
                row=row,
            )
        )
        self.key, self.debate_id, self.question = key, debate_id, question

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> FormButton:
        """Rebuild the button from its custom_id (after a restart, too)."""
        return cls(match["key"], int(match["id"]), question=int(match["question"] or 0))

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the click to the front end."""
        front = front_of(interaction)
        await front.on_form_button(interaction, self.debate_id, self.key, self.question)


TEXT_FIELD = "text"
ACTION_ROW, TEXT_INPUT, LABEL = 1, 4, 18  # Discord's component types in a submitted form


def form_modal(form: tuple[int, str, int], title: str, label: str, text: str = "") -> Modal:
    """One text field, left to the front end: discord.py holds no form (it is stopped before
    it is sent), so every form sent, whenever and by whom, is read from its interaction
    (`sent_form`). Each opening has its own custom_id."""
    debate_id, key, question = form
    modal = Modal(
        title=shorten(title, LABEL_LIMIT),
        timeout=None,
        custom_id=f"debate:form.{key}:{debate_id}:{question}:{secrets.token_hex(6)}",
    )
    field: discord.ui.TextInput[Modal] = discord.ui.TextInput(
        label=shorten(label, LABEL_LIMIT),
        style=discord.TextStyle.paragraph,
        custom_id=TEXT_FIELD,
        default=text[:FORM_LIMIT] or None,
        max_length=FORM_LIMIT,
        required=True,
    )
    modal.add_item(field)
    modal.stop()
    return modal


def sent_form(
    kind: discord.InteractionType, data: Mapping[str, Any] | None
) -> tuple[tuple[int, str, int], str] | None:
    """((debate id, key, question), text) of one of the bot's forms sent, or None."""
    if kind is not discord.InteractionType.modal_submit or data is None:
        return None
    found = FORM_ID.fullmatch(str(data.get("custom_id", "")))
    if found is None:
        return None
    form = (int(found["id"]), found["key"], int(found["question"] or 0))
    return form, submitted_text(data)


def submitted_text(data: Mapping[str, Any]) -> str:
    """The text field's value in a MODAL_SUBMIT's data (in an action row, or in a label)."""
    for row in data.get("components", []):
        inner = row.get("components", []) if row.get("type") == ACTION_ROW else []
        if row.get("type") == LABEL:
            inner = [row.get("component", {})]
        for item in inner:
            if item.get("type") == TEXT_INPUT and item.get("custom_id") == TEXT_FIELD:
                return str(item.get("value") or "")
    return ""
