"""A fake Anthropic Messages API on 127.0.0.1 that the real `claude` CLI accepts.

Stdlib only (a threaded http.server on port 0), controllable in process:

    fake = FakeAnthropic(); fake.start()
    fake.script(429, 200)             # per-request statuses, then `fake.mode` ("ok" by default)
    fake.script_replies("one", "two")  # reply texts, then "FAKE REPLY <n>"
    fake.mode = "hold"                 # replies wait until fake.release() or fake.stop()
    fake.stream_chunk, fake.stream_gap_s = 100, 0.2  # stream text in 100-char deltas, 0.2 s apart
    fake.on_delta = callback           # called (in the fake's thread) as each delta is sent
    fake.headers = limit_headers("allowed_warning", resets_at, 0.85)  # a subscription's window
    fake.script(usage_limit(resets_at), credits_required())  # the real refusals of a limit
    env = fake.cli_env(tmp_path / "claude-config")  # the offline environment for the CLI
    ...
    fake.messages()                    # bodies of every POST /v1/messages, in order
    fake.stop()

A request offering the StructuredOutput tool (`claude --json-schema`) gets a scripted reply's
JSON object (in a ```json fence, or the whole reply) back through that tool, as a model would
answer; a reply without one comes back as text. The tool's input streams as the API sends it:
in several `input_json_delta` pieces of partial JSON, cut anywhere (`stream_chunk` characters
each, TOOL_INPUT_CHUNK by default). A prose reply is fitted to the schema as a model would
write the same answer in it: into a schema's one field, the boardroom's numbered parts into its
object, or as the `opinion`. Told its call did not match the schema, the model makes the same
call again (a scripted answer that lacks a part stays lacking, and the script stays in step),
or, with `corrects_itself`, calls it with the next scripted reply.
A prompt containing `CALL_TOOL <Name> <json>` gets a tool_use block back (as the reference fake),
so the CLI's permission handling can be exercised; the next request carrying the tool_result gets
"FAKE REPLY <n> got tool_result: ...".
"""

from __future__ import annotations

import asyncio
import collections
import json
import os
import re
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from handlers.core.formats.boardroom.reply import VOTES, parse_position

REPO_ROOT = Path(__file__).resolve().parents[2]
_LOGGED_HEADERS = ("user-agent", "anthropic-version", "anthropic-beta", "x-stainless-retry-count")
_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    429: "rate_limit_error",
    500: "api_error",
    529: "overloaded_error",
}
_TOOL_CALL = re.compile(r"CALL_TOOL\s+(\w+)\s+(\{.*\})", re.S)
_JSON_FENCE = re.compile(r"```json\s*\n(.*?)\n\s*```", re.S)
STRUCTURED = "StructuredOutput"  # the tool `claude --json-schema` offers the model
TOOL_INPUT_CHUNK = 16  # characters of a tool's input JSON per delta, unless stream_chunk says
_DELTAS = ('"text_delta"', '"input_json_delta"')


@dataclass(frozen=True)
class Answer:
    """A scripted error answer: its HTTP status, JSON body and headers (a limit's real shape)."""

    status: int
    body: dict[str, Any] | None = None
    headers: dict[str, str] = field(default_factory=dict)


def limit_headers(status: str, resets_at: int, utilization: float) -> dict[str, str]:
    """The unified rate-limit headers the API sends with a subscription's answers (the
    five-hour window is the one that binds)."""
    return {
        "anthropic-ratelimit-unified-status": status,
        "anthropic-ratelimit-unified-reset": str(resets_at),
        "anthropic-ratelimit-unified-representative-claim": "five_hour",
        "anthropic-ratelimit-unified-5h-status": status,
        "anthropic-ratelimit-unified-5h-reset": str(resets_at),
        "anthropic-ratelimit-unified-5h-utilization": str(utilization),
        "anthropic-ratelimit-unified-overage-status": "rejected",
        "anthropic-ratelimit-unified-overage-disabled-reason": "out_of_credits",
    }


