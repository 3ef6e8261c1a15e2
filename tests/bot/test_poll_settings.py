"""The poll's setting and permission: POLL_HOURS within Discord's 1 hour to 32 days, said in
one clear line when it is not; Send Polls in the invite URL and the doctor's check."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest

from bot.discord.invite import REQUIRED, invite_url, missing_names
from bot.settings import SettingsError, load_settings


@pytest.mark.parametrize("value", ["0", "769", "a day"])
def test_poll_hours_out_of_range_is_one_clear_line(tmp_path: Path, value: str) -> None:
    env = tmp_path / ".env"
    env.write_text(f"POLL_HOURS={value}\n", encoding="utf-8")
    with pytest.raises(SettingsError) as caught:
        load_settings(env, explicit=True)
    (line,) = [line for line in caught.value.lines if line.startswith("POLL_HOURS")]
    assert f"{value!r} is not valid" in line and "1" in line and "768" in line
    assert "default 24" in line


def test_poll_hours_default_and_bounds(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text("POLL_HOURS=768\n", encoding="utf-8")
    assert load_settings(env, explicit=True).POLL_HOURS == 768
    env.write_text("", encoding="utf-8")
    assert load_settings(env, explicit=True).POLL_HOURS == 24


def test_poll_needs_send_polls_in_the_invite_and_the_doctor() -> None:
    assert REQUIRED.send_polls
    value = int(invite_url(1).rsplit("permissions=", 1)[1])
    assert discord.Permissions(value).send_polls
    granted = discord.Permissions(REQUIRED.value & ~discord.Permissions(send_polls=True).value)
    assert missing_names(granted) == ["Send Polls"]
