"""What people see in the fakes: the bot's messages, the card, the thread, its status, pages."""

from __future__ import annotations

from tests.fakes.discord_limits import layout_text, visible_text, walk
from tests.fakes.discord_world import Json
from tests.fakes.fake_discord import FakeDiscord
from tests.fakes.fake_wikijs import FakePage, FakeWikiJs


class Seen:
    """Read-only views of the fakes' state, mixed into the World."""

    discord: FakeDiscord
    wiki: FakeWikiJs

    @property
    def channel_id(self) -> str:
        """The watched channel."""
        return str(self.discord.text_channel["id"])

    def bot_messages(self, channel_id: str) -> list[Json]:
        bot_id = self.discord.bot_user["id"]
        return [m for m in self.discord.messages_in(channel_id) if m["author"]["id"] == bot_id]

    def card(self) -> Json | None:
        for message in self.bot_messages(self.channel_id):
            if any(
                str(c.get("custom_id")).startswith("debate:open:")
                for c in walk(message.get("components", []))
            ):
                return message
        return None

    def thread_id(self) -> str | None:
        for channel in self.discord.channels.values():
            if channel.get("type") == 11:
                return str(channel["id"])
        return None

    def embed_text(self, channel_id: str) -> str:
        return "".join(
            part
            for m in self.bot_messages(channel_id)
            for part in [*(e.get("description", "") for e in m.get("embeds", [])), layout_text(m)]
        )

    def texts(self, channel_id: str) -> str:
        return "\n".join(m.get("content", "") for m in self.bot_messages(channel_id))

    def status_message(self, thread_id: str) -> Json | None:
        """The pinned status message (with its Stop button until the end)."""
        for message in self.bot_messages(thread_id):
            if visible_text(message).startswith(
                ("라운드", "종료", "Round", "Ended", "Rodada", "Encerrado")
            ):
                return message
        return None

    def status(self, thread_id: str) -> str:
        """The pinned status line, as edited so far."""
        message = self.status_message(thread_id)
        return visible_text(message) if message else ""

    def status_ended(self, thread_id: str) -> bool:
        return self.status(thread_id).startswith(("종료", "Ended", "Encerrado"))

    def page(self, name: str) -> FakePage | None:
        """The debate's page `name` (agenda, working-document, ...), once it exists."""
        pages = self.wiki.pages.values()
        return next(
            (p for p in pages if p.path.startswith("debates/") and p.path.endswith(f"/{name}")),
            None,
        )

    def slug(self) -> str:
        """The debate's slug, read off the Agenda page's path."""
        path = next(p.path for p in self.wiki.pages.values() if p.path.endswith("/agenda"))
        return path.split("/")[1]

    def transcript(self) -> str:
        """Every message of the run, one line each (written beside the logs for a post-mortem)."""
        out = []
        for message in sorted(self.discord.messages.values(), key=lambda m: int(m["id"])):
            texts = [str(message.get("content", ""))[:300]]
            for embed in message.get("embeds", []):
                footer = (embed.get("footer") or {}).get("text", "")
                texts.append(f"[embed {str(embed.get('description', ''))[:120]!r} | {footer}]")
            author = message["author"]["username"]
            out.append(f"{message['channel_id']} {author}: {' '.join(texts)}")
        return "\n".join(out)


def button_id(message: Json, action: str) -> str:
    """The custom_id of the message's `debate:<action>:...` button."""
    return next(
        str(c["custom_id"])
        for c in walk(message.get("components", []))
        if str(c.get("custom_id", "")).startswith(f"debate:{action}:")
    )
