"""`/debate` for approvers: list, status, stop, export, config and stats, each answered
privately, each about the server it is run in only.

The group is added to the client's command tree here and registered per server as each one
becomes available (`DebateBot.on_guild_available`): a server's commands appear at once, where
global ones take up to an hour.

A debate belongs to the server it was proposed in (the `guild_id` its row records). One of
another server is answered exactly as an unknown number, so its existence is not told. A row
stored before debates recorded their server belongs to the server whose channel holds it: that
server is given it when the bot next sees the server (`claim`); one whose channel is in no
server the bot is in belongs to nobody here (the console still shows it).
"""

from __future__ import annotations

import io
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any, Literal

import discord
from discord import app_commands

from bot.admin import AdminReads, config_text, debate_line, debate_lines, open_debates
from bot.discord.failures import failure_text
from bot.discord.front import _private as private
from bot.formatting import discord_time, page_links, status_line
from bot.stats import SeatReads, seat_stats
from handlers.core.events import StopRequested
from handlers.core.i18n import Strings
from handlers.core.model import Actor, Debate, Participant
from handlers.core.server_config import (
    PROBLEM_PARAMS,
    ServerConfig,
    config_problem,
    given_threshold,
)
from handlers.debate_handler import Engine
from handlers.ports import Clock
from tools.store.room_messages import RoomMessages
from tools.store.server_settings import ServerSettings
from tools.wiki.adr import adr_file, adr_name
from tools.wiki.export import export_file, export_name

Scope = Literal["server", "channel"]
Language = Literal["ko", "en", "pt-BR"]
log = logging.getLogger(__name__)
# What a command says, given the interaction and the server it is run in.
Answer = Callable[[discord.Interaction[Any], int], Awaitable[str | tuple[str, discord.File]]]
DISCORD_CHANNEL = "https://discord.com/channels/{guild}/{channel}"


