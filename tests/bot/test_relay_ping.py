"""`debate-room doctor --ping-relay` against the fake Discord: the real discord.py REST client
posts the ping, the fake answers (or not) as AG, and every request is checked against the spec."""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path

import pytest

from bot.__main__ import _parser, doctor_checks
from bot.discord.ag.ping import PING_DEBATE, RelayPing
from bot.discord.ag.reply import relay_tag
from bot.doctor import all_checks, run_doctor
from bot.settings import Settings
from tests.fakes.discord_world import Json
from tests.fakes.fake_discord import FakeDiscord
from tools.checks import Check, Status

ANSWERED_WITHIN_S = 10.0  # a bound on the test, not a sleep: the fake answers at once
POLL_S = 0.02
_TURN = re.compile(r"\[debate 0 · turn (\d+)\]")


def settings(tmp_path: Path, **values: object) -> Settings:
    return Settings.model_validate({"DATA_DIR": tmp_path, **values})


def relay_settings(fake: FakeDiscord, tmp_path: Path, ag: Json, relay: Json) -> Settings:
    return settings(
        tmp_path, DISCORD_TOKEN=fake.token, AG_USER_IDS=ag["id"], AG_RELAY_CHANNEL_ID=relay["id"]
    )


async def posted_ping(fake: FakeDiscord, relay: Json) -> Json:
    """The bot's ping in the relay channel, as soon as the fake stores it."""
    return await fake.wait_for_message(
        lambda m: m["channel_id"] == relay["id"] and m["author"]["id"] == fake.bot_user["id"]
    )


def ping_tag(ping: Json) -> str:
    """The ping's tag, rebuilt by the relay's own tag function from the turn it names."""
    found = _TURN.search(ping["content"])
    assert found is not None, ping["content"]
    return relay_tag(PING_DEBATE, int(found.group(1)))


