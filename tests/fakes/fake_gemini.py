"""A fake Gemini Developer API on 127.0.0.1 for the real google-genai SDK and the real gemini CLI.

It answers `POST /{version}/models/{model}:generateContent`, `:streamGenerateContent?alt=sse`
and `:countTokens`, and the Decisions API's `POST /{version}/decisions` (below). Every
request is recorded (`requests`); replies come from a FIFO script
(`push`) and, once the script is empty, from `default` or, with `auto=True`, from valid JSON
made up from the schema the request asked for (`responseSchema`, `responseJsonSchema`, or a
```json schema block in the prompt, as the CLI backend sends it).

A step is a dict:
  {"kind": "text", "text": "..."}            200, one candidate, finishReason STOP
  {"kind": "json", "obj": {...}}             200, text = json.dumps(obj)
  {"kind": "auto"}                           200, JSON made up from the requested schema
  {"kind": "invalid_json", "text": "..."}    200, text that is not the JSON asked for
  {"kind": "truncated", "obj": {...}}        200, half the JSON, finishReason MAX_TOKENS
  {"kind": "safety"}                         200, finishReason SAFETY and no content
  {"kind": "prompt_blocked"}                 200, no candidates, promptFeedback.blockReason
  {"kind": "error", "status": 429, "retry_delay": "7s" | None, "quota_id": "...PerDay..."}
                                             (an error may add "message": the API's words)
  {"kind": "hang"}                           never answers (until the server stops)
Any step may add "delay" (seconds before answering; a test's own timeout, not a sleep).

The Decisions API answers each question of a request as the real one does (`noul`: P(true) in
[0.01, 0.99] and `confidence` = max(p, 1 - p)); its script is `push_decision`:
  {"kind": "noul", "p": 0.42}                every question answered with P(true) = 0.42
  {"kind": "body", "body": {...}}            this exact response body (bad values, no answers)
  {"kind": "blocked"}                        prompt_feedback.block_reason, no answers
  {"kind": "error", "status": 429}           an error, as for generate
Once its script is empty, P(true) comes from `decision_probability` (tests/fakes/
gemini_answers.py): a deterministic stand-in that reads the input's words, not a model.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import uuid
from collections import deque
from collections.abc import Callable
from typing import Any

from aiohttp import web

from tests.fakes.gemini_answers import decision_probability, rule_answer, schema_in_prompt

Step = dict[str, Any]
Responder = Callable[[dict[str, Any], str], dict[str, Any] | None]

PER_MINUTE = "GenerateRequestsPerMinutePerProjectPerModel-FreeTier"
PER_DAY = "GenerateRequestsPerDayPerProjectPerModel-FreeTier"

_ERRORS = {
    400: ("INVALID_ARGUMENT", "Request contains an invalid argument."),
    403: ("PERMISSION_DENIED", "API key not valid. Please pass a valid API key."),
    404: ("NOT_FOUND", "models/x is not found for API version v1beta."),
    429: ("RESOURCE_EXHAUSTED", "You exceeded your current quota, please check your plan."),
    500: ("INTERNAL", "An internal error has occurred."),
    503: ("UNAVAILABLE", "The model is overloaded. Please try again later."),
}


def error_body(status: int, retry_delay: str | None = "7s", quota_id: str = PER_MINUTE) -> dict:
    """A real-looking Google API error body (429 carries QuotaFailure and RetryInfo)."""
    code, message = _ERRORS.get(status, ("UNKNOWN", "Unknown error."))
    error: dict[str, Any] = {"code": status, "message": message, "status": code}
    if status == 429:
        details: list[dict[str, Any]] = [
            {
                "@type": "type.googleapis.com/google.rpc.QuotaFailure",
                "violations": [
                    {
                        "quotaMetric": "generativelanguage.googleapis.com/"
                        "generate_content_free_tier_requests",
                        "quotaId": quota_id,
                        "quotaValue": "10",
                    }
                ],
            }
        ]
        if retry_delay is not None:
            details.append(
                {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": retry_delay}
            )
        error["details"] = details
    return {"error": error}


def request_text(body: dict[str, Any]) -> str:
    """Every text part of a request: the system instruction, then the contents."""
    parts = list((body.get("systemInstruction") or {}).get("parts") or [])
    for content in body.get("contents") or []:
        parts.extend(content.get("parts") or [])
    return "\n".join(str(part.get("text", "")) for part in parts)


def decision_input(body: dict[str, Any]) -> str:
    """A Decisions request's shared input as text (a string, or text content blocks)."""
    given = body.get("input", "")
    if isinstance(given, str):
        return given
    blocks = given if isinstance(given, list) else [given]
    return "\n".join(str(b.get("text", "")) for b in blocks if isinstance(b, dict))


