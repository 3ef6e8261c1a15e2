"""AG (Gemini Pro in the Antigravity IDE) as a debater, reached through a Discord relay.

The prompt is posted in the relay channel (AG_RELAY_CHANNEL_ID, or else the debate's thread)
mentioning only the AG account(s), with the tag `[debate N · turn M]`, split losslessly over
as many messages as it needs. Only messages by AG_USER_IDS in that channel after the prompt
count as the reply; a reply in several messages is assembled once its JSON block is complete
or AG has been quiet for AG_QUIET_SECONDS, and .md/.txt attachments are read.

Restart-safe: every posted part is recorded in `room_messages` (key `relay:{turn}`, then
`relay:{turn}:{i}` per part, with a retry's attempt as `#n`), so a repeated `speak` for the
same turn posts nothing again and reads the channel history for what AG said meanwhile.
The bot forwards every message (and edit) to `on_message` / `on_message_edit`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

import aiohttp
import discord

from bot.discord.ag.collect import MessageQueue, ReplyCollector, relay_error
from bot.discord.ag.reply import AG_MODEL, AgReply, relay_tag, tag_of
from bot.discord.render import CONTENT_LIMIT, nonce_of
from bot.discord.render_split import FenceSplitter
from handlers.core.model import Backend, FailureKind
from handlers.leasing import EveryDebate, LeaseGuard
from handlers.ports import DebaterError, DebaterOutput, TurnRequest
from tools.store.room_messages import RoomMessages

__all__ = ["AG_MODEL", "AgRelayDebater", "prompt_header", "prompt_mentions", "relay_tag"]

log = logging.getLogger(__name__)


def prompt_header(ag_ids: Iterable[int], debate_id: int, turn: int) -> str:
    """The first line of a prompt: the AG account(s) mentioned, then the turn's tag."""
    mentions = " ".join(f"<@{uid}>" for uid in sorted(ag_ids))
    return f"{mentions} {relay_tag(debate_id, turn)}\n"


def prompt_mentions(ag_ids: Iterable[int]) -> discord.AllowedMentions:
    """Who a prompt may ping: the AG account(s), never @everyone, a role or anyone else."""
    users = [discord.Object(uid) for uid in sorted(ag_ids)]
    return discord.AllowedMentions(everyone=False, roles=False, users=users, replied_user=False)


@dataclass
class _Attempt:
    """One posting of a turn's prompt: its key prefix and the message ids recorded so far."""

    key: str
    parts: dict[int, int] = field(default_factory=dict)  # part index -> message id
    complete: bool = False
    timed_out: bool = False


