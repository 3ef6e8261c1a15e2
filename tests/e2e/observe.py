"""What the end-to-end scenarios check after the fact: each turn shown once, logged once."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from tests.e2e.harness import World
from tests.fakes.discord_limits import visible_text

# The footer of a turn's last embed: `턴 3 · 15 토큰 · … · sha256 3f9a1c0b2e7d` (ko) or `Turn 3 ·`.
_FOOTER = re.compile(r"^(?:턴|Turn) (\d+) · .*sha256 ([0-9a-f]{12})$")
_LOG_ENTRY = re.compile(r"<!-- debate-room:entry \d+:round-log:(\d+) -->")
_LOG_HEADING = re.compile(r"^## (?:라운드|Round) \d+ · (?:턴|turn|Turn) (\d+) · ", re.MULTILINE)


def turn_footers(world: World, thread_id: str) -> Counter[int]:
    """How many times each turn number was posted in the thread (its footer says which)."""
    found: Counter[int] = Counter()
    for message in world.bot_messages(thread_id):
        for embed in message.get("embeds", []):
            match = _FOOTER.match(str((embed.get("footer") or {}).get("text", "")))
            if match:
                found[int(match.group(1))] += 1
    return found


def round_log(world: World) -> str:
    """The Round-Log page's Markdown (empty if it does not exist)."""
    page = world.page("round-log")
    return page.content if page is not None else ""


def round_log_entries(world: World) -> Counter[int]:
    """How many times each turn's section landed in the Round-Log (marker and heading)."""
    content = round_log(world)
    markers = Counter(int(n) for n in _LOG_ENTRY.findall(content))
    headings = Counter(int(n) for n in _LOG_HEADING.findall(content))
    assert markers == headings, f"markers {markers} but headings {headings}"
    return markers


def assert_each_turn_once(world: World, thread_id: str) -> int:
    """Every turn posted once and logged once, numbered 1..n with no gap; returns n."""
    posted = turn_footers(world, thread_id)
    assert posted, "no turn was posted"
    turns = max(posted)
    every = Counter(range(1, turns + 1))
    assert posted == every, f"turn embeds per turn number: {dict(posted)}"
    logged = round_log_entries(world)
    assert logged == every, f"Round-Log sections per turn number: {dict(logged)}"
    return turns


def lines(world: World, channel_id: str) -> list[str]:
    """The plain-text lines the bot posted in a channel (notices, status, relay prompts)."""
    return [visible_text(m) for m in world.bot_messages(channel_id)]


def has_line(world: World, channel_id: str, start: str) -> bool:
    """True if one of the bot's lines in the channel starts with `start`."""
    return any(line.startswith(start) for line in lines(world, channel_id))


def assert_delivered(world: World, thread_id: str, opinions: Iterable[str]) -> None:
    """Each opinion shown once in the thread and logged once in the Round-Log, in full; the
    card, the status and AG's prompts posted once each."""
    shown, logged = world.embed_text(thread_id), round_log(world)
    for opinion in opinions:
        assert shown.count(opinion) == 1, f"{opinion!r} shown {shown.count(opinion)} times"
        assert logged.count(opinion) == 1, f"{opinion!r} logged {logged.count(opinion)} times"
    assert len(world.bot_messages(world.channel_id)) == 1, "the card, and nothing else, once"
    statuses = [line for line in lines(world, thread_id) if line.startswith(("라운드", "종료"))]
    assert len(statuses) == 1, f"status messages: {statuses}"
    prompts = Counter(world.ag.prompted_turns())
    assert all(count == 1 for count in prompts.values()), f"AG prompts per turn: {prompts}"


def assert_clean_logs(world: World) -> None:
    """No run of the bot logged an error: a failure the product swallowed still fails the test."""
    problems = [
        f"{log.name}: {line}"
        for log in sorted(world.tmp.glob("bot-*.log"))
        for line in log.read_text(errors="replace").splitlines()
        if " ERROR " in line or " CRITICAL " in line or line.startswith("Traceback")
    ]
    assert not problems, "\n".join(problems)
