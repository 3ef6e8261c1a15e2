"""The moderator over any Gemini backend: budget, retries, validation, repair and fallback.

Each port method always returns. A step the model cannot serve (spent budget or quota,
server error, timeout, safety block, output invalid twice) is decided by the rule-based
moderator, and the result says so (`source=RULES`).
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime
from typing import Protocol, TypeVar

from pydantic import BaseModel

from handlers.core.model import (
    ChatLine,
    Conclusion,
    Decision,
    Detection,
    ModeratorView,
    Participant,
)
from handlers.core.moderation.bounds import ANSWER_CHARS
from handlers.core.shorten import shorten
from handlers.ports import ModeratorUnavailable as TaskUnavailable
from handlers.ports import TaskRequest
from handlers.retrying import Retry, asked_wait, retrying
from handlers.rules_moderator import RulesModerator
from tools.gemini.context import (
    Prompt,
    conclusion_prompt,
    detection_prompt,
    judge_prompt,
    task_prompt,
)
from tools.gemini.schemas import (
    ConclusionReply,
    DetectionReply,
    JudgeReply,
    to_conclusion,
    to_decision,
    to_detection,
    validated,
)
from tools.gemini.task_schemas import task_answer
from tools.store.quota import REASON_QUOTA, ModeratorQuota

log = logging.getLogger(__name__)

MAX_RATE_RETRIES = 2  # a 429 with RetryInfo is retried this often after the server's delay
MAX_RETRY_DELAY_S = 120.0  # a longer wait is not worth holding a debate for: rules decide
DEFAULT_RETRY_DELAY_S = 10.0  # a per-minute 429 without RetryInfo
_PER_DAY = re.compile(r"daily quota|PerDay|per[ _-]day", re.IGNORECASE)

M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")
Sleep = Callable[[float], Awaitable[None]]


class ModeratorError(Exception):
    """A request to the moderator's model failed; the backends raise only its subclasses."""


class ModeratorRateLimited(ModeratorError):
    """429: per minute (retry after `retry_after`) or per day (`per_day`: the day is spent)."""

    def __init__(self, detail: str, retry_after: float | None, per_day: bool) -> None:
        super().__init__(detail)
        self.retry_after = retry_after
        self.per_day = per_day


def is_per_day(text: str) -> bool:
    """True if a 429 says the day's quota is spent (waiting seconds will not help)."""
    return bool(_PER_DAY.search(text))


class ModeratorUnavailable(ModeratorError):
    """A server error, a timeout, a refused connection, a bad key or model: not this step."""


class ModeratorBlocked(ModeratorError):
    """The answer was withheld by a safety filter."""


# A per-minute 429 is tried again after the server's delay, unless that is too long to wait.
RATE_RETRY = Retry(
    on=lambda exc: (
        isinstance(exc, ModeratorRateLimited)
        and not exc.per_day
        and _rate_wait(exc) <= MAX_RETRY_DELAY_S
    ),
    attempts=MAX_RATE_RETRIES + 1,
    first_s=DEFAULT_RETRY_DELAY_S,
    longest_s=MAX_RETRY_DELAY_S,
)


class ModeratorOutputInvalid(ModeratorError):
    """The answer did not validate, even after the repair request."""


# How a failed request is recorded in `moderator_calls` (any other failure: "error").
_OUTCOMES: dict[type[ModeratorError], str] = {
    ModeratorRateLimited: "rate_limited",
    ModeratorBlocked: "blocked",
}


@dataclass(frozen=True)
class ModelReply:
    """A backend's answer: the text, the SDK's parsed object if any, the token counts."""

    text: str
    parsed: object = None
    input_tokens: int = 0
    output_tokens: int = 0


class Backend(Protocol):
    """One way of reaching Gemini (the API through google-genai, or the CLI)."""

    model: str

    async def generate(self, prompt: Prompt) -> ModelReply:
        """Send one request; raise only ModeratorError subclasses."""
        ...

    async def aclose(self) -> None:
        """Release what the backend holds (the API client's HTTP session)."""
        ...


