"""`debate-room doctor`'s Discord line: the token logs in, the configured channels are visible."""

from __future__ import annotations

import asyncio

import aiohttp
import discord

from bot.settings import Settings
from tools.checks import Check, Status

PART = "discord"
TIMEOUT_S = 20.0


async def check_discord(settings: Settings) -> Check:
    """Log in over REST (no gateway) and fetch every watched channel and the relay channel."""
    if settings.DISCORD_TOKEN is None:
        return Check(PART, Status.MISSING, "DISCORD_TOKEN is not set")
    wanted = {f"DEBATE_CHANNEL_IDS {cid}": cid for cid in settings.DEBATE_CHANNEL_IDS}
    if settings.AG_RELAY_CHANNEL_ID is not None:
        wanted[f"AG_RELAY_CHANNEL_ID {settings.AG_RELAY_CHANNEL_ID}"] = settings.AG_RELAY_CHANNEL_ID
    client = discord.Client(intents=discord.Intents(guilds=True))  # REST only: no gateway
    try:
        async with asyncio.timeout(TIMEOUT_S):
            await client.login(settings.DISCORD_TOKEN.get_secret_value())
            user = client.user
            hidden = [name for name, cid in wanted.items() if not await _visible(client, cid)]
    except discord.LoginFailure:
        return Check(PART, Status.FAILING, "Discord refused the token (DISCORD_TOKEN)")
    except (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError) as exc:
        return Check(PART, Status.FAILING, f"cannot reach Discord: {type(exc).__name__} {exc}")
    finally:
        await client.close()
    if hidden:
        return Check(PART, Status.FAILING, f"logged in as {user}; cannot see {', '.join(hidden)}")
    if not wanted:
        return Check(PART, Status.OK, f"logged in as {user}; DEBATE_CHANNEL_IDS is empty")
    return Check(PART, Status.OK, f"logged in as {user}; sees {len(wanted)} channel(s)")


async def _visible(client: discord.Client, channel_id: int) -> bool:
    """True if the bot can see the channel (404 unknown, 403 missing access: not)."""
    try:
        channel = await client.fetch_channel(channel_id)
    except (discord.NotFound, discord.Forbidden):
        return False
    return isinstance(channel, discord.abc.Messageable)
