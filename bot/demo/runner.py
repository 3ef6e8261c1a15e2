"""`debate-room demo`: a recorded debate through the real engine, store, wiki outbox and renderer.

Only the debaters and the moderator are replayed; detection, the state machine, SQLite, the
wiki outbox with the local Markdown wiki and the console room are the product's own. Needs
no settings, no `.env`, no keys and no network.
"""

from __future__ import annotations

import asyncio
import math
import os
import random
import shutil
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from rich.console import Console
from rich.text import Text

from bot.console.app import CONSOLE_CHANNEL
from bot.console.room import ConsoleRoom
from bot.console.room.out import MODERATOR_GREY, USER_AMBER, ConsoleOut
from bot.console.seats import People
from bot.demo.replay import (
    Recording,
    RecordingError,
    ReplayClock,
    ReplayDebater,
    ReplayModerator,
    load_recording,
    recording_for,
)
from bot.formatting import page_label, page_links
from bot.root.engine import build_detection, build_engine
from bot.root.tables import Tables
from handlers.core.events import Event, ProposalApproved, UserAnswered
from handlers.core.formats import format_named
from handlers.core.i18n import Strings
from handlers.core.model import ChatLine, Debate, Phase, Proposal, Turn
from handlers.debate_handler import HandlerConfig
from handlers.detection import DetectionLimits
from tools.wiki.adr import adr_markdown
from tools.wiki.backends import LocalWiki
from tools.wiki.export import export_name

DEFAULT_OUT = Path("data") / "demo"
DEFAULT_PACE_S = 0.3
WIKI_ROOT = "debates"
MARKER = ".debate-room-demo"  # only a folder carrying it is ever cleared
DB_NAME = "demo.sqlite3"
ADR_NAME = "adr.md"  # the decision as an Architecture Decision Record, beside the pages


CHAT_GAP_S = 20  # seconds between two replayed chat lines
CARD_S = 60  # the card waiting for its approval


@dataclass(frozen=True)
class DemoResult:
    """Where the replay left its files: each page the debate wrote, by its name."""

    database: Path
    pages: dict[str, Path]
    debate: Debate


def prepare(out: Path) -> tuple[Path, Path]:
    """A clean demo folder: the previous replay's database and pages are removed."""
    wiki_dir = out / "wiki"
    if wiki_dir.exists():
        if not (wiki_dir / MARKER).exists():
            raise RecordingError("demo_not_demo_folder", path=wiki_dir)
        shutil.rmtree(wiki_dir)
    for suffix in ("", "-wal", "-shm"):
        (out / f"{DB_NAME}{suffix}").unlink(missing_ok=True)
    wiki_dir.mkdir(parents=True)
    (wiki_dir / MARKER).write_text("written by `debate-room demo`\n", encoding="utf-8")
    return out / DB_NAME, wiki_dir


async def replay(
    console: Console, out: Path, pace_s: float, recording: Recording | None = None
) -> DemoResult:
    """Play the recording through the engine; return where the pages were written."""
    recording = recording or load_recording()
    db_path, wiki_dir = prepare(out)
    tables = await Tables.open(str(db_path))
    player = _Player(console, recording, tables, LocalWiki(wiki_dir), pace_s, out)
    try:
        await player.wiki.start()
        debate = await player.play()
        await player.wiki.drained(debate.id)
        pages = {
            page: player.local.file_of(player.wiki.path_of(debate, page))
            for page in format_named(debate.setup.format).pages(debate)
        }
        turns = await player.engine.store.last_turns(debate.id, debate.stored_turns)
        adr = _write_adr(out, player.t, debate, turns, pages)
        player.out.line(player.t("adr.written", path=str(adr)), MODERATOR_GREY)
        return DemoResult(db_path.absolute(), pages, debate)
    finally:
        await player.handler.aclose()
        await player.wiki.aclose()
        await tables.close()