class GeminiModerator:
    """The Moderator port over a backend (the API or the CLI); falls back to `rules` step by
    step; its `quota` counts the requests of each day against their budget."""

    def __init__(
        self,
        backend: Backend,
        quota: ModeratorQuota,
        *,
        language: str,
        sleep: Sleep,
        rules: RulesModerator,
        members: tuple[Participant, ...] = (),
    ) -> None:
        self._backend = backend
        self._members = members  # PARTICIPANTS: who a boardroom's squad is suggested from
        self._quota = quota
        self._language = language
        self._sleep = sleep
        self._rules = rules
        self._spent_logged: date | None = None

    async def detect(self, window: tuple[ChatLine, ...], language: str = "") -> Detection:
        """Whether the chat holds an open decision (written in `language`, else the
        moderator's); never debate-worthy in fallback."""
        prompt = detection_prompt(window, language or self._language, self._members)
        reply = await self._ask(prompt, DetectionReply, None)
        return to_detection(reply) if reply is not None else await self._rules.detect(window)

    async def judge(self, view: ModeratorView) -> Decision:
        """What follows the latest reply, with the updated running summary."""
        prompt = judge_prompt(view, view.debate.spoken_in(self._language))
        reply = await self._ask(prompt, JudgeReply, view.debate.id)
        if reply is not None:
            return to_decision(reply)
        lasting = await self._quota.spent_reason() is not None  # else: this step only
        return replace(await self._rules.judge(view), lasting=lasting)

    async def conclude(self, view: ModeratorView) -> Conclusion:
        """The Conclusion page's content."""
        prompt = conclusion_prompt(view, view.debate.spoken_in(self._language))
        reply = await self._ask(prompt, ConclusionReply, view.debate.id)
        return to_conclusion(reply) if reply is not None else await self._rules.conclude(view)

    async def perform(self, request: TaskRequest) -> str:
        """A format's task, validated; the port's ModeratorUnavailable when rules stand in."""
        prompt = task_prompt(request, request.language or self._language)
        schema = prompt.schema
        output = await self._answer(
            prompt,
            request.debate_id,
            lambda reply: task_answer(reply.text, reply.parsed, schema, request.json),
        )
        if output is None:
            raise TaskUnavailable(f"task {request.task}: no usable answer from the model")
        return output

    async def ping(self) -> str:
        """One tiny counted request (for `doctor`); raises ModeratorError when it fails."""
        line = ChatLine(author_id=0, author_name="doctor", content="ping", at=datetime.now(UTC))
        prompt = detection_prompt((line,), self._language)
        call_id = await self._quota.reserve("doctor", self._backend.model, prompt.input_chars, None)
        if call_id is None:
            return "daily budget spent: the rule-based moderator serves until tomorrow"
        reply = await self._generate(call_id, prompt)
        _, error = validated(reply.text, reply.parsed, DetectionReply)
        if error:
            raise ModeratorOutputInvalid(error)
        used = await self._quota.used_today()
        return f"{self._backend.model} answered ({used}/{self._quota.budget} requests today)"

    async def aclose(self) -> None:
        """Release the backend's resources (the API client's session)."""
        await self._backend.aclose()

    async def _ask(self, prompt: Prompt, model: type[M], debate_id: int | None) -> M | None:
        """A validated answer; None: rules decide."""
        return await self._answer(
            prompt, debate_id, lambda reply: validated(reply.text, reply.parsed, model)
        )

    async def _answer(
        self, prompt: Prompt, debate_id: int | None, read: Callable[[ModelReply], tuple[T, str]]
    ) -> T | None:
        """`read`'s answer, after at most one repair request; None: rules decide."""
        for attempt in (1, 2):
            sent = await self._send(prompt, debate_id)
            if sent is None:
                return None
            call_id, reply = sent
            answer, error = _oversize(reply) or read(reply)
            if not error:
                return answer
            await self._quota.mark(call_id, "invalid", error)
            log.warning("moderator %s: invalid answer (%d/2):\n%s", prompt.purpose, attempt, error)
            prompt = prompt.repaired(shorten(reply.text, ANSWER_CHARS), error)
        log.warning("moderator %s: invalid twice, the rules decide this step", prompt.purpose)
        return None

    async def _send(self, prompt: Prompt, debate_id: int | None) -> tuple[int, ModelReply] | None:
        """One counted request with its 429 retries; None when this step goes to the rules."""

        async def counted() -> tuple[int, ModelReply] | None:
            call_id = await self._quota.reserve(
                prompt.purpose, self._backend.model, prompt.input_chars, debate_id
            )
            if call_id is None:
                await self._log_spent()
                return None
            return call_id, await self._generate(call_id, prompt)

        def noted(exc: Exception, _failures: int) -> None:
            log.info("moderator %s: 429, retrying in %.0f s", prompt.purpose, _rate_wait(exc))

        try:
            return await retrying(
                counted,
                RATE_RETRY,
                sleep=self._sleep,
                wait=lambda e, _n: _rate_wait(e),
                on_retry=noted,
            )
        except ModeratorRateLimited as exc:
            if exc.per_day:
                await self._quota.exhaust(REASON_QUOTA)
                await self._log_spent()
            else:
                log.warning("moderator %s: still rate limited, rules decide", prompt.purpose)
        except ModeratorBlocked as exc:
            log.warning("moderator %s: answer blocked (%s), rules decide", prompt.purpose, exc)
        except ModeratorUnavailable as exc:
            log.warning("moderator %s: %s, rules decide this step", prompt.purpose, exc)
        return None

    async def _generate(self, call_id: int, prompt: Prompt) -> ModelReply:
        """Send one counted request and record how it went; raises what the backend raised."""
        started = time.monotonic()
        failure: ModeratorError | None = None
        reply = ModelReply("")  # a failed request used no tokens
        try:
            reply = await self._backend.generate(prompt)
        except ModeratorError as exc:
            failure = exc
        await self._quota.finish(
            call_id,
            _OUTCOMES.get(type(failure), "error") if failure else "ok",
            input_tokens=reply.input_tokens,
            output_tokens=reply.output_tokens,
            latency_ms=int((time.monotonic() - started) * 1000),
            error=str(failure or ""),
        )
        if failure is not None:
            raise failure
        return reply

    async def _log_spent(self) -> None:
        """Say once a day, not once a message, that the moderator runs on rules."""
        today = self._quota.today()
        if self._spent_logged != today:
            self._spent_logged = today
            reason = await self._quota.spent_reason()
            log.warning("moderator: daily %s spent; rule-based until tomorrow", reason or "quota")


def _oversize(reply: ModelReply) -> tuple[None, str] | None:
    """Why an answer too large to be one is refused before it is read (None: it is not)."""
    if len(reply.text) <= ANSWER_CHARS:
        return None
    return (
        None,
        f"- (root): the answer was {len(reply.text):,} characters; at most {ANSWER_CHARS:,}",
    )


def _rate_wait(error: BaseException) -> float:
    """A 429's wait: what the server said, else the default."""
    asked = asked_wait(error)
    return asked if asked is not None else DEFAULT_RETRY_DELAY_S
