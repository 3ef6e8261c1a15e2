"""The fake Discord's world: users, members with roles, channels, threads, messages, files.

One server (`guild_id`) holds everything by default; `add_guild` makes another the bot is in
too (its own channels, only the @everyone role; every member is a member of both), for what
must stay inside the server it belongs to.

Payloads are shaped the way discord.py 2.7 parses them (snowflakes as strings carrying a
real timestamp, `components` on every message, `flags` on members).
"""

from __future__ import annotations

import datetime as dt
import itertools
import mimetypes
import time
from typing import Any

from tests.fakes.discord_limits import layout_text, pinged
from tests.fakes.discord_limits import walk as walk_components

DISCORD_EPOCH_MS = 1420070400000
ALL_PERMISSIONS = str((1 << 53) - 1)
THREAD_TYPES = (10, 11, 12)
FLAG_HAS_THREAD = 1 << 5

Json = dict[str, Any]


def now_iso() -> str:
    """The current time as Discord writes it."""
    return dt.datetime.now(dt.UTC).isoformat()


def answered_components(components: list[Json]) -> list[Json]:
    """A message's components as Discord answers them: copies, each given the `id` Discord
    fills in where the sender left it out (1, 2, 3, ... depth first, past the largest id the
    sender chose); a unicode emoji (`"id": null` as sent) comes back without an id."""

    def walk(items: list[Json]) -> list[Json]:
        copies = []
        for item in items:
            copy = dict(item)
            if "id" not in copy:
                copy["id"] = next(fresh)
            if isinstance(copy.get("emoji"), dict) and copy["emoji"].get("id") is None:
                copy["emoji"] = {k: v for k, v in copy["emoji"].items() if k != "id"}
            if isinstance(copy.get("components"), list):
                copy["components"] = walk(copy["components"])
            if isinstance(copy.get("accessory"), dict):  # a section's button beside its text
                copy["accessory"] = walk([copy["accessory"]])[0]
            copies.append(copy)
        return copies

    def chosen(items: list[Json]) -> list[int]:
        return [item.get("id") or 0 for item in walk_components(items)]

    fresh = itertools.count(max(chosen(components), default=0) + 1)
    return walk(components)


class Snowflakes:
    """Strictly increasing snowflakes: (ms since the Discord epoch) << 22 | worker | counter."""

    def __init__(self) -> None:
        self._counter = itertools.count()
        self._last = 0

    def next(self) -> str:
        """A new id, as a string."""
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        value = (ms << 22) | (1 << 17) | (1 << 12) | (next(self._counter) & 0xFFF)
        value = max(value, self._last + 1)
        self._last = value
        return str(value)


