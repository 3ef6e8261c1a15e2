"""Reading AG's answer to a relay prompt: the channel's history after the prompt first, then
the messages the bot forwards (or, in a process without a gateway, the history read again
every few seconds), until the reply is complete or AG has been quiet long enough."""

from __future__ import annotations

import asyncio
import logging

import aiohttp
import discord

from bot.discord.ag.reply import AgReply, tag_of
from handlers.core.model import FailureKind
from handlers.ports import DebaterError

log = logging.getLogger(__name__)

MessageQueue = asyncio.Queue[discord.Message]


class ReplyCollector:
    """Reads AG's messages after a prompt into its reply until it is complete or quiet."""

    def __init__(self, *, timeout_s: float, quiet_s: float, poll_s: float | None) -> None:
        self._timeout_s = timeout_s
        self._quiet_s = quiet_s
        # A process without a gateway (a worker) hears no message: it reads the channel's
        # history every `poll_s` instead.
        self._poll_s = poll_s

    async def collect(
        self, channel: discord.TextChannel | discord.Thread, reply: AgReply, queue: MessageQueue
    ) -> None:
        """AG's messages after the prompt: from the history first, then as they arrive (or as
        the history read again shows them), until complete, or quiet long enough once begun."""
        await self._read_history(channel, reply)
        loop = asyncio.get_running_loop()
        heard = loop.time()  # when AG last added to the reply
        deadline, seen = heard + self._timeout_s, _snapshot(reply)
        while not reply or not await reply.complete():
            now = loop.time()
            if now >= deadline or (reply and now - heard >= self._quiet_s):
                if reply:
                    return  # quiet long enough (or out of time): take what arrived
                raise DebaterError(FailureKind.TIMEOUT, f"AG said nothing in {self._timeout_s:g} s")
            if self._poll_s is not None:  # a worker's wait for AG: the history is the record
                await asyncio.sleep(self._poll_s)
                await self._read_history(channel, reply)
                if _snapshot(reply) != seen:
                    seen, heard = _snapshot(reply), loop.time()
                continue
            wait = min(deadline, heard + self._quiet_s) if reply else deadline
            try:
                message = await asyncio.wait_for(queue.get(), wait - now)
            except TimeoutError:
                continue
            heard = loop.time()
            tag = tag_of(message)
            if not reply.take(message) and tag is not None:
                log.warning("AG answered %s while %s waits: ignored", tag, reply.waiting)

    async def _read_history(
        self, channel: discord.TextChannel | discord.Thread, reply: AgReply
    ) -> None:
        """Take every message after the prompt (taking one again replaces it: an edit)."""
        try:
            async for message in channel.history(
                after=discord.Object(reply.after), oldest_first=True, limit=None
            ):
                reply.take(message)
        except discord.HTTPException as exc:
            raise relay_error(exc, "reading the relay channel") from exc
        except (aiohttp.ClientError, OSError) as exc:
            raise DebaterError(FailureKind.UNREACHABLE, f"reading the channel: {exc}") from exc


def _snapshot(reply: AgReply) -> tuple[tuple[int, str, int], ...]:
    """What the reply holds so far (an edit or a new message changes it)."""
    return tuple((m.id, m.content, len(m.attachments)) for m in reply.messages())


def relay_error(exc: discord.HTTPException, what: str) -> DebaterError:
    """A Discord failure as the engine's failure kinds."""
    if exc.status == 429:
        return DebaterError(FailureKind.RATE_LIMITED, f"{what}: 429", retry_after=None)
    if isinstance(exc, discord.DiscordServerError):
        return DebaterError(FailureKind.SERVER, f"{what}: {exc.status}")
    if isinstance(exc, discord.Forbidden | discord.NotFound):
        return DebaterError(FailureKind.USAGE, f"{what}: {exc.status} {exc.text}")
    return DebaterError(FailureKind.UNREACHABLE, f"{what}: {exc.status} {exc.text}")
