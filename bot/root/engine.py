"""The engine's part of the composition root: what builds the product's parts from the settings.

The Discord bot, the console and the demo each call it with their own room and seats; the
engine (`DebateHandler`) is constructed here and nowhere else.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Generic, TypeVar

from bot.root.tables import Tables
from bot.root.timers import TimerDriver
from bot.settings import Settings, SettingsError, fallback_models
from handlers.core.formats import format_named, formats_for
from handlers.core.i18n import Strings
from handlers.core.model import AG, CLAUDE, GEMINI, Backend, Debate
from handlers.core.wiki.events import WikiReported
from handlers.debate_handler import DebateHandler, HandlerConfig
from handlers.detection import DetectionHandler, DetectionLimits
from handlers.ports import Clock, Debater, DecisionScorer, GatewayClaims, Moderator, Room
from handlers.prompting import participant_system_prompt
from handlers.rules_moderator import RulesModerator
from tools.claude.debater import ClaudeCodeDebater
from tools.gemini.cli_debater import GeminiCliDebater
from tools.gemini.core import Backend as GeminiBackend
from tools.gemini.core import GeminiModerator, Sleep
from tools.store.debates import SqliteStore
from tools.store.leases import Leases
from tools.store.server_settings import ServerSettings
from tools.wiki.backends import LocalWiki, WikiBackend
from tools.wiki.outbox import WikiOutbox
from tools.wiki.precedents import precedents_for
from tools.wiki.wikijs import WikiJsWiki

if TYPE_CHECKING:  # google-genai loads only with MODERATOR_BACKEND=api
    from tools.gemini.decisions import GeminiDecisionScorer

R = TypeVar("R", bound=Room)


class SystemClock:
    """The wall clock; waits scaled by RETRY_WAIT_SCALE (0 in tests turns them off)."""

    def __init__(self, scale: float = 1.0) -> None:
        self._scale = scale

    def now(self) -> datetime:
        """Now, in UTC."""
        return datetime.now(UTC)

    async def sleep(self, seconds: float) -> None:
        """Wait `seconds` times the scale."""
        await asyncio.sleep(max(0.0, seconds * self._scale))


def handler_config(settings: Settings) -> HandlerConfig:
    """The engine's limits as the settings give them."""
    return HandlerConfig(
        language=settings.LANGUAGE,
        max_rounds=settings.MAX_ROUNDS,
        proposal_ttl=timedelta(minutes=settings.PROPOSAL_TTL_MINUTES),
        roster=settings.roster,
        format=settings.DEFAULT_FORMAT,
        budget_pause=settings.BUDGET_PAUSE,
        poll_hours=settings.POLL_HOURS,
        budget_usd=settings.BUDGET_USD,
        archive_hours=settings.ARCHIVE_AFTER_HOURS,
        format_options=settings.format_options,
    )


def wanted_backends(settings: Settings) -> set[Backend]:
    """The backends PARTICIPANTS uses, and those of the seats a format the card offers adds."""
    wanted = {member.backend for member in settings.roster}
    for name in formats_for(settings.roster):
        wanted |= {m.backend for m in format_named(name).seats_added(settings.format_options)}
    return wanted


def build_moderator(settings: Settings, tables: Tables, sleep: Sleep) -> GeminiModerator:
    """The configured moderator (API or CLI backend); retry waits scaled by RETRY_WAIT_SCALE."""
    scale = settings.RETRY_WAIT_SCALE

    async def scaled_sleep(seconds: float) -> None:
        await sleep(seconds * scale)

    rules = RulesModerator(Strings(settings.LANGUAGE))
    model, timeout_s = settings.GEMINI_MODEL, settings.GEMINI_TIMEOUT_SECONDS
    backend: GeminiBackend
    if settings.MODERATOR_BACKEND == "cli":
        from tools.gemini.cli_moderator import GeminiCliBackend  # noqa: PLC0415  # loaded only with MODERATOR_BACKEND=cli

        workdir = Path(settings.DATA_DIR) / "gemini-cli"
        backend = GeminiCliBackend(settings.GEMINI_CLI_BIN, model, workdir, timeout_s)
    else:
        key = settings.GEMINI_API_KEY
        if key is None:
            raise SettingsError("GEMINI_API_KEY is not set (needed with MODERATOR_BACKEND=api)")
        # google-genai loads only when the API backend is chosen (the console starts faster).
        from tools.gemini.api import GeminiApiBackend, make_client  # noqa: PLC0415  # loaded only with MODERATOR_BACKEND=api

        client = make_client(key.get_secret_value(), timeout_s)
        backend = GeminiApiBackend(client, model, timeout_s)
    return GeminiModerator(
        backend,
        tables.quota(settings.GEMINI_DAILY_REQUEST_BUDGET),
        language=settings.LANGUAGE,
        sleep=scaled_sleep,
        rules=rules,
        members=settings.roster,
    )


