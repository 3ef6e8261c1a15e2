"""The spec check itself: it passes Discord-shaped traffic and flags what Discord would not take."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest

from tests.fakes.discord_spec import Contract, spec
from tests.fakes.discord_world import World
from tests.fakes.fake_discord import FakeDiscord

MESSAGES = "/channels/{channel_id}/messages"


def a_message() -> dict[str, Any]:
    """A message as the fake answers it (so the fake's own shape is checked too)."""
    world = World()
    author = world.make_user("alice")
    world.add_member(author)
    channel = world.add_text_channel("general")
    body = {
        "content": "hi",
        "components": [{"type": 1, "components": [{"type": 2, "style": 1, "custom_id": "a"}]}],
    }
    return world.message_payload(channel["id"], author, body)


def messages_of(violations: list[Any]) -> list[str]:
    return [f"{v.part}: {v.message}" for v in violations]


def test_a_message_discord_would_take_and_give_passes() -> None:
    sent = {"content": "hi", "allowed_mentions": {"parse": [], "users": [1234]}}
    assert spec().check("POST", "/channels/1/messages", 200, sent, a_message()) == []


@pytest.mark.parametrize(
    ("method", "path", "status", "body", "answer", "part", "expected"),
    [
        ("POST", "/channels/1/messages", 200, {"content": 5}, None, "request", "content"),
        (
            "POST",
            "/channels/1/messages",
            200,
            {"content": "x", "flags": "64"},
            None,
            "request",
            "flags",
        ),
        ("POST", "/interactions/1/t/callback", 200, None, None, "request", "required"),
        ("GET", "/channels/1/messages/2", 200, None, {"id": "2"}, "response", "author"),
        ("GET", "/channels/1/messages/2", 200, None, None, "response", "needs a JSON body"),
        ("POST", "/channels/1/messages", 202, {"content": "x"}, None, "response", "202"),
        ("DELETE", "/channels/1/messages/2", 204, None, {"id": "2"}, "response", "no body"),
        ("POST", "/channels/1/messages", 400, {"content": "x"}, {"code": "x"}, "response", "code"),
        ("GET", "/nowhere/1", 200, None, {}, "route", "no such route"),
        ("PUT", "/users/@me", 200, {}, {}, "route", "no PUT"),
    ],
)
def test_what_discord_would_refuse_is_flagged(
    method: str, path: str, status: int, body: Any, answer: Any, part: str, expected: str
) -> None:
    found = spec().check(method, path, status, body, answer)
    described = messages_of(found)
    assert any(v.part == part and expected in v.message for v in found), described


def test_a_literal_segment_beats_a_parameter() -> None:
    assert spec().route("/webhooks/1/t/messages/@original") == (
        "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
    )
    assert spec().route("/webhooks/1/t/messages/2") == (
        "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"
    )


def test_snowflakes_may_be_integers_but_other_integers_not_strings() -> None:
    bulk = "/channels/1/messages/bulk-delete"
    assert spec().check("POST", bulk, 204, {"messages": [1, "2"]}, None) == []
    assert spec().check("POST", bulk, 204, {"messages": ["x1", "2"]}, None) != []
    assert spec().check("POST", bulk, 204, {"messages": [-1, "2"]}, None) != []


def test_the_contract_fails_on_the_unexpected_and_on_an_unused_allowance() -> None:
    contract = Contract()
    contract.record("/api/v10/channels/1/messages", "POST", 200, {"content": 5}, a_message())
    contract.record("/api/v9/users/@me", "GET", 200, None, {})
    with pytest.raises(AssertionError, match="content"):
        contract.assert_conforms()
    contract.expect_violation("POST", MESSAGES, match=r"^content ")
    assert [v.message for v in contract.unexpected()] == ["not under /api/v10"]
    contract.expect_violation("GET", "/api/v9/users/@me", part="route")
    contract.assert_conforms()
    contract.expect_violation("GET", "/users/@me", part="route", match="never happens")
    with pytest.raises(AssertionError):
        contract.assert_conforms()


async def test_the_fake_checks_what_reaches_it() -> None:
    fake = await FakeDiscord().start()
    try:
        async with aiohttp.ClientSession() as http:
            channel = fake.text_channel["id"]
            headers = {"Authorization": f"Bot {fake.token}"}
            await http.post(
                f"{fake.api_base}/channels/{channel}/messages",
                json={"content": "hi", "embeds": [{"title": 7}]},
                headers=headers,
            )
            await http.get(f"{fake.api_base}/channels/{channel}/nothing", headers=headers)
            await http.get(f"{fake.base_url}/_fake/anything")  # not Discord's API: not checked
    finally:
        await fake.stop()
    found = messages_of(fake.contract.unexpected())
    assert fake.contract.checked == 2
    assert any(m.startswith("request: embeds/0/title") for m in found), found
    assert any(m == "route: no such route" for m in found), found
