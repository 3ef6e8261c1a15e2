"""Once AG's reply is in the thread as its embed, the relay traffic leaves the thread.

With the relay in the debate thread (AG_RELAY_CHANNEL_ID unset) the prompt repeats the other
debater's reply and AG's raw messages sit beside the green embed: each reply would show two or
three times. So once an AG turn is stored (its raw record keeps all AG sent) and posted, its
prompt parts and AG's messages go in one bulk delete; a crash never loses a reply, and a repeated
PostTurn tidies again. A relay channel of its own is left as a log. Deleting AG's messages needs
Manage Messages; without it only the bot's own prompt goes and the log says why.
"""

from __future__ import annotations

import json
import logging

import aiohttp
import discord

from handlers.core.model import Turn
from tools.store.room_messages import RoomMessages

log = logging.getLogger(__name__)

BULK_LIMIT = 100  # Discord's bulk delete takes 2 to 100 messages (younger than 14 days)


async def clear_relay(
    client: discord.Client, messages: RoomMessages, turn: Turn, *, relayed: bool = True
) -> None:
    """Delete a `relayed` turn's prompt and AG's messages in the thread; a failure only logs."""
    if not relayed:
        return
    done_key = f"tidied:{turn.number}"  # not `relay:*`: the relay reads those keys as its own
    rows = await messages.matching(
        turn.debate_id, f"relay:{turn.number}", keys=("thread", done_key)
    )
    found = {key: channel_id for key, channel_id, _ in rows}
    thread_id = found.get("thread")
    if thread_id is None or done_key in found:
        return
    relayed_rows = [row for row in rows if row[0].startswith("relay:")]
    prompts = {message_id for key, _, message_id in relayed_rows if _prompt_part(key, turn)}
    if not prompts or any(channel_id != thread_id for _, channel_id, _ in relayed_rows):
        return  # the relay has a channel of its own: leave it as the log of the traffic
    channel = client.get_channel(thread_id)
    if channel is None:
        try:
            channel = await client.fetch_channel(thread_id)
        except (discord.HTTPException, aiohttp.ClientError, OSError) as exc:
            log.warning("relay: cannot reach the thread %s to tidy it: %s", thread_id, exc)
            return
    if not isinstance(channel, discord.Thread | discord.TextChannel):
        return
    theirs = _ag_message_ids(turn.raw)
    if await _delete(channel, sorted(prompts), theirs):
        await messages.add(turn.debate_id, done_key, (thread_id, 0, ""))


def _prompt_part(key: str, turn: Turn) -> bool:
    """`relay:{turn}[#n]` or `relay:{turn}[#n]:{part}`: a posted prompt message of this turn."""
    head, _, part = key.removeprefix("relay:").partition(":")
    return head.partition("#")[0] == str(turn.number) and (not part or part.isdigit())


def _ag_message_ids(raw: str) -> list[int]:
    """The ids of AG's messages, from the turn's raw record (see bot.discord.ag.reply)."""
    try:
        record = json.loads(raw)
        return [int(message["id"]) for message in record.get("messages", [])]
    except (ValueError, TypeError, KeyError, AttributeError):
        return []


async def _delete(
    channel: discord.Thread | discord.TextChannel, own: list[int], theirs: list[int]
) -> bool:
    """True once everything is gone (or was gone already)."""
    everything = [discord.Object(mid) for mid in (*own, *theirs)]
    try:
        for start in range(0, len(everything), BULK_LIMIT):
            await channel.delete_messages(everything[start : start + BULK_LIMIT])
    except discord.Forbidden:
        log.warning("relay: Manage Messages is missing in %s: AG's messages stay", channel.id)
        await _one_by_one(channel, own)
        return False
    except discord.NotFound:  # a repeat after a crash: some are gone already
        return await _one_by_one(channel, [*own, *theirs])
    except (discord.HTTPException, aiohttp.ClientError, OSError) as exc:
        log.warning("relay: could not clear the prompt and AG's messages: %s", exc)
        return False
    return True


async def _one_by_one(channel: discord.Thread | discord.TextChannel, ids: list[int]) -> bool:
    for message_id in ids:
        try:
            await channel.get_partial_message(message_id).delete()
        except discord.NotFound:
            continue
        except (discord.HTTPException, aiohttp.ClientError, OSError) as exc:
            log.warning("relay: could not delete message %s: %s", message_id, exc)
            return False
    return True
