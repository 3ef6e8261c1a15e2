"""`debate-room demo`: a recorded debate through the real engine, store, wiki outbox and renderer.

Only the debaters and the moderator are replayed; detection, the state machine, SQLite, the
wiki outbox with the local Markdown wiki and the console room are the product's own. Needs
no settings, no `.env`, no keys and no network.
"""

from __future__ import annotations

import asyncio
import math
import random
import shutil
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from rich.console import Console
from rich.text import Text

from bot.compose import DetectionLimits, build_detection, build_engine
from bot.console.app import CONSOLE_CHANNEL
from bot.console.room import ConsoleRoom
from bot.console.seats import People
from bot.console.text import MODERATOR_GREY, USER_AMBER
from bot.demo.replay import (
    Recording,
    RecordingError,
    ReplayClock,
    ReplayDebater,
    ReplayModerator,
    load_recording,
    recording_for,
)
from handlers.core.events import ProposalApproved, UserAnswered
from handlers.core.formats import format_named
from handlers.core.i18n import Strings
from handlers.core.model import ChatLine, Debate, Phase, Proposal, WikiPage
from handlers.debate_handler import HandlerConfig
from tools.store.db import Database
from tools.wiki.backends import LocalWiki

DEFAULT_OUT = Path("data") / "demo"
DEFAULT_PACE_S = 0.3
WIKI_ROOT = "debates"
MARKER = ".debate-room-demo"  # only a folder carrying it is ever cleared
DB_NAME = "demo.sqlite3"


CHAT_GAP_S = 20  # seconds between two replayed chat lines
CARD_S = 60  # the card waiting for its approval


@dataclass(frozen=True)
class DemoResult:
    """Where the replay left its files."""

    database: Path
    pages: dict[WikiPage, Path]
    debate: Debate
    format_pages: dict[str, Path] = field(default_factory=dict)  # a format's own pages


def prepare(out: Path) -> tuple[Path, Path]:
    """A clean demo folder: the previous replay's database and pages are removed."""
    wiki_dir = out / "wiki"
    if wiki_dir.exists():
        if not (wiki_dir / MARKER).exists():
            raise RecordingError(f"{wiki_dir} exists and is not a demo folder; choose --out")
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
    db = await Database.open(str(db_path))
    player = _Player(console, recording, db, LocalWiki(wiki_dir), pace_s)
    try:
        await player.wiki.start()
        debate = await player.play()
        await player.wiki.drained(debate.id)
        pages = {page: player.local.file_of(player.wiki.path_of(debate, page.value))
                 for page in WikiPage}  # fmt: skip
        own = [p for p in format_named(debate.format).pages(debate) if p not in set(WikiPage)]
        extra = {page: player.local.file_of(player.wiki.path_of(debate, page)) for page in own}
        return DemoResult(db_path.absolute(), pages, debate, extra)
    finally:
        await player.handler.aclose()
        await player.wiki.aclose()
        await db.close()