class _Player:
    """The real engine with the recorded seats and moderator, and the recorded key presses."""

    def __init__(
        self,
        console: Console,
        recording: Recording,
        tables: Tables,
        local: LocalWiki,
        pace_s: float,
        out: Path,
    ) -> None:
        self.console, self.recording, self.local, self.pace_s = console, recording, local, pace_s
        self.t = Strings(recording.language)
        # The replay ends now: it starts as long ago as the recorded chat and debate took
        # (plus a minute for the card), so no page is stamped in the future.
        lead_in = CHAT_GAP_S * len(recording.chat) + CARD_S
        ago = timedelta(seconds=math.ceil(recording.duration_s()) + lead_in)
        self.clock = ReplayClock(datetime.now(UTC).replace(microsecond=0) - ago)
        self.people = People(recording.approval[0])
        self.moderator = ReplayModerator(recording)
        roster = recording.roster
        config = HandlerConfig(
            language=recording.language,
            max_rounds=recording.max_rounds,
            format=recording.format_name,
            roster=roster,
            format_options=tuple(sorted(recording.options.items())),
        )

        room = ConsoleRoom(
            console,
            self.t,
            self.clock,
            messages=tables.room_messages(),
            names=self.people.names,
            export_dir=out,
        )
        self.out = ConsoleOut(console, self.t)

        self.engine = build_engine(
            tables,
            strings=self.t,
            backend=local,
            wiki_root=WIKI_ROOT,
            room=room,
            moderator=self.moderator,
            debaters={
                member.backend: ReplayDebater(member.backend, recording, self.clock, pace_s)
                for member in roster
            },
            clock=self.clock,
            rng=random.Random(recording.seed),  # noqa: S311  # replays the recorded order
            config=config,
        )
        self.handler, self.wiki = self.engine.handler, self.engine.wiki

    async def play(self) -> Debate:
        """The chat, the card and its key, then the debate with the people's recorded answers."""
        debate = await self.handler.propose(await self._chat())
        if debate is None:
            raise RecordingError("demo_refused")
        while True:
            await self.handler.wait_idle(debate.id)
            debate = await self.handler.get(debate.id)
            if debate.phase.is_terminal:
                return debate
            if debate.phase is Phase.PROPOSED:
                who, key = self.recording.approval
                event: Event = ProposalApproved(self.people.actor_named(who))
            elif debate.phase is Phase.AWAITING_USER:
                who, key = self.recording.answer_after(debate.floor.turns)
                event = UserAnswered(self.people.actor_named(who), key)
            else:
                raise RecordingError("demo_stalled", phase=debate.phase.value)
            await asyncio.sleep(self.pace_s)
            self.out.line(self.t("console.demo_key", user=who, key=key), USER_AMBER)
            await self.handler.submit(debate.id, event)

    async def _chat(self) -> Proposal:
        """The recorded chat through the real detection (pre-filter and all)."""

        chat = self.recording.chat
        # A fresh database: no topic is open yet, so every proposal goes through.
        detection = build_detection(
            self.moderator,
            self.engine.store,
            self.clock,
            channels=(CONSOLE_CHANNEL,),
            bot_user_id=0,
            limits=DetectionLimits(0, len(chat), 0.5),
        )
        title = Text(self.t("console.demo_chat", channel=self.recording.channel))
        self.console.rule(title, style=MODERATOR_GREY)
        proposal = None
        for number, (who, text) in enumerate(chat, start=1):
            self.out.line(f"{who}: {text}", "")
            line = ChatLine(self.people.id_of(who), who, text, self.clock.now(), number)
            proposal = await detection.on_message(CONSOLE_CHANNEL, line, author_is_bot=False)
            self.clock.advance(CHAT_GAP_S)
        if proposal is None:
            raise RecordingError("demo_no_proposal")
        return proposal


def _write_adr(
    out: Path, t: Strings, debate: Debate, turns: tuple[Turn, ...], pages: dict[str, Path]
) -> Path:
    """The decision as an ADR, `adr.md` beside the pages, linking each page by its path from
    there (a committed folder keeps its links)."""
    files = {page: Path(os.path.relpath(path, out)).as_posix() for page, path in pages.items()}
    links = page_links(t, debate, lambda page: files[page], "console")
    # The chain head joins when the record is chained (handlers/core/record/chain.py).
    adr = adr_markdown(debate, turns, t, links=links)
    (out / ADR_NAME).write_text(adr, encoding="utf-8")
    return out / ADR_NAME


def run_demo(
    out: Path = DEFAULT_OUT,
    pace_s: float = DEFAULT_PACE_S,
    console: Console | None = None,
    format_name: str = "free",
    language: str = "ko",
) -> int:
    """The `debate-room demo` command: the replay, framed by its labels, then the file paths."""
    said = ConsoleOut(console or Console(highlight=False), Strings(language))
    t = said.t
    try:
        recording = recording_for(format_name, language)
    except RecordingError as exc:
        said.line(exc.said(t), "red", bold=True)
        return 2
    said.line(t("console.demo_banner"), USER_AMBER, bold=True)
    try:
        result = asyncio.run(replay(said.console, out, pace_s, recording))
    except RecordingError as exc:
        said.line(exc.said(t), "red", bold=True)
        return 1
    said.line(t("console.demo_pages"), "", bold=True)
    for page, path in result.pages.items():
        label = page_label(t, result.debate.setup.format, page, result.debate, "console")
        said.line(t("console.demo_page", page=label, path=str(path)), "")
    said.line(t("console.demo_database", path=str(result.database)), "")
    exported = out / export_name(result.debate)
    if exported.is_file():  # the debate's one file, its chain head in it: a newcomer checks it
        said.line(t("record.demo_export", path=str(exported)), "")
    said.line(t("console.demo_end"), USER_AMBER, bold=True)
    return 0
