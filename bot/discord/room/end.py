"""The debate's end in Discord: the Conclusion with links to the pages the debate wrote, or a
format's closing summary (in the Conclusion's place when it stands in for one)."""

from __future__ import annotations

import io
from dataclasses import replace

import discord

from bot.discord.layouts import conclusion_layout, summary_layout
from bot.discord.room.poll import people_decision
from bot.discord.room.records import RoomRecords
from bot.formatting import page_keys
from handlers.core.ending.degraded import warned
from handlers.core.formats import format_named
from handlers.core.formats.keys import fill_keys
from handlers.core.i18n import Strings
from handlers.core.model import Conclusion, Debate, ModeratorSource, Turn
from handlers.core.record.chain import SCHEME, chain_head
from handlers.ports import Loaded
from tools.wiki.export import export_file, export_name


async def post_conclusion(
    records: RoomRecords,
    strings: Strings,
    debate: Debate,
    conclusion: Conclusion,
    loaded: Loaded,
) -> None:
    """The final summary with links to the pages the debate wrote (no dead links), then the
    whole debate as one file."""
    by_rules = conclusion.source is ModeratorSource.RULES
    decision = warned(debate, conclusion.decision, strings, by_rules=by_rules)
    shown = replace(conclusion, decision=decision)
    decided = people_decision(debate, strings)
    layout = conclusion_layout(debate, shown, dict(loaded.links), strings, decided=decided)
    await records.send_once(debate, "conclusion", view=layout)
    await _export(records, strings, debate, loaded.turns)


async def post_summary(
    records: RoomRecords, strings: Strings, debate: Debate, loaded: Loaded
) -> None:
    """The format's closing block, grey, with links to the pages it wrote; standing in for the
    Conclusion, then the whole debate as one file."""
    closing = format_named(debate.setup.format).closes_itself(debate)
    links = page_keys(debate, dict(loaded.links))
    text = fill_keys(warned(debate, loaded.markdown), strings, links)
    layout = summary_layout(debate.setup.format, text, dict(loaded.links), strings, closing=closing)
    await records.send_once(debate, "conclusion" if closing else "summary", view=layout)
    if closing:
        await _export(records, strings, debate, loaded.turns)


async def _export(
    records: RoomRecords, strings: Strings, debate: Debate, turns: tuple[Turn, ...]
) -> None:
    """The export (tools/wiki/export.py) as an attachment, once, with the record's chain head
    (handlers/core/record/chain.py) in its text."""
    markdown = await export_file(debate, turns, strings)
    file = discord.File(io.BytesIO(markdown), filename=export_name(debate))
    head = strings("record.head", scheme=SCHEME, head=chain_head(debate, turns, strings))
    content = f"{strings('export.attached')}\n{head}"
    await records.send_once(debate, "export", content=content, file=file)