class AgRelayDebater:
    """The AG seat: speaks by posting into a Discord channel and reading AG's answer."""

    backend = Backend.AG_RELAY

    def __init__(
        self,
        client: discord.Client,
        messages: RoomMessages,
        *,
        ag_user_ids: Sequence[int],
        relay_channel_id: int | None,
        timeout_s: float,
        quiet_s: float,
        briefing: str = "",
        poll_s: float | None = None,
        guard: LeaseGuard | None = None,
    ) -> None:
        if not ag_user_ids:
            raise ValueError("AG_USER_IDS is empty: nobody's messages could count as AG's")
        self._client = client
        self._guard = guard or EveryDebate()  # each prompt part is posted under the lease
        self._messages = messages
        self._ag_ids = frozenset(ag_user_ids)
        self._relay_channel_id = relay_channel_id
        self._collector = ReplyCollector(timeout_s=timeout_s, quiet_s=quiet_s, poll_s=poll_s)
        # AG has no system prompt: the debaters' rules open its first prompt of each debate.
        self._briefing = briefing
        # channel id -> the (debate, turn) waiting there and its queue
        self._waiters: dict[int, list[tuple[tuple[int, int], MessageQueue]]] = {}
        self._locks: dict[int, asyncio.Lock] = {}

    # ---- what the bot forwards -------------------------------------------------------
    async def on_message(self, message: discord.Message) -> None:
        """Hand a message to a waiting turn if AG wrote it in the channel being watched."""
        if message.author.id not in self._ag_ids:
            return
        waiters = self._waiters.get(message.channel.id, [])
        tag = tag_of(message)
        # A reply to a prompt message belongs to that prompt whatever it quotes: the waiting
        # turn's AgReply decides by the reference.
        replying = message.reference is not None and message.reference.message_id is not None
        if tag is not None and not replying and all(waiting != tag for waiting, _ in waiters):
            # A late answer, or one for a turn that was skipped: it is never posted anywhere.
            log.warning("AG answered debate %d turn %d, which is not waiting: ignored", *tag)
            return
        for _, queue in waiters:
            queue.put_nowait(message)

    async def on_message_edit(self, edited: discord.Message) -> None:
        """AG edited a message: its newest text replaces the old one."""
        await self.on_message(edited)

    # ---- the Debater port ----------------------------------------------------------------
    async def speak(self, request: TurnRequest) -> DebaterOutput:
        """Post the prompt (once per attempt) and return AG's assembled reply."""
        channel = await self._channel(request.debate_id)
        lock = self._locks.setdefault(channel.id, asyncio.Lock())
        # One AG answers one request at a time: a second debate in the same channel waits,
        # so nobody's reply is taken for the other's.
        async with lock:
            queue: MessageQueue = asyncio.Queue()
            waiter = ((request.debate_id, request.turn), queue)
            self._waiters.setdefault(channel.id, []).append(waiter)
            try:
                attempt, prompt_ids = await self._prompt(channel, request)
                shown = await self._shows_progress(channel, request)
                try:
                    reply = _Watched(self._ag_ids, prompt_ids, waiter[0], shown)
                    await self._collector.collect(channel, reply, queue)
                except DebaterError as exc:
                    if exc.kind is FailureKind.TIMEOUT:  # a retry posts the prompt again
                        await self._record(request.debate_id, f"{attempt.key}:timeout", channel, 0)
                    raise
            finally:
                self._waiters[channel.id].remove(waiter)
        return await reply.output()

    async def forget(self, debate_id: int) -> None:
        """Nothing to drop: AG keeps its own session in the IDE."""

    # ---- posting ---------------------------------------------------------------------------
    async def _channel(self, debate_id: int) -> discord.TextChannel | discord.Thread:
        channel_id = self._relay_channel_id
        if channel_id is None:
            channel_id = await self._messages.thread_of(debate_id)
            if channel_id is None:
                raise DebaterError(FailureKind.USAGE, f"debate {debate_id} has no thread yet")
        channel = self._client.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self._client.fetch_channel(channel_id)
            except discord.HTTPException as exc:
                raise relay_error(exc, f"relay channel {channel_id}") from exc
            except (aiohttp.ClientError, OSError) as exc:
                raise DebaterError(FailureKind.UNREACHABLE, f"relay channel: {exc}") from exc
        if not isinstance(channel, discord.TextChannel | discord.Thread):
            raise DebaterError(FailureKind.USAGE, f"channel {channel_id} takes no messages")
        return channel

    async def _prompt(
        self, channel: discord.TextChannel | discord.Thread, request: TurnRequest
    ) -> tuple[_Attempt, set[int]]:
        """Post what is not posted yet; returns the attempt and every prompt id of the turn."""
        attempts = await self._attempts(request.debate_id, request.turn)
        current = attempts[-1] if attempts else None
        if current is None or current.timed_out:
            base = f"relay:{request.turn}"
            current = _Attempt(base if not attempts else f"{base}#{len(attempts)}")
            attempts.append(current)
        if not current.complete:
            if self._briefing and await self._first_turn(request):
                briefing = request.system_prompt or self._briefing  # in the debate's language
                request = replace(request, prompt=f"{briefing}\n\n---\n\n{request.prompt}")
            await self._post_parts(channel, request, current)
            await self._record(request.debate_id, current.key, channel, current.parts[0])
        ids = {mid for attempt in attempts for mid in attempt.parts.values()}
        return current, ids

    async def _first_turn(self, request: TurnRequest) -> bool:
        """True unless AG was prompted for an earlier turn of this debate (a new session too)."""
        if request.fresh_session:
            return True
        rows = await self._messages.matching(request.debate_id, "relay:")
        turns = {_turn_of(key) for key, _, _ in rows}
        return not any(turn < request.turn for turn in turns)

    async def _attempts(self, debate_id: int, turn: int) -> list[_Attempt]:
        """What earlier calls posted for this turn: `relay:{turn}[#n][:part|:timeout]` rows."""
        rows = await self._messages.matching(debate_id, f"relay:{turn}")
        found: dict[str, _Attempt] = {}
        for key, _, message_id in rows:
            head, _, part = key.removeprefix("relay:").partition(":")
            if head.partition("#")[0] != str(turn):
                continue  # the pattern for turn 12 also matches turn 120
            attempt = found.setdefault(head, _Attempt(f"relay:{head}"))
            if part == "timeout":
                attempt.timed_out = True
            elif part:
                attempt.parts[int(part)] = message_id
            else:
                attempt.complete = True
                attempt.parts.setdefault(0, message_id)
        return sorted(found.values(), key=lambda a: _attempt_number(a.key))

    async def _post_parts(
        self, channel: discord.TextChannel | discord.Thread, request: TurnRequest, att: _Attempt
    ) -> None:
        header = prompt_header(self._ag_ids, request.debate_id, request.turn)
        splitter = FenceSplitter(request.prompt)
        index = 0
        while index == 0 or not splitter.done:
            first = index == 0
            piece = splitter.take(CONTENT_LIMIT - len(header) if first else CONTENT_LIMIT)
            if index not in att.parts:
                await self._guard.confirm(request.debate_id)
                content = header + piece if first else piece
                # Deterministic: Discord drops a part re-sent after a crash (enforce_nonce).
                nonce = nonce_of(request.debate_id, att.key, index)
                message = await self._send(channel, content, first, nonce)
                att.parts[index] = message.id
                await self._record(request.debate_id, f"{att.key}:{index}", channel, message.id)
            index += 1

    async def _send(
        self, channel: discord.abc.Messageable, content: str, ping: bool, nonce: str
    ) -> discord.Message:
        # The prompt's first part pings the AG account(s) and nobody else; later parts nobody.
        allowed = prompt_mentions(self._ag_ids) if ping else discord.AllowedMentions.none()
        try:
            return await channel.send(content, allowed_mentions=allowed, nonce=nonce)
        except discord.HTTPException as exc:
            raise relay_error(exc, "posting the prompt") from exc
        except (aiohttp.ClientError, OSError) as exc:
            raise DebaterError(FailureKind.UNREACHABLE, f"posting the prompt: {exc}") from exc

    async def _record(
        self, debate_id: int, key: str, channel: discord.abc.Snowflake, message_id: int
    ) -> None:
        # Shielded: a Stop (the engine cancels speak) must not cut a write in half, which
        # would leave the connection inside an open transaction.
        await asyncio.shield(self._messages.add(debate_id, key, (channel.id, message_id, "")))

    # ---- collecting --------------------------------------------------------------------------
    async def _shows_progress(
        self, channel: discord.TextChannel | discord.Thread, request: TurnRequest
    ) -> TurnRequest | None:
        """The request to show progress to when AG writes outside the thread (where people see)."""
        if request.on_text is None or self._relay_channel_id is None:
            return None
        thread = await self._messages.thread_of(request.debate_id)
        return None if thread == channel.id else request


class _Watched(AgReply):
    """AgReply that reports what AG wrote so far (message text only, no files) as it comes."""

    def __init__(
        self,
        ag_ids: frozenset[int],
        prompt_ids: set[int],
        waiting: tuple[int, int],
        progress: TurnRequest | None,
    ) -> None:
        super().__init__(ag_ids, prompt_ids, waiting)
        self._progress = progress

    def take(self, message: discord.Message) -> bool:
        """Keep the message and show the reply so far."""
        taken = super().take(message)
        if taken and self._progress is not None:
            text = "\n".join(m.content for m in self.messages() if m.content)
            self._progress.show_text(text or "…")  # files only: still, AG is writing
        return taken


def _attempt_number(key: str) -> int:
    return int(key.partition("#")[2] or 0)


def _turn_of(key: str) -> int:
    """The turn of a `relay:{turn}[#n][:part]` key."""
    return int(key.removeprefix("relay:").split(":", 1)[0].split("#", 1)[0])
