"""Parse a debater's reply tolerantly: bare JSON, a ```json fence, or JSON after prose."""

from __future__ import annotations

import json
import re
from typing import Any

from handlers.model import ParsedReply, Question, Stance, WikiAction

_CONTRACT_KEYS = frozenset({"opinion", "wiki_action", "question", "stance"})
_FENCE = re.compile(r"```(?:json|JSON)?[ \t]*\n(.*?)\n?[ \t]*```", re.DOTALL)
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
    for match in reversed(list(_FENCE.finditer(text))):
        obj = _decode_whole(match.group(1))
        if obj is not None:
            return obj, match.start(), match.end()
    for start in _brace_positions(text):
        try:
            obj, end = _DECODER.raw_decode(text, start)
        except ValueError:
            continue
        if isinstance(obj, dict) and _CONTRACT_KEYS & obj.keys():
            return obj, start, end
    return None


def _brace_positions(text: str) -> list[int]:
    """Candidate starts of an object with a key, last first (the contract block ends a reply)."""
    return [m.start() for m in reversed(list(re.finditer(r"\{\s*\"", text)))]


def _decode_whole(snippet: str) -> dict[str, Any] | None:
    try:
        obj = json.loads(snippet)
    except ValueError:
        return None
    if isinstance(obj, dict) and _CONTRACT_KEYS & obj.keys():
        return obj
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
