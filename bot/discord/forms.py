"""A format's free-text card option as a Discord form: a persistent button that opens a modal
with one text field (`debate:form.<key>:<id>`); the text is stored, not held here."""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Callable, Mapping
from typing import Any, Protocol, cast

import discord

from bot.discord.clicks import ClickFront, DebateClick, front_of
from handlers.core.formats.base import FORM_LIMIT
from handlers.core.shorten import shorten

Button = discord.ui.Button[Any]
LABEL_LIMIT = 45  # Discord's limit for a modal's title and a text input's label


class FormHandler(ClickFront, Protocol):
    """What the form's button and the submitted form hand to (the Discord front end)."""

    async def on_form_button(
        self, interaction: discord.Interaction[Any], debate_id: int, key: str, question: int
    ) -> None:
        """The button: open the form (or refuse)."""

    async def on_form_submit(
        self, interaction: discord.Interaction[Any], form: tuple[int, str, int], text: str
    ) -> None:
        """The form (debate id, key, question) sent: store or answer with its text."""


def _front(interaction: discord.Interaction[Any]) -> FormHandler:
    return cast("FormHandler", front_of(interaction))


class FormButton(
    DebateClick,
    discord.ui.DynamicItem[Button],
    template=r"debate:form\.(?P<key>[a-z_.]+):(?P<id>\d+)(?::(?P<question>\d+))?",
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
        front = _front(interaction)
        await front.on_form_button(interaction, self.debate_id, self.key, self.question)


FORM_TIMEOUT_S = 3600.0  # a form left open longer is forgotten (discord.py keeps it until then)
FORM_ID = re.compile(r"debate:form\.(?P<key>[a-z_.]+):(?P<id>\d+)(?::(?P<question>\d+))?:[0-9a-f]+")
TEXT_FIELD = "text"
ACTION_ROW, TEXT_INPUT, LABEL = 1, 4, 18  # Discord's component types in a submitted form


class OptionForm(discord.ui.Modal):
    """One text field. Each opening has its own custom_id: two people filling in the same
    debate's form at once are both heard (discord.py drops a form once it is sent). A form
    sent after discord.py forgot it (a restart, or an hour open) is read by `OpenForms`."""

    def __init__(
        self,
        form: tuple[int, str, int],
        title: str,
        label: str,
        text: str = "",
        *,
        forget: Callable[[str], None] = lambda _custom_id: None,
    ) -> None:
        debate_id, key, question = form
        super().__init__(
            title=shorten(title, LABEL_LIMIT),
            timeout=FORM_TIMEOUT_S,
            custom_id=f"debate:form.{key}:{debate_id}:{question}:{secrets.token_hex(6)}",
        )
        self.form = form  # (debate id, option key, the question it answers: 0 on the card)
        self.debate_id = debate_id
        self._forget = forget
        self.text: discord.ui.TextInput[OptionForm] = discord.ui.TextInput(
            label=shorten(label, LABEL_LIMIT),
            style=discord.TextStyle.paragraph,
            custom_id=TEXT_FIELD,
            default=text[:FORM_LIMIT] or None,
            max_length=FORM_LIMIT,
            required=True,
        )
        self.add_item(self.text)

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """The one check of who may act, as on the buttons."""
        return await _front(interaction).may_click(interaction, self.debate_id)

    async def on_error(  # type: ignore[override]  # discord.py's Modal drops BaseView's `item`
        self, interaction: discord.Interaction[Any], error: Exception, /
    ) -> None:
        """The front end's one error handler answers."""
        await _front(interaction).on_error(interaction, error)

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the text to the front end (read before anything awaits: the form is shared)."""
        text = self.text.value
        await _front(interaction).on_form_submit(interaction, self.form, text)

    async def on_timeout(self) -> None:
        """discord.py lets go of the form: a late send is read from the interaction."""
        self._forget(self.custom_id)


class OpenForms:
    """The forms this process opened and discord.py still holds. A form sent that is not one
    of them (opened before a restart, or open longer than FORM_TIMEOUT_S) reaches no
    OptionForm; `orphan` reads its text from the interaction so that nothing typed is lost."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._opened: dict[str, float] = {}
        self._clock = clock

    def open(self, form: OptionForm) -> OptionForm:
        """Note the form as open (it is about to be sent); forget long-gone ones."""
        now = self._clock()
        # A form sent is stopped without a timeout: its id would stay. Long after the
        # timeout discord.py holds none of these, so they go.
        for custom_id, opened in list(self._opened.items()):
            if now - opened > 2 * FORM_TIMEOUT_S:
                del self._opened[custom_id]
        self._opened[form.custom_id] = now
        return form

    def forget(self, custom_id: str) -> None:
        """discord.py timed the form out."""
        self._opened.pop(custom_id, None)

    def orphan(
        self, kind: discord.InteractionType, data: Mapping[str, Any] | None
    ) -> tuple[tuple[int, str, int], str] | None:
        """((debate id, key, question), text) of a sent form no OptionForm will read, or None."""
        if kind is not discord.InteractionType.modal_submit or data is None:
            return None
        found = FORM_ID.fullmatch(str(data.get("custom_id", "")))
        if found is None or found.group(0) in self._opened:
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
