"""Seed 002, Phase 2 ①: "AG 응답 = 🟢 초록 Embed, Claude 응답 = 🔵 파랑 Embed", for the default
roster on its own and inside a debate (its roster's colours)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.discord.render import turn_messages
from handlers.core.i18n import Strings
from handlers.core.model import AG, CLAUDE, Debate, Phase, Proposal, Setup
from tests.bot.discord.test_render import make_turn

T0 = datetime(2026, 12, 1, tzinfo=UTC)


def _hue(colour: int) -> str:
    """Which of red, green and blue dominates the colour."""
    red, green, blue = colour >> 16 & 0xFF, colour >> 8 & 0xFF, colour & 0xFF
    return max((red, "red"), (green, "green"), (blue, "blue"))[1]


@pytest.mark.parametrize("in_debate", [False, True])
@pytest.mark.parametrize(("seat", "hue"), [(AG, "green"), (CLAUDE, "blue")])
def test_seed_002_ag_replies_are_green_and_claude_replies_blue(
    seat: str, hue: str, in_debate: bool
) -> None:
    debate = Debate(1, Proposal(1, "t", "q", "r", 0.9, "c", (1,)), Phase.SPEAKING, T0, Setup(2))
    messages = turn_messages(
        make_turn("x", seat=seat), Strings("ko"), debate if in_debate else None
    )
    colours = {embed.colour.value for message in messages for embed in message if embed.colour}
    assert colours and {_hue(c) for c in colours} == {hue}
