"""The Round-Log in numbered parts (Wiki.js and LocalWiki): each part below the limit, each
linking the next, every character of every turn on some part, and a huge refused proposal
shown shortened instead of losing the turn's section."""

from __future__ import annotations

import asyncio
import re
from dataclasses import replace
from pathlib import Path

from handlers.core.effects import WriteWorkingDocument
from handlers.core.i18n import Strings
from handlers.core.model import Debate, ParsedReply, WikiAction, WikiPage
from tests.effects import logged
from tests.fakes.fake_wikijs import FakeWikiJs
from tests.tools.wiki.support import (
    TOPIC,
    WAIT,
    CrashAfterWrite,
    Notices,
    OutboxFactory,
    Site,
    debate,
    turn,
)
from tools.wiki.pages import page_title
from tools.wiki.round_log import NEXT_PART

BASE = "debates/7-캐시-계층-선택-redis-vs-in-process-lru/round-log"
LIMIT = 4000


def parts(site: Site) -> list[str]:
    """The contents of the Round-Log's parts, in order, following the links."""
    found, number = [], 1
    while (page := site.page(BASE if number == 1 else f"{BASE}-{number}")) is not None:
        found.append(page.content)
        number += 1
    return found


async def test_the_round_log_grows_in_linked_parts_within_the_limit(
    site: Site, make_outbox: OutboxFactory
) -> None:
    outbox = make_outbox(site.backend(), part_limit=LIMIT)
    start = debate()
    fenced = "```py\n" + "print('가나다')\n" * 300 + "```\n"  # one turn longer than a part
    texts = [f"턴 {n} 본문 " * 60 for n in range(1, 9)] + [f"긴 턴\n{fenced}끝."]
    for number, text in enumerate(texts, 1):
        await outbox.write(start, *logged(turn(number, text), ""))
    await asyncio.wait_for(outbox.drained(start.id), WAIT)

    found = parts(site)
    assert len(found) >= 3
    assert all(len(content) <= LIMIT for content in found)
    for number, content in enumerate(found[:-1], 1):
        link = content.rsplit(NEXT_PART)[1]
        assert re.search(rf"\[{number + 1}부\]\([^)]*-lru/round-log-{number + 1}(\.md)?\)", link)
    assert NEXT_PART not in found[-1]
    whole = "\n".join(found)
    for text in texts[:-1]:
        assert text.strip() in whole
    # the long turn is cut at line ends: every line of it is on some part, fences balanced
    assert whole.count("print('가나다')") == 300
    for content in found:
        assert len(re.findall(r"^```", content, re.MULTILINE)) % 2 == 0


async def test_a_crash_after_linking_a_full_part_resumes_in_the_next(
    site: Site, make_outbox: OutboxFactory
) -> None:
    start = debate()
    first = make_outbox(site.backend(), part_limit=LIMIT)
    for number in (1, 2):
        # two turns fill part 1 (each section with its entry and chain markers), the third not
        await first.write(start, *logged(turn(number, "가" * 1300), ""))
    await asyncio.wait_for(first.drained(start.id), WAIT)
    await first.aclose()
    crashing = make_outbox(CrashAfterWrite(site.backend(), BASE), part_limit=LIMIT)
    await crashing.write(start, *logged(turn(3, "나" * 1500), ""))
    await asyncio.wait_for(crashing.drained(start.id), WAIT)  # died with the "process"
    assert await crashing.pending(start.id) == 1
    await crashing.aclose()
    assert NEXT_PART in parts(site)[0] and len(parts(site)) == 1  # linked, then died

    again = make_outbox(site.backend(), part_limit=LIMIT)
    await again.start()
    await asyncio.wait_for(again.drained(start.id), WAIT)
    found = parts(site)
    assert len(found) == 2 and found[1].count("나" * 1500) == 1
    assert "[1부]" in found[1]  # where the Round-Log began