class AdminCommands:
    """What the commands do; who may run them is checked once, in `_answer`."""

    def __init__(
        self,
        engine: Engine,
        reads: AdminReads,
        rooms: RoomMessages,
        configs: ServerSettings,
        strings: Strings,
        clock: Clock,
        *,
        actor: Callable[[discord.User | discord.Member], Actor],
        roster: tuple[Participant, ...],
        records: SeatReads,
        page_url: Callable[[Debate, str], str] | None = None,
    ) -> None:
        self._engine, self._strings, self._clock = engine, strings, clock
        self._store, self._rooms, self._configs = reads, rooms, configs
        self._actor = actor  # the buttons' rule of who is an approver (DiscordFront.actor)
        self._roster = roster  # PARTICIPANTS: what a server's format is checked against
        self._records = records  # `/debate stats`'s read side
        self._page_url = page_url  # where a debate's wiki page is read (the ADR links it)

    def group(self) -> app_commands.Group:
        """`/debate list|status|stop|export|config`, described in the bot's language."""
        t = self._strings
        group = app_commands.Group(name="debate", description=t("admin.group"), guild_only=True)
        for name, callback in self._callbacks().items():
            group.add_command(
                app_commands.Command(
                    name=name, description=t(f"admin.cmd_{name}"), callback=callback
                )
            )
        return group

    def _callbacks(self) -> dict[str, Any]:
        """The commands' callbacks (discord.py reads their options from the signatures)."""
        t, answer = self._strings, self._answer

        @app_commands.describe(page=t("admin.param_page"))
        async def list_(
            interaction: discord.Interaction[Any], page: app_commands.Range[int, 1] = 1
        ) -> None:
            await answer(interaction, lambda _, guild: self._list(guild, page))

        @app_commands.describe(debate=t("admin.param_debate"))
        async def status(interaction: discord.Interaction[Any], debate: int) -> None:
            await answer(interaction, lambda _, guild: self._status(guild, debate))

        @app_commands.describe(debate=t("admin.param_debate"))
        async def stop(interaction: discord.Interaction[Any], debate: int) -> None:
            await answer(interaction, lambda i, guild: self._stop(i, guild, debate))

        @app_commands.describe(debate=t("admin.param_debate"), form=t("adr.param_form"))
        @app_commands.choices(
            form=[
                app_commands.Choice(name=t("adr.form_transcript"), value="transcript"),
                app_commands.Choice(name=t("adr.form_adr"), value="adr"),
            ]
        )
        async def export(
            interaction: discord.Interaction[Any], debate: int, form: str = "transcript"
        ) -> None:
            await answer(interaction, lambda _, guild: self._export(guild, debate, form))

        @app_commands.describe(
            **{p: t(f"admin.param_{p}") for p in ServerConfig.__dataclass_fields__}
            | {"scope": t("admin.param_scope")}
        )
        async def config(
            interaction: discord.Interaction[Any],
            scope: Scope = "server",
            language: Language | None = None,
            format: str | None = None,  # the option's name people see
            rounds: int | None = None,
            roster: str | None = None,
            threshold: str | None = None,  # text: "0,7" reads, and "1.5" gets its words
        ) -> None:
            chosen = given_threshold(threshold or "")
            given = ServerConfig(language or "", format or "", rounds or 0, roster or "", chosen)
            await answer(interaction, lambda i, guild: self._config(i, guild, scope, given))

        @app_commands.describe(days=t("stats.param_days"))
        async def stats(
            interaction: discord.Interaction[Any], days: app_commands.Range[int, 1] | None = None
        ) -> None:
            await answer(interaction, lambda i, guild: self._stats(i, guild, days or 0))

        return {
            "list": list_,
            "status": status,
            "stop": stop,
            "export": export,
            "config": config,
            "stats": stats,
        }

    async def claim(self, guild: discord.Guild) -> None:
        """Give `guild` the debates stored before debates recorded their server that were
        proposed in one of its channels (once it is seen: the next look finds none)."""
        claimed = await self._store.claim_unrecorded(guild.id, (c.id for c in guild.channels))
        if claimed:
            log.info("server %s claimed the debates of %d of its channels", guild.id, claimed)

    async def _answer(self, interaction: discord.Interaction[Any], make: Answer) -> None:
        """Refuse anyone but an approver (the role, as on the buttons, or Manage Server) in a
        server; else say `make`'s text (or hand over its file)."""
        approver = self._actor(interaction.user).is_approver or interaction.permissions.manage_guild
        guild_id = interaction.guild_id
        if guild_id is None or not approver:
            await private(interaction, self._strings("admin.refused"))
            return
        said = await make(interaction, guild_id)  # what goes wrong: `on_error`
        if isinstance(said, tuple):
            text, file = said
            await private(interaction, text, file=file)
        else:
            await private(interaction, said)

    async def on_error(self, interaction: discord.Interaction[Any], error: Exception) -> None:
        """The slash commands' one error handler (the command tree's): a failed command's
        short private reply."""
        cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        await private(interaction, failure_text(cause, self._strings, "command"))

    async def _list(self, guild_id: int, page: int) -> str:
        debates = await open_debates(self._store, guild_id)
        links = [await self._link(d) for d in debates]
        return debate_lines(
            debates, self._strings, self._status_line, links, page=page, command=_list_page
        )

    async def _status(self, guild_id: int, debate_id: int) -> str:
        debate = await self._store.load_in(debate_id, guild_id)
        config = await self._configs.lookup(guild_id, debate.proposal.channel_id)
        scope = self._strings("admin.scope_channel")
        settings = config_text(config, self._strings, "admin.config_title", scope)
        line = debate_line(debate, self._strings, self._status_line, await self._link(debate))
        spoken = self._strings.of(debate).language
        return f"{line}\n{settings}\n{self._strings('admin.debate_language', language=spoken)}"

    async def _stop(
        self, interaction: discord.Interaction[Any], guild_id: int, debate_id: int
    ) -> str:
        await self._store.load_in(debate_id, guild_id)  # another server's: no such debate
        actor = replace(self._actor(interaction.user), is_approver=True)  # or Manage Server
        done = await self._engine.submit(debate_id, StopRequested(actor))
        return self._strings("admin.stopped" if done.taken else "admin.not_stopped", id=debate_id)

    async def _export(self, guild_id: int, debate_id: int, form: str) -> tuple[str, discord.File]:
        """The debate's one-file transcript (tools/wiki/export.py), as far as it has gone, or
        its decision as an ADR (tools/wiki/adr.py) linking its pages and thread."""
        debate = await self._store.load_in(debate_id, guild_id)
        turns = await self._store.last_turns(debate_id, debate.stored_turns)
        t = self._strings.of(debate)
        if form != "adr":
            markdown = await export_file(debate, turns, t)
            file = discord.File(io.BytesIO(markdown), filename=export_name(debate))
            return self._strings("export.attached"), file
        page_url = self._page_url
        links = page_links(t, debate, lambda page: page_url(debate, page)) if page_url else ()
        thread = await self._rooms.thread_of(debate.id)
        where = DISCORD_CHANNEL.format(guild=guild_id, channel=thread) if thread else ""
        adr = await adr_file(debate, turns, t, links=links, thread=where)
        return self._strings("adr.attached"), discord.File(
            io.BytesIO(adr), filename=adr_name(debate)
        )

    async def _config(
        self,
        interaction: discord.Interaction[Any],
        guild_id: int,
        scope: Scope,
        given: ServerConfig,
    ) -> str:
        """Show a scope's settings, or change the given ones (all checked before any is kept)."""
        where = (interaction.channel_id or 0) if scope == "channel" else 0
        words = self._strings(f"admin.scope_{scope}")
        stored = await self._configs.stored(guild_id, where)
        if given == ServerConfig():
            return config_text(stored, self._strings, "admin.config_title", words)
        wanted = given.over(stored)
        under = await self._configs.stored(guild_id) if where else ServerConfig()
        problem = config_problem(wanted.over(under), self._roster)
        if problem:
            return self._strings(problem, **PROBLEM_PARAMS)
        await self._configs.store(guild_id, where, wanted)
        return config_text(wanted, self._strings, "admin.config_saved", words)

    async def _stats(self, interaction: discord.Interaction[Any], guild_id: int, days: int) -> str:
        """Each seat's record over this server's debates (of the last `days` days, or all).
        Answered "thinking" first: a server's thousand debates take longer to read than
        Discord waits for a first answer (bench/seat_stats.py)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        return await seat_stats(self._records, guild_id, days, self._clock.now(), self._strings)

    def _status_line(self, debate: Debate) -> str:
        return status_line(debate, self._strings, self._clock.now(), discord_time)

    async def _link(self, debate: Debate) -> str:
        """The debate's thread (a card still waiting: its channel), as Discord links it."""
        thread = await self._rooms.thread_of(debate.id)
        return f"<#{thread or debate.proposal.channel_id}>"


def _list_page(page: int) -> str:
    """The command that shows page `page` of the list."""
    return f"`/debate list page:{page}`"
