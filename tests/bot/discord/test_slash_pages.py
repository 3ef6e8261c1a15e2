"""`/debate list` in pages: as many whole lines as fit in one message, then a line saying how
many more there are and the command that shows the next page (200 open debates showed 18 and
counted the rest in characters)."""

from __future__ import annotations

from datetime import timedelta

from handlers.core.model import Proposal
from tests.bot.discord.conftest import KO, BotRig
from tests.bot.discord.slash_support import MANAGE_GUILD, registered, run
from tests.doubles import draft
from tools.store.debates import SqliteStore

COUNT = 200


async def test_two_hundred_open_debates_are_listed_page_by_page_each_once(rig: BotRig) -> None:
    await rig.start()
    await registered(rig)
    assert rig.services is not None
    store, guild = SqliteStore(rig.services.db), int(rig.fake.world.guild_id)
    for n in range(COUNT):
        topic = f"주제 {n}: " + "캐시 계층 선택 " * (1 + n % 5)  # lines of unequal length
        channel = int(rig.channel_id) + n  # one waiting card per channel
        proposal = Proposal(channel, topic, "?", "r", 0.9, "", (1,), guild_id=guild)
        await store.create(draft(proposal, 3, rig.clock.now()), timedelta(days=1), ())
    dana = rig.fake.add_user("dana")

    seen: list[int] = []
    page = 1
    while True:
        said = await run(rig, dana, "list", permissions=MANAGE_GUILD, page=page)  # <= 2,000
        lines = said.splitlines()
        if not lines[-1].startswith("…"):  # the last page: every line a debate
            seen += [int(line.split(" ", 1)[0][1:]) for line in lines]
            break
        more = COUNT - len(seen) - (len(lines) - 1)
        assert lines[-1] == KO("admin.more", count=more, command=f"`/debate list page:{page + 1}`")
        assert len(said) > 1800  # as many whole lines as fit
        seen += [int(line.split(" ", 1)[0][1:]) for line in lines[:-1]]
        page += 1
    assert seen == list(range(1, COUNT + 1))  # every debate once, oldest first
    assert page > 5
    assert await run(rig, dana, "list", permissions=MANAGE_GUILD, page=page + 1) == KO(
        "admin.no_page", page=page + 1, pages=page
    )
