"""A recorded debate, and the ports that play it back: no model, no network, no keys.

`ReplayDebater` and `ReplayModerator` answer the real engine with what was recorded;
`ReplayClock` moves time on by each reply's recorded latency, so the status line reads as it
did, without waiting for it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from importlib import resources

from pydantic import BaseModel, Field

from handlers.core.i18n import Strings
from handlers.core.model import (
    DEFAULT_ROSTER,
    Action,
    Backend,
    ChatLine,
    Conclusion,
    Decision,
    Detection,
    FailureKind,
    ModeratorSource,
    ModeratorView,
    Participant,
    TurnMeta,
    UserQuestion,
)
from handlers.ports import (
    DebaterError,
    DebaterOutput,
    ModeratorUnavailable,
    TaskRequest,
    TurnRequest,
)

DEFAULT_RECORDING = "free.ko.json"  # each recording is `<format>.<language>.json`


class RecordingError(Exception):
    """The recording cannot be played; `key` names the locale's words for why."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key, params)
        self.key, self.params = key, params

    def said(self, t: Strings) -> str:
        """Why, in the debate's language."""
        return t(f"console.{self.key}", **self.params)


class ReplayMismatch(DebaterError):
    """The engine asked a seat for a turn the recording gives to the other seat."""

    def __init__(self, detail: str) -> None:
        super().__init__(FailureKind.USAGE, detail)


class ChatEntry(BaseModel):
    """One recorded chat message."""

    author: str
    text: str


class DetectionEntry(BaseModel):
    """What the moderator found in the chat."""

    topic: str
    question: str
    reason: str = ""
    confidence: float = 0.9


class KeyEntry(BaseModel):
    """A key a person pressed on the card."""

    by: str
    key: str = "y"


class TurnEntry(BaseModel):
    """One recorded reply, exactly as the debater wrote it."""

    turn: int
    seat: str  # the participant's id
    reply: str
    model: str = ""
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    latency_s: float = 0.0


class QuestionEntry(BaseModel):
    """The moderator's question to the people."""

    text: str
    options: list[str] = Field(default_factory=list)


class DecisionEntry(BaseModel):
    """The moderator's judgement after a turn."""

    after_turn: int
    action: Action
    note: str = ""
    consensus: float = 0.0
    summary: str = ""
    next_seat: str | None = None
    question: QuestionEntry | None = None


class AnswerEntry(BaseModel):
    """A person's answer to the moderator's question."""

    after_turn: int
    by: str
    text: str


class ConclusionEntry(BaseModel):
    """The Conclusion as the moderator wrote it."""

    decision: str
    agreed: list[str] = Field(default_factory=list)
    open_issues: list[str] = Field(default_factory=list)
    positions: dict[str, str] = Field(default_factory=dict)
    next_steps: list[str] = Field(default_factory=list)


class MemberEntry(BaseModel):
    """One participant of the recorded debate."""

    id: str
    backend: Backend
    name: str
    persona: str = ""


class Recording(BaseModel):
    """A whole recorded debate."""

    format: int
    format_name: str = "free"  # the debate format it recorded
    language: str
    note: str = ""
    seed: int  # the engine's random source: it draws the recorded speaking order
    max_rounds: int
    channel: str
    chat: list[ChatEntry]
    detection: DetectionEntry
    approval: KeyEntry
    turns: list[TurnEntry]
    decisions: list[DecisionEntry]
    answers: list[AnswerEntry] = Field(default_factory=list)
    conclusion: ConclusionEntry | None = None  # a format that closes with its own pages has none
    roster: list[MemberEntry] = Field(default_factory=list)  # empty: AG and Claude
    options: dict[str, str] = Field(default_factory=dict)  # the format's options
    tasks: dict[str, str] = Field(default_factory=dict)  # the moderator's task outputs

    @property
    def participants(self) -> tuple[Participant, ...]:
        """The recorded roster."""
        if not self.roster:
            return DEFAULT_ROSTER
        return tuple(Participant(m.id, m.backend, m.name, persona=m.persona) for m in self.roster)

    def duration_s(self) -> float:
        """How long the recorded debate took: the sum of its replies' latencies."""
        return sum(turn.latency_s for turn in self.turns)

    def answer_after(self, turn: int) -> AnswerEntry:
        """The people's recorded answer to the question asked after `turn`."""
        for answer in self.answers:
            if answer.after_turn == turn:
                return answer
        raise RecordingError("demo_no_answer", turn=turn)


