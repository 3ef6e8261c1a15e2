"""What the Discord callbacks do: acknowledge, submit one event, render the result. Who may
click is checked once (`may_click`, from the controls' `interaction_check`), and what goes
wrong is answered once (`on_error`), privately."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.discord.clicks import CardChoice
from bot.discord.failures import failure_text
from bot.discord.forms import form_modal, sent_form
from bot.discord.layouts import card_layout
from bot.discord.render import CONTENT_LIMIT
from bot.discord.room.records import NO_PINGS
from bot.formatting import form_word
from handlers.core.admission import Admission, Submitted, acting, admits, authorized
from handlers.core.events import Event, OptionChosen, PeopleSaid, UserAnswered
from handlers.core.i18n import Strings
from handlers.core.model import Actor, ChatLine, Debate, PeopleLine, Phase
from handlers.core.shorten import shorten
from handlers.debate_handler import Engine
from handlers.detection import DetectionHandler
from handlers.ports import GatewayClaims, OneGateway
from tools.store.room_messages import RoomMessages

log = logging.getLogger(__name__)

ECHO_LIMIT = 600  # of a question or an answer echoed in a private reply (2000 in all)


class DiscordFront:
    """Turns clicks and messages into events for the engine; holds no debate state itself."""

    def __init__(
        self,
        engine: Engine,
        detection: DetectionHandler,
        messages: RoomMessages,
        strings: Strings,
        *,
        approver_role_id: int | None,
        debater_ids: frozenset[int] = frozenset(),
        claims: GatewayClaims | None = None,
    ) -> None:
        self._engine = engine
        self._claims = claims or OneGateway()  # which gateway process acts on an event
        self._debater_ids = debater_ids  # AG's accounts: their words are turns, not the people's
        self._detection = detection
        self._messages = messages
        self._strings = strings
        self._approver_role_id = approver_role_id

    def actor(self, user: discord.User | discord.Member) -> Actor:
        """The engine's view of a person: id, name, and whether they hold the approver role."""
        roles = {role.id for role in getattr(user, "roles", ())}
        approver = self._approver_role_id is not None and self._approver_role_id in roles
        return Actor(user_id=user.id, name=user.display_name, is_approver=approver)

    def _in(self, debate: Debate | None) -> Strings:
        """The words of a reply about `debate`: its language's (unknown at the gateway: ours)."""
        return self._strings.of(debate) if debate is not None else self._strings

    async def handles(self, interaction: discord.Interaction[Any]) -> bool:
        """True if this gateway process answers the interaction (each one receives it)."""
        return await self._claims.first(interaction.id)

    async def may_click(self, interaction: discord.Interaction[Any], debate_id: int) -> bool:
        """True for the debate's people and approvers; anyone else is told so, privately.
        False without a word when another gateway process answers the click."""
        if not await self.handles(interaction):
            return False
        debate = await self._engine.get(debate_id)
        if authorized(debate, self.actor(interaction.user)):
            return True
        await _private(interaction, self._strings.of(debate)("front.refused"))
        return False

    async def on_error(self, interaction: discord.Interaction[Any], error: Exception) -> None:
        """The controls' one error handler: a failed click's (or form's) short private reply."""
        await _private(interaction, failure_text(error, self._strings, "click"))

    async def submit(
        self, interaction: discord.Interaction[Any], debate_id: int, event: Event
    ) -> None:
        """Acknowledge, submit; an event the debate does not take now is answered privately."""
        await interaction.response.defer()
        await self._answered(interaction, await self._engine.submit(debate_id, event))

    async def _answered(self, interaction: discord.Interaction[Any], done: Submitted) -> bool:
        """Tell the person, privately, why an event was not taken; True if it was."""
        if done.taken:
            return True
        await _private(interaction, self._not_taken(done))
        return False

    def _not_taken(self, done: Submitted, question: int = 0) -> str:
        """Why an event was not taken; for an answer to `question`, who was first, what is open."""
        debate, strings = done.debate, self._in(done.debate)
        said = strings("front.refused" if done.admission is Admission.REFUSED else "front.not_now")
        first = done.first  # the gateway's: stored first, not applied yet
        if first is not None and not isinstance(first, UserAnswered):  # a pause's, the card's
            return strings("front.decided_already", user=(acting(first) or Actor(0)).name)
        if not question or debate is None or done.admission is Admission.REFUSED:
            return said
        if done.admission is Admission.ANSWERED:
            line = (
                PeopleLine(first.actor.name, first.answer)
                if first
                else debate.answers[question - 1]
            )
            answer = shorten(line.text, ECHO_LIMIT)
            said = strings("front.answered_already", number=question, user=line.who, answer=answer)
        if first is not None:  # what is open next is not known until it is applied
            return said
        asked = debate.people.user_question
        if asked is None or debate.phase is not Phase.AWAITING_USER:
            return f"{said}\n{strings('front.open_nothing')}"
        return f"{said}\n{strings('front.open_now', question=shorten(asked.text, ECHO_LIMIT))}"

    async def on_answer(
        self, interaction: discord.Interaction[Any], debate_id: int, question: int, option: int
    ) -> None:
        """An option of question number `question` (its text as the stored question has it)."""
        asked = (await self._engine.get(debate_id)).people.user_question
        options = asked.options if asked else ()
        answer = options[option] if option < len(options) else str(option)
        event = UserAnswered(self.actor(interaction.user), answer, question)
        await self._answer(interaction, debate_id, event)

    async def _answer(
        self, interaction: discord.Interaction[Any], debate_id: int, event: UserAnswered
    ) -> None:
        """Submit an answer and tell the person, privately, whether it was passed on."""
        done = await self._engine.submit(debate_id, event)
        # The answer may be the moderator's text (an option's label): it may hold @here.
        answer = shorten(event.answer, ECHO_LIMIT)
        taken = self._in(done.debate)("front.answer_taken", answer=answer)
        await _private(interaction, taken if done.taken else self._not_taken(done, event.question))

    async def on_card_choice(
        self, interaction: discord.Interaction[Any], debate_id: int, event: CardChoice
    ) -> Submitted:
        """A choice (or a form's text) on the card: stored, and the card shows it."""
        done = await self._engine.submit(debate_id, event)
        if not await self._answered(interaction, done):
            return done
        if done.debate is None:  # stored for the process that runs the debate
            await interaction.response.defer()
            return done
        strings = self._strings.of(done.debate)
        # A card posted as an embed (before the layouts) becomes a layout: its embed is cleared.
        layout = card_layout(done.debate, strings)
        await interaction.response.edit_message(embed=None, view=layout, allowed_mentions=NO_PINGS)
        now = await self._engine.get(debate_id)
        if now.phase is not Phase.PROPOSED:  # opened or put off meanwhile: the card says so
            closed = card_layout(now, strings, closed=True, decided_by=now.setup.approved_by)
            await interaction.edit_original_response(view=closed, allowed_mentions=NO_PINGS)
        return done

    async def on_form_button(
        self, interaction: discord.Interaction[Any], debate_id: int, key: str, question: int
    ) -> None:
        """Open the form if the debate would take its text now (on the card: with their text)."""
        debate = await self._engine.get(debate_id)
        actor, form = self.actor(interaction.user), (debate_id, key, question)
        admission = admits(debate, _form_event(actor, form, ""))
        if admission is not Admission.TAKEN:
            await _private(interaction, self._not_taken(Submitted(admission, debate), question))
            return
        current = "" if question else debate.added_by(key, actor.user_id)
        strings = self._strings.of(debate)
        title, label = (strings(form_word(strings, key, w)) for w in ("form_title", "form_label"))
        await interaction.response.send_modal(form_modal(form, title, label, current))

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """A form sent: checked and handled here (discord.py holds none, see forms.py)."""
        found = sent_form(interaction.type, interaction.data)
        if found is None:
            return
        form, text = found
        try:
            if not text:  # a required field: Discord sends none empty
                await _private(interaction, self._strings("front.not_now"))
            elif await self.may_click(interaction, form[0]):
                await self.on_form_submit(interaction, form, text)
        except Exception as exc:  # a boundary: the views' one error handler
            await self.on_error(interaction, exc)

    async def on_form_submit(
        self, interaction: discord.Interaction[Any], form: tuple[int, str, int], text: str
    ) -> None:
        """A form's text: kept on the card under the sender's name, or its question's answer."""
        debate_id, key, _ = form
        actor = self.actor(interaction.user)
        event = _form_event(actor, form, text)
        if isinstance(event, UserAnswered):
            await self._answer(interaction, debate_id, event)
            return
        done = await self.on_card_choice(interaction, debate_id, event)  # the card shows it
        if not done.taken:
            return
        added = done.debate.setup.added if done.debate else ()  # the gateway: applied later
        people = [a.who for a in added if a.key == key] or [actor.name]
        said = self._in(done.debate)
        kept = said(form_word(said, key, "form_kept"), count=len(text), people=", ".join(people))
        await _private(interaction, kept)

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
        guild_id = message.guild.id if message.guild is not None else 0  # its `/debate config`
        channel_id, bot = message.channel.id, message.author.bot
        proposal = await self._detection.on_message(channel_id, line, bot, guild_id)
        if proposal is not None:
            await self._engine.propose(proposal)

    async def _typed_answer(self, message: discord.Message) -> bool:
        """True in a debate's thread (never chat to detect): an answer, or words for the debate."""
        if not isinstance(message.channel, discord.Thread):
            return False
        debate_id = await self._messages.debate_in_thread(message.channel.id)
        if debate_id is None or message.author.bot or message.author.id in self._debater_ids:
            return debate_id is not None
        if not await self._claims.first(message.id):
            return True  # another gateway process passes these words on
        debate = await self._engine.get(debate_id)
        actor = self.actor(message.author)
        if debate.phase is Phase.AWAITING_USER:  # the person's answer, if they may give it
            done = await self._engine.submit(debate_id, UserAnswered(actor, message.content))
            if done.admission in (Admission.NOT_NOW, Admission.ANSWERED):  # kept as words said
                await self._engine.submit(debate_id, PeopleSaid(actor, message.content))
        elif debate.phase.is_running:
            await self._engine.submit(debate_id, PeopleSaid(actor, message.content))
        return True


def _form_event(actor: Actor, form: tuple[int, str, int], text: str) -> OptionChosen | UserAnswered:
    """What a form's text is: the card's option (question 0), or an answer to its question."""
    _, key, question = form
    return UserAnswered(actor, text, question) if question else OptionChosen(actor, key, text)


async def _private(interaction: discord.Interaction[Any], text: str, **extra: Any) -> None:
    """An ephemeral reply that pings nobody, before or after the interaction was answered
    (`extra`: a file, say), within Discord's limit whatever it says (a longer one is cut and
    says how much is left out, rather than refused by Discord and not said at all)."""
    text = shorten(text, CONTENT_LIMIT)
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_PINGS, **extra)
    else:
        await interaction.response.send_message(
            text, ephemeral=True, allowed_mentions=NO_PINGS, **extra
        )