class World:
    """Everything the fake knows; REST handlers and test actions change it."""

    def __init__(self) -> None:
        self.ids = Snowflakes()
        self.port = 0
        self.users: dict[str, Json] = {}
        self.members: dict[str, Json] = {}
        self.channels: dict[str, Json] = {}
        self.messages: dict[str, Json] = {}
        self.deleted: dict[str, Json] = {}  # message id -> the message as it was when deleted
        self.files: dict[str, bytes] = {}  # attachment id -> content, served at its url
        self.allowed_mentions: dict[str, Json | None] = {}  # message id -> what the sender allowed
        self.pins: dict[str, list[tuple[str, str]]] = {}  # channel id -> [(message id, pinned at)]
        self.typing: list[tuple[str, str]] = []  # (channel id, user id), in order
        self.guild_id = self.ids.next()
        self.roles: list[Json] = [self._role_payload(self.guild_id, "@everyone")]
        self.other_guilds: dict[str, str] = {}  # id -> name: the servers `add_guild` made

    @property
    def guild_ids(self) -> list[str]:
        """Every server the bot is in, the first one first."""
        return [self.guild_id, *self.other_guilds]

    def roles_of(self, guild_id: str) -> list[Json]:
        """A server's roles (another server has only its @everyone)."""
        if guild_id == self.guild_id:
            return self.roles
        return [self._role_payload(guild_id, "@everyone")]

    # ---- builders ----------------------------------------------------------------
    def add_guild(self, name: str) -> str:
        """Another server the bot is in; its id (give it channels with `add_text_channel`)."""
        guild_id = self.ids.next()
        self.other_guilds[guild_id] = name
        return guild_id

    def make_user(self, name: str, *, bot: bool = False, user_id: str | None = None) -> Json:
        """A user object (not yet a member of the guild)."""
        user: Json = {
            "id": user_id or self.ids.next(),
            "username": name,
            "global_name": name,
            "discriminator": "0",
            "avatar": None,
            "public_flags": 0,
            "flags": 0,
            "primary_guild": None,  # no server tag shown
        }
        if bot:
            user["bot"] = True
        return user

    def add_member(self, user: Json, roles: list[str] | None = None) -> Json:
        """Make `user` a guild member holding `roles` (role ids)."""
        self.users[user["id"]] = user
        member = {
            "user": user,
            "nick": None,
            "roles": list(roles or []),
            "joined_at": now_iso(),
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "avatar": None,
            "banner": None,
            "premium_since": None,
            "communication_disabled_until": None,
        }
        self.members[user["id"]] = member
        return member

    def add_role(self, name: str) -> Json:
        """A guild role (give it to members with `add_member(..., roles=[role['id']])`)."""
        role = self._role_payload(self.ids.next(), name, position=len(self.roles))
        self.roles.append(role)
        return role

    def _role_payload(self, role_id: str, name: str, position: int = 0) -> Json:
        return {
            "id": role_id,
            "name": name,
            "permissions": ALL_PERMISSIONS,
            "position": position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "icon": None,
            "unicode_emoji": None,
            "hoist": False,
            "managed": False,
            "mentionable": True,
            "flags": 0,
        }

    def add_text_channel(self, name: str, guild_id: str | None = None) -> Json:
        """A text channel of a server (the first one unless given)."""
        channel = {
            "id": self.ids.next(),
            "type": 0,
            "guild_id": guild_id or self.guild_id,
            "name": name,
            "position": len(self.channels),
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
            "default_auto_archive_duration": 1440,
        }
        self.channels[channel["id"]] = channel
        return channel

    def thread_payload(self, parent: Json, message_id: str, owner_id: str, body: Json) -> Json:
        """A public thread started from a message: it has the message's id."""
        stamp = now_iso()
        return {
            "id": message_id,
            "type": 11,
            "guild_id": parent["guild_id"],
            "parent_id": parent["id"],
            "owner_id": owner_id,
            "name": body.get("name") or "",
            "last_message_id": None,
            "message_count": 0,
            "member_count": 1,
            "total_message_sent": 0,
            "rate_limit_per_user": body.get("rate_limit_per_user") or 0,
            "flags": 0,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": body.get("auto_archive_duration") or 1440,
                "archive_timestamp": stamp,
                "locked": False,
                "create_timestamp": stamp,
            },
            "member": {"id": message_id, "user_id": owner_id, "join_timestamp": stamp, "flags": 1},
        }

    def guild_payload(self, owner_id: str, guild_id: str | None = None) -> Json:
        """GUILD_CREATE's data of a server (the first one unless given): member_count ==
        len(members) so discord.py never chunks."""
        guild_id = guild_id or self.guild_id
        channels = [c for c in self.channels.values() if c.get("guild_id") == guild_id]
        return {
            "id": guild_id,
            "name": self.other_guilds.get(guild_id, "Fake Guild"),
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": owner_id,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "ko",
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "features": [],
            "roles": self.roles_of(guild_id),
            "emojis": [],
            "stickers": [],
            "application_id": None,
            "max_members": 500000,
            "joined_at": now_iso(),
            "large": False,
            "unavailable": False,
            "member_count": len(self.members),
            "members": list(self.members.values()),
            "channels": [c for c in channels if c["type"] not in THREAD_TYPES],
            "threads": [c for c in channels if c["type"] in THREAD_TYPES],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "premium_progress_bar_enabled": False,
        }

    def attachment(self, channel_id: str, filename: str, data: bytes) -> Json:
        """Store a file and describe it; the client downloads it from the fake's own url."""
        attachment_id = self.ids.next()
        self.files[attachment_id] = data
        url = f"http://127.0.0.1:{self.port}/attachments/{channel_id}/{attachment_id}/{filename}"
        return {
            "id": attachment_id,
            "filename": filename,
            "size": len(data),
            "url": url,
            "proxy_url": url,
            "content_type": mimetypes.guess_type(filename)[0] or "application/octet-stream",
        }

    def message_payload(self, channel_id: str, author: Json, body: Json, **extra: Any) -> Json:
        """A message as Discord returns it; mentions follow `body['allowed_mentions']`."""
        content = body.get("content") or ""
        allowed = body.get("allowed_mentions")
        # A layout's text displays mention as content does.
        pings = pinged("\n".join((content, layout_text(body))), allowed)
        message: Json = {
            "id": self.ids.next(),
            "channel_id": channel_id,
            "author": author,
            "content": content,
            "timestamp": now_iso(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": pings["everyone"],
            "mentions": [self.users[u] for u in pings["users"] if u in self.users],
            "mention_roles": pings["roles"],
            "attachments": extra.pop("attachments", []),
            "embeds": body.get("embeds") or [],
            "components": answered_components(
                body.get("components") or []
            ),  # discord.py needs the key
            "pinned": False,
            "type": extra.pop("mtype", 0),
            "flags": int(body.get("flags") or 0),
        }
        channel = self.channels.get(channel_id)
        if channel is not None and channel.get("guild_id"):
            message["guild_id"] = channel["guild_id"]
        message.update({k: v for k, v in extra.items() if v is not None})
        self.allowed_mentions[message["id"]] = allowed
        return message

    def messages_in(self, channel_id: str) -> list[Json]:
        """A channel's messages, oldest first."""
        found = (m for m in self.messages.values() if m["channel_id"] == channel_id)
        return sorted(found, key=lambda m: int(m["id"]))

    def history(self, channel_id: str, query: dict[str, str]) -> list[Json]:
        """GET /channels/{id}/messages: before/after/around/limit, newest first like Discord."""
        limit = max(1, min(int(query.get("limit", 50)), 100))
        found = self.messages_in(channel_id)
        if "after" in query:
            after = int(query["after"])
            return list(reversed([m for m in found if int(m["id"]) > after][:limit]))
        if "around" in query:
            around = int(query["around"])
            older = [m for m in found if int(m["id"]) <= around][-((limit + 1) // 2) :]
            newer = [m for m in found if int(m["id"]) > around][: limit // 2]
            return list(reversed(older + newer))
        if "before" in query:
            before = int(query["before"])
            found = [m for m in found if int(m["id"]) < before]
        return list(reversed(found[-limit:]))

    def was_pinged(self, message_id: str) -> bool:
        """True if the message pinged anyone at all (a user, a role, @everyone/@here)."""
        message = self.messages.get(message_id) or self.deleted[message_id]
        return bool(message["mention_everyone"] or message["mentions"] or message["mention_roles"])

    def partial_member(self, user: Json) -> Json | None:
        """The member object without its user, as MESSAGE_CREATE carries it."""
        member = self.members.get(user["id"])
        if member is None:
            return None
        return {k: v for k, v in member.items() if k != "user"}
