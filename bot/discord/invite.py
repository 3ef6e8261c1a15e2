"""The bot's permissions, computed once: what it needs in a channel, and its invite URL."""

from __future__ import annotations

from typing import Any

import discord

# Every permission the bot uses, and why.
REQUIRED = discord.Permissions(
    view_channel=True,  # see the watched channels and the threads
    send_messages=True,  # the approval card
    send_messages_in_threads=True,  # the debate itself
    create_public_threads=True,  # the thread made from the card
    embed_links=True,  # every reply is an embed
    attach_files=True,  # a reply too long for embeds goes as a file
    read_message_history=True,  # AG's reply after a restart, the card's thread
    manage_messages=True,  # removes AG's relay messages from the thread once shown
    pin_messages=True,  # the status line (since 2026 pinning needs this, 1 << 51)
    send_polls=True,  # a stalemate ends in the people's poll (1 << 49)
)


def invite_url(application_id: int) -> str:
    """The OAuth2 URL that adds the bot with exactly the permissions it uses, and its `/debate`
    commands (the applications.commands scope)."""
    return (
        "https://discord.com/oauth2/authorize"
        f"?client_id={application_id}&scope=bot+applications.commands&permissions={REQUIRED.value}"
    )


def missing_names(granted: discord.Permissions) -> list[str]:
    """The required permissions `granted` lacks, as Discord's settings name them."""
    return [
        name.replace("_", " ").title()
        for name, wanted in REQUIRED
        if wanted and not getattr(granted, name)
    ]


def channel_permissions(
    roles: list[Any], member: dict[str, Any], channel: dict[str, Any], guild_id: int
) -> discord.Permissions:
    """A member's permissions in a channel from raw REST payloads, as Discord computes them:
    @everyone, then the member's roles, then the channel's overwrites (@everyone, roles, member)."""
    member_roles = {int(r) for r in member.get("roles") or ()}
    user_id = int((member.get("user") or {}).get("id", 0))
    value = 0
    for role in roles:
        if int(role["id"]) in member_roles | {guild_id}:
            value |= int(role["permissions"])
    if discord.Permissions(value).administrator:
        return discord.Permissions.all()
    overwrites = {int(o["id"]): o for o in channel.get("permission_overwrites") or ()}
    value = _apply(value, overwrites.get(guild_id))
    allow = deny = 0
    for role_id in member_roles:
        if role_id in overwrites:
            deny |= int(overwrites[role_id]["deny"])
            allow |= int(overwrites[role_id]["allow"])
    value = (value & ~deny) | allow
    value = _apply(value, overwrites.get(user_id))
    return discord.Permissions(value)


def _apply(value: int, overwrite: dict[str, Any] | None) -> int:
    if overwrite is None:
        return value
    return (value & ~int(overwrite["deny"])) | int(overwrite["allow"])


MESSAGE_CONTENT_OFF = (
    "Discord refused the Message Content intent: turn on Message Content Intent in the "
    "Developer Portal (your application > Bot > Privileged Gateway Intents) and start again; "
    "the bot reads the channel's conversation to notice debates, and AG's replies"
)
