"""Reading AG's answer to a relay prompt: the channel's history after the prompt first, then
the messages the bot forwards (or, in a process without a gateway, the history read again
every few seconds), until the reply is complete or AG has been quiet long enough."""

from __future__ import annotations

import asyncio
import logging

import aiohttp
import discord

from bot.discord.ag_reply import AgReply, tag_of
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
        """AG's messages after the prompt: from the history first, then as they arrive."""
        await self._read_history(channel, reply)
        if self._poll_s is not None:
            await self._poll(channel, reply, self._poll_s)
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self._timeout_s
        while not reply or not await reply.complete():
            wait = deadline - loop.time()
            if reply:
                wait = min(wait, self._quiet_s)
            try:
                message = await asyncio.wait_for(queue.get(), max(wait, 0))
            except TimeoutError:
                if reply:
                    break  # quiet long enough (or out of time): take what arrived
                raise DebaterError(
                    FailureKind.TIMEOUT, f"AG said nothing in {self._timeout_s:g} s"
                ) from None
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

    async def _poll(
        self, channel: discord.TextChannel | discord.Thread, reply: AgReply, poll_s: float
    ) -> None:
        """Without a gateway: read the history every `poll_s` until the reply is done or late."""
        loop = asyncio.get_running_loop()
        deadline = quiet_since = loop.time()
        deadline += self._timeout_s
        seen = _snapshot(reply)
        while not reply or not await reply.complete():
            now = loop.time()
            if reply and now - quiet_since >= self._quiet_s:
                return  # quiet long enough: take what arrived
            if now >= deadline:
                if reply:
                    return
                raise DebaterError(FailureKind.TIMEOUT, f"AG said nothing in {self._timeout_s:g} s")
            await asyncio.sleep(poll_s)  # a worker's wait for AG: the history is the record
            await self._read_history(channel, reply)
            if _snapshot(reply) != seen:
                seen, quiet_since = _snapshot(reply), loop.time()


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
