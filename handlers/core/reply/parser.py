"""Parse a debater's reply tolerantly: bare JSON, a ```json fence, or JSON after prose.

Never raises, runs in linear time, and loses no character: whatever the block holds beyond
the contract's fields (unknown keys, duplicates, lists where text was expected) is shown in
`ParsedReply.extra`. Shown text has lone surrogates and NUL written as `\\uXXXX` escapes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass

from handlers.core.fences import closing_after, json_openings_last_first
from handlers.core.model import ParsedReply, Question, Stance, WikiAction
from handlers.core.reply.fields import Num, Obj, Value, render_extra, shown

__all__ = ["OFF_LOOP_CHARS", "json_block", "parse_reply", "shown", "task_object"]

OFF_LOOP_CHARS = 64 * 1024  # a longer reply is parsed in a worker thread
MAX_ATTEMPTS = 512  # decode attempts per reply: a flood of `{"` cannot make parsing slow
MAX_ENCLOSING = 64  # earlier starts tried for an object enclosing the one found
_BUDGET_FACTOR = 8  # characters a reply's failed decode attempts may cost, per character
_BUDGET_FLOOR = 1 << 20
_CONTRACT_KEYS = frozenset({"opinion", "wiki_action", "question", "stance"})
_ACTION_KEYS = frozenset({"page", "mode", "content"})
_QUESTION_KEYS = frozenset({"to", "text"})
_SPACE = re.compile(r"\s*")
_OBJECT_START_REVERSED = re.compile(r'"\s*\{')  # `{"` read backwards
_DECODER = json.JSONDecoder(
    object_pairs_hook=Obj, parse_float=Num, parse_int=Num, parse_constant=Num, strict=False
)


@dataclass
class _Budget:
    """What failed decode attempts may still cost (characters scanned, including the line
    count `JSONDecodeError` makes from the start of the text)."""

    left: int
    attempts: int = MAX_ATTEMPTS

    def spend(self, cost: int) -> None:
        """Charge one attempt."""
        self.left -= cost
        self.attempts -= 1

    @property
    def spent(self) -> bool:
        """True once no attempt is left."""
        return self.left <= 0 or self.attempts <= 0


def parse_reply(text: str) -> ParsedReply:
    """Split a reply into the contract's fields; never drop any of its text."""
    found = _find_block(text)
    if found is None:
        return ParsedReply(opinion=shown(text), structured=False)
    block, start, end = found
    extra: list[tuple[str, Value]] = []
    used = _split(block, _CONTRACT_KEYS, extra)
    opinion = used.get("opinion")
    if opinion is not None and not isinstance(opinion, str):
        extra.append(("opinion", opinion))
        opinion = None
    pieces = [text[:start].strip(), opinion.strip() if opinion else "", text[end:].strip()]
    return ParsedReply(
        opinion=shown("\n\n".join(piece for piece in pieces if piece)),
        wiki_action=_wiki_action(used.get("wiki_action"), extra),
        question=_question(used.get("question"), extra),
        stance=_stance(used.get("stance"), extra),
        extra=shown(render_extra(extra)),
        # Read, and still shown among the other fields: every character reaches the thread.
        convinced_by=next((v for k, v in extra if k == "convinced_by" and isinstance(v, str)), ""),
    )


def _split(
    value: Obj, keys: frozenset[str], extra: list[tuple[str, Value]], prefix: str = ""
) -> dict[str, Value]:
    """The last value of each of `keys`; every other pair goes to `extra`, under `prefix`."""
    last = {key: index for index, (key, _) in enumerate(value) if key in keys}
    used: dict[str, Value] = {}
    for index, (key, item) in enumerate(value):
        if last.get(key) == index:
            used[key] = item
        else:
            extra.append((f"{prefix}{key}", item))
    return used


def _find_block(text: str, keys: frozenset[str] = _CONTRACT_KEYS) -> tuple[Obj, int, int] | None:
    """The last JSON object carrying one of `keys`, with the span it occupies in `text`."""
    last_key = max(text.rfind(f'"{key}"') for key in keys)
    if last_key < 0:
        return None
    budget = _Budget(_BUDGET_FACTOR * len(text) + _BUDGET_FLOOR)
    # A fenced block is decoded from its opening on, so a ``` inside a JSON string (a
    # Markdown code block in the opinion) cannot end it early.
    # Only an opening before the last key can hold it (the slice skips the rest unread).
    for opening in json_openings_last_first(text[:last_key]):
        decoded = _decode_at(text, opening.body, budget, keys)
        if decoded is not None:
            obj, end = decoded
            return obj, opening.start, closing_after(text, end) or end
        if budget.spent:
            return None
    return _bare_block(text, last_key, budget, keys)


