"""AG's reply to one relay prompt: which messages count, and the reply they make together."""

from __future__ import annotations

import json
import re
from collections.abc import Set
from pathlib import PurePosixPath

import aiohttp
import discord

from handlers.core.model import FailureKind, ParsedReply, TurnMeta
from handlers.effects_runner import parse_off_loop
from handlers.ports import DebaterError, DebaterOutput

AG_MODEL = "gemini-pro (AG)"
READABLE_SUFFIXES = frozenset({".md", ".txt"})
MAX_ATTACHMENT_BYTES = 4 * 1024 * 1024
_REPLY_TYPES = (discord.MessageType.default, discord.MessageType.reply)
_TAG = re.compile(r"\[debate (\d+) · turn (\d+)\]")


def relay_tag(debate_id: int, turn: int) -> str:
    """The tag AG's side recognises a request by (a protocol marker, not localized)."""
    return f"[debate {debate_id} · turn {turn}]"


def tag_of(message: discord.Message) -> tuple[int, int] | None:
    """The (debate, turn) a message's first tag names, if it carries one."""
    found = _TAG.search(message.content or "")
    return (int(found.group(1)), int(found.group(2))) if found else None


def without_tag(content: str, waiting: tuple[int, int]) -> str:
    """`content` without its echo of the tag of `waiting` (and the space it leaves)."""
    tag = relay_tag(*waiting)
    if tag not in content:
        return content
    before, _, after = content.partition(tag)
    return f"{before.rstrip()} {after.lstrip()}".strip() if before.strip() else after.lstrip()


class AgReply:
    """The messages AG sent after a prompt, kept in order, attachments read once."""

    def __init__(self, ag_ids: Set[int], prompt_ids: Set[int], waiting: tuple[int, int]) -> None:
        self._ag_ids = ag_ids
        self._prompt_ids = prompt_ids
        self.waiting = waiting  # the (debate, turn) this reply answers
        self.after = min(prompt_ids)
        self._seen: dict[int, discord.Message] = {}
        self._texts: dict[int, str | None] = {}  # attachment id -> its text (None: not read)
        self._parsed: tuple[str, ParsedReply] | None = None  # the last text parsed, parsed

    def __bool__(self) -> bool:
        return bool(self._seen)

    def take(self, message: discord.Message) -> bool:
        """Keep `message` if AG wrote it after the prompt and it answers nothing else."""
        if message.author.id not in self._ag_ids or message.id <= self.after:
            return False
        if message.id in self._prompt_ids:  # AG_USER_IDS holding the bot's own id
            return False
        if message.type not in _REPLY_TYPES:
            return False
        # A reply to the prompt (or to AG's own earlier part) is ours; one to anything else,
        # or one tagged for another debate or turn (a late answer in a shared channel), not.
        reference = message.reference.message_id if message.reference else None
        if reference is not None and reference not in self._prompt_ids | self._seen.keys():
            return False
        tag = tag_of(message)
        if reference is None and tag is not None and tag != self.waiting:
            return False
        self._seen[message.id] = message  # an edit replaces the earlier version
        return True

    async def complete(self) -> bool:
        """True once the assembled text holds the contract's JSON block."""
        text = await self.text()
        if self._parsed is None or self._parsed[0] != text:
            self._parsed = (text, await parse_off_loop(text))
        return self._parsed[1].structured

    async def text(self) -> str:
        """Every message's text, then its embeds' and readable attachments', in order; AG's
        echo of the relay tag is addressing, not its words: left out here (the raw record
        and its SHA-256 keep it), so no embed, page or other seat's brief shows it."""
        parts: list[str] = []
        for message in self.messages():
            content = without_tag(message.content or "", self.waiting)
            if content:
                parts.append(content)
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
        meta = TurnMeta(model=AG_MODEL, latency_s=latency)
        # Parsed once: the engine reuses what deciding completeness already parsed.
        parsed = self._parsed[1] if self._parsed and self._parsed[0] == text else None
        return DebaterOutput(text=text, raw=raw, meta=meta, parsed=parsed)

    async def _read(self, attachment: discord.Attachment) -> str | None:
        if attachment.id not in self._texts:
            suffix = PurePosixPath(attachment.filename).suffix.lower()
            text = None
            if suffix in READABLE_SUFFIXES and attachment.size <= MAX_ATTACHMENT_BYTES:
                try:
                    # A byte that is not UTF-8 is kept as itself (a lone surrogate the reply
                    # parser shows as `\udcXX`), not replaced by U+FFFD: nothing AG sent is lost.
                    text = (await attachment.read()).decode("utf-8", errors="surrogateescape")
                except (discord.HTTPException, aiohttp.ClientError) as exc:
                    raise DebaterError(FailureKind.UNREACHABLE, f"attachment: {exc}") from exc
            self._texts[attachment.id] = text
        return self._texts[attachment.id]
