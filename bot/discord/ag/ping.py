"""`debate-room doctor --ping-relay`: one tagged prompt in the relay channel, posted over REST
as the relay posts a turn's first part, and AG's answer read by the relay's own rules the way
a worker reads it (the channel's history every few seconds, no gateway)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, replace

import aiohttp
import discord

from bot.discord.ag.collect import MessageQueue, ReplyCollector
from bot.discord.ag.relay import prompt_header, prompt_mentions
from bot.discord.ag.reply import AgReply
from bot.settings import Settings
from handlers.core.model import Backend, FailureKind
from handlers.ports import DebaterError
from tools.checks import Check, Status, one_line

PART = "ag relay"
# No debate has id 0 (the stores number debates from 1), so a relay that answers the ping as
# a turn never answers a real debate; the turn is the ping's Unix time, so a late answer to an
# earlier ping (tagged with its own turn) is not taken for this one's.
PING_DEBATE = 0
POLL_S = 2.0  # as often as a worker reads a relay channel's history
REST_TIMEOUT_S = 20.0  # logging in, posting, deleting: each part of the ping outside the wait
PING_TEXT = (
    "A check from `debate-room doctor`, not a debate: please answer with one short message "
    "(any text)."
)
NO_CHANNEL = (
    "AG_RELAY_CHANNEL_ID is not set: the relay channel is each debate's thread, so there is no "
    "channel to ping; set AG_RELAY_CHANNEL_ID, or name one: "
    "`debate-room doctor --ping-relay --relay-channel ID`"
)
SILENT_HINTS = (
    "is the relay running, and does it watch this channel for messages mentioning AG?",
    "does AG answer as one of AG_USER_IDS (a webhook posts as the webhook's id)?",
    "does the answer come after the ping, untagged, tagged with the ping's tag, or as a reply "
    "to the ping (docs/ag-relay.md)?",
)


@dataclass(frozen=True)
class RelayPing:
    """A doctor check: ping AG in the relay channel and wait a bounded time for its answer."""

    wait_s: float  # `debate-room doctor --relay-wait`
    channel_id: int | None = None  # None: AG_RELAY_CHANNEL_ID
    poll_s: float = POLL_S

    async def __call__(self, settings: Settings) -> Check:
        """ok with who answered and how fast; failing if AG was silent; missing if no relay."""
        relayed = any(member.backend is Backend.AG_RELAY for member in settings.roster)
        if not relayed:
            return Check(PART, Status.MISSING, "PARTICIPANTS seats no ag-relay: no relay to ping")
        if not settings.AG_USER_IDS:
            text = "AG_USER_IDS is not set: nobody's answer could count as AG's"
            return Check(PART, Status.MISSING, text)
        if settings.DISCORD_TOKEN is None:
            return Check(PART, Status.MISSING, "DISCORD_TOKEN is not set: cannot post the ping")
        channel_id = self.channel_id or settings.AG_RELAY_CHANNEL_ID
        if channel_id is None:
            return Check(PART, Status.MISSING, NO_CHANNEL)
        client = discord.Client(intents=discord.Intents(guilds=True))  # REST only: no gateway
        try:
            async with asyncio.timeout(REST_TIMEOUT_S):
                await client.login(settings.DISCORD_TOKEN.get_secret_value())
            return await self._ping(client, channel_id, frozenset(settings.AG_USER_IDS))
        except discord.LoginFailure:
            return Check(PART, Status.FAILING, "Discord refused the token (DISCORD_TOKEN)")
        except (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError) as exc:
            return Check(PART, Status.FAILING, f"cannot reach Discord: {one_line(exc)}")
        finally:
            await client.close()

    async def _ping(self, client: discord.Client, channel_id: int, ag_ids: frozenset[int]) -> Check:
        """Post the ping, wait for AG, delete the ping; the verdict."""
        where = f"channel {channel_id}"
        async with asyncio.timeout(REST_TIMEOUT_S):
            try:
                channel = await client.fetch_channel(channel_id)
            except (discord.NotFound, discord.Forbidden):
                text = f"{where}: cannot see it (wrong id, or the bot is not allowed in)"
                return Check(PART, Status.FAILING, text)
            if not isinstance(channel, discord.TextChannel | discord.Thread):
                return Check(PART, Status.FAILING, f"{where} takes no messages")
            turn = int(time.time())
            content = prompt_header(ag_ids, PING_DEBATE, turn) + PING_TEXT
            try:
                ping = await channel.send(content, allowed_mentions=prompt_mentions(ag_ids))
            except discord.Forbidden as exc:
                return Check(PART, Status.FAILING, f"{where}: cannot post the ping: {exc.text}")
        try:
            check = await self._answer(channel, ping, ag_ids, (PING_DEBATE, turn))
        finally:
            kept = await _delete(ping)
        return replace(check, notes=(*check.notes, kept)) if kept else check

    async def _answer(
        self,
        channel: discord.TextChannel | discord.Thread,
        ping: discord.Message,
        ag_ids: frozenset[int],
        tag: tuple[int, int],
    ) -> Check:
        """AG's answer, taken by the relay's own rules (AgReply): the first message ends it."""
        where = f"channel {channel.id}"
        reply = AgReply(ag_ids, {ping.id}, tag)
        collector = ReplyCollector(timeout_s=self.wait_s, quiet_s=0.0, poll_s=self.poll_s)
        queue: MessageQueue = asyncio.Queue()  # nothing is forwarded: the history is read
        try:
            await collector.collect(channel, reply, queue)
        except DebaterError as exc:
            if exc.kind is not FailureKind.TIMEOUT:
                return Check(PART, Status.FAILING, f"{where}: {exc.detail}")
            others = await _who_wrote(channel, ping, ag_ids)
            text = f"AG did not answer the ping in {where} within {self.wait_s:g} s"
            return Check(PART, Status.FAILING, text, (*others, *SILENT_HINTS))
        first = reply.messages()[0]
        seconds = max((first.created_at - ping.created_at).total_seconds(), 0.0)
        text = f"AG answered in {seconds:.1f} s, as {first.author} ({first.author.id}), in {where}"
        return Check(PART, Status.OK, text)


async def _who_wrote(
    channel: discord.TextChannel | discord.Thread, ping: discord.Message, ag_ids: frozenset[int]
) -> list[str]:
    """Who wrote after the ping without counting: often the relay under an id missing from
    AG_USER_IDS, or AG tagging another turn or replying to another message."""
    seen: dict[int, str] = {}
    try:
        async for message in channel.history(after=ping, oldest_first=True, limit=None):
            if message.author.id != ping.author.id:
                seen.setdefault(message.author.id, str(message.author))
    except (discord.HTTPException, aiohttp.ClientError, OSError):
        return []  # only a hint: the verdict stands without it
    return [
        f"{name} ({uid}) wrote after the ping, "
        + (
            "but not as an answer to it (tagged for another turn, or replying to another message)"
            if uid in ag_ids
            else "and is not in AG_USER_IDS"
        )
        for uid, name in seen.items()
    ]


async def _delete(ping: discord.Message) -> str:
    """The ping goes; "" once gone, else why it stays (its text says it is the doctor's)."""
    try:
        async with asyncio.timeout(REST_TIMEOUT_S):
            await ping.delete()
    except discord.NotFound:
        return ""  # somebody (the relay, say) deleted it already
    except (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError) as exc:
        return f"the ping ({ping.jump_url}) could not be deleted: {one_line(exc)}"
    return ""