def build_scorer(settings: Settings, tables: Tables) -> GeminiDecisionScorer | None:
    """Detection's calibrated probability from the Gemini Decisions API (with the api backend,
    its key, and DETECT_DECISION_MODEL set); None: the moderator's own score serves."""
    key, model = settings.GEMINI_API_KEY, settings.DETECT_DECISION_MODEL.strip()
    if settings.MODERATOR_BACKEND != "api" or key is None or not model:
        return None
    from tools.gemini.decisions import GeminiDecisionScorer, make_decisions_client  # noqa: PLC0415  # loaded only with MODERATOR_BACKEND=api

    timeout_s = settings.GEMINI_TIMEOUT_SECONDS
    client = make_decisions_client(key.get_secret_value(), timeout_s)
    quota = tables.quota(settings.GEMINI_DAILY_REQUEST_BUDGET)
    return GeminiDecisionScorer(client, model, quota, timeout_s)


def build_wiki_backend(settings: Settings) -> WikiBackend:
    """Wiki.js when WIKIJS_URL is set, else the local Markdown folder."""
    if settings.WIKIJS_URL:
        key = settings.WIKIJS_API_KEY.get_secret_value() if settings.WIKIJS_API_KEY else None
        return WikiJsWiki(settings.WIKIJS_URL, key, public_url=settings.WIKI_PUBLIC_URL)
    return LocalWiki(settings.LOCAL_WIKI_DIR)


def gemini_cli_debater(
    settings: Settings, tables: Tables, model: str, workdir_root: Path, participant: str = AG
) -> GeminiCliDebater:
    """A seat on the Gemini CLI; `participant` names the sessions of requests that carry none."""
    return GeminiCliDebater(
        tables.sessions(participant),
        binary=settings.GEMINI_CLI_BIN,
        system_prompt=participant_system_prompt(settings.LANGUAGE),
        model=model,
        timeout_s=settings.AG_TIMEOUT_SECONDS,
        workdir_root=workdir_root,
        participant=participant,
    )


def cli_debater(backend: Backend, settings: Settings, tables: Tables, root: Path) -> Debater:
    """The Claude (read-only tools, resumed per debate) or the Gemini CLI's seat, its working
    folders under `root`."""
    if backend is Backend.CLAUDE_CLI:
        return ClaudeCodeDebater(
            tables.sessions(CLAUDE),
            binary=settings.CLAUDE_BIN,
            system_prompt=participant_system_prompt(settings.LANGUAGE),
            model=settings.CLAUDE_MODEL,
            tools=settings.CLAUDE_TOOLS,
            timeout_s=settings.CLAUDE_TIMEOUT_SECONDS,
            max_retries=settings.CLAUDE_CODE_MAX_RETRIES,
            max_concurrency=settings.CLAUDE_MAX_CONCURRENCY,
            workdir_root=root,
            workdir=settings.CLAUDE_WORKDIR,
            keep_api_key=settings.CLAUDE_KEEP_API_KEY,
            fallback_models=fallback_models(settings.CLAUDE_FALLBACK_MODEL),
            structured=settings.CLAUDE_STRUCTURED_OUTPUT,
        )
    model = settings.GEMINI_DEBATER_MODEL
    return gemini_cli_debater(settings, tables, model, root / "gemini-cli", participant=GEMINI)


