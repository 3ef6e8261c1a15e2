"""In-memory test doubles of the engine's ports: scripted, recording, and able to 'crash'."""

from __future__ import annotations

import asyncio
import json
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from types import TracebackType

from handlers.core.effects import (
    AppendRoundLog,
    AskBudget,
    AskUser,
    CloseCard,
    LogNote,
    Notify,
    OpenPoll,
    OpenRoom,
    PostCard,
    PostConclusion,
    PostMinorityReport,
    PostSummary,
    PostTurn,
    RoomEffect,
    UpdateClaims,
    UpdateStatus,
    WikiEffect,
    WriteAgenda,
    WriteConclusion,
    WritePage,
    WriteWorkingDocument,
)
from handlers.core.model import (
    AG,
    CLAUDE,
    Backend,
    Conclusion,
    Debate,
    Turn,
    TurnMeta,
    UserQuestion,
)
from handlers.core.moderation.claims import Claim
from handlers.ports import (
    NOTHING,
    DebaterError,
    DebaterOutput,
    Loaded,
    TurnRequest,
)


def other(seat: str) -> str:
    """The other participant of the default roster."""
    return CLAUDE if seat == AG else AG


class Crash(BaseException):
    """Stands for the process dying: not an Exception, so nothing in the product catches it."""


@dataclass
class CrashPlan:
    """Raise Crash at the n-th port call (counted across all doubles), once."""

    at: int | None = None
    calls: int = 0
    fired: bool = False
    log: list[str] = field(default_factory=list)

    def tick(self, name: str) -> None:
        self.calls += 1
        self.log.append(name)
        if self.at is not None and self.calls == self.at and not self.fired:
            self.fired = True
            raise Crash(name)


def reply(opinion: str, stance: str = "partial", **extra: object) -> str:
    """A contract-shaped reply in a ```json fence after some prose."""
    block = {"opinion": opinion, "stance": stance, **extra}
    return f"Intro.\n\n```json\n{json.dumps(block, ensure_ascii=False)}\n```"


class FakeDebater:
    """A debater whose replies are queued by the test; records every request it got."""

    def __init__(self, seat: str, plan: CrashPlan | None = None) -> None:
        self.seat = seat
        self.requests: list[TurnRequest] = []
        self.script: deque[str | DebaterError | Callable[[], object]] = deque()
        self.default: str | None = None
        self.by_round: dict[int, str] = {}  # the answer of each round, once the script is out
        self.plan = plan or CrashPlan()
        self.forgotten: list[int] = []

    def enqueue(self, *items: str | DebaterError | Callable[[], object]) -> None:
        self.script.extend(items)

    async def speak(self, request: TurnRequest) -> DebaterOutput:
        self.plan.tick(f"speak:{self.seat}")
        self.requests.append(request)
        item = self.script.popleft() if self.script else self.by_round.get(request.round)
        item = self.default if item is None else item
        if item is None:
            item = reply(f"{self.seat} says {request.turn}")
        if isinstance(item, DebaterError):
            raise item
        if callable(item):
            said = await item()  # type: ignore[misc]  # a queued callable is an async function
            item = (
                said if isinstance(said, str) else reply(f"{self.seat} after wait {request.turn}")
            )
        meta = TurnMeta(
            model=f"{self.seat}-model",
            input_tokens=10,
            output_tokens=20,
            cost_usd=0.01,
            latency_s=1.5,
        )
        return DebaterOutput(text=item, raw=f"RAW<{item}>", meta=meta)

    async def forget(self, debate_id: int) -> None:
        self.forgotten.append(debate_id)


class Seats:
    """One backend's debater in the rig: hands each request to its participant's double."""

    def __init__(self, backend: Backend, doubles: dict[str, FakeDebater]) -> None:
        self.backend = backend
        self._doubles = doubles

    async def speak(self, request: TurnRequest) -> DebaterOutput:
        return await self._doubles[request.participant].speak(request)

    async def forget(self, debate_id: int) -> None:
        for double in self._doubles.values():
            await double.forget(debate_id)


