"""`debate-room doctor`'s Discord check against the fake: the token, the channels."""

from __future__ import annotations

from pathlib import Path

from bot.discord.doctor import check_discord
from bot.doctor import all_checks, check_participants
from bot.settings import Settings
from tests.fakes.fake_discord import FakeDiscord
from tools.checks import Status


def settings(tmp_path: Path, **values: object) -> Settings:
    return Settings.model_validate({"DATA_DIR": tmp_path, **values})


async def test_a_good_token_and_visible_channels(fake: FakeDiscord, tmp_path: Path) -> None:
    relay = fake.world.add_text_channel("relay")
    check = await check_discord(
        settings(
            tmp_path,
            DISCORD_TOKEN=fake.token,
            DEBATE_CHANNEL_IDS=fake.text_channel["id"],
            AG_RELAY_CHANNEL_ID=relay["id"],
        )
    )
    assert check.status is Status.OK, check.detail
    assert "debate-bot" in check.detail and "2 channel" in check.detail
    assert [c.path for c in fake.calls if c.path.startswith("/channels/")] == [
        f"/channels/{fake.text_channel['id']}",
        f"/channels/{relay['id']}",
    ]
    assert check_discord in all_checks()


async def test_a_bad_token_fails(fake: FakeDiscord, tmp_path: Path) -> None:
    check = await check_discord(settings(tmp_path, DISCORD_TOKEN="not-the-token"))
    assert check.status is Status.FAILING
    assert "refused the token" in check.detail and "not-the-token" not in check.detail


async def test_channels_it_cannot_see_fail(fake: FakeDiscord, tmp_path: Path) -> None:
    hidden = fake.world.add_text_channel("private")
    fake.inject_error("GET", f"/channels/{hidden['id']}", 403, code=50001, message="Missing Access")
    missing = 1234567890123
    check = await check_discord(
        settings(
            tmp_path,
            DISCORD_TOKEN=fake.token,
            DEBATE_CHANNEL_IDS=f"{fake.text_channel['id']},{hidden['id']}",
            AG_RELAY_CHANNEL_ID=missing,
        )
    )
    assert check.status is Status.FAILING
    assert f"DEBATE_CHANNEL_IDS {hidden['id']}" in check.detail
    assert f"AG_RELAY_CHANNEL_ID {missing}" in check.detail
    assert str(fake.text_channel["id"]) not in check.detail


async def test_no_token_is_missing(tmp_path: Path) -> None:
    check = await check_discord(settings(tmp_path))
    assert check.status is Status.MISSING


async def test_the_participants_line_names_the_roster_and_what_it_lacks(tmp_path: Path) -> None:
    assert check_participants in all_checks()
    plain = await check_participants(settings(tmp_path, AG_USER_IDS="42"))
    assert plain.status is Status.OK and "ag (ag-relay), claude (claude-cli)" in plain.detail
    assert "format free" in plain.detail
    trio = settings(
        tmp_path,
        AG_USER_IDS="42",
        PARTICIPANTS="ag:ag-relay,claude:claude-cli,gemini:gemini-cli",
        GEMINI_CLI_BIN=str(tmp_path / "no-such-gemini"),
    )
    failing = await check_participants(trio)
    assert failing.status is Status.FAILING and "no-such-gemini" in failing.detail
    no_ag = await check_participants(settings(tmp_path, AG_USER_IDS=""))
    assert no_ag.status is Status.MISSING and "AG_USER_IDS" in no_ag.detail
