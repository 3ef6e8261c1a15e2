"""The Discord client: intents, persistent buttons, and the hand-off of every event."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.views import DYNAMIC_ITEMS
from handlers.store_ports import StoreUnavailable

if TYPE_CHECKING:
    from bot.discord.front import DiscordFront

log = logging.getLogger(__name__)


def intents() -> discord.Intents:
    """Guilds, guild messages and message content (a privileged intent to enable)."""
    return discord.Intents(guilds=True, guild_messages=True, message_content=True)


class _Commands(app_commands.CommandTree["DebateBot"]):
    """The approvers' `/debate` commands, answered by one gateway process of several."""

    async def interaction_check(self, interaction: discord.Interaction[DebateBot], /) -> bool:
        """False (no answer from here) when another gateway process answers the command."""
        try:
            return await self.client.front.handles(interaction)
        except Exception as exc:  # a boundary: discord.py would only log it, with no reply
            await self.on_error(interaction, exc)  # type: ignore[arg-type]  # the commands' handler takes any error
            return False


class DebateBot(commands.Bot):
    """The bot; every part it uses is built by the composition root and handed in."""

    def __init__(
        self,
        *,
        on_ready_hook: Callable[[DebateBot], Awaitable[None]],
        on_close_hook: Callable[[], Awaitable[None]],
        **options: Any,
    ) -> None:
        # Nobody is pinged unless a send says so (the AG relay names its AG accounts).
        options.setdefault("allowed_mentions", discord.AllowedMentions.none())
        # Nothing is read from discord.py's message cache (an edit arrives whole, as a raw
        # event), so none is kept: no copy of every message, and no search of 1,000 of them
        # on each edit the gateway reports (most are the bot's own).
        options.setdefault("max_messages", None)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(),
            help_command=None,
            tree_cls=_Commands,
            **options,
        )
        self._on_ready_hook = on_ready_hook
        self._on_close_hook = on_close_hook
        self._closing = False
        self._synced: set[int] = set()  # servers whose commands are registered
        self.front: DiscordFront
        self.message_listeners: list[Callable[[discord.Message], Awaitable[None]]] = []
        self.edit_listeners: list[Callable[[discord.Message], Awaitable[None]]] = []
        self.guild_listeners: list[Callable[[discord.Guild], Awaitable[None]]] = []

    async def setup_hook(self) -> None:
        """Buttons first, so clicks on old cards work from the first event on."""
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        await self._on_ready_hook(self)

    async def on_message(self, message: discord.Message) -> None:
        """Every message goes to the AG relay's listeners and to the front end."""
        if self._closing:
            return  # the database is closing: the message stays in Discord's history
        try:
            for listener in self.message_listeners:
                await listener(message)
            if self.user is not None:
                await self.front.on_message(message, self.user.id)
        except StoreUnavailable as exc:  # one line, not a traceback per message
            log.warning("message %s not handled: %s", message.id, exc)

    async def on_raw_message_edit(self, payload: discord.RawMessageUpdateEvent) -> None:
        """An edited message goes to the AG relay (AG may correct its reply), seen before or not."""
        if self._closing:
            return
        for listener in self.edit_listeners:
            await listener(payload.message)

    async def on_guild_available(self, guild: discord.Guild) -> None:
        """A server seen goes to the guild listeners (they claim its debates stored without
        one); the approvers' `/debate` commands are registered in it once per process."""
        try:
            for listener in self.guild_listeners:
                await listener(guild)
        except StoreUnavailable as exc:  # the next time the server is seen tries again
            log.warning(
                "server %s: its debates stored without a server not claimed: %s", guild.id, exc
            )
        if guild.id in self._synced or not self.tree.get_commands():
            return
        self._synced.add(guild.id)
        self.tree.copy_global_to(guild=guild)
        try:
            await self.tree.sync(guild=guild)
        except discord.HTTPException as exc:  # e.g. invited without the applications.commands scope
            log.warning("the /debate commands are not registered in server %s: %s", guild.id, exc)

    on_guild_join = on_guild_available

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Every interaction also reaches the front end (it reads forms sent after a restart)."""
        if not self._closing:
            await self.front.on_interaction(interaction)

    async def close(self) -> None:
        """Stop the engine's workers and close what the composition root opened (once)."""
        if not self._closing:
            self._closing = True
            await self._on_close_hook()
        await super().close()
