"""AG's reply to one relay prompt: which messages count, and the reply they make together."""

from __future__ import annotations

import json
from collections.abc import Set
from pathlib import PurePosixPath

import aiohttp
import discord

from handlers.model import FailureKind, TurnMeta
from handlers.ports import DebaterError, DebaterOutput
from handlers.reply_parser import parse_reply

AG_MODEL = "gemini-pro (AG)"
READABLE_SUFFIXES = frozenset({".md", ".txt"})
MAX_ATTACHMENT_BYTES = 4 * 1024 * 1024
_REPLY_TYPES = (discord.MessageType.default, discord.MessageType.reply)


class AgReply:
    """The messages AG sent after a prompt, kept in order, attachments read once."""

    def __init__(self, ag_ids: Set[int], prompt_ids: Set[int]) -> None:
        self._ag_ids = ag_ids
        self._prompt_ids = prompt_ids
        self.after = min(prompt_ids)
        self._seen: dict[int, discord.Message] = {}
        self._texts: dict[int, str | None] = {}  # attachment id -> its text (None: not read)

    def __bool__(self) -> bool:
        return bool(self._seen)

    def take(self, message: discord.Message) -> None:
        """Keep `message` if AG wrote it after the prompt and it answers nothing else."""
        if message.author.id not in self._ag_ids or message.id <= self.after:
            return
        if message.id in self._prompt_ids:  # AG_USER_IDS holding the bot's own id
            return
        if message.type not in _REPLY_TYPES:
            return
        reference = message.reference.message_id if message.reference else None
        if reference is not None and reference not in self._prompt_ids | self._seen.keys():
            return
        self._seen[message.id] = message  # an edit replaces the earlier version

    async def complete(self) -> bool:
        """True once the assembled text holds the contract's JSON block."""
        return parse_reply(await self.text()).structured

    async def text(self) -> str:
        """Every message's text, then its embeds' and readable attachments', in order."""
        parts: list[str] = []
        for message in self.messages():
            if message.content:
                parts.append(message.content)
            parts.extend(e.description for e in message.embeds if e.description)
            for attachment in message.attachments:
                text = await self._read(attachment)
                if text is not None:
                    parts.append(text)
        return "\n".join(parts)

    def messages(self) -> list[discord.Message]:
        """The kept messages, oldest first."""
        return [self._seen[mid] for mid in sorted(self._seen)]

    async def output(self) -> DebaterOutput:
        """The turn: the text exactly; raw records every message and file that arrived."""
        messages = self.messages()
        record = [
            {
                "id": str(m.id),
                "author_id": str(m.author.id),
                "content": m.content,
                "embeds": [e.description for e in m.embeds if e.description],
                "attachments": [
                    {"filename": a.filename, "text": self._texts.get(a.id)} for a in m.attachments
                ],
            }
            for m in messages
        ]
        text = await self.text()
        raw = json.dumps({"messages": record}, ensure_ascii=False)
        asked = discord.utils.snowflake_time(self.after)
        latency = max((messages[-1].created_at - asked).total_seconds(), 0.0)
        return DebaterOutput(text=text, raw=raw, meta=TurnMeta(model=AG_MODEL, latency_s=latency))

    async def _read(self, attachment: discord.Attachment) -> str | None:
        if attachment.id not in self._texts:
            suffix = PurePosixPath(attachment.filename).suffix.lower()
            text = None
            if suffix in READABLE_SUFFIXES and attachment.size <= MAX_ATTACHMENT_BYTES:
                try:
                    text = (await attachment.read()).decode("utf-8", errors="replace")
                except (discord.HTTPException, aiohttp.ClientError) as exc:
                    raise DebaterError(FailureKind.UNREACHABLE, f"attachment: {exc}") from exc
            self._texts[attachment.id] = text
        return self._texts[attachment.id]
