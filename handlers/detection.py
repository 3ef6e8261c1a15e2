"""Detection: notice, in ordinary chat, an open decision worth a debate; propose it.

A rolling window per watched channel, a cheap local pre-filter, and throttling, so the
moderator's model is asked rarely: at most once per channel per cooldown, only after enough
new messages, and only when the window looks like an open decision. Each judged window gets a
probability (the Decisions scorer's, else the moderator's own score), and a card is proposed
only when it is at least the threshold of the window's server or channel (`/debate config
threshold:`, else DETECT_MIN_CONFIDENCE); below it from the scorer, the moderator is not asked.
"""

from __future__ import annotations

import logging
import re
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from handlers.core.model import ChatLine, Detection, Proposal
from handlers.core.shorten import shorten
from handlers.core.turns.backoff import delay_s
from handlers.ports import Clock, DecisionScorer, GatewayClaims, Moderator, OneGateway

log = logging.getLogger(__name__)

# Words that mark an open decision or a disagreement (lower-case; Korean by stem so that
# endings vary). Kept here, not in prompts/: the pre-filter never reaches the model.
# fmt: off
DECISION_MARKERS: tuple[str, ...] = (
    # Korean
    "할까", "할지", "갈지", "쓸지", "정하", "정할", "결정", "고민", "선택", "아니면",
    "어느 쪽", "뭐가 나", "나을까", "낫지 않", "장단점", "애매", "반대", "찬성", "맞지 않아",
    "토론", "논의", "대신", " vs",
    # English
    "should we", "shall we", "which one", "which is better", "or should", "decide",
    "decision", "trade-off", "tradeoff", "pros and cons", "disagree", "not sure",
    "instead of", "prefer", "versus", "let's debate", "choose",
    # Portuguese
    "devemos", "decidir", "decisão", "escolher", "em vez de", "ou então", "qual é melhor",
    "prós e contras", "discordo", "preferir", "vale a pena",
)
# fmt: on
# One message that asks for a debate outright ("캐시 계층 어떻게 할지 토론해 보자", "let's debate
# X"): the moderator is asked at once, without waiting for more messages or markers.
EXPLICIT_REQUEST = re.compile(
    r"(토론|논의)\s*(을|를)?\s*(좀\s*)?(해\s*)?(보자|봅시다|하자|합시다|해\s*(줘|주세요|줄래|볼까)"
    r"|부탁|시작|열어|ㄱ)"
    r"|\b(let'?s|let\s+us|can\s+we|could\s+we|shall\s+we|we\s+should)\s+(have\s+a\s+)?"
    r"(debate|discuss)\b"
    r"|\b(start|open|run|have)\s+a\s+debate\b",
    re.IGNORECASE,
)
MIN_WINDOW_CHARS = 80  # a few words of chat are not a decision
MIN_MARKER_HITS = 2  # in the new messages: one stray word is not an open decision
DETECTION_WINDOW = 20  # chat lines the moderator sees when it judges a conversation
MAX_BACKOFF = 8  # after negative verdicts the cooldown doubles, up to this factor
CONTEXT_LINE_CHARS = 500

HasOpenTopic = Callable[[int, str], Awaitable[bool]]
LanguageOf = Callable[[int, int], Awaitable[str]]  # (server, channel) -> its language, or ''
# (server, channel) -> the detection threshold `/debate config` set there, or None: the default
ThresholdOf = Callable[[int, int], Awaitable[float | None]]


async def _no_language(guild_id: int, channel_id: int) -> str:
    return ""


async def _no_threshold(guild_id: int, channel_id: int) -> float | None:
    return None


@dataclass(frozen=True)
class Verdict:
    """One judged window: its probability (None: none could be read), where it came from
    (`decisions`: the Decisions API; `model`: the moderator's own score), the threshold it
    was held against, and whether a card was proposed."""

    channel_id: int
    probability: float | None
    source: str
    threshold: float
    proposed: bool


Heard = Callable[[Verdict], None]