class FakeWiki:
    """Records queued page writes; a repeat of the same write is dropped by its key, as the
    outbox drops it (`keys` counts the writes that landed, `repeats` those dropped); a format
    page, as the outbox keys it by its content too, is rewritten when its content changed."""

    def __init__(self, plan: CrashPlan | None = None) -> None:
        self.writes: list[tuple[str, int, str]] = []
        self.keys: Counter[str] = Counter()
        self.repeats: Counter[str] = Counter()
        self.plan = plan or CrashPlan()
        self.pages: dict[int, dict[str, tuple[str, str]]] = {}
        self.landed: dict[str, str] = {}

    def _write(self, key: str, debate: Debate, content: str, by_content: bool = False) -> None:
        if key in self.keys and (not by_content or self.landed[key] == content):
            self.repeats[key] += 1
            return
        self.keys[key] += 1
        self.landed[key] = content
        self.writes.append((key, debate.id, content))

    async def write(self, debate: Debate, effect: WikiEffect, loaded: Loaded = NOTHING) -> None:
        match effect:
            case WriteAgenda():
                self.plan.tick("wiki:agenda")
                self._write(f"{debate.id}:agenda", debate, debate.proposal.topic)
            case WriteWorkingDocument(turn=turn):
                self.plan.tick("wiki:working")
                self._write(
                    f"{debate.id}:working:{turn}", debate, debate.moderation.working_document
                )
            case AppendRoundLog():
                self.plan.tick("wiki:round-log")
                turn = loaded.stored_turn()
                self._write(f"{debate.id}:round-log:{turn.number}", debate, turn.text)
            case LogNote(key=key, what=what, who=who, text=text):
                self.plan.tick("wiki:round-note")
                self._write(f"{debate.id}:round-log:{key}", debate, f"{what}|{who}|{text}")
            case WriteConclusion(conclusion=conclusion):
                self.plan.tick("wiki:conclusion")
                self._write(f"{debate.id}:conclusion", debate, conclusion.decision)
            case WritePage(page=page):
                self.plan.tick(f"wiki:page:{page}")
                title, markdown = loaded.title, loaded.markdown
                self._write(f"{debate.id}:page:{page}", debate, f"{title}\n{markdown}", True)
                self.pages.setdefault(debate.id, {})[page] = (title, markdown)

    def page(self, debate_id: int, page: str) -> str:
        """The title and content written for a format page."""
        title, markdown = self.pages[debate_id][page]
        return f"{title}\n{markdown}"

    def page_url(self, debate: Debate, page: str) -> str:
        return f"https://wiki.test/debates/{debate.id}/{page}"


