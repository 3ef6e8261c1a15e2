"""The fake Discord's rules for layout messages (components v2), as Discord refuses them."""

from __future__ import annotations

from typing import Any

import pytest

from tests.fakes.discord_limits import (
    FLAG_IS_COMPONENTS_V2,
    DiscordError,
    as_embed,
    validate_message,
    visible_text,
)

V2 = FLAG_IS_COMPONENTS_V2


def text(content: str) -> dict[str, Any]:
    return {"type": 10, "content": content}


def stop(custom_id: str = "debate:stop:1") -> dict[str, Any]:
    return {"type": 2, "style": 4, "label": "Stop", "custom_id": custom_id}


def box(*items: dict[str, Any]) -> dict[str, Any]:
    return {"type": 17, "accent_color": 0x95A5A6, "components": list(items)}


def test_a_layout_within_the_limits_is_taken_and_read_as_text_and_as_an_embed() -> None:
    body = {
        "flags": V2,
        "components": [
            box(
                text("## Title\nwhat was decided"),
                {"type": 9, "components": [text("**Field**\nvalue")], "accessory": stop()},
                {"type": 14, "divider": True, "spacing": 1},
                text("-# footer"),
            )
        ],
    }
    validate_message(body)
    assert visible_text(body) == "## Title\nwhat was decided\n**Field**\nvalue\n-# footer"
    embed = as_embed(body)
    assert (embed["title"], embed["description"]) == ("Title", "what was decided")
    assert embed["fields"] == [{"name": "Field", "value": "value", "inline": False}]
    assert embed["footer"] == {"text": "footer"} and embed["color"] == 0x95A5A6


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"flags": V2, "content": "text", "components": [text("x")]}, "LEGACY_FIELDS"),
        ({"flags": V2, "embeds": [{"title": "t"}], "components": [text("x")]}, "LEGACY_FIELDS"),
        ({"flags": V2, "components": [text("x" * 2001), text("y" * 2000)]}, "TEXT_DISPLAY"),
        ({"flags": V2, "components": [box(*[text("x")] * 40)]}, "MAX_LENGTH"),
        ({"flags": V2, "components": [{"type": 2, "style": 1}]}, "UNION_TYPE"),
        ({"flags": V2, "components": [box(box(text("x")))]}, "UNION_TYPE"),
        (
            {"flags": V2, "components": [{"type": 9, "components": [text("x")] * 4}]},
            "UNION_TYPE",
        ),
        (
            {
                "flags": V2,
                "components": [
                    {"type": 9, "components": [text("x")], "accessory": stop()},
                    {"type": 1, "components": [stop()]},
                ],
            },
            "DUPLICATED",
        ),
        ({"components": [box(text("x"))]}, "UNION_TYPE"),  # v2 components need the flag
    ],
)
def test_discord_refuses_a_layout_out_of_its_rules(body: dict[str, Any], code: str) -> None:
    with pytest.raises(DiscordError) as refused:
        validate_message(body)
    assert refused.value.code == 50035
    assert code in str(refused.value.errors)