def _ignore(verdict: Verdict) -> None:
    return None


@dataclass
class _Channel:
    window: deque[ChatLine]
    new_messages: int = 0
    last_detect: datetime | None = None
    misses: int = 0  # "not debate-worthy" verdicts in a row: each doubles the cooldown
    busy: bool = False
    seen: set[int] = field(default_factory=set)
    last_explicit: datetime | None = None  # the last request a "let's debate" message made


def asks_for_debate(text: str) -> bool:
    """True when one message asks outright for a debate (Korean or English)."""
    return EXPLICIT_REQUEST.search(text) is not None


def looks_open(window: Iterable[ChatLine], new: int) -> bool:
    """The local pre-filter: enough text in the window, and markers of an open decision or
    disagreement in its `new` latest messages (older ones were looked at before)."""
    lines = list(window)
    if sum(len(line.content) for line in lines) < MIN_WINDOW_CHARS:
        return False
    text = "\n".join(line.content for line in lines[-new:]).lower()
    hits = sum(text.count(marker) for marker in DECISION_MARKERS)
    return hits >= MIN_MARKER_HITS


@dataclass(frozen=True)
class DetectionLimits:
    """How often detection asks the moderator, and how sure it must be by default (a
    server's `/debate config threshold:` overrides `min_confidence`)."""

    cooldown_s: float
    min_new_messages: int
    min_confidence: float


