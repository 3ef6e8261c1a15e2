"""After AG's turn is taken, the relay traffic leaves the debate thread.

With the relay in the thread (AG_RELAY_CHANNEL_ID unset), the prompt repeats the other
debater's whole reply and AG's raw messages sit beside the green embed the room posts: each
reply would show two or three times. Once the reply is assembled (its every message and file
kept in the turn's raw record), the prompt and AG's messages are deleted, so the thread reads
as the debate: each reply once, as its embed. Deleting AG's messages needs Manage Messages;
without it only the bot's own prompt goes and the log says why.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

import aiohttp
import discord

log = logging.getLogger(__name__)

BULK_LIMIT = 100  # Discord's bulk delete takes at most 100 messages (younger than 14 days)


async def tidy_relay(
    channel: discord.TextChannel | discord.Thread,
    prompt_ids: Iterable[int],
    taken: Iterable[discord.Message],
) -> None:
    """Delete the turn's prompt parts and AG's messages; a failure only logs (the turn stands)."""
    own = [channel.get_partial_message(mid) for mid in sorted(prompt_ids)]
    theirs = [channel.get_partial_message(m.id) for m in taken]
    try:
        for start in range(0, len(own) + len(theirs), BULK_LIMIT):
            await channel.delete_messages([*own, *theirs][start : start + BULK_LIMIT])
    except discord.Forbidden:
        log.warning(
            "relay: Manage Messages is missing in %s: AG's messages stay beside the reply",
            channel.id,
        )
        await _one_by_one(own)
    except (discord.HTTPException, aiohttp.ClientError, OSError) as exc:
        log.warning("relay: could not clear the prompt and AG's messages: %s", exc)


async def _one_by_one(messages: list[discord.PartialMessage]) -> None:
    """The bot's own messages, which it may always delete."""
    for message in messages:
        try:
            await message.delete()
        except discord.NotFound:
            continue
        except (discord.HTTPException, aiohttp.ClientError, OSError) as exc:
            log.warning("relay: could not delete the prompt %s: %s", message.id, exc)
            return
