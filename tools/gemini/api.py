"""The moderator's API backend (`MODERATOR_BACKEND=api`): Gemini Flash through google-genai
(`client.aio`)."""

from __future__ import annotations

import asyncio
import json
import re

import aiohttp
from google import genai
from google.genai import errors, types

from handlers.core.shorten import shorten
from tools.gemini.context import Prompt
from tools.gemini.core import (
    ModelReply,
    ModeratorBlocked,
    ModeratorRateLimited,
    ModeratorUnavailable,
    is_per_day,
)
from tools.gemini.schemas import bare_schema

API_VERSION = "v1beta"  # the SDK's default is v1; structured output and thinking need v1beta
_BLOCKED_FINISH = frozenset({"SAFETY", "PROHIBITED_CONTENT", "BLOCKLIST", "SPII", "RECITATION"})
_RETRY_DELAY = re.compile(r"\"retryDelay\"\s*:\s*\"(\d+(?:\.\d+)?)s\"")


def rate_limit_of(body_text: str) -> tuple[float | None, bool]:
    """From a 429's error body: the RetryInfo delay in seconds, and whether the day is spent."""
    match = _RETRY_DELAY.search(body_text)
    return (float(match.group(1)) if match else None), is_per_day(body_text)


def make_client(api_key: str, timeout_s: float) -> genai.Client:
    """The google-genai client (the base URL may come from GOOGLE_GEMINI_BASE_URL)."""
    options = types.HttpOptions(api_version=API_VERSION, timeout=int(timeout_s * 1000))
    return genai.Client(api_key=api_key, http_options=options)


class GeminiApiBackend:
    """One structured-output request through the async google-genai client."""

    def __init__(self, client: genai.Client, model: str, timeout_s: float) -> None:
        self._client = client
        self.model = model
        self._timeout_s = timeout_s

    async def generate(self, prompt: Prompt) -> ModelReply:
        """Send the prompt with its response schema; map every failure to a ModeratorError."""
        config = types.GenerateContentConfig(
            system_instruction=prompt.system,
            response_mime_type="application/json" if prompt.json else "text/plain",
            # Bare: the types only, the system instruction says what each field means.
            response_schema=bare_schema(prompt.schema)
            if prompt.bare_schema and prompt.schema is not None
            else prompt.schema,
            thinking_config=types.ThinkingConfig(thinking_level=types.ThinkingLevel.LOW),
            http_options=types.HttpOptions(timeout=int(self._timeout_s * 1000)),
        )
        contents = [
            types.Content(role=role, parts=[types.Part(text=text)])
            for role, text in prompt.messages
        ]
        try:
            # The SDK's own timeout covers the HTTP exchange; this one bounds everything else.
            async with asyncio.timeout(self._timeout_s + 5):
                response = await self._client.aio.models.generate_content(
                    model=self.model, contents=contents, config=config
                )
        except errors.APIError as exc:
            raise _api_error(exc) from exc
        except TimeoutError as exc:
            raise ModeratorUnavailable(f"no answer within {self._timeout_s:g} s") from exc
        except (aiohttp.ClientError, OSError, ValueError) as exc:
            # ValueError: a non-JSON error body (json.JSONDecodeError) from a proxy or outage.
            raise ModeratorUnavailable(shorten(f"{type(exc).__name__}: {exc}", 300)) from exc
        return _reply(response)

    async def aclose(self) -> None:
        """Close the client's HTTP session."""
        await self._client.aio.aclose()


def _api_error(exc: errors.APIError) -> ModeratorRateLimited | ModeratorUnavailable:
    detail = f"{exc.code} {exc.status or ''}".strip()
    if exc.code == 429:
        retry_after, per_day = rate_limit_of(json.dumps(exc.details, default=str))
        return ModeratorRateLimited(detail, retry_after, per_day)
    return ModeratorUnavailable(shorten(f"{detail}: {exc.message or ''}", 300))


def _reply(response: types.GenerateContentResponse) -> ModelReply:
    feedback = response.prompt_feedback
    if feedback is not None and feedback.block_reason is not None:
        raise ModeratorBlocked(f"prompt blocked: {feedback.block_reason}")
    candidate = response.candidates[0] if response.candidates else None
    finish = candidate.finish_reason if candidate is not None else None
    finish_name = str(finish.value if finish is not None else "")
    if finish_name in _BLOCKED_FINISH:
        raise ModeratorBlocked(f"finish reason {finish_name}")
    parts = candidate.content.parts if candidate and candidate.content else None
    text = "".join(part.text or "" for part in parts or () if not part.thought)
    usage = response.usage_metadata
    return ModelReply(
        text=text,
        parsed=response.parsed,
        input_tokens=(usage.prompt_token_count or 0) if usage else 0,
        output_tokens=(usage.candidates_token_count or 0) if usage else 0,
    )
