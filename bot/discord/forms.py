"""A format's free-text card option as a Discord form: a persistent button that opens a modal
with one text field (`debate:form.<key>:<id>`); the text is stored, not held here."""

from __future__ import annotations

import re
import secrets
from typing import Any, Protocol, cast

import discord

from handlers.formats.base import FORM_LIMIT
from handlers.shorten import shorten

Button = discord.ui.Button[Any]
LABEL_LIMIT = 45  # Discord's limit for a modal's title and a text input's label


class FormHandler(Protocol):
    """What the form's button and the submitted form hand to (the Discord front end)."""

    async def on_form_button(
        self, interaction: discord.Interaction[Any], debate_id: int, key: str
    ) -> None:
        """The button: open the form (or refuse)."""

    async def on_form_submit(
        self, interaction: discord.Interaction[Any], debate_id: int, key: str, text: str
    ) -> None:
        """The form sent: store or answer with its text."""


def _front(interaction: discord.Interaction[Any]) -> FormHandler:
    return cast("FormHandler", interaction.client.front)


class FormButton(
    discord.ui.DynamicItem[Button], template=r"debate:form\.(?P<key>[a-z_.]+):(?P<id>\d+)"
):
    """Opens the form of the card option `key` of debate `id`."""

    def __init__(self, key: str, debate_id: int, label: str = "", row: int | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=shorten(label or key, 80),
                style=discord.ButtonStyle.primary,
                custom_id=f"debate:form.{key}:{debate_id}",
                emoji="📎",
                row=row,
            )
        )
        self.key = key
        self.debate_id = debate_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> FormButton:
        """Rebuild the button from its custom_id (after a restart, too)."""
        return cls(match["key"], int(match["id"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the click to the front end."""
        await _front(interaction).on_form_button(interaction, self.debate_id, self.key)


FORM_TIMEOUT_S = 3600.0  # a form left open longer is forgotten (discord.py keeps it until then)


class OptionForm(discord.ui.Modal):
    """One text field. Each opening has its own custom_id: two people filling in the same
    debate's form at once are both heard (discord.py drops a form once it is sent). A form
    open across a restart is lost with the process; its button opens a new one."""

    def __init__(self, debate_id: int, key: str, title: str, label: str, text: str = "") -> None:
        super().__init__(
            title=shorten(title, LABEL_LIMIT),
            timeout=FORM_TIMEOUT_S,
            custom_id=f"debate:form.{key}:{debate_id}:{secrets.token_hex(6)}",
        )
        self.debate_id, self.key = debate_id, key
        self.text: discord.ui.TextInput[OptionForm] = discord.ui.TextInput(
            label=shorten(label, LABEL_LIMIT),
            style=discord.TextStyle.paragraph,
            custom_id="text",
            default=text[:FORM_LIMIT] or None,
            max_length=FORM_LIMIT,
            required=True,
        )
        self.add_item(self.text)

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the text to the front end (read before anything awaits: the form is shared)."""
        text = self.text.value
        await _front(interaction).on_form_submit(interaction, self.debate_id, self.key, text)