def last_user_text(body: dict[str, Any]) -> str:
    """The text of the last user content: what the automatic rules look at."""
    users = [c for c in body.get("contents") or [] if c.get("role", "user") == "user"]
    if not users:
        return ""
    return "\n".join(str(part.get("text", "")) for part in users[-1].get("parts") or [])


class FakeGemini:
    """The fake server; `push` scripts replies, `requests` records what arrived."""

    def __init__(
        self, *, auto: bool = False, responder: Responder | None = None, default: Step | None = None
    ) -> None:
        self.auto = auto
        self.responder = responder
        self.default: Step = default or {"kind": "text", "text": "ok"}
        self.script: deque[Step] = deque()
        self.decision_script: deque[Step] = deque()
        self.requests: list[dict[str, Any]] = []
        self.port = 0
        self._runner: web.AppRunner | None = None
        self._arrived = asyncio.Condition()
        self._hanging: list[asyncio.Future[None]] = []

    # ---- control ---------------------------------------------------------
    def push(self, *steps: Step) -> FakeGemini:
        """Queue replies, one per generate request, in order."""
        self.script.extend(steps)
        return self

    def push_decision(self, *steps: Step) -> FakeGemini:
        """Queue Decisions API replies, one per request, in order."""
        self.decision_script.extend(steps)
        return self

    @property
    def decision_requests(self) -> list[dict[str, Any]]:
        """The Decisions API calls."""
        return [r for r in self.requests if r["method"] == "decisions"]

    @property
    def url(self) -> str:
        """The base URL to give the SDK (`HttpOptions(base_url=...)`) or the CLI."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def generate_requests(self) -> list[dict[str, Any]]:
        """The generate calls only (what the moderator's budget counts)."""
        return [r for r in self.requests if r["method"] not in {"countTokens", "decisions"}]

    async def wait_for(self, count: int, timeout: float = 10.0) -> None:
        """Wait until `count` generate requests have arrived."""
        async with asyncio.timeout(timeout), self._arrived:
            await self._arrived.wait_for(lambda: len(self.generate_requests) >= count)

    async def start(self, port: int = 0) -> FakeGemini:
        """Listen on 127.0.0.1 (port 0: a free one)."""
        app = web.Application()
        app.router.add_post(r"/{version}/models/{rest:.+}", self._handle)
        app.router.add_post(r"/{version}/decisions", self._decide)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", port)
        await site.start()
        self.port = self._runner.addresses[0][1]
        return self

    async def stop(self) -> None:
        """Release hanging requests and close the server."""
        for waiter in self._hanging:
            if not waiter.done():
                waiter.set_result(None)
        if self._runner is not None:
            await self._runner.cleanup()

    async def __aenter__(self) -> FakeGemini:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # ---- serving ---------------------------------------------------------
    async def _handle(self, request: web.Request) -> web.StreamResponse:
        model, _, method = request.match_info["rest"].partition(":")
        raw = await request.read()
        try:
            body = json.loads(raw) if raw else {}
        except ValueError:
            body = {}
        text = request_text(body)
        record = {
            "path": request.path,
            "version": request.match_info["version"],
            "model": model,
            "method": method,
            "query": dict(request.query),
            "api_key": request.headers.get("x-goog-api-key", ""),
            "json": body,
            "text": text,
            "input_chars": len(text),
        }
        self.requests.append(record)
        async with self._arrived:
            self._arrived.notify_all()
        if method == "countTokens":
            return web.json_response({"totalTokens": max(1, len(text) // 4)})
        step = self.script.popleft() if self.script else self._fallback_step()
        if step.get("delay"):
            await asyncio.sleep(step["delay"])  # the server's own latency, not a test waiting
        if step.get("kind") == "hang":
            waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._hanging.append(waiter)
            await waiter
            return web.json_response(error_body(503), status=503)
        if step.get("kind") == "error":
            status = int(step.get("status", 500))
            body_out = error_body(
                status, step.get("retry_delay", "7s"), step.get("quota_id", PER_MINUTE)
            )
            if step.get("message"):  # the API's own words for this error (a too-long input)
                body_out["error"]["message"] = step["message"]
            return web.json_response(body_out, status=status)
        payload = self._payload(step, body, text, model)
        if method == "streamGenerateContent":
            return await self._sse(request, payload)
        return web.json_response(payload)

    async def _decide(self, request: web.Request) -> web.StreamResponse:
        """`POST /{version}/decisions`: every question answered (only `noul` ones here)."""
        body = json.loads(await request.read() or b"{}")
        text = decision_input(body)
        self.requests.append(
            {
                "path": request.path,
                "version": request.match_info["version"],
                "model": body.get("model", ""),
                "method": "decisions",
                "query": dict(request.query),
                "api_key": request.headers.get("x-goog-api-key", ""),
                "json": body,
                "text": text,
                "input_chars": len(text),
            }
        )
        step = self.decision_script.popleft() if self.decision_script else {"kind": "auto"}
        kind = step.get("kind")
        if kind == "error":
            status = int(step.get("status", 500))
            return web.json_response(error_body(status), status=status)
        # The Decisions API speaks snake_case, as the SDK's models read it.
        usage = {"total_input_tokens": max(1, len(text) // 4), "total_output_tokens": 0}
        if kind == "body":
            return web.json_response(step["body"])
        if kind == "blocked":
            feedback = {"block_reason": "safety"}
            return web.json_response({"prompt_feedback": feedback, "usage": usage})
        p = float(step["p"]) if kind == "noul" else decision_probability(text)
        p = min(0.99, max(0.01, p))
        answer = {"type": "noul", "noul": round(p, 4), "confidence": round(max(p, 1 - p), 4)}
        answers = {qid: dict(answer) for qid in body.get("questions") or {}}
        return web.json_response({"answers": answers, "usage": usage})

    def _fallback_step(self) -> Step:
        return {"kind": "auto"} if self.auto else dict(self.default)

    def _payload(self, step: Step, body: dict[str, Any], text: str, model: str) -> dict:
        prompt_tokens = max(1, len(text) // 4)
        kind = step.get("kind", "text")
        usage = {"promptTokenCount": prompt_tokens, "totalTokenCount": prompt_tokens}
        if kind == "safety":
            candidate = {"finishReason": "SAFETY", "index": 0, "safetyRatings": _BLOCKED}
            return {"candidates": [candidate], "usageMetadata": usage, "modelVersion": model}
        if kind == "prompt_blocked":
            feedback = {"blockReason": "SAFETY", "safetyRatings": _BLOCKED}
            return {"promptFeedback": feedback, "usageMetadata": usage, "modelVersion": model}
        finish = "STOP"
        if kind == "json":
            reply = json.dumps(step["obj"], ensure_ascii=False)
        elif kind == "auto":
            reply = json.dumps(self.answer(body, text), ensure_ascii=False)
        elif kind == "invalid_json":
            reply = step.get("text", "Sure! Here is my verdict: {action: continue")
        elif kind == "truncated":
            full = json.dumps(step.get("obj", {"action": "continue", "summary": "x" * 200}))
            reply, finish = full[: len(full) // 2], "MAX_TOKENS"
        else:
            reply = str(step.get("text", "ok"))
        out_tokens = max(1, len(reply) // 4)
        return {
            "candidates": [
                {
                    "content": {"role": "model", "parts": [{"text": reply}]},
                    "finishReason": finish,
                    "index": 0,
                }
            ],
            "usageMetadata": {
                "promptTokenCount": prompt_tokens,
                "candidatesTokenCount": out_tokens,
                "totalTokenCount": prompt_tokens + out_tokens,
            },
            "modelVersion": model,
            "responseId": uuid.uuid4().hex[:22],
        }

    async def _sse(self, request: web.Request, payload: dict) -> web.StreamResponse:
        """The streaming shape the CLI reads: one SSE event carrying the whole reply."""
        response = web.StreamResponse(status=200, headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        await response.write(b"data: " + json.dumps(payload).encode() + b"\r\n\r\n")
        await response.write_eof()
        return response

    # ---- automatic answers ----------------------------------------------
    def answer(self, body: dict[str, Any], text: str) -> dict[str, Any]:
        """Valid JSON for the schema the request asked for, shaped by simple rules."""
        config = body.get("generationConfig") or {}
        schema = config.get("responseSchema") or config.get("responseJsonSchema")
        schema = schema or schema_in_prompt(text) or {"type": "object", "properties": {}}
        user = last_user_text(body)
        if self.responder is not None:
            made = self.responder(schema, user)
            if made is not None:
                return made
        return rule_answer(schema, user)


_BLOCKED = [{"category": "HARM_CATEGORY_HARASSMENT", "probability": "HIGH", "blocked": True}]


async def _serve(port: int, auto: bool) -> None:
    server = await FakeGemini(auto=auto).start(port)
    print(f"fake Gemini on {server.url}", flush=True)
    await asyncio.Event().wait()


def main() -> None:
    """Run standalone: python -m tests.fakes.fake_gemini [--port N] [--auto]."""
    parser = argparse.ArgumentParser(description="fake Gemini API on 127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--auto", action="store_true", help="answer from the requested schema")
    args = parser.parse_args()
    asyncio.run(_serve(args.port, args.auto))


if __name__ == "__main__":
    main()