def usage_limit(resets_at: int) -> Answer:
    """The 429 of a spent usage limit that resets at `resets_at` (epoch seconds)."""
    message = "You have reached your usage limit."
    body = {"type": "error", "error": {"type": "rate_limit_error", "message": message}}
    return Answer(429, body, limit_headers("rejected", resets_at, 1.0))


def credits_required() -> Answer:
    """The 429 nothing clears by itself: usage credits are needed and off."""
    error = {"type": "rate_limit_error", "message": "Your organization is out of usage credits."}
    return Answer(429, {"type": "error", "error": error, "error_code": "credits_required"})


def prompt_too_long(tokens: int = 212_345, limit: int = 200_000) -> Answer:
    """The 400 of a request longer than the model's context window, in the API's words."""
    message = f"prompt is too long: {tokens} tokens > {limit} maximum"
    return Answer(
        400, {"type": "error", "error": {"type": "invalid_request_error", "message": message}}
    )


@dataclass
class Request:
    """One request the fake received; `done` is set when its answer was sent."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any
    arrived: float = field(default_factory=time.monotonic)
    done: float | None = None
    status: int = 0


class FakeAnthropic:
    """The fake API server: start()/stop(), `url`, scripting and a request log."""

    def __init__(self) -> None:
        # "ok", "hold", an HTTP status or an Answer for every request
        self.mode: str | int | Answer = "ok"
        self.headers: dict[str, str] = {}  # sent with every answer (limit_headers, say)
        self.usage = {"input_tokens": 10, "output_tokens": 5}  # each reply's (sets its cost)
        self.delay_s = 0.0  # wait this long before each ok reply (a slow model)
        # Given StructuredOutput (`--json-schema`), answer through it (False: a model that
        # ignores it and writes text, which the CLI then asks for once more).
        self.follows_schema = True
        # Told its StructuredOutput call did not match: call it with the next scripted reply
        # (False: the same call again, until the CLI gives up).
        self.corrects_itself = False
        # Streamed replies: text in deltas of this many characters (0: one delta), each sent
        # `stream_gap_s` after the last; `stream_hold_after` deltas, then wait for release().
        self.stream_chunk = 0
        self.stream_gap_s = 0.0
        self.stream_hold_after: int | None = None
        self.on_delta: Callable[[int, str], None] | None = None  # (request number, delta)
        self._steps: collections.deque[str | int | Answer] = collections.deque()
        self._replies: collections.deque[str] = collections.deque()
        self._log: list[Request] = []
        self._cond = threading.Condition()
        self._release = threading.Event()
        self._stopping = False
        self._counter = 0
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # ---- life cycle ------------------------------------------------------
    def start(self) -> FakeAnthropic:
        """Listen on 127.0.0.1 on a free port, serving from a background thread."""
        handler = type("Handler", (_Handler,), {"fake": self})
        self._server = _Server(("127.0.0.1", 0), handler)
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Release held replies, stop serving and close the socket."""
        self._stopping = True
        self._release.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> FakeAnthropic:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def url(self) -> str:
        """The base URL for ANTHROPIC_BASE_URL."""
        assert self._server is not None, "start() first"
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    # ---- scripting -------------------------------------------------------
    def script(self, *steps: str | int | Answer) -> None:
        """Answer the next /v1/messages requests with these (200, 429, "hold", an Answer...)."""
        with self._cond:
            self._steps.extend(steps)

    def script_replies(self, *texts: str) -> None:
        """Reply with these texts, in order, before falling back to "FAKE REPLY <n>"."""
        with self._cond:
            self._replies.extend(texts)

    def release(self) -> None:
        """Let held replies go."""
        self._release.set()

    # ---- what arrived ----------------------------------------------------
    def requests(self) -> list[Request]:
        """Every request so far, in arrival order."""
        with self._cond:
            return list(self._log)

    def message_requests(self) -> list[Request]:
        """The POST /v1/messages requests (the model calls)."""
        return [r for r in self.requests() if r.method == "POST" and _is_messages(r.path)]

    def messages(self) -> list[dict[str, Any]]:
        """The bodies of the model calls."""
        return [r.body for r in self.message_requests()]

    def wait_for_messages(self, count: int, timeout: float = 30.0) -> list[Request]:
        """Block until `count` model calls arrived; raise TimeoutError otherwise."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                found = [r for r in self._log if r.method == "POST" and _is_messages(r.path)]
                if len(found) >= count:
                    return found
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"{len(found)} of {count} model calls arrived")
                self._cond.wait(left)

    async def wait_messages(self, count: int, timeout: float = 30.0) -> list[Request]:
        """`wait_for_messages` for async tests (runs in a thread, never blocks the loop)."""
        return await asyncio.to_thread(self.wait_for_messages, count, timeout)

    # ---- the CLI's environment -------------------------------------------
    def cli_env(self, config_dir: Path, *, retries: int = 0) -> dict[str, str]:
        """A whole, offline environment for `claude` pointed at this fake.

        Nothing is inherited but PATH, so no real credential (ANTHROPIC_AUTH_TOKEN,
        CLAUDE_CODE_OAUTH_TOKEN) can reach the CLI.
        """
        tmp = config_dir / "tmp"
        tmp.mkdir(parents=True, exist_ok=True)
        return {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(config_dir),
            "LANG": "C.UTF-8",
            "CLAUDE_CONFIG_DIR": str(config_dir),
            "CLAUDE_CODE_TMPDIR": str(tmp),
            "ANTHROPIC_BASE_URL": self.url,
            "ANTHROPIC_API_KEY": "dummy-key",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_TELEMETRY": "1",
            "DISABLE_AUTOUPDATER": "1",
            "DISABLE_ERROR_REPORTING": "1",
            "CLAUDE_CODE_MAX_RETRIES": str(retries),
        }

    # ---- used by the handler ---------------------------------------------
    def _record(self, request: Request) -> None:
        with self._cond:
            self._log.append(request)
            self._cond.notify_all()

    def _next_step(self, keep_reply: bool = False) -> tuple[str | int | Answer, str | None, int]:
        with self._cond:
            step = self._steps.popleft() if self._steps else self.mode
            self._counter += 1
            ok = step in ("ok", 200) and not keep_reply
            reply = self._replies.popleft() if self._replies and ok else None
            return step, reply, self._counter

    def _pause(self, seconds: float) -> bool:
        """Wait between streamed deltas (release() does not shorten it); False when stopping."""
        deadline = time.monotonic() + seconds
        while not self._stopping and (left := deadline - time.monotonic()) > 0:
            time.sleep(min(left, 0.05))
        return not self._stopping

    def _hold(self, seconds: float | None) -> bool:
        """Wait (a slow or held reply); False when the fake is stopping."""
        self._release.wait(seconds)
        return not self._stopping


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a CLI killed mid-request closes its socket: expected, not worth a traceback


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    fake: FakeAnthropic

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_HEAD(self) -> None:
        self._track(None)
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self) -> None:
        request = self._track(None)
        path = self.path.split("?")[0]
        if path.startswith("/v1/models"):
            model = {"type": "model", "id": path.rsplit("/", 1)[-1], "display_name": "Fake"}
            self._json(request, 200, {"data": [model], "has_more": False})
        else:
            self._json(request, 404, _error(404))

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = {"_raw": raw.decode("utf-8", "replace")}
        request = self._track(body)
        path = self.path.split("?")[0]
        if path == "/v1/messages/count_tokens":
            return self._json(request, 200, {"input_tokens": len(raw) // 4})
        if not _is_messages(path):
            return self._json(request, 404, _error(404))
        refused = _refused_call(body or {}) if self.fake.follows_schema else None
        again = refused is not None and not self.fake.corrects_itself
        step, reply, n = self.fake._next_step(keep_reply=again)
        if step == "hold" and not self.fake._hold(None):
            self.close_connection = True
            return None
        if isinstance(step, Answer):
            return self._json(request, step.status, step.body or _error(step.status), step.headers)
        if step not in ("ok", "hold", 200):
            status = int(step)
            extra = {"retry-after": "0"} if status in (429, 529) else {}
            return self._json(request, status, _error(status), extra)
        if self.fake.delay_s and not self.fake._hold(self.fake.delay_s):
            self.close_connection = True
            return None
        if again and step in ("ok", 200):  # the same call as before, the script kept in step
            call = {"type": "tool_use", "id": f"toolu_fake_{n}", "name": STRUCTURED}
            return self._answer(request, body or {}, None, n, [dict(call, input=refused)])
        return self._answer(request, body or {}, reply, n)

    def _track(self, body: Any) -> Request:
        headers = {k.lower(): v for k, v in self.headers.items() if k.lower() in _LOGGED_HEADERS}
        request = Request(self.command, self.path, headers, body)
        self.fake._record(request)
        return request

    def _answer(
        self,
        request: Request,
        body: dict[str, Any],
        reply: str | None,
        n: int,
        given: list[Any] | None = None,
    ) -> None:
        blocks, stop_reason = (
            (given, "tool_use")
            if given is not None
            else _reply_blocks(body, reply, n, follows_schema=self.fake.follows_schema)
        )
        model = body.get("model", "claude-fake-1")
        usage = dict(self.fake.usage)
        if not body.get("stream"):
            message = {
                "id": f"msg_fake_{n}",
                "type": "message",
                "role": "assistant",
                "model": model,
                "content": blocks,
                "stop_reason": stop_reason,
                "stop_sequence": None,
                "usage": usage,
            }
            return self._json(request, 200, message)
        if self.fake.stream_chunk or self.fake.stream_gap_s:
            return self._stream(request, blocks, stop_reason, model, n, usage)
        data = "".join(_sse(blocks, stop_reason, model, n, usage)).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Content-Length", str(len(data)))
        self._limit_headers()
        self.end_headers()
        self.wfile.write(data)
        self._finish(request, 200)
        return None

    def _stream(
        self,
        request: Request,
        blocks: list[Any],
        stop_reason: str,
        model: str,
        n: int,
        usage: dict[str, int],
    ) -> None:
        """Send the events one by one, chunked, text deltas `stream_gap_s` apart."""
        fake = self.fake
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self._limit_headers()
        self.end_headers()
        sent = 0
        try:
            for event in _sse(blocks, stop_reason, model, n, usage, fake.stream_chunk):
                delta = any(kind in event for kind in _DELTAS)
                if delta:
                    if sent and fake.stream_gap_s and not fake._pause(fake.stream_gap_s):
                        return
                    if sent == fake.stream_hold_after and not fake._hold(None):
                        return
                    sent += 1
                data = event.encode()
                self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
                self.wfile.flush()
                if delta and fake.on_delta is not None:
                    said = json.loads(event.split("data: ", 1)[1])["delta"]
                    fake.on_delta(n, said.get("text", said.get("partial_json", "")))
            self.wfile.write(b"0\r\n\r\n")
        except OSError:  # the CLI went away mid-stream (killed): nothing to finish
            self.close_connection = True
            return
        self._finish(request, 200)
        return

    def _json(
        self, request: Request, status: int, obj: object, headers: dict[str, str] | None = None
    ) -> None:
        data = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for key, value in ({**self.fake.headers, **(headers or {})}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)
        self._finish(request, status)

    def _limit_headers(self) -> None:
        for key, value in self.fake.headers.items():
            self.send_header(key, value)

    def _finish(self, request: Request, status: int) -> None:
        with self.fake._cond:
            request.status = status
            request.done = time.monotonic()


def _is_messages(path: str) -> bool:
    return path.split("?", maxsplit=1)[0] == "/v1/messages"


def _error(status: int) -> dict[str, Any]:
    kind = _ERROR_TYPES.get(status, "api_error")
    return {"type": "error", "error": {"type": kind, "message": f"fake {status} error"}}


def text_of(content: Any) -> str:
    """The text blocks of a message's content, joined."""
    if isinstance(content, str):
        return content
    return "\n".join(
        b.get("text", "") for b in content or [] if isinstance(b, dict) and b.get("type") == "text"
    )


