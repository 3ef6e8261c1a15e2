"""Test parts for the Discord bot: AG played by a client (the moderator and clock: tests.doubles).

The Claude seat is tests.handlers.doubles.FakeDebater (scripted replies); the real CLI is
tested in tests/tools/claude. AG is the real AgRelayDebater, answered by `AgPlayer`: a second real
discord.py client logged in as the AG account, replying to each tagged prompt in the thread.
"""

from __future__ import annotations

import asyncio
import json
import re

import discord

from handlers.core.model import (
    Action,
    Decision,
    UserQuestion,
)
from tests.fakes.discord_fixtures import ListeningClient

TAG = re.compile(r"\[debate (\d+) · turn (\d+)\]")


def block(opinion: str, stance: str = "partial") -> str:
    """A reply in the debaters' contract: prose, then a fenced JSON block."""
    body = json.dumps({"opinion": opinion, "stance": stance}, ensure_ascii=False)
    return f"Intro.\n\n```json\n{body}\n```"


def asks(text: str, *options: str) -> Decision:
    """The moderator asks the people."""
    return Decision(
        action=Action.ASK_USER, user_question=UserQuestion(text, tuple(options)), summary="s"
    )


class AgPlayer:
    """AG's account: answers every prompt tagged for it, unless its turn is held."""

    def __init__(self, client: ListeningClient) -> None:
        self.client = client
        self.prompts: dict[int, discord.Message] = {}  # turn -> the prompt's first part
        self.hold: set[int] = set()  # turns AG does not answer (yet)
        self.says: str | None = None  # what AG writes for every turn, instead of the default
        self.arrived = asyncio.Condition()
        client.message_listeners.append(self._on_message)

    @property
    def user_id(self) -> int:
        assert self.client.user is not None
        return self.client.user.id

    def reply_for(self, turn: int) -> str:
        """What AG writes for `turn` (it tries to ping everyone, too)."""
        if self.says is not None:
            return self.says
        return block(f"AG turn {turn}: @everyone LRU부터 시작합시다.\n\n" + "근거 " * 200)

    async def _on_message(self, message: discord.Message) -> None:
        found = TAG.search(message.content)
        if found is None or not any(u.id == self.user_id for u in message.mentions):
            return
        turn = int(found.group(2))
        self.prompts.setdefault(turn, message)
        async with self.arrived:
            self.arrived.notify_all()
        if turn not in self.hold:
            await self.answer(turn)

    async def answer(self, turn: int) -> None:
        """Post the reply for `turn` in the prompt's channel."""
        await self.prompts[turn].channel.send(self.reply_for(turn))

    async def wait_prompt(self, first_turn: int, timeout: float = 10.0) -> int:
        """The first turn from `first_turn` on whose prompt has arrived."""

        def found() -> int | None:
            return min((t for t in self.prompts if t >= first_turn), default=None)

        async with asyncio.timeout(timeout), self.arrived:
            await self.arrived.wait_for(lambda: found() is not None)
        turn = found()
        assert turn is not None
        return turn
