"""The detection probability from the Gemini Decisions API (`client.aio.decisions.create`,
google-genai 3.2 and later): one yes/no (`noul`) question on the chat window, answered with a
calibrated P(true) in [0.01, 0.99] and no generated text.

Each request is counted against the moderator's daily budget like any other. Whatever goes
wrong (the budget spent, an error, a block, an answer that does not read) gives None: detection
then falls back to the moderator's own score, never to a card on an unreadable number.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from google import genai
from google.genai import _interactions as interactions_errors
from google.genai import decisions, types

import prompts
from handlers.core.model import ChatLine
from handlers.core.probability import probability_of
from handlers.core.shorten import shorten
from tools.store.quota import ModeratorQuota

log = logging.getLogger(__name__)

QUESTION_ID = "open_decision"
CHAT_LINE_CHARS = 500  # as the detection prompt cuts a line


def make_decisions_client(api_key: str, timeout_s: float, base_url: str = "") -> genai.Client:
    """A client for the Decisions API: no SDK retries (its default is four, with waits of up
    to 8 s: a missed window is cheaper than a held one; the next window asks again)."""
    options = types.HttpOptions(
        api_version="v1beta",
        timeout=int(timeout_s * 1000),
        retry_options=types.HttpRetryOptions(attempts=1),
        base_url=base_url or None,
    )
    return genai.Client(api_key=api_key, http_options=options)


def chat_input(window: tuple[ChatLine, ...]) -> str:
    """The window as the question's shared input, one `name: text` a line."""
    return "\n".join(
        f"{line.author_name or line.author_id}: {shorten(line.content, CHAT_LINE_CHARS)}"
        for line in window
    )


def question() -> decisions.NoulQuestionParam:
    """The one yes/no question, its words from prompts/."""
    return {
        "type": "noul",
        "instructions": prompts.load("detection_decision"),
        "criteria": {
            "true_description": prompts.load("detection_decision_true").strip(),
            "false_description": prompts.load("detection_decision_false").strip(),
        },
    }


class GeminiDecisionScorer:
    """The DecisionScorer port over the Decisions API."""

    def __init__(
        self, client: genai.Client, model: str, quota: ModeratorQuota, timeout_s: float
    ) -> None:
        self._client = client
        self._model = model
        self._quota = quota
        self._timeout_s = timeout_s

    async def probability(self, window: tuple[ChatLine, ...]) -> float | None:
        """P(an open decision worth a debate); None when no usable answer came."""
        text = chat_input(window)
        call_id = await self._quota.reserve("decide", self._model, len(text), None)
        if call_id is None:
            return None
        started = time.monotonic()
        outcome, error, answer, tokens = "ok", "", None, 0
        try:
            async with asyncio.timeout(self._timeout_s + 5):
                response = await self._client.aio.decisions.create(
                    model=self._model, input=text, questions={QUESTION_ID: question()}
                )
            answer, error, tokens = _read(response)
            outcome = "invalid" if error else "ok"
        except interactions_errors.RateLimitError as exc:
            outcome, error = "rate_limited", shorten(str(exc), 300)
        except (interactions_errors.GeminiNextGenAPIClientError, TimeoutError, OSError) as exc:
            outcome, error = "error", shorten(f"{type(exc).__name__}: {exc}", 300)
        await self._quota.finish(
            call_id,
            outcome,
            input_tokens=tokens,
            latency_ms=int((time.monotonic() - started) * 1000),
            error=error,
        )
        if error:
            log.warning(
                "detection decision %s: %s; the moderator's own score serves", outcome, error
            )
        return answer

    async def aclose(self) -> None:
        """Close the client's HTTP session."""
        await self._client.aio.aclose()


def _read(response: Any) -> tuple[float | None, str, int]:
    """(P(true), '' or why the answer does not read, input tokens)."""
    usage = getattr(response, "usage", None)
    tokens = int(getattr(usage, "total_input_tokens", None) or 0)
    feedback = getattr(response, "prompt_feedback", None)
    if feedback is not None and getattr(feedback, "block_reason", None):
        return None, f"input blocked: {feedback.block_reason}", tokens
    answer = (getattr(response, "answers", None) or {}).get(QUESTION_ID)
    if getattr(answer, "type", None) != "noul":
        return None, f"no yes/no answer to {QUESTION_ID}", tokens
    value = probability_of(getattr(answer, "noul", None))
    if value is None:
        return None, f"unreadable probability {getattr(answer, 'noul', None)!r}", tokens
    return value, "", tokens