def recorded() -> tuple[str, ...]:
    """The shipped recordings, as `<format>.<language>`."""
    files = resources.files("bot.demo").iterdir()
    return tuple(sorted(f.name.removesuffix(".json") for f in files if f.name.endswith(".json")))


def recording_for(format_name: str, language: str = "ko") -> Recording:
    """The shipped recording of a format in a language; one not recorded is a RecordingError."""
    name = f"{format_name}.{language}"
    if name not in recorded():
        raise RecordingError("demo_unrecorded", name=name, recorded=", ".join(recorded()))
    return load_recording(f"{name}.json")


def load_recording(name: str = DEFAULT_RECORDING) -> Recording:
    """A recording shipped in this package."""
    text = (resources.files("bot.demo") / name).read_text(encoding="utf-8")
    return Recording.model_validate_json(text)


class ReplayClock:
    """Time that moves only when the replay says so; nothing really waits."""

    def __init__(self, start: datetime) -> None:
        self._now = start

    def now(self) -> datetime:
        """The replayed moment."""
        return self._now

    def advance(self, seconds: float) -> None:
        """Move on by a recorded duration."""
        self._now += timedelta(seconds=seconds)

    async def sleep(self, seconds: float) -> None:
        """Count the wait without waiting."""
        self.advance(seconds)
        await asyncio.sleep(0)


Pause = Callable[[float], Awaitable[None]]


class ReplayDebater:
    """A participant that answers each turn with its recorded reply."""

    def __init__(
        self,
        backend: Backend,
        recording: Recording,
        clock: ReplayClock,
        pace_s: float,
        pause: Pause = asyncio.sleep,
    ) -> None:
        self.backend = backend
        self._turns = {entry.turn: entry for entry in recording.turns}
        self._clock = clock
        self._pace_s = pace_s
        self._pause = pause

    async def speak(self, request: TurnRequest) -> DebaterOutput:
        """The recorded reply of this turn, after a short pause so people can follow."""
        entry = self._turns.get(request.turn)
        who = request.participant
        if entry is None or entry.seat != who:
            raise ReplayMismatch(f"turn {request.turn} is not recorded for {who}")
        await self._pause(self._pace_s)
        self._clock.advance(entry.latency_s)
        meta = TurnMeta(
            model=entry.model,
            input_tokens=entry.input_tokens,
            output_tokens=entry.output_tokens,
            cost_usd=entry.cost_usd,
            latency_s=entry.latency_s,
        )
        return DebaterOutput(text=entry.reply, raw=entry.reply, meta=meta)

    async def forget(self, debate_id: int) -> None:
        """A replay keeps no session."""


class ReplayModerator:
    """The moderator's recorded detection, decisions and Conclusion."""

    def __init__(self, recording: Recording) -> None:
        self._recording = recording
        self._decisions = {entry.after_turn: entry for entry in recording.decisions}

    async def detect(self, window: tuple[ChatLine, ...]) -> Detection:
        """The recorded verdict on the chat."""
        found = self._recording.detection
        return Detection(
            debate_worthy=True,
            topic=found.topic,
            question=found.question,
            reason=found.reason,
            confidence=found.confidence,
            source=ModeratorSource.GEMINI,
        )

    async def judge(self, view: ModeratorView) -> Decision:
        """The recorded judgement of the latest turn."""
        entry = self._decisions.get(view.debate.turns)
        if entry is None:
            raise RecordingError("demo_no_decision", turn=view.debate.turns)
        question = (
            UserQuestion(entry.question.text, tuple(entry.question.options))
            if entry.question
            else None
        )
        return Decision(
            action=entry.action,
            next_seat=entry.next_seat,
            note=entry.note,
            user_question=question,
            consensus=entry.consensus,
            summary=entry.summary,
            source=ModeratorSource.GEMINI,
        )

    async def perform(self, request: TaskRequest) -> str:
        """The recorded output of a format's task; unrecorded: the format's fallback."""
        if request.task not in self._recording.tasks:
            raise ModeratorUnavailable(f"no recorded output of task {request.task}")
        return self._recording.tasks[request.task]

    async def conclude(self, view: ModeratorView) -> Conclusion:
        """The recorded Conclusion."""
        found = self._recording.conclusion
        if found is None:
            raise RecordingError("demo_no_conclusion")
        return Conclusion(
            decision=found.decision,
            agreed=tuple(found.agreed),
            open_issues=tuple(found.open_issues),
            positions=tuple(found.positions.items()),
            next_steps=tuple(found.next_steps),
            source=ModeratorSource.GEMINI,
        )
