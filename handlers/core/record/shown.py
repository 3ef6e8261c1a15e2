"""A turn's reply exactly as the record shows it (the Round-Log, the export file): pure.

The wiki's pages (tools.wiki.pages) and the hash chain (`chain`) both render a reply here, so
the chain hashes what a reader sees and `verify` can recompute it from a page alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from handlers.core.fences import longest_backtick_run, open_fence
from handlers.core.model import Turn
from handlers.core.shorten import shorten

Translate = Callable[..., str]

# What a page or a file cannot carry as it is: control characters but tab and line breaks
# (invisible, or a terminal's instructions), and lone surrogates (UTF-8 cannot encode them).
_UNCARRIED = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")
_HEADING = re.compile(r"^(#{1,6})(?=\s|$)")
_MODES = frozenset({"replace", "append"})

ACTION_SHOWN_CHARS = 20_000  # of a proposed Working-Document change, in the Round-Log
MARKER_PREFIX = "<!-- debate-room:"


def neutral(text: str) -> str:
    """Debater text must not forge the bot's hidden markers."""
    return text.replace(MARKER_PREFIX, "<!-- debate_room:")


def visible(text: str) -> str:
    """`text` as a page or a file carries it, every character kept: a control character (but
    tab and line breaks) or a lone surrogate is written as its `\\uXXXX` escape, as the reply
    parser writes NUL (a terminal's colour code shows as `\\u001b[32m`, not dropped)."""
    return _UNCARRIED.sub(lambda found: f"\\u{ord(found.group()):04x}", text)


def below_turn_headings(text: str) -> str:
    """Shift the reply's Markdown headings (outside code) so the highest is level 3, a level
    below the turn's own `##` heading; nothing else changes."""
    lines = text.split("\n")
    fenced, levels, spots = False, [], []
    for index, line in enumerate(lines):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        elif not fenced and (found := _HEADING.match(line)):
            levels.append(len(found.group(1)))
            spots.append(index)
    shift = 3 - min(levels, default=3)
    if shift <= 0:
        return text
    for index, hashes in zip(spots, levels, strict=True):
        lines[index] = "#" * min(6, hashes + shift) + lines[index][hashes:]
    return "\n".join(lines)


def balanced(body: str) -> str:
    """Close a code fence or HTML comment the reply left open, so the next sections still show."""
    fence = open_fence(body)
    if fence is not None:
        body += "\n" + fence.indent + fence.marker
    if body.rfind("<!--") > body.rfind("-->"):
        body += "\n-->"
    return body


def turn_body(turn: Turn, t: Translate) -> str:
    """The reply under a turn's heading and meta line: the argument, its headings a level
    below the turn's, and every structured field (question, stance, proposed change)."""
    parsed = turn.parsed
    body = balanced(below_turn_headings(neutral(parsed.opinion)))
    if parsed.structured:
        body = _reply_body(turn, body, t)
    return body.rstrip()


def _reply_body(turn: Turn, opinion: str, t: Translate) -> str:
    """Every field of the reply, readable: the argument as Markdown, its question and stance,
    and the Working-Document change it proposed (whether or not it was applied)."""
    parsed = turn.parsed
    parts = [opinion]
    if parsed.question is not None:
        parts.append(
            t(f"wiki.round_log.question_{parsed.question.to}", text=neutral(parsed.question.text))
        )
    if parsed.extra:
        parts.append(f"**{t('wiki.round_log.other_fields')}**\n\n{neutral(parsed.extra)}")
    if parsed.stance is not None:
        parts.append(t("wiki.round_log.stance", stance=t(f"wiki.stance.{parsed.stance.value}")))
    action = parsed.wiki_action
    if action is not None:
        fence = "`" * max(3, longest_backtick_run(action.content) + 1)
        mode_key = f"wiki.mode.{action.mode.strip().lower()}"
        mode = t(mode_key) if action.mode.strip().lower() in _MODES else neutral(action.mode)
        summary = t("wiki.round_log.action", page=neutral(action.page), mode=mode)
        # A refused proposal can be megabytes: the Round-Log shows its head and says where
        # the whole is, so the turn's section still fits on the page.
        cut = t("wiki.round_log.action_cut", omitted="{omitted}", sha=turn.sha256[:12])
        content = shorten(
            action.content, ACTION_SHOWN_CHARS, lambda n: cut.replace("{omitted}", str(n))
        )
        block = f"{fence}markdown\n{neutral(content)}\n{fence}"
        parts.append(f"<details>\n<summary>{summary}</summary>\n\n{block}\n\n</details>")
    return "\n\n".join(parts)
