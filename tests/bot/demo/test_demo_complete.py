"""Every demo recording (4 formats x 3 languages) replays complete through the real engine: no
degraded notice (a fallback's ℹ️/⚠️ line, "Not reviewed", a flagged concession, a rules
stand-in stored for a task), the thread's last link is the format's record page, no internal
step or task id is shown to people, and no participant's name is doubled."""

from __future__ import annotations

import re

import pytest

from handlers.core.ending.degraded import degraded_line
from handlers.core.formats.base import SOURCE
from handlers.core.i18n import Strings, load_table
from tests.golden.replays import DEMOS, Replayed, replayed
from tools.wiki.pages import participant_name

_NOTICE = re.compile(r"^[│\s]*(ℹ️|⚠️)", re.MULTILINE)  # a notice line, in a panel or not
_PARAM = re.compile(r"\{(\w+)\}")
# The page each seed calls the record: free's Conclusion (seed 002), the synthesis (000), the
# Debate Result (003), the ledger, conclusion.md (004: "This is the record").
_RECORD = {
    "free": "conclusion.md",
    "boardroom": "synthesis.md",
    "adversarial": "debate-result.md",
    "ledger": "conclusion.md",
}


def _said(demo: Replayed) -> str:
    """All people read: the thread and every page."""
    return "\n".join((demo.screen, *demo.pages.values()))


def _degraded(demo: Replayed) -> list[str]:
    """What says the result is less than whole."""
    t, debate, said = demo.t, demo.debate, _said(demo)
    found = [f"stored: {degraded_line(debate, t)}"] if degraded_line(debate, t) else []
    outputs = dict(debate.moderation.outputs)
    found += [
        f"rules stood in for {k}"
        for k, v in outputs.items()
        if k.startswith(SOURCE.format("")) and v == "rules"
    ]
    found += [f"notice: {m.group(0).strip()}…" for m in _NOTICE.finditer(demo.screen)]
    unquoted = max(_PARAM.split(load_table(t.language)["concession.unquoted"]), key=len)
    for words in (t("boardroom.not_reviewed"), t("degraded.line"), unquoted):
        found += [f"said: {words}"] if words.strip() in said else []
    return found


def _raw_ids(demo: Replayed) -> list[str]:
    """Internal ids (the format's name, its tasks, its step) where people read words: as code,
    or where a notice names a step or a task."""
    debate, said = demo.debate, _said(demo)
    tasks = {key for key, _ in debate.moderation.outputs if not re.search(r"[:/]", key)}
    step = debate.floor.step
    ids = {debate.setup.format, *demo.recording.tasks, *tasks, step, step.split(":")[-1]} - {""}
    found = [f"`{i}`" for i in sorted(ids) if f"`{i}`" in said]
    for key, template in load_table(demo.t.language).items():
        for param in ("task", "step"):
            if f"{{{param}}}" not in template:
                continue
            before, _, after = template.partition(f"{{{param}}}")
            left, right = _PARAM.split(before)[-1][-12:], _PARAM.split(after)[0][:12]
            found += [f"{key}: {i}" for i in sorted(ids) if f"{left}{i}{right}" in said]
    return found


def _doubled(demo: Replayed) -> list[str]:
    """A participant's name said twice over: `AG (Gemini) (architect)`, `Claude Claude`."""
    said = _said(demo)
    debate, t = demo.debate, demo.t
    names = {debate.name_of(seat) for seat in debate.ids}
    names |= {participant_name(debate, seat, t) for seat in debate.ids}  # the pages' names
    found = [f"{n} (…)" for n in names if n.endswith(")") and f"{n} (" in said]
    return found + [f"{n} {n}" for n in names if f"{n} {n}" in said]


@pytest.mark.parametrize(("name", "language"), DEMOS)
def test_the_demo_replays_complete(name: str, language: str) -> None:
    demo = replayed(name, language)
    assert demo.recording.format_name == name and Strings(language).language == language
    assert not _degraded(demo), _degraded(demo)
    # the thread's last word links the format's record page, the page the seed calls the record
    assert demo.last_link == demo.record_path == _RECORD[name]
    assert not _raw_ids(demo), _raw_ids(demo)
    assert not _doubled(demo), _doubled(demo)
