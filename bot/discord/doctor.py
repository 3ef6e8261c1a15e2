"""`debate-room doctor`'s Discord line: the token, the Message Content intent, and the bot's
permissions in every watched channel; then the invite URL with the application's own id."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import discord

from bot.discord.invite import channel_permissions, invite_url, missing_names
from bot.settings import Settings
from tools.checks import Check, Status, one_line

PART = "discord"
TIMEOUT_S = 20.0
INTENT_HINT = (
    "Message Content Intent is off: turn it on in the Developer Portal (Bot page), "
    "or the bot sees empty messages"
)
NO_CHANNELS = (
    "DEBATE_CHANNEL_IDS is empty: the bot watches no channel (set the ids of the channels "
    "to watch, comma-separated: Developer Mode on, then right-click a channel > Copy Channel ID)"
)


async def check_discord(settings: Settings) -> Check:
    """Log in over REST (no gateway), read the application, and each watched channel."""
    if settings.DISCORD_TOKEN is None:
        empty = "" if settings.DEBATE_CHANNEL_IDS else "; DEBATE_CHANNEL_IDS is empty too"
        return Check(PART, Status.MISSING, f"DISCORD_TOKEN is not set{empty}")
    wanted = {f"DEBATE_CHANNEL_IDS {cid}": cid for cid in settings.DEBATE_CHANNEL_IDS}
    if settings.AG_RELAY_CHANNEL_ID is not None:
        wanted[f"AG_RELAY_CHANNEL_ID {settings.AG_RELAY_CHANNEL_ID}"] = settings.AG_RELAY_CHANNEL_ID
    client = discord.Client(intents=discord.Intents(guilds=True))  # REST only: no gateway
    try:
        async with asyncio.timeout(TIMEOUT_S):
            await client.login(settings.DISCORD_TOKEN.get_secret_value())
            app = await client.application_info()
            problems = [
                f"{name}: {problem}"
                for name, cid in wanted.items()
                if (problem := await _channel_problem(client, cid))
            ]
    except discord.LoginFailure:
        return Check(PART, Status.FAILING, "Discord refused the token (DISCORD_TOKEN)")
    except (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError) as exc:
        return Check(PART, Status.FAILING, f"cannot reach Discord: {one_line(exc)}")
    finally:
        await client.close()
    if not settings.DEBATE_CHANNEL_IDS:
        problems.append(NO_CHANNELS)
    return _verdict(str(app.name), app, problems, len(wanted))


def _verdict(name: str, app: discord.AppInfo, problems: list[str], channels: int) -> Check:
    invite = (f"invite: {invite_url(app.id)}",)
    flags = app.flags
    if not (flags.gateway_message_content or flags.gateway_message_content_limited):
        problems = [INTENT_HINT, *problems]
    if problems:
        detail = f"logged in as {name}; " + "; ".join(problems)
        return Check(PART, Status.FAILING, detail, invite)
    detail = f"logged in as {name}; Message Content on; every permission in {channels} channel(s)"
    return Check(PART, Status.OK, detail, invite)


async def _channel_problem(client: discord.Client, channel_id: int) -> str:
    """What keeps the bot from working in this channel ("" if nothing)."""
    try:
        channel: dict[str, Any] = dict(await client.http.get_channel(channel_id))
    except (discord.NotFound, discord.Forbidden):
        return "cannot see it (wrong id, or the bot is not allowed in)"
    guild_id = channel.get("guild_id")
    if guild_id is None or client.user is None:
        return "not a server channel"
    roles: list[Any] = await client.http.get_roles(int(guild_id))
    member: dict[str, Any] = dict(await client.http.get_member(int(guild_id), client.user.id))
    granted = channel_permissions(roles, member, channel, int(guild_id))
    missing = missing_names(granted)
    return f"missing {', '.join(missing)}" if missing else ""
