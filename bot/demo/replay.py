"""A recorded debate, and the ports that play it back: no model, no network, no keys.

`ReplayDebater` and `ReplayModerator` answer the real engine with what was recorded;
`ReplayClock` moves time on by each reply's recorded latency, so the status line reads as it
did, without waiting for it.
"""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

from pydantic import BaseModel, Field

from handlers.core.formats import FORMATS
from handlers.core.i18n import Strings
from handlers.core.model import (
    DEFAULT_ROSTER,
    Backend,
    ChatLine,
    Conclusion,
    Decision,
    Detection,
    FailureKind,
    ModeratorView,
    Participant,
    TurnMeta,
)
from handlers.ports import (
    DebaterError,
    DebaterOutput,
    ModeratorUnavailable,
    TaskRequest,
    TurnRequest,
)

DEFAULT_RECORDING = "free.ko"  # `<format>.<language>`: in the format's folder, demo/<language>.json


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


class TurnEntry(BaseModel):
    """One recorded reply, exactly as the debater wrote it."""

    turn: int
    seat: str  # the participant's id
    reply: str
    meta: TurnMeta = TurnMeta()


class Recording(BaseModel):
    """A whole recorded debate, in the engine's own types where it has them."""

    format: int
    format_name: str = "free"  # the debate format it recorded
    language: str
    note: str = ""
    seed: int  # the engine's random source: it draws the recorded speaking order
    max_rounds: int
    channel: str
    chat: list[tuple[str, str]]  # (author, text)
    detection: Detection
    approval: tuple[str, str]  # (who, the key pressed on the card)
    turns: list[TurnEntry]
    decisions: dict[int, Decision]  # by the turn each judged
    answers: dict[int, tuple[str, str]] = Field(default_factory=dict)  # after a turn: (who, text)
    conclusion: Conclusion | None = None  # a format that closes with its own pages has none
    roster: tuple[Participant, ...] = DEFAULT_ROSTER
    options: dict[str, str] = Field(default_factory=dict)  # the format's options
    tasks: dict[str, str] = Field(default_factory=dict)  # the moderator's task outputs

    def duration_s(self) -> float:
        """How long the recorded debate took: the sum of its replies' latencies."""
        return sum(turn.meta.latency_s for turn in self.turns)

    def answer_after(self, turn: int) -> tuple[str, str]:
        """The people's recorded answer to the question asked after `turn`: (who, text)."""
        if turn not in self.answers:
            raise RecordingError("demo_no_answer", turn=turn)
        return self.answers[turn]


def recorded() -> tuple[str, ...]:
    """The shipped recordings, as `<format>.<language>` (each format keeps its own)."""
    return tuple(sorted(f"{name}.{lang}" for name in FORMATS for lang in FORMATS.recordings(name)))


def recording_for(format_name: str, language: str = "ko") -> Recording:
    """The shipped recording of a format in a language; one not recorded is a RecordingError."""
    name = f"{format_name}.{language}"
    if name not in recorded():
        raise RecordingError("demo_unrecorded", name=name, recorded=", ".join(recorded()))
    return load_recording(name)


def load_recording(name: str = DEFAULT_RECORDING) -> Recording:
    """A shipped recording, `<format>.<language>`, from its format's folder."""
    format_name, _, language = name.partition(".")
    text = FORMATS.recordings(format_name)[language].read_text(encoding="utf-8")
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


class ReplayDebater:
    """A participant that answers each turn with its recorded reply."""

    def __init__(
        self, backend: Backend, recording: Recording, clock: ReplayClock, pace_s: float
    ) -> None:
        self.backend = backend
        self._turns = {entry.turn: entry for entry in recording.turns}
        self._clock = clock
        self._pace_s = pace_s

    async def speak(self, request: TurnRequest) -> DebaterOutput:
        """The recorded reply of this turn, after a short pause so people can follow."""
        entry = self._turns.get(request.turn)
        who = request.participant
        if entry is None or entry.seat != who:
            raise ReplayMismatch(f"turn {request.turn} is not recorded for {who}")
        await asyncio.sleep(self._pace_s)
        self._clock.advance(entry.meta.latency_s)
        return DebaterOutput(text=entry.reply, raw=entry.reply, meta=entry.meta)

    async def forget(self, debate_id: int) -> None:
        """A replay keeps no session."""


class ReplayModerator:
    """The moderator's recorded detection, decisions and Conclusion."""

    def __init__(self, recording: Recording) -> None:
        self._recording = recording

    async def detect(self, window: tuple[ChatLine, ...], language: str = "") -> Detection:
        """The recorded verdict on the chat."""
        return self._recording.detection

    async def judge(self, view: ModeratorView) -> Decision:
        """The recorded judgement of the latest turn."""
        if view.debate.floor.turns not in self._recording.decisions:
            raise RecordingError("demo_no_decision", turn=view.debate.floor.turns)
        return self._recording.decisions[view.debate.floor.turns]

    async def perform(self, request: TaskRequest) -> str:
        """The recorded output of a format's task; unrecorded: the format's fallback."""
        if request.task not in self._recording.tasks:
            raise ModeratorUnavailable(f"no recorded output of task {request.task}")
        return self._recording.tasks[request.task]

    async def conclude(self, view: ModeratorView) -> Conclusion:
        """The recorded Conclusion."""
        if self._recording.conclusion is None:
            raise RecordingError("demo_no_conclusion")
        return self._recording.conclusion
