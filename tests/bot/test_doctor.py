"""`debate-room doctor`'s Discord check against the fake: the token, the channels."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest

from bot.discord.doctor import check_discord
from bot.discord.invite import REQUIRED, invite_url
from bot.doctor import (
    all_checks,
    check_claude,
    check_node,
    check_participants,
    check_settings,
    run_doctor,
)
from bot.settings import Settings
from tests.fakes.discord_loopback import redirected
from tests.fakes.fake_discord import FakeDiscord
from tools.checks import Check, Status, one_line
from tools.claude.doctor import check_node_version, pinned_node_major
from tools.pinned_clis import GEMINI_PACKAGE, pinned


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
    assert "Message Content on" in check.detail
    assert [c.path for c in fake.calls if c.path.startswith("/channels/")] == [
        f"/channels/{fake.text_channel['id']}",
        f"/channels/{relay['id']}",
    ]
    assert check_discord in all_checks()
    assert check.notes == (f"invite: {invite_url(int(fake.application_id))}",)


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
    assert f"DEBATE_CHANNEL_IDS {hidden['id']}: cannot see it" in check.detail
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
    gemini = pinned(GEMINI_PACKAGE)["version"]  # the version the tests ran against
    assert f"install it: npm install -g @google/gemini-cli@{gemini}" in failing.detail
    no_ag = await check_participants(settings(tmp_path, AG_USER_IDS=""))
    assert no_ag.status is Status.MISSING and "AG_USER_IDS" in no_ag.detail


def not_admin(fake: FakeDiscord) -> None:
    """@everyone holds every permission but Administrator (which would override the rest)."""
    everyone = fake.world.roles[0]
    everyone["permissions"] = str(int(everyone["permissions"]) & ~8)


async def test_message_content_intent_off_fails_and_says_where_to_turn_it_on(
    tmp_path: Path,
) -> None:
    off = await FakeDiscord(approved_intents=discord.Intents.default().value).start()
    try:
        with redirected(off.api_base, off.gateway_url):
            check = await check_discord(settings(tmp_path, DISCORD_TOKEN=off.token))
    finally:
        await off.stop()
    off.contract.assert_conforms()
    assert check.status is Status.FAILING
    assert "Message Content Intent is off" in check.detail and "Developer Portal" in check.detail


async def test_permissions_missing_in_a_watched_channel_are_named(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    not_admin(fake)
    locked = fake.world.add_text_channel("locked")
    denied = discord.Permissions(pin_messages=True, send_messages_in_threads=True)
    locked["permission_overwrites"] = [
        {"id": fake.world.guild_id, "type": 0, "allow": "0", "deny": str(denied.value)}
    ]
    check = await check_discord(
        settings(
            tmp_path,
            DISCORD_TOKEN=fake.token,
            DEBATE_CHANNEL_IDS=f"{fake.text_channel['id']},{locked['id']}",
        )
    )
    assert check.status is Status.FAILING
    assert check.detail.endswith(
        f"DEBATE_CHANNEL_IDS {locked['id']}: missing Send Messages In Threads, Pin Messages"
    )
    assert str(fake.text_channel["id"]) not in check.detail


async def test_a_role_overwrite_can_grant_back_what_everyone_is_denied(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    not_admin(fake)
    role = fake.world.add_role("bots")
    fake.world.members[fake.bot_user["id"]]["roles"] = [role["id"]]
    channel = fake.world.add_text_channel("bots-only")
    pin = str(discord.Permissions(pin_messages=True).value)
    channel["permission_overwrites"] = [
        {"id": fake.world.guild_id, "type": 0, "allow": "0", "deny": pin},
        {"id": role["id"], "type": 0, "allow": pin, "deny": "0"},
    ]
    check = await check_discord(
        settings(tmp_path, DISCORD_TOKEN=fake.token, DEBATE_CHANNEL_IDS=channel["id"])
    )
    assert check.status is Status.OK, check.detail


def test_the_invite_url_holds_every_permission_the_bot_uses_and_pin_messages() -> None:
    url = invite_url(123)
    assert url.startswith(
        "https://discord.com/oauth2/authorize?client_id=123&scope=bot+applications.commands&"
    )
    value = int(url.rsplit("permissions=", 1)[1])
    assert value & (1 << 51)  # Pin Messages, needed to pin since 2026
    granted = discord.Permissions(value)
    for name in (
        "view_channel",
        "send_messages",
        "send_messages_in_threads",
        "create_public_threads",
        "embed_links",
        "attach_files",
        "read_message_history",
        "manage_messages",
    ):
        assert getattr(granted, name), name
    assert not granted.administrator and value == REQUIRED.value


def test_the_docs_show_no_hand_written_permission_integer() -> None:
    root = Path(__file__).resolve().parents[2]
    for page in (root / "README.md", *sorted((root / "docs").glob("*.md"))):
        text = page.read_text(encoding="utf-8")
        assert "309237771264" not in text and "permissions=" not in text, page.name
    assert "debate-room doctor" in (root / "README.md").read_text(encoding="utf-8")


def test_doctor_lines_hold_no_object_reprs() -> None:
    try:
        raise OSError("Cannot connect to host discord.com:443 ssl:<ssl.SSLContext object at 0x7f>")
    except OSError as exc:
        line = one_line(exc)
    assert "object at" not in line and "0x" not in line and "discord.com:443" in line
    printed = Check("moderator", Status.FAILING, "api: x ssl:<ssl.SSLContext object at 0x7f> y")
    assert printed.line().endswith("api: x y")


async def test_doctor_prints_a_checks_notes_under_its_line_and_a_warning_is_no_failure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async def discord_ok(_: Settings) -> Check:
        return Check("discord", Status.OK, "logged in", (f"invite: {invite_url(42)}",))

    async def claude_warns(_: Settings) -> Check:
        return Check("claude", Status.WARNING, "bills the API")

    code = await run_doctor(settings(tmp_path), [discord_ok, claude_warns])
    lines = capsys.readouterr().out.splitlines()
    assert code == 0
    assert lines[0].startswith("discord") and lines[1].strip() == f"invite: {invite_url(42)}"
    assert lines[2].startswith("claude     warning")


def script(folder: Path, name: str, body: str) -> Path:
    """An executable shell script standing in for a program the doctor asks."""
    path = folder / name
    path.write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
    path.chmod(0o755)
    return path


async def test_an_empty_channel_list_is_a_problem(fake: FakeDiscord, tmp_path: Path) -> None:
    check = await check_discord(settings(tmp_path, DISCORD_TOKEN=fake.token))
    assert check.status is Status.FAILING and "DEBATE_CHANNEL_IDS is empty" in check.detail
    untokened = await check_discord(settings(tmp_path))
    assert "DEBATE_CHANNEL_IDS is empty" in untokened.detail


async def test_the_settings_line_names_what_run_would_refuse(tmp_path: Path) -> None:
    bare = await check_settings(settings(tmp_path))
    assert bare.status is Status.FAILING
    assert bare.detail == "`run` would not start: DISCORD_TOKEN, GEMINI_API_KEY, AG_USER_IDS"
    assert any("PARTICIPANTS=claude:claude-cli,gemini:gemini-cli" in n for n in bare.notes)
    cli = await check_settings(
        settings(tmp_path, DISCORD_TOKEN="t", AG_USER_IDS="1", MODERATOR_BACKEND="cli")
    )
    assert cli.status is Status.OK


async def test_without_an_ag_relay_doctor_suggests_a_roster_without_ag(tmp_path: Path) -> None:
    check = await check_participants(settings(tmp_path))
    assert check.status is Status.MISSING
    assert "PARTICIPANTS=claude:claude-cli,gemini:gemini-cli" in check.notes[0]


@pytest.mark.parametrize(
    ("key", "status", "says"),
    [(None, Status.WARNING, "Standard/Enterprise"), ("k", Status.OK, "uses GEMINI_API_KEY")],
)
async def test_the_gemini_seat_names_the_account_it_needs(
    tmp_path: Path, key: str | None, status: Status, says: str
) -> None:
    gemini = script(tmp_path, "gemini", "exit 0")
    roster = "claude:claude-cli,gemini:gemini-cli"
    check = await check_participants(
        settings(tmp_path, PARTICIPANTS=roster, GEMINI_CLI_BIN=str(gemini), GEMINI_API_KEY=key)
    )
    assert check.status is status
    assert says in " ".join((check.detail, *check.notes))


@pytest.mark.parametrize(
    ("auth", "status", "says"),
    [
        ('{"loggedIn": true, "authMethod": "claude.ai"}', Status.OK, "monthly Agent SDK credit"),
        (
            '{"loggedIn": true, "authMethod": "api_key", "apiKeySource": "ANTHROPIC_API_KEY"}',
            Status.WARNING,
            "bill the Anthropic API at API rates",
        ),
    ],
)
async def test_doctor_names_who_pays_for_claude_s_turns(
    tmp_path: Path, auth: str, status: Status, says: str
) -> None:
    body = f'case "$1" in --version) echo "2.1.332 (Claude Code)";; auth) echo \'{auth}\';; esac'
    claude = script(tmp_path, "claude", body)
    check = await check_claude(settings(tmp_path, CLAUDE_BIN=str(claude)), {"PATH": "/bin"})
    assert check.status is status and says in check.detail, check.detail


@pytest.mark.parametrize(
    ("version", "status"), [("v20.11.1", Status.WARNING), ("v22.12.0", Status.OK)]
)
async def test_node_is_checked_against_what_the_pinned_claude_declares(
    tmp_path: Path, version: str, status: Status
) -> None:
    node = script(tmp_path, "node", f"echo {version}")
    assert pinned_node_major() == 22  # the lock file's engines of @anthropic-ai/claude-code
    check = await check_node_version(str(node))
    assert check.status is status and ">= 22" in check.detail, check.detail
    assert check_node in all_checks()
