"""Debate turns as Discord embeds: colour-coded, complete, within Discord's limits; and nonces.

Pure functions: they build `discord.Embed`s and never send anything. A DiscordRoom sends each
inner list of `turn_messages` as one message, with `discord.AllowedMentions.none()`.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

import discord

from bot.discord.render_split import FenceSplitter
from bot.formatting import author_line, footer_text, question_label, seat_colour
from handlers.core.i18n import Strings
from handlers.core.model import Debate, Turn

CONTENT_LIMIT = 2000  # characters of a message's text
DESCRIPTION_LIMIT = 4096
EMBEDS_PER_MESSAGE = 10
MESSAGE_EMBED_TOTAL = 6000  # characters across every embed of one message
_MIN_ROOM = 512  # less room than this left in a message: start the next one


def nonce_of(*parts: object) -> str:
    """A deterministic nonce (25 characters at most), so Discord drops a re-sent message."""
    return hashlib.sha256(":".join(map(str, parts)).encode()).hexdigest()[:25]


@dataclass
class _Spec:
    """One embed before it becomes a discord.Embed."""

    description: str | None
    author: str | None = None
    title: str | None = None
    footer: str | None = None

    def size(self) -> int:
        """What the embed counts towards the 6000 characters of its message."""
        parts = (self.description, self.author, self.title, self.footer)
        return sum(len(part) for part in parts if part)


@dataclass
class _Packer:
    """Fills messages with embeds: at most 10 each, 6000 characters each, footer on the last."""

    colour: discord.Colour
    footer: str | None = None
    messages: list[list[_Spec]] = field(default_factory=list)

    def add(self, text: str, *, author: str | None = None, title: str | None = None) -> None:
        """Append `text` in full, starting a new embed with `author` and `title` on it."""
        header = len(author or "") + len(title or "")
        if not text:
            self._place(header).append(_Spec(None, author=author, title=title))
            return
        splitter = FenceSplitter(text)
        while not splitter.done:
            embeds = self._place(header)
            room = MESSAGE_EMBED_TOTAL - self._reserve() - sum(s.size() for s in embeds) - header
            piece = splitter.take(min(DESCRIPTION_LIMIT, room))
            embeds.append(_Spec(piece, author=author, title=title))
            author = title = None
            header = 0

    def build(self) -> list[list[discord.Embed]]:
        """The embeds, one inner list per message."""
        if not self.messages:
            self.messages.append([_Spec(None)])
        self.messages[-1][-1].footer = self.footer
        return [[self._embed(spec) for spec in message] for message in self.messages]

    def _reserve(self) -> int:
        # Every message keeps room for the footer: which one is last is known only at the end.
        return len(self.footer or "")

    def _place(self, header: int) -> list[_Spec]:
        """The message the next embed goes into, opening a new one when this one is full."""
        if self.messages:
            current = self.messages[-1]
            used = sum(spec.size() for spec in current) + self._reserve() + header
            if len(current) < EMBEDS_PER_MESSAGE and MESSAGE_EMBED_TOTAL - used >= _MIN_ROOM:
                return current
        self.messages.append([])
        return self.messages[-1]

    def _embed(self, spec: _Spec) -> discord.Embed:
        embed = discord.Embed(colour=self.colour, description=spec.description, title=spec.title)
        if spec.author:
            embed.set_author(name=spec.author)
        if spec.footer:
            embed.set_footer(text=spec.footer)
        return embed


def text_messages(text: str, *, colour: discord.Colour) -> list[list[discord.Embed]]:
    """Any text in full as embeds grouped per message (a question too long for one embed)."""
    packer = _Packer(colour)
    packer.add(text)
    return packer.build()


def turn_messages(
    turn: Turn, strings: Strings, debate: Debate | None = None
) -> list[list[discord.Embed]]:
    """A debater's turn as embeds, one inner list per message, nothing of the opinion cut."""
    packer = _Packer(discord.Colour(seat_colour(turn.seat, debate)), footer_text(turn, strings))
    # The opinion is the whole reply when no block was found, in characters Discord carries.
    packer.add(turn.parsed.opinion, author=author_line(turn, strings, debate))
    if turn.parsed.extra:
        packer.add(turn.parsed.extra, title=strings("discord.other_fields"))
    question = turn.parsed.question
    if turn.parsed.structured and question is not None:
        packer.add(question.text, title=question_label(turn, strings, debate))
    return packer.build()
