"""Parse a debater's reply tolerantly: bare JSON, a ```json fence, or JSON after prose."""

from __future__ import annotations

import json
import re
from typing import Any

from handlers.model import ParsedReply, Question, Stance, WikiAction

_CONTRACT_KEYS = frozenset({"opinion", "wiki_action", "question", "stance"})
_FENCE_OPEN = re.compile(r"```(?:json|JSON)?[ \t]*\n")
_FENCE_CLOSE = re.compile(r"\s*```")
_DECODER = json.JSONDecoder()


def parse_reply(text: str) -> ParsedReply:
    """Split a reply into the contract's fields; never drop any of its text."""
    found = _find_block(text)
    if found is None:
        return ParsedReply(opinion=text, structured=False)
    block, start, end = found
    opinion = block.get("opinion")
    pieces = [
        text[:start].strip(),
        opinion.strip() if isinstance(opinion, str) else "",
        text[end:].strip(),
    ]
    return ParsedReply(
        opinion="\n\n".join(piece for piece in pieces if piece),
        wiki_action=_wiki_action(block.get("wiki_action")),
        question=_question(block.get("question")),
        stance=_stance(block.get("stance")),
    )


def _find_block(text: str) -> tuple[dict[str, Any], int, int] | None:
    """The last JSON object carrying a contract key, with the span it occupies in `text`."""
    # A fenced block is decoded from its opening on, so a ``` inside a JSON string (a
    # Markdown code block in the opinion) cannot end it early.
    for opening in reversed(list(_FENCE_OPEN.finditer(text))):
        decoded = _decode_at(text, opening.end())
        if decoded is not None:
            obj, end = decoded
            close = _FENCE_CLOSE.match(text, end)
            return obj, opening.start(), close.end() if close else end
    for start in _brace_positions(text):
        decoded = _decode_at(text, start)
        if decoded is not None:
            return decoded[0], start, decoded[1]
    return None


def _brace_positions(text: str) -> list[int]:
    """Candidate starts of an object with a key, last first (the contract block ends a reply)."""
    return [m.start() for m in reversed(list(re.finditer(r"\{\s*\"", text)))]


def _decode_at(text: str, start: int) -> tuple[dict[str, Any], int] | None:
    """The contract object that begins at `start` (after white space), and where it ends."""
    while start < len(text) and text[start].isspace():
        start += 1
    try:
        obj, end = _DECODER.raw_decode(text, start)
    except ValueError:
        return None
    if isinstance(obj, dict) and _CONTRACT_KEYS & obj.keys():
        return obj, end
    return None


def _wiki_action(value: object) -> WikiAction | None:
    if not isinstance(value, dict):
        return None
    return WikiAction(
        page=str(value.get("page", "")),
        mode=str(value.get("mode", "replace")),
        content=value["content"] if isinstance(value.get("content"), str) else "",
    )


def _question(value: object) -> Question | None:
    if isinstance(value, str) and value.strip():
        return Question(to="opponent", text=value)
    if not isinstance(value, dict):
        return None
    text = value.get("text")
    if not isinstance(text, str) or not text.strip():
        return None
    to = "user" if str(value.get("to", "")).lower() == "user" else "opponent"
    return Question(to=to, text=text)


def _stance(value: object) -> Stance | None:
    try:
        return Stance(str(value).lower()) if value is not None else None
    except ValueError:
        return None


def json_block(text: str) -> dict[str, Any] | None:
    """The reply's contract block as a dict (a format reads its own fields from it)."""
    found = _find_block(text)
    return found[0] if found is not None else None
