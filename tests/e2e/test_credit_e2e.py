"""Claude's credit end to end: the real `claude` CLI, signed in with a (fake)
subscription token, against the fake Anthropic API sending the real rate-limit headers and
error bodies. A usage limit pauses the debate with its reset time, and its stored timer resumes
it after a restart; a refusal nothing clears pauses it with what the people can do and asks
nothing more until they press Resume; a CLI not logged in pauses until it is. The cost so far
per seat shows on the status line and the Conclusion, the estimate and Claude's window on the
next card."""

from __future__ import annotations

import json
import sqlite3
import time

import pytest

from bot.formatting import discord_time
from handlers.core.i18n import Strings
from tests.e2e.harness import CHAT, World, contract
from tests.e2e.observe import assert_clean_logs
from tests.e2e.seen import button_id
from tests.fakes.discord_limits import as_embed
from tests.fakes.discord_world import Json
from tests.fakes.fake_anthropic import credits_required, limit_headers, usage_limit

KO = Strings("ko")
pytestmark = pytest.mark.e2e

# Signed in with a subscription (the only login the CLI reads the limit headers for); one round.
SUBSCRIPTION = {
    "CLAUDE_KEEP_API_KEY": "false",
    "CLAUDE_CODE_OAUTH_TOKEN": "sk-ant-oat01-fake-subscription",
    "MAX_ROUNDS": "1",
}
NOT_LOGGED_IN = {"CLAUDE_KEEP_API_KEY": "false", "MAX_ROUNDS": "1"}
CLAUDE_1 = "Claude 1: 멀티 인스턴스라면 Redis가 맞습니다."
AG_1 = "AG 1: 지금은 in-process LRU로 충분합니다."


def timer(world: World) -> str | None:
    """The debate's stored timer, once the bot has committed it."""
    with sqlite3.connect(world.tmp / "bot.sqlite3") as db:
        row = db.execute("SELECT ends_at FROM polls WHERE closed_at IS NULL").fetchone()
    return None if row is None else str(row[0])


def claude_cost(world: World) -> float:
    """What Claude's stored turns cost, as the CLI's result lines said."""
    with sqlite3.connect(world.tmp / "bot.sqlite3") as db:
        row = db.execute("SELECT sum(cost_usd) FROM turns WHERE seat = 'claude'").fetchone()
    return float(row[0] or 0.0)


def pause_with(world: World, thread: str, action: str) -> Json | None:
    """The pause message that carries the `action` button."""
    for message in world.bot_messages(thread):
        if any(f"debate:{action}:" in json.dumps(row) for row in message.get("components", [])):
            return message
    return None


def cards(world: World) -> list[Json]:
    """The approval cards in the channel, oldest first."""
    name = KO("credit.card")
    return [
        m
        for m in world.bot_messages(world.channel_id)
        if any(f.get("name") == name for f in as_embed(m).get("fields", []))
    ]


def script(world: World) -> None:
    world.anthropic.script_replies(contract(CLAUDE_1))
    world.ag.replies = [contract(AG_1)]
    world.anthropic.usage = {"input_tokens": 40_000, "output_tokens": 2_000}  # cents, not less


async def test_credit_a_usage_limit_pauses_and_its_stored_timer_resumes_after_a_restart(
    world: World,
) -> None:
    reset = int(time.time()) + 3600
    script(world)
    world.anthropic.headers = limit_headers("allowed_warning", reset, 0.85)
    world.anthropic.script(usage_limit(reset))
    await world.start_bot(**SUBSCRIPTION)
    thread = await world.open_debate()

    at = discord_time(reset)
    why = KO("limits.why_limit", at=at)
    await world.wait_for(lambda: why in world.status(thread), "the paused status line")
    assert at in world.texts(thread)  # the notice says when, in the reader's own time zone
    assert KO("limits.body_limit", at=at) in world.embed_text(thread)
    assert pause_with(world, thread, "resume") is not None
    await world.wait_for(lambda: timer(world), "the reset time in the database")
    assert len(world.anthropic.message_requests()) == 1  # asked once: no retry loop
    await world.crash()

    with sqlite3.connect(world.tmp / "bot.sqlite3") as db:  # the limit resets while it is down
        db.execute("UPDATE polls SET ends_at = '2000-01-01T00:00:00+00:00'")
    world.anthropic.headers = limit_headers("allowed_warning", reset + 7200, 0.3)

    await world.start_bot(**SUBSCRIPTION)
    status = await world.wait_end(thread)
    assert KO("limits.resumed") in world.texts(thread)
    assert len(world.anthropic.message_requests()) == 2
    cost = claude_cost(world)
    assert cost >= 0.01
    seats = KO("credit.per_seat", seats=f"AG $0.00 · Claude ${cost:.2f}")
    assert status.endswith(seats)  # cost_per_seat on the final status line
    conclusion = world.page("conclusion")
    assert conclusion is not None and seats in conclusion.content

    # The next card: the estimate from the recorded turn, and Claude's window as reported.
    for name, text in CHAT:
        await world.discord.user_message(getattr(world, name), text)
    second = await world.wait_for(lambda: cards(world)[1:], "a second card")
    fields = " ".join(f["value"] for f in as_embed(second[0]).get("fields", []))
    assert f"Claude ≈ ${cost:.2f}" in fields  # one round: one Claude turn, as the last one
    assert KO("credit.from_turns", count=1) in fields
    window = KO("credit.window_allowed_warning", percent=30, at=discord_time(reset + 7200))
    assert window in fields
    assert_clean_logs(world)


async def test_credit_a_refusal_nothing_clears_pauses_until_the_people_resume(
    world: World,
) -> None:
    script(world)
    world.anthropic.script(credits_required())
    await world.start_bot(**SUBSCRIPTION)
    thread = await world.open_debate()

    body = KO("limits.body_credits")
    pause: Json = await world.wait_for(
        lambda: body in world.embed_text(thread) and pause_with(world, thread, "resume"),
        "the pause with what the people can do",
    )
    why = KO("limits.why_credits")
    await world.wait_for(lambda: why in world.status(thread), "the paused status line")
    assert len(world.anthropic.message_requests()) == 1
    await world.discord.click(pause["id"], button_id(pause, "resume"), world.alice)

    await world.wait_end(thread)
    assert KO("limits.resumed_by", user="alice") in world.texts(thread)
    assert len(world.anthropic.message_requests()) == 2  # the refused ask, once more on Resume
    assert_clean_logs(world)


async def test_credit_claude_not_logged_in_pauses_until_the_login_is_done(world: World) -> None:
    script(world)
    await world.start_bot(**NOT_LOGGED_IN)
    thread = await world.open_debate()

    pause: Json = await world.wait_for(
        lambda: (
            KO("limits.body_login") in world.embed_text(thread)
            and pause_with(world, thread, "resume")
        ),
        "the login pause",
    )
    assert world.anthropic.message_requests() == []  # not logged in: nothing was sent
    settings = world.tmp / "claude-config" / "settings.json"  # what a login leaves behind
    settings.write_text(json.dumps({"apiKeyHelper": "echo dummy-key"}), encoding="utf-8")
    await world.discord.click(pause["id"], button_id(pause, "resume"), world.alice)

    await world.wait_end(thread)
    assert len(world.anthropic.message_requests()) == 1
    assert_clean_logs(world)