def _bare_block(
    text: str, last_key: int, budget: _Budget, keys: frozenset[str]
) -> tuple[Obj, int, int] | None:
    """The last bare object with a contract key; an object enclosing it wins over it."""
    best: tuple[Obj, int, int] | None = None
    enclosing_tries = MAX_ENCLOSING
    # An object can only hold a contract key that comes after its start.
    for start in _object_starts_last_first(text, last_key):
        if best is not None:
            enclosing_tries -= 1
            if enclosing_tries < 0:
                break
        decoded = _decode_at(text, start, budget, keys)
        if decoded is not None and (best is None or decoded[1] >= best[2]):
            best = (decoded[0], start, decoded[1])
        if budget.spent:
            break
    return best


def _object_starts_last_first(text: str, before: int) -> Iterator[int]:
    """Each `{` followed by a key's quote, at or before `before`, last first and lazily."""
    size = len(text)
    for match in _OBJECT_START_REVERSED.finditer(text[::-1], size - 1 - before):
        yield size - match.end()


def _decode_at(
    text: str, start: int, budget: _Budget, keys: frozenset[str]
) -> tuple[Obj, int] | None:
    """The object with one of `keys` beginning at `start` (after white space), and its end."""
    start = _SPACE.match(text, start).end()  # type: ignore[union-attr]  # \s* always matches
    try:
        obj, end = _DECODER.raw_decode(text, start)
    except json.JSONDecodeError as exc:
        budget.spend(exc.pos + (exc.pos - start))
        return None
    except (RecursionError, ValueError):
        # Nesting deeper than the interpreter allows; where it stopped is unknown.
        budget.spend(2 * len(text))
        return None
    if isinstance(obj, Obj) and any(key in keys for key, _ in obj):
        return obj, end
    budget.spend(end - start)
    return None


def _wiki_action(value: Value | None, extra: list[tuple[str, Value]]) -> WikiAction | None:
    if value is None:
        return None
    rest: list[tuple[str, Value]] = []
    fields = _split(value, _ACTION_KEYS, rest, "wiki_action.") if isinstance(value, Obj) else {}
    page, mode, content = (fields.get(key) for key in ("page", "mode", "content"))
    page = "" if page is None else page
    mode = "replace" if mode is None else mode
    if not (isinstance(page, str) and isinstance(mode, str) and isinstance(content, str)):
        extra.append(("wiki_action", value))
        return None
    extra += rest
    return WikiAction(page=shown(page), mode=shown(mode), content=shown(content))


def _question(value: Value | None, extra: list[tuple[str, Value]]) -> Question | None:
    if value is None:
        return None
    if isinstance(value, str) and value.strip():
        return Question(to="opponent", text=shown(value))
    rest: list[tuple[str, Value]] = []
    fields = _split(value, _QUESTION_KEYS, rest, "question.") if isinstance(value, Obj) else {}
    to, text = fields.get("to"), fields.get("text")
    if not isinstance(text, str) or not text.strip() or not isinstance(to, str | None):
        extra.append(("question", value))  # no question: shown whole among the other fields
        return None
    extra += rest
    who = "user" if str(to or "").lower() == "user" else "opponent"
    if to is not None and to.lower() not in {"user", "opponent"}:
        extra.append(("question.to", to))
    return Question(to=who, text=shown(text))


def _stance(value: Value | None, extra: list[tuple[str, Value]]) -> Stance | None:
    if value is None:
        return None
    if isinstance(value, str):
        try:
            return Stance(value.lower())
        except ValueError:
            pass
    extra.append(("stance", value))
    return None


def json_block(text: str, keys: frozenset[str] = _CONTRACT_KEYS) -> dict[str, Value] | None:
    """The reply's last JSON object holding one of `keys` (by default the free format's
    contract) as a dict, the last of a repeated key winning: a format reads its own fields
    from it, in linear time, never raising."""
    found = _find_block(text, keys)
    return dict(found[0]) if found is not None else None


def task_object(text: str) -> dict[str, object]:
    """The JSON object a moderator's task answered (bare, fenced, or between the first `{`
    and the last `}`); empty when there is none or it cannot be read, nesting too deep for
    the interpreter included: never raises."""
    body = text.strip().removeprefix("```json").removeprefix("```").removesuffix("```")
    start, end = body.find("{"), body.rfind("}")
    for candidate in (body, body[start : end + 1] if 0 <= start < end else ""):
        try:
            value = json.loads(candidate)
        except (RecursionError, ValueError):
            continue
        if isinstance(value, dict):
            return value
    return {}
