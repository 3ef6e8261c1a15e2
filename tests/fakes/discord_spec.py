"""Discord's published OpenAPI spec (HTTP API v10) as a check on the loopback fake's traffic.

`spec()` loads `discord_openapi/openapi.json` once per process. `check(method, path, status,
request_body, response_body)` finds the spec's operation for the method and the path (without
`/api/v10`; `/channels/1/messages/2` matches `/channels/{channel_id}/messages/{message_id}`, a
literal segment such as `@original` winning over a parameter) and validates the JSON request
body (for a multipart request, its `payload_json`) against the operation's requestBody schema
and the JSON answer against the response schema for its status (`200`, else `4XX`, ...). An
unknown route or method, or a status the operation does not list, is a violation too.

Snowflakes: the spec types every one as SnowflakeType, a string of digits, while Discord takes
an int-parseable value either way and discord.py sends some as JSON integers; so a snowflake
may be a string of digits or a non-negative integer (see `_tolerate_integer_snowflakes`).
Nothing else is loosened (a digit string where the spec says `integer` is still a violation)
but one place where the documentation contradicts the spec: see `_follow_the_documentation`.
Validators are built once per (operation, part, status) and cached.
"""

from __future__ import annotations

import functools
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match
from jsonschema.protocols import Validator
from referencing import Registry
from referencing.jsonschema import DRAFT202012

SPEC_FILE = Path(__file__).with_name("discord_openapi") / "openapi.json"
SPEC_URI = "urn:discord:openapi-v10"
VIOLATES = "violates Discord's OpenAPI spec"  # what report() prints before each violation
API_PREFIX = re.compile(r"^/api/v10(?=/)")
_PARAM = re.compile(r"\{[^}/]+\}")


def _follow_the_documentation(document: dict[str, Any]) -> None:
    """Where the spec and Discord's documentation disagree, the documentation wins (the spec's
    README says so); these are the places the fake's traffic meets."""
    _tolerate_integer_snowflakes(document)
    # A field's error carries a string code ("BASE_TYPE_MAX_LENGTH" in the documentation's
    # example of an error body); the spec reuses the top-level Error, whose code is an integer.
    document["components"]["schemas"]["InnerErrors"]["properties"]["_errors"]["items"] = {
        "type": "object",
        "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
        "required": ["code", "message"],
    }


def _tolerate_integer_snowflakes(document: dict[str, Any]) -> None:
    """Every snowflake in the spec is a `$ref` to SnowflakeType, a string of digits; Discord
    also takes them as JSON integers, and discord.py sends some so (bulk-delete ids,
    `allowed_mentions.users`, `message_reference`, attachment ids). `pattern` applies to
    strings only and `minimum` to numbers only, so each form keeps its own rule."""
    snowflake = document["components"]["schemas"]["SnowflakeType"]
    snowflake["type"] = ["string", "integer"]
    snowflake["minimum"] = 0


@dataclass(frozen=True)
class Violation:
    """One way a request or an answer differs from Discord's published contract."""

    method: str
    path: str
    route: str | None  # the spec's template, None for a route the spec does not have
    part: str  # "route", "request" or "response"
    status: int
    message: str

    def __str__(self) -> str:
        where = self.route or self.path
        return f"{self.method} {where} [{self.part}, {self.status}]: {self.message}"


class DiscordSpec:
    """The spec's operations, matched by method and path, with cached validators."""

    def __init__(self, document: dict[str, Any]) -> None:
        _follow_the_documentation(document)
        self.document = document
        self._registry: Registry[Any] = Registry().with_resource(
            SPEC_URI, DRAFT202012.create_resource(document)
        )
        # Fewest parameters first: of two templates that match, /messages/@original beats
        # /messages/{message_id}.
        self._routes = [
            (re.compile("[^/]+".join(re.escape(part) for part in _PARAM.split(t))), t)
            for t in sorted(document["paths"], key=lambda t: t.count("{"))
        ]
        self._validator = functools.cache(self._build_validator)

    def route(self, path: str) -> str | None:
        """The spec's path template for a concrete path (without /api/v10), if any."""
        return next((t for pattern, t in self._routes if pattern.fullmatch(path)), None)

    def check(
        self,
        method: str,
        path: str,
        status: int,
        request_body: Any,
        response_body: Any,
    ) -> list[Violation]:
        """Every violation of one exchange: route, request body, answer."""
        template = self.route(path)
        operation = self.document["paths"][template].get(method.lower()) if template else None
        if template is None or operation is None:
            what = "no such route" if template is None else f"no {method} on this route"
            return [Violation(method, path, template, "route", status, what)]
        found = [
            *self._check_request(template, method, operation, request_body),
            *self._check_response(template, method, operation, status, response_body),
        ]
        return [Violation(method, path, template, part, status, msg) for part, msg in found]

    def _check_request(
        self, template: str, method: str, operation: dict[str, Any], body: Any
    ) -> list[tuple[str, str]]:
        spec_body = operation.get("requestBody")
        if spec_body is None:
            return [] if body is None else [("request", "this operation takes no body")]
        if body is None:
            return [("request", "a body is required")] if spec_body.get("required") else []
        content = spec_body.get("content", {})
        media = "application/json" if "application/json" in content else "multipart/form-data"
        if media not in content:
            return [("request", f"no JSON body in the spec (it takes {sorted(content)})")]
        pointer = ("paths", template, method.lower(), "requestBody", "content", media, "schema")
        return [("request", e) for e in self._errors(pointer, body)]

    def _check_response(
        self,
        template: str,
        method: str,
        operation: dict[str, Any],
        status: int,
        body: Any,
    ) -> list[tuple[str, str]]:
        responses = operation.get("responses", {})
        key = next(
            (k for k in (str(status), f"{str(status)[0]}XX", "default") if k in responses), None
        )
        if key is None:
            return [("response", f"status {status} is not among {sorted(responses)}")]
        answer = responses[key]
        pointer: tuple[str, ...] = ("paths", template, method.lower(), "responses", key)
        if "$ref" in answer:  # a shared response, e.g. #/components/responses/ClientErrorResponse
            pointer = tuple(answer["$ref"].removeprefix("#/").split("/"))
            answer = self.document
            for segment in pointer:
                answer = answer[segment]
        content = answer.get("content")
        if not content:
            return [] if body is None else [("response", f"status {status} carries no body")]
        if "application/json" not in content:
            return [("response", f"no JSON answer in the spec (it gives {sorted(content)})")]
        if body is None:
            return [("response", f"status {status} needs a JSON body")]
        pointer = (*pointer, "content", "application/json", "schema")
        return [("response", e) for e in self._errors(pointer, body)]

    def _errors(self, pointer: tuple[str, ...], instance: Any) -> list[str]:
        return [_describe(error) for error in self._validator(pointer).iter_errors(instance)]

    def _build_validator(self, pointer: tuple[str, ...]) -> Validator:
        escaped = "/".join(
            quote(p.replace("~", "~0").replace("/", "~1"), safe="@") for p in pointer
        )
        validator: Validator = Draft202012Validator(
            {"$ref": f"{SPEC_URI}#/{escaped}"}, registry=self._registry
        )
        return validator


