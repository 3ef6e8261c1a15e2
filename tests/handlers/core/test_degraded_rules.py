"""The closing says the truth about the rules: chosen by the people, a plain statement and no
warning; a model that fell back to them, the warning."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest

from handlers.core.ending.degraded import degraded_line, warned
from handlers.core.i18n import LANGUAGES, Strings
from handlers.core.model import AG, Debate, ModeratorSource, Phase, Proposal, Setup

T0 = datetime(2026, 12, 1, tzinfo=UTC)


def _debate(*, chosen: bool, fell_back: bool, faltered: tuple[str, ...] = ()) -> Debate:
    source = ModeratorSource.RULES if chosen else ModeratorSource.GEMINI
    debate = Debate(1, Proposal(1, "t", "q", "r", 0.9, "c", (1,)), Phase.CONCLUDED, T0, Setup(2))
    return replace(
        debate,
        setup=replace(debate.setup, moderator=source),
        moderation=replace(debate.moderation, fell_back=fell_back or chosen, source=source),
        floor=replace(debate.floor, faltered=faltered),
    )


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(
    ("chosen", "fell_back", "by_rules", "warns", "plain"),
    [
        (True, False, True, False, True),  # the people chose the rules: no warning
        (False, True, False, True, False),  # Gemini fell back to them: the warning
        (False, False, True, True, False),  # the closing itself by the rules, unchosen
        (False, False, False, False, False),  # a full result: nothing said
    ],
)
def test_the_rules_are_a_warning_only_when_nobody_chose_them(
    language: str, chosen: bool, fell_back: bool, by_rules: bool, warns: bool, plain: bool
) -> None:
    t = Strings(language)
    debate = _debate(chosen=chosen, fell_back=fell_back)
    line = degraded_line(debate, t, by_rules=by_rules)
    assert (t("degraded.rules") in line) is warns and (t("degraded.line") in line) is warns
    body = warned(debate, "# Title\nbody", t, by_rules=by_rules)
    assert (t("degraded.chosen_rules") in body) is plain
    assert body.startswith("# Title\n") and body.endswith("body")


def test_a_seat_that_failed_is_still_a_warning_when_the_rules_were_chosen() -> None:
    t = Strings("en")
    line = degraded_line(_debate(chosen=True, fell_back=False, faltered=(AG,)), t)
    assert t("degraded.seats") in line and t("degraded.rules") not in line