def _reply_blocks(
    body: dict[str, Any], reply: str | None, n: int, *, follows_schema: bool = True
) -> tuple[list[Any], str]:
    """The model's answer: to a tool's result, a text about it; to a `CALL_TOOL` prompt with
    nothing scripted, that tool's call; given StructuredOutput (`--json-schema`) and
    `follows_schema`, the reply through that tool; else the reply as text."""
    users = [m for m in body.get("messages") or [] if m.get("role") == "user"]
    content = users[-1].get("content") if users else None
    blocks = [b for b in (content if isinstance(content, list) else []) if isinstance(b, dict)]
    results = [b for b in blocks if b.get("type") == "tool_result"]
    # A resumed session's next prompt may follow the last tool_result in the same message: the
    # model then answers that prompt, not the tool.
    # Told its StructuredOutput call did not match, it calls it again with the next reply.
    retry = reply is not None and follows_schema and _refused_call(body) is not None
    if results and blocks[-1].get("type") == "tool_result" and not retry:
        result = results[-1]
        flag = " (is_error)" if result.get("is_error") else ""
        text = f"FAKE REPLY {n} got tool_result{flag}: {text_of(result.get('content'))[:200]}"
        return [{"type": "text", "text": text}], "end_turn"
    match = _TOOL_CALL.search(text_of(content))
    if match and reply is None:
        tool_input = json.loads(match.group(2))
        block = {
            "type": "tool_use",
            "id": f"toolu_fake_{n}",
            "name": match.group(1),
            "input": tool_input,
        }
        return [block], "tool_use"
    said = reply if reply is not None else f"FAKE REPLY {n}"
    schema = _offered_schema(body, STRUCTURED) if follows_schema else None
    shaped = _structured(said, schema) if schema is not None else None
    if shaped is not None:  # as a model given `--json-schema`: the object through the tool
        before, fields = shaped
        call = {"type": "tool_use", "id": f"toolu_fake_{n}", "name": STRUCTURED, "input": fields}
        return [*([{"type": "text", "text": before}] if before else []), call], "tool_use"
    return [{"type": "text", "text": said}], "end_turn"


