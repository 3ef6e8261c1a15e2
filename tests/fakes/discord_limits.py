"""Discord's limits on a message body, checked the way Discord rejects them (50035, 50006).

Pure: `validate_message(body)` raises DiscordError for what real Discord refuses. Property
tests run rendered messages through it directly, and the fake runs every posted or edited
message through it.
"""

from __future__ import annotations

import re
from typing import Any

CONTENT_LIMIT = 2000
EMBEDS_PER_MESSAGE = 10
EMBED_TOTAL = 6000
TITLE_LIMIT = 256
DESCRIPTION_LIMIT = 4096
FIELDS_PER_EMBED = 25
FIELD_NAME_LIMIT = 256
FIELD_VALUE_LIMIT = 1024
FOOTER_LIMIT = 2048
AUTHOR_LIMIT = 256
ACTION_ROWS = 5
ITEMS_PER_ROW = 5
CUSTOM_ID_LIMIT = 100
FLAG_IS_COMPONENTS_V2 = 1 << 15

USER_MENTION = re.compile(r"<@!?(\d+)>")
ROLE_MENTION = re.compile(r"<@&(\d+)>")
EVERYONE_MENTION = re.compile(r"@(everyone|here)")


class DiscordError(Exception):
    """What the fake answers instead of a success: HTTP status, Discord error code, details."""

    def __init__(
        self, status: int, code: int, message: str, errors: dict[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.errors = status, code, message, errors


def _too_long(limit: int) -> dict[str, Any]:
    return {
        "_errors": [
            {"code": "BASE_TYPE_MAX_LENGTH", "message": f"Must be {limit} or fewer in length."}
        ]
    }


def embed_size(embed: dict[str, Any]) -> int:
    """What one embed counts towards the 6000 characters of its message."""
    size = len(embed.get("title") or "") + len(embed.get("description") or "")
    size += len((embed.get("footer") or {}).get("text") or "")
    size += len((embed.get("author") or {}).get("name") or "")
    for item in embed.get("fields") or []:
        size += len(item.get("name") or "") + len(item.get("value") or "")
    return size


def _embed_errors(embed: dict[str, Any]) -> dict[str, Any]:
    errors: dict[str, Any] = {}
    for key, limit in (("title", TITLE_LIMIT), ("description", DESCRIPTION_LIMIT)):
        if len(embed.get(key) or "") > limit:
            errors[key] = _too_long(limit)
    if len((embed.get("footer") or {}).get("text") or "") > FOOTER_LIMIT:
        errors["footer"] = {"text": _too_long(FOOTER_LIMIT)}
    if len((embed.get("author") or {}).get("name") or "") > AUTHOR_LIMIT:
        errors["author"] = {"name": _too_long(AUTHOR_LIMIT)}
    fields = embed.get("fields") or []
    if len(fields) > FIELDS_PER_EMBED:
        errors["fields"] = _too_long(FIELDS_PER_EMBED)
    for index, item in enumerate(fields):
        if len(item.get("name") or "") > FIELD_NAME_LIMIT:
            errors.setdefault("fields", {})[str(index)] = {"name": _too_long(FIELD_NAME_LIMIT)}
        if len(item.get("value") or "") > FIELD_VALUE_LIMIT:
            errors.setdefault("fields", {})[str(index)] = {"value": _too_long(FIELD_VALUE_LIMIT)}
    return errors


def _component_errors(components: list[dict[str, Any]], flags: int) -> dict[str, Any]:
    if not components or flags & FLAG_IS_COMPONENTS_V2:
        return {}
    if len(components) > ACTION_ROWS:
        return _too_long(ACTION_ROWS)
    seen: set[str] = set()
    for row in components:
        items = row.get("components") or []
        if row.get("type") != 1 or len(items) > ITEMS_PER_ROW:
            return {"_errors": [{"code": "UNION_TYPE_CHOICES", "message": "bad action row"}]}
        if any(item.get("type") == SELECT_STRING for item in items) and (
            len(items) > 1 or not _select_ok(items[0])
        ):
            return {"_errors": [{"code": "BASE_TYPE_BAD_SELECT", "message": "bad select menu"}]}
        for item in items:
            custom_id = item.get("custom_id")
            if item.get("type") == 2 and (custom_id is None) == (item.get("url") is None):
                return {"_errors": [{"code": "COMPONENT_CUSTOM_ID_URL_MUTUALLY_EXCLUSIVE"}]}
            if custom_id is None:
                continue
            if len(custom_id) > CUSTOM_ID_LIMIT or custom_id in seen:
                return {"_errors": [{"code": "COMPONENT_CUSTOM_ID_DUPLICATED", "id": custom_id}]}
            seen.add(custom_id)
    return {}


SELECT_STRING = 3
SELECT_OPTIONS = 25
SELECT_TEXT_LIMIT = 100  # an option's label and value


def _select_ok(select: dict[str, Any]) -> bool:
    """A string select alone in its row: 1-25 options, short labels and values, distinct
    values, no more defaults than it may pick."""
    options = select.get("options") or []
    values = [option.get("value", "") for option in options]
    defaults = sum(1 for option in options if option.get("default"))
    return (
        1 <= len(options) <= SELECT_OPTIONS
        and all(0 < len(option.get("label", "")) <= SELECT_TEXT_LIMIT for option in options)
        and all(0 < len(value) <= SELECT_TEXT_LIMIT for value in values)
        and len(set(values)) == len(values)
        and defaults <= int(select.get("max_values", 1))
    )


def validate_message(body: dict[str, Any], *, has_files: bool = False) -> None:
    """Raise DiscordError(400, 50035 or 50006) for a body real Discord rejects."""
    errors: dict[str, Any] = {}
    content = body.get("content") or ""
    if len(content) > CONTENT_LIMIT:
        errors["content"] = _too_long(CONTENT_LIMIT)
    embeds = body.get("embeds") or []
    if len(embeds) > EMBEDS_PER_MESSAGE:
        errors["embeds"] = _too_long(EMBEDS_PER_MESSAGE)
    for index, embed in enumerate(embeds):
        found = _embed_errors(embed)
        if found:
            errors.setdefault("embeds", {})[str(index)] = found
    if sum(embed_size(embed) for embed in embeds) > EMBED_TOTAL:
        errors.setdefault("embeds", {})["_errors"] = [
            {
                "code": "MAX_EMBED_SIZE_EXCEEDED",
                "message": "Embed size exceeds maximum size of 6000",
            }
        ]
    components = body.get("components") or []
    found = _component_errors(components, int(body.get("flags") or 0))
    if found:
        errors["components"] = found
    mentions = body.get("allowed_mentions") or {}
    if "users" in (mentions.get("parse") or []) and mentions.get("users"):
        errors["allowed_mentions"] = {
            "_errors": [{"code": "MUTUALLY_EXCLUSIVE", "message": "users"}]
        }
    empty = not (content or embeds or components or has_files or body.get("sticker_ids"))
    if empty and not body.get("poll"):
        raise DiscordError(400, 50006, "Cannot send an empty message")
    if errors:
        raise DiscordError(400, 50035, "Invalid Form Body", errors)


def pinged(content: str, allowed: dict[str, Any] | None) -> dict[str, Any]:
    """Who a message's content actually pings under its allowed_mentions (None: everyone may)."""
    parse = ["users", "roles", "everyone"] if allowed is None else (allowed.get("parse") or [])
    allowed_users = {str(u) for u in (allowed or {}).get("users") or []}
    allowed_roles = {str(r) for r in (allowed or {}).get("roles") or []}
    users = [u for u in USER_MENTION.findall(content) if "users" in parse or u in allowed_users]
    roles = [r for r in ROLE_MENTION.findall(content) if "roles" in parse or r in allowed_roles]
    everyone = "everyone" in parse and bool(EVERYONE_MENTION.search(content))
    return {
        "users": list(dict.fromkeys(users)),
        "roles": list(dict.fromkeys(roles)),
        "everyone": everyone,
    }