@dataclass
class Engine(Generic[R]):
    """The engine and the parts it owns: the tables of one database, store, wiki outbox, room
    and the timer driver (started by whoever runs the engine)."""

    tables: Tables
    store: SqliteStore
    wiki: WikiOutbox
    room: R
    handler: DebateHandler
    timers: TimerDriver

    async def fire_due(self) -> list[int]:
        """What the timer driver fires: the cards past their expiry, then the timers due."""
        return [*await self.handler.expire_due(), *await self.handler.fire_due_timers()]


def build_engine(
    tables: Tables,
    *,
    strings: Strings,
    backend: WikiBackend,
    wiki_root: str,
    room: R,
    moderator: Moderator,
    debaters: Mapping[Backend, Debater],
    clock: Clock,
    rng: random.Random | None,
    config: HandlerConfig,
    leases: Leases | None = None,
    timer_safety_s: float | None = None,
) -> Engine[R]:
    """The store, wiki outbox, engine and its timer driver; with `leases`, it acts only on the
    debates it holds, and the driver re-reads the timers every `timer_safety_s` (a debate
    claimed from another process comes with its timers)."""
    engine: list[Engine[R]] = []

    async def notify(debate_id: int, news: WikiReported) -> None:
        if engine:  # the engine turns it into the thread's notice, in order with the rest
            await engine[0].handler.submit(debate_id, news)

    async def debate_of(debate_id: int) -> Debate:
        return await engine[0].handler.get(debate_id)

    wiki = WikiOutbox(
        *tables.outbox(),
        backend,
        root=wiki_root,
        strings=strings,
        notify=notify,
        sleep=clock.sleep,
        owns=leases.holds if leases else None,
        debate_of=debate_of,
    )
    store = tables.store(leases)
    timers = TimerDriver(store, clock, cards=store, safety_s=timer_safety_s)
    ports = timers.watching(store.ports())
    order = rng or random.Random()  # noqa: S311  # the speaking order, not a secret
    handler = DebateHandler(
        ports,
        moderator,
        dict(debaters),
        wiki,
        room,
        clock,
        order,
        config,
        precedents=precedents_for(backend, wiki_root),
        guard=leases,
        server_configs=tables.server_settings(),
    )
    engine.append(Engine(tables, store, wiki, room, handler, timers))
    return engine[0]


def detection_limits(settings: Settings) -> DetectionLimits:
    """The detection limits as the settings give them."""
    return DetectionLimits(
        settings.DETECT_COOLDOWN_SECONDS,
        settings.DETECT_MIN_NEW_MESSAGES,
        settings.DETECT_MIN_CONFIDENCE,
    )


def build_detection(
    moderator: Moderator,
    store: SqliteStore,
    clock: Clock,
    *,
    channels: Iterable[int],
    bot_user_id: int,
    limits: DetectionLimits,
    configs: ServerSettings | None = None,
    claims: GatewayClaims | None = None,
    scorer: DecisionScorer | None = None,
) -> DetectionHandler:
    """Detection in the watched channels; a topic already open there is not proposed again;
    the card worded in the language `configs` hold for the server or channel, if any, and
    posted only at or above the threshold they hold (else `limits`'); the probability from
    `scorer` when there is one; with several gateway processes, asked by the one that
    `claims` the message."""

    async def has_open_topic(channel_id: int, topic: str) -> bool:
        return topic.casefold() in {t.casefold() for t in await store.open_topics(channel_id)}

    async def language_of(guild_id: int, channel_id: int) -> str:
        return (await configs.lookup(guild_id, channel_id)).language if configs else ""

    async def threshold_of(guild_id: int, channel_id: int) -> float | None:
        if configs is None:
            return None
        return (await configs.lookup(guild_id, channel_id)).detection_threshold()

    return DetectionHandler(
        moderator,
        channels=channels,
        bot_user_id=bot_user_id,
        limits=limits,
        clock=clock,
        has_open_topic=has_open_topic,
        language_of=language_of,
        claims=claims,
        scorer=scorer,
        threshold_of=threshold_of,
    )