def _refused_call(body: dict[str, Any]) -> dict[str, Any] | None:
    """The input of the model's StructuredOutput call that the CLI refused, if the request's
    last block is that refusal (None otherwise)."""
    messages = body.get("messages") or []
    last = messages[-1].get("content") if messages else None
    block = last[-1] if isinstance(last, list) and last else None
    if not isinstance(block, dict) or block.get("type") != "tool_result":
        return None
    if not block.get("is_error"):
        return None
    calls = {
        call.get("id"): call
        for message in messages
        if message.get("role") == "assistant" and isinstance(message.get("content"), list)
        for call in message["content"]
        if isinstance(call, dict) and call.get("type") == "tool_use"
    }
    call = calls.get(block.get("tool_use_id"))
    if not isinstance(call, dict) or call.get("name") != STRUCTURED:
        return None
    given = call.get("input")
    return given if isinstance(given, dict) else None


def _offered_schema(body: dict[str, Any], name: str) -> dict[str, Any] | None:
    """The input schema of the tool `name`, if the request offers it."""
    for tool in body.get("tools") or []:
        if isinstance(tool, dict) and tool.get("name") == name:
            schema = tool.get("input_schema")
            return schema if isinstance(schema, dict) else {}
    return None


def _offers(body: dict[str, Any], name: str) -> bool:
    """True if the request offers the model the tool `name`."""
    return any(isinstance(t, dict) and t.get("name") == name for t in body.get("tools") or [])