class _Working:
    def __init__(self, room: FakeRoom, seat: str) -> None:
        self.room, self.seat = room, seat

    def show_text(self, text_so_far: str) -> None:
        self.room.shown_texts.append((self.seat, text_so_far))

    async def __aenter__(self) -> None:
        self.room.working_seats.append(self.seat)

    async def __aexit__(
        self, et: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        return None


class FakeRoom:
    """Records what people would see; keyed like the real front end so a repeat posts nothing
    (`repeats` counts the repeated calls, which show nothing)."""

    def __init__(self, plan: CrashPlan | None = None) -> None:
        self.posted: list[tuple[str, object]] = []
        self.turn_posts: Counter[tuple[int, int]] = Counter()
        self.notices: list[tuple[int, str, dict[str, str]]] = []
        self.statuses: list[tuple[int, str, int]] = []
        self.questions: list[UserQuestion] = []
        self.claim_tables: list[tuple[Claim, ...]] = []  # the ledger at each update
        self.budget_asks: list[tuple[int, int]] = []  # (debate, its budget) at each pause
        self.conclusions: list[Conclusion] = []
        self.summaries: list[str] = []
        self.working_seats: list[str] = []
        self.shown_texts: list[tuple[str, str]] = []
        self.cards: list[int] = []
        self.closed_cards: list[tuple[int, str]] = []
        self.opened: list[int] = []
        self.reports: list[int] = []  # debates whose minority report was posted
        self.polls: dict[int, tuple[str, ...]] = {}  # debate -> its poll's answers
        self.votes_shown: dict[int, tuple[int, ...]] = {}  # debate -> votes the poll will show
        self.poll_reads: list[int] = []
        self.plan = plan or CrashPlan()
        self.events: dict[str, asyncio.Event] = {}
        self.shown: set[tuple[int, str]] = set()  # the keys posted under, as room_messages
        self.repeats: Counter[str] = Counter()

    def _first(self, debate: Debate, key: str) -> bool:
        """True the first time `key` is posted for the debate; a repeat is only counted."""
        if (debate.id, key) in self.shown:
            self.repeats[key] += 1
            return False
        self.shown.add((debate.id, key))
        return True

    def signal(self, name: str) -> asyncio.Event:
        return self.events.setdefault(name, asyncio.Event())

    async def show(self, debate: Debate, effect: RoomEffect, loaded: Loaded = NOTHING) -> str:
        match effect:
            case PostTurn():
                return self._turn(debate, loaded.stored_turn())
            case Notify(key=key, params=params):
                self.plan.tick(f"room:notify:{key}")
                self.notices.append((debate.id, key, dict(params)))
            case AskUser() | AskBudget():
                self._ask(debate, effect)
            case PostConclusion() | PostSummary():
                self._end(debate, effect, loaded)
            case PostMinorityReport() | OpenPoll():
                self._poll(debate, effect)
            case _:
                self._room(debate, effect)
        return ""

    def _room(
        self, debate: Debate, effect: PostCard | CloseCard | OpenRoom | UpdateStatus | UpdateClaims
    ) -> None:
        match effect:
            case PostCard():
                self.plan.tick("room:card")
                if self._first(debate, "card"):
                    self.cards.append(debate.id)
            case CloseCard():
                self.plan.tick("room:close_card")
                self.closed_cards.append((debate.id, debate.phase.value))
            case OpenRoom():
                self.plan.tick("room:open")
                if self._first(debate, "thread"):
                    self.opened.append(debate.id)
            case UpdateStatus():
                self.plan.tick("room:status")
                self.statuses.append((debate.id, debate.phase.value, debate.floor.round))
            case UpdateClaims():
                self.plan.tick("room:claims")
                self.claim_tables.append(debate.moderation.claims)

    def _turn(self, debate: Debate, turn: Turn) -> str:
        self.plan.tick("room:turn")
        if self._first(debate, f"turn:{turn.number}"):
            self.turn_posts[(debate.id, turn.number)] += 1
            self.posted.append(("turn", turn))
        return f"https://discord.test/{debate.id}/{turn.number}"

    def _ask(self, debate: Debate, effect: AskUser | AskBudget) -> None:
        if isinstance(effect, AskBudget):
            self.plan.tick("room:budget")
            if self._first(debate, f"paused:{debate.people.pauses}"):
                self.budget_asks.append((debate.id, debate.setup.max_rounds))
            self.signal("budget").set()
            return
        self.plan.tick("room:ask")
        if self._first(debate, f"ask:{debate.floor.turns}"):
            self.questions.append(effect.question)
        self.signal("asked").set()

    def _end(self, debate: Debate, effect: PostConclusion | PostSummary, loaded: Loaded) -> None:
        if isinstance(effect, PostConclusion):
            self.plan.tick("room:conclusion")
            if self._first(debate, "conclusion"):
                self.conclusions.append(effect.conclusion)
            return
        self.plan.tick("room:summary")
        if self._first(debate, "summary"):
            self.summaries.append(loaded.markdown)

    def _poll(self, debate: Debate, effect: PostMinorityReport | OpenPoll) -> None:
        if isinstance(effect, PostMinorityReport):
            self.plan.tick("room:report")
            self.reports.append(debate.id)
            return
        self.plan.tick("room:poll")
        assert debate.poll is not None
        self.polls.setdefault(debate.id, debate.poll.answers)
        self.signal("poll").set()

    async def votes(self, debate: Debate) -> tuple[int, ...] | None:
        self.plan.tick("room:close_poll")
        self.poll_reads.append(debate.id)
        if debate.id not in self.polls:
            return None
        return self.votes_shown.get(debate.id, (0,) * len(self.polls[debate.id]))

    def working(self, debate: Debate, seat: str) -> _Working:
        return _Working(self, seat)

    def notice_keys(self) -> list[str]:
        return [key for _, key, _ in self.notices]