def _describe(error: ValidationError) -> str:
    """Where, and why: for a failed anyOf/oneOf, the likeliest branch's own reason too."""
    where = "/".join(str(p) for p in error.absolute_path) or "(body)"
    rule = error.validator if error.context else f"{error.validator} {error.validator_value}"
    message = error.message if len(error.message) <= 160 else error.message[:160] + "…"
    text = f"{where} [{str(rule)[:80]}]: {message}"
    if error.context:
        text += f" -- likeliest: {_describe(best_match(error.context))}"
    return text


@functools.cache
def spec() -> DiscordSpec:
    """The vendored spec, loaded once per process (it is 1.2 MB)."""
    return DiscordSpec(json.loads(SPEC_FILE.read_text(encoding="utf-8")))


@dataclass
class _Expected:
    method: str
    route: str
    part: str
    pattern: re.Pattern[str]


class Contract:
    """The fake Discord's record of every exchange that broke the spec, and what a test allowed.

    The fake's HTTP middleware hands it every request under /api/; the fixture that started the
    fake calls `assert_conforms()` at teardown. A test that deliberately sends what Discord
    refuses says so with `expect_violation`, so the check stays on for the rest of its traffic.
    """

    def __init__(self) -> None:
        self.checked = 0
        self.violations: list[Violation] = []
        self._expected: list[_Expected] = []

    def record(self, raw_path: str, method: str, status: int, body: Any, answer: Any) -> None:
        """Check one exchange (`raw_path` as requested, /api/v10 included)."""
        self.checked += 1
        path = API_PREFIX.sub("", raw_path)
        if path == raw_path:
            self.violations.append(
                Violation(method, raw_path, None, "route", status, "not under /api/v10")
            )
            return
        self.violations.extend(spec().check(method, path, status, body, answer))

    def expect_violation(
        self, method: str, route: str, *, part: str = "request", match: str = ""
    ) -> None:
        """Allow violations of `route` (the spec's template; the path itself for a route the
        spec lacks) whose message matches `match`; `assert_conforms` fails if none happened."""
        self._expected.append(_Expected(method, route, part, re.compile(match)))

    def unexpected(self) -> list[Violation]:
        """The violations no expectation allows."""
        return [v for v in self.violations if not any(_allows(e, v) for e in self._expected)]

    def assert_conforms(self) -> None:
        """Fail on a violation no test allowed, or on an allowance that nothing used."""
        unexpected = self.unexpected()
        assert not unexpected, "Discord's OpenAPI spec forbids:\n" + "\n".join(
            map(str, unexpected[:20])
        )
        unused = [e for e in self._expected if not any(_allows(e, v) for v in self.violations)]
        assert not unused, f"expected violations that never happened: {unused}"


def _allows(expected: _Expected, violation: Violation) -> bool:
    return (
        expected.method == violation.method
        and expected.route == (violation.route or violation.path)
        and expected.part == violation.part
        and expected.pattern.search(violation.message) is not None
    )


def report(checked: int, violations: list[str]) -> None:
    """A bench's account of the spec check on stderr (a test fails instead; the benches' smoke
    runs in tests/bench fail on a VIOLATES line)."""
    print(
        f"fake Discord: {checked} exchanges checked against Discord's OpenAPI spec", file=sys.stderr
    )
    for violation in violations:
        print(f"{VIOLATES}: {violation}", file=sys.stderr)
