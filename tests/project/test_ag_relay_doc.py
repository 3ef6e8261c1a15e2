"""docs/ag-relay.md, the relay's contract, holds what the code does: its settings with their
defaults, the tag the code writes, the doctor's ping; and the README links it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.discord.ag.ping import PART, PING_DEBATE, PING_TEXT, POLL_S
from bot.discord.ag.reply import MAX_ATTACHMENT_BYTES, READABLE_SUFFIXES, relay_tag
from bot.discord.render import CONTENT_LIMIT
from bot.root.discord_app import AG_POLL_SECONDS
from bot.settings import Settings
from handlers.core.turns.failures import BACKOFF_S, MAX_TIMEOUT_RETRIES

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "ag-relay.md"
SETTINGS = ("AG_USER_IDS", "AG_RELAY_CHANNEL_ID", "AG_TIMEOUT_SECONDS", "AG_QUIET_SECONDS")


def doc() -> str:
    return DOC.read_text(encoding="utf-8")


def prose() -> str:
    """The doc with its line breaks as spaces (a phrase may wrap)."""
    return " ".join(doc().split())


@pytest.mark.parametrize("name", SETTINGS)
def test_the_doc_names_every_relay_setting_in_its_table(name: str) -> None:
    assert f"| `{name}` |" in doc()
    assert name in Settings.model_fields  # a renamed setting fails here, not silently


@pytest.mark.parametrize("name", ["AG_TIMEOUT_SECONDS", "AG_QUIET_SECONDS"])
def test_the_doc_states_each_timeout_s_default(name: str) -> None:
    default = Settings.model_fields[name].default
    assert f"| `{name}` | {default:g} |" in doc()


def test_the_doc_shows_the_tag_the_code_writes() -> None:
    text = doc()
    assert relay_tag(12, 3) in text  # the worked example
    form = relay_tag(12, 3).replace("12", "N").replace("3", "M")
    assert f"`{form}`" in text  # the general form, as the code writes it
    ping = re.search(r"\[debate \d+ · turn \d+\]\n(.*)\n", text.split("## Check it with doctor")[1])
    assert ping is not None and ping.group(0).startswith(relay_tag(PING_DEBATE, 1764849600))
    assert ping.group(1) == PING_TEXT


def test_the_doc_s_numbers_are_the_code_s() -> None:
    text = prose()
    assert f"at most {CONTENT_LIMIT} characters" in text
    assert MAX_ATTACHMENT_BYTES == 4 * 1024 * 1024 and "at most 4 MiB" in text
    assert all(f"`{suffix}`" in text for suffix in READABLE_SUFFIXES)
    assert MAX_TIMEOUT_RETRIES == 1 and "**retried once**, after" in text
    assert f"after {BACKOFF_S:g} s" in text
    assert AG_POLL_SECONDS == POLL_S and f"every {POLL_S:g} s" in text
    assert f"{PART}   ok" in doc()  # the doctor's line as it prints


def test_the_readme_links_the_doc() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "(docs/ag-relay.md)" in readme