def _structured(reply: str, schema: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """A scripted reply's JSON object (in a ```json fence, or the whole reply) and the text
    before it, as a model answering through StructuredOutput would split them; prose fitted
    to the schema (`_fitted`); None if it fits none (then it answers in text)."""
    fence = _JSON_FENCE.search(reply)
    before, raw = (reply[: fence.start()].strip(), fence.group(1)) if fence else ("", reply)
    try:
        fields = json.loads(raw)
    except ValueError:
        fields = None
    if isinstance(fields, dict):
        return before, fields
    if fence:
        return None
    fitted = _fitted(reply, schema)
    return ("", fitted) if fitted is not None else None


def _fitted(prose: str, schema: dict[str, Any]) -> dict[str, Any] | None:
    """The prose as a model writes it in the schema: the whole of it in a schema's one field,
    the boardroom's numbered parts as its round's object, else as the `opinion`."""
    properties = schema.get("properties")
    names = list(properties) if isinstance(properties, dict) else []
    if len(names) == 1:
        return {names[0]: prose}
    if "vote" in names or "final_vote" in names:
        return _boardroom_object(prose, schema)
    return {"opinion": prose}


def _boardroom_object(prose: str, schema: dict[str, Any]) -> dict[str, Any] | None:
    """A numbered boardroom answer as its round's object (its vote in the schema's words)."""
    first = "vote" in schema["properties"]
    found = parse_position(prose, 1 if first else 2)
    if found.vote is None:
        return None  # no vote found: it answers in text
    words = schema["properties"]["vote" if first else "final_vote"].get("enum") or VOTES
    answer: dict[str, Any] = {("vote" if first else "final_vote"): words[VOTES.index(found.vote)]}
    names = ("argument", "risks", "conditions", "metrics") if first else _REBUTTAL
    for name in names:
        value = getattr(found, "consensus" if name == "consensus_condition" else name)
        if value:
            answer[name] = list(value) if isinstance(value, tuple) else value
    return answer


_REBUTTAL = ("why_changed", "agreement", "disagreement", "insight", "consensus_condition")


def _sse(
    blocks: list[Any],
    stop_reason: str,
    model: str,
    n: int,
    usage: dict[str, int],
    chunk: int = 0,
) -> Iterator[str]:
    """The server-sent events of one reply; text in deltas of `chunk` characters (0: one)."""
    start = {
        "id": f"msg_fake_{n}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": dict(usage, output_tokens=1),
    }
    events: list[tuple[str, dict[str, Any]]] = [
        ("message_start", {"type": "message_start", "message": start})
    ]
    for i, block in enumerate(blocks):
        if block["type"] == "text":
            empty = {"type": "text", "text": ""}
            text = block["text"]
            size = chunk or max(len(text), 1)
            deltas = [
                {"type": "text_delta", "text": text[at : at + size]}
                for at in range(0, max(len(text), 1), size)
            ]
        else:
            empty = dict(block, input={})
            whole = json.dumps(block["input"])  # ASCII: escapes and surrogate pairs to cut
            size = chunk or TOOL_INPUT_CHUNK
            deltas = [
                {"type": "input_json_delta", "partial_json": whole[at : at + size]}
                for at in range(0, len(whole), size)
            ]
        events.append(
            (
                "content_block_start",
                {"type": "content_block_start", "index": i, "content_block": empty},
            )
        )
        events += [
            ("content_block_delta", {"type": "content_block_delta", "index": i, "delta": delta})
            for delta in deltas
        ]
        events.append(("content_block_stop", {"type": "content_block_stop", "index": i}))
    events += [
        (
            "message_delta",
            {
                "type": "message_delta",
                "usage": {"output_tokens": usage["output_tokens"]},
                "delta": {"stop_reason": stop_reason, "stop_sequence": None},
            },
        ),
        ("message_stop", {"type": "message_stop"}),
    ]
    return (f"event: {name}\ndata: {json.dumps(data)}\n\n" for name, data in events)


# ---- helpers for tests that drive the real CLI --------------------------------
def find_claude_bin() -> Path | None:
    """The CLI the tests drive: env CLAUDE_BIN, else the one `.ci/run` installs in the repo."""
    configured = os.environ.get("CLAUDE_BIN")
    if configured:
        found = shutil.which(configured)  # a path, or a name on PATH
        return Path(found) if found else None
    path = REPO_ROOT / ".ci/node/node_modules/.bin/claude"
    return path if path.is_file() and os.access(path, os.X_OK) else None


def processes_with_env(marker: str) -> list[int]:
    """Pids of live processes whose environment holds `marker` (e.g. a unique config dir)."""
    needle = marker.encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            environ = (entry / "environ").read_bytes()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue  # gone meanwhile, or not ours to read
        if needle in environ and state != "Z":
            found.append(int(entry.name))
    return found
