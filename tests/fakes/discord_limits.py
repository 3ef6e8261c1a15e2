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
    if not components:
        return {}
    if flags & FLAG_IS_COMPONENTS_V2:
        return _layout_errors(components)
    if len(components) > ACTION_ROWS:
        return _too_long(ACTION_ROWS)
    return _rows_errors(components)


def _rows_errors(components: list[dict[str, Any]]) -> dict[str, Any]:
    """Action rows: five buttons or one menu each, custom_ids unique across them."""
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
# Components v2: what a layout message may hold at its top level, in a container, a section.
ACTION_ROW, BUTTON, SECTION, TEXT_DISPLAY, THUMBNAIL, SEPARATOR, CONTAINER = 1, 2, 9, 10, 11, 14, 17
TOP_LEVEL = {ACTION_ROW, SECTION, TEXT_DISPLAY, 12, 13, SEPARATOR, CONTAINER}
IN_CONTAINER = TOP_LEVEL - {CONTAINER}
LAYOUT_COMPONENTS = 40  # every component of the message, nested ones included
LAYOUT_TEXT = 4000  # characters across every text display of the message


def walk(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every component of a message, depth first: rows, containers and sections open, a
    section's accessory after its text."""
    found: list[dict[str, Any]] = []
    for item in components:
        found.append(item)
        found += walk(item.get("components") or [])
        if isinstance(item.get("accessory"), dict):
            found += walk([item["accessory"]])
    return found


def _bad(code: str, message: str) -> dict[str, Any]:
    return {"_errors": [{"code": code, "message": message}]}


def _layout_errors(components: list[dict[str, Any]]) -> dict[str, Any]:
    """A components v2 message: the nesting Discord allows, 40 components, 4000 characters of
    text, custom_ids unique, rows and menus as in a legacy message."""
    if any(item.get("type") not in TOP_LEVEL for item in components):
        return _bad("UNION_TYPE_CHOICES", "not a top-level layout component")
    every = walk(components)
    if len(every) > LAYOUT_COMPONENTS:
        return _bad("BASE_TYPE_MAX_LENGTH", f"Must be {LAYOUT_COMPONENTS} or fewer in length.")
    text = sum(len(c.get("content") or "") for c in every if c.get("type") == TEXT_DISPLAY)
    if text > LAYOUT_TEXT:
        return _bad("MAX_TEXT_DISPLAY_LENGTH", f"text displays hold {LAYOUT_TEXT} characters")
    for item in every:
        inner = item.get("components") or []
        if item.get("type") == CONTAINER and any(c.get("type") not in IN_CONTAINER for c in inner):
            return _bad("UNION_TYPE_CHOICES", "not a component a container holds")
        if item.get("type") == SECTION and not (
            1 <= len(inner) <= 3
            and all(c.get("type") == TEXT_DISPLAY for c in inner)
            and (item.get("accessory") or {}).get("type") in (BUTTON, THUMBNAIL)
        ):
            return _bad("UNION_TYPE_CHOICES", "a section holds 1-3 texts and a button beside")
    rows = [item for item in every if item.get("type") == ACTION_ROW]
    accessories = [
        {"type": ACTION_ROW, "components": [item["accessory"]]}
        for item in every
        if item.get("type") == SECTION and item.get("accessory", {}).get("type") == BUTTON
    ]
    return _rows_errors(rows + accessories)


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
    flags = int(body.get("flags") or 0)
    found = _component_errors(components, flags)
    if found:
        errors["components"] = found
    if flags & FLAG_IS_COMPONENTS_V2 and (content or embeds or body.get("poll")):
        raise DiscordError(
            400,
            50035,
            "Invalid Form Body",
            {
                "content" if content else "embeds": _bad(
                    "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                    "The 'content' and 'embeds' fields cannot be used with IS_COMPONENTS_V2",
                )
            },
        )
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


def visible_text(message: dict[str, Any]) -> str:
    """What a message (or a message body) shows as text, whatever its shape: its content, each
    embed (author, title, description, fields, footer) and each text display of a layout, one
    per line, in order."""
    lines = [message.get("content") or ""]
    for embed in message.get("embeds") or []:
        lines += [(embed.get("author") or {}).get("name") or "", embed.get("title") or ""]
        lines.append(embed.get("description") or "")
        for item in embed.get("fields") or []:
            lines += [item.get("name") or "", item.get("value") or ""]
        lines.append((embed.get("footer") or {}).get("text") or "")
    for item in walk(message.get("components") or []):
        lines.append(item.get("content") or "" if item.get("type") == TEXT_DISPLAY else "")
    return "\n".join(line for line in lines if line)


def as_embed(message: dict[str, Any]) -> dict[str, Any]:
    """A message's first embed; for a layout message, the embed its container stands for: the
    `## ` heading as title (lines under it and plain texts as description), each
    `**name**\nvalue` text as a field, a `-# ` line as footer, the accent as colour."""
    if message.get("embeds"):
        return dict(message["embeds"][0])
    boxes = [c for c in message.get("components") or [] if c.get("type") == CONTAINER]
    if not boxes:
        return {}
    embed: dict[str, Any] = {"color": boxes[0].get("accent_color"), "fields": []}
    described: list[str] = []
    for item in walk(boxes[0]["components"]):
        text = item.get("content") or "" if item.get("type") == TEXT_DISPLAY else ""
        name, _, value = text.partition("\n")
        if text.startswith("## "):
            embed["title"] = name.removeprefix("## ")
            described += [value] if value else []
        elif text.startswith("-# "):
            embed["footer"] = {"text": text.removeprefix("-# ")}
        elif name.startswith("**") and name.endswith("**") and value:
            embed["fields"].append({"name": name[2:-2], "value": value, "inline": False})
        elif text:
            described.append(text)
    if described:
        embed["description"] = "\n".join(described)
    return embed


def layout_text(message: dict[str, Any]) -> str:
    """The text displays of a layout message, joined by lines ("" for a legacy message)."""
    every = walk(message.get("components") or [])
    return "\n".join(c.get("content") or "" for c in every if c.get("type") == TEXT_DISPLAY)


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