class _Player:
    """The real engine with the recorded seats and moderator, and the recorded key presses."""

    def __init__(
        self, console: Console, recording: Recording, db: Database, local: LocalWiki,
        pace_s: float,
    ) -> None:  # fmt: skip
        self.console, self.recording, self.local, self.pace_s = console, recording, local, pace_s
        self.t = Strings(recording.language)
        # The replay ends now: it starts as long ago as the recorded chat and debate took
        # (plus a minute for the card), so no page is stamped in the future.
        lead_in = CHAT_GAP_S * len(recording.chat) + CARD_S
        ago = timedelta(seconds=math.ceil(recording.duration_s()) + lead_in)
        self.clock = ReplayClock(datetime.now(UTC).replace(microsecond=0) - ago)
        self.people = People(recording.approval.by)
        self.moderator = ReplayModerator(recording)
        roster = recording.participants
        config = HandlerConfig(language=recording.language, max_rounds=recording.max_rounds,
                               retry_wait_scale=0.0, format=recording.format_name, roster=roster,
                               format_options=tuple(sorted(recording.options.items())))  # fmt: skip

        room = ConsoleRoom(console, self.t, self.clock, db=db, names=self.people.names)

        self.engine = build_engine(
            db, strings=self.t, backend=local, wiki_root=WIKI_ROOT, room=room,
            moderator=self.moderator,
            debaters={
                member.backend: ReplayDebater(
                    member.id, recording, self.clock, pace_s, backend=member.backend
                )
                for member in roster
            },
            clock=self.clock,
            rng=random.Random(recording.seed),  # noqa: S311  # replays the recorded order
            config=config,
        )  # fmt: skip
        self.handler, self.wiki = self.engine.handler, self.engine.wiki

    async def play(self) -> Debate:
        """The chat, the card, the approval, then the debate until it ends."""
        debate = await self.handler.propose(await self._chat())
        if debate is None:
            raise RecordingError("the proposal was refused")
        await self.handler.wait_idle(debate.id)
        await self._press(self.recording.approval.by, self.recording.approval.key)
        approved = ProposalApproved(self.people.actor_named(self.recording.approval.by))
        await self.handler.submit(debate.id, approved)
        while True:
            await self.handler.wait_idle(debate.id)
            debate = await self.handler.get(debate.id)
            if debate.phase.is_terminal:
                return debate
            if debate.phase is not Phase.AWAITING_USER:
                raise RecordingError(f"the replay stalled in phase {debate.phase.value}")
            answer = self.recording.answer_after(debate.turns)
            await self._press(answer.by, answer.text)
            said = UserAnswered(self.people.actor_named(answer.by), answer.text)
            await self.handler.submit(debate.id, said)

    async def _chat(self) -> Proposal:
        """The recorded chat through the real detection (pre-filter and all)."""

        chat = self.recording.chat
        # A fresh database: no topic is open yet, so every proposal goes through.
        detection = build_detection(
            self.moderator, self.engine.store, self.clock, channels=(CONSOLE_CHANNEL,),
            bot_user_id=0, limits=DetectionLimits(0, len(chat), 0.5),
        )  # fmt: skip
        title = Text(self.t("console.demo_chat", channel=self.recording.channel))
        self.console.rule(title, style=MODERATOR_GREY)
        proposal = None
        for number, entry in enumerate(chat, start=1):
            self.console.print(Text(f"{entry.author}: {entry.text}"), soft_wrap=True)
            author = self.people.id_of(entry.author)
            line = ChatLine(author, entry.author, entry.text, self.clock.now(), number)
            proposal = await detection.on_message(CONSOLE_CHANNEL, line, author_is_bot=False)
            self.clock.advance(CHAT_GAP_S)
        if proposal is None:
            raise RecordingError("the recorded chat did not lead to a proposal")
        return proposal

    async def _press(self, user: str, key: str) -> None:
        """A recorded key press or answer, shown as such."""
        await asyncio.sleep(self.pace_s)
        _key(self.console, self.t, user, key)


def _key(console: Console, t: Strings, user: str, key: str) -> None:
    console.print(Text(t("console.demo_key", user=user, key=key), style=USER_AMBER), soft_wrap=True)


def run_demo(
    out: Path = DEFAULT_OUT,
    pace_s: float = DEFAULT_PACE_S,
    console: Console | None = None,
    format_name: str = "free",
) -> int:
    """The `debate-room demo` command: the replay, framed by its labels, then the file paths."""
    console = console or Console(highlight=False)
    try:
        recording = recording_for(format_name)
    except RecordingError as exc:
        console.print(Text(f"❌ {exc}", style="bold red"), soft_wrap=True)
        return 2
    t = Strings(recording.language)
    console.print(Text(t("console.demo_banner"), style=f"bold {USER_AMBER}"), soft_wrap=True)
    try:
        result = asyncio.run(replay(console, out, pace_s, recording))
    except RecordingError as exc:
        console.print(Text(f"❌ {exc}", style="bold red"), soft_wrap=True)
        return 1
    console.print(Text(t("console.demo_pages"), style="bold"), soft_wrap=True)
    for page, path in result.pages.items():
        if not path.exists():  # a page this format did not write (a ledger has no Working-Document)
            continue
        label = t(f"console.page_{page.name.lower()}")
        console.print(Text(t("console.demo_page", page=label, path=str(path))), soft_wrap=True)
    for name, path in result.format_pages.items():
        label = _page_label(t, result.debate.format, name)
        console.print(Text(t("console.demo_page", page=label, path=str(path))), soft_wrap=True)
    console.print(Text(t("console.demo_database", path=str(result.database))), soft_wrap=True)
    console.print(Text(t("console.demo_end"), style=f"bold {USER_AMBER}"), soft_wrap=True)
    return 0


def _page_label(t: Strings, format_name: str, page: str) -> str:
    """A format page's name from the locale (`<format>.page_<page>`), else its path."""
    try:
        return t(f"{format_name}.page_{page}")
    except LookupError:
        return page