async def test_a_huge_refused_proposal_is_shown_shortened_and_the_section_lands(
    site: Site, make_outbox: OutboxFactory
) -> None:
    outbox = make_outbox(site.backend())
    start = debate()
    huge = "거절될 제안 " * 200_000  # 1.4 M characters
    action = WikiAction(page="Agenda", mode="replace", content=huge)
    reply = replace(turn(1, "의견"), parsed=ParsedReply("의견", wiki_action=action))
    await outbox.write(start, *logged(reply, ""))
    await asyncio.wait_for(outbox.drained(start.id), WAIT)
    (content,) = parts(site)
    assert "의견" in content and len(content) < 30_000
    omitted = len(huge) - content.index("… (") + content.index("거절될")
    assert f"글자 {omitted}자 생략" in content and "sha256 000000000000" in content


async def test_past_wikijs_body_limit_the_round_log_goes_on_in_parts(
    fake_wikijs: FakeWikiJs, make_outbox: OutboxFactory, tmp_path: Path
) -> None:
    """The reported failure: once the page passed 5 MB, Wiki.js refused every later turn."""
    site = Site("wikijs", fake_wikijs, tmp_path)
    notices = Notices()
    outbox = make_outbox(site.backend(), notices)  # the default limit
    start = debate()
    texts = [f"{n}번째 긴 발언 " + "가나다라마바사 " * 22_000 for n in range(1, 7)]  # 1 M chars
    for number, text in enumerate(texts, 1):
        await outbox.write(start, *logged(turn(number, text), ""))
    await asyncio.wait_for(outbox.drained(start.id), WAIT)
    assert [key for _, key, _ in notices.said if key == "wiki.write_refused"] == []
    found = parts(site)
    assert len(found) >= 3
    whole = "".join(found)
    assert all(whole.count(text.strip()) == 1 for text in texts)


async def test_the_words_the_writer_adds_are_in_the_debate_s_language(
    site: Site, make_outbox: OutboxFactory
) -> None:
    """A debate run in Portuguese on a bot whose LANGUAGE is Korean: the Round-Log's first
    line, its parts' titles and links, and a person's-edit heading are Portuguese."""
    pt = Strings("pt-BR")
    spoken = replace(
        debate(working_document="rascunho v1"),
        setup=replace(debate(working_document="rascunho v1").setup, language="pt-BR"),
    )

    async def debate_of(debate_id: int) -> Debate:
        assert debate_id == spoken.id
        return spoken

    outbox = make_outbox(site.backend(), part_limit=LIMIT, debate_of=debate_of)
    for number in (1, 2, 3):
        await outbox.write(spoken, *logged(turn(number, "가" * 1500), ""))
    await outbox.write(spoken, WriteWorkingDocument(1))
    await asyncio.wait_for(outbox.drained(spoken.id), WAIT)
    first, second = site.page(BASE), site.page(f"{BASE}-2")
    assert first is not None and second is not None
    assert first.content.startswith(pt("wiki.round_log.intro"))
    assert pt("wiki.round_log.continued", part=2, url="").split("](")[0] in first.content
    assert second.content.startswith(pt("wiki.round_log.intro"))  # each part begins so
    assert pt("wiki.round_log.continues", part=1, url="").split("](")[0] in second.content
    assert second.title.endswith(f" ({pt('wiki.round_log.part', part=2)})")
    assert page_title(TOPIC, WikiPage.ROUND_LOG, pt) == first.title

    path = BASE.removesuffix("round-log") + "working-document"
    site.edit_as_person(path, "rascunho v1\n\nnota de uma pessoa")
    await outbox.write(
        replace(spoken, moderation=replace(spoken.moderation, working_document="rascunho v2")),
        WriteWorkingDocument(2),
    )
    await asyncio.wait_for(outbox.drained(spoken.id), WAIT)
    edited = site.page(path)
    assert edited is not None
    assert f"## {pt('wiki.human_edit.heading')}" in edited.content
    assert pt("wiki.human_edit.note") in edited.content
