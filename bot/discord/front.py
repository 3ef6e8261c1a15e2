"""What the Discord callbacks do: acknowledge, call one engine method, render the result."""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Concatenate, ParamSpec

import discord

from bot.discord.embeds import card_embed
from bot.discord.forms import OpenForms, OptionForm
from bot.discord.room_records import NO_PINGS
from bot.discord.views import card_view
from bot.inbox_commands import EngineCommands
from handlers.core.i18n import Strings
from handlers.core.model import Actor, ChatLine, Debate, Phase
from handlers.detection import DetectionHandler
from handlers.store_ports import StoreUnavailable
from tools.store.db import Database
from tools.store.debates import DebateNotFound
from tools.store.room_messages import RoomMessages

log = logging.getLogger(__name__)

P = ParamSpec("P")
Callback = Callable[Concatenate["DiscordFront", discord.Interaction[Any], P], Awaitable[None]]


def _outage_answered(callback: Callback[P]) -> Callback[P]:
    """A click while the database is out of reach is answered, privately, with why and to try
    again shortly (instead of Discord's bare "interaction failed")."""

    @functools.wraps(callback)
    async def answered(
        front: DiscordFront, interaction: discord.Interaction[Any], /, *args: P.args, **kw: P.kwargs
    ) -> None:
        try:
            await callback(front, interaction, *args, **kw)
        except StoreUnavailable as exc:
            log.warning("a click could not be handled: %s", exc)
            await _private(interaction, front._strings("front.store_unavailable"))

    return answered