async def test_ag_answering_the_ping_is_ok_and_the_ping_is_deleted(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    ag, _ = fake.add_bot("AG")
    relay = fake.world.add_text_channel("relay")
    checking = asyncio.create_task(
        RelayPing(ANSWERED_WITHIN_S, poll_s=POLL_S)(relay_settings(fake, tmp_path, ag, relay))
    )
    ping = await posted_ping(fake, relay)
    tag = ping_tag(ping)
    assert ping["content"].startswith(f"<@{ag['id']}> {tag}\n")
    turn = int(tag.rsplit(" ", 1)[1].rstrip("]"))
    assert abs(turn - time.time()) < 60  # the ping's own time: an earlier ping's tag differs
    # It pings AG and nobody else, as the relay's prompt does.
    assert [u["id"] for u in ping["mentions"]] == [ag["id"]]
    assert not ping["mention_everyone"] and not ping["mention_roles"]
    await fake.user_message(ag, f"{tag} here", channel_id=relay["id"])
    check = await asyncio.wait_for(checking, ANSWERED_WITHIN_S)
    assert check.status is Status.OK, check.detail
    assert f"as AG ({ag['id']})" in check.detail and f"channel {relay['id']}" in check.detail
    assert re.search(r"AG answered in \d+\.\d s", check.detail)
    assert ping["id"] in fake.world.deleted and ping["id"] not in fake.messages
    assert not fake.unhandled, [(c.method, c.path) for c in fake.unhandled]


async def test_ag_silent_fails_within_the_wait_and_names_who_else_answered(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    ag, _ = fake.add_bot("AG")
    relay = fake.world.add_text_channel("relay")
    stranger, _ = fake.add_bot("other-relay")
    wait_s = 0.3
    checking = asyncio.create_task(
        RelayPing(wait_s, poll_s=POLL_S)(relay_settings(fake, tmp_path, ag, relay))
    )
    ping = await posted_ping(fake, relay)
    # Neither counts: AG's answer to another ping (another turn), and an account not in
    # AG_USER_IDS (the usual mistake: the relay posts under another id).
    await fake.user_message(ag, f"{relay_tag(PING_DEBATE, 1)} late", channel_id=relay["id"])
    await fake.user_message(stranger, "pong", channel_id=relay["id"])
    started = time.monotonic()
    check = await asyncio.wait_for(checking, ANSWERED_WITHIN_S)
    assert time.monotonic() - started < wait_s + 5  # bounded by the wait, not by a default
    assert check.status is Status.FAILING
    assert check.detail == f"AG did not answer the ping in channel {relay['id']} within 0.3 s"
    assert check.notes[:2] == (
        f"AG ({ag['id']}) wrote after the ping, but not as an answer to it (tagged for another "
        "turn, or replying to another message)",
        f"other-relay ({stranger['id']}) wrote after the ping, and is not in AG_USER_IDS",
    )
    assert any("AG_USER_IDS" in note for note in check.notes[2:])
    assert ping["id"] in fake.world.deleted
    assert not fake.unhandled, [(c.method, c.path) for c in fake.unhandled]


async def test_a_channel_given_on_the_command_line_is_pinged(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    ag, _ = fake.add_bot("AG")
    other = fake.world.add_text_channel("relay-test")
    given = settings(tmp_path, DISCORD_TOKEN=fake.token, AG_USER_IDS=ag["id"])
    checking = asyncio.create_task(RelayPing(ANSWERED_WITHIN_S, other["id"], POLL_S)(given))
    ping = await posted_ping(fake, other)
    await fake.user_message(ag, "answer to the doctor", channel_id=other["id"], reply_to=ping["id"])
    check = await asyncio.wait_for(checking, ANSWERED_WITHIN_S)
    assert check.status is Status.OK and f"channel {other['id']}" in check.detail


@pytest.mark.parametrize(
    ("values", "says"),
    [
        ({"PARTICIPANTS": "claude:claude-cli,gemini:gemini-cli"}, "seats no ag-relay"),
        ({"AG_USER_IDS": ""}, "AG_USER_IDS is not set"),
        ({"AG_USER_IDS": "42"}, "the relay channel is each debate's thread"),
    ],
)
async def test_no_relay_to_ping_is_missing_and_posts_nothing(
    fake: FakeDiscord, tmp_path: Path, values: dict[str, str], says: str
) -> None:
    check = await RelayPing(ANSWERED_WITHIN_S)(
        settings(tmp_path, DISCORD_TOKEN=fake.token, **values)
    )
    assert check.status is Status.MISSING and says in check.detail, check.detail
    assert not fake.calls_to("POST", "/channels/{channel_id}/messages")


async def test_a_channel_the_bot_cannot_see_fails(fake: FakeDiscord, tmp_path: Path) -> None:
    ag, _ = fake.add_bot("AG")
    missing = 1234567890123
    given = settings(tmp_path, DISCORD_TOKEN=fake.token, AG_USER_IDS=ag["id"])
    check = await RelayPing(ANSWERED_WITHIN_S, missing, POLL_S)(given)
    assert check.status is Status.FAILING and f"channel {missing}: cannot see it" in check.detail


def test_the_ping_is_opt_in_and_last_with_its_wait_and_channel() -> None:
    plain = doctor_checks(_parser().parse_args(["doctor"]))
    assert not any(isinstance(check, RelayPing) for check in plain)
    assert len(plain) == len(all_checks())
    asked = _parser().parse_args(
        ["doctor", "--ping-relay", "--relay-channel", "77", "--relay-wait", "5"]
    )
    assert doctor_checks(asked)[-1] == RelayPing(5.0, channel_id=77)
    default = doctor_checks(_parser().parse_args(["doctor", "--ping-relay"]))[-1]
    assert default == RelayPing(120.0)
    with pytest.raises(SystemExit):
        _parser().parse_args(["doctor", "--ping-relay", "--relay-wait", "0"])


async def test_doctor_prints_each_line_before_the_ping_waits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async def discord_ok(_: Settings) -> Check:
        return Check("discord", Status.OK, "logged in")

    printed: list[str] = []

    async def waiting_ping(_: Settings) -> Check:
        printed.extend(capsys.readouterr().out.splitlines())  # what the user sees meanwhile
        return Check("ag relay", Status.FAILING, "AG did not answer")

    code = await run_doctor(settings(tmp_path), [discord_ok, waiting_ping])
    assert printed == ["discord    ok       logged in"]
    assert code == 1
