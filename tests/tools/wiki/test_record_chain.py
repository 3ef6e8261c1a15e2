"""The chain over a Round-Log in several parts, with a turn longer than a part cut into pieces
(its code fence closed and reopened at each cut), on Wiki.js and on the local wiki: the pages
alone verify, and one changed character on a later part or in a later piece names its turn."""

from __future__ import annotations

import asyncio

from handlers.core.i18n import Strings
from handlers.core.record.chain import Problem, Verdict, head_block, read_record, verify
from tests.effects import logged
from tests.tools.wiki.support import WAIT, OutboxFactory, Site, debate, turn
from tests.tools.wiki.test_round_log_parts import BASE, LIMIT, parts


async def test_a_round_log_in_parts_with_a_cut_turn_verifies_and_names_a_changed_turn(
    site: Site, make_outbox: OutboxFactory
) -> None:
    outbox = make_outbox(site.backend(), part_limit=LIMIT)
    start = debate()
    fenced = "```py\n" + "print('가나다')\n" * 300 + "```\n"  # one turn longer than a part
    texts = [f"턴 {n} 본문 " * 60 for n in range(1, 9)] + [f"긴 턴\n{fenced}끝."]
    turns = tuple(turn(n, text) for n, text in enumerate(texts, 1))
    for stored in turns:
        await outbox.write(start, *logged(stored, ""))
    await asyncio.wait_for(outbox.drained(start.id), WAIT)
    found = parts(site)
    assert len(found) >= 3
    closing = head_block(start, turns, Strings("ko"))

    assert verify(read_record([*found, closing]), in_order=False).intact

    last = len(found) - 1  # the long turn's last piece is on the last part
    changed = found[last].replace("print('가나다')", "print('가나라')", 1)
    assert changed != found[last]
    record = read_record([*found[:last], changed, closing])
    assert verify(record, in_order=False) == Verdict(Problem.REPLY, 9, turns[8].seat)

    second = found[1]
    number = next(n for n in range(1, 9) if f"턴 {n} 본문" in second)
    edited = second.replace(f"턴 {number} 본문", f"턴 {number} 분문", 1)
    record = read_record([found[0], edited, *found[2:], closing])
    assert verify(record, in_order=False) == Verdict(Problem.REPLY, number, turns[number - 1].seat)
    assert BASE.endswith("round-log")