class DiscordFront:
    """Turns clicks and messages into engine calls; holds no debate state itself."""

    def __init__(
        self,
        handler: EngineCommands,
        detection: DetectionHandler,
        db: Database,
        strings: Strings,
        *,
        approver_role_id: int | None,
        debater_ids: frozenset[int] = frozenset(),
    ) -> None:
        self._handler = handler
        self._debater_ids = debater_ids  # AG's accounts: their words are turns, not the people's
        self._detection = detection
        self._messages = RoomMessages(db)
        self._strings = strings
        self._approver_role_id = approver_role_id
        self._forms = OpenForms()

    def actor(self, user: discord.User | discord.Member) -> Actor:
        """The engine's view of a person: id, name, and whether they hold the approver role."""
        roles = {role.id for role in getattr(user, "roles", ())}
        approver = self._approver_role_id is not None and self._approver_role_id in roles
        return Actor(user_id=user.id, name=user.display_name, is_approver=approver)

    @_outage_answered
    async def on_button(
        self, interaction: discord.Interaction[Any], action: str, debate_id: int
    ) -> None:
        """Open / Not now / Stop: refused (ephemeral) unless the person may act."""
        actor = self.actor(interaction.user)
        try:
            allowed = await self._handler.may_act(debate_id, actor)
        except DebateNotFound:
            await _private(interaction, self._strings("front.not_now"))
            return
        if not allowed:
            await _private(interaction, self._strings("front.refused"))
            return
        await interaction.response.defer()
        command = {
            "open": self._handler.approve,
            "decline": self._handler.decline,
            "stop": self._handler.stop,
        }[action]
        before = await self._handler.get(debate_id)
        after = await command(debate_id, actor)
        if after == before:
            await _private(interaction, self._strings("front.not_now"))

    @_outage_answered
    async def on_budget_button(
        self, interaction: discord.Interaction[Any], action: str, debate_id: int, at: int
    ) -> None:
        """Extend / Conclude at the pause of budget `at`; refused (ephemeral) unless the person
        may act; a button of another pause, or one pressed twice, changes nothing."""
        actor = self.actor(interaction.user)
        if not await self._handler.may_act(debate_id, actor):
            await _private(interaction, self._strings("front.refused"))
            return
        await interaction.response.defer()
        before = await self._handler.get(debate_id)
        decide = {
            "extend": self._handler.extend,
            "conclude": self._handler.conclude_now,
            "consensus": self._handler.declare_consensus,
        }[action]
        if await decide(debate_id, actor, at) == before:
            await _private(interaction, self._strings("front.not_now"))

    @_outage_answered
    async def on_answer_button(
        self, interaction: discord.Interaction[Any], debate_id: int, option: int
    ) -> None:
        """One of the moderator's answer options."""
        actor = self.actor(interaction.user)
        if not await self._handler.may_act(debate_id, actor):
            await _private(interaction, self._strings("front.refused"))
            return
        debate = await self._handler.get(debate_id)
        question = debate.user_question
        if debate.phase is not Phase.AWAITING_USER or question is None:
            await _private(interaction, self._strings("front.not_now"))
            return
        answer = question.options[option] if option < len(question.options) else str(option)
        # The option's label is the moderator's text: it may hold @here.
        await _private(interaction, self._strings("front.answer_taken", answer=answer))
        await self._handler.answer(debate_id, actor, answer)

    @_outage_answered
    async def on_card_select(
        self, interaction: discord.Interaction[Any], what: str, debate_id: int, value: str
    ) -> None:
        """A format, a budget or a format's setup answer picked on the card: stored, and the
        card shows it (refused, ephemeral, unless the person may act; a card no longer waiting
        changes nothing)."""
        actor = self.actor(interaction.user)
        try:
            allowed = await self._handler.may_act(debate_id, actor)
        except DebateNotFound:
            await _private(interaction, self._strings("front.not_now"))
            return
        if not allowed:
            await _private(interaction, self._strings("front.refused"))
            return
        if what == "format":
            after = await self._handler.choose_format(debate_id, actor, value)
            taken = after.format == value
        elif what.startswith("option."):
            key = what.removeprefix("option.")
            after = await self._handler.choose_option(debate_id, actor, key, value)
            taken = after.option(key) == value
        else:
            rounds = int(value) if value.isdigit() else 0
            after = await self._handler.choose_budget(debate_id, actor, rounds)
            taken = after.max_rounds == rounds
        if after.phase is not Phase.PROPOSED or not taken:
            await _private(interaction, self._strings("front.not_now"))
            return
        embed = card_embed(after, self._strings)
        view = card_view(after, self._strings)
        await interaction.response.edit_message(embed=embed, view=view, allowed_mentions=NO_PINGS)
        now = await self._handler.get(debate_id)
        if now.phase is not Phase.PROPOSED:  # opened or put off meanwhile: the card says so
            closed = card_embed(now, self._strings, closed=True, decided_by=now.approved_by)
            await interaction.edit_original_response(
                embed=closed, view=None, allowed_mentions=NO_PINGS
            )

    @_outage_answered
    async def on_form_button(
        self, interaction: discord.Interaction[Any], debate_id: int, key: str
    ) -> None:
        """A form's button, on the card or under the moderator's question: the form opens,
        holding what was added before (refused, ephemeral, unless the person may act)."""
        debate = await self._allowed(interaction, debate_id)
        if debate is None:
            return
        asked = debate.user_question
        on_card = debate.phase is Phase.PROPOSED
        if not on_card and (
            debate.phase is not Phase.AWAITING_USER or not asked or asked.form != key
        ):
            await _private(interaction, self._strings("front.not_now"))
            return
        current = debate.option(key) if on_card else ""
        title, label = self._strings("front.form_title"), self._strings("front.form_label")
        form = OptionForm(debate_id, key, title, label, current, forget=self._forms.forget)
        await interaction.response.send_modal(self._forms.open(form))

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """A form sent that discord.py no longer holds (opened before a restart, or open
        over an hour) is read here, so what the person typed is not lost."""
        found = self._forms.orphan(interaction.type, interaction.data)
        if found is None:
            return
        debate_id, key, text = found
        if not text:  # a required field: Discord sends none empty
            await _private(interaction, self._strings("front.not_now"))
            return
        await self.on_form_submit(interaction, debate_id, key, text)

    @_outage_answered
    async def on_form_submit(
        self, interaction: discord.Interaction[Any], debate_id: int, key: str, text: str
    ) -> None:
        """The form sent: on a waiting card its text is stored as the option; under the
        moderator's question it is the people's answer, said in the thread like a typed one."""
        debate = await self._allowed(interaction, debate_id)
        if debate is None:
            return
        actor = self.actor(interaction.user)
        if debate.phase is Phase.PROPOSED:
            after = await self._handler.choose_option(debate_id, actor, key, text)
            taken = after.option(key) == text
        elif debate.phase is Phase.AWAITING_USER and debate.user_question is not None:
            after = await self._handler.answer(debate_id, actor, text)
            taken = after.people != debate.people
        else:
            taken = False
        kept = self._strings("front.form_kept", count=len(text))
        await _private(interaction, kept if taken else self._strings("front.not_now"))

    async def _allowed(
        self, interaction: discord.Interaction[Any], debate_id: int
    ) -> Debate | None:
        """The debate, if the person may act on it; else an ephemeral refusal and None."""
        try:
            allowed = await self._handler.may_act(debate_id, self.actor(interaction.user))
        except DebateNotFound:
            await _private(interaction, self._strings("front.not_now"))
            return None
        if not allowed:
            await _private(interaction, self._strings("front.refused"))
            return None
        return await self._handler.get(debate_id)

    async def on_message(self, message: discord.Message, own_id: int) -> None:
        """Chat in a watched channel feeds detection; a typed answer in a thread counts."""
        if message.author.id == own_id or not message.content:
            return
        if await self._typed_answer(message):
            return
        line = ChatLine(
            author_id=message.author.id,
            author_name=message.author.display_name,
            content=message.content,
            at=message.created_at,
            message_id=message.id,
        )
        proposal = await self._detection.on_message(message.channel.id, line, message.author.bot)
        if proposal is not None:
            await self._handler.propose(proposal)

    async def _typed_answer(self, message: discord.Message) -> bool:
        """True if the message was in a debate's thread (where it is never chat to detect):
        the answer to an open question, or words the engine hands to the moderator's next
        judgement and the next debaters."""
        if not isinstance(message.channel, discord.Thread):
            return False
        debate_id = await self._messages.debate_in_thread(message.channel.id)
        if debate_id is None or message.author.bot or message.author.id in self._debater_ids:
            return debate_id is not None
        debate = await self._handler.get(debate_id)
        actor = self.actor(message.author)
        if debate.phase is Phase.AWAITING_USER:
            if await self._handler.may_act(debate_id, actor):
                await self._handler.answer(debate_id, actor, message.content)
        elif debate.phase.is_running:
            await self._handler.said(debate_id, actor, message.content)
        return True


async def _private(interaction: discord.Interaction[Any], text: str) -> None:
    """An ephemeral reply that pings nobody, before or after the interaction was answered."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_PINGS)
    else:
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_PINGS)
