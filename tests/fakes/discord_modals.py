"""The fake Discord's modals (forms): the bot opens one as its answer to a click (callback type
9, checked against Discord's limits), and a test submits it as the person would (interaction
type 5, MODAL_SUBMIT), with a value for each text input, checked as Discord's client checks."""

from __future__ import annotations

from typing import Any

from tests.fakes.discord_limits import DiscordError

MODAL_SUBMIT = 5
ACTION_ROW, TEXT_INPUT, LABEL = 1, 4, 18
TITLE_LIMIT, LABEL_LIMIT, TEXT_LIMIT, MAX_ROWS = 45, 45, 4000, 5
Json = dict[str, Any]


def _invalid(message: str) -> DiscordError:
    return DiscordError(400, 50035, f"Invalid Form Body: {message}")


def text_inputs(modal: Json) -> list[Json]:
    """The modal's text inputs, in order (in an action row, or wrapped in a label)."""
    found: list[Json] = []
    for row in modal.get("components", []):
        if row.get("type") == ACTION_ROW:
            found += [c for c in row.get("components", []) if c.get("type") == TEXT_INPUT]
        elif row.get("type") == LABEL and row.get("component", {}).get("type") == TEXT_INPUT:
            found.append(dict(row["component"], label=row.get("label", "")))
    return found


def validate_modal(data: Json) -> Json:
    """The modal as Discord would accept it, or the error it would answer."""
    title, custom_id = data.get("title") or "", data.get("custom_id") or ""
    if not title or len(title) > TITLE_LIMIT:
        raise _invalid(f"title must be 1-{TITLE_LIMIT} characters")
    if not custom_id or len(custom_id) > 100:
        raise _invalid("custom_id must be 1-100 characters")
    rows = data.get("components") or []
    inputs = text_inputs(data)
    if not 1 <= len(rows) <= MAX_ROWS or len(inputs) != len(rows):
        raise _invalid(f"a modal holds 1-{MAX_ROWS} text inputs")
    for item in inputs:
        label = item.get("label") or ""
        if not label or len(label) > LABEL_LIMIT:
            raise _invalid(f"a text input's label must be 1-{LABEL_LIMIT} characters")
        if int(item.get("max_length") or TEXT_LIMIT) > TEXT_LIMIT:
            raise _invalid(f"max_length at most {TEXT_LIMIT}")
        if len(item.get("value") or "") > int(item.get("max_length") or TEXT_LIMIT):
            raise _invalid("the prefilled value is longer than max_length")
    return data


def submit_data(modal: Json, values: dict[str, str]) -> Json:
    """A MODAL_SUBMIT's `data`; the person can only send what the form allows."""
    inputs = text_inputs(modal)
    unknown = set(values) - {item["custom_id"] for item in inputs}
    if unknown:
        raise AssertionError(f"the modal has no text input {sorted(unknown)}")
    rows = []
    for item in inputs:
        value = values.get(item["custom_id"], item.get("value") or "")
        low = int(item.get("min_length") or 0)
        high = int(item.get("max_length") or TEXT_LIMIT)
        if item.get("required", True) and not value:
            raise AssertionError(f"{item['custom_id']!r} is required")
        if value and not low <= len(value) <= high:
            raise AssertionError(f"{item['custom_id']!r} takes {low}-{high} characters")
        typed = {"type": TEXT_INPUT, "custom_id": item["custom_id"], "value": value}
        rows.append({"type": ACTION_ROW, "components": [typed]})
    return {"custom_id": modal["custom_id"], "components": rows}