class DetectionHandler:
    """Turns watched-channel chat into at most an occasional Proposal."""

    def __init__(
        self,
        moderator: Moderator,
        *,
        channels: Iterable[int],
        bot_user_id: int,
        limits: DetectionLimits,
        clock: Clock,
        has_open_topic: HasOpenTopic,
        language_of: LanguageOf = _no_language,
        claims: GatewayClaims | None = None,
        scorer: DecisionScorer | None = None,
        threshold_of: ThresholdOf = _no_threshold,
        heard: Heard = _ignore,
    ) -> None:
        self._moderator = moderator
        # The calibrated probability, asked first: below the threshold the moderator is not
        # asked at all (a Decisions request costs a fraction of a generated verdict).
        self._scorer = scorer
        self._threshold_of = threshold_of
        self._heard = heard  # each judged window, for the detection benchmark and the logs
        # Every gateway process sees the chat and judges it alike: the one that claims the
        # message that made it judge asks the moderator; the others stand down.
        self._claims = claims or OneGateway()
        self._watched = frozenset(channels)
        self._bot_user_id = bot_user_id
        self._limits = limits
        self._clock = clock
        self._has_open_topic = has_open_topic
        self._language_of = language_of
        self._channels: dict[int, _Channel] = {}
        self.requests = 0  # detect calls made, for the benchmark and the logs
        self.scored = 0  # probabilities asked of the scorer

    def watches(self, channel_id: int) -> bool:
        """True for a channel in DEBATE_CHANNEL_IDS."""
        return channel_id in self._watched

    async def on_message(
        self, channel_id: int, line: ChatLine, author_is_bot: bool, guild_id: int = 0
    ) -> Proposal | None:
        """Take one chat message; return a Proposal when the moderator found an open decision
        (worded in the language `/debate config` set for the server or channel, if any)."""
        if not self.watches(channel_id) or author_is_bot or line.author_id == self._bot_user_id:
            return None
        state = self._channels.setdefault(channel_id, _Channel(deque(maxlen=DETECTION_WINDOW)))
        if line.message_id and line.message_id in state.seen:
            return None  # a redelivered message (gateway resume) counts once
        if line.message_id:
            state.seen = {m.message_id for m in state.window} | {line.message_id}
        state.window.append(line)
        state.new_messages += 1
        if not (self._explicit(state, line) or self._due(state)):
            return None
        window = tuple(state.window)
        state.busy, state.new_messages, state.last_detect = True, 0, self._clock.now()
        try:
            if line.message_id and not await self._claims.first(line.message_id):
                return None  # another process asks the moderator about this very message
            proposal = await self._detect(guild_id, channel_id, window)
        finally:
            state.busy = False
        state.misses = 0 if proposal is not None else state.misses + 1
        return proposal

    def _explicit(self, state: _Channel, line: ChatLine) -> bool:
        """A message asking for a debate is judged at once, past the message count, the
        markers and the cooldown; only one such request per cooldown (repeats are no spam)."""
        if state.busy or not asks_for_debate(line.content):
            return False
        now, last = self._clock.now(), state.last_explicit
        if last is not None and (now - last).total_seconds() < self._limits.cooldown_s:
            return False
        state.last_explicit = now
        return True

    def _due(self, state: _Channel) -> bool:
        """Enough new messages, the cooldown passed, nothing running, and the pre-filter agrees."""
        if state.busy or state.new_messages < self._limits.min_new_messages:
            return False
        if state.last_detect is not None:
            elapsed = (self._clock.now() - state.last_detect).total_seconds()
            base = self._limits.cooldown_s
            cooldown = delay_s(state.misses, base, base * MAX_BACKOFF)
            if elapsed < cooldown:
                return False
        return looks_open(state.window, state.new_messages)

    async def _detect(
        self, guild_id: int, channel_id: int, window: tuple[ChatLine, ...]
    ) -> Proposal | None:
        threshold = await self._threshold_of(guild_id, channel_id)
        if threshold is None:
            threshold = self._limits.min_confidence
        scored = await self._score(window)
        if scored is not None and scored < threshold:
            self._heard(Verdict(channel_id, scored, "decisions", threshold, proposed=False))
            return None
        self.requests += 1
        language = await self._language_of(guild_id, channel_id)
        detection = await self._moderator.detect(window, language)
        probability = scored if scored is not None else detection.confidence
        proposal = None
        if probability is None or probability >= threshold:
            proposal = await self._proposal(guild_id, channel_id, window, detection, probability)
        source = "decisions" if scored is not None else "model"
        self._heard(Verdict(channel_id, probability, source, threshold, proposal is not None))
        if proposal is None and probability is None and detection.debate_worthy:
            log.info("detection: no readable probability in channel %d, no card", channel_id)
        return proposal

    async def _score(self, window: tuple[ChatLine, ...]) -> float | None:
        if self._scorer is None:
            return None
        self.scored += 1
        return await self._scorer.probability(window)

    async def _proposal(
        self,
        guild_id: int,
        channel_id: int,
        window: tuple[ChatLine, ...],
        detection: Detection,
        probability: float | None,
    ) -> Proposal | None:
        """The card's proposal when the moderator found a topic not already open there."""
        if not detection.debate_worthy or probability is None:
            return None
        topic = detection.topic.strip()
        if not topic or await self._has_open_topic(channel_id, topic):
            return None
        log.info("detection: proposing %r in channel %d (p=%.2f)", topic, channel_id, probability)
        context, people, names = heard(window)
        return Proposal(
            channel_id=channel_id,
            guild_id=guild_id,
            topic=topic,
            question=detection.question.strip(),
            reason=detection.reason.strip(),
            confidence=probability,
            context=context,
            people_ids=people,
            people_names=names,
            suggested_format=detection.suggested_format.strip(),
            format_reason=detection.format_reason.strip(),
            squad=detection.squad,
            squad_kind=detection.squad_kind,
            squad_reason=detection.squad_reason.strip(),
        )


def heard(chat: Sequence[ChatLine]) -> tuple[str, tuple[int, ...], tuple[str, ...]]:
    """The last DETECTION_WINDOW lines as a Proposal keeps them: the excerpt the card and the
    Agenda show, the distinct human authors in order of first appearance, and their names."""
    window = chat[-DETECTION_WINDOW:]
    names = {line.author_id: line.author_name or str(line.author_id) for line in window}
    context = "\n".join(
        f"{line.author_name or line.author_id}: {shorten(line.content, CONTEXT_LINE_CHARS)}"
        for line in window
    )
    return context, tuple(names), tuple(names.values())
